/**
 * The dashboard's typed API client is generated from Herald's own OpenAPI document
 * (openapi-typescript -> web/src/api/schema.d.ts, used with openapi-fetch). This test builds
 * the real app on a test database, generates the types from `app.swagger()` and checks that
 * the committed file is current. `npm run gen:api` runs it with HERALD_WRITE_API_CLIENT=1 to
 * rewrite the file instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../support/app.ts';

const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src/api/schema.d.ts');
const HEADER = '/**\n * Generated from Herald\'s OpenAPI document (GET /v1/openapi.json) by `npm run gen:api`\n * (test/web/openapi-client.test.ts). Do not edit by hand.\n */\n\n';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestApp(); });
afterAll(async () => { await ctx?.close(); });

describe('generated API client', () => {
  it('web/src/api/schema.d.ts matches the OpenAPI document the app serves', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const generated = HEADER + astToString(await openapiTS(doc, { alphabetize: true }));
    if (process.env.HERALD_WRITE_API_CLIENT === '1') {
      fs.mkdirSync(path.dirname(OUT), { recursive: true });
      fs.writeFileSync(OUT, generated);
      return;
    }
    const committed = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
    expect(committed === generated, 'web/src/api/schema.d.ts is out of date with the API: run `npm run gen:api` and commit the result').toBe(true);
  });
});
