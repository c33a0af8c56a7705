import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors } from '../../route-kit/schemas.ts';
import { CreateInviteBody } from '../invites/schemas.ts';
import type { Services } from '../../services.ts';
import { assertRoot } from './service.ts';

const User = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  role: Type.String(),
  isRoot: Type.Boolean(),
  profileAccess: Type.Array(Type.String(), { description: '["all"] or the ids of the profiles the user may see' }),
  createdAt: Type.String({ format: 'date-time' }),
  lastLoginAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const usersRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'invites' | 'users'> }> = async (app, { services }) => {
  app.get('/users', {
    config: { permission: 'users:read' },
    schema: {
      tags: ['Users'], summary: 'List the users of your team',
      response: { 200: Type.Object({ currentUserId: Type.String(), users: Type.Array(User) }), ...errors() },
    },
  }, async (req) => services.users.list(req.auth));

  app.get('/users/:userId', {
    config: { permission: 'users:read' },
    schema: {
      tags: ['Users'], summary: 'Get a user (yourself or a team member)',
      params: Type.Object({ userId: Id() }),
      response: { 200: Type.Object({ user: User }), ...errors() },
    },
  }, async (req) => services.users.get(req.auth, req.params.userId));

  app.put('/users/:userId', {
    config: { permission: 'users:write' },
    schema: {
      tags: ['Users'], summary: "Change a team member's profile access (account owner only)",
      description: 'Same body as a team invite: `scope` "all", or "profiles" with `profileIds`. Takes effect on the member\'s next request.',
      params: Type.Object({ userId: Id() }),
      body: CreateInviteBody,
      response: { 200: Type.Object({ message: Type.String(), user: User }), ...errors(403) },
    },
  }, async (req) => {
    assertRoot(req.auth, 'change team access');
    const access = await services.invites.checkScope(req.auth, req.body.scope, req.body.profileIds);
    return services.users.setScope(req.auth, req.params.userId, access);
  });

  app.delete('/users/:userId', {
    config: { permission: 'users:write' },
    schema: {
      tags: ['Users'], summary: 'Remove a team member (account owner only); their sessions end at once',
      params: Type.Object({ userId: Id() }),
      response: { 200: Type.Object({ message: Type.String() }), ...errors(403) },
    },
  }, async (req) => services.users.removeMember(req.auth, req.params.userId));
};
