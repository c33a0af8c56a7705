/**
 * Google Business Profile connects with Google OAuth 2.0, web-server flow
 * (https://developers.google.com/identity/protocols/oauth2/web-server):
 * - authorize at `<auth>/o/oauth2/v2/auth` with the one scope every localPosts method lists,
 *   `https://www.googleapis.com/auth/business.manage`
 *   (https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/create),
 *   `access_type=offline` and `prompt=consent` (a refresh token on every consent) and PKCE S256;
 * - tokens at `https://oauth2.googleapis.com/token` (client_secret_basic); with a non-default
 *   `HERALD_GOOGLEBUSINESS_AUTH_URL` (a simulator or proxy) the token endpoint is `<auth>/token`;
 * - access tokens last about an hour and are refreshed like every platform's (src/platforms/oauth-session.ts);
 *   refresh tokens last until revoked, but 7 days for an app whose consent screen is External and
 *   in Testing (UNCONFIRMED for this API: Google's OAuth page states it for all scopes).
 *   `invalid_grant` on refresh means the account must reconnect (AdapterError disconnected).
 * - who connected: the scope gives no profile, so the identity is the user's first Business
 *   Profile account (Account Management API `accounts.list`, its PERSONAL account when listed).
 *   The account Herald stores is then the chosen location (./connect.ts).
 * API access is gated by Google: a project needs "Basic API Access" approval; until then every call
 * answers 429 (quota 0) (https://developers.google.com/my-business/content/prereqs).
 */
import { authorizationServer, standardExchange, standardRefresh, type OAuthProvider, type PlatformApp } from '../oauth.ts';
import { AdapterError } from '../types.ts';
import { googleAuthorizeUrl } from '../google/google.ts';
import { listGoogleAccounts } from './locations.ts';

/** API host (the v4 posts API; the other hosts follow it, ./google.ts) and the authorization host. */
export const GOOGLEBUSINESS_DEFAULTS = { apiBaseUrl: 'https://mybusiness.googleapis.com', authBaseUrl: 'https://accounts.google.com' };
export const GOOGLEBUSINESS_SCOPES = ['https://www.googleapis.com/auth/business.manage'];

/** The token endpoint: Google's, or `<auth>/token` on a configured host. */
export function googleTokenEndpoint(app: PlatformApp): string {
  return app.authBaseUrl === GOOGLEBUSINESS_DEFAULTS.authBaseUrl ? 'https://oauth2.googleapis.com/token' : `${app.authBaseUrl}/token`;
}

const as = (app: PlatformApp) => authorizationServer(app.authBaseUrl, googleTokenEndpoint(app), `${app.authBaseUrl}/o/oauth2/v2/auth`);

export const googlebusinessOAuth: OAuthProvider = {
  platform: 'googlebusiness',
  usesPkce: true,
  scopes: GOOGLEBUSINESS_SCOPES,
  authorizeUrl: (app, p) => googleAuthorizeUrl(app, GOOGLEBUSINESS_SCOPES, p),
  exchangeCode: (app, p) => standardExchange(as(app), app, p),
  refresh: (app, tokens) => standardRefresh(as(app), app, tokens),
  /** @throws AdapterError rejected when the Google account manages no Business Profile. */
  async identify(app, tokens) {
    const accounts = await listGoogleAccounts(app, tokens.accessToken);
    const who = accounts.find((a) => a.type === 'PERSONAL') ?? accounts[0];
    if (!who) throw new AdapterError('rejected', 'This Google account manages no Business Profile; create or claim one on business.google.com, then connect again');
    const id = who.name.replace(/^accounts\//, '');
    return { platformUserId: id, username: who.accountName ?? id, displayName: who.accountName ?? id, permissions: ['posts:write', 'posts:read'] };
  },
};
