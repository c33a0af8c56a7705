import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors, MessageResponse } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { ALL_PERMISSIONS, type Permission } from '../../shared/permissions.ts';
import { AppError, FieldErrorCollector, fieldError } from '../../core/errors.ts';
import { canManageApiKeys, type AuthContext } from '../auth/context.ts';

const ApiKey = Type.Object({
  id: Type.String(),
  _id: Type.String(),
  name: Type.String(),
  keyPreview: Type.String(),
  permissions: Type.Array(Type.String()),
  permission: Type.Union([Type.Literal('read-write'), Type.Literal('read')], { description: 'Late/Zernio form: "read" when the key has only read permissions' }),
  scope: Type.Union([Type.Literal('full'), Type.Literal('profiles')], { description: '"full": every profile the key\'s user reaches; "profiles": only `profileIds`' }),
  profileIds: Type.Optional(Type.Array(Type.Object({ _id: Type.String(), name: Type.String(), color: Type.Union([Type.String(), Type.Null()]) }), {
    description: 'The profiles a "profiles" key reaches (those deleted since are left out); only when scope is "profiles"',
  })),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  key: Type.Optional(Type.String({ description: 'The key itself; only in the create response' })),
});

/**
 * Only the account owner manages API keys, with a full key or a session, or with a profile-scoped
 * key of theirs within its own profiles (decision 0063).
 * @throws AppError FORBIDDEN for a team member (or a team member's key).
 */
function assertKeyManager(auth: AuthContext): void {
  if (!canManageApiKeys(auth)) throw new AppError('FORBIDDEN', 'Team members cannot manage API keys');
}

export const apiKeysRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'apiKeys'> }> = async (app, { services }) => {
  app.get('/api-keys', {
    config: { permission: 'api-keys:read' },
    schema: { tags: ['API keys'], summary: 'List your API keys', response: { 200: Type.Object({ apiKeys: Type.Array(ApiKey) }), ...errors(403) } },
  }, async (req) => {
    assertKeyManager(req.auth);
    return services.apiKeys.list(req.auth);
  });

  app.post('/api-keys', {
    config: { permission: 'api-keys:write' },
    schema: {
      tags: ['API keys'], summary: 'Create an API key (the key is shown only in this response)',
      description: 'A request made with an API key creates keys only within that key: a subset of its permissions, an expiry no later than its own ' +
        'and, for a profile-scoped key, a subset of its profiles (400 naming `permissions`, `expiresIn`, `scope` or `profileIds` otherwise). ' +
        'A key without every permission must list the permissions; an expiring key must give `expiresIn`; a profile-scoped key must give `scope: "profiles"` and `profileIds`. ' +
        'A profile-scoped key reaches only its profiles\' accounts, posts, media and queues (other ids answer 404) and cannot manage the team, profiles or webhooks.',
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 100 }),
        permissions: Type.Optional(Type.Array(Type.Enum(ALL_PERMISSIONS), { maxItems: 50, description: 'Default: every permission' })),
        expiresIn: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 3650, description: 'Days until the key expires' }), Type.Null()])),
        // The official client's (Late/Zernio, `@getlatedev/node`) forms of the same settings.
        permission: Type.Optional(Type.Union([Type.Literal('read-write'), Type.Literal('read')], { description: '"read" keeps only the read permissions' })),
        scope: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('profiles')], { description: '"full" (default): every profile; "profiles": only `profileIds`' })),
        profileIds: Type.Optional(Type.Array(Id(), { maxItems: 100, description: 'The profiles the key reaches; required (at least one) when scope is "profiles"' })),
        disabledResourceGroups: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 })),
      }),
      response: { 201: Type.Object({ message: Type.String(), apiKey: ApiKey }), ...errors(403) },
    },
  }, async (req, reply) => {
    assertKeyManager(req.auth);
    // Restrictions Herald cannot enforce are refused rather than ignored: ignoring them
    // would hand out a key with more access than the caller asked for.
    const errs = new FieldErrorCollector();
    const { scope, profileIds } = req.body;
    if (scope === 'profiles' && (!profileIds || profileIds.length === 0)) errs.add('profileIds', 'is required (at least one profile) when scope is "profiles"');
    if (scope !== 'profiles' && profileIds && profileIds.length > 0) errs.add('scope', 'must be "profiles" when profileIds is given');
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
      { name: req.body.name.trim(), permissions, expiresInDays: req.body.expiresIn, profileIds: scope === 'profiles' ? profileIds : null },
      { permissions: req.auth.permissions, expiresAt: req.auth.keyExpiresAt ?? null, profileIds: req.auth.keyScope?.profileIds ?? null },
    );
    return reply.status(201).send({ message: 'API key created successfully', apiKey });
  });

  app.delete('/api-keys/:keyId', {
    config: { permission: 'api-keys:write' },
    schema: { tags: ['API keys'], summary: 'Revoke an API key', params: Type.Object({ keyId: Id() }), response: { 200: MessageResponse, ...errors(403) } },
  }, async (req) => {
    assertKeyManager(req.auth);
    return services.apiKeys.revoke(req.auth, req.params.keyId);
  });
};
