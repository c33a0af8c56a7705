/**
 * Publishing logs (docs/decisions/0039-publishing-logs-health-unpublish.md). A log entry is a
 * `publish_attempts` row: the publishing pipeline (src/publishing/targets-repository.ts) writes
 * the attempts of publishes, retries, verifies and media uploads in its own group-committed
 * statements, and the entries that have no publish attempt (token refresh, unpublish) and the
 * retention in src/publishing/log-entries.ts (the table is publishing's: decision 0054); this
 * repository reads them for the API.
 */
import type { Db } from '../../storage/db.ts';

/** Actions of a log entry. */
export const LOG_ACTIONS = ['publish', 'retry', 'verify', 'media_upload', 'token_refresh', 'rate_limit_pause', 'unpublish', 'edit', 'update_metadata'] as const;
export type LogAction = (typeof LOG_ACTIONS)[number];

/** Statuses of a log entry, as the API filters them. */
export const LOG_STATUSES = ['success', 'failed', 'pending', 'skipped'] as const;
export type LogStatus = (typeof LOG_STATUSES)[number];

/**
 * Log categories of the Late API's `type` filter. Herald keeps publishing logs only (every entry
 * is `publishing`); webhook deliveries are listed by GET /v1/webhooks/logs.
 */
export const LOG_TYPES = ['all', 'publishing', 'connections', 'webhooks', 'messaging', 'workflow_event', 'api_request'] as const;
export type LogType = (typeof LOG_TYPES)[number];

/** How long log entries are kept (days). */
export const LOG_RETENTION_DAYS = 90;

/**
 * Whether the attempt is the last step of a target that failed (no publish, retry or verify of
 * the target after it). The publisher does not always write that step's outcome as `failed`: a
 * commit unanswered on the last attempt keeps `unknown` (a retry of the post then verifies before
 * committing again), and a verify that proves the last attempts created nothing keeps
 * `not_published` while the target fails (src/publishing/publisher.ts). For the log it is the
 * failure. Retried, the target is pending again and the entry's own outcome counts again.
 */
const ENDS_FAILED_TARGET = `(a.target_id IS NOT NULL AND a.phase IN ('prepare', 'commit', 'verify') AND EXISTS (
    SELECT 1 FROM post_targets t WHERE t.id = a.target_id AND t.status = 'failed'
       AND NOT EXISTS (SELECT 1 FROM publish_attempts n WHERE n.target_id = a.target_id AND n.id > a.id AND n.phase IN ('prepare', 'commit', 'verify'))))`;

/** An outcome that a failed target's end overrides: none yet, no answer, or proven absent (see ENDS_FAILED_TARGET). */
const OPEN_OUTCOME = `(a.outcome IS NULL OR a.outcome IN ('unknown', 'not_published'))`;

/** The final step of a failed target whose own outcome does not say so. */
const FINAL_FAILURE = `(${OPEN_OUTCOME} AND ${ENDS_FAILED_TARGET})`;

/** The SQL condition of each API status (ENDS_FAILED_TARGET is read only for the outcomes it can change). */
const STATUS_CONDITION: Record<LogStatus, string> = {
  success: `a.outcome IN ('published', 'success')`,
  failed: `(a.outcome IN ('failed', 'retry') OR ${FINAL_FAILURE})`,
  pending: `((a.outcome IS NULL OR a.outcome = 'unknown') AND NOT ${ENDS_FAILED_TARGET})`,
  skipped: `(a.outcome = 'skipped' OR (a.outcome = 'not_published' AND NOT ${ENDS_FAILED_TARGET}))`,
};

/** A log entry's API status, as a column: the one derivation the listing, its filter and the view share. */
const STATUS_COLUMN = `CASE WHEN ${STATUS_CONDITION.success} THEN 'success' WHEN ${STATUS_CONDITION.failed} THEN 'failed'
  WHEN ${STATUS_CONDITION.skipped} THEN 'skipped' ELSE 'pending' END`;

/** A log entry's error: its own, else, for the final step of a failed target, why the target failed. */
const ERROR_COLUMN = `CASE WHEN a.error IS NULL AND ${FINAL_FAILURE}
  THEN (SELECT t.error_message FROM post_targets t WHERE t.id = a.target_id) ELSE a.error END`;

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
  /** The API status derived from the outcome and, for the last step of a target, the target (STATUS_COLUMN). */
  status: LogStatus;
  error: string | null;
  error_category: string | null;
  /** The API request that spawned the entry: the one that wrote it, else the one that created its post. */
  request_id: string | null;
  http_status: number | null;
  endpoint: string | null;
  response_excerpt: string | null;
  duration_ms: number | null;
  started_at: Date;
  finished_at: Date | null;
  /** Who asked for an edit (null for the other entries). */
  actor_id: string | null;
  /** What an edit changed (null for the other entries). */
  changes: Record<string, { from: unknown; to: unknown }> | null;
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
  /** Case-insensitive text that the error, endpoint, answer excerpt, error category, action, platform or an id contains. */
  search?: string;
  /** Only entries this API request spawned (its `x-request-id`): see {@link REQUEST_ID_COLUMN}. */
  requestId?: string;
}

/** A log entry to write outside the publishing pipeline (token refresh, unpublish, edits of published posts). */
export interface NewLogEntry {
  /** The account's tenant; null: read from the account. */
  tenantId: string | null;
  accountId: string;
  platform: string;
  action: 'token_refresh' | 'unpublish' | 'edit' | 'update_metadata';
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
  /** The API request writing the entry (its `x-request-id`); null outside a request. */
  requestId?: string | null;
  /** The user who asked for it (edits: who edited). */
  actorId?: string | null;
  /** What an edit changed: each field with its value before and after (docs/decisions/0060). */
  changes?: Record<string, { from: unknown; to: unknown }> | null;
}

/**
 * The request that spawned an entry (migration 0019): the one that wrote it (unpublish), else, for
 * the attempts the worker writes (which never see a request), the one that created the post of the
 * entry's target. Through the target, so that the filter ({@link requestCondition}) walks indexes
 * only; the attempts of a target an edit replaced (src/modules/posts/update.ts) have none.
 */
const REQUEST_ID_COLUMN = `COALESCE(a.request_id, (SELECT p.request_id FROM post_targets t JOIN posts p ON p.id = t.post_id WHERE t.id = a.target_id))`;

/**
 * The entries whose {@link REQUEST_ID_COLUMN} is `n`, found by indexes: the tenant's entries written
 * with that request id (publish_attempts_request_idx), and the attempts of the targets of the posts that
 * request created (posts_request_idx, post_targets_post_idx, publish_attempts_target_idx).
 */
const requestCondition = (n: string) => `a.id IN (
    SELECT r.id FROM publish_attempts r WHERE r.tenant_id = $1 AND r.request_id = ${n}
    UNION ALL
    SELECT r.id FROM posts p JOIN post_targets t ON t.post_id = p.id JOIN publish_attempts r ON r.target_id = t.id
     WHERE p.tenant_id = $1 AND p.request_id = ${n} AND r.request_id IS NULL)`;

/**
 * The text columns `search` looks in. No index serves it: it filters the tenant's entries that the
 * listing reads anyway (publish_attempts_tenant_idx), and a trigram index would need the pg_trgm
 * extension and cost every attempt the worker writes and finishes (decision 0039 keeps that path to
 * the indexes it had plus one).
 */

const SEARCHED = [ERROR_COLUMN, 'a.endpoint', 'a.response_excerpt', 'a.error_category', 'a.action', 'a.platform', 'a.post_id', 'a.target_id', 'a.account_id'];

const COLUMNS = `a.id::text AS id, a.tenant_id, a.post_id, a.target_id, a.account_id, a.platform, a.action, a.phase, a.attempt, a.outcome,
  ${STATUS_COLUMN} AS status, ${ERROR_COLUMN} AS error, a.error_category, ${REQUEST_ID_COLUMN} AS request_id, a.http_status, a.endpoint, a.response_excerpt, a.duration_ms, a.started_at, a.finished_at, a.actor_id, a.changes`;

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
  if (f.search) add((n) => `(${SEARCHED.map((c) => `strpos(lower(${c}), ${n}) > 0`).join(' OR ')})`, f.search.toLowerCase());
  if (f.requestId) add(requestCondition, f.requestId);
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

    /**
     * Each account's latest token refresh (action token_refresh, success or failed), within the
     * retention; accounts whose token was never refreshed are absent from the map.
     */
    async lastTokenRefreshByAccount(tenantId: string, accountIds: string[]): Promise<Map<string, LogRow>> {
      if (accountIds.length === 0) return new Map();
      const { rows } = await db.query<LogRow>(
        `SELECT DISTINCT ON (a.account_id) ${COLUMNS} FROM publish_attempts a
          WHERE a.tenant_id = $1 AND a.account_id = ANY($2::char(24)[]) AND a.action = 'token_refresh' AND a.outcome IS NOT NULL
          ORDER BY a.account_id, a.id DESC`, [tenantId, accountIds]);
      return new Map(rows.map((r) => [r.account_id!, r]));
    },

    /** One entry of the tenant; null when absent. */
    async get(tenantId: string, id: string): Promise<LogRow | null> {
      const { rows } = await db.query<LogRow>(`SELECT ${COLUMNS} FROM publish_attempts a WHERE a.tenant_id = $1 AND a.id = $2`, [tenantId, id]);
      return rows[0] ?? null;
    },
  };
}

export type LogsRepository = ReturnType<typeof createLogsRepository>;
