/**
 * LinkedIn authors (spec.md section 7, "Accounts and connecting"): a connected LinkedIn
 * account publishes as the member (accountType 'personal', the default after OAuth) or as
 * one organization page the member administers (accountType 'organization').
 *
 * - `listOrganizations`: the organizations the member ADMINISTERS, read from LinkedIn
 *   (`GET /rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED`, then
 *   `GET /rest/organizations/{id}` for names; platforms.md 4.2).
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
import type { SecretBox } from '../../core/crypto.ts';
import type { Db } from '../../storage/db.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import { withAccessToken } from '../../platforms/oauth-session.ts';
import { linkedinJson } from '../../platforms/linkedin/rest.ts';
import { AdapterError, type AccountContext, type AdapterContext } from '../../platforms/types.ts';
import type { AuthContext } from '../auth/context.ts';
import { getAccessibleAccount, toAccountView, type AccountRow } from '../accounts/service.ts';

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

const ORG_URN = /^urn:li:organization:(\d+)$/;

export function createLinkedInService(deps: { db: Db; secrets: SecretBox; adapters: AdapterRegistry }) {
  const { db, secrets, adapters } = deps;

  async function linkedinAccount(auth: AuthContext, accountId: string): Promise<AccountRow> {
    const a = await getAccessibleAccount(db, auth, accountId);
    if (a.platform !== 'linkedin') throw new AppError('BAD_REQUEST', `Account ${accountId} is a ${a.platform} account, not a LinkedIn account`, { platform: a.platform });
    return a;
  }

  /** Runs LinkedIn calls with the account's token (refreshed and persisted when needed). */
  async function withLinkedIn<T>(a: AccountRow, fn: (token: string, base: string) => Promise<T>): Promise<T> {
    const { provider, app } = adapters.oauth('linkedin');
    const account: AccountContext = { id: a.id, platformUserId: a.platform_user_id, username: a.username, credentials: secrets.openJson(a.credentials), settings: a.settings };
    const ctx: AdapterContext = {
      async saveCredentials(credentials, tokenExpiresAt) {
        await db.query('UPDATE accounts SET credentials = $2, token_expires_at = COALESCE($3, token_expires_at), updated_at = now() WHERE id = $1',
          [a.id, secrets.sealJson(credentials), tokenExpiresAt ?? null]);
      },
      fetchMedia: async () => { throw new Error('no media here'); },
      log: () => {},
    };
    try {
      return await withAccessToken(ctx, account, provider, app, (token) => fn(token, app.apiBaseUrl));
    } catch (err) {
      if (!(err instanceof AdapterError)) throw err;
      if (err.kind === 'disconnected' || err.kind === 'auth_expired') {
        await db.query('UPDATE accounts SET is_active = false, inactive_reason = $2, updated_at = now() WHERE id = $1', [a.id, err.message]);
        throw new AppError('BAD_REQUEST', `LinkedIn refused the account's authorization (${err.message}); reconnect the account`, { platform: 'linkedin' });
      }
      if (err.kind === 'rejected') throw new AppError('BAD_REQUEST', err.message, { platform: 'linkedin' });
      throw new AppError('PLATFORM_ERROR', `LinkedIn could not be reached: ${err.message}`, { platform: 'linkedin' });
    }
  }

  /** Organization ids (numeric strings) the member is an approved ADMINISTRATOR of. */
  async function adminOrgIds(a: AccountRow): Promise<string[]> {
    const body = await withLinkedIn(a, async (token, base) => (await linkedinJson<{ elements?: Array<{ organization?: string; role?: string; state?: string }> }>(base, '/rest/organizationAcls', {
      token, query: { q: 'roleAssignee', role: 'ADMINISTRATOR', state: 'APPROVED', count: 100 },
    })).body);
    return (body.elements ?? [])
      .filter((e) => e.role === 'ADMINISTRATOR' && e.state === 'APPROVED')
      .map((e) => ORG_URN.exec(e.organization ?? '')?.[1])
      .filter((x): x is string => Boolean(x));
  }

  async function organization(a: AccountRow, id: string): Promise<LinkedInOrganization> {
    const o = await withLinkedIn(a, async (token, base) => (await linkedinJson<{ id: number; localizedName?: string; vanityName?: string }>(base, `/rest/organizations/${id}`, { token })).body);
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
        const { rows } = await db.query<AccountRow>(
          `UPDATE accounts SET settings = (settings - 'selectedOrganization') || '{"accountType":"personal"}'::jsonb, updated_at = now() WHERE id = $1 RETURNING *`, [a.id]);
        return { message: 'The LinkedIn account now publishes as the member (personal profile)', account: toAccountView(rows[0]) };
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
      const { rows } = await db.query<AccountRow>(
        'UPDATE accounts SET settings = settings || $2::jsonb, updated_at = now() WHERE id = $1 RETURNING *',
        [a.id, JSON.stringify({ accountType: 'organization', selectedOrganization: selected })]);
      return { message: `The LinkedIn account now publishes as ${selected.name}`, account: toAccountView(rows[0]) };
    },
  };
}

export type LinkedInService = ReturnType<typeof createLinkedInService>;
