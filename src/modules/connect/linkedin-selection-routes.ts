/**
 * LinkedIn author selection at connect time, the Late-compatible routes
 * (GET/POST /v1/connect/linkedin/select-organization). When the member administers organizations,
 * the OAuth callback keeps the tokens sealed under a tempToken and sends the browser to the
 * dashboard's `/dashboard/connect/linkedin/select-organization?tempToken&profileId` (API
 * completion answers `{ message, tempToken, organizations }`). The choice is posted as
 * `{ profileId, tempToken, userProfile, accountType: 'personal' | 'organization', selectedOrganization? }`;
 * these routes translate it into the value of LinkedIn's choose step (`personal` or the numeric
 * organization id) and call the generic choose service (./choose-service.ts; the step is in the
 * LinkedIn platform folder, docs/decisions/0051-platform-connect-contract.md).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { fieldError } from '../../core/errors.ts';
import { Id, errors } from '../../http/schemas.ts';
import type { Services } from '../../services.ts';
import { AccountSchema } from '../accounts/schemas.ts';

/** The organization URN of Late's body: `urn:li:organization:<numeric id>`. */
const ORGANIZATION_URN = /^urn:li:organization:(\d+)$/;

/** What POST /v1/connect/linkedin/select-organization accepts. */
export interface SelectOrganizationBody {
  accountType: 'personal' | 'organization';
  selectedOrganization?: { id?: string | number; urn?: string; name?: string } | null;
}

/**
 * The choose step's value for the body: `personal`, or the organization's numeric id (from its
 * id or urn, which must agree).
 * @throws 400 naming selectedOrganization (missing), selectedOrganization.urn or .id (not numeric, a vanity name, not matching).
 */
export function organizationValue(b: SelectOrganizationBody): string {
  if (b.accountType !== 'organization') return 'personal';
  const so = b.selectedOrganization;
  if (!so || (so.id === undefined && !so.urn)) throw fieldError('selectedOrganization', 'is required for accountType organization: give its numeric id or urn (urn:li:organization:<numeric id>)');
  const vanity = 'use the numeric company id (urn:li:organization:12345), not a vanity name';
  let id: string | undefined;
  if (so.urn !== undefined) {
    const m = ORGANIZATION_URN.exec(so.urn);
    if (!m) throw fieldError('selectedOrganization.urn', `"${so.urn}" is not an organization URN: ${vanity}`);
    id = m[1];
  }
  if (so.id !== undefined) {
    const sid = String(so.id);
    if (!/^\d+$/.test(sid)) throw fieldError('selectedOrganization.id', `"${sid}" is not a numeric company id: ${vanity}`);
    if (id && id !== sid) throw fieldError('selectedOrganization.id', `does not match the urn (${id})`);
    id = sid;
  }
  return id!;
}

const Org = Type.Object({ id: Type.String(), urn: Type.String(), name: Type.String(), vanityName: Type.Union([Type.String(), Type.Null()]) });
export const LinkedInOrgChoiceSchema = Org;

export const linkedinSelectionRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { choose } = services;

  app.get('/connect/linkedin/select-organization', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Connect'], summary: 'List the organizations a LinkedIn member can publish as (during connect)',
      description: 'The organizations (approved administrator) found for the tempToken of a LinkedIn connection; the tempToken stays valid.',
      querystring: Type.Object({ profileId: Id(), tempToken: Type.String({ minLength: 1, maxLength: 200 }) }),
      response: { 200: Type.Object({ organizations: Type.Array(Org) }), ...errors(403) },
    },
  }, async (req) => choose.listed(req.auth, 'linkedin', req.query.profileId, req.query.tempToken) as Promise<{ organizations: Array<Static<typeof Org>> }>);

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
  }, async (req) => choose.choose(req.auth, 'linkedin', {
    profileId: req.body.profileId, tempToken: req.body.tempToken, value: () => organizationValue(req.body),
    redirectUrl: req.body.redirect_url, extra: { name: req.body.selectedOrganization?.name },
  }));
};
