/**
 * Reddit reads made with an account's token (https://www.reddit.com/dev/api#section_listings,
 * https://www.reddit.com/dev/api#GET_subreddits_mine_{where}, https://www.reddit.com/dev/api#GET_r_{subreddit}_about):
 * the subreddits the account subscribes to (scope mysubreddits), whether a subreddit exists,
 * a subreddit's (or the front page's) listing, and search.
 */
import type { RedditSubredditRules } from '../../shared/rules/reddit.ts';
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

/**
 * A subreddit's posting rules, as the shared rule table applies them: `GET /r/{sr}/about`
 * (submission_type, allow_images, allow_galleries; https://www.reddit.com/dev/api#GET_r_{subreddit}_about)
 * and `GET /api/v1/{sr}/post_requirements` (is_flair_required, title and body lengths,
 * body_restriction_policy; https://www.reddit.com/dev/api#GET_api_v1_{subreddit}_post_requirements).
 * Null when Reddit answers 404 or 403 for the subreddit. @throws AdapterError otherwise
 */
export async function redditSubredditRules(app: PlatformApp, token: string, sr: string): Promise<RedditSubredditRules | null> {
  const missing = (err: unknown) => {
    if (err instanceof AdapterError && err.kind === 'rejected' && (err.opts.status === 404 || err.opts.status === 403)) return null;
    throw err;
  };
  const about = await redditJson<{ data?: { submission_type?: string; allow_images?: boolean; allow_galleries?: boolean } }>(app, `/r/${encodeURIComponent(sr)}/about`, { token }).catch(missing);
  if (!about?.body.data) return null;
  const d = about.body.data;
  const req = await redditJson<{
    is_flair_required?: boolean; title_text_min_length?: number | null; title_text_max_length?: number | null;
    body_restriction_policy?: string; body_text_min_length?: number | null; body_text_max_length?: number | null;
  }>(app, `/api/v1/${encodeURIComponent(sr)}/post_requirements`, { token }).catch(missing);
  const r = req?.body ?? {};
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);
  const out: RedditSubredditRules = {
    submissionType: d.submission_type === 'self' || d.submission_type === 'link' ? d.submission_type : 'any',
    ...(typeof d.allow_images === 'boolean' ? { allowImages: d.allow_images } : {}),
    ...(typeof d.allow_galleries === 'boolean' ? { allowGalleries: d.allow_galleries } : {}),
    ...(r.is_flair_required ? { flairRequired: true } : {}),
    ...(num(r.title_text_min_length) ? { titleMinLength: num(r.title_text_min_length) } : {}),
    ...(num(r.title_text_max_length) ? { titleMaxLength: num(r.title_text_max_length) } : {}),
    ...(r.body_restriction_policy === 'required' || r.body_restriction_policy === 'notAllowed' ? { bodyPolicy: r.body_restriction_policy } : {}),
    ...(num(r.body_text_min_length) ? { bodyMinLength: num(r.body_text_min_length) } : {}),
    ...(num(r.body_text_max_length) ? { bodyMaxLength: num(r.body_text_max_length) } : {}),
  };
  return out;
}

/** What `GET /r/{sr}/about` says about a subreddit, as POST /v1/tools/validate/subreddit answers it. */
export interface RedditSubredditAbout {
  name: string;
  title: string;
  description: string;
  subscribers: number | null;
  isNSFW: boolean;
  /** Reddit's `subreddit_type`: public, private or restricted (only approved users post); others (archived, gold_restricted, ...) as given. */
  type: string;
  submissionType: 'any' | 'self' | 'link';
  allowImages: boolean;
  allowVideos: boolean;
  /** The account is an approved submitter (`user_is_contributor`), when Reddit says. */
  isContributor: boolean | null;
}

/**
 * A subreddit's about page (https://www.reddit.com/dev/api#GET_r_{subreddit}_about) read with the
 * account's token: null when Reddit answers 404 (none: never created, or banned), `private` when it
 * answers 403 (a private subreddit the account is not a member of: its details are not shown).
 * @throws AdapterError otherwise
 */
export async function redditSubredditAbout(app: PlatformApp, token: string, sr: string): Promise<RedditSubredditAbout | 'private' | null> {
  type About = {
    display_name?: string; title?: string; public_description?: string; subscribers?: number; over18?: boolean; subreddit_type?: string;
    submission_type?: string; allow_images?: boolean; allow_videos?: boolean; user_is_contributor?: boolean | null;
  };
  let about: { body: { data?: About } };
  try {
    about = await redditJson<{ data?: About }>(app, `/r/${encodeURIComponent(sr)}/about`, { token });
  } catch (err) {
    if (err instanceof AdapterError && err.kind === 'rejected' && err.opts.status === 404) return null;
    if (err instanceof AdapterError && err.kind === 'rejected' && err.opts.status === 403) return 'private';
    throw err;
  }
  const d = about.body.data;
  if (!d?.display_name) return null;
  return {
    name: d.display_name, title: d.title ?? '', description: d.public_description ?? '', subscribers: typeof d.subscribers === 'number' ? d.subscribers : null,
    isNSFW: d.over18 === true, type: d.subreddit_type ?? 'public',
    submissionType: d.submission_type === 'self' || d.submission_type === 'link' ? d.submission_type : 'any',
    allowImages: d.allow_images !== false, allowVideos: d.allow_videos !== false,
    isContributor: typeof d.user_is_contributor === 'boolean' ? d.user_is_contributor : null,
  };
}
