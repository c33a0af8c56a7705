import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors } from '../../http/schemas.ts';
import type { Services } from '../../services.ts';

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

export const usersRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
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
};
