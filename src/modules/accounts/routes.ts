import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors, MessageResponse } from '../../http/schemas.ts';
import type { Services } from '../../services.ts';

import { AccountSchema } from './schemas.ts';

export { AccountSchema };

const Params = Type.Object({ accountId: Id() });

export const accountsRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/accounts', {
    config: { permission: 'accounts:read' },
    schema: {
      tags: ['Accounts'], summary: 'List connected accounts',
      querystring: Type.Object({ profileId: Type.Optional(Id()), includeOverLimit: Type.Optional(Type.Boolean()) }),
      response: { 200: Type.Object({ accounts: Type.Array(AccountSchema), hasAnalyticsAccess: Type.Boolean() }), ...errors() },
    },
  }, async (req) => services.accounts.list(req.auth, req.query.profileId));

  app.put('/accounts/:accountId', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Accounts'], summary: 'Update an account\'s username or display name',
      params: Params,
      body: Type.Object({
        username: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        displayName: Type.Optional(Type.String({ maxLength: 200 })),
      }),
      response: { 200: Type.Object({ message: Type.String(), username: Type.String(), displayName: Type.String(), account: AccountSchema }), ...errors() },
    },
  }, async (req) => services.accounts.update(req.auth, req.params.accountId, req.body));

  app.delete('/accounts/:accountId', {
    config: { permission: 'accounts:write' },
    schema: { tags: ['Accounts'], summary: 'Disconnect an account', params: Params, response: { 200: MessageResponse, ...errors() } },
  }, async (req) => services.accounts.disconnect(req.auth, req.params.accountId));
};
