/**
 * LinkedIn author selection at connect time (the routes are in ./linkedin-selection-routes.ts).
 *
 * When the member administers organizations (approved ADMINISTRATOR in
 * `GET /rest/organizationAcls?q=roleAssignee`), the OAuth callback does not store the account
 * at once: it keeps the tokens sealed under a tempToken (./selection.ts) and sends the browser
 * to the dashboard's `/dashboard/connect/linkedin/select-organization?tempToken&profileId`
 * (API completion answers `{ message, tempToken, organizations }`). The choice is posted to
 * POST /v1/connect/linkedin/select-organization `{profileId, tempToken, userProfile,
 * accountType: 'personal' | 'organization', selectedOrganization?}`, which stores the account
 * with accountType and selectedOrganization. A member with no organization (or whose app lacks
 * the organization scopes) is connected directly as a personal account, as before.
 */
import { AppError, fieldError } from '../../core/errors.ts';
import type { PlatformApp } from '../../platforms/oauth.ts';
import { linkedinAdminOrganizations, ORGANIZATION_URN as ORG_URN, type LinkedInOrgChoice } from '../../platforms/linkedin/organizations.ts';
import { AdapterError } from '../../platforms/types.ts';
import type { AuthContext } from '../auth/context.ts';
import { toAccountView, type AccountRow, type AccountsService, type StoredHook } from '../accounts/service.ts';
import type { AccountsRepository } from '../accounts/repository.ts';
import { redirectWith } from './redirect.ts';
import type { SelectionStore } from './selection.ts';

export type { LinkedInOrgChoice } from '../../platforms/linkedin/organizations.ts';

/** Payload of a LinkedIn selection (sealed in connect_selections). */
export interface LinkedInSelectionPayload {
  tokens: Record<string, unknown> & { accessToken: string; expiresAt?: string | null };
  identity: { platformUserId: string; username: string; displayName?: string; profilePicture?: string; permissions?: string[] };
  organizations: LinkedInOrgChoice[];
}

/** What POST /v1/connect/linkedin/select-organization accepts. */
export interface FinishLinkedInInput {
  profileId: string;
  tempToken: string;
  accountType: 'personal' | 'organization';
  selectedOrganization?: { id?: string | number; urn?: string; name?: string } | null;
  redirect_url?: string;
}

/**
 * Organizations the member is an approved ADMINISTRATOR of, with names. Any failure (missing
 * scope, LinkedIn down) answers [] so the member can still connect as a personal account.
 */
export async function adminOrganizationsOrNone(app: PlatformApp, token: string): Promise<LinkedInOrgChoice[]> {
  try {
    return await linkedinAdminOrganizations(app, token);
  } catch (err) {
    if (err instanceof AdapterError) return [];
    throw err;
  }
}

export function createLinkedInSelectionService(deps: { selections: SelectionStore; accounts: AccountsService; repository: AccountsRepository }) {
  const { selections } = deps;
  return {
    /** The organizations found for the tempToken; the tempToken stays valid. */
    async organizations(auth: AuthContext, profileId: string, tempToken: string) {
      const sel = await selections.peek<LinkedInSelectionPayload>(auth, 'linkedin', profileId, tempToken);
      return { organizations: sel.payload.organizations };
    },

    /**
     * Uses up the tempToken and stores the account as the member or the chosen organization;
     * `within` runs in the transaction storing it (a platform invite's use). @throws 400, 403 (not an administrator).
     */
    async finish(auth: AuthContext, b: FinishLinkedInInput, within?: StoredHook) {
      const sel = await selections.peek<LinkedInSelectionPayload>(auth, 'linkedin', b.profileId, b.tempToken);
      let selected: (LinkedInOrgChoice & Record<string, unknown>) | null = null;
      if (b.accountType === 'organization') {
        const so = b.selectedOrganization;
        if (!so || (so.id === undefined && !so.urn)) throw fieldError('selectedOrganization', 'is required for accountType organization: give its numeric id or urn (urn:li:organization:<numeric id>)');
        const vanity = 'use the numeric company id (urn:li:organization:12345), not a vanity name';
        let id: string | undefined;
        if (so.urn !== undefined) {
          const m = ORG_URN.exec(so.urn);
          if (!m) throw fieldError('selectedOrganization.urn', `"${so.urn}" is not an organization URN: ${vanity}`);
          id = m[1];
        }
        if (so.id !== undefined) {
          const sid = String(so.id);
          if (!/^\d+$/.test(sid)) throw fieldError('selectedOrganization.id', `"${sid}" is not a numeric company id: ${vanity}`);
          if (id && id !== sid) throw fieldError('selectedOrganization.id', `does not match the urn (${id})`);
          id = sid;
        }
        const org = sel.payload.organizations.find((o) => o.id === id);
        if (!org) throw new AppError('FORBIDDEN', `The LinkedIn member is not an approved administrator of urn:li:organization:${id}`, { platform: 'linkedin' });
        selected = { ...org, name: org.name || so.name || org.urn };
      }
      await selections.consume(sel.token);
      const { tokens, identity } = sel.payload;
      const account = await deps.accounts.upsertConnected(auth, sel.profileId, 'linkedin', {
        ...identity, credentials: tokens, tokenExpiresAt: tokens.expiresAt ? new Date(tokens.expiresAt) : null,
        permissions: identity.permissions ?? ['posts:write', 'posts:read'],
        settings: selected ? { accountType: 'organization', selectedOrganization: selected } : { accountType: 'personal' },
      }, within);
      let row: AccountRow = account;
      if (!selected) {
        row = await deps.repository.replaceSettings(account.id, ['selectedOrganization'], {}, { touch: false });
      }
      const view = toAccountView(row);
      const target = b.redirect_url ?? sel.redirectUrl;
      const redirect = target ? redirectWith(target, { connected: 'linkedin', profileId: sel.profileId, username: view.username, accountId: view._id }) : null;
      return {
        message: selected ? `LinkedIn connected: publishing as ${selected.name}` : 'LinkedIn connected: publishing as the member (personal profile)',
        ...(redirect ? { redirect_url: redirect } : {}), account: { ...view, accountId: view._id },
      };
    },
  };
}

export type LinkedInSelectionService = ReturnType<typeof createLinkedInSelectionService>;
