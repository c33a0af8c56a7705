import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors, MessageResponse } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';

export const ProfileSchema = Type.Object({
  _id: Type.String(),
  userId: Type.String(),
  name: Type.String(),
  description: Type.String(),
  color: Type.String(),
  isDefault: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

const Color = Type.String({ pattern: '^#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$', description: 'Hex colour, e.g. #ff8800' });
const Params = Type.Object({ profileId: Id() });

export const profilesRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'profiles'> }> = async (app, { services }) => {
  app.get('/profiles', {
    config: { permission: 'profiles:read' },
    schema: {
      tags: ['Profiles'], summary: 'List profiles',
      querystring: Type.Object({ includeOverLimit: Type.Optional(Type.Boolean()) }),
      response: { 200: Type.Object({ profiles: Type.Array(ProfileSchema) }), ...errors() },
    },
  }, async (req) => services.profiles.list(req.auth));

  app.post('/profiles', {
    config: { permission: 'profiles:write' },
    schema: {
      tags: ['Profiles'], summary: 'Create a profile',
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 100 }),
        description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
        color: Type.Optional(Type.Union([Color, Type.Null()])),
      }),
      response: { 201: Type.Object({ message: Type.String(), profile: ProfileSchema }), ...errors(403) },
    },
  }, async (req, reply) => reply.status(201).send(await services.profiles.create(req.auth, req.body)));

  app.get('/profiles/:profileId', {
    config: { permission: 'profiles:read' },
    schema: { tags: ['Profiles'], summary: 'Get a profile', params: Params, response: { 200: Type.Object({ profile: ProfileSchema }), ...errors() } },
  }, async (req) => services.profiles.get(req.auth, req.params.profileId));

  app.put('/profiles/:profileId', {
    config: { permission: 'profiles:write' },
    schema: {
      tags: ['Profiles'], summary: 'Update a profile',
      params: Params,
      body: Type.Object({
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
        color: Type.Optional(Type.Union([Color, Type.Null()])),
        isDefault: Type.Optional(Type.Boolean()),
      }),
      response: { 200: Type.Object({ message: Type.String(), profile: ProfileSchema }), ...errors() },
    },
  }, async (req) => services.profiles.update(req.auth, req.params.profileId, req.body));

  app.delete('/profiles/:profileId', {
    config: { permission: 'profiles:write' },
    schema: { tags: ['Profiles'], summary: 'Delete a profile (refused while accounts are connected)', params: Params, response: { 200: MessageResponse, ...errors(409) } },
  }, async (req) => services.profiles.remove(req.auth, req.params.profileId));
};
