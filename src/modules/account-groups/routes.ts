/**
 * `/v1/account-groups`: named sets of connected accounts across profiles (see ./service.ts), the
 * Late-compatible list, create, update and delete.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, MessageResponse, errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { GROUP_ACCOUNTS_MAX, GROUP_NAME_MAX } from './service.ts';

const Group = Type.Object({
  _id: Type.String(), name: Type.String(),
  accountIds: Type.Array(Type.String(), { description: 'Connected accounts, in the order given (accounts disconnected since are left out)' }),
  createdBy: Type.String({ description: 'The user who created the group' }),
  createdAt: Type.String({ format: 'date-time' }), updatedAt: Type.String({ format: 'date-time' }),
});
const Name = Type.String({ minLength: 1, maxLength: GROUP_NAME_MAX * 2, description: `1 to ${GROUP_NAME_MAX} characters; unique within your account` });
const AccountIds = Type.Array(Id(), { maxItems: GROUP_ACCOUNTS_MAX, description: `Connected account ids (1 to ${GROUP_ACCOUNTS_MAX}, any profiles)` });
const Params = Type.Object({ groupId: Id() });

export const accountGroupRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'accountGroups'> }> = async (app, { services }) => {
  const { accountGroups } = services;

  app.get('/account-groups', {
    config: { permission: 'accounts:read' },
    schema: {
      tags: ['Account groups'], summary: 'List account groups',
      response: { 200: Type.Object({ groups: Type.Array(Group) }), ...errors() },
    },
  }, async (req) => accountGroups.list(req.auth));

  app.post('/account-groups', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Account groups'], summary: 'Create an account group',
      description: 'A named set of connected accounts across profiles, for cross-posting. `profileId` is accepted for compatibility and ignored: groups are not scoped to one profile.',
      body: Type.Object({ name: Name, accountIds: AccountIds, profileId: Type.Optional(Type.String({ maxLength: 24, description: 'Deprecated; ignored' })) }),
      response: { 201: Type.Object({ message: Type.String(), group: Group }), ...errors(403, 409) },
    },
  }, async (req, reply) => reply.status(201).send(await accountGroups.create(req.auth, req.body)));

  app.put('/account-groups/:groupId', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Account groups'], summary: 'Rename an account group or replace its accounts',
      params: Params,
      body: Type.Object({ name: Type.Optional(Name), accountIds: Type.Optional(AccountIds) }),
      response: { 200: Type.Object({ message: Type.String(), group: Group }), ...errors(403, 409) },
    },
  }, async (req) => accountGroups.update(req.auth, req.params.groupId, req.body));

  app.delete('/account-groups/:groupId', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Account groups'], summary: 'Delete an account group (its accounts stay connected)',
      params: Params,
      response: { 200: MessageResponse, ...errors(403) },
    },
  }, async (req) => accountGroups.remove(req.auth, req.params.groupId));
};
