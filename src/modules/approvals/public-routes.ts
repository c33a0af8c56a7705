/**
 * The client's side of a review link, outside /v1 and without login (decision 0059): the token in
 * the path is the credential. `GET /review-api/{token}` shows the link's posts (as they will look
 * per platform, the decisions, the client-visible comments; nothing else of the tenant); the client
 * approves, requests changes and comments on those posts only. The page itself is the web app's
 * `/review/{token}`. An unknown, expired or revoked token, and a post the link does not show, answer 404.
 * Each client address may make REVIEW_API_PER_MINUTE requests a minute (429 after).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../services.ts';
import { sendRateLimitHeaders } from '../../route-kit/rate-limit-headers.ts';
import { reviewRateLimited } from './service.ts';

const Token = Type.String({ minLength: 20, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' });
const Params = Type.Object({ token: Token });
const PostParams = Type.Object({ token: Token, postId: Type.String({ maxLength: 24 }) });
const Name = Type.Optional(Type.String({ maxLength: 100, description: 'Who the client is (shown to the team)' }));

export const reviewPublicRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'approvals'> }> = async (app, { services }) => {
  const s = services.approvals;
  app.addHook('onRequest', async (req, reply) => {
    const limit = await s.throttle(req.ip);
    sendRateLimitHeaders(reply, limit, limit.over);
    if (limit.over) throw reviewRateLimited();
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
  });
  app.get('/review-api/:token', { schema: { hide: true, params: Params } }, async (req) => s.clientView(req.params.token));
  app.post('/review-api/:token/posts/:postId/approve', {
    preValidation: async (req) => { if (req.body === undefined) req.body = {}; },
    schema: { hide: true, params: PostParams, body: Type.Object({ name: Name, comment: Type.Optional(Type.String({ maxLength: 5000 })) }) },
  }, async (req) => s.clientDecide(req.params.token, req.params.postId.toLowerCase(), 'approved', req.body));
  app.post('/review-api/:token/posts/:postId/request-changes', {
    schema: { hide: true, params: PostParams, body: Type.Object({ name: Name, comment: Type.String({ minLength: 1, maxLength: 5000 }) }) },
  }, async (req) => s.clientDecide(req.params.token, req.params.postId.toLowerCase(), 'changes_requested', req.body));
  app.post('/review-api/:token/posts/:postId/comments', {
    schema: { hide: true, params: PostParams, body: Type.Object({ name: Name, body: Type.String({ minLength: 1, maxLength: 5000 }) }) },
  }, async (req, reply) => reply.status(201).send(await s.clientComment(req.params.token, req.params.postId.toLowerCase(), req.body)));
};
