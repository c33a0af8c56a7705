/**
 * The Facebook Pages a user administers, read with the user token from `GET /me/accounts`
 * (https://developers.facebook.com/docs/pages-api/getting-started,
 * https://developers.facebook.com/docs/graph-api/reference/user/accounts/): the Page
 * selection after OAuth and switching an account's Page use it.
 */
import { AppError } from '../../core/errors.ts';
import type { PlatformApp } from '../oauth.ts';
import { graphJson } from '../meta/graph.ts';
import { FACEBOOK_API_VERSION } from './oauth.ts';

/**
 * The Page task Herald requires to connect a Page: admin rights (full control). A role with
 * CREATE_CONTENT but not MANAGE (an editor or a partner business) is not offered and is refused
 * when chosen. Page tasks: https://developers.facebook.com/docs/pages-api/overview
 */
export const FACEBOOK_ADMIN_TASK = 'MANAGE';

/** A Page the user can act on, as `/me/accounts` lists it. */
export interface FacebookPage { id: string; name: string; access_token?: string; category?: string; tasks?: string[]; picture?: { data?: { url?: string } } }

/** True when the user's tasks on the Page include MANAGE (admin rights), the Pages Herald connects. */
export const isFacebookPageAdmin = (p: Pick<FacebookPage, 'tasks'>): boolean => (p.tasks ?? []).includes(FACEBOOK_ADMIN_TASK);

/**
 * Every Page the user has a role on, with its `tasks`, following `paging.next` until it is
 * absent: to say why a chosen Page is refused. @throws AdapterError
 */
export async function listFacebookPageRoles(app: PlatformApp, userToken: string): Promise<FacebookPage[]> {
  const out: FacebookPage[] = [];
  let path: string | null = `/${FACEBOOK_API_VERSION}/me/accounts?fields=id,name,access_token,category,tasks,picture&limit=100`;
  for (let i = 0; path && i < 50; i++) {
    const res: { body: { data?: FacebookPage[]; paging?: { next?: string } } } = await graphJson(app.apiBaseUrl, path, { token: userToken });
    out.push(...(res.body.data ?? []));
    const next: string | undefined = res.body.paging?.next;
    path = next ? (() => { const u = new URL(next); return u.pathname + u.search; })() : null;
  }
  return out;
}

/** The Pages the user administers (tasks include MANAGE): the only ones offered. @throws AdapterError */
export async function listFacebookPages(app: PlatformApp, userToken: string): Promise<FacebookPage[]> {
  return (await listFacebookPageRoles(app, userToken)).filter(isFacebookPageAdmin);
}

/**
 * The administered Page `id` among the user's Pages (every role, as {@link listFacebookPageRoles}
 * reads them), for connecting it or switching an account to it.
 * @throws AppError FORBIDDEN for a Page not among them, or one whose tasks lack MANAGE (e.g. an
 *   editor's CREATE_CONTENT), saying which tasks it has (details `pageId`, `tasks`, `requiredTask`).
 */
export function administeredPage(pages: FacebookPage[], id: string): FacebookPage {
  const page = pages.find((p) => p.id === id);
  if (!page) {
    throw new AppError('FORBIDDEN', `You do not administer the Facebook page ${id} (its tasks must include ${FACEBOOK_ADMIN_TASK}); pick one of the listed pages`, { platform: 'facebook' });
  }
  if (!isFacebookPageAdmin(page)) {
    const tasks = page.tasks ?? [];
    throw new AppError('FORBIDDEN',
      `You do not administer the Facebook page ${page.name} (${page.id}): your role on it has the tasks ${tasks.join(', ') || 'none'} but not ${FACEBOOK_ADMIN_TASK}. ` +
      'Herald connects only pages you administer (full control); ask an admin of the page to give you full control, or pick one of the listed pages',
      { platform: 'facebook', pageId: page.id, tasks, requiredTask: FACEBOOK_ADMIN_TASK });
  }
  return page;
}

/** A Page as the connect calls list it (`POST /v1/connect/facebook`, `GET /v1/connect/facebook/select-page`). */
export const facebookPageView = (p: FacebookPage) => ({ id: p.id, name: p.name, access_token: p.access_token, category: p.category ?? '', tasks: p.tasks ?? [] });
