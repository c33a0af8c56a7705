/** Request and response schemas of the publishing-log routes (GET /v1/logs, /v1/logs/{logId}, /v1/posts/{postId}/logs). */
import { Type, type Static } from 'typebox';
import { Id, Nullable, NullableTimestamp, Timestamp } from '../../route-kit/schemas.ts';
import { PLATFORMS } from '../../shared/platforms.ts';
import { LOG_ACTIONS, LOG_RETENTION_DAYS, LOG_STATUSES, LOG_TYPES } from './repository.ts';

/** A string that is one of `values` (an enum in the OpenAPI document). */
const literals = <T extends readonly string[]>(values: T) => Type.Unsafe<T[number]>(Type.String({ enum: [...values] }));

export const ListLogsQuery = Type.Object({
  postId: Type.Optional(Id('Only entries of this post')),
  accountId: Type.Optional(Id('Only entries of this account')),
  platform: Type.Optional(literals([...PLATFORMS, 'all'] as const)),
  action: Type.Optional(literals(LOG_ACTIONS)),
  status: Type.Optional(literals([...LOG_STATUSES, 'all'] as const)),
  type: Type.Optional(Type.Unsafe<(typeof LOG_TYPES)[number]>(Type.String({
    enum: [...LOG_TYPES],
    description: 'Log category. Herald keeps publishing logs here (every entry is `publishing`): `all` and `publishing` list them, the '
      + 'other categories of the Late API have no entries (webhook deliveries are listed by GET /v1/webhooks/logs)',
  }))),
  search: Type.Optional(Type.String({
    minLength: 1, maxLength: 200,
    description: 'Free-text search: entries whose error message, endpoint, platform answer excerpt, error category, action, platform, '
      + 'post, target or account id contains this text (case-insensitive)',
  })),
  requestId: Type.Optional(Type.String({
    minLength: 1, maxLength: 128,
    description: 'Correlation id: the entries one API request spawned, by the `x-request-id` Herald answered it with (a caller\'s own '
      + '`x-request-id` when it sent one). For POST /v1/posts: every publish, retry and verify of the post it created; for an '
      + 'unpublish: the entries it wrote. Each entry carries it as `requestId`',
  })),
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: LOG_RETENTION_DAYS, description: `Days to look back (default 7, at most ${LOG_RETENTION_DAYS})` })),
  from: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 instant: entries from then on (within `days`)' })),
  to: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 instant: entries up to then' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Entries per page (default 50, at most 100)' })),
  skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Entries to skip' })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, description: 'Page number (1-based); used when `skip` is absent' })),
});
export type ListLogsQuery = Static<typeof ListLogsQuery>;

/** One publishing log entry: camelCase fields, plus the snake_case names the Late client's log type reads. */
export const LogEntry = Type.Object({
  _id: Type.String(),
  type: Type.Literal('publishing'),
  action: Type.String({ description: `One of ${LOG_ACTIONS.join(', ')}` }),
  status: literals(LOG_STATUSES),
  postId: Nullable(Type.String()),
  targetId: Nullable(Type.String()),
  accountId: Nullable(Type.String()),
  platform: Nullable(Type.String()),
  attemptNumber: Type.Integer({ description: 'The target\'s attempt this entry belongs to (0 for token refresh, unpublish and edits)' }),
  phase: Type.String({ description: 'prepare, commit, verify, token_refresh, unpublish, edit or update_metadata' }),
  httpStatus: Nullable(Type.Integer({ description: 'The platform\'s HTTP status, when it answered with an error' })),
  endpoint: Nullable(Type.String({ description: 'The platform endpoint called (method and path)' })),
  durationMs: Nullable(Type.Integer()),
  errorMessage: Nullable(Type.String()),
  errorCategory: Nullable(Type.String()),
  requestId: Nullable(Type.String({ description: 'The API request that spawned the entry: the one that wrote it (unpublish), else the one that created its post' })),
  responseExcerpt: Nullable(Type.String({ description: 'The start of the platform\'s answer (at most 2,000 characters, secrets removed)' })),
  createdAt: Timestamp(),
  finishedAt: NullableTimestamp(),
  account_id: Nullable(Type.String()),
  status_code: Nullable(Type.Integer()),
  error_message: Nullable(Type.String()),
  duration_ms: Nullable(Type.Integer()),
  response_body: Nullable(Type.String()),
  request_id: Nullable(Type.String()),
  created_at: Timestamp(),
  actorId: Type.Optional(Type.String({ description: 'edit and update_metadata: the user who asked for the change' })),
  changes: Type.Optional(Type.Record(Type.String(), Type.Object({ from: Type.Unknown(), to: Type.Unknown() }), {
    description: 'edit and update_metadata: each field changed (content, title, description, tags, ...) with its value before and after',
  })),
});

export const LogsPagination = Type.Object({
  page: Type.Integer(), limit: Type.Integer(), total: Type.Integer(), pages: Type.Integer(), skip: Type.Integer(), hasMore: Type.Boolean(),
});

export const LogListResponse = Type.Object({ logs: Type.Array(LogEntry), pagination: LogsPagination });
