/**
 * `GET /v1/auth/verify`: whether the credential of the request is valid and what kind it is,
 * without reading any data (Late's `verifyCredential`). Any valid credential may ask (no
 * permission: it answers only about the caller); an invalid one gets the usual 401.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';

const VerifyResponse = Type.Object({
  valid: Type.Boolean({ description: 'Always true in a 200: an invalid credential answers 401' }),
  userId: Type.String({ description: 'The credential\'s owner' }),
  name: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  authType: Type.Union([Type.Literal('api_key'), Type.Literal('oauth'), Type.Literal('session')]),
  scope: Type.Union([Type.String(), Type.Null()], { description: 'OAuth grants: the granted capabilities, space-separated; null for API keys and sessions' }),
  permissions: Type.Array(Type.String(), { description: 'What the credential may do (`<resource>:<read|write>`)' }),
  profileAccess: Type.Union([Type.Literal('all'), Type.Literal('profiles')], { description: 'all profiles, or only profileIds' }),
  profileIds: Type.Array(Type.String()),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When an API key expires (null: never, or not a key)' }),
});

export const authRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'users' | 'oauthServer'> }> = async (app, { services }) => {
  app.get('/auth/verify', {
    config: { anyCredential: true },
    schema: {
      tags: ['API keys'], summary: 'Check the credential of the request',
      description: 'Answers who the API key, OAuth token or session belongs to and what it may do, reading no other data. Any valid credential may call it; an invalid, expired or revoked one answers 401.',
      response: { 200: VerifyResponse, ...errors() },
    },
  }, async (req) => {
    const auth = req.auth;
    const { user } = await services.users.get(auth, auth.userId);
    const authType = auth.grantId ? 'oauth' as const : auth.keyId.startsWith('session:') ? 'session' as const : 'api_key' as const;
    return {
      valid: true, userId: auth.userId, name: user.name || null, email: user.email || null, authType,
      scope: await services.oauthServer.scopeOf(auth),
      permissions: [...auth.permissions].sort(), profileAccess: auth.profileAccess, profileIds: [...auth.profileIds],
      expiresAt: auth.keyExpiresAt ? auth.keyExpiresAt.toISOString() : null,
    };
  });
};
