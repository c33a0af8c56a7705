/**
 * Reddit's account resources (docs/decisions/0053-account-resources-contract.md):
 * - the subreddit picker: the subreddits the account subscribes to
 *   (`GET /subreddits/mine/subscriber`, scope mysubreddits) and the account's default subreddit,
 *   stored in the account's settings (`defaultSubreddit`, checked with `GET /r/{sr}/about` first);
 * - a subreddit's posting rules (`GET /r/{sr}/about`, `GET /api/v1/{sr}/post_requirements`), which
 *   a post to the account is also checked against when it is created (the rule settings);
 * - the read API: the feed (`GET /r/{sr}/{sort}` or `GET /{sort}`) and search (`GET /search`,
 *   `GET /r/{sr}/search`), mapped to Herald's Reddit item.
 * Docs: https://www.reddit.com/dev/api#section_listings (calls in ./listings.ts).
 */
import { LRUCache } from 'lru-cache';
import { Type } from 'typebox';
import { fieldError } from '../../core/errors.ts';
import type { RedditSubredditRules } from '../../shared/rules/reddit.ts';
import type { AccountResources, ResourceContext } from '../account-resources.ts';
import { normalizeSubreddit, SUBREDDIT_NAME, type RedditListing, type RedditThing } from './adapter.ts';
import { redditListing, redditSearch, redditSubredditName, redditSubredditRules, redditSubscribedPage } from './listings.ts';
import { validateSubredditOperation } from './validate-subreddit.ts';
import { checkSubreddit, RulesSchema, SubredditName } from './resource-schemas.ts';

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


const RedditItemSchema = Type.Object({
  id: Type.String({ description: 'Base36 id, no prefix' }),
  fullname: Type.String({ description: 't3_<id>' }),
  title: Type.String(), author: Type.String(), subreddit: Type.String({ description: 'Without r/' }),
  url: Type.String(), permalink: Type.String({ description: 'Absolute https://www.reddit.com/... URL' }), selftext: Type.String(),
  createdUtc: Type.Number({ description: 'Unix seconds' }), score: Type.Integer(), numComments: Type.Integer(),
  over18: Type.Boolean(), stickied: Type.Boolean(), flairText: Type.Union([Type.String(), Type.Null()]),
});
const ItemsPage = Type.Object({
  items: Type.Array(RedditItemSchema),
  after: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `after` for the next page; null on the last page' }),
  before: Type.Union([Type.String(), Type.Null()]),
});
const Cursor = Type.String({ maxLength: 32, pattern: '^t[0-9]_[0-9a-zA-Z]+$', description: 'A fullname cursor from a previous page' });
const Limit = Type.Integer({ minimum: 1, maximum: 100, default: 25 });

/**
 * Reddit's resources. Each call makes its own cache of subreddit rules (per account and subreddit,
 * {@link SUBREDDIT_RULES_TTL_MS}), shared by the rules listing and a post's check: the registry
 * calls it once.
 */
export function redditResources(): AccountResources {
  /** Subreddit rules read per account and subreddit (null: the subreddit has none to apply). */
  const rulesCache = new LRUCache<string, { rules: RedditSubredditRules | null }>({ max: SUBREDDIT_RULES_CACHE_MAX, ttl: SUBREDDIT_RULES_TTL_MS });

  /**
   * `{ subredditRules: { <name>: RedditSubredditRules } }` for the post's subreddit (its own, else
   * the account's default), read with the account's token and cached. Undefined when there is no
   * valid subreddit, the account is disconnected, or Reddit cannot be read within
   * {@link SUBREDDIT_RULES_WAIT_MS} (the post is not blocked then: Reddit checks at publish time).
   */
  async function ruleSettings(ctx: ResourceContext, platformSpecificData: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    const a = ctx.account;
    const sr = normalizeSubreddit(platformSpecificData.subreddit) ?? normalizeSubreddit(a.settings.defaultSubreddit);
    if (!sr || !SUBREDDIT_NAME.test(sr) || !a.isActive) return undefined;
    const key = `${a.id}:${sr.toLowerCase()}`;
    let hit = rulesCache.get(key);
    if (!hit) {
      let timer: NodeJS.Timeout | undefined;
      try {
        const read = ctx.call((token, app) => redditSubredditRules(app, token, sr));
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
    ruleSettings: { read: ruleSettings },
    operations: [
      validateSubredditOperation(ruleSettings),
      {
        method: 'GET', path: '/accounts/:accountId/reddit-subreddits', permission: 'accounts:read', tag: 'Reddit',
        summary: 'List the subreddits of a Reddit account, and its default subreddit',
        response: Type.Object({
          subreddits: Type.Array(Type.Object({
            id: Type.String(), name: Type.String({ description: 'Without r/' }), display_name_prefixed: Type.String({ description: 'r/<name>' }),
            title: Type.String(), url: Type.String(), over18: Type.Boolean(), subscribers: Type.Union([Type.Integer(), Type.Null()]),
          })),
          defaultSubreddit: Type.Union([Type.String(), Type.Null()]),
        }),
        errors: [429, 502],
        async run(ctx) {
          const subreddits: Array<Record<string, unknown>> = [];
          let after: string | null = null;
          for (let i = 0; i < MAX_SUBREDDIT_PAGES; i++) {
            const l = await ctx.call((token, app) => redditSubscribedPage(app, token, after));
            for (const { data: d } of l.data.children) {
              subreddits.push({ id: d.id, name: d.display_name, display_name_prefixed: d.display_name_prefixed ?? `r/${d.display_name}`, title: d.title ?? '', url: d.url ?? `/r/${d.display_name}/`, over18: d.over18 === true, subscribers: d.subscribers ?? null });
            }
            after = l.data.after;
            if (!after) break;
          }
          const def = ctx.account.settings.defaultSubreddit;
          return { subreddits, defaultSubreddit: typeof def === 'string' ? def : null };
        },
      },
      {
        method: 'PUT', path: '/accounts/:accountId/reddit-subreddits', permission: 'accounts:write', tag: 'Reddit',
        summary: 'Set the default subreddit of a Reddit account',
        description: 'Used when a post names no platformSpecificData.subreddit. Reddit is asked whether the subreddit exists first.',
        body: Type.Object({ defaultSubreddit: SubredditName('A subreddit name, with or without r/') }),
        response: Type.Object({ success: Type.Boolean(), message: Type.String() }),
        answersAccount: true, errors: [429, 502],
        check: ({ body }) => { checkSubreddit('defaultSubreddit', body.defaultSubreddit); },
        async run(ctx, { body }) {
          const sr = checkSubreddit('defaultSubreddit', body.defaultSubreddit)!;
          const name = await ctx.call((token, app) => redditSubredditName(app, token, sr));
          if (!name) throw fieldError('defaultSubreddit', `r/${sr} does not exist or is not accessible to u/${ctx.account.username}`);
          await ctx.update({ settings: { defaultSubreddit: name } });
          return { success: true, message: `Default subreddit set to r/${name}` };
        },
      },
      {
        method: 'GET', path: '/accounts/:accountId/reddit-subreddits/rules', permission: 'accounts:read', tag: 'Reddit',
        summary: 'The posting rules of a subreddit, as a post to this Reddit account is checked against them',
        description: 'Read from Reddit (`GET /r/{sr}/about` and `GET /api/v1/{sr}/post_requirements`) through the account and cached as for posts: '
          + 'a post that breaks them is refused with 400 when created. `rules` is null when the subreddit has none Herald applies or Reddit cannot be read in time.',
        querystring: Type.Object({ subreddit: Type.Optional(SubredditName('A subreddit name, with or without r/; the account\'s default subreddit when absent')) }),
        response: Type.Object({
          subreddit: Type.Union([Type.String(), Type.Null()], { description: 'Without r/; null when none is named and the account has no default' }),
          rules: Type.Union([RulesSchema, Type.Null()]),
        }),
        errors: [429, 502],
        check: ({ query }) => { checkSubreddit('subreddit', query.subreddit); },
        /** Exactly as a post's check reads them (same cache); the composer applies them with the shared rule table. */
        async run(ctx, { query }) {
          const sr = checkSubreddit('subreddit', query.subreddit) ?? normalizeSubreddit(ctx.account.settings.defaultSubreddit);
          if (!sr || !SUBREDDIT_NAME.test(sr)) return { subreddit: null, rules: null };
          const settings = await ruleSettings(ctx, { subreddit: sr });
          const rules = (settings?.subredditRules as Record<string, RedditSubredditRules> | undefined)?.[sr.toLowerCase()];
          return { subreddit: sr, rules: rules ?? null };
        },
      },
      {
        method: 'GET', path: '/reddit/feed', permission: 'accounts:read', tag: 'Reddit',
        summary: 'Read a subreddit (or the front page) through a Reddit account',
        accountInQuery: 'The Reddit account to read with',
        querystring: Type.Object({
          subreddit: Type.Optional(SubredditName('Subreddit; the account\'s front page when absent')),
          sort: Type.Optional(Type.Union(FEED_SORTS.map((s) => Type.Literal(s)), { description: 'Default hot' })),
          limit: Type.Optional(Limit),
          after: Type.Optional(Cursor),
          t: Type.Optional(Type.Union(TIME_FILTERS.map((s) => Type.Literal(s)), { description: 'Time window, with sort=top only' })),
        }),
        response: ItemsPage, errors: [429, 502],
        check: ({ query }) => {
          if (query.t !== undefined && (query.sort ?? 'hot') !== 'top') throw fieldError('t', 'is only used with sort=top');
          checkSubreddit('subreddit', query.subreddit);
        },
        async run(ctx, { query: q }) {
          const sr = checkSubreddit('subreddit', q.subreddit);
          const l = await ctx.call((token, app) => redditListing(app, token, {
            subreddit: sr, sort: (q.sort as string | undefined) ?? 'hot', limit: (q.limit as number | undefined) ?? 25, after: q.after as string | undefined, t: q.t as string | undefined,
          }));
          return page(l);
        },
      },
      {
        method: 'GET', path: '/reddit/search', permission: 'accounts:read', tag: 'Reddit',
        summary: 'Search Reddit posts through a Reddit account',
        accountInQuery: 'The Reddit account to search with',
        querystring: Type.Object({
          q: Type.String({ minLength: 1, maxLength: 512, description: 'Search terms' }),
          subreddit: Type.Optional(SubredditName('Search within this subreddit')),
          restrict_sr: Type.Optional(Type.Union(['true', 'false', '1', '0'].map((s) => Type.Literal(s)), { description: 'Only this subreddit (default when subreddit is given)' })),
          sort: Type.Optional(Type.Union(SEARCH_SORTS.map((s) => Type.Literal(s)), { description: 'Default new' })),
          limit: Type.Optional(Limit),
          after: Type.Optional(Cursor),
        }),
        response: ItemsPage, errors: [429, 502],
        check: ({ query }) => { checkSubreddit('subreddit', query.subreddit); },
        /** With a subreddit, restricted to it unless restrict_sr is false. */
        async run(ctx, { query: q }) {
          const sr = checkSubreddit('subreddit', q.subreddit);
          const restrict = q.restrict_sr === undefined ? !!sr : q.restrict_sr === 'true' || q.restrict_sr === '1';
          if (restrict && !sr) throw fieldError('restrict_sr', 'needs a subreddit');
          const l = await ctx.call((token, app) => redditSearch(app, token, {
            q: q.q as string, subreddit: sr, restrict, sort: (q.sort as string | undefined) ?? 'new', limit: (q.limit as number | undefined) ?? 25, after: q.after as string | undefined,
          }));
          return page(l);
        },
      },
    ],
  };
}
