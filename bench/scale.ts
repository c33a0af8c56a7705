/**
 * `--scale` seeding (bench/README.md, "Where big users live"): a big tenant in Herald's
 * database and its equivalent in the anchor's, by SQL (generate_series, INSERT ... SELECT), so that the list, the create and the
 * drains run where big users live.
 *
 * Herald: one tenant ("scale", Advanced plan) with 1,000 profiles of 10 accounts each (10,000
 * accounts, five platforms) and 1,000,000 posts with their targets (1-3 per post, about 1.35 M),
 * spread over the profiles with a skew (profile i gets a share of about (i+1)^2 - i^2 per million:
 * profile 0, the one the list measures, holds about 31,600 posts; the smallest about 2,000). Each
 * post is what Herald stores for it at the end of its life so far:
 *   - 80% published in the past (two years back): posts `published` with published_at; targets
 *     `published` with platform_post_id / _url, published_at, result `{"goesLiveAt": null}` and
 *     attempts 1, run_at NULL and no lock, as the publisher's finish leaves them;
 *   - 3% failed (targets `failed` after 3 attempts, error message and category `platform_error`);
 *   - 1% partial (two targets: one published, one failed);
 *   - 10% scheduled in the future (1 hour to 60 days ahead): posts `scheduled`, targets `pending`
 *     with run_at = the post's time (the job rows, in the due index; none becomes due during the bench);
 *   - 6% drafts (is_draft, no usage count, targets `draft` without run_at).
 * Every non-draft post counts toward the plan (usage_counted_at = created_at) and carries an API
 * request id, as a create over the API stores them; the post counters are kept by the insert
 * trigger (one statement, so one counter row per status); publishing-log rows (publish_attempts)
 * exist for the targets finished within the log's 90-day retention; content claims for the
 * scheduled posts created within the last 24 hours (older ones are pruned).
 * Secondary indexes of posts, post_targets and publish_attempts are dropped during the load and
 * built again from their own definitions (the same indexes, built once instead of row by row).
 *
 * Anchor (perf_anchor): 1,000,000 posts over 1,000 users (its unit of listing, as a profile is
 * Herald's) with the same skew; the anchor's own API-key user is user 0, the biggest.
 */
import type pg from 'pg';
import type { Db } from '../src/storage/db.ts';
import type { Services } from '../src/services.ts';

export const SCALE = { posts: 1_000_000, profiles: 1_000, accountsPerProfile: 10 } as const;
const SCALE_PLATFORMS = ['bluesky', 'twitter', 'linkedin', 'facebook', 'instagram'] as const;

export interface ScaleTenant {
  tenantId: string;
  headers: Record<string, string>;
  /** The biggest profile (the one the list measures) and its post count. */
  profileId: string;
  profilePosts: number;
  posts: number;
  targets: number;
  seconds: { herald: number; anchor: number; analyze: number };
}

/** A uniform number in [0, 1) from the post number `g` and a stream `k` (deterministic: the same seed every run). */
const u = (g: string, k: number) => `((hashint4extended(${g}, ${k}) & 4294967295)::float8 / 4294967296.0)`;

/** Seeds Herald's database (see the file comment); answers the tenant and its biggest profile. */
export async function seedHeraldScale(db: Db, services: Services, log: (label: string, value: string) => void): Promise<Omit<ScaleTenant, 'seconds'> & { seconds: number }> {
  const t0 = performance.now();
  const { userId: tenantId } = await services.users.createRootUser({ email: 'scale@example.test', plan: 'advanced' });
  const { key } = await services.apiKeys.create({ tenantId, userId: tenantId }, { name: 'scale' });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const credentials = services.secrets.sealJson({});
  const client = await db.pool.connect();
  try {
    await client.query(`SET synchronous_commit = off`);
    await client.query(`SET maintenance_work_mem = '512MB'`);
    await client.query(`SET work_mem = '256MB'`);
    const step = async (label: string, sql: string, params: unknown[] = []) => {
      const s = performance.now();
      const r = await client.query(sql, params);
      log(`  ${label}`, `${r.rowCount ?? 0} rows, ${((performance.now() - s) / 1000).toFixed(1)} s`);
      return r;
    };
    // Secondary indexes (not the primary keys or unique constraints): dropped, rebuilt after the load from their definitions.
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
        WHERE i.schemaname = 'public' AND i.tablename IN ('posts', 'post_targets', 'publish_attempts', 'post_profiles')
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`);
    for (const ix of indexes) await client.query(`DROP INDEX ${ix.name}`);

    await step('profiles', `INSERT INTO profiles (id, tenant_id, name, created_at, updated_at)
       SELECT 'd0000000' || lpad(to_hex(p), 16, '0'), $1, 'Scale profile ' || p, now() - interval '800 days', now() - interval '800 days'
         FROM generate_series(0, $2::int - 1) p`, [tenantId, SCALE.profiles]);
    await step('accounts', `INSERT INTO accounts (id, tenant_id, profile_id, platform, platform_user_id, username, credentials, is_active, created_at, updated_at)
       SELECT 'c0000000' || lpad(to_hex(a), 16, '0'), $1, 'd0000000' || lpad(to_hex(a / $3), 16, '0'),
              ($4::text[])[1 + a % cardinality($4::text[])], 'scale-' || a, 'scale' || a || '.example', $2, true,
              now() - interval '800 days', now() - interval '800 days'
         FROM generate_series(0, $5::int - 1) a`,
    [tenantId, credentials, SCALE.accountsPerProfile, SCALE_PLATFORMS, SCALE.profiles * SCALE.accountsPerProfile]);

    // One row per post with everything its rows derive from (an unlogged temporary table).
    await step('plan (temporary table)', `CREATE TEMP TABLE scale_seed AS
       WITH base AS (
         SELECT g, ${u('g', 1)} AS kind_u, ${u('g', 2)} AS time_u, ${u('g', 3)} AS lead_u, ${u('g', 4)} AS n_u, ${u('g', 5)} AS prof_u
           FROM generate_series(1, $1::int) g),
       k AS (
         SELECT g, time_u, lead_u, n_u, floor($2::int * prof_u * prof_u)::int AS profile,
                CASE WHEN kind_u < 0.80 THEN 'published' WHEN kind_u < 0.83 THEN 'failed' WHEN kind_u < 0.84 THEN 'partial'
                     WHEN kind_u < 0.94 THEN 'scheduled' ELSE 'draft' END AS status
           FROM base),
       t AS (
         SELECT g, profile, status,
                CASE WHEN status = 'partial' THEN 2 WHEN n_u < 0.70 THEN 1 WHEN n_u < 0.95 THEN 2 ELSE 3 END AS ntargets,
                CASE WHEN status IN ('published', 'failed', 'partial') THEN now() - interval '1 hour' - time_u * interval '730 days'
                     WHEN status = 'scheduled' THEN now() + interval '1 hour' + time_u * interval '60 days' END AS sched,
                lead_u
           FROM k),
       u AS (
         SELECT g, profile, status, ntargets, date_trunc('minute', sched) AS sched,
                CASE WHEN status = 'scheduled' THEN now() - lead_u * interval '30 days'
                     WHEN status = 'draft' THEN now() - lead_u * interval '365 days'
                     ELSE date_trunc('minute', sched) - interval '10 minutes' - lead_u * interval '7 days' END AS created,
                CASE WHEN status IN ('published', 'partial') THEN date_trunc('minute', sched) + (1 + lead_u * 3) * interval '1 second' END AS published
           FROM t)
       -- Ids as Herald makes them (src/core/ids.ts): the creation time's seconds first, then the post number.
       SELECT lpad(to_hex(extract(epoch FROM created)::bigint), 8, '0') || lpad(to_hex(g), 16, '0') AS id, * FROM u`, [SCALE.posts, SCALE.profiles]);

    await step('posts', `INSERT INTO posts (id, tenant_id, created_by, content, status, scheduled_for, timezone, is_draft, usage_counted_at, published_at,
                          created_at, updated_at, request_id)
       SELECT s.id, $1, $1, 'Scale post ' || s.g || ': what a big account publishes on an ordinary day, with a link https://example.test/p/' || s.g,
              s.status, s.sched, 'Europe/Paris', s.status = 'draft', CASE WHEN s.status <> 'draft' THEN s.created END, s.published,
              s.created, COALESCE(s.published, s.sched + interval '2 seconds', s.created), md5('req' || s.g)::uuid::text
         FROM scale_seed s`, [tenantId]);

    // Targets: position j of post g goes to account (g + j) mod 10 of the post's profile (distinct within a post). The
    // rows are consistent by construction, so the foreign-key checks (one per row) are skipped for these loads
    // (session_replication_role = replica); the constraints stay in place for everything after.
    await client.query('SET session_replication_role = replica');
    const account = `(s.profile * ${SCALE.accountsPerProfile} + (s.g + j) % ${SCALE.accountsPerProfile})`;
    const accountId = `'c0000000' || lpad(to_hex(${account}), 16, '0')`;
    const platform = `($2::text[])[1 + ${account} % cardinality($2::text[])]`;
    const targetId = `'b' || to_hex(j) || substr(s.id, 3, 22)`;
    const targetStatus = `CASE s.status WHEN 'scheduled' THEN 'pending' WHEN 'partial' THEN CASE WHEN j = 0 THEN 'published' ELSE 'failed' END ELSE s.status END`;
    await step('post_targets', `INSERT INTO post_targets (id, post_id, tenant_id, position, account_id, platform, status, run_at, attempts,
                                 platform_post_id, platform_post_url, published_at, error_message, error_category, result, updated_at)
       SELECT ${targetId}, s.id, $1, j, ${accountId}, x.platform, x.status,
              CASE WHEN x.status = 'pending' THEN s.sched END,
              CASE x.status WHEN 'published' THEN 1 WHEN 'failed' THEN 3 ELSE 0 END,
              CASE WHEN x.status = 'published' THEN 'scale-' || s.g || '-' || j END,
              CASE WHEN x.status = 'published' THEN 'https://example.test/' || x.platform || '/' || s.g || '/' || j END,
              CASE WHEN x.status = 'published' THEN s.published END,
              CASE WHEN x.status = 'failed' THEN 'Publishing failed after 3 attempts (last error: the platform answered 503)' END,
              CASE WHEN x.status = 'failed' THEN 'platform_error' END,
              CASE WHEN x.status = 'published' THEN '{"goesLiveAt": null}'::jsonb END,
              COALESCE(s.published, CASE WHEN s.status = 'failed' THEN s.sched + interval '5 minutes' END, s.created)
         FROM scale_seed s
         CROSS JOIN LATERAL generate_series(0, s.ntargets - 1) j
         CROSS JOIN LATERAL (SELECT ${targetStatus} AS status, ${platform} AS platform) x`,
    [tenantId, SCALE_PLATFORMS]);
    // The publishing log within its retention: one row per attempt of each finished target (three for a failed one).
    await step('publish_attempts (last 90 days)', `INSERT INTO publish_attempts (target_id, attempt, worker_id, phase, outcome, error, started_at, finished_at,
                                     tenant_id, post_id, account_id, platform, action, duration_ms, error_category, platform_post_id, platform_post_url)
       SELECT ${targetId}, n, 'scale-seed', 'commit', CASE WHEN x.status = 'published' THEN 'published' WHEN n < 3 THEN 'retry' ELSE 'failed' END,
              CASE WHEN x.status = 'failed' THEN 'the platform answered 503' END,
              s.sched + n * interval '1 second', s.sched + n * interval '1 second' + interval '400 milliseconds',
              $1, s.id, ${accountId}, x.platform, CASE WHEN n > 1 THEN 'retry' ELSE 'publish' END, 400,
              CASE WHEN x.status = 'failed' THEN 'platform_error' END,
              CASE WHEN x.status = 'published' THEN 'scale-' || s.g || '-' || j END,
              CASE WHEN x.status = 'published' THEN 'https://example.test/' || x.platform || '/' || s.g || '/' || j END
         FROM scale_seed s
         CROSS JOIN LATERAL generate_series(0, s.ntargets - 1) j
         CROSS JOIN LATERAL (SELECT ${targetStatus} AS status, ${platform} AS platform) x
         CROSS JOIN LATERAL generate_series(1, CASE WHEN x.status = 'published' THEN 1 ELSE 3 END) n
        WHERE s.status IN ('published', 'failed', 'partial') AND s.sched > now() - interval '90 days'`, [tenantId, SCALE_PLATFORMS]);
    await step('post_content_claims (last 24 hours)', `INSERT INTO post_content_claims (account_id, content_hash, post_id, claimed_at)
       SELECT ${accountId}, sha256(convert_to('Scale post ' || s.g, 'UTF8')), s.id, s.created
         FROM scale_seed s CROSS JOIN LATERAL generate_series(0, s.ntargets - 1) j
        WHERE s.status = 'scheduled' AND s.created > now() - interval '24 hours'`);
    // The targets were loaded without their triggers: each post's row per profile, and the profile
    // counters, as migrations/0040_post_profiles.sql computes them (without its row triggers either).
    // The tables' statistics first: planned as empty, the join ran as nested loops over sequential
    // scans (200 s).
    await step('ANALYZE posts, post_targets, accounts', 'ANALYZE posts, post_targets, accounts');
    await step('post_profiles', `INSERT INTO post_profiles (post_id, profile_id, tenant_id, scheduled_for, created_at, hidden)
       SELECT DISTINCT p.id, a.profile_id, p.tenant_id, p.scheduled_for, p.created_at, p.hidden
         FROM post_targets t JOIN accounts a ON a.id = t.account_id JOIN posts p ON p.id = t.post_id
        WHERE t.tenant_id = $1`, [tenantId]);
    await step('profile_post_counters', `INSERT INTO profile_post_counters (tenant_id, profile_id, hidden, shard, n)
       SELECT tenant_id, profile_id, hidden, 0, count(*) FROM post_profiles WHERE tenant_id = $1 GROUP BY tenant_id, profile_id, hidden`, [tenantId]);
    await client.query('SET session_replication_role = DEFAULT');
    const s = performance.now();
    for (const ix of indexes) await client.query(ix.def);
    log('  indexes rebuilt', `${indexes.length} (${indexes.map((i) => i.name).join(', ')}), ${((performance.now() - s) / 1000).toFixed(1)} s`);
    const { rows: [biggest] } = await client.query<{ profile: number; n: number }>(
      `SELECT profile, count(*)::int AS n FROM scale_seed GROUP BY profile ORDER BY n DESC LIMIT 1`);
    const { rows: [counts] } = await client.query<{ posts: number; targets: number }>(
      `SELECT (SELECT count(*)::int FROM scale_seed) AS posts, (SELECT count(*)::int FROM post_targets WHERE tenant_id = $1) AS targets`, [tenantId]);
    await client.query('DROP TABLE scale_seed');
    return {
      tenantId, headers, profileId: `d0000000${biggest.profile.toString(16).padStart(16, '0')}`, profilePosts: biggest.n,
      posts: counts.posts, targets: counts.targets, seconds: (performance.now() - t0) / 1000,
    };
  } finally {
    client.release();
  }
}

/**
 * The anchor's equivalent: 1,000,000 posts over 1,000 users with the same skew; user 0 is the
 * anchor's own API-key user (the one its GET /posts lists). Answers the seconds it took.
 */
export async function seedAnchorScale(anchorDb: pg.Client): Promise<number> {
  const t0 = performance.now();
  await anchorDb.query('SET synchronous_commit = off');
  await anchorDb.query(`SET maintenance_work_mem = '512MB'`);
  await anchorDb.query('TRUNCATE perf_anchor.posts');
  await anchorDb.query('DROP INDEX IF EXISTS perf_anchor.posts_user_id_created_at_idx');
  await anchorDb.query(
    `INSERT INTO perf_anchor.posts (user_id, content, platforms, scheduled_for, timezone, status, created_at)
     SELECT CASE WHEN x.usr = 0 THEN k.user_id ELSE md5('anchor-user-' || x.usr)::uuid END,
            'Scale post ' || g || ': what a big account publishes on an ordinary day, with a link https://example.test/p/' || g,
            jsonb_build_array(jsonb_build_object('platform', 'bluesky', 'accountId', 'c0000000' || lpad(to_hex(x.usr * 10 + g % 10), 16, '0'))),
            x.created + interval '1 day', 'Europe/Paris', CASE WHEN x.kind < 0.84 THEN 'published' ELSE 'scheduled' END, x.created
       FROM generate_series(1, $1::int) g
      CROSS JOIN LATERAL (SELECT floor($2::int * ${u('g', 5)} * ${u('g', 5)})::int AS usr, ${u('g', 1)} AS kind,
                                 now() - ${u('g', 2)} * interval '730 days' AS created) x,
            (SELECT user_id FROM perf_anchor.api_keys LIMIT 1) k`, [SCALE.posts, SCALE.profiles]);
  await anchorDb.query('CREATE INDEX ON perf_anchor.posts (user_id, created_at DESC)');
  return (performance.now() - t0) / 1000;
}
