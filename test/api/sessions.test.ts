/**
 * Dashboard sessions: email + password sign-in, the httpOnly SameSite cookie stored in
 * PostgreSQL, the cookie as an alternative to the API key on /v1, CSRF on state-changing
 * requests, logout, expiry, password change, and the sign-in rate limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestApp, type TestContext } from '../support/app.ts';
import { LOGIN_MAX_FAILURES, LOGIN_MAX_FAILURES_PER_ADDRESS } from '../../src/modules/sessions/service.ts';
import { reconcile } from '../../src/publishing/reconciler.ts';

let ctx: TestContext;
const email = `owner${Date.now()}@example.test`;
const password = 'correct horse battery';

beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.services.users.createRootUser({ email, password, name: 'Owner', plan: 'basic' });
});
afterAll(async () => { await ctx?.close(); });

async function login(e = email, p = password, headers: Record<string, string> = {}, remoteAddress?: string) {
  return ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { email: e, password: p }, headers: { origin: 'http://localhost:80', host: 'localhost:80', ...headers }, remoteAddress });
}

function cookieOf(res: { headers: Record<string, unknown> }): string {
  const set = String(res.headers['set-cookie']);
  return set.split(';')[0];
}

describe('sign-in', () => {
  it('refuses a wrong password and an unknown email with the same 401', async () => {
    const wrong = await login(email, 'nope nope nope');
    const unknown = await login('nobody@example.test', password);
    for (const r of [wrong, unknown]) {
      expect(r.statusCode).toBe(401);
      expect(r.json()).toMatchObject({ code: 'UNAUTHORIZED', error: 'Invalid email or password' });
      expect(r.headers['set-cookie']).toBeUndefined();
    }
  });

  it('signs in: httpOnly SameSite=Strict cookie, CSRF token, session row storing only a hash', async () => {
    const res = await login(email.toUpperCase(), password);
    expect(res.statusCode).toBe(200);
    const [set, browser] = res.headers['set-cookie'] as string[];
    expect(set).toMatch(/^herald_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    // The known-browser cookie goes back to the sign-in only.
    expect(browser).toMatch(/^herald_browser=[A-Za-z0-9_-]{43}; Path=\/auth\/login; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    const body = res.json();
    expect(body.user).toMatchObject({ email, name: 'Owner', isRoot: true, profileAccess: 'all' });
    expect(body.csrfToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const token = cookieOf(res).split('=')[1];
    const { rows } = await ctx.db.query<{ token_hash: Buffer }>('SELECT token_hash FROM sessions WHERE user_id = $1', [body.user._id]);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.token_hash.toString('hex').includes(Buffer.from(token).toString('hex')))).toBe(false);
    const me = await ctx.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: cookieOf(res) } });
    expect(me.statusCode).toBe(200);
    expect(me.json().csrfToken).toBe(body.csrfToken);
    expect(me.headers['cache-control']).toBe('no-store');
  });

  it('refuses a sign-in posted from another site (login CSRF)', async () => {
    const res = await login(email, password, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    const res2 = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(res2.statusCode).toBe(403);
  });
});

describe('the session on /v1', () => {
  let cookie: string;
  let csrf: string;
  beforeAll(async () => {
    const res = await login();
    cookie = cookieOf(res);
    csrf = res.json().csrfToken;
  });

  it('reads with the cookie alone', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/usage-stats', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().planName).toBe('Basic');
  });

  it('refuses state-changing requests without the CSRF token, with a wrong one, or from another origin', async () => {
    const payload = { name: 'Session brand' };
    const none = await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: { cookie }, payload });
    const wrong = await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: { cookie, 'x-csrf-token': `${csrf.slice(0, -1)}x` }, payload });
    const foreign = await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: { cookie, 'x-csrf-token': csrf, origin: 'https://evil.example' }, payload });
    for (const r of [none, wrong, foreign]) {
      expect(r.statusCode).toBe(403);
      expect(r.json()).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'csrf_failed' } });
    }
    const list = await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: { cookie } });
    expect(list.json().profiles).toEqual([]);
  });

  it('creates with the CSRF token from the same origin', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: { cookie, 'x-csrf-token': csrf, origin: 'http://localhost:80', host: 'localhost:80' }, payload: { name: 'Session brand', color: '#123456' } });
    expect(res.statusCode).toBe(201);
    expect(res.json().profile).toMatchObject({ name: 'Session brand', color: '#123456' });
  });

  it('lets an API key win over the cookie: a bad key is a 401 even with a valid session', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: { cookie, authorization: 'Bearer sk_nope' } });
    expect(res.statusCode).toBe(401);
  });

  it('keeps tenants apart: the session sees only its own tenant', async () => {
    const other = await createTenant(ctx);
    const created = await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: other.headers, payload: { name: 'Other tenant brand' } });
    const id = created.json().profile._id;
    const res = await ctx.app.inject({ method: 'GET', url: `/v1/profiles/${id}`, headers: { cookie } });
    expect(res.statusCode).toBe(404);
  });

  it('signs out: the cookie is cleared and the session no longer works', async () => {
    const { cookie: c2, csrf: t2 } = await login().then((r) => ({ cookie: cookieOf(r), csrf: r.json().csrfToken as string }));
    const noCsrf = await ctx.app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie: c2 } });
    expect(noCsrf.statusCode).toBe(403);
    const out = await ctx.app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie: c2, 'x-csrf-token': t2 } });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^herald_session=; .*Max-Age=0/);
    const after = await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: { cookie: c2 } });
    expect(after.statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: c2 } })).statusCode).toBe(401);
  });

  it('expires: an idle-expired session is refused', async () => {
    const r = await login();
    const c3 = cookieOf(r);
    await ctx.db.query("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = (SELECT id FROM sessions ORDER BY created_at DESC, id DESC LIMIT 1)");
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: { cookie: c3 } })).statusCode).toBe(401);
  });

  it('a password change signs every session out', async () => {
    const r = await login();
    const c4 = cookieOf(r);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: { cookie: c4 } })).statusCode).toBe(200);
    await ctx.services.sessions.setPassword(email, 'a brand new password');
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: { cookie: c4 } })).statusCode).toBe(401);
    expect((await login(email, password)).statusCode).toBe(401);
    expect((await login(email, 'a brand new password')).statusCode).toBe(200);
    await ctx.services.sessions.setPassword(email, password);
  });
});

describe('sign-in rate limit', () => {
  it(`locks an email out after ${LOGIN_MAX_FAILURES} failures, even with the right password`, async () => {
    const victim = `victim${Date.now()}@example.test`;
    await ctx.services.users.createRootUser({ email: victim, password });
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) expect((await login(victim, `wrong-${i}-password`)).statusCode).toBe(401);
    const locked = await login(victim, password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('RATE_LIMITED');
  });

  // Each test below signs in from its own documentation address (RFC 5737), so the
  // per-address counter of one test does not lock out the others.
  const statuses = (rs: Array<{ statusCode: number }>) => rs.map((r) => r.statusCode);

  /** Wrong sign-ins one after the other until the first 429; returns how many were checked (401). */
  async function untilLocked(attempt: (i: number) => Promise<{ statusCode: number }>): Promise<number> {
    for (let i = 0; ; i++) {
      const code = (await attempt(i)).statusCode;
      if (code === 429) return i;
      expect(code).toBe(401);
    }
  }

  it('checks at most the limit of passwords when wrong ones arrive in parallel for one email', async () => {
    const victim = `parallel${Date.now()}@example.test`;
    await ctx.services.users.createRootUser({ email: victim, password });
    const codes = statuses(await Promise.all(Array.from({ length: 30 }, (_, i) => login(victim, `wrong-${i}-password`, {}, '192.0.2.11'))));
    const checked = codes.filter((c) => c === 401).length;
    expect(checked).toBeLessThanOrEqual(LOGIN_MAX_FAILURES);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(30 - LOGIN_MAX_FAILURES);
    expect(codes.every((c) => c === 401 || c === 429)).toBe(true);
    // Refused attempts are taken back: exactly the limit of passwords is checked in the window, burst or not.
    expect(checked + await untilLocked((i) => login(victim, `later-${i}-password`, {}, '192.0.2.11'))).toBe(LOGIN_MAX_FAILURES);
    expect((await login(victim, password, {}, '192.0.2.12')).statusCode).toBe(429);
  });

  it('checks at most the per-address limit when wrong sign-ins for many emails arrive in parallel from one address', async () => {
    const n = LOGIN_MAX_FAILURES_PER_ADDRESS + 20;
    const codes = statuses(await Promise.all(Array.from({ length: n }, (_, i) => login(`nobody${i}-${Date.now()}@example.test`, 'wrong-password', {}, '192.0.2.21'))));
    const checked = codes.filter((c) => c === 401).length;
    expect(checked).toBeLessThanOrEqual(LOGIN_MAX_FAILURES_PER_ADDRESS);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(n - LOGIN_MAX_FAILURES_PER_ADDRESS);
    expect(checked + await untilLocked((i) => login(`later${i}-${Date.now()}@example.test`, 'wrong-password', {}, '192.0.2.21'))).toBe(LOGIN_MAX_FAILURES_PER_ADDRESS);
    // The address stays locked, even for a right password.
    expect((await login(email, password, {}, '192.0.2.21')).statusCode).toBe(429);
  });

  it('counts failures only: successful sign-ins do not use up the limit', async () => {
    const user = `regular${Date.now()}@example.test`;
    await ctx.services.users.createRootUser({ email: user, password });
    for (let i = 0; i < LOGIN_MAX_FAILURES + 5; i++) expect((await login(user, password, {}, '192.0.2.31')).statusCode).toBe(200);
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) expect((await login(user, `wrong-${i}-password`, {}, '192.0.2.31')).statusCode).toBe(401);
    expect((await login(user, password, {}, '192.0.2.31')).statusCode).toBe(429);
  });

  it('keeps 12-minute-old failures through a reconcile pass, and prunes attempts and windows that ended', async () => {
    const victim = `window${Date.now()}@example.test`;
    await ctx.services.users.createRootUser({ email: victim, password });
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) expect((await login(victim, `wrong-${i}-password`, {}, '192.0.2.41')).statusCode).toBe(401);
    const key = `login:email:${victim}`;
    await ctx.db.query(`UPDATE rate_limit_events SET at = at - interval '12 minutes' WHERE key = $1`, [key]);
    // A one-minute API window, and a sign-in failure, both long over.
    await ctx.db.query(`INSERT INTO rate_limit_counters (key, window_start, count, window_ms) VALUES ('api:old-window', now() - interval '12 minutes', 5, 60000)`);
    await ctx.db.query(`INSERT INTO rate_limit_events (key, at, window_ms) VALUES ('login:email:old@example.test', now() - interval '25 minutes', 900000)`);
    await reconcile(ctx.db, { staleMs: 60_000 });
    const { rows: counters } = await ctx.db.query(`SELECT key FROM rate_limit_counters WHERE key = 'api:old-window'`);
    expect(counters).toEqual([]);
    const { rows } = await ctx.db.query<{ key: string; n: number }>(
      `SELECT key, count(*)::int AS n FROM rate_limit_events WHERE key IN ($1, 'login:email:old@example.test') GROUP BY key`, [key]);
    expect(rows).toEqual([{ key, n: LOGIN_MAX_FAILURES }]);
    expect((await login(victim, password, {}, '192.0.2.42')).statusCode).toBe(429);
    // Three minutes later (15 after the failures) the window has slid past them.
    await ctx.db.query(`UPDATE rate_limit_events SET at = at - interval '3 minutes' WHERE key = $1`, [key]);
    expect((await login(victim, password, {}, '192.0.2.42')).statusCode).toBe(200);
  });
});
