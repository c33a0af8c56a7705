/**
 * `post_profiles` and `profile_post_counters` (migrations/0040_post_profiles.sql, decision 0072) are
 * kept by triggers on posts, targets and accounts: after each change a user can make through the API
 * (create with targets on several profiles, queue, reschedule, move an account to another profile,
 * disconnect it, delete a post, delete a profile with queued posts), the rows must equal what they
 * are computed from, and a profile's list total (read from the counters) must equal its posts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestApp(); });
afterAll(async () => { await ctx.close(); });

interface Membership { post_id: string; profile_id: string; scheduled_for: Date | null; created_at: Date; hidden: boolean }

/** The rows as the migration defines them, computed from the posts, targets and accounts. */
async function expected(tenantId: string): Promise<Membership[]> {
  const { rows } = await ctx.db.query<Membership>(
    `SELECT DISTINCT p.id AS post_id, m.profile_id, p.scheduled_for, p.created_at, p.hidden
       FROM (SELECT t.post_id, a.profile_id FROM post_targets t JOIN accounts a ON a.id = t.account_id
             UNION ALL SELECT q.id, q.queued_from_profile FROM posts q WHERE q.queued_from_profile IS NOT NULL) m
       JOIN posts p ON p.id = m.post_id
      WHERE p.tenant_id = $1 ORDER BY 1, 2`, [tenantId]);
  return rows;
}

async function kept(tenantId: string): Promise<Membership[]> {
  const { rows } = await ctx.db.query<Membership>(
    `SELECT post_id, profile_id, scheduled_for, created_at, hidden FROM post_profiles WHERE tenant_id = $1 ORDER BY 1, 2`, [tenantId]);
  return rows;
}

/** The counters' sums per profile and hidden flag, and the same counted from the rows. */
async function counters(tenantId: string) {
  const { rows: summed } = await ctx.db.query<{ profile_id: string; hidden: boolean; n: number }>(
    `SELECT profile_id, hidden, sum(n)::int AS n FROM profile_post_counters WHERE tenant_id = $1 GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2`, [tenantId]);
  const { rows: counted } = await ctx.db.query<{ profile_id: string; hidden: boolean; n: number }>(
    `SELECT profile_id, hidden, count(*)::int AS n FROM post_profiles WHERE tenant_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`, [tenantId]);
  return { summed, counted };
}

async function expectConsistent(t: Tenant) {
  expect(await kept(t.userId)).toEqual(await expected(t.userId));
  const { summed, counted } = await counters(t.userId);
  expect(summed).toEqual(counted);
}

const api = (t: Tenant, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: t.headers, ...(payload ? { payload } : {}) });

/** The list's total and ids for one profile (the total comes from the counters when no other filter applies). */
async function listed(t: Tenant, profileId: string, sortBy = 'scheduled-desc') {
  const res = await api(t, 'GET', `/v1/posts?profileId=${profileId}&sortBy=${sortBy}&limit=100`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { posts: { _id: string }[]; pagination: { total: number } };
  return { total: body.pagination.total, ids: body.posts.map((p) => p._id) };
}

describe('post_profiles follows every change', () => {
  it('creates, queues, reschedules, moves and disconnects accounts, deletes posts and profiles', async () => {
    const t = await createTenant(ctx);
    const [pA, pB, pC] = [await createProfile(ctx, t, 'A'), await createProfile(ctx, t, 'B'), await createProfile(ctx, t, 'C')];
    const a1 = await insertAccount(ctx, t, pA, 'bluesky');
    const a2 = await insertAccount(ctx, t, pA, 'threads');
    const b1 = await insertAccount(ctx, t, pB, 'bluesky');
    const at = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    const create = async (body: object) => {
      const res = await api(t, 'POST', '/v1/posts', body);
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { post: { _id: string } }).post._id;
    };
    // Two targets on one profile count once; one on each of two profiles belongs to both.
    const both = await create({ content: 'on A twice', scheduledFor: at(3), platforms: [{ platform: 'bluesky', accountId: a1 }, { platform: 'threads', accountId: a2 }] });
    const split = await create({ content: 'on A and B', scheduledFor: at(5), platforms: [{ platform: 'bluesky', accountId: a1 }, { platform: 'bluesky', accountId: b1 }] });
    const draft = await create({ content: 'a draft on B', isDraft: true, platforms: [{ platform: 'bluesky', accountId: b1 }] });
    await expectConsistent(t);
    expect((await kept(t.userId)).filter((m) => m.post_id === both).map((m) => m.profile_id)).toEqual([pA]);

    // Queued from C with a target on A: C's through its queue, A's through its target.
    expect((await api(t, 'PUT', '/v1/queue/slots', { profileId: pC, timezone: 'UTC', slots: [{ dayOfWeek: 1, time: '09:00' }] })).statusCode).toBe(200);
    const queued = await create({ content: 'queued from C', queuedFromProfile: pC, platforms: [{ platform: 'bluesky', accountId: a1 }] });
    await expectConsistent(t);
    expect((await listed(t, pC)).ids).toEqual([queued]);

    // A reschedule moves the copy of the sort key, and the page order with it.
    expect((await api(t, 'PUT', `/v1/posts/${both}`, { scheduledFor: at(9) })).statusCode).toBe(200);
    await expectConsistent(t);
    expect((await listed(t, pA)).ids).toEqual([both, split, queued]);

    // A hidden post leaves the default list and its counted total.
    await ctx.db.query('UPDATE posts SET hidden = true WHERE id = $1', [split]);
    await expectConsistent(t);
    expect(await listed(t, pA)).toEqual({ total: 2, ids: [both, queued] });
    await ctx.db.query('UPDATE posts SET hidden = false WHERE id = $1', [split]);

    // A status change (publishing makes two) leaves the rows alone; a profile's status filter follows it.
    await ctx.db.query(`UPDATE posts SET status = 'publishing' WHERE id = $1`, [split]);
    await ctx.db.query(`UPDATE posts SET status = 'failed' WHERE id = $1`, [split]);
    await expectConsistent(t);
    const failed = await api(t, 'GET', `/v1/posts?profileId=${pB}&status=failed`);
    expect(failed.json()).toMatchObject({ posts: [{ _id: split, status: 'failed' }], pagination: { total: 1 } });
    await ctx.db.query(`UPDATE posts SET status = 'scheduled' WHERE id = $1`, [split]);

    // Moving an account takes its targets' posts to the other profile.
    expect((await api(t, 'PATCH', `/v1/accounts/${a2}`, { profileId: pB })).statusCode).toBe(200);
    await expectConsistent(t);
    expect((await listed(t, pB)).ids.sort()).toEqual([both, split, draft].sort());
    expect((await listed(t, pB)).total).toBe(3);

    // Disconnecting an account: its targets stay (history), their posts leave its profile.
    expect((await api(t, 'DELETE', `/v1/accounts/${b1}`)).statusCode).toBe(200);
    await expectConsistent(t);
    expect((await listed(t, pB)).ids).toEqual([both]);

    // Deleting posts, then a profile whose queued post leaves the queue.
    expect((await api(t, 'DELETE', `/v1/posts/${draft}`)).statusCode).toBe(200);
    expect((await api(t, 'DELETE', `/v1/posts/${split}`)).statusCode).toBe(200);
    await expectConsistent(t);
    expect((await api(t, 'DELETE', `/v1/profiles/${pC}`)).statusCode).toBe(200);
    await expectConsistent(t);
    expect(await listed(t, pA)).toEqual({ total: 2, ids: [both, queued] });
    for (const sortBy of ['created-desc', 'created-asc', 'scheduled-asc', 'status', 'platform']) {
      expect((await listed(t, pA, sortBy)).total).toBe(2);
    }
  });

  it('keeps exact counts under concurrent creates on one profile, and after the reconciler folds them', async () => {
    const t = await createTenant(ctx);
    const p = await createProfile(ctx, t, 'busy');
    const acc = await insertAccount(ctx, t, p, 'bluesky');
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) =>
      api(t, 'POST', '/v1/posts', { content: `busy ${i}`, scheduledFor: at, platforms: [{ platform: 'bluesky', accountId: acc }] })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(40).fill(201));
    await expectConsistent(t);
    expect((await listed(t, p)).total).toBe(40);
    const { compactPostCounters } = await import('../../src/modules/posts/storage.ts');
    await compactPostCounters(ctx.db);
    const { rows } = await ctx.db.query<{ shards: number }>('SELECT count(*)::int AS shards FROM profile_post_counters WHERE profile_id = $1', [p]);
    expect(rows[0].shards).toBe(1);
    expect((await listed(t, p)).total).toBe(40);
  });

  it('answers a profile\'s page without asking for the profile first, and still 404s one the caller may not see', async () => {
    // The list reads the profile row only for an empty page (src/modules/posts/read.ts): a row of the page
    // proves the tenant has the profile, since post_profiles joins only the tenant's posts.
    const t = await createTenant(ctx);
    const full = await createProfile(ctx, t, 'full');
    const empty = await createProfile(ctx, t, 'empty');
    const acc = await insertAccount(ctx, t, full, 'bluesky');
    const at = new Date(Date.now() + 86_400_000).toISOString();
    expect((await api(t, 'POST', '/v1/posts', { content: 'on full', scheduledFor: at, platforms: [{ platform: 'bluesky', accountId: acc }] })).statusCode).toBe(201);
    expect(await listed(t, full)).toMatchObject({ total: 1 });
    expect(await listed(t, empty)).toEqual({ total: 0, ids: [] });
    const unknown = await api(t, 'GET', '/v1/posts?profileId=0123456789abcdef01234567');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND' });
    // Another tenant's profile that has posts: its rows are not the caller's, so the page is empty and the profile unknown.
    const other = await createTenant(ctx);
    const theirs = await createProfile(ctx, other, 'theirs');
    const theirAcc = await insertAccount(ctx, other, theirs, 'bluesky');
    expect((await api(other, 'POST', '/v1/posts', { content: 'theirs', scheduledFor: at, platforms: [{ platform: 'bluesky', accountId: theirAcc }] })).statusCode).toBe(201);
    const foreign = await api(t, 'GET', `/v1/posts?profileId=${theirs}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('theirs');
    // A key limited to the empty profile is refused the full one (before any query), and sees its own empty page.
    const scoped = await api(t, 'POST', '/v1/api-keys', { name: 'scoped', scope: 'profiles', profileIds: [empty] });
    expect(scoped.statusCode, scoped.body).toBe(201);
    const key = { ...t, headers: { authorization: `Bearer ${scoped.json().apiKey.key as string}` } };
    expect((await api(key, 'GET', `/v1/posts?profileId=${full}`)).statusCode).toBe(404);
    const own = await api(key, 'GET', `/v1/posts?profileId=${empty}`);
    expect(own.statusCode).toBe(200);
    expect(own.json().pagination.total).toBe(0);
  });
});
