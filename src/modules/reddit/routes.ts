/**
 * Reddit routes: the subreddit picker (GET/PUT /v1/accounts/{accountId}/reddit-subreddits),
 * a subreddit's posting rules (GET /v1/accounts/{accountId}/reddit-subreddits/rules)
 * and the read API (GET /v1/reddit/feed, GET /v1/reddit/search). See ./service.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors } from '../../http/schemas.ts';
import type { Services } from '../../services.ts';
import { AccountSchema } from '../accounts/schemas.ts';
import { FEED_SORTS, SEARCH_SORTS, TIME_FILTERS } from './service.ts';

const RedditItem = Type.Object({
  id: Type.String({ description: 'Base36 id, no prefix' }),
  fullname: Type.String({ description: 't3_<id>' }),
  title: Type.String(), author: Type.String(), subreddit: Type.String({ description: 'Without r/' }),
  url: Type.String(), permalink: Type.String({ description: 'Absolute https://www.reddit.com/... URL' }), selftext: Type.String(),
  createdUtc: Type.Number({ description: 'Unix seconds' }), score: Type.Integer(), numComments: Type.Integer(),
  over18: Type.Boolean(), stickied: Type.Boolean(), flairText: Type.Union([Type.String(), Type.Null()]),
});
const ItemsPage = Type.Object({
  items: Type.Array(RedditItem),
  after: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `after` for the next page; null on the last page' }),
  before: Type.Union([Type.String(), Type.Null()]),
});
const SubredditName = (description: string) => Type.String({ minLength: 1, maxLength: 24, description });
const Cursor = Type.String({ maxLength: 32, pattern: '^t[0-9]_[0-9a-zA-Z]+$', description: 'A fullname cursor from a previous page' });
const Limit = Type.Integer({ minimum: 1, maximum: 100, default: 25 });

export const redditRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { reddit } = services;

  app.get('/accounts/:accountId/reddit-subreddits', {
    config: { permission: 'accounts:read' },
    schema: {
      tags: ['Reddit'], summary: 'List the subreddits of a Reddit account, and its default subreddit',
      params: Type.Object({ accountId: Id() }),
      response: {
        200: Type.Object({
          subreddits: Type.Array(Type.Object({
            id: Type.String(), name: Type.String({ description: 'Without r/' }), display_name_prefixed: Type.String({ description: 'r/<name>' }),
            title: Type.String(), url: Type.String(), over18: Type.Boolean(), subscribers: Type.Union([Type.Integer(), Type.Null()]),
          })),
          defaultSubreddit: Type.Union([Type.String(), Type.Null()]),
        }),
        ...errors(429, 502),
      },
    },
  }, async (req) => reddit.listSubreddits(req.auth, req.params.accountId));

  app.put('/accounts/:accountId/reddit-subreddits', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Reddit'], summary: 'Set the default subreddit of a Reddit account',
      description: 'Used when a post names no platformSpecificData.subreddit. Reddit is asked whether the subreddit exists first.',
      params: Type.Object({ accountId: Id() }),
      body: Type.Object({ defaultSubreddit: SubredditName('A subreddit name, with or without r/') }),
      response: { 200: Type.Object({ success: Type.Boolean(), message: Type.String(), account: AccountSchema }), ...errors(429, 502) },
    },
  }, async (req) => reddit.setDefaultSubreddit(req.auth, req.params.accountId, req.body.defaultSubreddit));

  app.get('/accounts/:accountId/reddit-subreddits/rules', {
    config: { permission: 'accounts:read' },
    schema: {
      tags: ['Reddit'], summary: 'The posting rules of a subreddit, as a post to this Reddit account is checked against them',
      description: 'Read from Reddit (`GET /r/{sr}/about` and `GET /api/v1/{sr}/post_requirements`) through the account and cached as for posts: '
        + 'a post that breaks them is refused with 400 when created. `rules` is null when the subreddit has none Herald applies or Reddit cannot be read in time.',
      params: Type.Object({ accountId: Id() }),
      querystring: Type.Object({ subreddit: Type.Optional(SubredditName('A subreddit name, with or without r/; the account\'s default subreddit when absent')) }),
      response: {
        200: Type.Object({
          subreddit: Type.Union([Type.String(), Type.Null()], { description: 'Without r/; null when none is named and the account has no default' }),
          rules: Type.Union([Type.Object({
            submissionType: Type.Optional(Type.Union([Type.Literal('any'), Type.Literal('self'), Type.Literal('link')])),
            allowImages: Type.Optional(Type.Boolean()), allowGalleries: Type.Optional(Type.Boolean()), flairRequired: Type.Optional(Type.Boolean()),
            titleMinLength: Type.Optional(Type.Integer()), titleMaxLength: Type.Optional(Type.Integer()),
            bodyPolicy: Type.Optional(Type.Union([Type.Literal('required'), Type.Literal('notAllowed'), Type.Literal('none')])),
            bodyMinLength: Type.Optional(Type.Integer()), bodyMaxLength: Type.Optional(Type.Integer()),
          }), Type.Null()]),
        }),
        ...errors(429, 502),
      },
    },
  }, async (req) => reddit.subredditRules(req.auth, req.params.accountId, req.query.subreddit));

  app.get('/reddit/feed', {
    config: { permission: 'accounts:read' },
    schema: {
      tags: ['Reddit'], summary: 'Read a subreddit (or the front page) through a Reddit account',
      querystring: Type.Object({
        accountId: Id('The Reddit account to read with'),
        subreddit: Type.Optional(SubredditName('Subreddit; the account\'s front page when absent')),
        sort: Type.Optional(Type.Union(FEED_SORTS.map((s) => Type.Literal(s)), { description: 'Default hot' })),
        limit: Type.Optional(Limit),
        after: Type.Optional(Cursor),
        t: Type.Optional(Type.Union(TIME_FILTERS.map((s) => Type.Literal(s)), { description: 'Time window, with sort=top only' })),
      }),
      response: { 200: ItemsPage, ...errors(429, 502) },
    },
  }, async (req) => reddit.feed(req.auth, req.query));

  app.get('/reddit/search', {
    config: { permission: 'accounts:read' },
    schema: {
      tags: ['Reddit'], summary: 'Search Reddit posts through a Reddit account',
      querystring: Type.Object({
        accountId: Id('The Reddit account to search with'),
        q: Type.String({ minLength: 1, maxLength: 512, description: 'Search terms' }),
        subreddit: Type.Optional(SubredditName('Search within this subreddit')),
        restrict_sr: Type.Optional(Type.Union(['true', 'false', '1', '0'].map((s) => Type.Literal(s)), { description: 'Only this subreddit (default when subreddit is given)' })),
        sort: Type.Optional(Type.Union(SEARCH_SORTS.map((s) => Type.Literal(s)), { description: 'Default new' })),
        limit: Type.Optional(Limit),
        after: Type.Optional(Cursor),
      }),
      response: { 200: ItemsPage, ...errors(429, 502) },
    },
  }, async (req) => reddit.search(req.auth, req.query));
};
