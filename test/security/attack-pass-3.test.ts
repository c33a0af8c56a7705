/**
 * Third attack pass, through the real app on real PostgreSQL:
 *   1. a team member scoped to some profiles reaches no data of the other profiles, on any GET
 *      route without a path parameter, and webhooks are the owner's (decision 0043);
 *   2. an API key creates keys only within its own permissions, expiry and profiles;
 *   3. a page number past what PostgreSQL's bigint holds is a 400 naming the field, on every list;
 *   4. analytics requests refused for the plan (402) do not spend the analytics limit;
 *   5. webhook custom headers follow RFC 7230 (token names, no CR/LF in values);
 *   6. sign-in: a sliding window, and a lockout the right password from a known browser passes
 *      (docs/decisions/0010-dashboard-sessions.md).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.ts';
import { LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS } from '../../src/modules/sessions/service.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { listAppRoutes } from '../support/routes.ts';

// Built at collection time: one test per discovered route is generated below.
const ctx: TestContext = await createTestApp({ env: { HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS: 'true', HERALD_ANALYTICS_RATE_LIMIT: '3' } });
afterAll(async () => { await ctx.close(); });

const origin = { origin: 'http://localhost:80', host: 'localhost:80' };
const HOOK_URL = 'http://127.0.0.1:9/hook';

/** Signs up a member invited by `owner` with the scope; returns the session headers (cookie + CSRF token). */
async function member(owner: Tenant, scope: 'all' | 'profiles', profileIds?: string[]) {
  const token = (await ctx.app.inject({ method: 'POST', url: '/v1/invite/tokens', headers: owner.headers, payload: { scope, profileIds } })).json().token;
  const signup = await ctx.app.inject({ method: 'POST', url: '/auth/signup', headers: origin, payload: { inviteToken: token, name: 'Member', email: `member${newId()}@example.test`, password: 'member password' } });
  expect(signup.statusCode, signup.body).toBe(201);
  return { cookie: String(signup.headers['set-cookie']).split(';')[0], 'x-csrf-token': signup.json().csrfToken as string, ...origin };
}

/** GET routes of /v1 without path parameters, read from the real app. */
function listRoutesWithoutParams(): string[] {
  return [...new Set(listAppRoutes(ctx.app).filter((r) => r.method === 'GET' && r.path.startsWith('/v1/') && r.params.length === 0 && !r.path.includes('*')).map((r) => r.path))];
}

describe('1. a member scoped to some profiles reaches none of the others', () => {
  const setup = (async () => {
    const owner = await createTenant(ctx, { addons: ['analytics'] });
    const mine = await createProfile(ctx, owner, 'Member brand');
    const other = await createProfile(ctx, owner, 'Owner only');
    const myAccount = await insertAccount(ctx, owner, mine, 'bluesky');
    const otherAccount = await insertAccount(ctx, owner, other, 'bluesky');
    const hook = await ctx.app.inject({ method: 'POST', url: '/v1/webhooks/settings', headers: owner.headers, payload: { name: 'owner hook', url: HOOK_URL, events: ['post.scheduled'] } });
    expect(hook.statusCode, hook.body).toBe(200);
    const marker = `owner-only-${newId()}`;
    const post = await ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: owner.headers,
      payload: { content: marker, scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: otherAccount }] },
    });
    expect(post.statusCode, post.body).toBe(201);
    const postId = post.json().post._id as string;
    // One delivery attempt of the post.scheduled event, written down as the worker writes it.
    const { rowCount } = await ctx.db.query(
      `INSERT INTO webhook_delivery_logs (tenant_id, webhook_id, webhook_name, delivery_id, event_id, event, url, status, status_code, response_body, error_message, attempt_number, duration_ms)
       SELECT d.tenant_id, d.webhook_id, 'owner hook', d.id, d.event_id, d.event, $2, 'failed', NULL, NULL, 'connection refused', 1, 3
         FROM webhook_deliveries d WHERE d.tenant_id = $1`, [owner.userId, HOOK_URL]);
    expect(rowCount).toBeGreaterThan(0);
    // A publishing log entry of the other profile's post.
    await ctx.db.query(
      `INSERT INTO publish_attempts (target_id, attempt, worker_id, phase, outcome, error, finished_at, tenant_id, post_id, account_id, platform, action)
       SELECT id, 1, 'w', 'commit', 'failed', $2, now(), tenant_id, post_id, account_id, platform, 'publish' FROM post_targets WHERE post_id = $1`, [postId, marker]);
    const headers = await member(owner, 'profiles', [mine]);
    // The owner's API key limited to the member's profile (decision 0063) must see no more than the member.
    const scoped = await ctx.app.inject({ method: 'POST', url: '/v1/api-keys', headers: owner.headers, payload: { name: 'scoped', scope: 'profiles', profileIds: [mine] } });
    expect(scoped.statusCode, scoped.body).toBe(201);
    const keyHeaders = { authorization: `Bearer ${scoped.json().apiKey.key as string}` };
    return { owner, mine, other, myAccount, otherAccount, postId, marker, webhook: hook.json().webhook as { _id: string; secret: string; url: string }, headers, keyHeaders };
  })();

  it('sanity: the member cannot read the other profile\'s post directly', async () => {
    const s = await setup;
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/posts/${s.postId}`, headers: s.headers })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/posts/${s.postId}`, headers: s.owner.headers })).statusCode).toBe(200);
  });

  it('every webhook route answers 403 to the member, and the owner\'s webhook is unchanged and gets no member webhook', async () => {
    const s = await setup;
    const calls: Array<[string, string, object?]> = [
      ['GET', '/v1/webhooks/settings'],
      ['GET', '/v1/webhooks/logs'],
      ['POST', '/v1/webhooks/settings', { name: 'member hook', url: 'http://127.0.0.1:9/member', events: ['post.scheduled'] }],
      ['PUT', '/v1/webhooks/settings', { webhookId: s.webhook._id, url: 'http://127.0.0.1:9/stolen' }],
      ['DELETE', `/v1/webhooks/settings?webhookId=${s.webhook._id}`],
      ['POST', '/v1/webhooks/test', { webhookId: s.webhook._id }],
      ['POST', '/v1/webhooks/logs/redeliver', { webhookId: s.webhook._id, eventId: '00000000-0000-4000-8000-000000000000' }],
    ];
    for (const [method, url, payload] of calls) for (const headers of [s.headers, s.keyHeaders]) {
      const res = await ctx.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
      expect(res.body).not.toContain(s.webhook.secret);
      expect(res.body).not.toContain(s.marker);
    }
    const list = await ctx.app.inject({ method: 'GET', url: '/v1/webhooks/settings', headers: s.owner.headers });
    expect(list.json().webhooks).toEqual([expect.objectContaining({ _id: s.webhook._id, url: HOOK_URL, secret: s.webhook.secret })]);
  });

  it('a member with every profile keeps the webhook routes', async () => {
    const s = await setup;
    const all = await member(s.owner, 'all');
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/webhooks/logs', headers: all });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain(s.postId);
  });

  const routes = listRoutesWithoutParams();
  it('covers the routes that list across profiles (sanity)', () => {
    expect(routes).toEqual(expect.arrayContaining(['/v1/webhooks/logs', '/v1/webhooks/settings', '/v1/logs', '/v1/analytics', '/v1/posts', '/v1/accounts', '/v1/usage-stats']));
  });
  for (const path of routes) for (const caller of ['member', 'profile-scoped key'] as const) {
    it(`GET ${path} shows the ${caller} nothing of the other profile`, async () => {
      const s = await setup;
      const res = await ctx.app.inject({ method: 'GET', url: path, headers: caller === 'member' ? s.headers : s.keyHeaders });
      expect(res.statusCode, res.body).toBeLessThan(500);
      for (const secret of [s.other, s.otherAccount, s.postId, s.marker, s.webhook.secret]) expect(res.body, `${path}: ${res.body}`).not.toContain(secret);
      if (path === '/v1/accounts') expect(res.json().accounts.map((a: { _id: string }) => a._id)).toEqual([s.myAccount]);
    });
  }
});

describe('2. an API key creates keys only within its own permissions and expiry', () => {
  async function keyWith(owner: Tenant, payload: object) {
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/api-keys', headers: owner.headers, payload: { name: 'limited', ...payload } });
    expect(res.statusCode, res.body).toBe(201);
    return { authorization: `Bearer ${res.json().apiKey.key as string}` };
  }

  it('refuses a key with permissions the creating key lacks, or with every permission by default (400 naming permissions)', async () => {
    const owner = await createTenant(ctx);
    const limited = await keyWith(owner, { permissions: ['api-keys:write'] });
    for (const payload of [{ name: 'escalated' }, { name: 'escalated', permissions: ['api-keys:write', 'posts:write'] }, { name: 'escalated', permission: 'read' }]) {
      const res = await ctx.app.inject({ method: 'POST', url: '/v1/api-keys', headers: limited, payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { permissions: [expect.any(String)] } } });
    }
    const { rows } = await ctx.db.query<{ name: string }>('SELECT name FROM api_keys WHERE user_id = $1', [owner.userId]);
    expect(rows.map((r) => r.name)).not.toContain('escalated');
    const same = await ctx.app.inject({ method: 'POST', url: '/v1/api-keys', headers: limited, payload: { name: 'same', permissions: ['api-keys:write'] } });
    expect(same.statusCode, same.body).toBe(201);
    expect(same.json().apiKey.permissions).toEqual(['api-keys:write']);
  });

  it('refuses a key that outlives the creating key (400 naming expiresIn)', async () => {
    const owner = await createTenant(ctx);
    const expiring = await keyWith(owner, { expiresIn: 3 });
    for (const payload of [{ name: 'forever' }, { name: 'forever', expiresIn: null }, { name: 'forever', expiresIn: 4 }]) {
      const res = await ctx.app.inject({ method: 'POST', url: '/v1/api-keys', headers: expiring, payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { expiresIn: [expect.any(String)] } } });
    }
    const ok = await ctx.app.inject({ method: 'POST', url: '/v1/api-keys', headers: expiring, payload: { name: 'shorter', expiresIn: 2 } });
    expect(ok.statusCode, ok.body).toBe(201);
    // The owner's full key without expiry still creates what it likes.
    expect((await ctx.app.inject({ method: 'POST', url: '/v1/api-keys', headers: owner.headers, payload: { name: 'full' } })).statusCode).toBe(201);
  });

  it('a profile-scoped key creates only keys within its profiles, and lists and revokes only those (decision 0063)', async () => {
    const owner = await createTenant(ctx);
    const [a, b, c] = [await createProfile(ctx, owner, 'A'), await createProfile(ctx, owner, 'B'), await createProfile(ctx, owner, 'C')];
    const ab = await keyWith(owner, { scope: 'profiles', profileIds: [a, b] });
    const refused: Array<[object, string]> = [
      [{ name: 'escalated' }, 'scope'], [{ name: 'escalated', scope: 'full' }, 'scope'],
      [{ name: 'escalated', scope: 'profiles', profileIds: [a, c] }, 'profileIds'], [{ name: 'escalated', scope: 'profiles' }, 'profileIds'],
    ];
    for (const [payload, field] of refused) {
      const res = await ctx.app.inject({ method: 'POST', url: '/v1/api-keys', headers: ab, payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { [field]: [expect.any(String)] } } });
    }
    const { rows } = await ctx.db.query<{ name: string }>('SELECT name FROM api_keys WHERE user_id = $1', [owner.userId]);
    expect(rows.map((r) => r.name)).not.toContain('escalated');
    const sub = await ctx.app.inject({ method: 'POST', url: '/v1/api-keys', headers: ab, payload: { name: 'only A', scope: 'profiles', profileIds: [a] } });
    expect(sub.statusCode, sub.body).toBe(201);
    expect(sub.json().apiKey).toMatchObject({ scope: 'profiles', profileIds: [{ _id: a, name: 'A' }] });
    // It sees and revokes the keys within its profiles only: the owner's full key is not its to revoke.
    const listed = (await ctx.app.inject({ method: 'GET', url: '/v1/api-keys', headers: ab })).json().apiKeys as Array<{ id: string; name: string }>;
    expect(listed.map((k) => k.name).sort()).toEqual(['limited', 'only A']);
    const full = (await ctx.app.inject({ method: 'GET', url: '/v1/api-keys', headers: owner.headers })).json().apiKeys.find((k: { scope: string }) => k.scope === 'full');
    expect((await ctx.app.inject({ method: 'DELETE', url: `/v1/api-keys/${full.id as string}`, headers: ab })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/api-keys', headers: owner.headers })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/v1/api-keys/${sub.json().apiKey.id as string}`, headers: ab })).statusCode).toBe(200);
    // Another tenant's profile is not one of the owner's (400 naming profileIds, nothing written).
    const stranger = await createTenant(ctx);
    const foreign = await createProfile(ctx, stranger, 'Foreign');
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/api-keys', headers: owner.headers, payload: { name: 'foreign', scope: 'profiles', profileIds: [foreign] } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details.fields.profileIds).toBeDefined();
  });
});

describe('3. a page past bigint is a 400 naming the field, never a 500', () => {
  const HUGE = ['99999999999999999999', '1e21'];
  const lists: Array<[string, string]> = [
    ['/v1/analytics', 'page'], ['/v1/posts', 'page'], ['/v1/logs', 'page'], ['/v1/logs', 'skip'], ['/v1/media', 'page'],
    ['/v1/video-clips/jobs', 'page'], ['/v1/webhooks/logs', 'skip'],
  ];
  const owner = createTenant(ctx, { addons: ['analytics', 'clips'] });
  for (const [path, field] of lists) {
    for (const v of HUGE) {
      it(`GET ${path}?${field}=${v}`, async () => {
        const res = await ctx.app.inject({ method: 'GET', url: `${path}?${field}=${v}`, headers: (await owner).headers });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().details.fields[field], res.body).toBeDefined();
      });
    }
  }
  for (const path of ['/v1/analytics', '/v1/posts', '/v1/logs', '/v1/media', '/v1/video-clips/jobs', '/v1/webhooks/logs']) {
    it(`GET ${path} with a huge limit is clamped or refused, never a 500`, async () => {
      const res = await ctx.app.inject({ method: 'GET', url: `${path}?limit=99999999999999999999`, headers: (await owner).headers });
      expect([200, 400], res.body).toContain(res.statusCode);
    });
  }
});

describe('4. analytics requests refused for the plan do not spend the analytics limit', () => {
  it('402s are not counted: the first request after the add-on is granted is answered', async () => {
    const owner = await createTenant(ctx);
    for (let i = 0; i < 5; i++) {
      const res = await ctx.app.inject({ method: 'GET', url: '/v1/analytics', headers: owner.headers });
      expect(res.statusCode, res.body).toBe(402);
      expect(res.json().code).toBe('analytics_addon_required');
    }
    await ctx.services.users.setAddon(owner.userId, 'analytics', true);
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/analytics', headers: owner.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('2');
  });
});

describe('5. webhook custom headers follow RFC 7230', () => {
  const bad: Array<[string, Record<string, string>]> = [
    ['a name with CR/LF', { 'X-Bad\r\nInjected': 'v' }],
    ['a name with a space', { 'X Space': 'v' }],
    ['a name with a colon', { 'X-Colon:': 'v' }],
    ['an empty name', { '': 'v' }],
    ['a value with CR/LF', { 'X-Ok': 'a\r\nInjected: b' }],
    ['a value with a bare LF', { 'X-Ok': 'a\nb' }],
  ];
  for (const [what, customHeaders] of bad) {
    it(`refuses ${what} on create and update with 400 naming customHeaders`, async () => {
      const t = await createTenant(ctx);
      const created = await ctx.app.inject({ method: 'POST', url: '/v1/webhooks/settings', headers: t.headers, payload: { url: HOOK_URL, events: ['post.published'], customHeaders } });
      expect(created.statusCode, created.body).toBe(400);
      expect(Object.keys(created.json().details.fields).some((f) => f.startsWith('customHeaders')), created.body).toBe(true);
      const ok = await ctx.app.inject({ method: 'POST', url: '/v1/webhooks/settings', headers: t.headers, payload: { url: HOOK_URL, events: ['post.published'] } });
      expect(ok.statusCode, ok.body).toBe(200);
      const updated = await ctx.app.inject({ method: 'PUT', url: '/v1/webhooks/settings', headers: t.headers, payload: { webhookId: ok.json().webhook._id, customHeaders } });
      expect(updated.statusCode, updated.body).toBe(400);
      expect(Object.keys(updated.json().details.fields).some((f) => f.startsWith('customHeaders')), updated.body).toBe(true);
      const { rows } = await ctx.db.query<{ custom_headers: object }>('SELECT custom_headers FROM webhooks WHERE tenant_id = $1', [t.userId]);
      expect(rows.every((r) => Object.keys(r.custom_headers).length === 0)).toBe(true);
    });
  }

  it('accepts token names with the RFC 7230 punctuation and ordinary values', async () => {
    const t = await createTenant(ctx);
    const res = await ctx.app.inject({
      method: 'POST', url: '/v1/webhooks/settings', headers: t.headers,
      payload: { url: HOOK_URL, events: ['post.published'], customHeaders: { 'X-Api_Key.v2': 'Bearer abc def', Authorization: 'Token x y' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().webhook.customHeaders).toEqual({ 'X-Api_Key.v2': 'Bearer abc def', Authorization: 'Token x y' });
  });
});

describe('6. sign-in: a sliding window, and a lockout a known browser passes', () => {
  // Its own app and clock: the test moves time across window boundaries.
  let now = Date.now();
  const login = createTestApp({ deps: { clock: () => new Date(now) } });
  afterAll(async () => { await (await login).close(); });
  const password = 'correct horse battery';
  let n = 0;

  async function user() {
    const email = `login${Date.now()}${n++}@example.test`;
    await (await login).services.users.createRootUser({ email, password });
    return email;
  }
  async function signIn(email: string, pw: string, opts: { cookie?: string; ip?: string } = {}) {
    return (await login).app.inject({
      method: 'POST', url: '/auth/login', payload: { email, password: pw },
      headers: { ...origin, ...(opts.cookie ? { cookie: opts.cookie } : {}) }, remoteAddress: opts.ip ?? `198.51.100.${n++ % 250}`,
    });
  }
  /** The known-browser cookie a successful sign-in set (`name=value`), if any. */
  function browserCookie(res: { headers: Record<string, unknown> }): string | undefined {
    const set = res.headers['set-cookie'];
    const all = Array.isArray(set) ? set : set ? [String(set)] : [];
    return all.map((c) => c.split(';')[0]).find((c) => !c.startsWith('herald_session='));
  }

  it('lets no more than the limit of wrong passwords through across a fixed-window boundary', async () => {
    const email = await user();
    // 13.5 s before a 15-minute boundary, then 13.5 s after it (27 s in all).
    const boundary = Math.ceil(Date.now() / LOGIN_WINDOW_MS) * LOGIN_WINDOW_MS + LOGIN_WINDOW_MS;
    now = boundary - 13_500;
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) expect((await signIn(email, `wrong-${i}`)).statusCode).toBe(401);
    now = boundary + 13_500;
    const after = await signIn(email, 'wrong-after');
    expect(after.statusCode, after.body).toBe(429);
    expect(after.json().code).toBe('RATE_LIMITED');
    // The window slides: once the first failures are 15 minutes old, guesses are checked again.
    now = boundary - 13_500 + LOGIN_WINDOW_MS + 1_000;
    expect((await signIn(email, 'wrong-later')).statusCode).toBe(401);
    now = Date.now();
  });

  it('a locked-out email still signs in with the right password from a browser it signed in from before', async () => {
    const email = await user();
    const first = await signIn(email, password);
    expect(first.statusCode).toBe(200);
    const known = browserCookie(first);
    expect(known, String(first.headers['set-cookie'])).toBeDefined();
    expect(String(first.headers['set-cookie'])).toMatch(/HttpOnly/);

    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) expect((await signIn(email, `wrong-${i}`)).statusCode).toBe(401);
    // Anyone else (no cookie, a forged one, another user's) is locked out, even with the right password.
    expect((await signIn(email, password)).statusCode).toBe(429);
    expect((await signIn(email, password, { cookie: `${known!.split('=')[0]}=${'A'.repeat(43)}` })).statusCode).toBe(429);
    const someoneElse = await user();
    const theirs = browserCookie(await signIn(someoneElse, password));
    expect((await signIn(email, password, { cookie: theirs })).statusCode).toBe(429);
    // The owner's browser passes.
    const back = await signIn(email, password, { cookie: known });
    expect(back.statusCode, back.body).toBe(200);
    // Only a hash of the cookie is stored.
    const { rows } = await (await login).db.query<{ t: string }>('SELECT row_to_json(b)::text AS t FROM known_browsers b');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.t).join()).not.toContain(known!.split('=')[1]);
  });

  it('a known browser has its own limit of wrong passwords', async () => {
    const email = await user();
    const known = browserCookie(await signIn(email, password));
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) expect((await signIn(email, `wrong-${i}`, { cookie: known })).statusCode).toBe(401);
    expect((await signIn(email, 'wrong-again', { cookie: known })).statusCode).toBe(429);
    expect((await signIn(email, password, { cookie: known })).statusCode).toBe(429);
  });
});
