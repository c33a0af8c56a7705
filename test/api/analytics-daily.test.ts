/**
 * GET /v1/analytics/daily read from the summed gains (post_metric_daily, migrations/0037 and
 * docs/decisions/0067-analytics-daily-rollup.md) against the query it replaced, kept here as the
 * oracle: a randomized seed of targets (published or not, three accounts on two profiles and two
 * platforms, publish times on and off midnight) and snapshots stored by the refresh job's own
 * statement (several a day, out of order, repeated instants, metrics null now and then), compared
 * for every filter combination and several publish-time ranges; again after unpublishing, a deleted
 * post, a removed account, a moved publish time and a target published again; the table against
 * the migration's backfill statement; and concurrent writes (two readings of targets of one
 * account and day at once; a reading while its target is unpublished).
 * The seed is printed with a failure (HERALD_TEST_SEED reruns one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.ts';
import { createAnalyticsRepository, type ListFilters } from '../../src/modules/analytics/repository.ts';
import { cancelTakenBackTarget, deletePost } from '../../src/modules/posts/repository.ts';
import { METRICS, engagementOf, noMetrics, type PostMetrics } from '../../src/shared/metrics.ts';
import type { PlatformId } from '../../src/shared/platforms.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';

const DAY = 86_400_000;
let ctx: TestContext;
let repo: ReturnType<typeof createAnalyticsRepository>;

beforeAll(async () => {
  ctx = await createTestApp();
  repo = createAnalyticsRepository(ctx.db);
});
afterAll(async () => { await ctx?.close(); });

/** mulberry32: a small seeded generator, so a failing seed can be replayed. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] };
}

/** The daily view's statement before decision 0067, verbatim (filters as filterSql wrote them). */
async function oracle(tenantId: string, f: ListFilters) {
  const params: unknown[] = [tenantId];
  const add = (v: unknown) => { params.push(v); return `$${params.length}`; };
  const conds: string[] = [];
  if (f.platform) conds.push(`t.platform = ${add(f.platform)}`);
  if (f.profileId) conds.push(`a.profile_id = ${add(f.profileId)}`);
  if (f.profileIds) conds.push(`a.profile_id = ANY(${add(f.profileIds)}::char(24)[])`);
  conds.push(`t.published_at >= ${add(f.from)}`, `t.published_at < ${add(f.to)}`);
  const where = conds.join(' AND ');
  const cols = [...METRICS, 'engagement'] as const;
  const { rows } = await ctx.db.query(
    `WITH sel AS (
       SELECT t.id FROM post_targets t JOIN accounts a ON a.id = t.account_id
        WHERE t.tenant_id = $1 AND t.status = 'published' AND ${where}
     ), last_of_day AS (
       SELECT DISTINCT ON (s.target_id, date_trunc('day', s.captured_at AT TIME ZONE 'UTC'))
              s.target_id, date_trunc('day', s.captured_at AT TIME ZONE 'UTC') AS day, ${cols.map((c) => `s.${c}`).join(', ')}
         FROM post_metric_snapshots s JOIN sel ON sel.id = s.target_id
        WHERE s.tenant_id = $1
        ORDER BY s.target_id, date_trunc('day', s.captured_at AT TIME ZONE 'UTC'), s.captured_at DESC
     ), gains AS (
       SELECT day, ${cols.map((c) => `${c} - coalesce(lag(${c}) OVER (PARTITION BY target_id ORDER BY day), 0) AS ${c}`).join(', ')}
         FROM last_of_day
     )
     SELECT day AT TIME ZONE 'UTC' AS day, ${cols.map((c) => `sum(${c}) AS ${c}`).join(', ')}
       FROM gains GROUP BY day ORDER BY day`, params);
  return normalize(rows);
}

function normalize(rows: Array<Record<string, unknown>>): Array<{ day: string } & Record<string, string | number | null>> {
  return rows.map((r) => ({
    day: (r.day as Date).toISOString(),
    ...Object.fromEntries([...METRICS, 'engagement'].map((k) => [k, r[k] === null ? null : Number(r[k])])),
  }));
}

interface Seeded {
  t: Tenant;
  profiles: string[];
  accounts: Array<{ id: string; profile: string; platform: PlatformId }>;
  targets: Array<{ id: string; postId: string; accountId: string; publishedAt: Date; status: string }>;
  now: number;
}

/** Readings of one target: cumulative counts, a metric missing now and then, stored in a shuffled order. */
function readings(r: ReturnType<typeof rng>, from: number, to: number): Array<{ at: Date; m: PostMetrics }> {
  const n = 1 + r.int(8);
  const times = Array.from({ length: n }, () => from + Math.floor(r.next() * Math.max(1, to - from)));
  times.sort((a, b) => a - b);
  if (n > 2 && r.next() < 0.3) times[1] = times[0]; // the same instant twice: the second is ignored
  const never = METRICS.filter(() => r.next() < 0.25);
  const counts = noMetrics();
  const out = times.map((at) => {
    const m = noMetrics();
    for (const k of METRICS) {
      counts[k] = (counts[k] ?? 0) + r.int(20);
      m[k] = never.includes(k) || r.next() < 0.1 ? null : counts[k];
    }
    return { at: new Date(at), m };
  });
  for (let i = out.length - 1; i > 0; i--) { // shuffled: some readings land before earlier-dated ones
    if (r.next() < 0.3) { const j = r.int(i + 1); [out[i], out[j]] = [out[j], out[i]]; }
  }
  return out;
}

/** A tenant with three accounts (two profiles, two platforms) and `posts` posts with one or two targets each. */
async function seed(seedValue: number, posts = 40): Promise<Seeded> {
  const r = rng(seedValue);
  const t = await createTenant(ctx, { addons: ['analytics'] });
  const profiles = [await createProfile(ctx, t), await createProfile(ctx, t)];
  const accounts: Seeded['accounts'] = [];
  for (const [profile, platform] of [[profiles[0], 'bluesky'], [profiles[0], 'twitter'], [profiles[1], 'bluesky']] as const) {
    accounts.push({ id: await insertAccount(ctx, t, profile, platform), profile, platform });
  }
  const now = Date.now();
  const midnight = Math.floor(now / DAY) * DAY;
  const targets: Seeded['targets'] = [];
  const stored: Array<() => Promise<void>> = [];
  for (let p = 0; p < posts; p++) {
    const postId = newId();
    // Some publish times exactly at midnight (a range's edge), the rest anywhere in the last 12 days.
    const publishedAt = new Date(r.next() < 0.15 ? midnight - r.int(12) * DAY : now - Math.floor(r.next() * 12 * DAY));
    await ctx.db.query(`INSERT INTO posts (id, tenant_id, created_by, content, status, published_at) VALUES ($1, $2, $2, 'seeded', 'published', $3)`, [postId, t.userId, publishedAt]);
    const n = 1 + r.int(2);
    for (let i = 0; i < n; i++) {
      const a = r.pick(accounts);
      const status = r.next() < 0.8 ? 'published' : r.pick(['failed', 'cancelled']);
      const id = newId();
      await ctx.db.query(
        `INSERT INTO post_targets (id, post_id, tenant_id, position, account_id, platform, status, published_at, platform_post_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [id, postId, t.userId, i, a.id, a.platform, status, publishedAt, `p-${id}`]);
      await ctx.db.query(
        `INSERT INTO post_metrics (target_id, tenant_id, post_id, account_id, platform, platform_post_id, published_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, t.userId, postId, a.id, a.platform, `p-${id}`, publishedAt]);
      targets.push({ id, postId, accountId: a.id, publishedAt, status });
      for (const { at, m } of readings(r, publishedAt.getTime() - DAY / 2, now)) {
        stored.push(() => repo.saveReading(id, t.userId, m, at, null));
      }
    }
  }
  // Targets' readings interleaved, as passes store them.
  for (let i = stored.length - 1; i > 0; i--) { const j = r.int(i + 1); [stored[i], stored[j]] = [stored[j], stored[i]]; }
  for (const s of stored) await s();
  return { t, profiles, accounts, targets, now };
}

/** Every platform, profile and scope filter, with publish-time ranges whole-day, part-day at either end or both, and inside one day. */
function filterCombinations(s: Seeded): ListFilters[] {
  const midnight = Math.floor(s.now / DAY) * DAY;
  const ranges: Array<[number, number]> = [
    [s.now - 90 * DAY, s.now + 60_000], // the default range
    [midnight - 10 * DAY, midnight - 2 * DAY], // whole days (bare dates)
    [midnight - 8 * DAY, s.now - 1.6 * DAY], // whole-day start, part-day end
    [s.now - 7.3 * DAY, s.now - 1.6 * DAY], // part days at both ends
    [midnight - 5 * DAY + 3 * 3_600_000, midnight - 5 * DAY + 20 * 3_600_000], // inside one day
    [midnight - 5 * DAY + 20 * 3_600_000, midnight - 4 * DAY + 5 * 3_600_000], // across one midnight, no whole day
  ];
  const out: ListFilters[] = [];
  for (const platform of [null, 'bluesky', 'twitter'] as const) {
    for (const profileId of [null, ...s.profiles]) {
      for (const profileIds of [null, [s.profiles[0]], [s.profiles[1]], s.profiles, []]) {
        for (const [from, to] of ranges) out.push({ platform, profileId, profileIds, from: new Date(from), to: new Date(to) });
      }
    }
  }
  return out;
}

async function expectSameAsOracle(s: Seeded, seedValue: number) {
  let compared = 0;
  let nonEmpty = 0;
  for (const f of filterCombinations(s)) {
    const expected = await oracle(s.t.userId, f);
    const got = normalize(await repo.daily(s.t.userId, f));
    expect(got, `seed ${seedValue}, filters ${JSON.stringify(f)}`).toEqual(expected);
    compared++;
    if (expected.length) nonEmpty++;
  }
  return { compared, nonEmpty };
}

/** The tenant's summed rows that hold anything (a row taken back to 0 is the same as none). */
async function dailyRows(tenantId: string) {
  const { rows } = await ctx.db.query(
    `SELECT * FROM post_metric_daily WHERE tenant_id = $1 AND (targets <> 0 OR engagement <> 0 OR ${METRICS.map((k) => `${k} <> 0 OR ${k}_n <> 0`).join(' OR ')})
      ORDER BY published_day, account_id, platform, day`, [tenantId]);
  return rows;
}

/** The table as kept by the writes equals the migration's backfill statement run now. */
async function expectSameAsRebuilt(tenantId: string, opts: { empty?: boolean } = {}) {
  const kept = await dailyRows(tenantId);
  await repo.rebuildDaily(tenantId);
  expect(kept).toEqual(await dailyRows(tenantId));
  if (opts.empty) expect(kept).toEqual([]);
  else expect(kept.length).toBeGreaterThan(0);
}

/** A published post with one published Bluesky target. */
async function insertPublished(t: Tenant, postId: string, targetId: string, accountId: string, publishedAt: Date) {
  await ctx.db.query(`INSERT INTO posts (id, tenant_id, created_by, content, status, published_at) VALUES ($1, $2, $2, 'c', 'published', $3)`, [postId, t.userId, publishedAt]);
  await ctx.db.query(
    `INSERT INTO post_targets (id, post_id, tenant_id, position, account_id, platform, status, published_at, platform_post_id)
     VALUES ($1, $2, $3, 0, $4, 'bluesky', 'published', $5, $6)`, [targetId, postId, t.userId, accountId, publishedAt, `p-${targetId}`]);
}

const seedOf = () => Number(process.env.HERALD_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31));

describe('GET /v1/analytics/daily from the summed gains', () => {
  it('answers what the previous query answered, for every filter combination and range', async () => {
    const seedValue = seedOf();
    const s = await seed(seedValue);
    const { compared, nonEmpty } = await expectSameAsOracle(s, seedValue);
    expect(compared).toBe(270);
    expect(nonEmpty, `seed ${seedValue}`).toBeGreaterThan(50);
    await expectSameAsRebuilt(s.t.userId);

    // Through the route: bare dates (whole UTC days) and a profile.
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const res = await ctx.app.inject({ method: 'GET', url: `/v1/analytics/daily?fromDate=${day(s.now - 9 * DAY)}&toDate=${day(s.now - DAY)}&profileId=${s.profiles[0]}`, headers: s.t.headers });
    expect(res.statusCode, res.body).toBe(200);
    const midnight = Math.floor(s.now / DAY) * DAY;
    const expected = await oracle(s.t.userId, { platform: null, profileId: s.profiles[0], profileIds: null, from: new Date(midnight - 9 * DAY), to: new Date(midnight) });
    expect(res.json().days).toEqual(expected.map((e) => ({ ...e, date: e.day.slice(0, 10), day: undefined, engagement: e.engagement ?? 0 })).map(({ day: _day, ...rest }) => rest));
  });

  it('agrees after an unpublish, a deleted post, a removed account, a moved publish time and a target published again', async () => {
    const seedValue = seedOf();
    const s = await seed(seedValue);
    const r = rng(seedValue + 1);
    const published = s.targets.filter((x) => x.status === 'published');
    const before = await ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM post_metric_daily WHERE tenant_id = $1 AND targets > 0', [s.t.userId]);
    expect(Number(before.rows[0].n)).toBeGreaterThan(0);

    // Unpublished (the unpublish path's own statement): its gains leave.
    const unpublished = published.slice(0, 3);
    for (const x of unpublished) await cancelTakenBackTarget(ctx.db, x.id, true, new Date());
    // A post deleted with a published target (its snapshots go with it).
    await deletePost(ctx.db, published[3].postId);
    // A target published later than it was, one moved to another account, a failed one published.
    await ctx.db.query('UPDATE post_targets SET published_at = published_at + interval \'3 days 7 hours\' WHERE id = $1', [published[5].id]);
    const moved = published[6];
    const to = s.accounts.find((a) => a.id !== moved.accountId && a.platform === s.accounts.find((b) => b.id === moved.accountId)!.platform) ?? s.accounts[0];
    await ctx.db.query('UPDATE post_targets SET account_id = $2, platform = $3 WHERE id = $1', [moved.id, to.id, to.platform]);
    const failed = s.targets.find((x) => x.status !== 'published');
    if (failed) await ctx.db.query(`UPDATE post_targets SET status = 'published' WHERE id = $1`, [failed.id]);
    // An unpublished target published again.
    await ctx.db.query(`UPDATE post_targets SET status = 'published' WHERE id = $1`, [unpublished[0].id]);
    // An untouched column changes nothing.
    await ctx.db.query('UPDATE post_targets SET error_message = $2 WHERE id = $1', [published[7].id, 'noted']);
    await expectSameAsOracle(s, seedValue);
    await expectSameAsRebuilt(s.t.userId);

    // The account removed through the API: its targets drop from the view, as before.
    const removed = r.pick(s.accounts);
    const del = await ctx.app.inject({ method: 'DELETE', url: `/v1/accounts/${removed.id}`, headers: s.t.headers });
    expect(del.statusCode, del.body).toBe(200);
    await expectSameAsOracle(s, seedValue);
    const all = await repo.daily(s.t.userId, { platform: null, profileId: null, profileIds: null, from: new Date(s.now - 90 * DAY), to: new Date(s.now + 60_000) });
    expect(all.length, `seed ${seedValue}`).toBeGreaterThan(0);
  });

  it('two readings of different targets of one account and day stored at once lose no increment', async () => {
    const t = await createTenant(ctx, { addons: ['analytics'] });
    const profile = await createProfile(ctx, t);
    const account = await insertAccount(ctx, t, profile, 'bluesky');
    const publishedAt = new Date(Date.now() - 2 * DAY);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const postId = newId();
      const id = newId();
      await insertPublished(t, postId, id, account, publishedAt);
      ids.push(id);
    }
    const base = Math.floor(Date.now() / DAY) * DAY - DAY; // yesterday, one reading per target and round
    const rounds = 8;
    for (let round = 1; round <= rounds; round++) {
      await Promise.all(ids.map((id, i) => {
        const m = { ...noMetrics(), likes: round * (i + 1), comments: round };
        return repo.saveReading(id, t.userId, m, new Date(base + round * 60_000 + i), null);
      }));
    }
    const { rows } = await ctx.db.query<{ targets: number; likes: string; comments: string; engagement: string }>(
      'SELECT targets, likes, comments, engagement FROM post_metric_daily WHERE tenant_id = $1', [t.userId]);
    // One day: each target's last reading (round 8) less nothing before it.
    const likes = ids.reduce((n, _, i) => n + rounds * (i + 1), 0);
    expect(rows.map((x) => ({ targets: Number(x.targets), likes: Number(x.likes), comments: Number(x.comments), engagement: Number(x.engagement) })))
      .toEqual([{ targets: ids.length, likes, comments: rounds * ids.length, engagement: likes + rounds * ids.length }]);
    await expectSameAsRebuilt(t.userId);
  });

  it('a reading stored while its target is unpublished, then while it is published again: the table follows either order', async () => {
    const t = await createTenant(ctx, { addons: ['analytics'] });
    const profile = await createProfile(ctx, t);
    const account = await insertAccount(ctx, t, profile, 'bluesky');
    const publishedAt = new Date(Date.now() - 3 * DAY);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const postId = newId();
      const id = newId();
      await insertPublished(t, postId, id, account, publishedAt);
      await repo.saveReading(id, t.userId, { ...noMetrics(), likes: 5 }, new Date(publishedAt.getTime() + 3_600_000), null);
      ids.push(id);
    }
    const at = new Date();
    await Promise.all(ids.flatMap((id) => [
      repo.saveReading(id, t.userId, { ...noMetrics(), likes: 9 }, at, null),
      cancelTakenBackTarget(ctx.db, id, true, at),
    ]));
    const { rows } = await ctx.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM post_metric_daily WHERE tenant_id = $1 AND (targets <> 0 OR likes <> 0 OR likes_n <> 0 OR engagement <> 0)`, [t.userId]);
    expect(Number(rows[0].n)).toBe(0);
    expect(await repo.daily(t.userId, { platform: null, profileId: null, profileIds: null, from: new Date(Date.now() - 90 * DAY), to: new Date(Date.now() + 60_000) })).toEqual([]);
    await expectSameAsRebuilt(t.userId, { empty: true });
    // Published again while a later reading is stored: every reading counts, those stored meanwhile too.
    const later = new Date(at.getTime() + 1000);
    await Promise.all(ids.flatMap((id) => [
      repo.saveReading(id, t.userId, { ...noMetrics(), likes: 12 }, later, null),
      ctx.db.query(`UPDATE post_targets SET status = 'published' WHERE id = $1`, [id]),
    ]));
    const all = normalize(await repo.daily(t.userId, { platform: null, profileId: null, profileIds: null, from: new Date(Date.now() - 90 * DAY), to: new Date(Date.now() + 60_000) }));
    expect(all.reduce((n, d) => n + (d.likes as number), 0)).toBe(12 * ids.length);
    await expectSameAsRebuilt(t.userId);
  });

  it('a reading written outside the refresh job is not counted until the table is rebuilt (what bench/analytics.ts does)', async () => {
    const t = await createTenant(ctx, { addons: ['analytics'] });
    const profile = await createProfile(ctx, t);
    const account = await insertAccount(ctx, t, profile, 'bluesky');
    const postId = newId();
    const id = newId();
    const publishedAt = new Date(Date.now() - DAY);
    await insertPublished(t, postId, id, account, publishedAt);
    const m = { ...noMetrics(), likes: 4, shares: 1 };
    await ctx.db.query(
      'INSERT INTO post_metric_snapshots (target_id, captured_at, tenant_id, likes, shares, engagement) VALUES ($1, now(), $2, 4, 1, $3)', [id, t.userId, engagementOf(m)]);
    const f: ListFilters = { platform: null, profileId: null, profileIds: null, from: new Date(Date.now() - 90 * DAY), to: new Date(Date.now() + 60_000) };
    const whole: ListFilters = { ...f, to: new Date(Math.floor(Date.now() / DAY) * DAY) }; // whole days only: read from the table alone
    expect(await repo.daily(t.userId, whole)).toEqual([]);
    expect(await repo.rebuildDaily(t.userId)).toBe(1);
    expect(normalize(await repo.daily(t.userId, whole))).toEqual(await oracle(t.userId, whole));
    expect(normalize(await repo.daily(t.userId, f))).toEqual(await oracle(t.userId, f));
  });
});
