/**
 * Editing published posts (docs/decisions/0060-edit-published-posts.md):
 * POST /v1/posts/{postId}/edit (the text, where the platform has an edit endpoint) and
 * POST /v1/posts/{postId}/update-metadata (a YouTube video's title, description, tags, category,
 * privacy), with the Late client's shapes (EditPostData/Response, UpdatePostMetadataData/Response).
 * Both take `Idempotency-Key` (or `x-request-id`) like POST /v1/posts: a repeat with the same key and
 * body answers the first success without calling the platform again; a failed call frees the key.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../core/errors.ts';
import { ID_PATTERN } from '../../core/ids.ts';
import { Id, errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { PLATFORMS, PUBLISHED_EDITS, type PlatformId } from '../../platforms/types.ts';
import { VIDEO_METADATA_PLATFORMS } from '../../shared/edits.ts';
import { requestHash } from './idempotency.ts';

const editable = PLATFORMS.filter((p) => PUBLISHED_EDITS[p].herald);
const IdempotencyHeaders = Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) });

/**
 * Runs `run` once per idempotency key (scoped by `scope`: the route and post), answering a repeat
 * with the first answer. @throws 409 IDEMPOTENCY_KEY_IN_USE while the first runs; 422 for another body.
 */
async function idempotent<T>(services: Pick<Services, 'idempotency'>, req: FastifyRequest, reply: FastifyReply, scope: string, body: unknown, run: () => Promise<T>): Promise<T> {
  const key = (req.headers['idempotency-key'] as string | undefined) ?? (req.headers['x-request-id'] as string | undefined);
  if (!key) return run();
  const hash = requestHash({ scope, body });
  const found = await services.idempotency.lookup(req.auth.tenantId, key, hash);
  if (found.kind === 'replay') {
    reply.header('Idempotent-Replayed', 'true');
    return found.body as T;
  }
  if (found.kind === 'pending') throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed', { idempotencyKey: key });
  await services.idempotency.reserve(req.auth.tenantId, key, hash, null);
  let out: T;
  try {
    out = await run();
  } catch (err) {
    await services.idempotency.release(req.auth.tenantId, key).catch(() => {});
    throw err;
  }
  await services.idempotency.complete(req.auth.tenantId, key, 200, out);
  return out;
}

export const editRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'idempotency' | 'postEdits' | 'videoMetadata'> }> = async (app, { services }) => {
  app.post('/posts/:postId/edit', {
    config: { permission: 'posts:write' },
    schema: {
      tags: ['Posts'], summary: 'Edit a published post on its platform',
      description: `Changes the text of the post's published target on \`platform\` (the first of that platform, or \`accountId\`'s) through the platform's `
        + `edit endpoint. Herald edits on ${editable.join(', ')}; any other platform answers 400 naming \`platform\` and why (the platform has no edit `
        + 'endpoint, or Herald does not call it yet). The text is checked against the platform\'s rules first (400 naming `content` and the rule). '
        + 'The target\'s stored text changes and the publishing log records the edit (action `edit`: who, what changed, the platform\'s answer). '
        + 'A post not published yet is changed with PUT /v1/posts/{postId} instead (409 here). On a profile that requires approval only an approver '
        + 'edits (403 `approval_required`). Send `Idempotency-Key` to make retries safe.',
      params: Type.Object({ postId: Id() }),
      headers: IdempotencyHeaders,
      body: Type.Object({
        platform: Type.Unsafe<(typeof PLATFORMS)[number]>(Type.String({ enum: [...PLATFORMS], description: 'The platform to edit the post on' })),
        content: Type.String({ minLength: 1, maxLength: 100_000, description: 'The new text of the post' }),
        accountId: Type.Optional(Id('Which account\'s copy to edit when the post went to several accounts of the platform; default the first')),
      }, { additionalProperties: false }),
      response: {
        200: Type.Object({
          success: Type.Boolean(),
          id: Type.String({ description: 'The platform post id after the edit (X gives an edit a new id; the others keep it)' }),
          url: Type.String({ description: 'URL of the edited post' }),
          message: Type.String(),
        }),
        ...errors(403, 409, 422, 429, 502),
      },
    },
  }, async (req, reply) => idempotent(services, req, reply, `edit:${req.params.postId}`, req.body,
    () => services.postEdits.edit(req.auth, req.params.postId, req.body, req.id)));

  app.post('/posts/:postId/update-metadata', {
    config: { permission: 'posts:write' },
    schema: {
      tags: ['Posts'], summary: 'Update a published YouTube video\'s metadata',
      description: 'Changes the title, description, tags, category, privacy, made-for-kids or synthetic-media flag of a published YouTube video '
        + '(videos.update); fields left out stay as YouTube has them. Post mode: `postId` is a post with a published YouTube target (`accountId` '
        + 'picks one of several), whose stored title, description and options change too. Direct mode: `postId` is `_` with `videoId` and '
        + '`accountId` (a YouTube account of yours): any video of that channel. Each field is checked against YouTube\'s rules first (400 naming '
        + 'the field and rule). `thumbnailUrl` and `playlistId` are not supported yet (400 naming them). On a profile that requires approval only an '
        + 'approver updates (403 `approval_required`). Logged as `update_metadata`.',
      params: Type.Object({ postId: Type.String({ pattern: `^(_|${ID_PATTERN.replace(/^\^|\$$/g, '')})$`, description: 'Post id, or `_` for direct mode' }) }),
      headers: IdempotencyHeaders,
      body: Type.Object({
        platform: Type.Unsafe<PlatformId>(Type.String({ enum: [...VIDEO_METADATA_PLATFORMS], description: 'The platform to update metadata on' })),
        videoId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'YouTube video id (direct mode)' })),
        accountId: Type.Optional(Id('The YouTube account (required in direct mode)')),
        title: Type.Optional(Type.String({ minLength: 1, maxLength: 1_000, description: 'New title (at most 100 characters, no < or >)' })),
        description: Type.Optional(Type.String({ maxLength: 100_000, description: 'New description (at most 5,000 bytes)' })),
        tags: Type.Optional(Type.Array(Type.String({ maxLength: 1_000 }), { maxItems: 500, description: 'Keyword tags (at most 500 characters together)' })),
        categoryId: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: 'YouTube video category id' })),
        privacyStatus: Type.Optional(Type.Unsafe<'public' | 'private' | 'unlisted'>(Type.String({ enum: ['public', 'private', 'unlisted'] }))),
        thumbnailUrl: Type.Optional(Type.String({ maxLength: 2048, description: 'Not supported yet (400)' })),
        madeForKids: Type.Optional(Type.Boolean()),
        containsSyntheticMedia: Type.Optional(Type.Boolean()),
        playlistId: Type.Optional(Type.String({ maxLength: 128, description: 'Not supported yet (400)' })),
      }, { additionalProperties: false }),
      response: {
        200: Type.Object({
          success: Type.Boolean(),
          message: Type.String(),
          videoId: Type.Optional(Type.String({ description: 'Direct mode only' })),
          updatedFields: Type.Array(Type.String()),
        }),
        ...errors(403, 409, 422, 429, 502),
      },
    },
  }, async (req, reply) => idempotent(services, req, reply, `update-metadata:${req.params.postId}`, req.body,
    () => services.videoMetadata.update(req.auth, req.params.postId, req.body, req.id)));
};
