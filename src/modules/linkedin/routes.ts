/**
 * LinkedIn author selection routes: list the organizations the member
 * administers, and switch an account between the member's profile and one organization.
 * See src/modules/linkedin/service.ts for the rules and errors.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors } from '../../http/schemas.ts';
import type { Services } from '../../services.ts';
import { AccountSchema } from '../accounts/schemas.ts';

const Params = Type.Object({ accountId: Id() });

const Organization = Type.Object({
  id: Type.String({ description: 'Numeric company id' }),
  urn: Type.String({ description: 'urn:li:organization:<id>' }),
  name: Type.String(),
  localizedName: Type.String(),
  vanityName: Type.Union([Type.String(), Type.Null()], { description: 'The page slug (linkedin.com/company/<vanityName>); not accepted as an id' }),
});

const SelectedOrganization = Type.Object({
  id: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Integer({ minimum: 1 })], { description: 'Numeric company id' })),
  urn: Type.Optional(Type.String({ maxLength: 100, description: 'urn:li:organization:<numeric id>' })),
  name: Type.Optional(Type.String({ maxLength: 300 })),
  manual: Type.Optional(Type.Boolean({ description: 'True when the organization was entered by hand rather than picked from the list' })),
  sourceUrl: Type.Optional(Type.String({ maxLength: 2000 })),
});

export const linkedinRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { linkedin } = services;

  app.get('/accounts/:accountId/linkedin-organizations', {
    config: { permission: 'accounts:read' },
    schema: {
      tags: ['Accounts'], summary: 'List the LinkedIn organizations the member administers',
      description: 'Read from LinkedIn (approved ADMINISTRATOR roles only), with the account\'s current author (accountType, selectedOrganization).',
      params: Params,
      response: {
        200: Type.Object({
          accountType: Type.Union([Type.Literal('personal'), Type.Literal('organization')]),
          selectedOrganization: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
          organizations: Type.Array(Organization),
        }),
        ...errors(403, 502),
      },
    },
  }, async (req) => linkedin.listOrganizations(req.auth, req.params.accountId));

  app.put('/accounts/:accountId/linkedin-organization', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Accounts'], summary: 'Publish as the member or as one of their organizations',
      description: 'accountType personal publishes as the member; organization needs selectedOrganization with its numeric company id ' +
        '(urn:li:organization:<digits>; vanity names are refused). The member must be an administrator of the organization on LinkedIn.',
      params: Params,
      body: Type.Object({
        accountType: Type.Union([Type.Literal('personal'), Type.Literal('organization')]),
        selectedOrganization: Type.Optional(Type.Union([SelectedOrganization, Type.Null()])),
      }),
      response: { 200: Type.Object({ message: Type.String(), account: AccountSchema }), ...errors(403, 502) },
    },
  }, async (req) => linkedin.selectOrganization(req.auth, req.params.accountId, { accountType: req.body.accountType, selectedOrganization: req.body.selectedOrganization ?? undefined }));
};
