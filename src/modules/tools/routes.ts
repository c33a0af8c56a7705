import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { ValidateLengthBody, ValidateLengthResponse, ValidateMediaBody, ValidateMediaResponse, ValidatePostBody, ValidatePostResponse } from './schemas.ts';

export const toolsRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'tools'> }> = async (app, { services }) => {
  app.post('/tools/validate/post', {
    config: { permission: 'posts:read' },
    schema: {
      tags: ['Tools'], summary: 'Validate a post without saving it',
      description: 'Runs every check of POST /v1/posts (schedule, time zone, tags, media, accounts, each platform\'s rules, duplicate content) '
        + 'and saves nothing. Takes the same body. A post without `scheduledFor` or `queuedFromProfile` is checked as if published now; '
        + '`isDraft` is ignored. Answers 200 with `valid` and the problems by field and platform (a malformed body is still a 400).',
      body: ValidatePostBody, response: { 200: ValidatePostResponse, ...errors() },
    },
  }, async (req) => services.tools.validatePost(req.auth, req.body));

  app.post('/tools/validate/post-length', {
    config: { permission: 'posts:read' },
    schema: {
      tags: ['Tools'], summary: 'Measure a text on every platform',
      description: 'Each platform\'s count in its own unit (X: weighted characters, where URLs count 23 and emoji and CJK 2; Bluesky: graphemes), its limit and whether the text fits.',
      body: ValidateLengthBody, response: { 200: ValidateLengthResponse, ...errors() },
    },
  }, async (req) => services.tools.measureText(req.body.text));

  app.post('/tools/validate/media', {
    config: { permission: 'media:read' },
    schema: {
      tags: ['Tools'], summary: 'Check a media URL against the platforms\' rules',
      description: 'Herald fetches the URL (public addresses only, at most 512 MB, 60 s), reads its type from its bytes and its pixel size, duration and codecs, '
        + 'and checks it against each platform\'s media rules, as a post with it would be checked. Answers 200 with `valid: false` and `error` for a URL that cannot be read '
        + 'or is not media; with `platforms`, `valid` also needs every one of them to take it.',
      body: ValidateMediaBody, response: { 200: ValidateMediaResponse, ...errors() },
    },
  }, async (req) => services.tools.validateMedia(req.body.url, req.body.platforms));
};
