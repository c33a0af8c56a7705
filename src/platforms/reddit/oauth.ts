/**
 * Reddit OAuth 2.0: authorization code, confidential client (HTTP Basic on the token
 * endpoint), `duration=permanent` so a refresh token is granted (it does not rotate: the
 * same refresh token keeps working until revoked). Access tokens live 60 minutes.
 * Source: https://github.com/reddit-archive/reddit/wiki/OAuth2.
 *
 * PKCE: whether Reddit supports it is UNCONFIRMED, so it is off by default and
 * switchable with {@link createRedditOAuth}`({ usePkce: true })`.
 * Hosts: the authorization page and the token endpoint are on `authBaseUrl`
 * (https://www.reddit.com), API calls on `apiBaseUrl` (https://oauth.reddit.com).
 */
import { authorizationServer, standardExchange, standardRefresh, type OAuthProvider, type PlatformApp } from '../oauth.ts';
import { redditJson } from './http.ts';
import { PLAIN_OAUTH, type ConnectShape } from '../connect-shape.ts';

export const REDDIT_DEFAULTS = { apiBaseUrl: 'https://oauth.reddit.com', authBaseUrl: 'https://www.reddit.com' };
/** identity (me), submit (post), read (listings, search), mysubreddits (the subreddit picker), flair, edit (delete a post: unpublish). */
export const REDDIT_SCOPES = ['identity', 'submit', 'read', 'mysubreddits', 'flair', 'edit'];

const as = (app: PlatformApp) => authorizationServer(app.authBaseUrl, `${app.authBaseUrl}/api/v1/access_token`, `${app.authBaseUrl}/api/v1/authorize`);

/** Builds the Reddit provider. `usePkce` (default false): PKCE support is UNCONFIRMED upstream. */
export function createRedditOAuth(opts: { usePkce?: boolean } = {}): OAuthProvider {
  const usePkce = opts.usePkce ?? false;
  return {
    platform: 'reddit',
    usesPkce: usePkce,
    scopes: REDDIT_SCOPES,
    authorizeUrl(app, p) {
      const u = new URL(`${app.authBaseUrl}/api/v1/authorize`);
      u.search = new URLSearchParams({
        client_id: app.clientId, response_type: 'code', state: p.state, redirect_uri: p.redirectUri, duration: 'permanent', scope: REDDIT_SCOPES.join(' '),
        ...(usePkce && p.codeChallenge ? { code_challenge: p.codeChallenge, code_challenge_method: 'S256' } : {}),
      }).toString();
      return u.toString();
    },
    exchangeCode: (app, p) => standardExchange(as(app), app, p),
    refresh: (app, tokens) => standardRefresh(as(app), app, tokens),
    /** GET /api/v1/me -> `{ id (base36, no t2_), name, icon_img }`. */
    async identify(app, tokens) {
      const { body } = await redditJson<{ id: string; name: string; icon_img?: string; subreddit?: { title?: string } }>(app, '/api/v1/me', { token: tokens.accessToken });
      return {
        platformUserId: body.id,
        username: body.name,
        displayName: body.subreddit?.title || body.name,
        profilePicture: body.icon_img ? body.icon_img.replace(/&amp;/g, '&') : undefined,
        permissions: ['posts:write', 'posts:read'],
      };
    },
  };
}

export const redditOAuth: OAuthProvider = createRedditOAuth();

/** How Reddit connects: plain OAuth 2.0 (the account is stored when the code is exchanged; decision 0051). */
export const redditConnect: ConnectShape = PLAIN_OAUTH;
