/**
 * Garbage in, 4xx out: every /v1 route that takes a JSON body, every path id and the
 * query strings are fed wrong types, wrong shapes, malformed JSON, oversized strings,
 * NUL characters, lone UTF-16 surrogates, deep nesting, non-finite numbers (`Infinity`,
 * `1e309`) and malformed multipart bodies; NUL in query strings on every route, /v1 or not.
 * Each answer must be a 4xx in the one error shape (400 with `details.fields` naming the
 * field, or BAD_REQUEST for unparsable bodies), never a 5xx.
 *
 * The bodies and query parameters under test are derived from the app's own OpenAPI
 * document and the routes from `printRoutes` (listAppRoutes, test/support/routes.ts), so new fields and routes are covered
 * without editing this file.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { newId } from '../../src/core/ids.ts';
import { MAX_JSON_DEPTH } from '../../src/http/app.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type TestContext } from '../support/app.ts';
import { listAppRoutes, type AppRoute } from '../support/routes.ts';
import { makePng, multipart } from '../support/png.ts';

const ctx: TestContext = await createTestApp({ env: { HERALD_BLUESKY_SERVICE_URL: 'http://127.0.0.1:9' } });
afterAll(async () => { await ctx.close(); });

interface Schema {
  type?: string | string[];
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  maxLength?: number;
  pattern?: string;
  additionalProperties?: boolean | Schema;
}

type Route = AppRoute;


/** Every route, /v1 or not (dashboard sign-in, web pages, uploads). */
const ALL_ROUTES: Route[] = listAppRoutes(ctx.app);
const ROUTES = ALL_ROUTES.filter((r) => r.path.startsWith('/v1/'));
const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
  paths: Record<string, Record<string, {
    requestBody?: { content?: Record<string, { schema: Schema }> };
    parameters?: Array<{ in: string; name: string; schema: Schema }>;
  }>>;
};

interface Op { method: string; path: string; body?: Schema; query: Array<{ name: string; schema: Schema }> }
const OPS: Op[] = [];
for (const [p, ops] of Object.entries(doc.paths)) {
  for (const [m, op] of Object.entries(ops)) {
    OPS.push({
      method: m.toUpperCase(), path: p.replace(/\{([^}]+)\}/g, ':$1'),
      body: op.requestBody?.content?.['application/json']?.schema,
      query: (op.parameters ?? []).filter((x) => x.in === 'query').map((x) => ({ name: x.name, schema: x.schema })),
    });
  }
}
const JSON_OPS = OPS.filter((o) => o.body && o.path.startsWith('/v1/'));
const name = (o: { method: string; path: string }) => `${o.method} ${o.path}`;

// The caller's own real resources fill the path, so a route that skipped validation would act on them.
const tenant = await createTenant(ctx);
const profileId = await createProfile(ctx, tenant);
const accountId = await insertAccount(ctx, tenant, profileId, 'bluesky');
const draft = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: tenant.headers, payload: { content: 'mine', isDraft: true } });
const keyRes = await ctx.app.inject({ method: 'POST', url: '/v1/api-keys', headers: tenant.headers, payload: { name: 'spare' } });
// A finished AI clipping job of the caller's (written directly: its id is what the suite needs).
const jobId = newId();
await ctx.db.query(
  `INSERT INTO clip_jobs (id, tenant_id, video_url, video_file_name, status, stage, progress, watermark, tier, finished_at)
   VALUES ($1, $2, 'https://videos.example.test/mine.mp4', 'mine.mp4', 'completed', 'done', 100, true, 'free', now())`, [jobId, tenant.userId]);
// A pending team invite of the caller's (DELETE /v1/invite/tokens/:inviteId).
await ctx.app.inject({ method: 'POST', url: '/v1/invite/tokens', headers: tenant.headers, payload: { scope: 'all' } });
const { rows: [invite] } = await ctx.db.query<{ id: string }>('SELECT id FROM team_invites WHERE tenant_id = $1', [tenant.userId]);
// A file of the caller's media library (PATCH, DELETE, convert /v1/media/:mediaId).
const png = multipart('files', [{ filename: 'mine.png', contentType: 'image/png', data: makePng(4, 4, 'noise') }]);
await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...tenant.headers, 'content-type': png.contentType }, payload: png.payload });
const mediaId = (await ctx.app.inject({ method: 'GET', url: '/v1/media', headers: tenant.headers })).json().files[0]._id as string;
// An account group of the caller's (PUT and DELETE /v1/account-groups/:groupId).
const group = await ctx.app.inject({ method: 'POST', url: '/v1/account-groups', headers: tenant.headers, payload: { name: 'mine', accountIds: [accountId] } });
// A followed feed of the caller's (GET, PUT, DELETE /v1/feeds/:feedId and its check).
const feed = await ctx.app.inject({ method: 'POST', url: '/v1/feeds', headers: tenant.headers, payload: { profileId, url: 'https://feeds.example.test/mine.xml', mode: 'draft', accountIds: [accountId] } });
const OWN: Record<string, string> = {
  groupId: group.json().group._id,
  feedId: feed.json().feed._id,
  postId: draft.json().post._id, profileId, accountId, keyId: keyRes.json().apiKey.id, userId: tenant.userId, jobId, inviteId: invite.id, mediaId,
  platform: 'twitter',
  // A publishing log entry id (one that does not exist).
  logId: '0'.repeat(23) + '1',
  // A platform invite's page (public, by token): one nobody was issued.
  token: 'no-such-invite-token',
  // An OAuth client (connected app) id: one nobody registered.
  clientId: `hmcp_${'0'.repeat(32)}`,
  // A client review link id (decision 0059): one nobody made.
  linkId: '0'.repeat(23) + '2',
};
/** Path parameters that are not resource ids (names from a fixed list, invite tokens), with the values each refuses. */
const ENUM_PARAMS: Record<string, string[]> = {
  platform: ['nope', 'TWITTER', 'x', '%00'],
  // Invite tokens are base64url, not hex ids: refused are other characters (a short one is an unknown invite, 404).
  token: ['%00', 'a%2Fb', '..%2F..%2Fx', 'a%20b', 'a%2Cb'],
};
const fill = (path: string, override: Record<string, string> = {}) =>
  path.replace(/:([A-Za-z0-9_]+)/g, (_, p: string) => {
    if (p in override) return override[p];
    if (!OWN[p]) throw new Error(`no own id for path parameter :${p}; add it to OWN in test/security/bad-input.test.ts`);
    return OWN[p];
  });

function send(method: string, url: string, payload?: string | object, contentType = 'application/json'): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...tenant.headers };
  if (payload !== undefined) headers['content-type'] = contentType;
  return ctx.app.inject({
    method: method as 'POST', url, headers,
    ...(payload !== undefined ? { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) } : {}),
  });
}

/** A 400 in the error shape whose details.fields names `field` (or a field under it). */
function expectFieldError(res: LightMyRequestResponse, field: string, what: string) {
  expect(res.statusCode, `${what}: ${res.body.slice(0, 300)}`).toBe(400);
  const body = res.json();
  expect(body, what).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.any(String), requestId: expect.any(String) });
  const keys = Object.keys(body.details?.fields ?? {});
  expect(keys.some((k) => k === field || k.startsWith(`${field}.`)), `${what}: fields ${JSON.stringify(keys)} should name ${field}`).toBe(true);
  for (const msgs of Object.values<string[]>(body.details.fields)) expect(msgs.length, what).toBeGreaterThan(0);
}

function expectBadRequest(res: LightMyRequestResponse, what: string) {
  expect(res.statusCode, `${what}: ${res.body.slice(0, 300)}`).toBe(400);
  expect(res.json(), what).toMatchObject({ code: 'BAD_REQUEST', error: expect.any(String), requestId: expect.any(String), details: { fields: { '(body)': expect.any(Array) } } });
}

/** The JSON types a schema accepts (through anyOf, enum and const too). */
function typesOf(s: Schema): Set<string> {
  const out = new Set<string>();
  if (Array.isArray(s.type)) s.type.forEach((t) => out.add(t));
  else if (s.type) out.add(s.type);
  for (const b of s.anyOf ?? []) typesOf(b).forEach((t) => out.add(t));
  for (const v of [...(s.enum ?? []), ...('const' in s ? [s.const] : [])]) out.add(v === null ? 'null' : typeof v);
  if (out.has('integer')) out.add('number');
  return out;
}

/**
 * A value of a type the schema refuses and that AJV cannot coerce (the app coerces
 * scalars and single-element arrays): an object, or else an array of two objects.
 */
function wrongValue(s: Schema): unknown {
  const t = typesOf(s);
  if (t.size === 0) return undefined; // free-form
  if (!t.has('object')) return { wrong: true };
  if (!t.has('array')) return [{ a: 1 }, { b: 2 }];
  return undefined;
}

function maxLengthOf(s: Schema): number | undefined {
  if (typeof s.maxLength === 'number') return s.maxLength;
  for (const b of s.anyOf ?? []) { const m = maxLengthOf(b); if (m !== undefined) return m; }
  return undefined;
}

const isFreeFormObject = (s: Schema) => s.type === 'object' && s.additionalProperties !== false && !(s.required?.length);
/** `{"a":{"a":...}}` nested n deep, as JSON text (JSON.stringify of such an object would overflow the test's own stack). */
const deepJson = (n: number) => `${'{"a":'.repeat(n)}"leaf"${'}'.repeat(n)}`;
/** A JSON body `{...fields, [prop]: <deep>}` built as text. */
const withDeep = (fields: object, prop: string, n: number) => `${JSON.stringify(fields).slice(0, -1)}${Object.keys(fields).length ? ',' : ''}${JSON.stringify(prop)}:${deepJson(n)}}`;

describe('discovery', () => {
  it('finds the JSON-body routes and every path parameter has an own id', () => {
    expect(JSON_OPS.map(name)).toEqual(expect.arrayContaining([
      'POST /v1/posts', 'PUT /v1/posts/:postId', 'POST /v1/profiles', 'PUT /v1/profiles/:profileId',
      'PUT /v1/accounts/:accountId', 'POST /v1/api-keys', 'POST /v1/connect/bluesky/credentials',
    ]));
    const missing = ROUTES.flatMap((r) => r.params.filter((p) => !OWN[p]).map((p) => `${r.method} ${r.path} :${p}`));
    expect(missing).toEqual([]);
  });
});

describe.each(JSON_OPS.map((o) => [name(o), o] as const))('%s', (_n, op) => {
  const url = fill(op.path);
  const props = Object.entries(op.body!.properties ?? {});

  it('refuses a body that is not an object (array, string, number, boolean, null) naming (body)', async () => {
    for (const body of ['[]', '[{}]', '[{"name":"x"}]', '"text"', '42', 'true', 'null']) {
      const res = await send(op.method, url, body);
      expectFieldError(res, '(body)', body);
    }
  });

  it('refuses malformed, empty and prototype-poisoning JSON as BAD_REQUEST', async () => {
    for (const body of ['{"name":', '{name: 1}', "{'a':1}", '{"a":1}}', '{"a":1,}', '\u0000', 'nul', '{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"isAdmin":true}}}']) {
      expectBadRequest(await send(op.method, url, body), JSON.stringify(body));
    }
    expectBadRequest(await send(op.method, url, ''), 'empty body');
  });

  it('refuses bodies over the 2 MB limit with 413, and other content types with 415 or 400', async () => {
    const big = await send(op.method, url, JSON.stringify({ [props[0]?.[0] ?? 'x']: 'x'.repeat(2 * 1024 * 1024 + 10) }));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const form = await send(op.method, url, 'a=1&b=2', 'application/x-www-form-urlencoded');
    expect(form.statusCode).toBe(415);
    expect(form.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    const text = await send(op.method, url, 'hello', 'text/plain');
    expectFieldError(text, '(body)', 'text/plain');
  });

  it('names every required field when they are missing', async () => {
    const required = op.body!.required ?? [];
    if (required.length === 0) return;
    const res = await send(op.method, url, {});
    for (const f of required) expectFieldError(res, f, `missing ${f}`);
  });

  it('names each field given a value of the wrong type', async () => {
    let tested = 0;
    for (const [prop, schema] of props) {
      const v = wrongValue(schema);
      if (v === undefined) continue;
      tested++;
      expectFieldError(await send(op.method, url, { [prop]: v }), prop, `${prop}=${JSON.stringify(v)}`);
    }
    expect(tested).toBeGreaterThan(0);
  });

  it('names each field given a string beyond its maxLength', async () => {
    for (const [prop, schema] of props) {
      const max = maxLengthOf(schema);
      if (max === undefined) continue;
      expectFieldError(await send(op.method, url, { [prop]: 'x'.repeat(max + 1) }), prop, `${prop} of ${max + 1} characters`);
    }
  });

  it('names fields inside array items (wrong types, missing required)', async () => {
    for (const [prop, schema] of props) {
      const items = schema.items;
      if (!typesOf(schema).has('array') || !items?.properties) continue;
      for (const [itemProp, itemSchema] of Object.entries(items.properties)) {
        const v = wrongValue(itemSchema);
        if (v === undefined) continue;
        expectFieldError(await send(op.method, url, { [prop]: [{ [itemProp]: v }] }), `${prop}.0.${itemProp}`, `${prop}[0].${itemProp}`);
      }
      if (items.required?.length) {
        const res = await send(op.method, url, { [prop]: [{}] });
        for (const f of items.required) expectFieldError(res, `${prop}.0.${f}`, `${prop}[0] without ${f}`);
      }
    }
  });

  it('names string fields that contain NUL characters (PostgreSQL cannot store them)', async () => {
    for (const [prop, schema] of props) {
      if (!typesOf(schema).has('string')) continue;
      expectFieldError(await send(op.method, url, { [prop]: 'a\u0000b' }), prop, `${prop} with NUL`);
    }
  });

  it('names fields holding lone UTF-16 surrogates, at any depth and in field names (jsonb refuses them)', async () => {
    // Sent as JSON escapes, as a client would: JSON.stringify writes a lone surrogate the same way.
    for (const lone of ['\\udfff', '\\ud800', 'a\\ud83db']) {
      for (const [prop, schema] of props) {
        expectFieldError(await send(op.method, url, `{${JSON.stringify(prop)}:"${lone}"}`), prop, `${prop}="${lone}"`);
        if (isFreeFormObject(schema)) {
          expectFieldError(await send(op.method, url, `{${JSON.stringify(prop)}:{"k":["${lone}"]}}`), `${prop}.k.0`, `${prop}.k[0]="${lone}"`);
          expectFieldError(await send(op.method, url, `{${JSON.stringify(prop)}:{"${lone}":1}}`), prop, `${prop} key "${lone}"`);
        }
        const items = schema.items;
        if (typesOf(schema).has('array') && items?.properties) {
          for (const itemProp of Object.keys(items.properties)) {
            expectFieldError(await send(op.method, url, `{${JSON.stringify(prop)}:[{${JSON.stringify(itemProp)}:"${lone}"}]}`), `${prop}.0.${itemProp}`, `${prop}[0].${itemProp}="${lone}"`);
          }
        }
      }
    }
  });

  it(`names free-form objects nested deeper than ${MAX_JSON_DEPTH} levels`, async () => {
    for (const [prop, schema] of props) {
      if (!isFreeFormObject(schema)) continue;
      for (const depth of [MAX_JSON_DEPTH + 5, 5000]) {
        expectFieldError(await send(op.method, url, withDeep({}, prop, depth)), prop, `${prop} nested ${depth} deep`);
      }
    }
  });
});

describe('free-form fields and NUL characters deep inside a post', () => {
  it('refuses NUL in nested values and keys, and deep nesting, without storing anything', async () => {
    const cases: Array<[object, string]> = [
      [{ content: 'x', isDraft: true, metadata: { note: 'a\u0000b' } }, 'metadata.note'],
      [{ content: 'x', isDraft: true, metadata: { 'k\u0000': 1 } }, 'metadata.k\\u0000'],
      [{ content: 'x', isDraft: true, tags: ['ok', 'a\u0000'] }, 'tags.1'],
      [{ content: 'x', scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId, platformSpecificData: { firstComment: 'a\u0000' } }] }, 'platforms.0.platformSpecificData.firstComment'],
      // A target's own time (decision 0064): the post's forms only, not in the past, NUL refused.
      ...['2031-13-01T00:00:00Z', '2031-01-01T00:00:00+02:00', '2020-01-01T00:00:00Z', 'a\u0000', ''.padEnd(41, '1')].map((own): [object, string] =>
        [{ content: 'x', scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId, scheduledFor: own }] }, 'platforms.0.scheduledFor']),
    ];
    const before = (await send('GET', '/v1/posts?includeHidden=true')).json().pagination.total;
    for (const [body, field] of cases) expectFieldError(await send('POST', '/v1/posts', body), field, JSON.stringify(body).slice(0, 80));
    const target = `{"content":"x","scheduledFor":"2031-01-01T00:00:00Z","platforms":[{"platform":"bluesky","accountId":"${accountId}","platformSpecificData":${deepJson(200)}}]}`;
    expectFieldError(await send('POST', '/v1/posts', target), 'platforms.0.platformSpecificData', 'deep platformSpecificData');
    // With an Idempotency-Key the body is hashed too: still a 400, not a stack overflow.
    const idem = await ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: { ...tenant.headers, 'idempotency-key': 'deep-1', 'content-type': 'application/json' },
      payload: withDeep({ content: 'x', isDraft: true }, 'metadata', 20_000),
    });
    expectFieldError(idem, 'metadata', 'deep body with an idempotency key');
    expect((await send('GET', '/v1/posts?includeHidden=true')).json().pagination.total).toBe(before);
    // Nesting within the limit is fine.
    const ok = await send('POST', '/v1/posts', withDeep({ content: 'x', isDraft: true }, 'metadata', MAX_JSON_DEPTH - 2));
    expect(ok.statusCode, ok.body).toBe(201);
  });
});

describe('recycling on a post (decision 0061): wrong values name their field, nothing is stored', () => {
  const sched = { content: 'x', scheduledFor: '2031-01-01T00:00:00Z' };
  const CASES: Array<[string, object, string]> = [
    ['gap not an integer', { ...sched, recycling: { gap: 1.5 } }, 'recycling.gap'],
    ['gap too large', { ...sched, recycling: { gap: 1000 } }, 'recycling.gap'],
    ['gap as a list', { ...sched, recycling: { gap: [1, 2] } }, 'recycling.gap'],
    ['gapFreq day', { ...sched, recycling: { gap: 1, gapFreq: 'day' } }, 'recycling.gapFreq'],
    ['unknown field', { ...sched, recycling: { gap: 1, every: 'week' } }, 'recycling'],
    ['expireCount 0', { ...sched, recycling: { gap: 1, expireCount: 0 } }, 'recycling.expireCount'],
    ['expireDate without a time zone', { ...sched, recycling: { gap: 1, expireDate: '2040-01-01T00:00:00' } }, 'recycling.expireDate'],
    ['an empty startDate', { ...sched, recycling: { gap: 1, startDate: '' } }, 'recycling.startDate'],
    ['startDate in year 99999', { ...sched, recycling: { gap: 1, startDate: '+099999-01-01T00:00:00Z' } }, 'recycling.startDate'],
    ['NUL in a variation', { ...sched, recycling: { gap: 1, contentVariations: ['a\u0000', 'b'] } }, 'recycling.contentVariations.0'],
    ['an empty variation', { ...sched, recycling: { gap: 1, contentVariations: ['  ', 'b'] } }, 'recycling.contentVariations.0'],
    ['21 variations', { ...sched, recycling: { gap: 1, contentVariations: Array.from({ length: 21 }, (_, i) => `v${i}`) } }, 'recycling.contentVariations'],
    ['recycling as a string', { ...sched, recycling: 'weekly' }, 'recycling'],
    ['recycling as false', { ...sched, recycling: false }, 'recycling'],
    ['recycling as 0', { ...sched, recycling: 0 }, 'recycling'],
  ];
  it.each(CASES)('POST /v1/posts with %s', async (_what, body, field) => {
    const before = (await send('GET', '/v1/posts?includeHidden=true')).json().pagination.total;
    expectFieldError(await send('POST', '/v1/posts', body), field, JSON.stringify(body).slice(0, 80));
    expect((await send('GET', '/v1/posts?includeHidden=true')).json().pagination.total).toBe(before);
  });
  it.each(CASES)('PUT /v1/posts/:postId (recycling only) with %s', async (_what, body, field) => {
    const { recycling } = body as { recycling: unknown };
    const before = (await send('GET', `/v1/posts/${OWN.postId}`)).json().post;
    expectFieldError(await send('PUT', `/v1/posts/${OWN.postId}`, { recycling }), field, JSON.stringify(recycling).slice(0, 80));
    expect((await send('GET', `/v1/posts/${OWN.postId}`)).json().post).toEqual(before);
  });
});

describe('lone UTF-16 surrogates deep inside a post', () => {
  it('names the field path of every JSON-stored field holding one, stores nothing, and keeps well-formed pairs', async () => {
    const target = (psd: string) => `"platforms":[{"platform":"bluesky","accountId":"${accountId}","platformSpecificData":${psd}}]`;
    const media = (field: string) => `"mediaItems":[{"type":"image","url":"https://cdn.example.com/a.png","${field}":"\\udfff"}]`;
    const cases: Array<[string, string]> = [
      ['"tags":["ok","\\udfff"]', 'tags.1'],
      ['"metadata":{"note":{"deep":"x\\ud800"}}', 'metadata.note.deep'],
      ['"metadata":{"\\udc00":1}', 'metadata.\\udc00'],
      [target('{"firstComment":"\\udfff"}'), 'platforms.0.platformSpecificData.firstComment'],
      [target('{"threadItems":[{"content":"one"},{"content":"\\ud83d"}]}'), 'platforms.0.platformSpecificData.threadItems.1.content'],
      [media('filename'), 'mediaItems.0.filename'],
      [media('altText'), 'mediaItems.0.altText'],
      [media('thumbnail'), 'mediaItems.0.thumbnail'],
      ['"content":"\\udfff"', 'content'],
    ];
    const before = (await send('GET', '/v1/posts?includeHidden=true')).json().pagination.total;
    for (const [fields, field] of cases) {
      const res = await send('POST', '/v1/posts', `{${fields.startsWith('"content"') ? '' : '"content":"x",'}"scheduledFor":"2031-01-01T00:00:00Z",${fields}}`);
      expectFieldError(res, field, fields);
      expect(res.json().details.fields[field], fields).toEqual([expect.stringMatching(/lone UTF-16 surrogate/)]);
    }
    const put = await send('PUT', `/v1/posts/${OWN.postId}`, '{"tags":["\\udfff"]}');
    expectFieldError(put, 'tags.0', 'PUT tags');
    expect((await send('GET', '/v1/posts?includeHidden=true')).json().pagination.total).toBe(before);
    // A surrogate pair (an emoji written as two escapes) is fine.
    const ok = await send('POST', '/v1/posts', '{"content":"\\ud83d\\ude00","isDraft":true,"tags":["\\ud83d\\ude00"],"metadata":{"\\ud83d\\ude00":"\\ud83d\\ude00"}}');
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().post).toMatchObject({ content: '\u{1F600}', tags: ['\u{1F600}'], metadata: { '\u{1F600}': '\u{1F600}' } });
  });
});

describe('every write route refuses malformed JSON without a 5xx', () => {
  const writes = ROUTES.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method));
  it.each(writes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_n, r) => {
    expectBadRequest(await send(r.method, fill(r.path), '{"oops":'), 'malformed');
  });
});

describe('path ids that are not 24 hex characters answer 400 naming the parameter', () => {
  const BAD_IDS = ['nothex', '123', 'g'.repeat(24), 'a'.repeat(23), 'a'.repeat(25), '%00', 'abc%2Fdef', '..%2F..%2Fx', `${'a'.repeat(12)}%20${'a'.repeat(11)}`, '-1', '0x' + 'a'.repeat(22)];
  const withIds = ROUTES.filter((r) => r.params.length > 0);
  it('covers routes with ids (sanity)', () => { expect(withIds.length).toBeGreaterThanOrEqual(10); });
  it.each(withIds.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_n, r) => {
    for (const param of r.params) {
      for (const bad of ENUM_PARAMS[param] ?? BAD_IDS) {
        const res = await send(r.method, fill(r.path, { [param]: bad }));
        if (r.method === 'HEAD') { expect(res.statusCode, bad).toBe(400); continue; }
        expectFieldError(res, param, `:${param}=${bad}`);
      }
    }
  });
});

describe('query strings', () => {
  const CASES: Array<[string, string]> = [
    ['page=abc', 'page'], ['page=0', 'page'], ['page=-1', 'page'], ['page=1.5', 'page'], ['page=100000000000000000000', 'page'],
    ['page=1&page=2', 'page'], ['limit=abc', 'limit'], ['limit=0', 'limit'], ['limit=-5', 'limit'], ['limit=', 'limit'],
    ['status=bogus', 'status'], ['status=failed&status=draft', 'status'], ['platform=myspace', 'platform'],
    ['profileId=nothex', 'profileId'], ['profileId=%00', 'profileId'], ['createdBy=123', 'createdBy'],
    ['includeHidden=maybe', 'includeHidden'], ['dateFrom=notadate', 'dateFrom'], ['dateTo=2031-13-45', 'dateTo'],
    [`dateFrom=${'2'.repeat(41)}`, 'dateFrom'], ['dateFrom=-271821-04-20T00:00:00Z', 'dateFrom'], ['dateTo=275760-09-13T00:00:00Z', 'dateTo'],
  ];
  it.each(CASES)('GET /v1/posts?%s names %s', async (q, field) => {
    expectFieldError(await send('GET', `/v1/posts?${q}`), field, q);
  });

  it('GET /v1/posts clamps a large limit to 100 and accepts numbers in other notations', async () => {
    const res = await send('GET', '/v1/posts?limit=100000&page=1e0');
    expect(res.statusCode).toBe(200);
    expect(res.json().pagination).toMatchObject({ page: 1, limit: 100 });
  });

  it('every GET route names each query parameter given a value of the wrong type', async () => {
    const wrongQuery = (s: Schema): string | undefined => {
      const t = typesOf(s);
      if (t.has('string') && s.pattern) return 'not!valid';
      if (t.has('string') && (s.enum || s.anyOf?.some((b) => b.enum || 'const' in b))) return 'not-a-valid-value';
      if (t.has('string')) return s.maxLength !== undefined ? 'x'.repeat(s.maxLength + 1) : undefined;
      if (t.has('integer') || t.has('number')) return 'abc';
      if (t.has('boolean')) return 'maybe';
      return undefined;
    };
    let tested = 0;
    for (const op of OPS.filter((o) => o.method === 'GET' && o.path.startsWith('/v1/'))) {
      for (const q of op.query) {
        const v = wrongQuery(q.schema);
        if (v === undefined) continue;
        tested++;
        expectFieldError(await send('GET', `${fill(op.path)}?${q.name}=${encodeURIComponent(v)}`), q.name, `${name(op)}?${q.name}=${v}`);
      }
    }
    expect(tested).toBeGreaterThanOrEqual(10);
  });
});

describe('named queues (decision 0062): bad queue ids, names and flags name the field', () => {
  const slots = [{ dayOfWeek: 1, time: '09:00' }];
  const CASES: Array<[string, string, string, object | undefined, string]> = [
    ['GET slots with a queueId that is no id', 'GET', `/v1/queue/slots?profileId=${profileId}&queueId=nothex`, undefined, 'queueId'],
    ['GET slots with all=yes', 'GET', `/v1/queue/slots?profileId=${profileId}&all=yes`, undefined, 'all'],
    ['GET preview with a NUL queueId', 'GET', `/v1/queue/preview?profileId=${profileId}&queueId=%00`, undefined, 'queueId'],
    ['GET next-slot with a short queueId', 'GET', `/v1/queue/next-slot?profileId=${profileId}&queueId=abc`, undefined, 'queueId'],
    ['DELETE with a queueId that is no id', 'DELETE', `/v1/queue/slots?profileId=${profileId}&queueId=${'z'.repeat(24)}`, undefined, 'queueId'],
    ['POST without a name', 'POST', '/v1/queue/slots', { profileId, timezone: 'UTC', slots }, 'name'],
    ['POST with a blank name', 'POST', '/v1/queue/slots', { profileId, name: '  ', timezone: 'UTC', slots }, 'name'],
    ['POST with a name object', 'POST', '/v1/queue/slots', { profileId, name: { a: 1 }, timezone: 'UTC', slots }, 'name'],
    ['POST with an unknown field', 'POST', '/v1/queue/slots', { profileId, name: 'x', timezone: 'UTC', slots, isDefault: true }, 'isDefault'],
    ['PUT with setAsDefault a string', 'PUT', '/v1/queue/slots', { profileId, timezone: 'UTC', slots, setAsDefault: 'yes please' }, 'setAsDefault'],
    ['PUT with a queueId number', 'PUT', '/v1/queue/slots', { profileId, queueId: 12, timezone: 'UTC', slots }, 'queueId'],
    ['POST /v1/posts with queueId alone', 'POST', '/v1/posts', { content: 'x', queueId: '0'.repeat(24), scheduledFor: '2031-01-01T00:00:00Z' }, 'queueId'],
    ['POST /v1/posts with queueId no id', 'POST', '/v1/posts', { content: 'x', queuedFromProfile: profileId, queueId: 'nothex' }, 'queueId'],
  ];
  it.each(CASES)('%s', async (_n, method, url, body, field) => {
    expectFieldError(await send(method, url, body), field, `${method} ${url}`);
  });
  it('wrote nothing', async () => {
    expect((await send('GET', `/v1/queue/slots?profileId=${profileId}&all=true`)).json()).toEqual({ queues: [], count: 0 });
  });
});

describe('non-finite numbers in query strings', () => {
  // AJV coerces `Infinity` and `1e309` to Infinity and then skips minimum/maximum (finite numbers only).
  const NON_FINITE = ['Infinity', '-Infinity', '1e309', '-1e309', '+Infinity'];

  it.each([['GET /v1/posts', '/v1/posts?page=', 'page'], ['GET /v1/posts', '/v1/posts?limit=', 'limit'], ['GET /v1/queue/preview', `/v1/queue/preview?profileId=${profileId}&count=`, 'count']])(
    '%s names %s', async (_n, prefix, field) => {
      for (const v of NON_FINITE) expectFieldError(await send('GET', `${prefix}${encodeURIComponent(v)}`), field, `${field}=${v}`);
    });

  it('every route names each numeric query parameter given a non-finite number', async () => {
    // Required parameters get valid values, so the answer is about the numeric one.
    const valid = (q: { name: string; schema: Schema }) => OWN[q.name] ?? (typesOf(q.schema).has('integer') ? '1' : 'x');
    let tested = 0;
    for (const op of OPS.filter((o) => o.path.startsWith('/v1/'))) {
      const required = op.query.filter((q) => (doc.paths[op.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[op.method.toLowerCase()]?.parameters ?? [])
        .some((p) => p.in === 'query' && p.name === q.name && (p as { required?: boolean }).required));
      for (const q of op.query) {
        const t = typesOf(q.schema);
        if (!t.has('integer') && !t.has('number')) continue;
        tested++;
        for (const v of NON_FINITE) {
          const others = required.filter((r) => r.name !== q.name).map((r) => `${r.name}=${encodeURIComponent(valid(r))}`);
          const url = `${fill(op.path)}?${[...others, `${q.name}=${encodeURIComponent(v)}`].join('&')}`;
          const res = await send(op.method, url, op.method === 'GET' || op.method === 'DELETE' ? undefined : {});
          if (op.method === 'HEAD') { expect(res.statusCode, url).toBe(400); continue; }
          expectFieldError(res, q.name, `${name(op)} ${url}`);
        }
      }
    }
    expect(tested).toBeGreaterThanOrEqual(4);
  });
});

describe('NUL in query strings, on every route (/v1 or not)', () => {
  /** Path parameters of routes outside /v1, and wildcards: any value that routes. */
  const anyPath = (p: string) => p.replace(/:([A-Za-z0-9_]+)/g, (_, k: string) => OWN[k] ?? 'a'.repeat(24)).replace('*', 'x');
  const declared = (r: Route) => OPS.find((o) => o.method === r.method && o.path === r.path)?.query.map((q) => q.name) ?? [];
  it('covers the routes outside /v1 too (sanity)', () => {
    expect(ALL_ROUTES.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(['POST /auth/login', 'GET /auth/session', 'GET /dashboard/*', 'PATCH /uploads/:uploadId', 'PUT /uploads/presigned/:uploadId']));
  });
  it.each(ALL_ROUTES.filter((r) => r.method !== 'OPTIONS').map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_n, r) => {
    for (const field of [...new Set([...declared(r), 'q'])]) {
      for (const bad of ['%00', 'a%00b', '%C0%80']) {
        const url = `${anyPath(r.path)}?${field}=${bad}`;
        const res = await send(r.method, url);
        // An overlong NUL is not NUL (it decodes to U+FFFD): any answer but an error (GET /health may say 503 degraded).
        if (bad === '%C0%80') { expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).not.toBe(500); continue; }
        if (r.method === 'HEAD') { expect(res.statusCode, url).toBe(400); continue; }
        expectFieldError(res, field, url);
      }
    }
  });
});

describe('malformed multipart bodies on every write route', () => {
  const boundary = 'herald-fuzz';
  const truncated = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nplatforms,profiles\r\nbluesky,x`;
  const BODIES: Array<[string, string, string]> = [
    ['no boundary', 'multipart/form-data', truncated],
    ['empty boundary', 'multipart/form-data; boundary=', truncated],
    ['boundary over 256 characters', `multipart/form-data; boundary=${'b'.repeat(300)}`, truncated],
    ['truncated body', `multipart/form-data; boundary=${boundary}`, truncated],
    ['headers only', `multipart/form-data; boundary=${boundary}`, `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.png"`],
    ['garbage', `multipart/form-data; boundary=${boundary}`, '\u0000\u0001 not multipart'],
  ];
  const anyPath = (p: string) => p.replace(/:([A-Za-z0-9_]+)/g, (_, k: string) => OWN[k] ?? 'a'.repeat(24)).replace('*', 'x');
  const writes = ALL_ROUTES.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method));

  it.each(writes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s answers a 4xx in the error shape, never a 5xx', async (_n, r) => {
    for (const [what, contentType, body] of BODIES) {
      const res = await send(r.method, anyPath(r.path), body, contentType);
      expect(res.statusCode, `${what}: ${res.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${what}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
      const json = res.json();
      expect(json, what).toMatchObject({ error: expect.any(String), code: expect.any(String), requestId: expect.any(String) });
      if (res.statusCode === 400) expect(Object.keys(json.details?.fields ?? {}).length, `${what}: ${res.body}`).toBeGreaterThan(0);
    }
  });

  it.each(['/v1/media', '/v1/media/upload-direct', '/v1/posts/bulk-upload'])('POST %s: 400 BAD_REQUEST naming (body) for each malformed body', async (url) => {
    for (const [what, contentType, body] of BODIES) expectBadRequest(await send('POST', url, body, contentType), `${url} ${what}`);
  });
});

describe('dashboard sign-in (outside /v1) refuses what the database cannot store', () => {
  it.each([['NUL', '"a\\u0000@example.com"'], ['a lone surrogate', '"a\\udfff@example.com"']])('POST /auth/login with %s in the email names email', async (_n, email) => {
    const res = await ctx.app.inject({ method: 'POST', url: '/auth/login', headers: { 'content-type': 'application/json' }, payload: `{"email":${email},"password":"x"}` });
    expectFieldError(res, 'email', email);
  });
});
