/**
 * The hot statements keep PostgreSQL's generic plan where one tenant, one profile and one account list
 * are much bigger than the rest (docs/decisions/0073-generic-plans-for-hot-statements.md): with bare
 * parameters, the custom plan for tenant A's one-element create or the big profile's page looked cheaper
 * than the generic one, and PostgreSQL planned them on every call (0.3-0.5 ms each at a million posts).
 * The worker's attempt rows, written one or two at a time in a slow drain, were planned with their values
 * for the same reason (a one-element array).
 * Each statement runs a dozen times on a pool of one connection; pg_prepared_statements then tells how
 * often that connection planned it with the values (custom) and how often it used the generic plan.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetsRepository } from '../../src/publishing/targets-repository.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let small: Tenant;
let smallAccount: string;
let big: Tenant;
let bigProfile: string;
const BIG_POSTS = 20_000;

beforeAll(async () => {
  // A pool of one connection, so that every statement is prepared and run on it.
  ctx = await createTestApp({ poolSize: 1 });
  // Tenant "big": 10,000 accounts and 20,000 posts with a target each, all in one profile; two more tenants beside it.
  big = await createTenant(ctx);
  bigProfile = await createProfile(ctx, big, 'big');
  small = await createTenant(ctx);
  smallAccount = await insertAccount(ctx, small, await createProfile(ctx, small), 'bluesky');
  // A third tenant with 500 profiles of 20 posts each: the average profile (what a generic plan assumes) is small.
  const third = await createTenant(ctx);
  const sealed = ctx.services.secrets.sealJson({});
  // The rows go in on a connection of their own without the pool's statement timeout (a busy CI machine
  // took more than its 5 s for 20,000 targets), and leave the pool's one connection unprepared.
  await ctx.db.unbounded(async (c) => {
    await c.query(
      `INSERT INTO accounts (id, tenant_id, profile_id, platform, platform_user_id, username, credentials, is_active)
       SELECT 'a' || lpad(to_hex(g), 23, '0'), $1, $2, 'bluesky', 'did:plc:big' || g, 'big' || g || '.test', $3, true FROM generate_series(1, 10000) g`,
      [big.userId, bigProfile, sealed]);
    await c.query(
      `INSERT INTO posts (id, tenant_id, created_by, content, status, scheduled_for, timezone, created_at, updated_at)
       SELECT 'b' || lpad(to_hex(g), 23, '0'), $1, $1, 'big ' || g, 'scheduled', now() + g * interval '1 minute', 'UTC', now(), now()
         FROM generate_series(1, ${BIG_POSTS}) g`, [big.userId]);
    await c.query(
      `INSERT INTO post_targets (id, post_id, tenant_id, position, account_id, platform, status, run_at)
       SELECT 'c' || lpad(to_hex(g), 23, '0'), 'b' || lpad(to_hex(g), 23, '0'), $1, 0, 'a' || lpad(to_hex(1 + g % 10000), 23, '0'), 'bluesky', 'pending',
              now() + g * interval '1 minute'
         FROM generate_series(1, ${BIG_POSTS}) g`, [big.userId]);
    await c.query(`INSERT INTO profiles (id, tenant_id, name) SELECT 'd' || lpad(to_hex(g), 23, '0'), $1, 'p' || g FROM generate_series(1, 500) g`, [third.userId]);
    await c.query(
      `INSERT INTO accounts (id, tenant_id, profile_id, platform, platform_user_id, username, credentials, is_active)
       SELECT 'e' || lpad(to_hex(g), 23, '0'), $1, 'd' || lpad(to_hex(g), 23, '0'), 'bluesky', 'did:plc:third' || g, 'third' || g || '.test', $2, true
         FROM generate_series(1, 500) g`, [third.userId, sealed]);
    await c.query(
      `INSERT INTO posts (id, tenant_id, created_by, content, status, scheduled_for, timezone, created_at, updated_at)
       SELECT 'f' || lpad(to_hex(g), 23, '0'), $1, $1, 'third ' || g, 'scheduled', now() + g * interval '1 minute', 'UTC', now(), now()
         FROM generate_series(1, 10000) g`, [third.userId]);
    await c.query(
      `INSERT INTO post_targets (id, post_id, tenant_id, position, account_id, platform, status, run_at)
       SELECT '9' || lpad(to_hex(g), 23, '0'), 'f' || lpad(to_hex(g), 23, '0'), $1, 0, 'e' || lpad(to_hex(1 + g % 500), 23, '0'), 'bluesky', 'pending',
              now() + g * interval '1 minute'
         FROM generate_series(1, 10000) g`, [third.userId]);
    await c.query('ANALYZE');
  });
}, 120_000);
afterAll(async () => { await ctx.close(); });

/** The plans this connection made for the prepared statement whose text is LIKE `pattern`. */
async function plansOf(pattern: string) {
  const { rows } = await ctx.db.query<{ generic_plans: string; custom_plans: string }>(
    'SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE $1', [pattern]);
  expect(rows, `one prepared statement like ${pattern}`).toHaveLength(1);
  return { generic: Number(rows[0].generic_plans), custom: Number(rows[0].custom_plans) };
}

describe('generic plans with a big tenant present', () => {
  it('the create statement is planned with its values only for its first calls', async () => {
    for (let i = 0; i < 12; i++) {
      const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: small.headers,
        payload: { content: `plan ${i}`, scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: smallAccount }] } });
      expect(res.statusCode, res.body).toBe(201);
    }
    const plans = await plansOf('%INSERT INTO post_content_claims%');
    expect(plans.custom).toBeLessThanOrEqual(5);
    expect(plans.generic).toBeGreaterThanOrEqual(7);
  });

  it('a profile\'s newest page and a deep page are too', async () => {
    for (const page of [1, 100]) {
      for (let i = 0; i < 12; i++) {
        const res = await ctx.app.inject({ method: 'GET', url: `/v1/posts?profileId=${bigProfile}&sortBy=scheduled-desc&limit=10&page=${page}`, headers: big.headers });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().pagination.total).toBe(BIG_POSTS);
      }
    }
    const newest = await plansOf('SELECT %FROM post_profiles pp JOIN posts p%ORDER BY pp.scheduled_for DESC NULLS LAST, pp.post_id DESC LIMIT 10');
    const deep = await plansOf('WITH page AS (SELECT pp.post_id%ORDER BY pp.scheduled_for DESC NULLS LAST, pp.post_id DESC LIMIT 10 OFFSET%');
    for (const plans of [newest, deep]) {
      expect(plans.custom).toBeLessThanOrEqual(5);
      expect(plans.generic).toBeGreaterThanOrEqual(7);
    }
  });

  it('the attempt rows, written one at a time as a slow drain writes them, are too', async () => {
    // The small tenant's posts (the first test's) due now, claimed by one worker, then an attempt row each.
    await ctx.db.query(`UPDATE post_targets SET run_at = now() - interval '1 second' WHERE tenant_id = $1`, [small.userId]);
    const targets = createTargetsRepository(ctx.db);
    const claimed = await targets.claim('plans-worker', 12, 60, null);
    expect(claimed.map((c) => c.tenant_id)).toEqual(Array(12).fill(small.userId));
    for (const c of claimed) expect(await targets.startAttempt(c, 'plans-worker', 'commit', null, 'publish', 30)).toEqual(expect.any(Number));
    const plans = await plansOf('%held AS (%INSERT INTO publish_attempts%');
    expect(plans.custom).toBeLessThanOrEqual(5);
    expect(plans.generic).toBeGreaterThanOrEqual(7);
  });
});
