/**
 * Facebook Login for Pages
 * (https://developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived):
 * authorization code without PKCE,
 * comma-separated scopes, the code exchanged with `GET /{v}/oauth/access_token` (query
 * parameters, not RFC 6749's POST) and at once for a **long-lived** user token
 * (`grant_type=fb_exchange_token`, about 60 days). There is no refresh token: the user
 * reconnects before the 60 days are up. Sources:
 * https://developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived,
 * https://developers.facebook.com/docs/pages/getting-started.
 *
 * Herald does not publish with the user token: after OAuth the user picks a Page
 * (GET/POST /v1/connect/facebook/select-page) and the **Page** token from `/me/accounts` is
 * stored on the account. Page tokens obtained with a long-lived user token are widely
 * reported not to expire (**UNCONFIRMED**: no official page says so); they stop working on a
 * password change, role loss or app removal, which Graph reports as code 190 and Herald
 * turns into "reconnect the account".
 */
import type { OAuthProvider, OAuthTokens } from '../oauth.ts';
import { AdapterError } from '../types.ts';
import { graphJson } from '../meta/graph.ts';

/** API host and the login dialog host. */
export const FACEBOOK_DEFAULTS = { apiBaseUrl: 'https://graph.facebook.com', authBaseUrl: 'https://www.facebook.com' };
/** Graph API version prefix (v25.0 is the latest the Graph docs pages use; some already show v26.0). */
export const FACEBOOK_API_VERSION = 'v25.0';
/** List pages, read and publish as them, comment (first comments), and videos. */
export const FACEBOOK_SCOPES = ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'pages_manage_engagement', 'business_management', 'publish_video', 'read_insights'];
interface TokenResponse { access_token: string; token_type?: string; expires_in?: number }

function asGrantError(err: unknown, what: string): AdapterError {
  if (err instanceof AdapterError && err.kind !== 'transient' && err.kind !== 'rate_limited') return new AdapterError('rejected', `${what} failed: ${err.message}`, err.opts);
  return err instanceof AdapterError ? err : new AdapterError('transient', `${what} failed: ${(err as Error).message}`);
}

export const facebookOAuth: OAuthProvider = {
  platform: 'facebook',
  usesPkce: false,
  scopes: FACEBOOK_SCOPES,
  authorizeUrl(app, p) {
    const u = new URL(`${app.authBaseUrl}/${FACEBOOK_API_VERSION}/dialog/oauth`);
    u.search = new URLSearchParams({ client_id: app.clientId, redirect_uri: p.redirectUri, state: p.state, scope: FACEBOOK_SCOPES.join(','), response_type: 'code' }).toString();
    return u.toString();
  },
  /** Code -> short-lived user token -> long-lived (60-day) user token. @throws AdapterError rejected or transient. */
  async exchangeCode(app, p) {
    try {
      const short = await graphJson<TokenResponse>(app.apiBaseUrl, `/${FACEBOOK_API_VERSION}/oauth/access_token`, {
        query: { client_id: app.clientId, redirect_uri: p.redirectUri, client_secret: app.clientSecret, code: p.code },
      });
      const long = await graphJson<TokenResponse>(app.apiBaseUrl, `/${FACEBOOK_API_VERSION}/oauth/access_token`, {
        query: { grant_type: 'fb_exchange_token', client_id: app.clientId, client_secret: app.clientSecret, fb_exchange_token: short.body.access_token },
      });
      let scope = FACEBOOK_SCOPES;
      try {
        const perms = await graphJson<{ data?: Array<{ permission: string; status: string }> }>(app.apiBaseUrl, `/${FACEBOOK_API_VERSION}/me/permissions`, { token: long.body.access_token });
        scope = (perms.body.data ?? []).filter((d) => d.status === 'granted').map((d) => d.permission);
      } catch { /* the granted list is informative only */ }
      const tokens: OAuthTokens = {
        accessToken: long.body.access_token, refreshToken: null, scope,
        expiresAt: typeof long.body.expires_in === 'number' ? new Date(Date.now() + long.body.expires_in * 1000).toISOString() : null,
      };
      return tokens;
    } catch (err) {
      throw asGrantError(err, 'authorization code exchange');
    }
  },
  async identify(app, tokens) {
    const { body } = await graphJson<{ id: string; name?: string; picture?: { data?: { url?: string } } }>(app.apiBaseUrl, `/${FACEBOOK_API_VERSION}/me`, {
      token: tokens.accessToken, query: { fields: 'id,name,picture' },
    });
    return { platformUserId: String(body.id), username: body.name ?? String(body.id), displayName: body.name, profilePicture: body.picture?.data?.url, permissions: ['posts:write', 'posts:read'] };
  },
};
