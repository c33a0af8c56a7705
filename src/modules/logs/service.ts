/**
 * Publishing logs (docs/decisions/0039-publishing-logs-health-unpublish.md): every attempt of
 * every target (publish, retry, verify, media upload, rate-limit pause) plus token refreshes
 * and unpublish calls, with the platform's HTTP status, endpoint, a capped secret-free excerpt
 * of its answer and the duration. Kept {@link LOG_RETENTION_DAYS} days (src/publishing/log-entries.ts, which writes the entries
 * outside a publish run and prunes them in the worker's maintenance).
 */
import { AppError, notFound } from '../../core/errors.ts';
import type { Db } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { assertPostAccess } from '../posts/access.ts';
import { getPostRow } from '../posts/repository.ts';
import { createLogsRepository, type LogFilter, type LogRow } from './repository.ts';
import type { ListLogsQuery } from './schemas.ts';

export { LOG_RETENTION_DAYS } from './repository.ts';
export type { NewLogEntry } from './repository.ts';

/** A log entry's public id: its row number as 24 hex characters, like every other id of the API. */
export const logPublicId = (rowId: string) => BigInt(rowId).toString(16).padStart(24, '0');

/** The row number of a public log id (24 hex characters). */
const logRowId = (publicId: string) => BigInt(`0x${publicId}`).toString();

/** The API view of a log entry. */
export function logView(r: LogRow) {
  const createdAt = r.started_at.toISOString();
  return {
    _id: logPublicId(r.id), type: 'publishing' as const, action: r.action ?? (r.phase === 'verify' ? 'verify' : 'publish'), status: r.status,
    postId: r.post_id, targetId: r.target_id, accountId: r.account_id, platform: r.platform, attemptNumber: r.attempt, phase: r.phase,
    httpStatus: r.http_status, endpoint: r.endpoint, durationMs: r.duration_ms, errorMessage: r.error, errorCategory: r.error_category,
    requestId: r.request_id, responseExcerpt: r.response_excerpt, createdAt, finishedAt: r.finished_at ? r.finished_at.toISOString() : null,
    account_id: r.account_id, status_code: r.http_status, error_message: r.error, duration_ms: r.duration_ms, response_body: r.response_excerpt,
    request_id: r.request_id, created_at: createdAt,
    ...(r.actor_id ? { actorId: r.actor_id.trim() } : {}), ...(r.changes ? { changes: r.changes } : {}),
  };
}

/** An ISO 8601 instant of the query. @throws 400 VALIDATION_ERROR naming the field. */
function instant(v: string | undefined, field: string): Date | undefined {
  if (v === undefined) return undefined;
  const d = new Date(v);
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999) {
    throw new AppError('VALIDATION_ERROR', `Invalid ${field}`, { fields: { [field]: ['must be an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z'] } });
  }
  return d;
}

export function createLogsService(deps: { db: Db; clock: () => Date }) {
  const { db, clock } = deps;
  const repo = createLogsRepository(db);

  async function page(auth: AuthContext, filter: Omit<LogFilter, 'tenantId' | 'profileIds'>, q: ListLogsQuery) {
    const limit = q.limit ?? 50;
    const skip = q.skip ?? ((q.page ?? 1) - 1) * limit;
    const days = q.days ?? 7;
    const since = new Date(clock().getTime() - days * 86_400_000);
    const from = instant(q.from, 'from');
    const to = instant(q.to, 'to');
    // Every entry Herald keeps here is a publishing log: the Late API's other categories are empty.
    const otherType = q.type !== undefined && q.type !== 'all' && q.type !== 'publishing';
    const { rows, total } = otherType ? { rows: [], total: 0 } : await repo.list({
      ...filter, tenantId: auth.tenantId, search: q.search, requestId: q.requestId,
      from: from && from > since ? from : since, to,
      profileIds: auth.profileAccess === 'all' ? undefined : auth.profileIds,
    }, limit, skip);
    return {
      logs: rows.map(logView),
      pagination: { page: Math.floor(skip / limit) + 1, limit, total, pages: Math.ceil(total / limit), skip, hasMore: skip + rows.length < total },
    };
  }

  return {
    /**
     * The tenant's log entries, newest first: filters by post, account, platform (`all`: any),
     * action, status (`all`: any), time (`days` back, default 7, at most 90; `from`/`to`), category
     * (`type`: only `all` and `publishing` have entries), free text (`search`) and the API request
     * that spawned them (`requestId`).
     * @throws 400 VALIDATION_ERROR for a malformed `from`/`to`.
     */
    list(auth: AuthContext, q: ListLogsQuery) {
      return page(auth, {
        postId: q.postId?.toLowerCase(), accountId: q.accountId?.toLowerCase(),
        platform: q.platform && q.platform !== 'all' ? q.platform : undefined, action: q.action,
        status: q.status && q.status !== 'all' ? q.status : undefined,
      }, q);
    },

    /** A post's entries, newest first (90 days back unless `days` says otherwise). @throws 404 NOT_FOUND for a post the caller cannot see. */
    async listForPost(auth: AuthContext, postId: string, q: ListLogsQuery) {
      const post = await getPostRow(db, postId.toLowerCase());
      if (!post || post.tenant_id !== auth.tenantId) throw notFound('Post');
      await assertPostAccess(db, auth, post);
      return page(auth, {
        postId: post.id, platform: q.platform && q.platform !== 'all' ? q.platform : undefined, action: q.action,
        status: q.status && q.status !== 'all' ? q.status : undefined,
      }, { ...q, days: q.days ?? 90 });
    },

    /** One entry. @throws 404 NOT_FOUND. */
    async get(auth: AuthContext, id: string) {
      const rowId = logRowId(id.toLowerCase());
      if (rowId.length > 18) throw notFound('Log entry');
      const row = await repo.get(auth.tenantId, rowId);
      if (!row) throw notFound('Log entry');
      if (auth.profileAccess !== 'all') {
        const { rows } = await repo.list({ tenantId: auth.tenantId, profileIds: auth.profileIds, accountId: row.account_id ?? '' }, 1, 0);
        if (rows.length === 0) throw notFound('Log entry');
      }
      return { log: logView(row) };
    },

    /** Each account's latest finished publish, as a log entry (accounts without one are absent). */
    async lastPublishByAccount(tenantId: string, accountIds: string[]) {
      const m = await repo.lastPublishByAccount(tenantId, accountIds);
      return new Map([...m].map(([k, r]) => [k, logView(r)]));
    },

    /** Each account's latest token refresh, as a log entry (accounts whose token was never refreshed are absent). */
    async lastTokenRefreshByAccount(tenantId: string, accountIds: string[]) {
      const m = await repo.lastTokenRefreshByAccount(tenantId, accountIds);
      return new Map([...m].map(([k, r]) => [k, logView(r)]));
    },
  };
}

export type LogsService = ReturnType<typeof createLogsService>;
