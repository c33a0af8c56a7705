import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { AccountHealthResponse, AccountsHealthResponse } from './schemas.ts';

export const accountHealthRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'accountHealth'> }> = async (app, { services }) => {
  // A static segment outranks a parameter in the router: /accounts/health is never taken for /accounts/:accountId.
  app.get('/accounts/health', {
    config: { permission: 'accounts:read' },
    schema: {
      tags: ['Accounts'], summary: 'Health of every connected account',
      description: 'A summary (healthy, warning, error, needing reconnection) and, per account: token valid and expiry, whether it must be '
        + 'reconnected, whether it can post and read analytics, its issues and its latest publish result. Read from Herald\'s records; no platform is called.',
      response: { 200: AccountsHealthResponse, ...errors() },
    },
  }, async (req) => services.accountHealth.list(req.auth));

  app.get('/accounts/:accountId/health', {
    config: { permission: 'accounts:read' },
    schema: {
      tags: ['Accounts'], summary: 'Health of one account',
      description: 'As in the list, plus the token status (expiry in words, whether it needs a refresh and whether Herald refreshes it), '
        + 'granted and missing permissions, and recommendations for each issue.',
      params: Type.Object({ accountId: Id() }), response: { 200: AccountHealthResponse, ...errors() },
    },
  }, async (req) => services.accountHealth.get(req.auth, req.params.accountId));
};
