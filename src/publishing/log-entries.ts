/**
 * The publishing log's writes outside a publish run. `publish_attempts` is publishing's table
 * (docs/architecture.md, "Who writes each table"; decision 0054): the publisher writes attempts
 * in ./targets-repository.ts; here are the entries that have no publish attempt (token refresh,
 * unpublish, edits) and the retention. The logs module (src/modules/logs) reads the log for the API.
 */
import type { Db, Queryable } from '../storage/db.ts';
import { LOG_RETENTION_DAYS, type NewLogEntry } from '../modules/logs/repository.ts';
import { pruneClaims } from '../modules/posts/duplicates.ts';

/**
 * Writes an entry that has no publish attempt (token refresh, unpublish, edit), with the request writing
 * it when there is one; a null `tenantId` is read from the account.
 */
export async function writeLogEntry(q: Queryable, e: NewLogEntry): Promise<void> {
  await q.query(
    `INSERT INTO publish_attempts (target_id, attempt, worker_id, phase, outcome, error, started_at, finished_at, tenant_id, post_id, account_id,
                                   platform, action, http_status, endpoint, duration_ms, error_category, response_excerpt, request_id, actor_id, changes)
     VALUES ($1, 0, $2, $3, $4, $5, now() - make_interval(secs => $6::float8 / 1000), now(),
             COALESCE($7::char(24), (SELECT tenant_id FROM accounts WHERE id = $9)), $8, $9, $10, $3, $11, $12, $6, $13, $14, $15, $16, $17)`,
    [e.targetId ?? null, e.workerId, e.action, e.outcome, e.error ?? null, e.durationMs, e.tenantId, e.postId ?? null, e.accountId,
      e.platform, e.httpStatus ?? null, e.endpoint ?? null, e.errorCategory ?? null, e.responseExcerpt ?? null, e.requestId ?? null,
      e.actorId ?? null, e.changes ? JSON.stringify(e.changes) : null]);
}

/**
 * Deletes entries older than `days`, in batches of `batch` (oldest first, along the primary
 * key, so no index on the time is needed), except those of targets still waiting to be
 * published (their last attempt tells the next run whether to verify). Returns the number deleted.
 */
export async function pruneLogEntries(db: Queryable, days = LOG_RETENTION_DAYS, batch = 5_000): Promise<number> {
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
}

/** The publishing log's writer as the services wire it (src/services.ts). */
export function createPublishingLog(db: Db) {
  return {
    /** Writes a token-refresh or unpublish entry. */
    write: (e: NewLogEntry) => writeLogEntry(db, e),

    /** Deletes entries past the retention (90 days); returns how many. */
    prune: () => pruneLogEntries(db),

    /**
     * The worker's hourly maintenance: log entries past the retention, and duplicate-protection
     * claims past their 24 hours (posts' pruneClaims). Returns how many of each were deleted.
     */
    async pruneExpired(): Promise<{ logs: number; claims: number }> {
      return { logs: await pruneLogEntries(db), claims: await pruneClaims(db) };
    },
  };
}

export type PublishingLog = ReturnType<typeof createPublishingLog>;
