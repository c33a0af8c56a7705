/**
 * GET /v1/analytics through the real app and PostgreSQL: the add-on gate (402 with upgrade
 * information), hasAnalyticsAccess, the single-post and list views with metrics read by the
 * refresh pass, sorting, paging, date ranges, tenancy and profile scope, and the analytics
 * rate limit (30 per user and hour, shared through PostgreSQL by two app instances).
 * The platform is a scripted adapter (test/support/scripted-adapter.ts) with metrics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { AdapterError } from '../../src/platforms/types.ts';
import { createPublisher } from '../../src/publishing/publisher.ts';
import { startWorker } from '../../src/publishing/worker.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';

let ctx: TestContext;
let adapter: ScriptedAdapter;
const registry = () => createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: adapter });

beforeAll(async () => {
  adapter = new ScriptedAdapter();
  ctx = await createTestApp({ deps: { adapters: registry() } });
});
afterAll(async () => { await ctx?.close(); });

const get = (t: Tenant, query = '', c: TestContext = ctx) => c.app.inject({ method: 'GET', url: `/v1/analytics${query}`, headers: t.headers });

/** A tenant with the add-on, a profile and a Bluesky account; `publish` posts now and answers the post id. */
async function setup(opts: { addons?: Array<'analytics'> } = { addons: ['analytics'] }) {
  const t = await createTenant(ctx, { addons: opts.addons });
  const profileId = await createProfile(ctx, t);
  const accountId = await insertAccount(ctx, t, profileId, 'bluesky');
  const publish = async (content: string, accounts: string[] = [accountId]) => {
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers, payload: { content, publishNow: true, platforms: accounts.map((a) => ({ platform: 'bluesky', accountId: a })) } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().post._id as string;
  };
  return { t, profileId, accountId, publish };
}

/** Moves a post's publish time (post and targets) to `at`, as if it was published then. */
async function publishedAt(postId: string, at: Date) {
  await ctx.db.query('UPDATE posts SET published_at = $2 WHERE id = $1', [postId, at]);
  await ctx.db.query('UPDATE post_targets SET published_at = $2 WHERE post_id = $1', [postId, at]);
  await ctx.db.query('UPDATE post_metrics SET published_at = $2 WHERE post_id = $1', [postId, at]);
}

/** Makes every followed target due and runs a refresh pass. */
async function refresh() {
  await ctx.db.query('UPDATE post_metrics SET next_refresh_at = now() - interval \'1 second\' WHERE next_refresh_at IS NOT NULL');
  return ctx.services.analytics.refreshDue();
}

describe('the Analytics add-on', () => {
  it('without it: 402 analytics_addon_required with upgrade information, and hasAnalyticsAccess false', async () => {
    const { t } = await setup({ addons: [] });
    const res = await get(t);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'analytics_addon_required', error: expect.stringMatching(/Analytics add-on/), upgrade: { addon: 'analytics', name: 'Analytics' } });
    expect(res.headers['x-ratelimit-limit']).toBe('30');
    const accounts = await ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: t.headers });
    expect(accounts.json().hasAnalyticsAccess).toBe(false);
  });

  it('with it: the views answer and hasAnalyticsAccess is true; removing it closes them again', async () => {
    const { t } = await setup();
    expect((await get(t)).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: t.headers })).json().hasAnalyticsAccess).toBe(true);
    await ctx.services.users.setAddon(t.userId, 'analytics', false);
    expect((await get(t)).statusCode).toBe(402);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: t.headers })).json().hasAnalyticsAccess).toBe(false);
  });

  it('a key without analytics:read gets 403', async () => {
    const t = await createTenant(ctx, { addons: ['analytics'], permissions: ['posts:read'] });
    expect((await get(t)).statusCode).toBe(403);
  });
});

describe('the views', () => {
  it('single post: per-platform metrics after a refresh, null for metrics the platform lacks; pending before', async () => {
    const { t, publish, accountId } = await setup();
    const id = await publish('hello likes:7');
    const before = (await get(t, `?postId=${id}`)).json();
    expect(before).toMatchObject({ postId: id, status: 'published', content: 'hello likes:7', isExternal: false, syncStatus: 'pending' });
    expect(before.platformAnalytics[0]).toMatchObject({ platform: 'bluesky', accountId, syncStatus: 'pending', analytics: null });

    const pass = await refresh();
    expect(pass.refreshed).toBeGreaterThanOrEqual(1);
    const res = await get(t, `?postId=${id}`);
    expect(res.statusCode).toBe(200);
    const v = res.json();
    expect(v.syncStatus).toBe('synced');
    expect(v.analytics).toMatchObject({ likes: 7, comments: 2, shares: 0, impressions: null, views: null, reach: null, clicks: null, engagementRate: null });
    expect(v.analytics.lastUpdated).toEqual(expect.any(String));
    expect(v.platformAnalytics[0]).toMatchObject({ platform: 'bluesky', status: 'published', syncStatus: 'synced', platformPostId: expect.stringMatching(/^scripted-/), analytics: { likes: 7 } });
    expect(v.platformPostUrl).toMatch(/^https:\/\/example\.test\/post\//);
  });

  it('each refresh stores a snapshot: the time series grows and the daily view shows the gains', async () => {
    const { t, publish } = await setup();
    const id = await publish('growing likes:3');
    await refresh();
    await refresh();
    const { rows } = await ctx.db.query<{ likes: string }>(
      'SELECT s.likes FROM post_metric_snapshots s JOIN post_targets pt ON pt.id = s.target_id WHERE pt.post_id = $1 ORDER BY s.captured_at', [id]);
    expect(rows.map((r) => Number(r.likes))).toEqual([3, 4]);
    expect((await get(t, `?postId=${id}`)).json().analytics.likes).toBe(4);
    const daily = await ctx.app.inject({ method: 'GET', url: '/v1/analytics/daily', headers: t.headers });
    expect(daily.statusCode, daily.body).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(daily.json().days).toEqual([expect.objectContaining({ date: today, likes: 4, comments: 2, engagement: 6 })]);
  });

  it('a post the platform answers nothing for stays without metrics (unavailable), not zeros', async () => {
    const { t, publish } = await setup();
    const id = await publish('quiet #nometrics');
    await refresh();
    const v = (await get(t, `?postId=${id}`)).json();
    expect(v.platformAnalytics[0]).toMatchObject({ syncStatus: 'unavailable', analytics: null });
    expect(v.analytics.likes).toBeNull();
  });

  it('list view: sorted by date or engagement, both orders, paged, with the overview', async () => {
    const { t, publish } = await setup();
    const ids = [await publish('a likes:5'), await publish('b likes:50'), await publish('c likes:20')];
    const day = 86_400_000;
    for (const [i, id] of ids.entries()) await publishedAt(id, new Date(Date.now() - (3 - i) * day));
    await refresh();
    const list = (await get(t)).json();
    expect(list.posts.map((p: { _id: string }) => p._id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(list.pagination).toEqual({ page: 1, limit: 50, total: 3, pages: 1 });
    expect(list.overview).toMatchObject({ totalPosts: 3, publishedPosts: 3, scheduledPosts: 0, lastSync: expect.any(String), dataStaleness: { staleAccountCount: 0 } });
    expect(list.hasAnalyticsAccess).toBe(true);
    expect(list.accounts).toHaveLength(1);
    expect(list.posts[0]).toMatchObject({ content: 'c likes:20', status: 'published', isExternal: false, analytics: { likes: 20 }, platforms: [{ platform: 'bluesky' }] });

    const asc = (await get(t, '?order=asc')).json().posts.map((p: { _id: string }) => p._id);
    expect(asc).toEqual(ids);
    const byEngagement = (await get(t, '?sortBy=engagement')).json().posts.map((p: { analytics: { likes: number } }) => p.analytics.likes);
    expect(byEngagement).toEqual([50, 20, 5]);
    expect((await get(t, '?sortBy=engagement&order=asc')).json().posts.map((p: { analytics: { likes: number } }) => p.analytics.likes)).toEqual([5, 20, 50]);

    const p1 = (await get(t, '?limit=2&page=1&sortBy=engagement')).json();
    const p2 = (await get(t, '?limit=2&page=2&sortBy=engagement')).json();
    expect(p1.posts.map((p: { analytics: { likes: number } }) => p.analytics.likes)).toEqual([50, 20]);
    expect(p2.posts.map((p: { analytics: { likes: number } }) => p.analytics.likes)).toEqual([5]);
    expect(p2.pagination).toEqual({ page: 2, limit: 2, total: 3, pages: 2 });
    expect((await get(t, '?limit=2&page=5')).json()).toMatchObject({ posts: [], pagination: { total: 3, pages: 2 } });
  });

  it('date ranges: fromDate and toDate (inclusive days, UTC) select by publish time', async () => {
    const { t, publish } = await setup();
    const a = await publish('in march');
    const b = await publish('in april');
    await publishedAt(a, new Date(Date.now() - 40 * 86_400_000));
    await publishedAt(b, new Date(Date.now() - 10 * 86_400_000));
    const day = (ms: number) => new Date(Date.now() - ms * 86_400_000).toISOString().slice(0, 10);
    const ids = async (q: string) => (await get(t, q)).json().posts.map((p: { _id: string }) => p._id);
    expect(await ids(`?fromDate=${day(45)}&toDate=${day(30)}`)).toEqual([a]);
    expect(await ids(`?fromDate=${day(10)}&toDate=${day(10)}`)).toEqual([b]);
    expect(await ids(`?fromDate=${day(60)}`)).toEqual([b, a]);
    const bad = await get(t, `?fromDate=${day(1)}&toDate=${day(5)}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.fields.fromDate).toBeTruthy();
    const malformed = await get(t, '?fromDate=yesterday');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().details.fields).toHaveProperty('fromDate');
    expect((await get(t, '?sortBy=likes')).statusCode).toBe(400);
    expect((await get(t, '?limit=0')).statusCode).toBe(400);
  });

  it('platform and profile filters; another tenant sees nothing of it', async () => {
    const { t, publish, profileId } = await setup();
    const other = await createProfile(ctx, t);
    const otherAccount = await insertAccount(ctx, t, other, 'bluesky');
    const mine = await publish('profile one');
    const theirs = await publish('profile two', [otherAccount]);
    const ids = async (q: string, who = t) => (await get(who, q)).json().posts.map((p: { _id: string }) => p._id);
    expect(await ids(`?profileId=${profileId}`)).toEqual([mine]);
    expect(await ids(`?profileId=${other}`)).toEqual([theirs]);
    expect(await ids('?platform=twitter')).toEqual([]);
    expect(await ids('?platform=bluesky')).toHaveLength(2);

    const stranger = await createTenant(ctx, { addons: ['analytics'] });
    expect(await ids('', stranger)).toEqual([]);
    expect((await get(stranger, `?postId=${mine}`)).statusCode).toBe(404);
    expect((await get(stranger, `?profileId=${profileId}`)).statusCode).toBe(404);

  });
});

describe('the refresh pass', () => {
  it('reads metrics only for tenants holding the add-on: no platform calls for the others until they get it', async () => {
    const { t, publish } = await setup({ addons: [] });
    const id = await publish('no add-on likes:4');
    await refresh();
    await refresh();
    const read = async () => (await ctx.db.query<{ refreshes: number; sync_status: string }>(
      'SELECT refreshes, sync_status FROM post_metrics WHERE post_id = $1', [id])).rows[0];
    expect(await read()).toMatchObject({ refreshes: 0, sync_status: 'pending' });
    await ctx.services.users.setAddon(t.userId, 'analytics', true);
    await refresh();
    expect(await read()).toMatchObject({ refreshes: 1, sync_status: 'synced' });
    expect((await get(t, `?postId=${id}`)).json().analytics.likes).toBe(4);
  });

  it('a 429 moves the account\'s targets back by the platform\'s wait; the next pass after it reads them', async () => {
    const { t, publish } = await setup();
    const id = await publish('limited likes:9');
    await ctx.db.query('UPDATE post_metrics SET next_refresh_at = NULL');
    await ctx.services.analytics.refreshDue(); // follows the new target and reads it: 9 likes
    adapter.failNextMetrics = new AdapterError('rate_limited', 'Rate Limit Exceeded', { status: 429, retryAfterMs: 2 * 3_600_000 });
    await ctx.db.query('UPDATE post_metrics SET next_refresh_at = now() - interval \'1 second\' WHERE post_id = $1', [id]);
    const pass = await ctx.services.analytics.refreshDue();
    expect(pass.rateLimited).toBeGreaterThanOrEqual(1);
    const { rows } = await ctx.db.query<{ next_refresh_at: Date; failures: number; last_error: string }>('SELECT next_refresh_at, failures, last_error FROM post_metrics WHERE post_id = $1', [id]);
    expect(rows[0].failures).toBe(1);
    expect(rows[0].last_error).toMatch(/Rate Limit/);
    expect(rows[0].next_refresh_at.getTime()).toBeGreaterThan(Date.now() + 3_600_000);
    // The last counts stay, with the error beside them.
    expect((await get(t, `?postId=${id}`)).json().platformAnalytics[0]).toMatchObject({ syncStatus: 'synced', analytics: { likes: 9 }, errorMessage: expect.stringMatching(/Rate Limit/) });
    // Not due yet: a pass now leaves it alone.
    const calls = adapter.metricsCalls;
    await ctx.services.analytics.refreshDue();
    expect((await ctx.db.query('SELECT failures FROM post_metrics WHERE post_id = $1', [id])).rows[0].failures).toBe(1);
    expect(adapter.metricsCalls).toBe(calls);
    await ctx.db.query('UPDATE post_metrics SET next_refresh_at = now() - interval \'1 second\' WHERE post_id = $1', [id]);
    await ctx.services.analytics.refreshDue();
    expect((await get(t, `?postId=${id}`)).json().analytics.likes).toBe(10);
    expect((await ctx.db.query('SELECT failures FROM post_metrics WHERE post_id = $1', [id])).rows[0].failures).toBe(0);
  });

  it('accounts that need reconnection are skipped and reported, not read; a revoked read marks the account', async () => {
    const { t, publish, accountId } = await setup();
    const id = await publish('revoked soon');
    await refresh();
    adapter.failNextMetrics = new AdapterError('disconnected', 'Bluesky refused the session');
    await ctx.db.query('UPDATE post_metrics SET next_refresh_at = now() - interval \'1 second\' WHERE post_id = $1', [id]);
    // Only this tenant's target is due, so the failure is this account's.
    await ctx.db.query('UPDATE post_metrics SET next_refresh_at = now() + interval \'1 day\' WHERE post_id <> $1 AND next_refresh_at IS NOT NULL', [id]);
    const first = await ctx.services.analytics.refreshDue();
    expect(first.needsReconnect).toEqual([{ accountId, platform: 'bluesky', targets: 1 }]);
    const accounts = (await ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: t.headers })).json().accounts;
    expect(accounts[0]).toMatchObject({ isActive: false, needsReconnection: true });
    // The views say so: the target's metrics are paused, the overview counts the account.
    expect((await get(t, `?postId=${id}`)).json().platformAnalytics[0].errorMessage).toMatch(/paused: the account needs reconnecting/);
    expect((await get(t)).json().overview.dataStaleness).toEqual({ staleAccountCount: 1, syncTriggered: false });

    await ctx.db.query('UPDATE post_metrics SET next_refresh_at = now() - interval \'1 second\' WHERE post_id = $1', [id]);
    // Another tenant's post, due in the same pass: read (the skipped account holds nothing back).
    const other = await setup();
    const otherId = await other.publish('still read likes:5');
    const calls = adapter.metricsCalls;
    const second = await ctx.services.analytics.refreshDue();
    expect(second.needsReconnect).toEqual([{ accountId, platform: 'bluesky', targets: 1 }]);
    expect(adapter.metricsCalls).toBe(calls + 1);
    expect((await get(other.t, `?postId=${otherId}`)).json().analytics.likes).toBe(5);
  });
});

describe('the worker', () => {
  it('runs the refresh pass in the background (metricsRefresh): a published post gets its metrics without any request', async () => {
    const { t, publish } = await setup();
    const id = await publish('background likes:4');
    const s = ctx.services;
    const publisher = createPublisher({ db: ctx.db, accounts: s.accountsRepository, adapters: s.adapters, mediaStorage: s.mediaStorage, config: ctx.config, clock: s.clock, workerId: `worker-analytics-${process.pid}` });
    const worker = await startWorker({ db: ctx.db, publisher, concurrency: 1, pollMs: 200, staleMs: 5_000, metricsRefresh: { run: () => s.analytics.refreshDue(), intervalMs: 100 } });
    try {
      await expect.poll(async () => (await get(t, `?postId=${id}`)).json().analytics?.likes, { timeout: 10_000 }).toBe(4);
    } finally {
      await worker.stop(1_000);
    }
  });
});

describe('the analytics rate limit', () => {
  it('30 per user and hour with X-RateLimit-* on every answer, 429 with the reset time past it, shared by two app instances', async () => {
    const { t } = await setup();
    const second = await createTestApp({ deps: { adapters: registry() }, databaseUrl: ctx.databaseUrl });
    try {
      let last = await get(t);
      expect(last.headers['x-ratelimit-limit']).toBe('30');
      expect(last.headers['x-ratelimit-remaining']).toBe('29');
      const reset = Number(last.headers['x-ratelimit-reset']);
      expect(reset * 1000).toBeGreaterThan(Date.now());
      expect(reset * 1000).toBeLessThanOrEqual(Date.now() + 3_600_000);
      for (let i = 2; i <= 30; i++) {
        last = await get(t, '', i % 2 ? ctx : second);
        expect(last.statusCode).toBe(200);
      }
      expect(last.headers['x-ratelimit-remaining']).toBe('0');
      const over = await get(t, '', second);
      expect(over.statusCode).toBe(429);
      expect(over.json()).toMatchObject({ code: 'RATE_LIMITED', resetAt: new Date(reset * 1000).toISOString() });
      expect(over.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      // Other endpoints are not counted against it, and another user has its own.
      expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: t.headers })).statusCode).toBe(200);
      const other = await setup();
      expect((await get(other.t)).headers['x-ratelimit-remaining']).toBe('29');
    } finally {
      await second.close();
    }
  });
});
