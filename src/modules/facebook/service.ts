/**
 * Facebook Pages of a connected account (choosing the Page at connect time is Facebook's choose
 * step, src/platforms/facebook/connect.ts, run by ../connect/choose-service.ts).
 *
 * - `pagesForAccount`: GET /v1/accounts/{id}/facebook-page — the Pages the stored user token
 *   administers (tasks include MANAGE) and the current one.
 * - `switchPage`: PUT /v1/accounts/{id}/facebook-page — re-reads the user's Pages with the
 *   stored user token and moves the account to another administered Page.
 *
 * Errors: 403 for a Page the user does not administer (none of their Pages, or one whose tasks
 * lack MANAGE); 400 asking to reconnect when Facebook refuses the user token; 502 when Facebook
 * cannot be reached; 409 when the Page is already connected as another account of the profile.
 */
import { AppError } from '../../core/errors.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import { administeredPage, isFacebookPageAdmin, listFacebookPageRoles, type FacebookPage } from '../../platforms/facebook/pages.ts';
import type { AuthContext } from '../auth/context.ts';
import { toAccountView } from '../accounts/service.ts';
import type { AccountsRepository } from '../accounts/repository.ts';
import { apiErrorFrom, needsReconnect, type AuthorizationWording } from '../accounts/platform-errors.ts';

const FACEBOOK: AuthorizationWording = { platform: 'facebook', refused: (msg) => `Facebook refused the authorization (${msg}); connect Facebook again` };

export function createFacebookService(deps: { repository: AccountsRepository; adapters: AdapterRegistry }) {
  const { repository: repo, adapters } = deps;

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

  return {
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
      const page = administeredPage(pages, selectedPageId);
      if (!page.access_token) throw new AppError('PLATFORM_ERROR', 'Facebook did not return a token for this page', { platform: 'facebook' });
      if (await repo.platformAccountTaken(a.profile_id, 'facebook', page.id, a.id)) throw new AppError('CONFLICT', `The Facebook page ${page.name} is already connected to this profile as another account`, { platform: 'facebook' });
      const next = { ...creds, accessToken: page.access_token };
      // The picture is the new page's (none when Facebook gives none): never the previous page's.
      const row = await repo.moveTo(a.id, { platformUserId: page.id, name: page.name, profilePicture: page.picture?.data?.url ?? null, credentials: next, settings: { selectedPageId: page.id, selectedPageName: page.name } });
      return { message: `The Facebook account now publishes to ${page.name}`, selectedPage: { id: page.id, name: page.name }, account: toAccountView(row) };
    },
  };
}

