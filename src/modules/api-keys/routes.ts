import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors, MessageResponse } from '../../http/schemas.ts';
import type { Services } from '../../services.ts';
import { ALL_PERMISSIONS, type Permission } from '../auth/permissions.ts';
import { AppError } from '../../core/errors.ts';

const ApiKey = Type.Object({
  id: Type.String(),
  _id: Type.String(),
  name: Type.String(),
  keyPreview: Type.String(),
  permissions: Type.Array(Type.String()),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  key: Type.Optional(Type.String({ description: 'The key itself; only in the create response' })),
});

export const apiKeysRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/api-keys', {
    config: { permission: 'api-keys:read' },
    schema: { tags: ['API keys'], summary: 'List your API keys', response: { 200: Type.Object({ apiKeys: Type.Array(ApiKey) }), ...errors(403) } },
  }, async (req) => {
    if (!req.auth.isRoot) throw new AppError('FORBIDDEN', 'Team members cannot manage API keys');
    return services.apiKeys.list(req.auth);
  });

  app.post('/api-keys', {
    config: { permission: 'api-keys:write' },
    schema: {
      tags: ['API keys'], summary: 'Create an API key (the key is shown only in this response)',
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 100 }),
        permissions: Type.Optional(Type.Array(Type.Enum(ALL_PERMISSIONS), { maxItems: 50, description: 'Default: every permission' })),
        expiresIn: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 3650, description: 'Days until the key expires' }), Type.Null()])),
      }),
      response: { 201: Type.Object({ message: Type.String(), apiKey: ApiKey }), ...errors(403) },
    },
  }, async (req, reply) => {
    if (!req.auth.isRoot) throw new AppError('FORBIDDEN', 'Team members cannot manage API keys');
    const apiKey = await services.apiKeys.create(
      { tenantId: req.auth.tenantId, userId: req.auth.userId },
      { name: req.body.name.trim(), permissions: req.body.permissions as Permission[] | undefined, expiresInDays: req.body.expiresIn },
    );
    return reply.status(201).send({ message: 'API key created successfully', apiKey });
  });

  app.delete('/api-keys/:keyId', {
    config: { permission: 'api-keys:write' },
    schema: { tags: ['API keys'], summary: 'Revoke an API key', params: Type.Object({ keyId: Id() }), response: { 200: MessageResponse, ...errors(403) } },
  }, async (req) => {
    if (!req.auth.isRoot) throw new AppError('FORBIDDEN', 'Team members cannot manage API keys');
    return services.apiKeys.revoke(req.auth, req.params.keyId);
  });
};
