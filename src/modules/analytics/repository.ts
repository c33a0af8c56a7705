/**
 * The analytics tables (migrations/0011_analytics.sql): `post_metrics`, the latest metrics and
 * refresh schedule of each followed target, and `post_metric_snapshots`, the time series; and
 * `post_metric_daily` (migrations/0037_analytics_daily_rollup.sql, docs/decisions/0067-analytics-daily-rollup.md),
 * the daily view's gains summed ahead per tenant, account, platform, publish day and day: added to
 * with each snapshot written here, and kept by triggers on `post_targets` when a target stops
 * counting or moves. The views read published targets and their posts beside them (a read model:
 * the posts module owns those rows and never reads these).
 */
import { METRICS, engagementOf, type MetricName, type PostMetrics } from '../../shared/metrics.ts';
import type { PlatformId } from '../../shared/platforms.ts';
import type { Db } from '../../storage/db.ts';

/** A followed target as the refresh job reads it. */
export interface MetricsTargetRow {
  target_id: string;
  tenant_id: string;
  post_id: string;
  account_id: string;
  platform: PlatformId;
  platform_post_id: string;
  published_at: Date;
  sync_status: 'pending' | 'synced' | 'unavailable';
  refreshes: number;
  failures: number;
}

/** One target of a post as the views show it: the target with its latest metrics. */
export interface TargetMetricsRow extends Record<MetricName, string | null> {
  target_id: string;
  post_id: string;
  platform: PlatformId;
  account_id: string;
  username: string | null;
  profile_id: string | null;
  status: string;
  platform_post_id: string | null;
  platform_post_url: string | null;
  published_at: Date | null;
  error_message: string | null;
  sync_status: 'pending' | 'synced' | 'unavailable' | null;
  last_refreshed_at: Date | null;
  last_error: string | null;
  /** The account's state (null: the account was removed). */
  account_active: boolean | null;
  inactive_reason: string | null;
}

export interface PostRow {
  id: string;
  content: string;
  status: string;
  scheduled_for: Date | null;
  published_at: Date | null;
  created_at: Date;
}

/** The list view's filters, resolved (dates as instants, `to` exclusive). */
export interface ListFilters {
  platform: PlatformId | null;
  profileId: string | null;
  /** Profiles a scoped team member may see; null: all. */
  profileIds: readonly string[] | null;
  from: Date;
  to: Date;
}

/** A day of the time series: metric gains that day, summed over the selected targets. */
export type DailyRow = { day: Date } & Record<MetricName | 'engagement', string | null>;

const METRIC_COLS = METRICS.join(', ');
const DAY_MS = 86_400_000;

/** `$n` placeholders for the filters, appended to `params`; conditions on `t` (targets) and `a` (accounts). */
function filterSql(f: ListFilters, params: unknown[]): string {
  const conds: string[] = [];
  const add = (v: unknown) => { params.push(v); return `$${params.length}`; };
  if (f.platform) conds.push(`t.platform = ${add(f.platform)}`);
  if (f.profileId) conds.push(`a.profile_id = ${add(f.profileId)}`);
  if (f.profileIds) conds.push(`a.profile_id = ANY(${add(f.profileIds)}::char(24)[])`);
  conds.push(`t.published_at >= ${add(f.from)}`, `t.published_at < ${add(f.to)}`);
  return conds.join(' AND ');
}

/**
 * Adds `$3` (1 or -1) times target `$1`'s gains of the days from `$2` (a UTC date) on to its row of
 * `post_metric_daily`, when the target counts in the daily view (published), through
 * post_metric_daily_add, the function the triggers on post_targets call
 * (migrations/0037_analytics_daily_rollup.sql). The target's row is locked FOR SHARE whatever its
 * status, and its status read from the locked row: an unpublish or a publish again of the target
 * waits for this reading's transaction (its trigger then sees the reading) or has committed before
 * (this sees its status). Answers `counted`: 1 when the target counts, else 0.
 */
const ADD_TARGET_GAINS = `
  WITH locked AS MATERIALIZED (
    SELECT id, tenant_id, account_id, platform, published_at, status FROM post_targets WHERE id = $1 FOR SHARE
  )
  SELECT count(*) AS counted
    FROM (SELECT post_metric_daily_add(t.id, t.tenant_id, t.account_id, t.platform, t.published_at, $2::date, $3::int)
            FROM locked t WHERE t.status = 'published' AND t.published_at IS NOT NULL) added`;

/** The analytics repository on `db` (the pool: a reading is stored in a transaction of its own). */
export function createAnalyticsRepository(db: Db) {
  return {
    /**
     * Starts following published targets not followed yet (published within `sinceMs`, with a
     * platform post id), due at once; answers how many. `unavailable`: platforms without metrics.
     */
    async enroll(now: Date, sinceMs: number, unavailable: readonly PlatformId[], limit = 1000): Promise<number> {
      const { rowCount } = await db.query(
        `INSERT INTO post_metrics (target_id, tenant_id, post_id, account_id, platform, platform_post_id, published_at, sync_status, next_refresh_at)
         SELECT t.id, t.tenant_id, t.post_id, t.account_id, t.platform, t.platform_post_id, t.published_at,
                CASE WHEN t.platform = ANY($3::text[]) THEN 'unavailable' ELSE 'pending' END,
                CASE WHEN t.platform = ANY($3::text[]) THEN NULL ELSE $1::timestamptz END
           FROM post_targets t
          WHERE t.status = 'published' AND t.platform_post_id IS NOT NULL AND t.published_at > $2 AND t.published_at <= $1
            AND NOT EXISTS (SELECT 1 FROM post_metrics m WHERE m.target_id = t.id)
          ORDER BY t.published_at DESC
          LIMIT $4
         ON CONFLICT (target_id) DO NOTHING`,
        [now, new Date(now.getTime() - sinceMs), unavailable, limit]);
      return rowCount ?? 0;
    },

    /**
     * Followed targets due for a refresh at `now`, oldest due first, of active accounts only (the
     * sandbox's simulator accounts when `sandbox`, the real ones otherwise): targets of accounts
     * waiting for a reconnection stay due without holding the others back. Only `tenants` (those
     * holding the Analytics add-on) are read.
     */
    async due(now: Date, limit: number, sandbox: boolean, tenants: readonly string[]): Promise<MetricsTargetRow[]> {
      return (await db.query<MetricsTargetRow>(
        `SELECT m.target_id, m.tenant_id, m.post_id, m.account_id, m.platform, m.platform_post_id, m.published_at, m.sync_status, m.refreshes, m.failures
           FROM post_metrics m JOIN accounts a ON a.id = m.account_id
          WHERE m.next_refresh_at <= $1 AND a.is_active AND coalesce(a.settings->>'sandbox' = 'true', false) = $3
            AND m.tenant_id = ANY($4::char(24)[])
          ORDER BY m.next_refresh_at LIMIT $2`, [now, limit, sandbox, tenants])).rows;
    },

    /** Accounts waiting for a reconnection that have targets due (what a pass skips), with how many. */
    async waitingForReconnect(now: Date, tenants: readonly string[], limit = 100): Promise<Array<{ account_id: string; platform: PlatformId; targets: string }>> {
      return (await db.query<{ account_id: string; platform: PlatformId; targets: string }>(
        `SELECT m.account_id, a.platform, count(*) AS targets
           FROM post_metrics m JOIN accounts a ON a.id = m.account_id
          WHERE m.next_refresh_at <= $1 AND NOT a.is_active AND m.tenant_id = ANY($3::char(24)[])
          GROUP BY m.account_id, a.platform ORDER BY m.account_id LIMIT $2`, [now, limit, tenants])).rows;
    },

    /** Stops following these targets (their platform has no metrics here). */
    async stopFollowing(targetIds: string[]): Promise<void> {
      await db.query(`UPDATE post_metrics SET sync_status = 'unavailable', next_refresh_at = NULL WHERE target_id = ANY($1::char(24)[])`, [targetIds]);
    },

    /**
     * Stores a successful read: the latest counts and a snapshot; `next` is the next refresh (null:
     * none). In one transaction, while the target counts in the daily view (published), its gains in
     * `post_metric_daily` move by what the snapshot changes: its gains of the snapshot's UTC day and
     * after are taken out before the insert and put back after it (the snapshot changes that day's
     * gain and, when read out of order, the next day's). The target's row is locked FOR SHARE
     * first, so an unpublish, a publish again or a delete of the target (whose trigger moves its
     * gains) waits for this transaction or runs wholly before it.
     */
    async saveReading(targetId: string, tenantId: string, m: PostMetrics, at: Date, next: Date | null): Promise<void> {
      const values = METRICS.map((k) => m[k]);
      const day = at.toISOString().slice(0, 10);
      await db.tx(async (c) => {
        const { rows } = await c.query<{ counted: string }>(ADD_TARGET_GAINS, [targetId, day, -1]);
        const counted = Number(rows[0].counted) > 0;
        await c.query(
          `WITH s AS (
             INSERT INTO post_metric_snapshots (target_id, captured_at, tenant_id, ${METRIC_COLS}, engagement)
             VALUES ($1, $2, $3, ${METRICS.map((_, i) => `$${i + 6}`).join(', ')}, $4)
             ON CONFLICT (target_id, captured_at) DO NOTHING
           )
           UPDATE post_metrics SET ${METRICS.map((k, i) => `${k} = $${i + 6}`).join(', ')}, engagement = $4,
                  sync_status = 'synced', last_refreshed_at = $2, next_refresh_at = $5, refreshes = refreshes + 1, failures = 0, last_error = NULL
            WHERE target_id = $1`,
          [targetId, at, tenantId, engagementOf(m), next, ...values]);
        if (counted) await c.query(ADD_TARGET_GAINS, [targetId, day, 1]);
      });
    },

    /** A read that answered nothing for the target (not there yet, or a kind without metrics): keeps its counts. */
    async saveMissing(targetId: string, at: Date, next: Date | null): Promise<void> {
      await db.query(
        `UPDATE post_metrics SET last_refreshed_at = $2, next_refresh_at = $3, refreshes = refreshes + 1, failures = 0, last_error = NULL,
                sync_status = CASE WHEN sync_status = 'synced' THEN 'synced' ELSE 'unavailable' END
          WHERE target_id = $1`, [targetId, at, next]);
    },

    /** A failed read (rate limit, platform error): counted, the error kept, the refresh moved to `next`. */
    async saveFailure(targetIds: string[], error: string, next: Date): Promise<void> {
      await db.query(
        'UPDATE post_metrics SET failures = failures + 1, last_error = $2, next_refresh_at = $3 WHERE target_id = ANY($1::char(24)[])',
        [targetIds, error, next]);
    },

    /** The page of published posts matching `f`, sorted, with the total; engagement summed over the matching targets. */
    async listPosts(tenantId: string, f: ListFilters, sort: { by: 'date' | 'engagement'; order: 'asc' | 'desc' }, page: { limit: number; offset: number }): Promise<{ ids: string[]; total: number }> {
      const params: unknown[] = [tenantId];
      const where = filterSql(f, params);
      const dir = sort.order === 'asc' ? 'ASC' : 'DESC';
      const key = sort.by === 'engagement' ? 'engagement' : 'published_at';
      params.push(page.limit, page.offset);
      const { rows } = await db.query<{ post_id: string; total: string }>(
        `WITH p AS (
           SELECT t.post_id, min(t.published_at) AS published_at, sum(coalesce(m.engagement, 0)) AS engagement
             FROM post_targets t
             JOIN accounts a ON a.id = t.account_id
             LEFT JOIN post_metrics m ON m.target_id = t.id
            WHERE t.tenant_id = $1 AND t.status = 'published' AND ${where}
            GROUP BY t.post_id
         )
         SELECT post_id, count(*) OVER () AS total FROM p
          ORDER BY ${key} ${dir}, published_at ${dir}, post_id ${dir}
          LIMIT $${params.length - 1} OFFSET $${params.length}`, params);
      if (rows.length) return { ids: rows.map((r) => r.post_id), total: Number(rows[0].total) };
      if (page.offset === 0) return { ids: [], total: 0 };
      // A page past the end: the total still counts.
      const c = await db.query<{ n: string }>(
        `SELECT count(DISTINCT t.post_id) AS n FROM post_targets t JOIN accounts a ON a.id = t.account_id
          WHERE t.tenant_id = $1 AND t.status = 'published' AND ${where}`, params.slice(0, -2));
      return { ids: [], total: Number(c.rows[0].n) };
    },

    /** The tenant's posts with these ids. */
    async posts(tenantId: string, ids: string[]): Promise<PostRow[]> {
      return (await db.query<PostRow>(
        'SELECT id, content, status, scheduled_for, published_at, created_at FROM posts WHERE tenant_id = $1 AND id = ANY($2::char(24)[])',
        [tenantId, ids])).rows;
    },

    /** The targets of these posts with their latest metrics (every status; the views pick). */
    async targets(tenantId: string, postIds: string[]): Promise<TargetMetricsRow[]> {
      return (await db.query<TargetMetricsRow>(
        `SELECT t.id AS target_id, t.post_id, t.platform, t.account_id, a.username, a.profile_id, t.status, t.platform_post_id, t.platform_post_url,
                t.published_at, t.error_message, m.sync_status, m.last_refreshed_at, m.last_error, a.is_active AS account_active, a.inactive_reason,
                ${METRICS.map((k) => `m.${k}`).join(', ')}
           FROM post_targets t LEFT JOIN accounts a ON a.id = t.account_id LEFT JOIN post_metrics m ON m.target_id = t.id
          WHERE t.tenant_id = $1 AND t.post_id = ANY($2::char(24)[])
          ORDER BY t.post_id, t.position`, [tenantId, postIds])).rows;
    },

    /** Post counts for the overview (in the caller's profiles when scoped), the last refresh, and the accounts whose metrics wait for a reconnection. */
    async overview(tenantId: string, profileIds: readonly string[] | null): Promise<{ total: number; published: number; scheduled: number; lastSync: Date | null; staleAccounts: number }> {
      const scope = profileIds
        ? `AND EXISTS (SELECT 1 FROM post_targets t JOIN accounts a ON a.id = t.account_id WHERE t.post_id = p.id AND a.profile_id = ANY($2::char(24)[]))`
        : '';
      const params: unknown[] = profileIds ? [tenantId, profileIds] : [tenantId];
      const { rows } = await db.query<{ total: string; published: string; scheduled: string }>(
        `SELECT count(*) AS total, count(*) FILTER (WHERE status IN ('published', 'partial')) AS published, count(*) FILTER (WHERE status = 'scheduled') AS scheduled
           FROM posts p WHERE tenant_id = $1 AND NOT hidden AND status <> 'draft' ${scope}`, params);
      const last = await db.query<{ at: Date | null; stale: string }>(
        `SELECT max(m.last_refreshed_at) AS at,
                count(DISTINCT m.account_id) FILTER (WHERE NOT a.is_active AND m.next_refresh_at IS NOT NULL${profileIds ? ' AND a.profile_id = ANY($2::char(24)[])' : ''}) AS stale
           FROM post_metrics m LEFT JOIN accounts a ON a.id = m.account_id WHERE m.tenant_id = $1`, params);
      return { total: Number(rows[0].total), published: Number(rows[0].published), scheduled: Number(rows[0].scheduled), lastSync: last.rows[0].at, staleAccounts: Number(last.rows[0].stale) };
    },

    /**
     * Per day (UTC): what the selected targets gained that day (each target's last reading of a
     * day less its last reading of the day before that has one; the first reading gains its whole
     * count), summed; a metric is null on a day where every selected target's gain is. Targets are
     * selected by `f`: platform, profile (the account's profile now), and publish time in [from,
     * to). Days are those with a reading of a selected target, whatever their date.
     *
     * Read from `post_metric_daily` for the whole UTC days of publication inside [from, to); a part
     * day at either end (a range given as date-times, the default last 90 days) too when no
     * published target of the tenant that day lies outside the range (today's, up to now), else
     * from the snapshots (post_metric_gains, one target of that part day at a time), as the
     * day-grained sums cannot split a day (decision 0067). One statement, so both agree.
     * Rows: `day` at 00:00 UTC; metrics and engagement as numeric strings (sums of counts).
     */
    async daily(tenantId: string, f: ListFilters): Promise<DailyRow[]> {
      const params: unknown[] = [tenantId];
      const add = (v: unknown) => { params.push(v); return `$${params.length}`; };
      const cols = [...METRICS, 'engagement'] as const;
      const scope = (platformCol: string) => [
        ...(f.platform ? [`${platformCol} = ${add(f.platform)}`] : []),
        ...(f.profileId ? [`a.profile_id = ${add(f.profileId)}`] : []),
        ...(f.profileIds ? [`a.profile_id = ANY(${add(f.profileIds)}::char(24)[])`] : []),
      ].map((c) => ` AND ${c}`).join('');
      const fullFrom = new Date(Math.ceil(f.from.getTime() / DAY_MS) * DAY_MS);
      const fullTo = new Date(Math.floor(f.to.getTime() / DAY_MS) * DAY_MS);
      const dateOf = (d: Date) => d.toISOString().slice(0, 10);
      // The part days: [from, to) cut at midnights, less the whole days between (each piece inside one UTC day).
      const pieces = (fullFrom <= fullTo ? [[f.from, fullFrom], [fullTo, f.to]] : [[f.from, f.to]]).filter(([a, b]) => a < b);
      // A part day still reads its sums when no published target of the tenant that day lies outside the range.
      const whole = pieces.map(([a, b]) => {
        const day = new Date(Math.floor(a.getTime() / DAY_MS) * DAY_MS);
        return `NOT EXISTS (SELECT 1 FROM post_targets x WHERE x.tenant_id = $1 AND x.status = 'published'
                   AND ((x.published_at >= ${add(day)} AND x.published_at < ${add(a)}) OR (x.published_at >= ${add(b)} AND x.published_at < ${add(new Date(day.getTime() + DAY_MS))})))`;
      });
      const summedDays = [
        ...(fullFrom < fullTo ? [`(g.published_day >= ${add(dateOf(fullFrom))}::date AND g.published_day < ${add(dateOf(fullTo))}::date)`] : []),
        ...pieces.map(([a], i) => `(g.published_day = ${add(dateOf(a))}::date AND (SELECT w${i} FROM whole))`),
      ];
      const parts = [
        `SELECT g.day, sum(g.targets) AS targets, ${METRICS.map((k) => `sum(g.${k}) AS ${k}, sum(g.${k}_n) AS ${k}_n`).join(', ')}, sum(g.engagement) AS engagement
           FROM post_metric_daily g JOIN accounts a ON a.id = g.account_id
          WHERE g.tenant_id = $1 AND (${summedDays.join(' OR ')})${scope('g.platform')}
          GROUP BY g.day`,
      ];
      if (pieces.length) {
        // OFFSET 0 keeps the lateral subquery apart, so target_id = t.id reaches the view's snapshots' key per target.
        const published = pieces.map(([a, b], i) => `(t.published_at >= ${add(a)} AND t.published_at < ${add(b)} AND NOT (SELECT w${i} FROM whole))`).join(' OR ');
        parts.push(
          `SELECT g.day, count(*) AS targets, ${METRICS.map((k) => `sum(g.${k}) AS ${k}, count(g.${k}) AS ${k}_n`).join(', ')}, sum(g.engagement) AS engagement
             FROM post_targets t JOIN accounts a ON a.id = t.account_id
            CROSS JOIN LATERAL (SELECT * FROM post_metric_gains WHERE target_id = t.id OFFSET 0) g
            WHERE t.tenant_id = $1 AND t.status = 'published' AND (${published})${scope('t.platform')}
            GROUP BY g.day`);
      }
      const wholeCte = pieces.length ? `whole AS (SELECT ${whole.map((w, i) => `${w} AS w${i}`).join(', ')}), ` : '';
      const { rows } = await db.query<DailyRow>(
        `WITH ${wholeCte}parts AS (${parts.join(' UNION ALL ')})
         SELECT day::timestamp AT TIME ZONE 'UTC' AS day,
                ${cols.map((c) => (c === 'engagement' ? 'sum(engagement) AS engagement' : `CASE WHEN sum(${c}_n) > 0 THEN sum(${c}) END AS ${c}`)).join(', ')}
           FROM parts GROUP BY day HAVING sum(targets) > 0 ORDER BY day`, params);
      return rows;
    },

    /**
     * Rebuilds `post_metric_daily` for the tenant from its snapshots (the migration's backfill
     * statement, post_metric_daily_rebuild); answers how many rows it wrote. For data written
     * around the refresh job (bench/analytics.ts seeds snapshots by SQL) and for repairs.
     */
    async rebuildDaily(tenantId: string): Promise<number> {
      const { rows } = await db.query<{ n: string }>('SELECT post_metric_daily_rebuild($1) AS n', [tenantId]);
      return Number(rows[0].n);
    },
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
