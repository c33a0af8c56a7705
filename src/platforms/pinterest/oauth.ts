/**
 * Pinterest API v5 OAuth 2.0: authorization code, confidential client (HTTP Basic
 * `base64(client_id:client_secret)` on `POST /v5/oauth/token`), refresh with
 * `grant_type=refresh_token`. Scopes are comma-separated on the authorize URL.
 * Source: https://developers.pinterest.com/docs/getting-started/authentication-and-scopes/
 * (openapi: pinterest/api-description v5 `/oauth/token`).
 *
 * UNCONFIRMED facts, made configurable:
 * - PKCE: not used by the reference integration, claimed by a third-party guide; off by
 *   default, {@link createPinterestOAuth}`({ usePkce: true })` turns it on.
 * - Lifetimes (access ~30 days, refresh ~1 year) come from a third party: Herald always
 *   uses the `expires_in` of each answer. With "continuous refresh" Pinterest may send a
 *   new refresh token on refresh; the newest one received is stored.
 */
import { authorizationServer, standardExchange, standardRefresh, type OAuthProvider, type PlatformApp } from '../oauth.ts';
import { pinterestJson } from './http.ts';
import { PLAIN_OAUTH, type ConnectShape } from '../connect-shape.ts';

export const PINTEREST_DEFAULTS = { apiBaseUrl: 'https://api.pinterest.com', authBaseUrl: 'https://www.pinterest.com' };
/** Boards (incl. secret boards), pins, and the user's profile. */
export const PINTEREST_SCOPES = ['boards:read', 'boards:read_secret', 'boards:write', 'pins:read', 'pins:write', 'user_accounts:read'];

const as = (app: PlatformApp) => authorizationServer(app.authBaseUrl, `${app.apiBaseUrl}/v5/oauth/token`, `${app.authBaseUrl}/oauth/`);

/** Builds the Pinterest provider. `usePkce` (default false): PKCE support is UNCONFIRMED. */
export function createPinterestOAuth(opts: { usePkce?: boolean } = {}): OAuthProvider {
  const usePkce = opts.usePkce ?? false;
  return {
    platform: 'pinterest',
    usesPkce: usePkce,
    scopes: PINTEREST_SCOPES,
    authorizeUrl(app, p) {
      const u = new URL(`${app.authBaseUrl}/oauth/`);
      u.search = new URLSearchParams({
        client_id: app.clientId, redirect_uri: p.redirectUri, response_type: 'code', scope: PINTEREST_SCOPES.join(','), state: p.state,
        ...(usePkce && p.codeChallenge ? { code_challenge: p.codeChallenge, code_challenge_method: 'S256' } : {}),
      }).toString();
      return u.toString();
    },
    exchangeCode: (app, p) => standardExchange(as(app), app, p),
    refresh: (app, tokens) => standardRefresh(as(app), app, tokens),
    /** GET /v5/user_account -> `{ id?, username, profile_image, account_type }`. */
    async identify(app, tokens) {
      const { body } = await pinterestJson<{ id?: string; username: string; profile_image?: string; business_name?: string }>(
        app.apiBaseUrl, '/v5/user_account', { token: tokens.accessToken });
      return {
        platformUserId: body.id ?? body.username,
        username: body.username,
        displayName: body.business_name || body.username,
        profilePicture: body.profile_image,
        permissions: ['posts:write', 'posts:read'],
      };
    },
  };
}

export const pinterestOAuth: OAuthProvider = createPinterestOAuth();

/** How Pinterest connects: plain OAuth 2.0 (the account is stored when the code is exchanged; decision 0051). */
export const pinterestConnect: ConnectShape = PLAIN_OAUTH;
