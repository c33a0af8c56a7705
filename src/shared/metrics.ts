/**
 * Herald's one vocabulary for post metrics, and each platform's own names for them, as data
 * (docs/decisions/0030-analytics-metrics.md). The adapters map their platform's answer onto
 * {@link PostMetrics} with {@link PLATFORM_METRICS}; the API, the dashboard and the docs read
 * the same table. A metric a platform does not have is `null` (never 0). Pure: shared with
 * the web app.
 */
import type { PlatformId } from './platforms.ts';

/** The metrics Herald records, in display order. */
export const METRICS = ['impressions', 'reach', 'views', 'likes', 'comments', 'shares', 'saves', 'clicks'] as const;
export type MetricName = (typeof METRICS)[number];

/** One post's counts on one platform; `null`: the platform has no such metric (for this post kind). */
export type PostMetrics = Record<MetricName, number | null>;

/** Display names (dashboard, docs, CSV header). */
export const METRIC_LABELS: Record<MetricName, string> = {
  impressions: 'Impressions', reach: 'Reach', views: 'Views', likes: 'Likes', comments: 'Comments', shares: 'Shares', saves: 'Saves', clicks: 'Clicks',
};

/** The metrics that count as engagement (interactions), summed by {@link engagementOf}. */
export const ENGAGEMENT_METRICS: readonly MetricName[] = ['likes', 'comments', 'shares', 'saves', 'clicks'];

/**
 * For each platform, the platform's own metric name(s) behind each Herald metric; a metric
 * absent here is `null` on that platform. Several names are summed (X's retweets and quotes
 * are both shares).
 */
export const PLATFORM_METRICS: Record<PlatformId, {
  endpoint: string;
  docsUrl: string;
  names: Partial<Record<MetricName, string[]>>;
  /**
   * Most posts of one account read in one refresh pass (every 5 minutes), to stay inside the
   * platform's read limits: endpoints that take one post a call get fewer (the Graph API's
   * platform limit is 200 calls an hour per daily active user of the app, so about 200 an hour
   * for one connected account; https://developers.facebook.com/docs/graph-api/overview/rate-limiting).
   */
  postsPerPass: number;
}> = {
  twitter: {
    postsPerPass: 100,
    endpoint: 'GET /2/tweets?ids=…&tweet.fields=public_metrics',
    docsUrl: 'https://docs.x.com/x-api/fundamentals/metrics',
    names: { impressions: ['impression_count'], likes: ['like_count'], comments: ['reply_count'], shares: ['retweet_count', 'quote_count'], saves: ['bookmark_count'] },
  },
  bluesky: {
    postsPerPass: 100,
    endpoint: 'GET /xrpc/app.bsky.feed.getPosts?uris=…',
    docsUrl: 'https://docs.bsky.app/docs/api/app-bsky-feed-get-posts',
    names: { likes: ['likeCount'], comments: ['replyCount'], shares: ['repostCount', 'quoteCount'], saves: ['bookmarkCount'] },
  },
  mastodon: {
    // One GET a post (any Mastodon version); 300 calls per 5 minutes per token (https://docs.joinmastodon.org/api/rate-limits/).
    postsPerPass: 40,
    endpoint: 'GET /api/v1/statuses/:id (favourites_count, reblogs_count, replies_count; no view counts)',
    docsUrl: 'https://docs.joinmastodon.org/entities/Status/',
    names: { likes: ['favourites_count'], comments: ['replies_count'], shares: ['reblogs_count'] },
  },
  threads: {
    postsPerPass: 15,
    endpoint: 'GET /{media_id}/insights?metric=views,likes,replies,reposts,quotes,shares',
    docsUrl: 'https://developers.facebook.com/docs/threads/insights',
    names: { views: ['views'], likes: ['likes'], comments: ['replies'], shares: ['reposts', 'quotes', 'shares'] },
  },
  instagram: {
    postsPerPass: 15,
    endpoint: 'GET /{ig_media_id}/insights?metric=views,reach,likes,comments,shares,saved',
    docsUrl: 'https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights',
    names: { views: ['views'], reach: ['reach'], likes: ['likes'], comments: ['comments'], shares: ['shares'], saves: ['saved'] },
  },
  facebook: {
    postsPerPass: 10,
    endpoint: 'GET /{post_id}/insights?metric=post_total_media_view_unique,post_reactions_by_type_total,post_clicks and GET /{post_id}?fields=shares,comments.summary(true)',
    docsUrl: 'https://developers.facebook.com/docs/graph-api/reference/insights',
    names: { reach: ['post_total_media_view_unique'], likes: ['post_reactions_by_type_total'], clicks: ['post_clicks'], comments: ['comments.summary.total_count'], shares: ['shares.count'] },
  },
  linkedin: {
    postsPerPass: 100,
    endpoint: 'GET /rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=…&shares=List(…)',
    docsUrl: 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/share-statistics',
    names: { impressions: ['impressionCount'], reach: ['uniqueImpressionsCount'], clicks: ['clickCount'], likes: ['likeCount'], comments: ['commentCount'], shares: ['shareCount'] },
  },
  youtube: {
    postsPerPass: 100,
    endpoint: 'GET /youtube/v3/videos?part=statistics&id=…',
    docsUrl: 'https://developers.google.com/youtube/v3/docs/videos#statistics',
    names: { views: ['viewCount'], likes: ['likeCount'], comments: ['commentCount'] },
  },
  tiktok: {
    postsPerPass: 100,
    endpoint: 'POST /v2/video/query/?fields=id,view_count,like_count,comment_count,share_count',
    docsUrl: 'https://developers.tiktok.com/doc/tiktok-api-v2-video-query',
    names: { views: ['view_count'], likes: ['like_count'], comments: ['comment_count'], shares: ['share_count'] },
  },
  pinterest: {
    postsPerPass: 30,
    endpoint: 'GET /v5/pins/{pin_id}/analytics?metric_types=IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK,TOTAL_REACTIONS,TOTAL_COMMENTS',
    docsUrl: 'https://developers.pinterest.com/docs/api/v5/pins-analytics',
    names: { impressions: ['IMPRESSION'], saves: ['SAVE'], clicks: ['PIN_CLICK', 'OUTBOUND_CLICK'], likes: ['TOTAL_REACTIONS'], comments: ['TOTAL_COMMENTS'] },
  },
  reddit: {
    postsPerPass: 100,
    endpoint: 'GET /api/info?id=t3_…',
    docsUrl: 'https://www.reddit.com/dev/api#GET_api_info',
    names: { likes: ['score'], comments: ['num_comments'] },
  },
  // No per-post counts: the Business Profile Performance API reports per location and day
  // (fetchMultiDailyMetricsTimeSeries: impressions, calls, website clicks, ...), and the v4
  // localPosts.reportInsights per-post method is removed (the Performance API's change log,
  // https://developers.google.com/my-business/content/performance/change-log). The adapter has no
  // fetchMetrics, so Herald follows no metrics for these posts (docs/decisions/0058).
  googlebusiness: {
    postsPerPass: 0,
    endpoint: 'none: the Performance API gives location-level daily metrics only (GET /v1/locations/{id}:fetchMultiDailyMetricsTimeSeries)',
    docsUrl: 'https://developers.google.com/my-business/reference/performance/rest/v1/locations/fetchMultiDailyMetricsTimeSeries',
    names: {},
  },
  // Discord has no view, impression or click counts; a message's reactions are all it counts.
  discord: {
    postsPerPass: 20,
    endpoint: 'GET /channels/{channel.id}/messages/{message.id} (reactions[].count, summed)',
    docsUrl: 'https://discord.com/developers/docs/resources/message#reaction-object',
    names: { likes: ['reactions'] },
  },
  // The Bot API gives bots no counts for channel posts: Message has no view count, and reaction
  // counts come only as live `message_reaction_count` updates (https://core.telegram.org/bots/api#message).
  telegram: {
    postsPerPass: 0,
    endpoint: 'none: the Bot API has no method that reads a message\'s views or reactions',
    docsUrl: 'https://core.telegram.org/bots/api#message',
    names: {},
  },
};

/** Every metric null: a post without metrics (yet). */
export function noMetrics(): PostMetrics {
  return { impressions: null, reach: null, views: null, likes: null, comments: null, shares: null, saves: null, clicks: null };
}

/**
 * Maps a platform's own counts (`counts[name]`, numbers or numeric strings) onto Herald's
 * vocabulary through {@link PLATFORM_METRICS}: a metric is the sum of its names that are present,
 * and `null` when none of them is (the platform did not report it).
 */
export function mapMetrics(platform: PlatformId, counts: Record<string, unknown>): PostMetrics {
  const out = noMetrics();
  for (const [metric, names] of Object.entries(PLATFORM_METRICS[platform].names) as Array<[MetricName, string[]]>) {
    let sum: number | null = null;
    for (const n of names) {
      const v = counts[n];
      const num = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null;
      if (num !== null && Number.isFinite(num)) sum = (sum ?? 0) + num;
    }
    out[metric] = sum;
  }
  return out;
}

/** Engagement: the sum of {@link ENGAGEMENT_METRICS} that are known (0 when none is). */
export function engagementOf(m: PostMetrics): number {
  return ENGAGEMENT_METRICS.reduce((s, k) => s + (m[k] ?? 0), 0);
}

/** Engagement as a percentage of impressions (or views, or reach); null when none is known or it is 0. */
export function engagementRateOf(m: PostMetrics): number | null {
  const base = m.impressions ?? m.views ?? m.reach;
  if (!base) return null;
  return Math.round((engagementOf(m) / base) * 10_000) / 100;
}
