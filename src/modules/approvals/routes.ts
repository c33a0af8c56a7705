/**
 * Approvals under /v1 (docs/decisions/0059-approvals.md): a profile's approval rule, submitting,
 * approving and requesting changes on a post, its review history and comments, and client review
 * links. The client's side of a link (no login) is ./public-routes.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors, MessageResponse, Nullable, Timestamp } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { PostView } from '../posts/schemas.ts';

const PostParams = Type.Object({ postId: Id() });
const ProfileParams = Type.Object({ profileId: Id() });

const Rule = Type.Object({
  profileId: Type.String(),
  required: Type.Boolean({ description: 'Posts going out on this profile by someone who may not approve wait for approval' }),
  approverIds: Type.Array(Type.String(), { description: 'Team members who may approve besides the owner' }),
  clientApproval: Type.Boolean({ description: 'The client may approve through a review link' }),
  canApprove: Type.Boolean({ description: 'Whether the caller may approve posts of this profile' }),
});
const Actor = Type.Object({ type: Type.Union([Type.Literal('user'), Type.Literal('client')]), userId: Nullable(Type.String()), name: Type.String() });
const ReviewEvent = Type.Object({
  _id: Type.String(), kind: Type.Union([Type.Literal('submitted'), Type.Literal('approved'), Type.Literal('changes_requested'), Type.Literal('edited')]),
  actor: Actor, comment: Nullable(Type.String()), details: Type.Object({}, { additionalProperties: true }), createdAt: Timestamp(),
});
export const Approval = Type.Object({
  postId: Type.String(), status: Type.String(),
  state: Type.Union([Type.Literal('none'), Type.Literal('pending'), Type.Literal('approved'), Type.Literal('changes_requested')]),
  canApprove: Type.Boolean(), required: Type.Boolean(), events: Type.Array(ReviewEvent),
});
export const Comment = Type.Object({
  _id: Type.String(), visibility: Type.Union([Type.Literal('internal'), Type.Literal('client')]),
  author: Type.Object({ type: Type.Union([Type.Literal('user'), Type.Literal('client')]), userId: Nullable(Type.String()), name: Type.String() }),
  body: Type.String(), mentions: Type.Array(Type.String()), createdAt: Timestamp(),
});
const ReviewLink = Type.Object({
  _id: Type.String(), kind: Type.Union([Type.Literal('post'), Type.Literal('batch')]), postId: Nullable(Type.String()), profileId: Nullable(Type.String()),
  from: Nullable(Type.String()), to: Nullable(Type.String()), label: Type.String(), expiresAt: Timestamp(), revokedAt: Nullable(Type.String()),
  createdBy: Type.String(), active: Type.Boolean(), createdAt: Timestamp(),
});
const Decision = Type.Object({
  message: Type.String(), post: PostView,
  scheduledFor: Type.Optional(Timestamp('When the approved post publishes')),
  moved: Type.Optional(Type.Boolean({ description: 'True when it is not the time it was submitted with (that time had passed or its slot was taken)' })),
});

export const approvalsRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'approvals'> }> = async (app, { services }) => {
  const s = services.approvals;

  app.get('/profiles/:profileId/approval-rule', {
    config: { permission: 'profiles:read' },
    schema: { tags: ['Approvals'], summary: 'Get a profile\'s approval rule', params: ProfileParams, response: { 200: Type.Object({ rule: Rule }), ...errors() } },
  }, async (req) => s.getRule(req.auth, req.params.profileId));

  app.put('/profiles/:profileId/approval-rule', {
    config: { permission: 'profiles:write' },
    schema: {
      tags: ['Approvals'], summary: 'Set a profile\'s approval rule (owner only)',
      description: 'With `required`, a post scheduled, queued or published on this profile by a member who may not approve here is saved '
        + '`pending_approval` and publishes only once approved. The owner always may approve; `approverIds` names members who may too; '
        + '`clientApproval` lets the client approve through a review link.',
      params: ProfileParams,
      body: Type.Object({
        required: Type.Boolean(),
        approverIds: Type.Optional(Type.Array(Id(), { maxItems: 100, uniqueItems: true })),
        clientApproval: Type.Optional(Type.Boolean()),
      }),
      response: { 200: Type.Object({ message: Type.String(), rule: Rule }), ...errors(403) },
    },
  }, async (req) => s.setRule(req.auth, req.params.profileId, req.body));

  app.post('/posts/:postId/submit', {
    config: { permission: 'posts:write' },
    schema: {
      tags: ['Approvals'], summary: 'Submit a draft for review',
      description: 'The draft (for example one sent back with changes requested) becomes `pending_approval` with the time, queue or publishNow it has.',
      params: PostParams, response: { 200: Type.Object({ message: Type.String(), post: PostView, warnings: Type.Optional(Type.Array(Type.String())) }), ...errors(409) },
    },
  }, async (req) => s.submit(req.auth, req.params.postId));

  app.post('/posts/:postId/approve', {
    config: { permission: 'posts:approve' },
    // The body is optional (a comment).
    preValidation: async (req) => { if (req.body === undefined) req.body = {}; },
    schema: {
      tags: ['Approvals'], summary: 'Approve a post waiting for approval',
      description: 'The post takes the time or queue slot it was submitted with; when that time has passed, the next free slot of its profile\'s queue '
        + '(or at once without a queue): `moved` and the message say so. 403 unless the caller may approve every profile of the post.',
      params: PostParams, body: Type.Object({ comment: Type.Optional(Type.String({ maxLength: 5000 })) }),
      response: { 200: Decision, ...errors(403, 409) },
    },
  }, async (req) => s.approve(req.auth, req.params.postId, req.body.comment ?? null));

  app.post('/posts/:postId/request-changes', {
    config: { permission: 'posts:approve' },
    schema: {
      tags: ['Approvals'], summary: 'Request changes on a post waiting for approval',
      description: 'The post goes back to its author as a draft (keeping its time and queue) with the comment; they edit it and submit it again.',
      params: PostParams, body: Type.Object({ comment: Type.String({ minLength: 1, maxLength: 5000 }) }),
      response: { 200: Decision, ...errors(403, 409) },
    },
  }, async (req) => s.requestChanges(req.auth, req.params.postId, req.body.comment));

  app.get('/posts/:postId/approval', {
    config: { permission: 'posts:read' },
    schema: {
      tags: ['Approvals'], summary: 'A post\'s review: its state and every step (who, when, what)',
      params: PostParams, response: { 200: Type.Object({ approval: Approval }), ...errors() },
    },
  }, async (req) => s.review(req.auth, req.params.postId));

  app.get('/posts/:postId/comments', {
    config: { permission: 'posts:read' },
    schema: {
      tags: ['Approvals'], summary: 'A post\'s comments: the team\'s internal notes and the client\'s comments',
      params: PostParams, response: { 200: Type.Object({ comments: Type.Array(Comment) }), ...errors() },
    },
  }, async (req) => s.comments(req.auth, req.params.postId));

  app.post('/posts/:postId/comments', {
    config: { permission: 'posts:write' },
    schema: {
      tags: ['Approvals'], summary: 'Add an internal note to a post (never shown to clients)',
      description: 'Mentions: `@name` in the text (a member\'s email, its part before the @, their full or first name; a handle two members share names neither) '
        + 'and the user ids in `mentions`; each is told by mail (when SMTP is configured) and in the `post.commented` webhook event.',
      params: PostParams,
      body: Type.Object({ body: Type.String({ minLength: 1, maxLength: 5000 }), mentions: Type.Optional(Type.Array(Id(), { maxItems: 20, uniqueItems: true })) }),
      response: { 201: Type.Object({ message: Type.String(), comment: Comment }), ...errors() },
    },
  }, async (req, reply) => reply.status(201).send(await s.addComment(req.auth, req.params.postId, req.body)));

  app.post('/review-links', {
    config: { permission: 'posts:approve' },
    schema: {
      tags: ['Approvals'], summary: 'Create a client review link (one post, or a profile\'s posts in a time range)',
      description: 'Answers the link\'s `url` (and `token`) once: Herald stores only its SHA-256. The page needs no login, shows each post as it will '
        + 'look per platform, and lets the client approve, request changes and comment. Valid `expiresInDays` (default 7); revocable.',
      body: Type.Object({
        postId: Type.Optional(Id()), profileId: Type.Optional(Id()),
        from: Type.Optional(Timestamp()), to: Type.Optional(Timestamp()),
        label: Type.Optional(Type.String({ maxLength: 200 })),
        expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 30 })),
      }),
      response: { 201: Type.Object({ message: Type.String(), reviewLink: ReviewLink, token: Type.String(), url: Type.String() }), ...errors(403) },
    },
  }, async (req, reply) => reply.status(201).send(await s.createLink(req.auth, req.body)));

  app.get('/review-links', {
    config: { permission: 'posts:read' },
    schema: { tags: ['Approvals'], summary: 'List review links (no tokens)', response: { 200: Type.Object({ reviewLinks: Type.Array(ReviewLink) }), ...errors() } },
  }, async (req) => s.listLinks(req.auth));

  app.delete('/review-links/:linkId', {
    config: { permission: 'posts:approve' },
    schema: {
      tags: ['Approvals'], summary: 'Revoke a review link (it stops working at once)',
      params: Type.Object({ linkId: Id() }), response: { 200: MessageResponse, ...errors(403) },
    },
  }, async (req) => s.revokeLink(req.auth, req.params.linkId));
};
