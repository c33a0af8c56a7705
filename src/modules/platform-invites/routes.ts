/**
 * /v1/platform-invites: create, list and revoke client onboarding links (./service.ts). The
 * no-login page at each invite's `inviteUrl` is in ./connect-page.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, MessageResponse } from '../../route-kit/schemas.ts';
import { connectPageRoutes, type ConnectPageServices } from './connect-page.ts';
import { CreatedPlatformInvite, CreatePlatformInviteBody, ListPlatformInvitesQuery, PlatformInviteList, RevokePlatformInviteQuery } from './schemas.ts';

export const platformInvitesRoutes: FastifyPluginAsyncTypebox<{ services: ConnectPageServices }> = async (app, { services }) => {
  app.post('/platform-invites', {
    config: { permission: 'invites:write' },
    schema: {
      tags: ['Invites'], summary: 'Invite a client to connect a social account to a profile',
      description: 'Answers the invite with its `inviteUrl`: a page that needs no login, says who invited the client and for which profile, ' +
        'runs the platform\'s connect flow and stores the account under the profile. Single use, valid for 7 days.',
      body: CreatePlatformInviteBody,
      response: { 201: CreatedPlatformInvite, ...errors(403) },
    },
  }, async (req, reply) => reply.status(201).send(await services.platformInvites.create(req.auth, req.body)));

  app.get('/platform-invites', {
    config: { permission: 'invites:read' },
    schema: {
      tags: ['Invites'], summary: 'List platform invites',
      description: 'Newest first; `profileId` is shown as `{ _id, name }`.',
      querystring: ListPlatformInvitesQuery,
      response: { 200: PlatformInviteList, ...errors(403) },
    },
  }, async (req) => services.platformInvites.list(req.auth, req.query.profileId));

  app.delete('/platform-invites', {
    config: { permission: 'invites:write' },
    schema: {
      tags: ['Invites'], summary: 'Revoke an unused platform invite',
      description: 'The link stops working at once. A used invite cannot be revoked (400): disconnect the account instead.',
      querystring: RevokePlatformInviteQuery,
      response: { 200: MessageResponse, ...errors(403) },
    },
  }, async (req) => services.platformInvites.revoke(req.auth, req.query.id));

  await app.register(connectPageRoutes, { services });
};
