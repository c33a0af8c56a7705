/**
 * How Facebook connects: OAuth, then the user chooses the Page the account publishes to
 * (docs/decisions/0016 and 0051). Only Pages the user administers (tasks include MANAGE,
 * https://developers.facebook.com/docs/pages-api/overview) are offered or connected. The stored
 * account is the Page: platformUserId = the Page id, credentials = the Page token plus the user
 * token (kept to switch Pages later), settings selectedPageId/Name and the Facebook user.
 */
import { Type } from 'typebox';
import { AppError } from '../../core/errors.ts';
import type { ChooseStep, ConnectShape } from '../connect-shape.ts';
import { administeredPage, facebookPageView, isFacebookPageAdmin, listFacebookPageRoles, listFacebookPages } from './pages.ts';

/** What a Page selection keeps sealed (connect_selections): the user token and who the user is. */
export interface FacebookSelectionPayload {
  tokens: { accessToken: string; expiresAt?: string | null; scope?: string[] };
  user: { id: string; name?: string; profilePicture?: string };
}

/** Late's `userProfile` of `POST /v1/connect/facebook/select-page`, used where Facebook gives nothing. */
interface UserProfileHint { name?: string; profilePicture?: string }

/** A Page the user administers, as the connect calls list it ({@link facebookPageView}). */
export const FacebookPageSchema = Type.Object({
  id: Type.String(), name: Type.String(),
  access_token: Type.Optional(Type.String({ description: 'The Page access token' })),
  category: Type.String(), tasks: Type.Array(Type.String()),
});

/** Choosing the Page. */
export const facebookPageStep: ChooseStep<FacebookSelectionPayload> = {
  noun: 'page',
  answerKey: 'pages',
  answerMessage: 'Choose the Facebook page to connect with POST /v1/connect/facebook/select-page',
  title: 'Choose the Facebook page',
  empty: 'No page was found that you administer. Only pages where you have full control (admin rights) can be connected; check that you granted access to the page, then start again.',

  async begin(app, tokens, identity) {
    const pages = await listFacebookPages(app, tokens.accessToken);
    return {
      payload: {
        tokens: { accessToken: tokens.accessToken, expiresAt: tokens.expiresAt ?? null, scope: tokens.scope },
        user: { id: identity.platformUserId, name: identity.displayName ?? identity.username, profilePicture: identity.profilePicture },
      },
      list: pages.map(facebookPageView),
    };
  },

  async choices(app, payload) {
    const pages = (await listFacebookPageRoles(app, payload.tokens.accessToken)).filter(isFacebookPageAdmin);
    return pages.map((p) => ({ value: p.id, label: p.name, hint: p.category ?? '', listed: facebookPageView(p) }));
  },

  async toAccount(app, payload, pageId, extra) {
    const page = administeredPage(await listFacebookPageRoles(app, payload.tokens.accessToken), pageId);
    if (!page.access_token) throw new AppError('PLATFORM_ERROR', 'Facebook did not return a token for this page', { platform: 'facebook' });
    const hint = (extra?.userProfile ?? undefined) as UserProfileHint | undefined;
    const u = payload.user;
    return {
      message: 'Facebook page connected successfully',
      account: {
        platformUserId: page.id, username: page.name, displayName: page.name, profilePicture: page.picture?.data?.url ?? hint?.profilePicture ?? u.profilePicture,
        credentials: {
          accessToken: page.access_token, refreshToken: null, expiresAt: null,
          userAccessToken: payload.tokens.accessToken, userTokenExpiresAt: payload.tokens.expiresAt ?? null, scope: payload.tokens.scope,
        },
        // Page tokens from a long-lived user token are reported not to expire (unconfirmed; https://developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived); no refresh is possible.
        tokenExpiresAt: null,
        settings: { selectedPageId: page.id, selectedPageName: page.name, facebookUserId: u.id, facebookUserName: hint?.name ?? u.name ?? null },
        permissions: ['posts:write', 'posts:read'],
      },
    };
  },

  wire: {
    listed: FacebookPageSchema,
    listedDescription: 'Facebook: the pages the user administers',
    list: {
      summary: 'List the Facebook pages the user administers (after OAuth)',
      description: 'Only pages the user administers (tasks include MANAGE); a page where the user only has CREATE_CONTENT is not offered. tempToken comes from the OAuth callback (1 hour, single use).',
      errors: [403, 502],
    },
    post: {
      summary: 'Connect the chosen Facebook page',
      description: 'Stores the page (its page token, sealed) as the account; the user must administer it, its tasks including MANAGE (403 saying so otherwise). Uses up the tempToken.',
      errors: [403, 502],
    },
    body: {
      pageId: Type.String({ minLength: 1, maxLength: 40 }),
      userProfile: Type.Optional(Type.Object({
        id: Type.Optional(Type.String({ maxLength: 100 })), name: Type.Optional(Type.String({ maxLength: 300 })), profilePicture: Type.Optional(Type.String({ maxLength: 2000 })),
      }, { additionalProperties: true })),
    },
    value: (body) => body.pageId as string,
    extra: (body) => ({ userProfile: body.userProfile }),
  },
};

/** Facebook's connect shape: OAuth, then the Page. */
export const facebookConnect: ConnectShape = { kind: 'oauth', choose: facebookPageStep };
