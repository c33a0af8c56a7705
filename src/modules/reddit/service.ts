/**
 * Reddit account extras and the read API:
 * - the subreddit picker: the subreddits the account subscribes to
 *   (`GET /subreddits/mine/subscriber`, scope mysubreddits) and the account's default
 *   subreddit, stored in `accounts.settings.defaultSubreddit` (checked with
 *   `GET /r/{sr}/about` before it is saved);
 * - the feed (`GET /r/{sr}/{sort}` or `GET /{sort}`) and search (`GET /search`,
 *   `GET /r/{sr}/search`), mapped to Herald's Reddit item.
 * Docs: https://www.reddit.com/dev/api#section_listings (calls in platforms/reddit/listings.ts).
 */
import { LRUCache } from 'lru-cache';
import { fieldError } from '../../core/errors.ts';
import { normalizeSubreddit, SUBREDDIT_NAME, type RedditListing, type RedditThing } from '../../platforms/reddit/adapter.ts';
import { redditListing, redditSearch, redditSubredditName, redditSubredditRules, redditSubscribedPage } from '../../platforms/reddit/listings.ts';
import type { RedditSubredditRules } from '../../shared/rules/reddit.ts';
import type { AccountRow } from '../accounts/repository.ts';
import type { AuthContext } from '../auth/context.ts';
import { toAccountView } from '../accounts/service.ts';
import type { AccountsRepository } from '../accounts/repository.ts';
import type { PlatformSessions } from '../accounts/platform-session.ts';

/** A post as the feed and search answer it. `createdUtc` is Unix seconds; `permalink` is absolute. */
export interface RedditItem {
  id: string;
  fullname: string;
  title: string;
  author: string;
  subreddit: string;
  url: string;
  permalink: string;
  selftext: string;
  createdUtc: number;
  score: number;
  numComments: number;
  over18: boolean;
  stickied: boolean;
  flairText: string | null;
}

export const FEED_SORTS = ['hot', 'new', 'top', 'rising'] as const;
export const SEARCH_SORTS = ['relevance', 'hot', 'top', 'new', 'comments'] as const;
export const TIME_FILTERS = ['hour', 'day', 'week', 'month', 'year', 'all'] as const;
/** How long a subreddit's posting rules are kept before Reddit is asked again (ms). */
export const SUBREDDIT_RULES_TTL_MS = 10 * 60_000;
/** Longest a post's creation waits for a subreddit's rules (ms); past it the post is not blocked and Reddit checks at publish time. */
export const SUBREDDIT_RULES_WAIT_MS = 5_000;
/** Most subreddit rule sets kept per process (the least recently used go first). */
const SUBREDDIT_RULES_CACHE_MAX = 2_000;
/** Subscribed subreddits read for the picker: pages of 100, at most this many pages. */
const MAX_SUBREDDIT_PAGES = 10;

export function toRedditItem(t: RedditThing): RedditItem {
  return {
    id: t.id, fullname: t.name ?? `t3_${t.id}`, title: t.title, author: t.author, subreddit: t.subreddit, url: t.url,
    permalink: t.permalink.startsWith('http') ? t.permalink : `https://www.reddit.com${t.permalink}`,
    selftext: t.selftext ?? '', createdUtc: t.created_utc, score: t.score, numComments: t.num_comments,
    over18: t.over_18 === true, stickied: t.stickied === true, flairText: t.link_flair_text ?? null,
  };
}

const page = (l: RedditListing) => ({ items: l.data.children.filter((c) => c.kind === 't3').map((c) => toRedditItem(c.data)), after: l.data.after ?? null, before: l.data.before ?? null });

function checkSubreddit(field: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const sr = normalizeSubreddit(v);
  if (!sr || !SUBREDDIT_NAME.test(sr)) throw fieldError(field, 'must be a subreddit name such as "test" or "r/test"');
  return sr;
}

export function createRedditService(deps: { accounts: AccountsRepository; sessions: PlatformSessions }) {
  const open = (auth: AuthContext, accountId: string, field?: string) => deps.sessions.open(auth, accountId, 'reddit', 'Reddit', field);
  /** Subreddit rules read per account and subreddit, kept SUBREDDIT_RULES_TTL_MS (null: the subreddit has none to apply). */
  const rulesCache = new LRUCache<string, { rules: RedditSubredditRules | null }>({ max: SUBREDDIT_RULES_CACHE_MAX, ttl: SUBREDDIT_RULES_TTL_MS });

  /**
   * The account settings the rule table needs to check a post against its subreddit's own
   * rules: `{ subredditRules: { <name>: RedditSubredditRules } }` for the post's subreddit
   * (its own, else the account's default), read with the account's token and cached
   * {@link SUBREDDIT_RULES_TTL_MS}. Undefined when there is no valid subreddit, the account
   * is disconnected, or Reddit cannot be read (the post is not blocked then: Reddit itself
   * checks at publish time).
   */
  async function ruleSettings(row: AccountRow, platformSpecificData: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    const sr = normalizeSubreddit(platformSpecificData.subreddit) ?? normalizeSubreddit(row.settings?.defaultSubreddit);
    if (!sr || !SUBREDDIT_NAME.test(sr) || !row.is_active) return undefined;
    const key = `${row.id}:${sr.toLowerCase()}`;
    let hit = rulesCache.get(key);
    if (!hit) {
      let timer: NodeJS.Timeout | undefined;
      try {
        const read = deps.sessions.sessionFor(row, 'reddit', 'Reddit').call((token, app) => redditSubredditRules(app, token, sr));
        const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('subreddit rules: no answer in time')), SUBREDDIT_RULES_WAIT_MS); });
        read.catch(() => {}); // a late failure after the wait gave up is not unhandled
        const rules = await Promise.race([read, late]);
        hit = { rules };
        rulesCache.set(key, hit);
      } catch {
        return undefined;
      } finally {
        clearTimeout(timer);
      }
    }
    return hit.rules ? { subredditRules: { [sr.toLowerCase()]: hit.rules } } : undefined;
  }

  return {
    ruleSettings,

    /**
     * The posting rules of the subreddit a post to this account would go to (`subreddit`, else
     * the account's default), exactly as a post's check reads them ({@link ruleSettings}, same
     * cache): `{ subreddit, rules }`. `subreddit` is null when there is none; `rules` is null when
     * the subreddit has none to apply or Reddit cannot be read in time (a post is not blocked then).
     * The composer applies them with the shared rule table before it calls a post fine.
     * @throws 404 for an account the caller cannot see; 400 for another platform's or a
     *   disconnected account, or a `subreddit` that is not a subreddit name.
     */
    async subredditRules(auth: AuthContext, accountId: string, subreddit?: string): Promise<{ subreddit: string | null; rules: RedditSubredditRules | null }> {
      const named = checkSubreddit('subreddit', subreddit);
      const s = await open(auth, accountId);
      const sr = named ?? normalizeSubreddit(s.row.settings?.defaultSubreddit);
      if (!sr || !SUBREDDIT_NAME.test(sr)) return { subreddit: null, rules: null };
      const settings = await ruleSettings(s.row, { subreddit: sr });
      const rules = (settings?.subredditRules as Record<string, RedditSubredditRules> | undefined)?.[sr.toLowerCase()];
      return { subreddit: sr, rules: rules ?? null };
    },

    /** `{ subreddits: [{id, name, display_name_prefixed, title, url, over18, subscribers}], defaultSubreddit }`. */
    async listSubreddits(auth: AuthContext, accountId: string) {
      const s = await open(auth, accountId);
      const subreddits: Array<{ id: string; name: string; display_name_prefixed: string; title: string; url: string; over18: boolean; subscribers: number | null }> = [];
      let after: string | null = null;
      for (let i = 0; i < MAX_SUBREDDIT_PAGES; i++) {
        const l = await s.call((token, app) => redditSubscribedPage(app, token, after));
        for (const c of l.data.children) {
          const d = c.data;
          subreddits.push({ id: d.id, name: d.display_name, display_name_prefixed: d.display_name_prefixed ?? `r/${d.display_name}`, title: d.title ?? '', url: d.url ?? `/r/${d.display_name}/`, over18: d.over18 === true, subscribers: d.subscribers ?? null });
        }
        after = l.data.after;
        if (!after) break;
      }
      const def = s.row.settings?.defaultSubreddit;
      return { subreddits, defaultSubreddit: typeof def === 'string' ? def : null };
    },

    /** Sets the default subreddit after checking it exists. @throws 400 naming defaultSubreddit when Reddit does not know it. */
    async setDefaultSubreddit(auth: AuthContext, accountId: string, input: string) {
      const sr = checkSubreddit('defaultSubreddit', input)!;
      const s = await open(auth, accountId);
      const name = await s.call((token, app) => redditSubredditName(app, token, sr));
      if (!name) throw fieldError('defaultSubreddit', `r/${sr} does not exist or is not accessible to u/${s.row.username}`);
      const row = await deps.accounts.mergeSettings(s.row.id, { defaultSubreddit: name });
      return { success: true, message: `Default subreddit set to r/${name}`, account: toAccountView(row) };
    },

    /** `{ items, after, before }` from a subreddit's (or the front page's) listing. */
    async feed(auth: AuthContext, q: { accountId: string; subreddit?: string; sort?: string; limit?: number; after?: string; t?: string }) {
      const sort = q.sort ?? 'hot';
      if (q.t !== undefined && sort !== 'top') throw fieldError('t', 'is only used with sort=top');
      const sr = checkSubreddit('subreddit', q.subreddit);
      const s = await open(auth, q.accountId);
      const l = await s.call((token, app) => redditListing(app, token, { subreddit: sr, sort, limit: q.limit ?? 25, after: q.after, t: q.t }));
      return page(l);
    },

    /** `{ items, after, before }` from Reddit search; with a subreddit, restricted to it unless restrict_sr is false. */
    async search(auth: AuthContext, q: { accountId: string; q: string; subreddit?: string; restrict_sr?: string; sort?: string; limit?: number; after?: string }) {
      const sr = checkSubreddit('subreddit', q.subreddit);
      const s = await open(auth, q.accountId);
      const restrict = q.restrict_sr === undefined ? !!sr : q.restrict_sr === 'true' || q.restrict_sr === '1';
      if (restrict && !sr) throw fieldError('restrict_sr', 'needs a subreddit');
      const l = await s.call((token, app) => redditSearch(app, token, { q: q.q, subreddit: sr, restrict, sort: q.sort ?? 'new', limit: q.limit ?? 25, after: q.after }));
      return page(l);
    },
  };
}
