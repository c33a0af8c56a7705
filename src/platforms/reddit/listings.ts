/**
 * Reddit reads made with an account's token (https://www.reddit.com/dev/api#section_listings,
 * https://www.reddit.com/dev/api#GET_subreddits_mine_{where}, https://www.reddit.com/dev/api#GET_r_{subreddit}_about):
 * the subreddits the account subscribes to (scope mysubreddits), whether a subreddit exists,
 * a subreddit's (or the front page's) listing, and search.
 */
import type { PlatformApp } from '../oauth.ts';
import { AdapterError } from '../types.ts';
import type { RedditListing } from './adapter.ts';
import { redditJson } from './http.ts';

/** A subreddit (t5) as `/subreddits/mine/subscriber` lists it. */
export interface RedditSubreddit { id: string; display_name: string; display_name_prefixed: string; title: string; url: string; over18: boolean; subscribers?: number }

/** One page (100) of the subreddits the account subscribes to. @throws AdapterError */
export async function redditSubscribedPage(app: PlatformApp, token: string, after: string | null): Promise<RedditListing<RedditSubreddit>> {
  return (await redditJson<RedditListing<RedditSubreddit>>(app, '/subreddits/mine/subscriber', { token, query: { limit: 100, after: after ?? undefined, raw_json: 1 } })).body;
}

/**
 * The subreddit's display name from `GET /r/{sr}/about`; null when Reddit answers 404 (no such
 * subreddit) or 403 (private or banned). @throws AdapterError otherwise
 */
export async function redditSubredditName(app: PlatformApp, token: string, sr: string): Promise<string | null> {
  const about = await redditJson<{ data?: { display_name?: string } }>(app, `/r/${encodeURIComponent(sr)}/about`, { token }).catch((err: unknown) => {
    if (err instanceof AdapterError && err.kind === 'rejected' && (err.opts.status === 404 || err.opts.status === 403)) return null;
    throw err;
  });
  return about?.body.data?.display_name ?? null;
}

/** A subreddit's listing (`/r/{sr}/{sort}`) or the front page's (`/{sort}`). @throws AdapterError */
export async function redditListing(app: PlatformApp, token: string, q: { subreddit?: string; sort: string; limit: number; after?: string; t?: string }): Promise<RedditListing> {
  const path = q.subreddit ? `/r/${encodeURIComponent(q.subreddit)}/${q.sort}` : `/${q.sort}`;
  return (await redditJson<RedditListing>(app, path, { token, query: { limit: q.limit, after: q.after, t: q.t, raw_json: 1 } })).body;
}

/** Link search (`/search`, or `/r/{sr}/search` with restrict_sr). @throws AdapterError */
export async function redditSearch(app: PlatformApp, token: string, q: { q: string; subreddit?: string; restrict: boolean; sort: string; limit: number; after?: string }): Promise<RedditListing> {
  const path = q.subreddit ? `/r/${encodeURIComponent(q.subreddit)}/search` : '/search';
  return (await redditJson<RedditListing>(app, path, {
    token, query: { q: q.q, sort: q.sort, limit: q.limit, after: q.after, restrict_sr: q.subreddit ? String(q.restrict) : undefined, type: 'link', raw_json: 1 },
  })).body;
}
