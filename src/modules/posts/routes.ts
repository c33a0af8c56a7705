import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, fieldError } from '../../core/errors.ts';
import { Id, errors, MessageResponse, Pagination } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { requestHash } from './idempotency.ts';
import { CreatePostBody, ListPostsQuery, PostView, PostWriteResponse, RetryPostBody, UpdatePostBody } from './schemas.ts';

const Params = Type.Object({ postId: Id() });

/**
 * `recycling` must be an object or null as sent: the app's type coercion would otherwise read
 * `false`, `0` or `""` as null, which removes a post's recycling (decision 0061).
 */
const recyclingAsSent = async (req: { body: unknown }) => {
  const r = (req.body as { recycling?: unknown } | null | undefined)?.recycling;
  if (r !== undefined && r !== null && (typeof r !== 'object' || Array.isArray(r))) throw fieldError('recycling', 'must be an object (the recycling config) or null (no recycling)');
};

export const postsRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'idempotency' | 'posts'> }> = async (app, { services }) => {
  app.get('/posts', {
    config: { permission: 'posts:read' },
    schema: {
      tags: ['Posts'], summary: 'List posts', querystring: ListPostsQuery,
      response: { 200: Type.Object({ posts: Type.Array(PostView), pagination: Pagination }), ...errors() },
    },
  }, async (req) => services.posts.list(req.auth, req.query));

  app.post('/posts', {
    config: { permission: 'posts:write' },
    preValidation: recyclingAsSent,
    schema: {
      tags: ['Posts'], summary: 'Create a post (draft, scheduled, or published now)',
      description: 'Answers 201 when saved, scheduled or published everywhere; 207 when publishNow failed on some platforms; ' +
        '202 when inline publishing continues in the background. Send `Idempotency-Key` to make retries safe.',
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }),
      body: CreatePostBody,
      response: { 201: PostWriteResponse, 202: PostWriteResponse, 207: PostWriteResponse, ...errors(403, 409, 422) },
    },
  }, async (req, reply) => {
    const key = (req.headers['idempotency-key'] as string | undefined) ?? (req.headers['x-request-id'] as string | undefined);
    let idem: { key: string; hash: string } | undefined;
    if (key) {
      idem = { key, hash: requestHash(req.body) };
      const found = await services.idempotency.lookup(req.auth.tenantId, key, idem.hash);
      if (found.kind === 'replay') {
        reply.header('Idempotent-Replayed', 'true');
        return reply.status(found.statusCode as 201).send(found.body as never);
      }
      if (found.kind === 'pending') throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed', { idempotencyKey: key, postId: found.postId });
    }
    const result = await services.posts.create(req.auth, req.body, idem, req.id);
    if (idem) await services.idempotency.complete(req.auth.tenantId, idem.key, result.statusCode, result.body);
    return reply.status(result.statusCode as 201).send(result.body);
  });

  app.get('/posts/:postId', {
    config: { permission: 'posts:read' },
    schema: { tags: ['Posts'], summary: 'Get a post', params: Params, response: { 200: Type.Object({ post: PostView }), ...errors() } },
  }, async (req) => services.posts.get(req.auth, req.params.postId));

  app.put('/posts/:postId', {
    config: { permission: 'posts:write' },
    preValidation: recyclingAsSent,
    schema: {
      tags: ['Posts'], summary: 'Update a post (draft, scheduled, failed or partial)', params: Params, body: UpdatePostBody,
      response: { 200: PostWriteResponse, 201: PostWriteResponse, 202: PostWriteResponse, 207: PostWriteResponse, ...errors(403, 409) },
    },
  }, async (req, reply) => {
    const r = await services.posts.update(req.auth, req.params.postId, req.body);
    return reply.status(r.statusCode as 200).send(r.body);
  });

  app.delete('/posts/:postId', {
    config: { permission: 'posts:write' },
    schema: { tags: ['Posts'], summary: 'Delete a post (not published ones)', params: Params, response: { 200: MessageResponse, ...errors(409) } },
  }, async (req) => services.posts.remove(req.auth, req.params.postId));

  app.post('/posts/:postId/retry', {
    config: { permission: 'posts:write' },
    // The body is optional: a call without one retries every failed platform (the Late API's call).
    preValidation: async (req) => { if (req.body === undefined) req.body = {}; },
    schema: {
      tags: ['Posts'], summary: 'Retry a failed or partially published post, or one of its failed targets',
      description: 'Publishes the failed platforms of a `failed` or `partial` post again, at once; platforms already published are left as they are. '
        + 'A partial post is `publishing` meanwhile. 409 for any other status, or when no platform failed (cancelled ones are not retried). '
        + 'Herald extension: the optional body `{ accountId?, platform? }` retries only the failed target of that account (or the failed targets '
        + 'on that platform) and leaves the other failed ones as they are; 400 naming the field when no target of the post matches it or the '
        + 'matching target is not failed. On a profile that requires approval, a caller who may not approve there retries only a post whose text '
        + 'is the approved one (403 `approval_required` otherwise: an approver retries it, or a new time sends it for review).',
      params: Params,
      body: RetryPostBody,
      response: { 200: Type.Object({ message: Type.String(), post: PostView }), ...errors(403, 409) },
    },
  }, async (req) => services.posts.retry(req.auth, req.params.postId, req.body));
};
