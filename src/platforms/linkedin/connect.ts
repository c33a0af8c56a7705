/**
 * How LinkedIn connects: OAuth, then, when the member administers organizations, the choice of
 * who publishes: the member (personal profile) or one of those organizations (docs/decisions/0016
 * and 0051). A member with no organization (or whose app lacks the organization scopes) is
 * connected at once as a personal account. Administered organizations: approved ADMINISTRATOR in
 * `GET /rest/organizationAcls?q=roleAssignee`
 * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/organization-access-control-by-role).
 */
import { Type } from 'typebox';
import { AppError, fieldError } from '../../core/errors.ts';
import type { ChooseStep, ConnectShape, Identity, OAuthTokens } from '../connect-shape.ts';
import { AdapterError } from '../types.ts';
import { linkedinAdminOrganizations, ORGANIZATION_URN, type LinkedInOrgChoice } from './organizations.ts';

/** What an author selection keeps sealed (connect_selections). */
export interface LinkedInSelectionPayload {
  tokens: OAuthTokens & Record<string, unknown>;
  identity: Identity;
  organizations: LinkedInOrgChoice[];
}

/** The choice value of the member's own profile (an organization's value is its numeric id). */
export const LINKEDIN_PERSONAL = 'personal';

/** An organization the member administers, as the connect calls list it. */
export const LinkedInOrgChoiceSchema = Type.Object({ id: Type.String(), urn: Type.String(), name: Type.String(), vanityName: Type.Union([Type.String(), Type.Null()]) });

/** The author of Late's select-organization body (and of the account's organization switch). */
export interface SelectOrganizationBody {
  accountType: 'personal' | 'organization';
  selectedOrganization?: { id?: string | number; urn?: string; name?: string } | null;
}

/**
 * The organization's numeric id named by `selectedOrganization` (its id or urn, which must agree),
 * or {@link LINKEDIN_PERSONAL} for accountType personal. Organizations are named by their numeric
 * company id; a vanity name is refused.
 * @throws AppError 400 naming `selectedOrganization` (missing), `selectedOrganization.urn` or `.id`
 *   (not numeric, a vanity name, not matching). `hint` ends the vanity-name message.
 */
export function organizationValue(b: SelectOrganizationBody, hint = ''): string {
  if (b.accountType !== 'organization') return LINKEDIN_PERSONAL;
  const so = b.selectedOrganization;
  if (!so || (so.id === undefined && !so.urn)) throw fieldError('selectedOrganization', 'is required for accountType organization: give its numeric id or urn (urn:li:organization:<numeric id>)');
  const vanity = `use the numeric company id (urn:li:organization:12345), not a vanity name${hint}`;
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

/** Choosing the author: the member or an organization. */
export const linkedinAuthorStep: ChooseStep<LinkedInSelectionPayload> = {
  noun: 'organization',
  answerKey: 'organizations',
  answerMessage: 'Choose personal or an organization with POST /v1/connect/linkedin/select-organization',
  title: 'Choose who posts on LinkedIn',
  empty: 'Nothing to choose: connect LinkedIn again to publish as yourself.',

  async begin(app, tokens, identity) {
    let organizations: LinkedInOrgChoice[];
    try {
      organizations = await linkedinAdminOrganizations(app, tokens.accessToken);
    } catch (err) {
      // A missing scope or LinkedIn down: the member can still connect as a personal account.
      if (err instanceof AdapterError) return null;
      throw err;
    }
    if (organizations.length === 0) return null;
    return { payload: { tokens: { ...tokens }, identity, organizations }, list: organizations };
  },

  async choices(_app, payload) {
    return [
      { value: LINKEDIN_PERSONAL, label: 'My personal profile', hint: 'Posts appear as you' },
      ...payload.organizations.map((o) => ({ value: o.id, label: o.name, hint: 'Company page', listed: o })),
    ];
  },

  async toAccount(_app, payload, value, extra) {
    let selected: LinkedInOrgChoice | null = null;
    if (value !== LINKEDIN_PERSONAL) {
      const org = payload.organizations.find((o) => o.id === value);
      if (!org) throw new AppError('FORBIDDEN', `The LinkedIn member is not an approved administrator of urn:li:organization:${value}`, { platform: 'linkedin' });
      const named = typeof extra?.name === 'string' ? extra.name : undefined;
      selected = { ...org, name: org.name || named || org.urn };
    }
    const { tokens, identity } = payload;
    return {
      message: selected ? `LinkedIn connected: publishing as ${selected.name}` : 'LinkedIn connected: publishing as the member (personal profile)',
      account: {
        ...identity, credentials: tokens, tokenExpiresAt: tokens.expiresAt ? new Date(tokens.expiresAt) : null,
        permissions: identity.permissions ?? ['posts:write', 'posts:read'],
        settings: selected ? { accountType: 'organization', selectedOrganization: selected } : { accountType: 'personal' },
      },
      ...(selected ? {} : { dropSettings: ['selectedOrganization'] }),
    };
  },

  wire: {
    listed: LinkedInOrgChoiceSchema,
    listedDescription: 'LinkedIn: the organizations the member administers',
    list: {
      summary: 'List the organizations a LinkedIn member can publish as (during connect)',
      description: 'The organizations (approved administrator) found for the tempToken of a LinkedIn connection; the tempToken stays valid.',
      errors: [403],
    },
    post: {
      summary: 'Finish connecting LinkedIn as the member or one of their organizations',
      description: 'tempToken comes from the OAuth callback when the member administers organizations (1 hour, single use). accountType organization ' +
        'needs selectedOrganization with its numeric company id (urn:li:organization:<digits>), which must be one the member administers (403 otherwise).',
      errors: [403],
    },
    body: {
      userProfile: Type.Optional(Type.Object({}, { additionalProperties: true })),
      accountType: Type.Union([Type.Literal('personal'), Type.Literal('organization')]),
      selectedOrganization: Type.Optional(Type.Union([Type.Object({
        id: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Integer({ minimum: 1 })])), urn: Type.Optional(Type.String({ maxLength: 100 })),
        name: Type.Optional(Type.String({ maxLength: 300 })), logoUrl: Type.Optional(Type.String({ maxLength: 2000 })), vanityName: Type.Optional(Type.String({ maxLength: 300 })),
      }, { additionalProperties: true }), Type.Null()])),
    },
    value: (body) => organizationValue(body as unknown as SelectOrganizationBody),
    extra: (body) => ({ name: (body as unknown as SelectOrganizationBody).selectedOrganization?.name }),
  },
};

/** LinkedIn's connect shape: OAuth, then the author when the member administers organizations. */
export const linkedinConnect: ConnectShape = { kind: 'oauth', choose: linkedinAuthorStep };
