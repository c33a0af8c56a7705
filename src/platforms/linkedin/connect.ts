/**
 * How LinkedIn connects: OAuth, then, when the member administers organizations, the choice of
 * who publishes: the member (personal profile) or one of those organizations (docs/decisions/0016
 * and 0051). A member with no organization (or whose app lacks the organization scopes) is
 * connected at once as a personal account. Administered organizations: approved ADMINISTRATOR in
 * `GET /rest/organizationAcls?q=roleAssignee`
 * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/organization-access-control-by-role).
 */
import { AppError } from '../../core/errors.ts';
import type { ChooseStep, ConnectShape, Identity, OAuthTokens } from '../connect-shape.ts';
import { AdapterError } from '../types.ts';
import { linkedinAdminOrganizations, type LinkedInOrgChoice } from './organizations.ts';

/** What an author selection keeps sealed (connect_selections). */
export interface LinkedInSelectionPayload {
  tokens: OAuthTokens & Record<string, unknown>;
  identity: Identity;
  organizations: LinkedInOrgChoice[];
}

/** The choice value of the member's own profile (an organization's value is its numeric id). */
export const LINKEDIN_PERSONAL = 'personal';

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
};

/** LinkedIn's connect shape: OAuth, then the author when the member administers organizations. */
export const linkedinConnect: ConnectShape = { kind: 'oauth', choose: linkedinAuthorStep };
