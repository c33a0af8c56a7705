/**
 * Facebook Pages (spec.md section 7): after OAuth the user picks a Page they administer.
 *
 * - `listPages`: GET /v1/connect/facebook/select-page — the Pages of the selection's user
 *   token whose tasks include MANAGE or CREATE_CONTENT (others are never offered).
 * - `selectPage`: POST /v1/connect/facebook/select-page — consumes the tempToken once and
 *   stores the account: platformUserId = the Page id, credentials = the Page token plus the
 *   long-lived user token (kept to switch pages later), settings selectedPageId/Name.
 * - `switchPage`: PUT /v1/accounts/{id}/facebook-page — re-reads the user's Pages with the
 *   stored user token and moves the account to another administered Page.
 *
 * Errors: 400 for a bad/used/expired tempToken; 403 for a Page the user does not administer;
 * 400 asking to reconnect when Facebook refuses the user token; 502 when Facebook cannot be
 * reached; 409 when the Page is already connected as another account of the profile.
 */
import { AppError } from '../../core/errors.ts';
import type { SecretBox } from '../../core/crypto.ts';
import type { Db } from '../../storage/db.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import { listFacebookPages, type FacebookPage } from '../../platforms/facebook/oauth.ts';
import { AdapterError } from '../../platforms/types.ts';
import type { AuthContext } from '../auth/context.ts';
import { getAccessibleAccount, toAccountView, type AccountRow, type AccountsService } from '../accounts/service.ts';
import { pageView, redirectWith, type FacebookSelectionPayload } from '../connect/oauth-service.ts';
import { createSelectionStore } from '../connect/selection.ts';

export function createFacebookService(deps: { db: Db; secrets: SecretBox; adapters: AdapterRegistry; accounts: AccountsService; clock: () => Date }) {
  const { db, secrets, adapters } = deps;
  const selections = createSelectionStore({ db, secrets, clock: deps.clock });

  async function pagesOf(userToken: string, onRefused?: (msg: string) => Promise<void>): Promise<FacebookPage[]> {
    const { app } = adapters.oauth('facebook');
    try {
      return await listFacebookPages(app, userToken);
    } catch (err) {
      if (!(err instanceof AdapterError)) throw err;
      if (err.kind === 'auth_expired' || err.kind === 'disconnected') {
        await onRefused?.(err.message);
        throw new AppError('BAD_REQUEST', `Facebook refused the authorization (${err.message}); connect Facebook again`, { platform: 'facebook' });
      }
      if (err.kind === 'rejected') throw new AppError('BAD_REQUEST', err.message, { platform: 'facebook' });
      throw new AppError('PLATFORM_ERROR', `Facebook could not be reached: ${err.message}`, { platform: 'facebook' });
    }
  }

  const notAdmin = (id: string) => new AppError('FORBIDDEN', `You do not administer the Facebook page ${id} (its tasks must include MANAGE or CREATE_CONTENT); pick one of the listed pages`, { platform: 'facebook' });

  return {
    async listPages(auth: AuthContext, profileId: string, tempToken: string) {
      const sel = await selections.peek<FacebookSelectionPayload>(auth, 'facebook', profileId, tempToken);
      return { pages: (await pagesOf(sel.payload.tokens.accessToken)).map(pageView) };
    },

    async selectPage(auth: AuthContext, input: { profileId: string; pageId: string; tempToken: string; redirect_url?: string; userProfile?: { id?: string; name?: string; profilePicture?: string } }) {
      const sel = await selections.peek<FacebookSelectionPayload>(auth, 'facebook', input.profileId, input.tempToken);
      const pages = await pagesOf(sel.payload.tokens.accessToken);
      const page = pages.find((p) => p.id === input.pageId);
      if (!page) throw notAdmin(input.pageId);
      if (!page.access_token) throw new AppError('PLATFORM_ERROR', 'Facebook did not return a token for this page', { platform: 'facebook' });
      await selections.consume(sel.token);
      const u = sel.payload.user;
      const account = await deps.accounts.upsertConnected(auth, sel.profileId, 'facebook', {
        platformUserId: page.id, username: page.name, displayName: page.name, profilePicture: page.picture?.data?.url ?? input.userProfile?.profilePicture ?? u.profilePicture,
        credentials: { accessToken: page.access_token, refreshToken: null, expiresAt: null, userAccessToken: sel.payload.tokens.accessToken, userTokenExpiresAt: sel.payload.tokens.expiresAt ?? null, scope: sel.payload.tokens.scope },
        // The Page token does not expire (UNCONFIRMED, platforms.md 1.1); no refresh is possible.
        tokenExpiresAt: null,
        settings: { selectedPageId: page.id, selectedPageName: page.name, facebookUserId: u.id, facebookUserName: input.userProfile?.name ?? u.name ?? null },
        permissions: ['posts:write', 'posts:read'],
      });
      const target = input.redirect_url ?? sel.redirectUrl;
      const redirect = target ? redirectWith(target, { connected: 'facebook', profileId: sel.profileId, username: page.name, accountId: account.id }) : null;
      return { message: 'Facebook page connected successfully', ...(redirect ? { redirect_url: redirect } : {}), account: { ...toAccountView(account), accountId: account.id } };
    },

    async switchPage(auth: AuthContext, accountId: string, selectedPageId: string) {
      const a = await getAccessibleAccount(db, auth, accountId);
      if (a.platform !== 'facebook') throw new AppError('BAD_REQUEST', `Account ${accountId} is a ${a.platform} account, not a Facebook account`, { platform: a.platform });
      const creds = secrets.openJson<Record<string, unknown>>(a.credentials);
      if (typeof creds.userAccessToken !== 'string') throw new AppError('BAD_REQUEST', 'This Facebook account has no user authorization stored; connect Facebook again to switch pages', { platform: 'facebook' });
      const pages = await pagesOf(creds.userAccessToken, async (msg) => {
        await db.query('UPDATE accounts SET is_active = false, inactive_reason = $2, updated_at = now() WHERE id = $1', [a.id, `${msg}; reconnect the account`]);
      });
      const page = pages.find((p) => p.id === selectedPageId);
      if (!page) throw notAdmin(selectedPageId);
      if (!page.access_token) throw new AppError('PLATFORM_ERROR', 'Facebook did not return a token for this page', { platform: 'facebook' });
      const { rows: clash } = await db.query('SELECT 1 FROM accounts WHERE profile_id = $1 AND platform = $2 AND platform_user_id = $3 AND id <> $4', [a.profile_id, 'facebook', page.id, a.id]);
      if (clash.length) throw new AppError('CONFLICT', `The Facebook page ${page.name} is already connected to this profile as another account`, { platform: 'facebook' });
      const next = { ...creds, accessToken: page.access_token };
      const { rows } = await db.query<AccountRow>(
        `UPDATE accounts SET platform_user_id = $2, username = $3, display_name = $3, credentials = $4, is_active = true, inactive_reason = NULL,
                settings = settings || $5::jsonb, updated_at = now() WHERE id = $1 RETURNING *`,
        [a.id, page.id, page.name, secrets.sealJson(next), JSON.stringify({ selectedPageId: page.id, selectedPageName: page.name })]);
      return { message: `The Facebook account now publishes to ${page.name}`, selectedPage: { id: page.id, name: page.name }, account: toAccountView(rows[0]) };
    },
  };
}

