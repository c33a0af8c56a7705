/**
 * GET /v1/posts with the dashboard's filters (profile, platform, date range, status), every sort
 * order and every page, held to an oracle computed here from the stored rows: the list statements
 * (src/modules/posts/list-queries.ts) take the page's ids first and build the views after, find a
 * profile's posts from its accounts and its queue, and take a date range from the scheduled and created indexes
 * (migrations/0039_list_at_scale.sql); none of that may change which posts a page holds, their
 * order, or the total.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';

let ctx: TestContext;
let t: Tenant;
let profileA: string;
let profileB: string;
let queuedOnly: string;

interface Row { id: string; status: string; created_at: Date; scheduled_for: Date | null; hidden: boolean; queued_from_profile: string | null; platforms: string[]; profiles: string[] }

beforeAll(async () => {
  ctx = await createTestApp({ deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: new ScriptedAdapter() }) } });
  t = await createTenant(ctx);
  profileA = await createProfile(ctx, t, 'A');
  profileB = await createProfile(ctx, t, 'B');
  const accounts = {
    aSky: await insertAccount(ctx, t, profileA, 'bluesky'), aMasto: await insertAccount(ctx, t, profileA, 'mastodon'),
    bSky: await insertAccount(ctx, t, profileB, 'bluesky'), bThreads: await insertAccount(ctx, t, profileB, 'threads'),
  };
  const sets = [[accounts.aSky], [accounts.bSky], [accounts.aMasto, accounts.bThreads], [accounts.bThreads], [accounts.aSky, accounts.bSky]];
  const base = Date.UTC(new Date().getUTCFullYear() + 1, 0, 10, 9, 0);
  for (let i = 0; i < 36; i++) {
    const draft = i % 7 === 3;
    const payload = {
      content: `Post ${i}: croissants, day ${i % 9}`,
      platforms: sets[i % sets.length].map((accountId) => ({ platform: accountId === accounts.aMasto ? 'mastodon' : accountId === accounts.bThreads ? 'threads' : 'bluesky', accountId })),
      ...(draft ? {} : { scheduledFor: new Date(base + ((i * 37) % 30) * 86_400_000).toISOString() }),
      ...(draft ? { isDraft: true } : {}),
    };
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers, payload });
    expect(res.statusCode, res.body).toBe(201);
  }
  // A post queued from profile B whose only target is on profile A: it is B's through its queue.
  const { rows } = await ctx.db.query<{ id: string }>(
    `SELECT p.id FROM posts p WHERE p.tenant_id = $1 AND NOT EXISTS (SELECT 1 FROM post_targets t JOIN accounts a ON a.id = t.account_id WHERE t.post_id = p.id AND a.profile_id = $2)
      ORDER BY p.id LIMIT 1`, [t.userId, profileB]);
  queuedOnly = rows[0].id;
  await ctx.db.query('UPDATE posts SET queued_from_profile = $2 WHERE id = $1', [queuedOnly, profileB]);
  await ctx.db.query(`UPDATE posts SET hidden = true WHERE id = (SELECT id FROM posts WHERE tenant_id = $1 AND id <> $2 ORDER BY id DESC LIMIT 1)`, [t.userId, queuedOnly]);
  // Posts whose status changed after they were stored (as publishing changes it): a profile's status filter
  // and order read the post's own status (post_profiles holds no copy of it; decision 0074).
  await ctx.db.query(`UPDATE posts SET status = CASE WHEN ascii(right(id, 1)) % 3 = 0 THEN 'published' ELSE 'failed' END
                       WHERE tenant_id = $1 AND status = 'scheduled' AND ascii(right(id, 1)) % 2 = 0`, [t.userId]);
}, 60_000);
afterAll(async () => { await ctx.close(); });

async function stored(): Promise<Row[]> {
  const { rows } = await ctx.db.query<Row>(
    `SELECT p.id, p.status, p.created_at, p.scheduled_for, p.hidden, p.queued_from_profile,
            array(SELECT t.platform FROM post_targets t WHERE t.post_id = p.id) AS platforms,
            array(SELECT a.profile_id FROM post_targets t JOIN accounts a ON a.id = t.account_id WHERE t.post_id = p.id) AS profiles
       FROM posts p WHERE p.tenant_id = $1`, [t.userId]);
  return rows;
}

const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
/** NULLS LAST on a descending (or ascending) time. */
const byTime = (a: Date | null, b: Date | null, desc: boolean) => a === null ? (b === null ? 0 : 1) : b === null ? -1 : (desc ? -1 : 1) * cmp(a.getTime(), b.getTime());

/** The order of each sortBy, as LIST_ORDER in src/modules/posts/list-queries.ts defines it. */
const ORDERS: Record<string, (a: Row, b: Row) => number> = {
  'created-desc': (a, b) => -cmp(a.created_at.getTime(), b.created_at.getTime()) || -cmp(a.id, b.id),
  'created-asc': (a, b) => cmp(a.created_at.getTime(), b.created_at.getTime()) || cmp(a.id, b.id),
  'scheduled-desc': (a, b) => byTime(a.scheduled_for, b.scheduled_for, true) || -cmp(a.id, b.id),
  'scheduled-asc': (a, b) => byTime(a.scheduled_for, b.scheduled_for, false) || cmp(a.id, b.id),
  status: (a, b) => cmp(a.status, b.status) || byTime(a.scheduled_for, b.scheduled_for, true) || -cmp(a.id, b.id),
  platform: (a, b) => {
    const pa = [...a.platforms].sort()[0] ?? null;
    const pb = [...b.platforms].sort()[0] ?? null;
    return (pa === null ? (pb === null ? 0 : 1) : pb === null ? -1 : cmp(pa, pb)) || byTime(a.scheduled_for, b.scheduled_for, true) || -cmp(a.id, b.id);
  },
};

interface Filter { profileId?: string; platform?: string; status?: string; dateFrom?: string; dateTo?: string; includeHidden?: 'true' }

function oracle(rows: Row[], f: Filter, sortBy: string): string[] {
  const from = f.dateFrom ? new Date(f.dateFrom).getTime() : -Infinity;
  const to = f.dateTo ? new Date(f.dateTo).getTime() : Infinity;
  return rows.filter((r) => (f.includeHidden === 'true' || !r.hidden)
    && (!f.status || r.status === f.status)
    && (!f.platform || r.platforms.includes(f.platform))
    && (!f.profileId || r.queued_from_profile?.trim() === f.profileId || r.profiles.some((p) => p.trim() === f.profileId))
    && (r.scheduled_for ?? r.created_at).getTime() >= from && (r.scheduled_for ?? r.created_at).getTime() <= to)
    .sort(ORDERS[sortBy]).map((r) => r.id.trim());
}

describe('GET /v1/posts with the dashboard filters', () => {
  it('answers the oracle\'s posts, order and total for every filter, sort order and page', async () => {
    const rows = await stored();
    const year = new Date().getUTCFullYear() + 1;
    const filters: Filter[] = [
      {}, { profileId: profileA }, { profileId: profileB }, { profileId: profileA, includeHidden: 'true' }, { profileId: profileB, includeHidden: 'true' },
      { platform: 'threads' }, { status: 'draft' },
      { dateFrom: `${year}-01-15T00:00:00.000Z`, dateTo: `${year}-01-31T23:59:59.999Z` },
      { profileId: profileB, status: 'scheduled', dateFrom: `${year}-01-12T00:00:00.000Z`, dateTo: `${year}-02-05T00:00:00.000Z` },
      { profileId: profileA, platform: 'bluesky' },
      // A profile's page read from post_profiles alone: its date range on the copies, the platform by post id.
      { profileId: profileA, dateFrom: `${year}-01-15T00:00:00.000Z`, dateTo: `${year}-01-31T23:59:59.999Z` },
      { profileId: profileB, dateFrom: `${year}-01-20T00:00:00.000Z`, includeHidden: 'true' },
      { profileId: profileA, dateTo: `${year}-01-25T00:00:00.000Z` },
      { profileId: profileB, platform: 'threads', dateFrom: `${year}-01-12T00:00:00.000Z`, dateTo: `${year}-02-05T00:00:00.000Z` },
      { profileId: profileB, platform: 'bluesky' },
      // A profile's status, changed after the post was stored.
      { profileId: profileA, status: 'published' }, { profileId: profileB, status: 'failed', includeHidden: 'true' },
      { profileId: profileA, status: 'scheduled', platform: 'mastodon' }, { profileId: profileB, status: 'draft' },
      // Date ranges as two branches (scheduled posts by scheduled_for, drafts by created_at), with other filters.
      { dateTo: `${year}-01-25T00:00:00.000Z` }, { platform: 'bluesky', dateFrom: `${year}-01-20T00:00:00.000Z` },
      { status: 'draft', dateFrom: `${year - 2}-01-01T00:00:00.000Z` }, { includeHidden: 'true', dateFrom: `${year}-01-14T00:00:00.000Z`, dateTo: `${year}-02-01T00:00:00.000Z` },
      { profileId: profileA, status: 'draft', dateTo: `${year}-01-25T00:00:00.000Z` }, { profileId: profileB, status: 'scheduled', dateFrom: `${year}-01-20T00:00:00.000Z` },
    ];
    let compared = 0;
    for (const f of filters) {
      for (const sortBy of Object.keys(ORDERS)) {
        const want = oracle(rows, f, sortBy);
        const got: string[] = [];
        for (let page = 1; page <= Math.ceil(want.length / 5) + 1; page++) {
          const query = new URLSearchParams({ ...f, sortBy, limit: '5', page: String(page) } as Record<string, string>);
          const res = await ctx.app.inject({ method: 'GET', url: `/v1/posts?${query}`, headers: t.headers });
          expect(res.statusCode, `${query} ${res.body}`).toBe(200);
          const body = res.json();
          expect(body.pagination.total, `${query}`).toBe(want.length);
          for (const p of body.posts) {
            expect(p.platforms.length, `${query}: each post comes with its targets`).toBeGreaterThan(0);
            got.push(p._id);
          }
        }
        expect(got, `${JSON.stringify(f)} ${sortBy}`).toEqual(want);
        compared += want.length;
      }
    }
    // The profile filter finds the post queued from B with no target on B.
    expect(oracle(rows, { profileId: profileB }, 'created-desc')).toContain(queuedOnly.trim());
    // The hidden post is in a profile, so includeHidden changes a profile's pages (read from post_profiles' copy of hidden).
    const inProfiles = (h?: 'true') => oracle(rows, { profileId: profileA, includeHidden: h }, 'created-desc').length + oracle(rows, { profileId: profileB, includeHidden: h }, 'created-desc').length;
    expect(inProfiles('true')).toBeGreaterThan(inProfiles());
    expect(compared).toBeGreaterThan(300);
  }, 60_000);
});
