/**
 * The Facebook Pages a user administers, read with the user token from `GET /me/accounts`
 * (https://developers.facebook.com/docs/pages-api/getting-started,
 * https://developers.facebook.com/docs/graph-api/reference/user/accounts/): the Page
 * selection after OAuth and switching an account's Page use it.
 */
import type { PlatformApp } from '../oauth.ts';
import { graphJson } from '../meta/graph.ts';
import { FACEBOOK_API_VERSION } from './oauth.ts';

/** Page tasks that allow publishing; pages without one of them are not offered. */
export const FACEBOOK_PUBLISH_TASKS = ['MANAGE', 'CREATE_CONTENT'];

/** A Page the user can act on, as `/me/accounts` lists it. */
export interface FacebookPage { id: string; name: string; access_token?: string; category?: string; tasks?: string[]; picture?: { data?: { url?: string } } }

/**
 * The Pages the user administers (tasks include MANAGE or CREATE_CONTENT), following
 * `paging.next` until it is absent. @throws AdapterError
 */
export async function listFacebookPages(app: PlatformApp, userToken: string): Promise<FacebookPage[]> {
  const out: FacebookPage[] = [];
  let path: string | null = `/${FACEBOOK_API_VERSION}/me/accounts?fields=id,name,access_token,category,tasks,picture&limit=100`;
  for (let i = 0; path && i < 50; i++) {
    const res: { body: { data?: FacebookPage[]; paging?: { next?: string } } } = await graphJson(app.apiBaseUrl, path, { token: userToken });
    out.push(...(res.body.data ?? []));
    const next: string | undefined = res.body.paging?.next;
    path = next ? (() => { const u = new URL(next); return u.pathname + u.search; })() : null;
  }
  return out.filter((p) => (p.tasks ?? []).some((t) => FACEBOOK_PUBLISH_TASKS.includes(t)));
}
