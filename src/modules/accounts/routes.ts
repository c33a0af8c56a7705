import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors, MessageResponse } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { PLATFORMS } from '../../shared/platforms.ts';

import { AccountSchema } from './schemas.ts';
import type { CloneConnectionInput } from './clone.ts';

export { AccountSchema };

const Params = Type.Object({ accountId: Id() });
/** The display settings of an account that PUT and PATCH change. */
const AccountDisplaySettings = {
  username: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  displayName: Type.Optional(Type.String({ maxLength: 200 })),
};

export const accountsRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'accounts' | 'adapters' | 'cloneConnection'> }> = async (app, { services }) => {
  app.get('/accounts', {
    config: { permission: 'accounts:read' },
    schema: {
      tags: ['Accounts'], summary: 'List connected accounts',
      querystring: Type.Object({ profileId: Type.Optional(Id()), includeOverLimit: Type.Optional(Type.Boolean()) }),
      response: { 200: Type.Object({ accounts: Type.Array(AccountSchema), hasAnalyticsAccess: Type.Boolean() }), ...errors() },
    },
  }, async (req) => services.accounts.list(req.auth, req.query.profileId));

  app.patch('/accounts/:accountId', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Accounts'], summary: 'Move an account to another profile and/or change its display settings',
      description: 'Moves the account to `profileId` (posts already created keep their targets on the account; 409 when the profile already has this ' +
        'platform account) and/or changes its `username` and `displayName` as PUT does; at least one of them. Any other field is refused (400 naming it).',
      params: Params,
      body: Type.Object({
        profileId: Type.Optional(Id('The profile to move the account to')),
        ...AccountDisplaySettings,
      }, { additionalProperties: false }),
      response: { 200: Type.Object({ message: Type.String(), profileId: Type.String(), username: Type.String(), displayName: Type.String(), account: AccountSchema }), ...errors(409) },
    },
  }, async (req) => services.accounts.patch(req.auth, req.params.accountId, req.body));

  app.put('/accounts/:accountId', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Accounts'], summary: 'Update an account\'s username or display name',
      params: Params,
      body: Type.Object(AccountDisplaySettings),
      response: { 200: Type.Object({ message: Type.String(), username: Type.String(), displayName: Type.String(), account: AccountSchema }), ...errors() },
    },
  }, async (req) => services.accounts.update(req.auth, req.params.accountId, req.body));

  // Each platform's clone step adds its target fields (docs/decisions/0053-account-resources-contract.md).
  const cloneSteps = PLATFORMS.flatMap((p) => services.adapters.resources(p).clone ?? []);
  app.post('/profiles/:profileId/clone-connection', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Accounts'], summary: 'Share a connected account with another profile (no new OAuth)',
      description: 'The clone uses the source account\'s stored authorization: a token refresh, reconnect or revocation applies to every clone, and ' +
        `disconnecting one leaves the others working. ${cloneSteps.map((c) => c.description).join(' ')} Target fields of another platform ` +
        '(Late\'s documented body sends the Page and the organization fields whatever the source) are ignored and named in `warnings`. Also accepts a dashboard session.',
      params: Type.Object({ profileId: Id('The profile that receives the clone') }),
      body: Type.Object({
        sourceAccountId: Id('The connected account to clone (any of your profiles)'),
        ...Object.assign({}, ...cloneSteps.map((c) => c.fields)),
      }),
      response: {
        200: Type.Object({
          message: Type.String(),
          warnings: Type.Optional(Type.Array(Type.String(), { description: 'Target fields of another platform that were ignored' })),
          connection: Type.Object({ _id: Type.String(), platform: Type.String(), username: Type.String(), displayName: Type.String(), isActive: Type.Boolean(), profileId: Type.String() }),
        }),
        ...errors(403, 409),
      },
    },
  }, async (req) => services.cloneConnection.clone(req.auth, req.params.profileId, req.body as unknown as CloneConnectionInput));

  app.delete('/accounts/:accountId', {
    config: { permission: 'accounts:write' },
    schema: { tags: ['Accounts'], summary: 'Disconnect an account', params: Params, response: { 200: MessageResponse, ...errors() } },
  }, async (req) => services.accounts.disconnect(req.auth, req.params.accountId));
};
