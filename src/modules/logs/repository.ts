/**
 * Publishing logs (docs/decisions/0039-publishing-logs-health-unpublish.md). A log entry is a
 * `publish_attempts` row: the publishing pipeline (src/publishing/targets-repository.ts) writes
 * the attempts of publishes, retries, verifies and media uploads in its own group-committed
 * statements; this repository reads them for the API, writes the entries that have no
 * publish attempt (token refresh, unpublish) and prunes entries past their retention.
 */
import type { Db, Queryable } from '../../storage/db.ts';

/** Actions of a log entry. */
export const LOG_ACTIONS = ['publish', 'retry', 'verify', 'media_upload', 'token_refresh', 'rate_limit_pause', 'unpublish'] as const;
export type LogAction = (typeof LOG_ACTIONS)[number];

/** Statuses of a log entry, as the API filters them. */
export const LOG_STATUSES = ['success', 'failed', 'pending', 'skipped'] as const;
export type LogStatus = (typeof LOG_STATUSES)[number];

/** How long log entries are kept (days). */
export const LOG_RETENTION_DAYS = 90;

/** An attempt whose outcome is not known (in flight, or its call got no answer): pending, unless it ended its target. */
const UNRESOLVED = `(a.outcome IS NULL OR a.outcome = 'unknown')`;

/**
 * An unresolved attempt that is the last one of a target that failed: the publisher gave up on
 * that attempt (MAX_ATTEMPTS in src/publishing/publisher.ts) and keeps its outcome `unknown` so
 * that a retry verifies before committing again, but for the log it is the failure. Retried, the
 * target is pending again and so is the entry, until its verify answers.
 */
const ENDED_FAILED = `(a.target_id IS NOT NULL AND EXISTS (
    SELECT 1 FROM post_targets t WHERE t.id = a.target_id AND t.status = 'failed'
       AND NOT EXISTS (SELECT 1 FROM publish_attempts n WHERE n.target_id = a.target_id AND n.id > a.id AND n.phase IN ('prepare', 'commit', 'verify'))))`;

/** The SQL condition of each API status (the ENDED_FAILED test runs only for unresolved attempts). */
const STATUS_CONDITION: Record<LogStatus, string> = {
  success: `a.outcome IN ('published', 'success')`,
  failed: `(a.outcome IN ('failed', 'retry') OR (${UNRESOLVED} AND ${ENDED_FAILED}))`,
  pending: `(${UNRESOLVED} AND NOT ${ENDED_FAILED})`,
  skipped: `a.outcome IN ('not_published', 'skipped')`,
};

/** A log entry's API status, as a column: the one derivation the listing, its filter and the view share. */
const STATUS_COLUMN = `CASE WHEN ${STATUS_CONDITION.success} THEN 'success' WHEN ${STATUS_CONDITION.skipped} THEN 'skipped'
  WHEN ${STATUS_CONDITION.failed} THEN 'failed' ELSE 'pending' END`;

/** One log entry as stored. */
export interface LogRow {
  id: string;
  tenant_id: string;
  post_id: string | null;
  target_id: string | null;
  account_id: string | null;
  platform: string | null;
  action: LogAction | null;
  phase: string;
  attempt: number;
  outcome: string | null;
  /** The API status derived from the outcome and, for an unresolved attempt, its target (STATUS_COLUMN). */
  status: LogStatus;
  error: string | null;
  error_category: string | null;
  http_status: number | null;
  endpoint: string | null;
  response_excerpt: string | null;
  duration_ms: number | null;
  started_at: Date;
  finished_at: Date | null;
}

/** Filters of a log listing; all optional except the tenant. */
export interface LogFilter {
  tenantId: string;
  postId?: string;
  accountId?: string;
  platform?: string;
  action?: LogAction;
  status?: LogStatus;
  from?: Date;
  to?: Date;
  /** Team members scoped to profiles: only entries of these profiles' accounts. */
  profileIds?: readonly string[];
}

/** A log entry to write outside the publishing pipeline (token refresh, unpublish). */
export interface NewLogEntry {
  /** The account's tenant; null: read from the account. */
  tenantId: string | null;
  accountId: string;
  platform: string;
  action: 'token_refresh' | 'unpublish';
  outcome: 'success' | 'failed' | 'skipped';
  postId?: string | null;
  targetId?: string | null;
  error?: string | null;
  errorCategory?: string | null;
  httpStatus?: number | null;
  endpoint?: string | null;
  responseExcerpt?: string | null;
  durationMs: number;
  workerId: string;
}

const COLUMNS = `a.id::text AS id, a.tenant_id, a.post_id, a.target_id, a.account_id, a.platform, a.action, a.phase, a.attempt, a.outcome,
  ${STATUS_COLUMN} AS status, a.error, a.error_category, a.http_status, a.endpoint, a.response_excerpt, a.duration_ms, a.started_at, a.finished_at`;

function where(f: LogFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [f.tenantId];
  const conds = ['a.tenant_id = $1'];
  const add = (sql: (n: string) => string, v: unknown) => { params.push(v); conds.push(sql(`$${params.length}`)); };
  if (f.postId) add((n) => `a.post_id = ${n}`, f.postId);
  if (f.accountId) add((n) => `a.account_id = ${n}`, f.accountId);
  if (f.platform) add((n) => `a.platform = ${n}`, f.platform);
  if (f.action) add((n) => `a.action = ${n}`, f.action);
  if (f.from) add((n) => `a.started_at >= ${n}`, f.from);
  if (f.to) add((n) => `a.started_at <= ${n}`, f.to);
  if (f.profileIds) add((n) => `a.account_id IN (SELECT id FROM accounts WHERE tenant_id = $1 AND profile_id = ANY(${n}::char(24)[]))`, f.profileIds);
  if (f.status) conds.push(STATUS_CONDITION[f.status]);
  return { sql: conds.join(' AND '), params };
}

export function createLogsRepository(db: Db) {
  return {
    /** A page of entries, newest first, and the number matching. */
    async list(f: LogFilter, limit: number, offset: number): Promise<{ rows: LogRow[]; total: number }> {
      const w = where(f);
      const [page, count] = await Promise.all([
        db.query<LogRow>(`SELECT ${COLUMNS} FROM publish_attempts a WHERE ${w.sql} ORDER BY a.id DESC LIMIT ${limit} OFFSET ${offset}`, w.params),
        db.query<{ n: number }>(`SELECT count(*)::int AS n FROM publish_attempts a WHERE ${w.sql}`, w.params),
      ]);
      return { rows: page.rows, total: count.rows[0].n };
    },

    /**
     * Each account's latest finished publish (publish, retry or verify entry with an outcome),
     * within the retention; accounts without one are absent from the map.
     */
    async lastPublishByAccount(tenantId: string, accountIds: string[]): Promise<Map<string, LogRow>> {
      if (accountIds.length === 0) return new Map();
      const { rows } = await db.query<LogRow>(
        `SELECT DISTINCT ON (a.account_id) ${COLUMNS} FROM publish_attempts a
          WHERE a.tenant_id = $1 AND a.account_id = ANY($2::char(24)[]) AND a.action IN ('publish', 'retry', 'verify', 'media_upload', 'rate_limit_pause')
            AND a.outcome IS NOT NULL AND a.outcome <> 'not_published'
          ORDER BY a.account_id, a.id DESC`, [tenantId, accountIds]);
      return new Map(rows.map((r) => [r.account_id!, r]));
    },

    /** One entry of the tenant; null when absent. */
    async get(tenantId: string, id: string): Promise<LogRow | null> {
      const { rows } = await db.query<LogRow>(`SELECT ${COLUMNS} FROM publish_attempts a WHERE a.tenant_id = $1 AND a.id = $2`, [tenantId, id]);
      return rows[0] ?? null;
    },

    /** Writes an entry that has no publish attempt (token refresh, unpublish). */
    async write(q: Queryable, e: NewLogEntry): Promise<void> {
      await q.query(
        `INSERT INTO publish_attempts (target_id, attempt, worker_id, phase, outcome, error, started_at, finished_at, tenant_id, post_id, account_id,
                                       platform, action, http_status, endpoint, duration_ms, error_category, response_excerpt)
         VALUES ($1, 0, $2, $3, $4, $5, now() - make_interval(secs => $6::float8 / 1000), now(),
                 COALESCE($7::char(24), (SELECT tenant_id FROM accounts WHERE id = $9)), $8, $9, $10, $3, $11, $12, $6, $13, $14)`,
        [e.targetId ?? null, e.workerId, e.action, e.outcome, e.error ?? null, e.durationMs, e.tenantId, e.postId ?? null, e.accountId,
          e.platform, e.httpStatus ?? null, e.endpoint ?? null, e.errorCategory ?? null, e.responseExcerpt ?? null]);
    },

    /**
     * Deletes entries older than `days`, in batches of `batch` (oldest first, along the primary
     * key, so no index on the time is needed), except those of targets still waiting to be
     * published (their last attempt tells the next run whether to verify). Returns the number deleted.
     */
    async prune(days = LOG_RETENTION_DAYS, batch = 5_000): Promise<number> {
      let total = 0;
      for (;;) {
        const { rowCount } = await db.query(
          `DELETE FROM publish_attempts WHERE id IN (
             SELECT a.id FROM publish_attempts a
              WHERE a.started_at < now() - make_interval(days => $1)
                AND NOT EXISTS (SELECT 1 FROM post_targets t WHERE t.id = a.target_id AND t.status IN ('pending', 'publishing'))
              ORDER BY a.id LIMIT $2)`, [days, batch]);
        total += rowCount ?? 0;
        if ((rowCount ?? 0) < batch) return total;
      }
    },
  };
}

export type LogsRepository = ReturnType<typeof createLogsRepository>;
