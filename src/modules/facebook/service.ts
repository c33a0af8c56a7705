/**
 * Facebook Pages: after OAuth the user picks a Page they administer.
 *
 * - `listPages`: GET /v1/connect/facebook/select-page — the Pages of the selection's user
 *   token whose tasks include MANAGE, admin rights (others are never offered: a role with only
 *   CREATE_CONTENT is refused when chosen, saying so).
 * - `selectPage`: POST /v1/connect/facebook/select-page — consumes the tempToken once and
 *   stores the account: platformUserId = the Page id, credentials = the Page token plus the
 *   long-lived user token (kept to switch pages later), settings selectedPageId/Name.
 * - `switchPage`: PUT /v1/accounts/{id}/facebook-page — re-reads the user's Pages with the
 *   stored user token and moves the account to another administered Page.
 *
 * Errors: 400 for a bad/used/expired tempToken; 403 for a Page the user does not administer
 * (none of their Pages, or one whose tasks lack MANAGE);
 * 400 asking to reconnect when Facebook refuses the user token; 502 when Facebook cannot be
 * reached; 409 when the Page is already connected as another account of the profile.
 */
import { AppError } from '../../core/errors.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import { FACEBOOK_ADMIN_TASK, isFacebookPageAdmin, listFacebookPageRoles, type FacebookPage } from '../../platforms/facebook/pages.ts';
import type { AuthContext } from '../auth/context.ts';
import { toAccountView, type AccountsService, type StoredHook } from '../accounts/service.ts';
import type { AccountsRepository } from '../accounts/repository.ts';
import { apiErrorFrom, needsReconnect, type AuthorizationWording } from '../accounts/platform-errors.ts';
import { pageView, type FacebookSelectionPayload } from '../connect/oauth-service.ts';
import { redirectWith } from '../connect/redirect.ts';
import type { SelectionStore } from '../connect/selection.ts';

const FACEBOOK: AuthorizationWording = { platform: 'facebook', refused: (msg) => `Facebook refused the authorization (${msg}); connect Facebook again` };

export function createFacebookService(deps: { accounts: AccountsService; repository: AccountsRepository; adapters: AdapterRegistry; selections: SelectionStore }) {
  const { repository: repo, adapters, selections } = deps;

  /** Every Page the user has a role on (with its tasks); only the administered ones are offered or connected. */
  async function pagesOf(userToken: string, onRefused?: (msg: string) => Promise<void>): Promise<FacebookPage[]> {
    const { app } = adapters.oauth('facebook');
    try {
      return await listFacebookPageRoles(app, userToken);
    } catch (err) {
      if (needsReconnect(err, FACEBOOK)) await onRefused?.((err as Error).message);
      throw apiErrorFrom(err, 'Facebook', FACEBOOK);
    }
  }

  const notAdmin = (id: string) => new AppError('FORBIDDEN', `You do not administer the Facebook page ${id} (its tasks must include ${FACEBOOK_ADMIN_TASK}); pick one of the listed pages`, { platform: 'facebook' });

  /**
   * The administered Page `id` among the user's Pages. @throws 403 for a Page not among them, or
   * one whose tasks lack MANAGE (e.g. an editor's CREATE_CONTENT), saying which tasks it has.
   */
  function administered(pages: FacebookPage[], id: string): FacebookPage {
    const page = pages.find((p) => p.id === id);
    if (!page) throw notAdmin(id);
    if (!isFacebookPageAdmin(page)) {
      const tasks = page.tasks ?? [];
      throw new AppError('FORBIDDEN',
        `You do not administer the Facebook page ${page.name} (${page.id}): your role on it has the tasks ${tasks.join(', ') || 'none'} but not ${FACEBOOK_ADMIN_TASK}. ` +
        'Herald connects only pages you administer (full control); ask an admin of the page to give you full control, or pick one of the listed pages',
        { platform: 'facebook', pageId: page.id, tasks, requiredTask: FACEBOOK_ADMIN_TASK });
    }
    return page;
  }

  return {
    async listPages(auth: AuthContext, profileId: string, tempToken: string) {
      const sel = await selections.peek<FacebookSelectionPayload>(auth, 'facebook', profileId, tempToken);
      return { pages: (await pagesOf(sel.payload.tokens.accessToken)).filter(isFacebookPageAdmin).map(pageView) };
    },

    /** `within`: runs in the transaction storing the account (a platform invite's use). */
    async selectPage(auth: AuthContext, input: { profileId: string; pageId: string; tempToken: string; redirect_url?: string; userProfile?: { id?: string; name?: string; profilePicture?: string } }, within?: StoredHook) {
      const sel = await selections.peek<FacebookSelectionPayload>(auth, 'facebook', input.profileId, input.tempToken);
      const page = administered(await pagesOf(sel.payload.tokens.accessToken), input.pageId);
      if (!page.access_token) throw new AppError('PLATFORM_ERROR', 'Facebook did not return a token for this page', { platform: 'facebook' });
      await selections.consume(sel.token);
      const u = sel.payload.user;
      const account = await deps.accounts.upsertConnected(auth, sel.profileId, 'facebook', {
        platformUserId: page.id, username: page.name, displayName: page.name, profilePicture: page.picture?.data?.url ?? input.userProfile?.profilePicture ?? u.profilePicture,
        credentials: { accessToken: page.access_token, refreshToken: null, expiresAt: null, userAccessToken: sel.payload.tokens.accessToken, userTokenExpiresAt: sel.payload.tokens.expiresAt ?? null, scope: sel.payload.tokens.scope },
        // Page tokens from a long-lived user token are reported not to expire (unconfirmed; https://developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived); no refresh is possible.
        tokenExpiresAt: null,
        settings: { selectedPageId: page.id, selectedPageName: page.name, facebookUserId: u.id, facebookUserName: input.userProfile?.name ?? u.name ?? null },
        permissions: ['posts:write', 'posts:read'],
      }, within);
      const target = input.redirect_url ?? sel.redirectUrl;
      const redirect = target ? redirectWith(target, { connected: 'facebook', profileId: sel.profileId, username: page.name, accountId: account.id }) : null;
      return { message: 'Facebook page connected successfully', ...(redirect ? { redirect_url: redirect } : {}), account: { ...toAccountView(account), accountId: account.id } };
    },

    /**
     * The pages the account's Facebook user administers (tasks include MANAGE), for a page
     * switch, and the page it publishes to now. Never includes page tokens.
     * @throws 400 when the account is not Facebook or holds no user authorization; 502 when Facebook is unreachable.
     */
    async pagesForAccount(auth: AuthContext, accountId: string) {
      const a = await repo.accessible(auth, accountId);
      if (a.platform !== 'facebook') throw new AppError('BAD_REQUEST', `Account ${accountId} is a ${a.platform} account, not a Facebook account`, { platform: a.platform });
      const creds = repo.credentialsOf(a);
      if (typeof creds.userAccessToken !== 'string') throw new AppError('BAD_REQUEST', 'This Facebook account has no user authorization stored; connect Facebook again to switch pages', { platform: 'facebook' });
      const pages = await pagesOf(creds.userAccessToken, async (msg) => {
        await repo.markNeedsReconnect(a.id, `${msg}; reconnect the account`);
      });
      return {
        selectedPageId: a.platform_user_id,
        pages: pages.filter(isFacebookPageAdmin).map((p) => ({ id: p.id, name: p.name, category: p.category ?? '', picture: p.picture?.data?.url ?? null })),
      };
    },

    async switchPage(auth: AuthContext, accountId: string, selectedPageId: string) {
      const a = await repo.accessible(auth, accountId);
      if (a.platform !== 'facebook') throw new AppError('BAD_REQUEST', `Account ${accountId} is a ${a.platform} account, not a Facebook account`, { platform: a.platform });
      const creds = repo.credentialsOf(a);
      if (typeof creds.userAccessToken !== 'string') throw new AppError('BAD_REQUEST', 'This Facebook account has no user authorization stored; connect Facebook again to switch pages', { platform: 'facebook' });
      const pages = await pagesOf(creds.userAccessToken, async (msg) => {
        await repo.markNeedsReconnect(a.id, `${msg}; reconnect the account`);
      });
      const page = administered(pages, selectedPageId);
      if (!page.access_token) throw new AppError('PLATFORM_ERROR', 'Facebook did not return a token for this page', { platform: 'facebook' });
      if (await repo.platformAccountTaken(a.profile_id, 'facebook', page.id, a.id)) throw new AppError('CONFLICT', `The Facebook page ${page.name} is already connected to this profile as another account`, { platform: 'facebook' });
      const next = { ...creds, accessToken: page.access_token };
      // The picture is the new page's (none when Facebook gives none): never the previous page's.
      const row = await repo.moveTo(a.id, { platformUserId: page.id, name: page.name, profilePicture: page.picture?.data?.url ?? null, credentials: next, settings: { selectedPageId: page.id, selectedPageName: page.name } });
      return { message: `The Facebook account now publishes to ${page.name}`, selectedPage: { id: page.id, name: page.name }, account: toAccountView(row) };
    },
  };
}

