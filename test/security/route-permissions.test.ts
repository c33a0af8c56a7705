/**
 * Every /v1 route declares the permission an API key needs for it (route config `permission`,
 * checked on onRequest in src/http/app.ts), is explicitly public (config `public: true`, no
 * key at all) or explicitly open to any valid credential (config `anyCredential: true`: a route
 * answering only about the caller, GET /v1/auth/verify). A route with none of these would let any key of the tenant through, whatever its
 * permissions. The routes are read from the real app (test/support/routes.ts), so a route added
 * later is covered; the test names each route that lacks both.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/shared/permissions.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { listAppRoutes, recordRouteConfigs } from '../support/routes.ts';

const configs = recordRouteConfigs();
const ctx: TestContext = await createTestApp();
configs.stop();
afterAll(async () => { await ctx.close(); });

const V1 = listAppRoutes(ctx.app).filter((r) => r.path === '/v1' || r.path.startsWith('/v1/'));
const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

describe('route permissions', () => {
  it('reads the config of every /v1 route of the real app (sanity)', () => {
    expect(V1.length).toBeGreaterThan(50);
    expect(V1.filter((r) => configs.configOf(ctx.app, r) === undefined).map(key)).toEqual([]);
    expect(V1.filter((r) => configs.configOf(ctx.app, r)?.permission).length).toBeGreaterThan(50);
    expect(configs.configOf(ctx.app, { method: 'GET', path: '/v1/openapi.json' })).toMatchObject({ public: true });
  });

  it('every /v1 route declares a known permission or is public', () => {
    const problems: string[] = [];
    for (const r of V1) {
      const config = configs.configOf(ctx.app, r) ?? {};
      if (config.public === true || config.anyCredential === true) continue;
      if (!config.permission) problems.push(`${key(r)}: declares no permission and is not public (config: { permission } or { public: true })`);
      else if (!ALL_PERMISSIONS.includes(config.permission)) problems.push(`${key(r)}: unknown permission "${config.permission}"`);
    }
    expect(problems).toEqual([]);
  });
});
