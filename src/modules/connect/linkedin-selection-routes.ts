/**
 * LinkedIn author selection routes at connect time (GET/POST /v1/connect/linkedin/select-organization).
 * See ./linkedin-selection.ts for the rules.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors } from '../../http/schemas.ts';
import type { Services } from '../../services.ts';
import { AccountSchema } from '../accounts/schemas.ts';

const Org = Type.Object({ id: Type.String(), urn: Type.String(), name: Type.String(), vanityName: Type.Union([Type.String(), Type.Null()]) });
export const LinkedInOrgChoiceSchema = Org;

export const linkedinSelectionRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const selection = services.linkedinSelection;

  app.get('/connect/linkedin/select-organization', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Connect'], summary: 'List the organizations a LinkedIn member can publish as (during connect)',
      description: 'The organizations (approved administrator) found for the tempToken of a LinkedIn connection; the tempToken stays valid.',
      querystring: Type.Object({ profileId: Id(), tempToken: Type.String({ minLength: 1, maxLength: 200 }) }),
      response: { 200: Type.Object({ organizations: Type.Array(Org) }), ...errors(403) },
    },
  }, async (req) => selection.organizations(req.auth, req.query.profileId, req.query.tempToken));

  app.post('/connect/linkedin/select-organization', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Connect'], summary: 'Finish connecting LinkedIn as the member or one of their organizations',
      description: 'tempToken comes from the OAuth callback when the member administers organizations (1 hour, single use). accountType organization ' +
        'needs selectedOrganization with its numeric company id (urn:li:organization:<digits>), which must be one the member administers (403 otherwise).',
      body: Type.Object({
        profileId: Id(), tempToken: Type.String({ minLength: 1, maxLength: 200 }),
        userProfile: Type.Optional(Type.Object({}, { additionalProperties: true })),
        accountType: Type.Union([Type.Literal('personal'), Type.Literal('organization')]),
        selectedOrganization: Type.Optional(Type.Union([Type.Object({
          id: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Integer({ minimum: 1 })])), urn: Type.Optional(Type.String({ maxLength: 100 })),
          name: Type.Optional(Type.String({ maxLength: 300 })), logoUrl: Type.Optional(Type.String({ maxLength: 2000 })), vanityName: Type.Optional(Type.String({ maxLength: 300 })),
        }, { additionalProperties: true }), Type.Null()])),
        redirect_url: Type.Optional(Type.String({ maxLength: 2000 })),
      }),
      response: {
        200: Type.Object({ message: Type.String(), redirect_url: Type.Optional(Type.String()), account: Type.Intersect([AccountSchema, Type.Object({ accountId: Type.String() })]) }),
        ...errors(403),
      },
    },
  }, async (req) => selection.finish(req.auth, req.body));
};
