/**
 * Request and response schemas of /v1/posts (the fields the official client sends and reads).
 * Structural checks live here; rules that need context (time zones, accounts, platform
 * limits, tags) live in validation.ts and answer the same 400 `details.fields` shape.
 */
import { ERROR_CATEGORIES, ERROR_SOURCES } from '../../shared/failure-categories.ts';
import { Type, type Static } from 'typebox';
import { Id, Nullable, NullableTimestamp } from '../../route-kit/schemas.ts';
import { PLATFORMS } from '../../platforms/types.ts';
import { RECYCLE_GAP_MAX, RECYCLE_MAX_VARIATIONS } from '../../shared/recycling.ts';

export const POST_STATUSES = ['draft', 'pending_approval', 'scheduled', 'publishing', 'published', 'failed', 'partial', 'cancelled'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

const PlatformEnum = Type.Enum(PLATFORMS, { description: 'Platform id' });

export const MediaItemInput = Type.Object({
  type: Type.Optional(Type.Union([Type.Literal('image'), Type.Literal('video'), Type.Literal('gif'), Type.Literal('document')])),
  url: Type.String({ minLength: 1, maxLength: 4096, description: 'http(s) URL, usually one returned by POST /v1/media' }),
  filename: Type.Optional(Type.String({ maxLength: 255 })),
  mimeType: Type.Optional(Type.String({ maxLength: 100 })),
  size: Type.Optional(Type.Integer({ minimum: 0 })),
  altText: Type.Optional(Type.String({ maxLength: 2000 })),
  thumbnail: Type.Optional(Type.String({ maxLength: 4096 })),
  instagramThumbnail: Type.Optional(Type.String({ maxLength: 4096 })),
}, { additionalProperties: true });
export type MediaItemInput = Static<typeof MediaItemInput>;

export const PlatformTargetInput = Type.Object({
  platform: PlatformEnum,
  accountId: Id('Account id from GET /v1/accounts'),
  customContent: Type.Optional(Type.Union([Type.String({ maxLength: 100_000 }), Type.Null()])),
  customMedia: Type.Optional(Type.Array(MediaItemInput, { maxItems: 35 })),
  platformSpecificData: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Per-platform options (contentType, threadItems, firstComment, subreddit, boardId, tiktokSettings, ...)' })),
  scheduledFor: Type.Optional(Type.Union([Type.String({
    maxLength: 40,
    description: 'This target\'s own time, instead of the post\'s: the same forms as the post\'s scheduledFor (local "YYYY-MM-DDTHH:mm" in the post\'s timezone, '
      + 'or ISO UTC ending in Z), not in the past; not with publishNow or queuedFromProfile. null or omitted: the post\'s time',
  }), Type.Null()])),
}, { additionalProperties: true });
export type PlatformTargetInput = Static<typeof PlatformTargetInput>;

/**
 * `recycling` of a create or update body (the Late API's RecyclingConfig; docs/decisions/0061-recycling.md):
 * re-publish the post every `gap` weeks or months from `startDate` (default: the post's time) until
 * `expireCount` copies or `expireDate`, each copy taking the next of `contentVariations` in turn.
 * `null` on update removes recycling (stops it for good); `enabled: false` pauses it, keeping its state.
 */
export const RecyclingInput = Type.Object({
  enabled: Type.Optional(Type.Boolean({ description: 'false pauses recycling (default true)' })),
  gap: Type.Optional(Type.Integer({ minimum: 1, maximum: RECYCLE_GAP_MAX, description: 'Interval units between reposts; required when enabling' })),
  gapFreq: Type.Optional(Type.Union([Type.Literal('week'), Type.Literal('month')], { description: 'Interval unit, default month' })),
  // Nullable (one schema with two types), not unions: the app's type coercion would read null as "" in a union's string branch, and 0 as null.
  startDate: Type.Optional(Nullable(Type.String({ maxLength: 40, description: 'ISO 8601; default: the post\'s scheduledFor' }))),
  expireCount: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 10_000, description: 'Stop after this many copies (null clears)' }))),
  expireDate: Type.Optional(Nullable(Type.String({ maxLength: 40, description: 'Stop after this date, ISO 8601 (null clears)' }))),
  contentVariations: Type.Optional(Type.Array(Type.String({ maxLength: 100_000 }), {
    maxItems: RECYCLE_MAX_VARIATIONS, description: 'Texts used in turn by the copies: none ([] clears), or 2 or more',
  })),
}, { additionalProperties: false });
export type RecyclingInput = Static<typeof RecyclingInput>;

/** A post's `recycling` as read (the Late API's RecyclingState). */
export const RecyclingView = Type.Object({
  enabled: Type.Boolean({ description: 'Recycling is active: copies will be created' }),
  gap: Type.Integer(),
  gapFreq: Type.Union([Type.Literal('week'), Type.Literal('month')]),
  startDate: Type.String({ format: 'date-time' }),
  expireCount: Type.Optional(Type.Integer()),
  expireDate: Type.Optional(Type.String({ format: 'date-time' })),
  contentVariations: Type.Optional(Type.Array(Type.String())),
  contentVariationIndex: Type.Integer({ description: 'The variation the next copy takes (0-based)' }),
  recycleCount: Type.Integer({ description: 'Copies created so far' }),
  nextRecycleAt: Type.Optional(Type.String({ format: 'date-time', description: 'When the next copy is due (absent when paused or finished)' })),
  lastRecycledAt: Type.Optional(Type.String({ format: 'date-time' })),
});

const postFields = {
  title: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  content: Type.Optional(Type.Union([Type.String({ maxLength: 100_000 }), Type.Null()])),
  mediaItems: Type.Optional(Type.Array(MediaItemInput, { maxItems: 35 })),
  platforms: Type.Optional(Type.Array(PlatformTargetInput, { maxItems: 100 })),
  scheduledFor: Type.Optional(Type.Union([Type.String({ maxLength: 40, description: 'Local "YYYY-MM-DDTHH:mm" with timezone, or ISO UTC ending in Z' }), Type.Null()])),
  timezone: Type.Optional(Type.Union([Type.String({ maxLength: 64, description: 'IANA time zone, default UTC' }), Type.Null()])),
  publishNow: Type.Optional(Type.Boolean()),
  isDraft: Type.Optional(Type.Boolean()),
  visibility: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('private'), Type.Literal('unlisted')])),
  tags: Type.Optional(Type.Array(Type.String(), { maxItems: 500 })),
  hashtags: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100, description: 'Hashtags, with or without #; added to the text where missing on platforms that take them' })),
  mentions: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100, description: 'Handles, with or without @; added to the text where missing on platforms that take them' })),
  queuedFromProfile: Type.Optional(Type.Union([Id(), Type.Null()])),
  queueId: Type.Optional(Type.Union([Id('A queue of queuedFromProfile (GET /v1/queue/slots?all=true); omitted: the profile\'s default queue. Only with queuedFromProfile'), Type.Null()])),
  hidden: Type.Optional(Type.Boolean()),
  metadata: Type.Optional(Type.Object({}, { additionalProperties: true })),
  recycling: Type.Optional(Nullable(RecyclingInput)),
};

export const CreatePostBody = Type.Object({
  ...postFields,
  allowDuplicate: Type.Optional(Type.Boolean({
    description: 'Post even if the same content went to the same account within the last 24 hours (otherwise 409 DUPLICATE_CONTENT with the earlier post\'s id)',
  })),
}, { additionalProperties: true });
export type CreatePostBody = Static<typeof CreatePostBody>;
export const UpdatePostBody = Type.Object(postFields, { additionalProperties: true });

/**
 * Body of POST /v1/posts/{postId}/retry (optional; a Herald extension of the Late API): names the
 * failed target to retry. Without it, every failed target of the post is retried.
 */
export const RetryPostBody = Type.Object({
  accountId: Type.Optional(Id('Retry only the target of this account (its _id in the post\'s platforms[].accountId); it must be failed')),
  platform: Type.Optional(Type.Enum(PLATFORMS, { description: 'Retry only the targets on this platform; at least one must be failed' })),
}, { additionalProperties: false });
export type RetryPostBody = Static<typeof RetryPostBody>;
export type UpdatePostBody = Static<typeof UpdatePostBody>;

const ThreadEntry = Type.Object({ platformPostId: Type.String(), platformPostUrl: Type.String() });

export const PostTargetView = Type.Object({
  _id: Type.String(),
  platform: Type.String(),
  accountId: Type.Union([
    Type.Object({ _id: Type.String(), platform: Type.String(), username: Type.String(), displayName: Type.String(), isActive: Type.Boolean() }),
    Type.String(),
  ]),
  customContent: Nullable(Type.String()),
  platformSpecificData: Type.Object({}, { additionalProperties: true }),
  status: Type.String({ description: 'pending | publishing | published | failed | cancelled (draft for draft posts)' }),
  platformPostId: Nullable(Type.String()),
  platformPostUrl: Nullable(Type.String()),
  publishedAt: NullableTimestamp(),
  errorMessage: Nullable(Type.String()),
  errorCategory: Type.Union([Type.Enum(ERROR_CATEGORIES), Type.Null()], {
    description: 'Why the target failed (or why its retry waits), for programs: the official client\'s categories (decision 0063: Herald\'s failure reasons mapped in one table)',
  }),
  errorSource: Type.Union([Type.Enum(ERROR_SOURCES), Type.Null()], {
    description: 'Who has to act: user (fix the content or reconnect), platform (outage, limits), system (this server)',
  }),
  attempts: Type.Integer(),
  scheduledFor: Type.Optional(Type.String({ format: 'date-time', description: 'This target\'s own time (present only when it has one; else it runs at the post\'s scheduledFor)' })),
  thread: Type.Optional(Type.Array(ThreadEntry)),
  duplicates: Type.Optional(Type.Array(Type.Object({ platformPostId: Type.String(), platformPostUrl: Nullable(Type.String()) }), {
    description: 'Extra copies of this post on the platform, published by a worker that had lost the target (a paused process): unpublish them there. Announced as post.platform.duplicate',
  })),
  lateSeconds: Type.Optional(Type.Integer({ minimum: 0, description: 'Seconds from the post\'s scheduled time to its publication here (present once published): how late Herald published it (workers down, retries, rate limits)' })),
  goesLiveAt: Type.Optional(Type.String({ format: 'date-time', description: 'The platform holds the post and makes it public itself at this time (a YouTube video uploaded ahead, private with publishAt); the target stays pending, with its platformPostUrl, until then' })),
  removedFromPlatformAt: Type.Optional(Type.String({ format: 'date-time', description: 'When POST /v1/posts/{id}/unpublish deleted it from the platform' })),
  unpublishError: Type.Optional(Type.String({ description: 'Why unpublish could not delete it (not_supported: the platform lets no app delete posts)' })),
});

export const PostView = Type.Object({
  _id: Type.String(),
  userId: Type.String(),
  createdBy: Type.String(),
  title: Nullable(Type.String()),
  content: Type.String(),
  mediaItems: Type.Array(Type.Object({}, { additionalProperties: true })),
  platforms: Type.Array(PostTargetView),
  scheduledFor: NullableTimestamp(),
  timezone: Type.String(),
  status: Type.Enum(POST_STATUSES),
  publishNow: Type.Boolean(),
  isDraft: Type.Boolean(),
  visibility: Type.String(),
  tags: Type.Array(Type.String()),
  hashtags: Type.Array(Type.String()),
  mentions: Type.Array(Type.String()),
  queuedFromProfile: Nullable(Type.String()),
  queueId: Nullable(Type.String()),
  hidden: Type.Boolean(),
  metadata: Type.Object({}, { additionalProperties: true }),
  thread: Type.Optional(Type.Array(Type.Object({ platform: Type.String(), accountId: Type.String(), items: Type.Array(ThreadEntry) }))),
  recycling: Type.Optional(RecyclingView),
  recycledFromPostId: Type.Optional(Type.String({ description: 'The post this one is a recycled copy of' })),
  publishedAt: NullableTimestamp(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const PlatformResult = Type.Object({
  platform: Type.String(),
  accountId: Type.String(),
  status: Type.String(),
  platformPostUrl: Nullable(Type.String()),
  error: Nullable(Type.String()),
});

export const PostWriteResponse = Type.Object({
  message: Type.String(),
  post: PostView,
  platformResults: Type.Optional(Type.Array(PlatformResult)),
  error: Type.Optional(Type.String()),
  warnings: Type.Optional(Type.Array(Type.String())),
});

/** Orders of the post list (the Late client's `sortBy`). */
export const POST_SORTS = ['scheduled-desc', 'scheduled-asc', 'created-desc', 'created-asc', 'status', 'platform'] as const;
export type PostSort = (typeof POST_SORTS)[number];

export const ListPostsQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, default: 10, description: 'Page size, default 10, at most 100 (larger values are clamped)' })),
  status: Type.Optional(Type.Enum(POST_STATUSES)),
  platform: Type.Optional(PlatformEnum),
  profileId: Type.Optional(Id()),
  createdBy: Type.Optional(Id()),
  dateFrom: Type.Optional(Type.String({ maxLength: 40, description: 'Inclusive lower bound on scheduledFor (ISO 8601)' })),
  dateTo: Type.Optional(Type.String({ maxLength: 40, description: 'Inclusive upper bound on scheduledFor (ISO 8601)' })),
  includeHidden: Type.Optional(Type.Boolean()),
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Search posts by text content (case-insensitive; empty: no search)' })),
  sortBy: Type.Optional(Type.Enum(POST_SORTS, { description: 'Sort order: scheduled-desc, scheduled-asc (posts without a time last), created-desc (the default), created-asc, status, platform' })),
});
export type ListPostsQuery = Static<typeof ListPostsQuery>;
