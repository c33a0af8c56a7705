/**
 * Connected apps: the OAuth clients (AI assistants) the tenant authorized on /mcp, and their
 * revocation (the official client's `GET /v1/me/connected-apps` and `DELETE
 * /v1/me/connected-apps/{clientId}`). Only the account owner manages them: not a team member,
 * and not an OAuth token (docs/decisions/0049-oauth-for-mcp.md).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../core/errors.ts';
import { errors } from '../../route-kit/schemas.ts';
import type { AuthContext } from '../auth/context.ts';
import type { Services } from '../../services.ts';

const ConnectedApp = Type.Object({
  clientId: Type.String(),
  clientName: Type.String({ description: 'Name the client declared at registration (self-declared, not verified)' }),
  redirectHost: Type.Union([Type.String(), Type.Null()], { description: 'Host of the client\'s registered redirect URI (non-http schemes as scheme//host)' }),
  scopes: Type.Array(Type.String(), { description: 'Capabilities granted on the most recent token: read, drafts, publish, delete' }),
  profileIds: Type.Array(Type.String(), { description: 'Profiles the client was granted' }),
  authorizedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Last time one of its tokens authenticated a request (to the minute)' }),
  tokenCount: Type.Integer({ description: 'Live access and refresh tokens' }),
});

function assertOwner(auth: AuthContext): void {
  if (auth.grantId) throw new AppError('FORBIDDEN', 'An OAuth token cannot manage connected apps', { reason: 'oauth_token' });
  if (!auth.isRoot) throw new AppError('FORBIDDEN', 'Only the account owner manages connected apps', { reason: 'not_owner' });
}

export const connectedAppsRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'oauthServer'> }> = async (app, { services }) => {
  app.get('/me/connected-apps', {
    config: { permission: 'api-keys:read' },
    schema: {
      tags: ['Connected apps'], summary: 'List the AI assistants and other OAuth clients connected to your account (MCP)',
      response: { 200: Type.Object({ connectedApps: Type.Array(ConnectedApp) }), ...errors(403) },
    },
  }, async (req) => {
    assertOwner(req.auth);
    return services.oauthServer.connectedApps(req.auth.tenantId);
  });

  app.delete('/me/connected-apps/:clientId', {
    config: { permission: 'api-keys:write' },
    schema: {
      tags: ['Connected apps'], summary: 'Disconnect an OAuth client: every token it holds stops working at once',
      params: Type.Object({ clientId: Type.String({ pattern: '^hmcp_[0-9a-f]{32}$', description: 'OAuth client id, as GET /v1/me/connected-apps returns it' }) }),
      response: {
        200: Type.Object({
          revoked: Type.Boolean(), clientId: Type.String(),
          revokedTokens: Type.Integer({ description: 'Access and refresh tokens revoked by this call' }),
          invalidatedCodes: Type.Integer({ description: 'Pending authorization codes invalidated by this call' }),
        }),
        ...errors(403),
      },
    },
  }, async (req) => {
    assertOwner(req.auth);
    return services.oauthServer.revokeConnectedApp(req.auth.tenantId, req.params.clientId);
  });
};
