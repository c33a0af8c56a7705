/**
 * `/v1/feeds`: RSS to queue (./service.ts, docs/decisions/0065-rss-to-queue.md). Late's API has no
 * feed resource, so the shapes follow Herald's house style (`{ feeds }`, `{ message, feed }`).
 * Feeds write posts, so they take the posts permissions.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, MessageResponse, Nullable, NullableTimestamp, Timestamp, errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { DEFAULT_TEMPLATE } from './parse.ts';
import { DEFAULT_POLL_MINUTES, FEED_ACCOUNTS_MAX, FEED_NAME_MAX, FEED_URL_MAX, RECENT_ITEMS, TEMPLATE_MAX } from './service.ts';

const Mode = Type.Union([Type.Literal('draft'), Type.Literal('queue')], {
  description: '`queue`: each new item is added to the profile\'s queue (next free slot); `draft`: saved as a draft to review',
});

const Feed = Type.Object({
  _id: Type.String(), profileId: Type.String(),
  url: Type.String({ description: 'The feed\'s URL (RSS 2.0, Atom or JSON Feed)' }),
  name: Nullable(Type.String({ description: 'Your name for the feed' })),
  title: Nullable(Type.String({ description: 'The feed\'s own title, from its last successful check' })),
  mode: Mode,
  template: Type.String({ description: 'Post text: {title}, {link} and {description} are replaced by the item\'s' }),
  accountIds: Type.Array(Type.String(), { description: 'Accounts of the profile the posts go to' }),
  includeImage: Type.Boolean({ description: 'Attach the item\'s image (enclosure, media:content, JSON Feed image) when it has one' }),
  importExisting: Type.Boolean({ description: 'Whether the items already in the feed at its first check became posts too' }),
  paused: Type.Boolean(),
  pollIntervalMinutes: Type.Integer({ description: 'Minutes between checks (failures back off: twice as long after each, at most 24 hours)' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('paused'), Type.Literal('failing')], { description: '`failing`: the last check failed (see lastError)' }),
  lastCheckedAt: NullableTimestamp(), lastSuccessAt: NullableTimestamp(),
  nextCheckAt: NullableTimestamp('When it is checked next (null while paused)'),
  lastError: Nullable(Type.String({ description: 'Why the last check failed (cleared by a successful one)' })),
  lastErrorAt: NullableTimestamp(),
  consecutiveFailures: Type.Integer({ minimum: 0 }),
  createdAt: Timestamp(), updatedAt: Timestamp(),
});

const FeedItem = Type.Object({
  _id: Type.String(),
  key: Type.String({ description: 'The item\'s guid / id (else its link): each key becomes a post once' }),
  title: Nullable(Type.String()), link: Nullable(Type.String()), publishedAt: NullableTimestamp(),
  status: Type.Union([Type.Literal('created'), Type.Literal('skipped'), Type.Literal('failed')], {
    description: '`created`: postId is its post; `skipped`: in the feed when it was added; `failed`: no post could be made (error)',
  }),
  postId: Nullable(Type.String()),
  error: Nullable(Type.String({ description: 'Why it failed, or why a queued post was saved as a draft instead' })),
  createdAt: Timestamp(),
});

const fields = {
  name: Type.Optional(Nullable(Type.String({ maxLength: FEED_NAME_MAX * 2, description: `Up to ${FEED_NAME_MAX} characters` }))),
  mode: Type.Optional(Mode),
  template: Type.Optional(Type.String({ maxLength: TEMPLATE_MAX * 2, description: `Up to ${TEMPLATE_MAX} characters; placeholders {title}, {link}, {description}. Default: ${JSON.stringify(DEFAULT_TEMPLATE)}` })),
  accountIds: Type.Optional(Type.Array(Id(), { maxItems: FEED_ACCOUNTS_MAX, description: 'Connected accounts of the profile (at least one for mode queue)' })),
  includeImage: Type.Optional(Type.Boolean({ description: 'Default true' })),
  paused: Type.Optional(Type.Boolean({ description: 'Default false' })),
  pollIntervalMinutes: Type.Optional(Type.Integer({ minimum: 5, maximum: 1440, description: `Minutes between checks, 5 to 1440 (default ${DEFAULT_POLL_MINUTES})` })),
};
const Url = Type.String({ minLength: 1, maxLength: FEED_URL_MAX, description: 'http(s) URL of an RSS 2.0, Atom or JSON Feed; private and reserved addresses are refused' });
const Params = Type.Object({ feedId: Id() });
const FeedWrite = Type.Object({ message: Type.String(), feed: Feed });

export const feedsRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'feeds'> }> = async (app, { services }) => {
  const { feeds } = services;

  app.get('/feeds', {
    config: { permission: 'posts:read' },
    schema: {
      tags: ['Feeds'], summary: 'List followed feeds',
      querystring: Type.Object({ profileId: Type.Optional(Id('Only the feeds of this profile')) }),
      response: { 200: Type.Object({ feeds: Type.Array(Feed) }), ...errors() },
    },
  }, async (req) => feeds.list(req.auth, req.query.profileId));

  app.post('/feeds', {
    config: { permission: 'posts:write' },
    schema: {
      tags: ['Feeds'], summary: 'Follow a feed: its new items become queued posts or drafts',
      description: 'The feed is checked at once and then every `pollIntervalMinutes` (a conditional GET). Items in the feed at its first check are '
        + 'recorded without posts unless `importExisting` is true (then at most 20 per check). Each item (by guid / id, else link) becomes one post, once.',
      body: Type.Object({ profileId: Id(), url: Url, ...fields, importExisting: Type.Optional(Type.Boolean({ description: 'Default false: only items that appear after the first check become posts' })) }),
      response: { 201: FeedWrite, ...errors(409) },
    },
  }, async (req, reply) => reply.status(201).send(await feeds.create(req.auth, req.body)));

  app.get('/feeds/:feedId', {
    config: { permission: 'posts:read' },
    schema: {
      tags: ['Feeds'], summary: `Get a feed and its ${RECENT_ITEMS} latest items`, params: Params,
      response: { 200: Type.Object({ feed: Feed, items: Type.Array(FeedItem) }), ...errors() },
    },
  }, async (req) => feeds.get(req.auth, req.params.feedId));

  app.put('/feeds/:feedId', {
    config: { permission: 'posts:write' },
    schema: {
      tags: ['Feeds'], summary: 'Change a feed (pause or resume, template, accounts, URL, interval)',
      description: 'Fields left out keep their values. A new URL is checked at once, without the old validators; resuming makes the feed due at once.',
      params: Params, body: Type.Object({ url: Type.Optional(Url), ...fields }),
      response: { 200: FeedWrite, ...errors(409) },
    },
  }, async (req) => feeds.update(req.auth, req.params.feedId, req.body));

  app.delete('/feeds/:feedId', {
    config: { permission: 'posts:write' },
    schema: { tags: ['Feeds'], summary: 'Stop following a feed (the posts made from it stay)', params: Params, response: { 200: MessageResponse, ...errors() } },
  }, async (req) => feeds.remove(req.auth, req.params.feedId));

  app.post('/feeds/:feedId/check', {
    config: { permission: 'posts:write' },
    schema: {
      tags: ['Feeds'], summary: 'Check a feed now', description: 'Makes the feed due now; a worker checks it within seconds. 409 for a paused feed.',
      params: Params, response: { 200: FeedWrite, ...errors(409) },
    },
  }, async (req) => feeds.checkNow(req.auth, req.params.feedId));
};
