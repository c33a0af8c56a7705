/**
 * pagination.total of GET /v1/posts comes from the post counters that triggers keep in the
 * writing transaction (docs/decisions/0034-post-counters.md). These tests hold it to a plain
 * count(*) of the posts table after every kind of write (concurrent creates, drafts, hidden
 * posts, inline publishing, failures, edits, deletes, writes of other modules, a rolled-back
 * transaction) and across the reconciler's folding of the counter rows, also while writers run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactPostCounters } from '../../src/modules/posts/repository.ts';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: new ScriptedAdapter() }) } });
});
afterAll(async () => { await ctx.close(); });

const STATUSES = ['draft', 'scheduled', 'publishing', 'published', 'failed', 'partial', 'cancelled'] as const;

const post = (t: Tenant, payload: object) => ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers, payload });
const total = async (t: Tenant, query: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/v1/posts?${query}`, headers: t.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().pagination.total as number;
};

/** Every counted total the API answers for the tenant, next to what count(*) says. */
async function totals(t: Tenant) {
  const api: Record<string, number> = {};
  const counted: Record<string, number> = {};
  for (const hidden of [false, true]) {
    for (const status of [undefined, ...STATUSES]) {
      const key = `${status ?? 'any'}${hidden ? '+hidden' : ''}`;
      api[key] = await total(t, `limit=1${status ? `&status=${status}` : ''}${hidden ? '&includeHidden=true' : ''}`);
      const { rows } = await ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM posts WHERE tenant_id = $1${hidden ? '' : ' AND NOT hidden'}${status ? ' AND status = $2' : ''}`,
        status ? [t.userId, status] : [t.userId]);
      counted[key] = rows[0].n;
    }
  }
  return { api, counted };
}

async function expectExact(t: Tenant) {
  const { api, counted } = await totals(t);
  expect(api).toEqual(counted);
  return counted;
}

async function setup() {
  const t = await createTenant(ctx);
  const profileId = await createProfile(ctx, t);
  const accountId = await insertAccount(ctx, t, profileId, 'bluesky');
  return { t, profileId, accountId };
}

describe('pagination.total from the post counters', () => {
  it('stays exact through concurrent creates, drafts, hidden posts, publishing, failures, edits, deletes and a rollback', async () => {
    const { t, accountId } = await setup();
    const other = await setup(); // another tenant's writes never show in this one's totals
    const target = [{ platform: 'bluesky', accountId }];

    const created = await Promise.all(Array.from({ length: 25 }, (_, i) =>
      post(t, { content: `scheduled ${i}`, scheduledFor: '2034-05-01T10:00:00Z', platforms: target })));
    expect(created.map((r) => r.statusCode)).toEqual(Array(25).fill(201));
    await Promise.all(Array.from({ length: 5 }, (_, i) =>
      post(other.t, { content: `other ${i}`, scheduledFor: '2034-05-01T10:00:00Z', platforms: [{ platform: 'bluesky', accountId: other.accountId }] })));
    await post(t, { content: 'a draft', isDraft: true });
    await post(t, { content: 'hidden draft', isDraft: true, hidden: true });
    expect((await post(t, { content: 'now', publishNow: true, platforms: target })).json().post.status).toBe('published');
    expect((await post(t, { content: 'no #reject', publishNow: true, platforms: target })).json().post.status).toBe('failed');
    let counted = await expectExact(t);
    expect(counted).toMatchObject({ any: 28, scheduled: 25, draft: 1, published: 1, failed: 1, 'any+hidden': 29, 'draft+hidden': 2 });

    // Edits that change the counted columns: hide a scheduled post, turn one into a draft.
    const [a, b, c, d] = created.map((r) => r.json().post._id as string);
    expect((await ctx.app.inject({ method: 'PUT', url: `/v1/posts/${a}`, headers: t.headers, payload: { hidden: true } })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'PUT', url: `/v1/posts/${b}`, headers: t.headers, payload: { isDraft: true } })).statusCode).toBe(200);
    // Deletes, one of them concurrent with creates.
    const [del1, del2] = await Promise.all([
      ctx.app.inject({ method: 'DELETE', url: `/v1/posts/${c}`, headers: t.headers }),
      ctx.app.inject({ method: 'DELETE', url: `/v1/posts/${d}`, headers: t.headers }),
      post(t, { content: 'while deleting', scheduledFor: '2034-05-01T10:00:00Z', platforms: target }),
    ]);
    expect([del1.statusCode, del2.statusCode]).toEqual([200, 200]);
    counted = await expectExact(t);
    expect(counted).toMatchObject({ any: 26, scheduled: 22, draft: 2, 'scheduled+hidden': 23 });

    // A write of another module, straight in SQL (the counters are kept by triggers, so every writer counts).
    await ctx.db.query(`UPDATE posts SET status = 'cancelled' WHERE id = (SELECT id FROM posts WHERE tenant_id = $1 AND status = 'scheduled' AND NOT hidden LIMIT 1)`, [t.userId]);
    // A transaction that inserts and deletes, then rolls back, leaves the totals alone.
    await expect(ctx.db.tx(async (client) => {
      await client.query(`INSERT INTO posts (id, tenant_id, created_by, content, status) VALUES ('ffffffffffffffffffffff01', $1, $1, 'x', 'scheduled')`, [t.userId]);
      await client.query('DELETE FROM posts WHERE id = $1', [a]);
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    counted = await expectExact(t);
    expect(counted).toMatchObject({ any: 26, scheduled: 21, cancelled: 1 });
    expect((await totals(other.t)).api.any).toBe(5);
  });

  it('keeps the totals when the reconciler folds the counter rows, also while creates and deletes run', async () => {
    const { t, accountId } = await setup();
    const target = [{ platform: 'bluesky', accountId }];
    await Promise.all(Array.from({ length: 20 }, (_, i) => post(t, { content: `p${i}`, scheduledFor: '2034-05-01T10:00:00Z', platforms: target })));
    const before = await expectExact(t);

    const folded = await compactPostCounters(ctx.db);
    expect(folded).toBeGreaterThan(0);
    const { rows: shards } = await ctx.db.query<{ shard: number }>('SELECT DISTINCT shard FROM post_counters WHERE tenant_id = $1', [t.userId]);
    expect(shards).toEqual([{ shard: 0 }]);
    expect(await expectExact(t)).toEqual(before);

    // Folding while writers add to their rows: nobody waits on a deadlock, nothing is lost.
    const writes = Array.from({ length: 30 }, (_, i) => post(t, { content: `w${i}`, scheduledFor: '2034-05-01T10:00:00Z', platforms: target }));
    const folds = Array.from({ length: 10 }, () => compactPostCounters(ctx.db));
    const results = await Promise.all(writes);
    await Promise.all(folds);
    expect(results.map((r) => r.statusCode)).toEqual(Array(30).fill(201));
    await Promise.all(results.slice(0, 10).map((r) => ctx.app.inject({ method: 'DELETE', url: `/v1/posts/${r.json().post._id}`, headers: t.headers })));
    await compactPostCounters(ctx.db);
    expect(await expectExact(t)).toMatchObject({ any: 40, scheduled: 40 });
  });

  it('answers the total on a page past the end and on an empty first page', async () => {
    const { t, accountId } = await setup();
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/posts', headers: t.headers })).json().pagination).toEqual({ page: 1, limit: 10, total: 0, pages: 0 });
    for (let i = 0; i < 3; i++) await post(t, { content: `p${i}`, scheduledFor: '2034-05-01T10:00:00Z', platforms: [{ platform: 'bluesky', accountId }] });
    const past = (await ctx.app.inject({ method: 'GET', url: '/v1/posts?page=5&limit=2', headers: t.headers })).json();
    expect(past).toEqual({ posts: [], pagination: { page: 5, limit: 2, total: 3, pages: 2 } });
    const past2 = (await ctx.app.inject({ method: 'GET', url: '/v1/posts?page=3&status=draft', headers: t.headers })).json();
    expect(past2.pagination).toEqual({ page: 3, limit: 10, total: 0, pages: 0 });
  });
});
