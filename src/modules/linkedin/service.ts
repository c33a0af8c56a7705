/**
 * LinkedIn authors: a connected LinkedIn
 * account publishes as the member (accountType 'personal', the default after OAuth) or as
 * one organization page the member administers (accountType 'organization').
 *
 * - `listOrganizations`: the organizations the member ADMINISTERS, read from LinkedIn
 *   (`GET /rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED`, then
 *   `GET /rest/organizations/{id}` for names; platforms/linkedin/organizations.ts).
 * - `selectOrganization`: switches personal <-> organization and stores `accountType` and
 *   `selectedOrganization {id, urn, name, vanityName?, manual?, sourceUrl?}` in accounts.settings
 *   (shown by toAccountView). Organizations are identified by their numeric company id
 *   (`urn:li:organization:<digits>`); a vanity name is refused with 400. The member must be an
 *   approved ADMINISTRATOR of the organization, checked against LinkedIn (403 otherwise).
 *
 * Errors: 404 for an account outside the caller's tenant or profiles; 400 for a non-LinkedIn
 * account or a bad organization; 502 when LinkedIn cannot be reached; 400 asking to reconnect
 * when LinkedIn refuses the token.
 */
import { AppError, fieldError } from '../../core/errors.ts';
import { linkedinAdminOrganizationIds, linkedinOrganization, ORGANIZATION_URN as ORG_URN } from '../../platforms/linkedin/organizations.ts';
import type { AuthContext } from '../auth/context.ts';
import { toAccountView, type AccountRow } from '../accounts/service.ts';
import type { AccountsRepository } from '../accounts/repository.ts';
import type { AuthorizationWording } from '../accounts/platform-errors.ts';
import type { PlatformSessions } from '../accounts/platform-session.ts';

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

/** What PUT /v1/accounts/{id}/linkedin-organization accepts. */
export interface SelectOrganizationInput {
  accountType: 'personal' | 'organization';
  selectedOrganization?: { id?: string | number; urn?: string; name?: string; manual?: boolean; sourceUrl?: string };
}

const LINKEDIN: AuthorizationWording = { platform: 'linkedin', refused: (msg) => `LinkedIn refused the account's authorization (${msg}); reconnect the account` };

export function createLinkedInService(deps: { accounts: AccountsRepository; sessions: PlatformSessions }) {
  const { accounts: repo } = deps;

  async function linkedinAccount(auth: AuthContext, accountId: string): Promise<AccountRow> {
    const a = await repo.accessible(auth, accountId);
    if (a.platform !== 'linkedin') throw new AppError('BAD_REQUEST', `Account ${accountId} is a ${a.platform} account, not a LinkedIn account`, { platform: a.platform });
    return a;
  }

  /** Runs LinkedIn calls with the account's token (refreshed and persisted when needed). */
  const withLinkedIn = <T>(a: AccountRow, fn: (token: string, base: string) => Promise<T>): Promise<T> =>
    deps.sessions.sessionFor(a, 'linkedin', 'LinkedIn', LINKEDIN).call((token, app) => fn(token, app.apiBaseUrl));

  /** Organization ids (numeric strings) the member is an approved ADMINISTRATOR of. */
  async function adminOrgIds(a: AccountRow): Promise<string[]> {
    return withLinkedIn(a, (token, base) => linkedinAdminOrganizationIds(base, token));
  }

  async function organization(a: AccountRow, id: string): Promise<LinkedInOrganization> {
    const o = await withLinkedIn(a, (token, base) => linkedinOrganization(base, token, id));
    const name = o.localizedName ?? `Organization ${id}`;
    return { id: String(o.id ?? id), urn: `urn:li:organization:${id}`, name, localizedName: name, vanityName: o.vanityName ?? null };
  }

  const current = (a: AccountRow) => ({
    accountType: (a.settings?.accountType === 'organization' ? 'organization' : 'personal') as 'personal' | 'organization',
    selectedOrganization: (a.settings?.selectedOrganization ?? null) as Record<string, unknown> | null,
  });

  return {
    /** @throws 404 (foreign account), 400 (not LinkedIn / reconnect), 502 (LinkedIn unreachable). */
    async listOrganizations(auth: AuthContext, accountId: string) {
      const a = await linkedinAccount(auth, accountId);
      const ids = await adminOrgIds(a);
      const organizations: LinkedInOrganization[] = [];
      for (const id of ids) organizations.push(await organization(a, id));
      return { ...current(a), organizations };
    },

    /** @throws 404, 400 (vanity name, missing organization, not LinkedIn), 403 (not an admin), 502. */
    async selectOrganization(auth: AuthContext, accountId: string, input: SelectOrganizationInput) {
      const a = await linkedinAccount(auth, accountId);
      if (input.accountType === 'personal') {
        const row = await repo.replaceSettings(a.id, ['selectedOrganization'], { accountType: 'personal' });
        return { message: 'The LinkedIn account now publishes as the member (personal profile)', account: toAccountView(row) };
      }
      const sel = input.selectedOrganization;
      if (!sel || (sel.id === undefined && !sel.urn)) throw fieldError('selectedOrganization', 'is required for accountType organization: give its urn (urn:li:organization:<numeric id>) or numeric id');
      const vanity = 'use the numeric company id (urn:li:organization:12345), not a vanity name; GET /v1/accounts/{accountId}/linkedin-organizations lists the ids';
      let id: string | undefined;
      if (sel.urn !== undefined) {
        const m = ORG_URN.exec(sel.urn);
        if (!m) throw fieldError('selectedOrganization.urn', `"${sel.urn}" is not an organization URN: ${vanity}`);
        id = m[1];
      }
      if (sel.id !== undefined) {
        const sid = String(sel.id);
        if (!/^\d+$/.test(sid)) throw fieldError('selectedOrganization.id', `"${sid}" is not a numeric company id: ${vanity}`);
        if (id && id !== sid) throw fieldError('selectedOrganization.id', `does not match the urn (${id})`);
        id = sid;
      }
      const admin = await adminOrgIds(a);
      if (!admin.includes(id!)) {
        throw new AppError('FORBIDDEN', `The LinkedIn member is not an approved administrator of urn:li:organization:${id}; only organizations from GET /v1/accounts/{accountId}/linkedin-organizations can be selected`, { platform: 'linkedin' });
      }
      const org = await organization(a, id!);
      const selected = {
        id: org.id, urn: org.urn, name: org.localizedName || sel.name || org.urn, vanityName: org.vanityName,
        ...(sel.manual !== undefined ? { manual: sel.manual } : {}), ...(sel.sourceUrl ? { sourceUrl: sel.sourceUrl } : {}),
      };
      const row = await repo.mergeSettings(a.id, { accountType: 'organization', selectedOrganization: selected });
      return { message: `The LinkedIn account now publishes as ${selected.name}`, account: toAccountView(row) };
    },
  };
}

export type LinkedInService = ReturnType<typeof createLinkedInService>;
