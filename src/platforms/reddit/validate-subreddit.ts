/**
 * `GET /v1/tools/validate/subreddit` (the official client's `validate.validateSubreddit`): does a
 * subreddit exist, does it take posts from the account, what may be posted there and what its
 * posts need (flair, title and body lengths), read with a Reddit account's token:
 * `GET /r/{sr}/about` (https://www.reddit.com/dev/api#GET_r_{subreddit}_about) and the posting
 * rules a post's check applies (`GET /api/v1/{sr}/post_requirements`,
 * https://www.reddit.com/dev/api#GET_api_v1_{subreddit}_post_requirements; cached as for posts).
 */
import { Type } from 'typebox';
import type { RedditSubredditRules } from '../../shared/rules/reddit.ts';
import type { ResourceContext, ResourceOperation } from '../account-resources.ts';
import { redditSubredditAbout, type RedditSubredditAbout } from './listings.ts';
import { checkSubreddit, RulesSchema, SubredditName } from './resource-schemas.ts';

const SubredditSchema = Type.Object({
  name: Type.String({ description: 'As Reddit spells it, without r/' }),
  title: Type.String(),
  description: Type.String({ description: 'The public description' }),
  subscribers: Type.Union([Type.Integer(), Type.Null()]),
  isNSFW: Type.Boolean(),
  type: Type.String({ description: 'public, private or restricted (only approved users post); Reddit\'s other types as given' }),
  allowImages: Type.Boolean(),
  allowVideos: Type.Boolean(),
  submissionType: Type.Union([Type.Literal('any'), Type.Literal('self'), Type.Literal('link')], { description: 'Text posts (self), links, or any' }),
});

/**
 * Whether the account may post in the subreddit, and why not: a restricted subreddit takes posts
 * from approved users only (https://support.reddithelp.com/hc/en-us/articles/15484466715284-User-Management-approved-users).
 */
function acceptance(about: RedditSubredditAbout): { acceptsPosts: boolean; reason?: string } {
  if (about.type === 'public') return { acceptsPosts: true };
  if (about.type === 'restricted') {
    return about.isContributor === true ? { acceptsPosts: true } : { acceptsPosts: false, reason: `r/${about.name} is restricted: only approved users post there` };
  }
  return { acceptsPosts: false, reason: `r/${about.name} is ${about.type}: it takes no posts from this account` };
}

/**
 * The operation, with Reddit's rule reader (the resources' `ruleSettings`, so the rules answered are
 * the ones a post to the subreddit is checked against).
 */
export function validateSubredditOperation(
  ruleSettings: (ctx: ResourceContext, psd: Record<string, unknown>) => Promise<Record<string, unknown> | undefined>,
): ResourceOperation {
  return {
    method: 'GET', path: '/tools/validate/subreddit', permission: 'accounts:read', tag: 'Tools',
    summary: 'Check a subreddit: does it exist, does it take posts, its posting rules and flair requirement',
    description: 'Read from Reddit with the Reddit account named by `accountId`, or without it your oldest connected Reddit account (Herald reads Reddit only through a connected account: 400 naming `accountId` when you have none). '
      + 'Answers 200 with `exists: false` and `error` for a subreddit Reddit does not have (or has banned), and `exists: true` without details for a private one. '
      + '`acceptsPosts` says whether this account may post there, `rules` what a post needs (checked when a post is created), `flairRequired` whether a post needs `platformSpecificData.flairId`.',
    accountInQuery: 'The Reddit account to read with (default: your oldest connected Reddit account)',
    accountOptional: true,
    querystring: Type.Object({ name: SubredditName('Subreddit name, with or without r/') }),
    response: Type.Object({
      exists: Type.Boolean(),
      subreddit: Type.Optional(SubredditSchema),
      error: Type.Optional(Type.String({ description: 'Why the subreddit cannot be used, when it cannot' })),
      acceptsPosts: Type.Boolean({ description: 'The account may submit posts there' }),
      flairRequired: Type.Boolean({ description: 'Posts need a flair (platformSpecificData.flairId)' }),
      rules: Type.Union([RulesSchema, Type.Null()], { description: 'The posting rules Herald checks posts against; null when Reddit cannot be read in time or there is no subreddit' }),
    }),
    errors: [429, 502],
    check: ({ query }) => { checkSubreddit('name', query.name); },
    async run(ctx, { query }) {
      const sr = checkSubreddit('name', query.name)!;
      const about = await ctx.call((token, app) => redditSubredditAbout(app, token, sr));
      if (about === null) return { exists: false, error: `r/${sr} does not exist on Reddit (or was banned)`, acceptsPosts: false, flairRequired: false, rules: null };
      if (about === 'private') return { exists: true, error: `r/${sr} is private: only its members see it and post there`, acceptsPosts: false, flairRequired: false, rules: null };
      const settings = await ruleSettings(ctx, { subreddit: about.name });
      const rules = (settings?.subredditRules as Record<string, RedditSubredditRules> | undefined)?.[about.name.toLowerCase()] ?? null;
      const { acceptsPosts, reason } = acceptance(about);
      const { isContributor: _, ...subreddit } = about;
      return { exists: true, subreddit, ...(reason ? { error: reason } : {}), acceptsPosts, flairRequired: rules?.flairRequired === true, rules };
    },
  };
}
