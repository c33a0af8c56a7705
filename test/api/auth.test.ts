import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestApp, type TestContext } from '../support/app.ts';
import { KEY_CACHE_TTL_MS } from '../../src/modules/auth/service.ts';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestApp(); });
afterAll(async () => { await ctx.close(); });

describe('authentication', () => {
  it('answers 401 Unauthorized when the key is missing, malformed or unknown', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer sk_nope' }]) {
      const res = await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: 'Unauthorized', code: 'UNAUTHORIZED' });
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('rejects revoked and expired keys', async () => {
    const t = await createTenant(ctx);
    const created = await ctx.app.inject({ method: 'POST', url: '/v1/api-keys', headers: t.headers, payload: { name: 'temp', expiresIn: 1 } });
    expect(created.statusCode).toBe(201);
    const { apiKey } = created.json();
    expect(apiKey.key).toMatch(/^sk_[0-9a-f]{64}$/);
    expect(new Date(apiKey.expiresAt).getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);
    const h = { authorization: `Bearer ${apiKey.key}` };
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: h })).statusCode).toBe(200);
    // the key is never shown again
    const list = await ctx.app.inject({ method: 'GET', url: '/v1/api-keys', headers: t.headers });
    expect(list.json().apiKeys.find((k: { id: string }) => k.id === apiKey.id)).not.toHaveProperty('key');
    // Changed by another process (here: straight in the database): this process reads the key again within KEY_CACHE_TTL_MS.
    await ctx.db.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [apiKey.id]);
    await new Promise((r) => setTimeout(r, KEY_CACHE_TTL_MS + 50));
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: h })).statusCode).toBe(401);
    await ctx.db.query(`UPDATE api_keys SET expires_at = NULL WHERE id = $1`, [apiKey.id]);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: h })).statusCode, 'an expired key is never cached').toBe(200);
    // Revoked through this process: refused at once, not after the cache time.
    expect((await ctx.app.inject({ method: 'DELETE', url: `/v1/api-keys/${apiKey.id}`, headers: t.headers })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: h })).statusCode).toBe(401);
  });

  it('a key revoked by another process stops working within KEY_CACHE_TTL_MS here', async () => {
    const t = await createTenant(ctx);
    const other = await createTestApp({ databaseUrl: ctx.databaseUrl });
    try {
      expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: t.headers })).statusCode).toBe(200);
      const { rows } = await ctx.db.query<{ id: string }>('SELECT id FROM api_keys WHERE user_id = $1', [t.userId]);
      // The other process shares the database and revokes the key through its own API.
      expect((await other.app.inject({ method: 'DELETE', url: `/v1/api-keys/${rows[0].id}`, headers: t.headers })).statusCode).toBe(200);
      expect((await other.app.inject({ method: 'GET', url: '/v1/profiles', headers: t.headers })).statusCode).toBe(401);
      await new Promise((r) => setTimeout(r, KEY_CACHE_TTL_MS + 50));
      expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: t.headers })).statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('stores keys only as SHA-256 hashes', async () => {
    const t = await createTenant(ctx);
    const { rows } = await ctx.db.query<{ key_hash: Buffer }>('SELECT key_hash FROM api_keys WHERE user_id = $1', [t.userId]);
    const { createHash } = await import('node:crypto');
    expect(rows[0].key_hash.equals(createHash('sha256').update(t.apiKey).digest())).toBe(true);
    const dump = JSON.stringify((await ctx.db.query('SELECT * FROM api_keys WHERE user_id = $1', [t.userId])).rows);
    expect(dump).not.toContain(t.apiKey.slice(3, 40));
  });

  it('enforces permissions per route', async () => {
    const t = await createTenant(ctx, { permissions: ['posts:read'] });
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/posts', headers: t.headers })).statusCode).toBe(200);
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers, payload: { content: 'x', isDraft: true } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'insufficient_permissions', required_group: 'posts' });
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: t.headers })).statusCode).toBe(403);
  });

  it('checks the permission before validating the body: a read-only key learns nothing about body rules', async () => {
    const t = await createTenant(ctx, { permissions: ['posts:read'] });
    for (const payload of [{ content: { not: 'text' }, platforms: 'nope', unknownField: true }, {}]) {
      const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers, payload });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'insufficient_permissions' });
      expect(res.body).not.toMatch(/content|platforms|unknownField/);
    }
    // Malformed JSON too: the permission is checked before the body is even parsed.
    const malformed = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: { ...t.headers, 'content-type': 'application/json' }, payload: '{"content":' });
    expect(malformed.statusCode).toBe(403);
  });

  it('marks every /v1 answer, errors included, nosniff and not cacheable', async () => {
    const t = await createTenant(ctx);
    const answers = [
      await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: t.headers }),
      await ctx.app.inject({ method: 'GET', url: '/v1/profiles' }),
      await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers, payload: { content: { not: 'text' } } }),
      await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 401, 400, 200]);
    for (const r of answers) {
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['cache-control']).toBe('no-store');
    }
  });

  it('lists users and reads one; another tenant\'s user is a 404', async () => {
    const a = await createTenant(ctx);
    const b = await createTenant(ctx);
    const list = await ctx.app.inject({ method: 'GET', url: '/v1/users', headers: a.headers });
    expect(list.json()).toMatchObject({ currentUserId: a.userId, users: [{ _id: a.userId, isRoot: true, role: 'owner' }] });
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/users/${a.userId}`, headers: a.headers })).json().user._id).toBe(a.userId);
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/users/${b.userId}`, headers: a.headers })).statusCode).toBe(404);
  });

  it('echoes a caller x-request-id and includes it in error bodies', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
    expect(res.json().requestId).toBe('abc-123');
  });
});

describe('rate limits', () => {
  it('limits requests per minute by plan with X-RateLimit headers and 429', async () => {
    const rl = await createTestApp({ env: { HERALD_RATE_LIMIT: 'on' } });
    try {
      const t = await createTenant(rl, { plan: 'free' });
      let last;
      for (let i = 0; i < 60; i++) {
        last = await rl.app.inject({ method: 'GET', url: '/v1/profiles', headers: t.headers });
        expect(last.statusCode).toBe(200);
      }
      expect(last!.headers['x-ratelimit-limit']).toBe('60');
      expect(last!.headers['x-ratelimit-remaining']).toBe('0');
      const over = await rl.app.inject({ method: 'GET', url: '/v1/profiles', headers: t.headers });
      expect(over.statusCode).toBe(429);
      expect(over.json().code).toBe('RATE_LIMITED');
      const reset = Number(over.headers['x-ratelimit-reset']);
      expect(reset * 1000).toBeGreaterThan(Date.now());
      expect(reset * 1000 - Date.now()).toBeLessThanOrEqual(60_000);
    } finally {
      await rl.close();
    }
  });

  it('counts invalid and forbidden requests too: the limit runs before body validation', async () => {
    const rl = await createTestApp({ env: { HERALD_RATE_LIMIT: 'on' } });
    try {
      const t = await createTenant(rl, { plan: 'free' });
      const invalid = await rl.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers, payload: { content: { not: 'text' } } });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.headers['x-ratelimit-limit']).toBe('60');
      expect(invalid.headers['x-ratelimit-remaining']).toBe('59');
      const malformed = await rl.app.inject({ method: 'POST', url: '/v1/posts', headers: { ...t.headers, 'content-type': 'application/json' }, payload: '{' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.headers['x-ratelimit-remaining']).toBeDefined();
      const { rows } = await rl.db.query<{ count: number }>('SELECT count FROM rate_limit_counters WHERE key = $1', [`api:${t.userId}`]);
      // Two, unless the minute turned between the requests.
      expect([1, 2]).toContain(rows[0].count);
      const readOnly = await createTenant(rl, { plan: 'free', permissions: ['posts:read'] });
      const forbidden = await rl.app.inject({ method: 'POST', url: '/v1/posts', headers: readOnly.headers, payload: { content: { not: 'text' } } });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.headers['x-ratelimit-remaining']).toBe('59');
    } finally {
      await rl.close();
    }
  });
});
