/**
 * GET /v1/analytics schemas: the query the official client sends and the two answers it
 * reads (single post with `postId`, list view without), with metrics that are `null` where a
 * platform has no such metric.
 */
import { Type } from 'typebox';
import { Id, Nullable, NullableTimestamp, Pagination } from '../../route-kit/schemas.ts';
import { METRICS } from '../../shared/metrics.ts';
import { PLATFORMS } from '../../shared/platforms.ts';
import { AccountSchema } from '../accounts/schemas.ts';

const DAY_OR_TIME = '^\\d{4}-\\d{2}-\\d{2}(T[0-9:.]+(Z|[+-]\\d{2}:\\d{2})?)?$';
const Day = (description: string) => Type.String({ pattern: DAY_OR_TIME, description });

export const AnalyticsFilters = {
  platform: Type.Optional(Type.Enum([...PLATFORMS, 'all'], { description: 'Only targets on this platform (default all)' })),
  profileId: Type.Optional(Id('Only targets of this profile\'s accounts (default all)')),
  fromDate: Type.Optional(Day('Published on or after this day (YYYY-MM-DD, UTC); default 90 days ago')),
  toDate: Type.Optional(Day('Published on or before this day (YYYY-MM-DD, inclusive, UTC); default today')),
};

export const AnalyticsQuery = Type.Object({
  postId: Type.Optional(Id('One post: the single-post view')),
  ...AnalyticsFilters,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  // Bounded like the other lists (posts, media): an unbounded page overflowed the offset (a bigint) into a 500.
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  sortBy: Type.Optional(Type.Enum(['date', 'engagement'], { default: 'date', description: 'Publish time, or engagement (likes + comments + shares + saves + clicks)' })),
  order: Type.Optional(Type.Enum(['asc', 'desc'], { default: 'desc' })),
});

const Count = (name: string) => Nullable(Type.Integer({ description: `${name}; null where the platform has no such metric` }));

/** PostAnalytics (the official client's name): Herald's metrics, the engagement rate (% of impressions, views or reach) and the last read. */
export const PostAnalytics = Type.Object({
  ...Object.fromEntries(METRICS.map((m) => [m, Count(m)])) as Record<(typeof METRICS)[number], ReturnType<typeof Count>>,
  engagementRate: Nullable(Type.Number({ description: 'Engagement as a percentage of impressions (or views, or reach)' })),
  lastUpdated: NullableTimestamp('When the platform was last read'),
});

const SyncStatus = Type.Enum(['synced', 'pending', 'partial', 'unavailable']);

export const PlatformAnalytics = Type.Object({
  platform: Type.String(),
  status: Type.Enum(['published', 'failed']),
  platformPostId: Nullable(Type.String()),
  accountId: Type.String(),
  accountUsername: Nullable(Type.String()),
  analytics: Type.Union([PostAnalytics, Type.Null()]),
  syncStatus: Type.Enum(['synced', 'pending', 'unavailable']),
  platformPostUrl: Nullable(Type.String()),
  errorMessage: Nullable(Type.String()),
});

export const SinglePostAnalytics = Type.Object({
  postId: Type.String(),
  status: Type.String(),
  content: Type.String(),
  scheduledFor: NullableTimestamp(),
  publishedAt: NullableTimestamp(),
  analytics: PostAnalytics,
  platformAnalytics: Type.Array(PlatformAnalytics),
  platform: Nullable(Type.String()),
  platformPostUrl: Nullable(Type.String()),
  isExternal: Type.Boolean(),
  syncStatus: SyncStatus,
});

export const AnalyticsList = Type.Object({
  overview: Type.Object({
    totalPosts: Type.Integer(), publishedPosts: Type.Integer(), scheduledPosts: Type.Integer(), lastSync: NullableTimestamp(),
    dataStaleness: Type.Object({
      staleAccountCount: Type.Integer({ description: 'Accounts whose posts\' metrics wait for a reconnection' }),
      syncTriggered: Type.Boolean({ description: 'Always false: Herald refreshes on its own schedule' }),
    }),
  }),
  posts: Type.Array(Type.Object({
    _id: Type.String(),
    content: Type.String(),
    scheduledFor: NullableTimestamp(),
    publishedAt: NullableTimestamp(),
    status: Type.String(),
    analytics: PostAnalytics,
    platforms: Type.Array(PlatformAnalytics),
    platform: Nullable(Type.String()),
    platformPostUrl: Nullable(Type.String()),
    isExternal: Type.Boolean(),
    profileId: Nullable(Type.String()),
    syncStatus: SyncStatus,
  })),
  pagination: Pagination,
  accounts: Type.Array(AccountSchema),
  hasAnalyticsAccess: Type.Boolean(),
});

export const AnalyticsDaily = Type.Object({
  fromDate: Type.String({ format: 'date-time' }),
  toDate: Type.String({ format: 'date-time' }),
  days: Type.Array(Type.Object({
    date: Type.String({ description: 'YYYY-MM-DD (UTC)' }),
    ...Object.fromEntries(METRICS.map((m) => [m, Count(m)])) as Record<(typeof METRICS)[number], ReturnType<typeof Count>>,
    engagement: Type.Integer(),
  })),
});
