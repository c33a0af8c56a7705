import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors, MessageResponse } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { CreateInviteTokenBody, InviteToken, PendingInvite } from './schemas.ts';

/** Team invites under /v1 (root user only; members get 403). */
export const invitesRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'invites'> }> = async (app, { services }) => {
  app.post('/invite/tokens', {
    config: { permission: 'invites:write' },
    schema: {
      tags: ['Invites'], summary: 'Create a team invite (single use, valid 7 days)',
      description: 'The invitee opens `inviteUrl`, sets a name, email and password, and joins your team with access to all profiles or only `profileIds`.',
      body: CreateInviteTokenBody,
      response: { 201: InviteToken, ...errors(403) },
    },
  }, async (req, reply) => reply.status(201).send(await services.invites.create(req.auth, req.body)));

  app.get('/invite/tokens', {
    config: { permission: 'invites:read' },
    schema: {
      tags: ['Invites'], summary: 'List pending team invites (unused and unexpired; tokens are not shown again)',
      response: { 200: Type.Object({ invites: Type.Array(PendingInvite) }), ...errors(403) },
    },
  }, async (req) => services.invites.list(req.auth));

  app.delete('/invite/tokens/:inviteId', {
    config: { permission: 'invites:write' },
    schema: {
      tags: ['Invites'], summary: 'Revoke a pending team invite',
      params: Type.Object({ inviteId: Id() }),
      response: { 200: MessageResponse, ...errors(403) },
    },
  }, async (req) => services.invites.revoke(req.auth, req.params.inviteId));
};
