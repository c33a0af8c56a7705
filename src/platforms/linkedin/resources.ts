/**
 * LinkedIn's account resources (docs/decisions/0053-account-resources-contract.md): who a
 * connected LinkedIn account publishes as, the member (accountType `personal`, the default) or one
 * organization the member administers (accountType `organization`), listed and switched
 * (`GET /v1/accounts/{accountId}/linkedin-organizations`, `PUT .../linkedin-organization`), and a
 * clone of the connection that publishes as another author (`targetAccountType`,
 * `targetOrganizationId`/`Urn`).
 *
 * Organizations are named by their numeric company id (`urn:li:organization:<digits>`); a vanity
 * name is refused with 400. The member must be an approved ADMINISTRATOR of the organization,
 * checked with LinkedIn (403 otherwise):
 * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/organization-access-control-by-role
 * The choice is stored in the account's settings: `accountType` and `selectedOrganization
 * {id, urn, name, vanityName, manual?, sourceUrl?}`.
 */
import { Type } from 'typebox';
import { AppError, fieldError } from '../../core/errors.ts';
import type { AccountResources, ResourceContext } from '../account-resources.ts';
import { organizationValue, type SelectOrganizationBody } from './connect.ts';
import { linkedinAdminOrganizationIds, linkedinAdminOrganizations, linkedinOrganization, ORGANIZATION_URN } from './organizations.ts';

/** An organization the member administers, as the API shows it. */
export interface LinkedInOrganization {
  /** Numeric company id, as a string. */
  id: string;
  /** `urn:li:organization:<id>` */
  urn: string;
  name: string;
  localizedName: string;
  vanityName: string | null;
}

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

const adminOrgIds = (ctx: ResourceContext) => ctx.call((token, app) => linkedinAdminOrganizationIds(app.apiBaseUrl, token));

async function organization(ctx: ResourceContext, id: string): Promise<LinkedInOrganization> {
  const o = await ctx.call((token, app) => linkedinOrganization(app.apiBaseUrl, token, id));
  const name = o.localizedName ?? `Organization ${id}`;
  return { id: String(o.id ?? id), urn: `urn:li:organization:${id}`, name, localizedName: name, vanityName: o.vanityName ?? null };
}

export const linkedinResources: AccountResources = {
  operations: [
    {
      method: 'GET', path: '/accounts/:accountId/linkedin-organizations', permission: 'accounts:read', tag: 'Accounts',
      summary: 'List the LinkedIn organizations the member administers',
      description: 'Read from LinkedIn (approved ADMINISTRATOR roles only), with the account\'s current author (accountType, selectedOrganization).',
      response: Type.Object({
        accountType: Type.Union([Type.Literal('personal'), Type.Literal('organization')]),
        selectedOrganization: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
        organizations: Type.Array(Organization),
      }),
      errors: [403, 502], inactiveAllowed: true, authorization: true,
      async run(ctx) {
        const organizations: LinkedInOrganization[] = [];
        for (const id of await adminOrgIds(ctx)) organizations.push(await organization(ctx, id));
        const st = ctx.account.settings;
        return { accountType: st.accountType === 'organization' ? 'organization' : 'personal', selectedOrganization: st.selectedOrganization ?? null, organizations };
      },
    },
    {
      method: 'PUT', path: '/accounts/:accountId/linkedin-organization', permission: 'accounts:write', tag: 'Accounts',
      summary: 'Publish as the member or as one of their organizations',
      description: 'accountType personal publishes as the member; organization needs selectedOrganization with its numeric company id ' +
        '(urn:li:organization:<digits>; vanity names are refused). The member must be an administrator of the organization on LinkedIn.',
      body: Type.Object({
        accountType: Type.Union([Type.Literal('personal'), Type.Literal('organization')]),
        selectedOrganization: Type.Optional(Type.Union([SelectedOrganization, Type.Null()])),
      }),
      response: Type.Object({ message: Type.String() }),
      answersAccount: true, errors: [403, 502], inactiveAllowed: true, authorization: true,
      async run(ctx, { body }) {
        const b = body as unknown as SelectOrganizationBody & { selectedOrganization?: { manual?: boolean; sourceUrl?: string } | null };
        if (b.accountType === 'personal') {
          await ctx.update({ dropSettings: ['selectedOrganization'], settings: { accountType: 'personal' } });
          return { message: 'The LinkedIn account now publishes as the member (personal profile)' };
        }
        const id = organizationValue(b, '; GET /v1/accounts/{accountId}/linkedin-organizations lists the ids');
        if (!(await adminOrgIds(ctx)).includes(id)) {
          throw new AppError('FORBIDDEN', `The LinkedIn member is not an approved administrator of urn:li:organization:${id}; only organizations from GET /v1/accounts/{accountId}/linkedin-organizations can be selected`, { platform: 'linkedin' });
        }
        const org = await organization(ctx, id);
        const sel = b.selectedOrganization ?? {};
        const selected = {
          id: org.id, urn: org.urn, name: org.localizedName || sel.name || org.urn, vanityName: org.vanityName,
          ...(sel.manual !== undefined ? { manual: sel.manual } : {}), ...(sel.sourceUrl ? { sourceUrl: sel.sourceUrl } : {}),
        };
        await ctx.update({ settings: { accountType: 'organization', selectedOrganization: selected } });
        return { message: `The LinkedIn account now publishes as ${selected.name}` };
      },
    },
  ],

  clone: {
    fields: {
      targetOrganizationId: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'LinkedIn: numeric company id' })),
      targetOrganizationUrn: Type.Optional(Type.String({ maxLength: 100, description: 'LinkedIn: urn:li:organization:<id>' })),
      targetOrganizationName: Type.Optional(Type.String({ maxLength: 300, description: 'LinkedIn: informational; the name is read from LinkedIn' })),
      targetAccountType: Type.Optional(Type.Union([Type.Literal('personal'), Type.Literal('organization')], { description: 'LinkedIn: publish as the member or an organization' })),
    },
    description: 'LinkedIn: targetOrganizationId or targetOrganizationUrn publishes as another organization the member administers (checked with LinkedIn), targetAccountType personal as the member '
      + '(an organization named beside "personal" wins, with a warning: n8n sends "personal" by default).',
    /** The member (`targetAccountType: 'personal'`) or an organization the member administers. */
    async target(ctx, b) {
      const given = ['targetOrganizationId', 'targetOrganizationUrn', 'targetOrganizationName', 'targetAccountType'].some((k) => b[k] !== undefined);
      if (!given) return null;
      const organizationNamed = b.targetOrganizationId !== undefined || b.targetOrganizationUrn !== undefined;
      if (b.targetAccountType === 'personal' && !organizationNamed) return { dropSettings: ['selectedOrganization'], settings: { accountType: 'personal' } };
      // An organization named beside targetAccountType "personal" wins: n8n's node sends "personal" (its default)
      // with every LinkedIn clone, also when its user filled in the organization.
      const warnings = b.targetAccountType === 'personal'
        ? [`targetAccountType "personal" was ignored: ${b.targetOrganizationId !== undefined ? 'targetOrganizationId' : 'targetOrganizationUrn'} names an organization, so the clone publishes as it`]
        : [];
      let id = (b.targetOrganizationId as string | undefined)?.trim();
      if (typeof b.targetOrganizationUrn === 'string') {
        const m = ORGANIZATION_URN.exec(b.targetOrganizationUrn.trim());
        if (!m) throw fieldError('targetOrganizationUrn', 'must be urn:li:organization:<numeric id>');
        if (id && id !== m[1]) throw fieldError('targetOrganizationId', `does not match targetOrganizationUrn (${m[1]})`);
        id = m[1];
      }
      if (!id) throw fieldError('targetOrganizationId', 'is required for targetAccountType organization (or give targetOrganizationUrn)');
      if (!/^\d+$/.test(id)) throw fieldError('targetOrganizationId', 'must be the numeric company id');
      const orgs = await ctx.call((token, app) => linkedinAdminOrganizations(app, token));
      const org = orgs.find((o) => o.id === id);
      if (!org) throw new AppError('FORBIDDEN', `The LinkedIn member of this account is not an approved administrator of urn:li:organization:${id}`, { platform: 'linkedin', field: 'targetOrganizationId' });
      return { settings: { accountType: 'organization', selectedOrganization: org }, ...(warnings.length ? { warnings } : {}) };
    },
  },
};
