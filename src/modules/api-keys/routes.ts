import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors, MessageResponse } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { ALL_PERMISSIONS, type Permission } from '../../shared/permissions.ts';
import { AppError, FieldErrorCollector, fieldError } from '../../core/errors.ts';

const ApiKey = Type.Object({
  id: Type.String(),
  _id: Type.String(),
  name: Type.String(),
  keyPreview: Type.String(),
  permissions: Type.Array(Type.String()),
  permission: Type.Union([Type.Literal('read-write'), Type.Literal('read')], { description: 'Late/Zernio form: "read" when the key has only read permissions' }),
  scope: Type.Literal('full'),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  key: Type.Optional(Type.String({ description: 'The key itself; only in the create response' })),
});

export const apiKeysRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'apiKeys'> }> = async (app, { services }) => {
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
      description: 'A request made with an API key creates keys only within that key: a subset of its permissions and an expiry no later than its own ' +
        '(400 naming `permissions` or `expiresIn` otherwise). A key without every permission must list the permissions; an expiring key must give `expiresIn`.',
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 100 }),
        permissions: Type.Optional(Type.Array(Type.Enum(ALL_PERMISSIONS), { maxItems: 50, description: 'Default: every permission' })),
        expiresIn: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 3650, description: 'Days until the key expires' }), Type.Null()])),
        // The official client's (Late/Zernio, `@getlatedev/node`) forms of the same settings.
        permission: Type.Optional(Type.Union([Type.Literal('read-write'), Type.Literal('read')], { description: '"read" keeps only the read permissions' })),
        scope: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('profiles')], { description: 'Only "full" is supported' })),
        profileIds: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 })),
        disabledResourceGroups: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 })),
      }),
      response: { 201: Type.Object({ message: Type.String(), apiKey: ApiKey }), ...errors(403) },
    },
  }, async (req, reply) => {
    if (!req.auth.isRoot) throw new AppError('FORBIDDEN', 'Team members cannot manage API keys');
    // Restrictions Herald cannot enforce are refused rather than ignored: ignoring them
    // would hand out a key with more access than the caller asked for.
    const errs = new FieldErrorCollector();
    if (req.body.scope === 'profiles' || (req.body.profileIds && req.body.profileIds.length > 0)) {
      errs.add(req.body.scope === 'profiles' ? 'scope' : 'profileIds', 'profile-scoped API keys are not supported; create a full-scope key, or invite a team member with profile access');
    }
    if (req.body.disabledResourceGroups && req.body.disabledResourceGroups.length > 0) {
      errs.add('disabledResourceGroups', 'is not supported; restrict the key with "permissions" (e.g. ["posts:read", "posts:write"]) instead');
    }
    errs.throwIfAny();
    let permissions = req.body.permissions as Permission[] | undefined;
    if (req.body.permission === 'read') {
      permissions = (permissions && permissions.length > 0 ? permissions : ALL_PERMISSIONS).filter((p) => p.endsWith(':read'));
      if (permissions.length === 0) throw fieldError('permission', '"read" leaves none of the given permissions (all of them are :write)');
    }
    // A key hands on no more than it holds (a session holds every permission and no key expiry).
    const apiKey = await services.apiKeys.create(
      { tenantId: req.auth.tenantId, userId: req.auth.userId },
      { name: req.body.name.trim(), permissions, expiresInDays: req.body.expiresIn },
      { permissions: req.auth.permissions, expiresAt: req.auth.keyExpiresAt ?? null },
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
