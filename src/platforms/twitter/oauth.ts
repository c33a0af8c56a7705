/**
 * X (Twitter) OAuth 2.0: authorization code with PKCE (required), confidential client
 * (Basic auth on the token endpoint), refresh with `offline.access`.
 * Source: https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code
 * and https://docs.x.com/fundamentals/authentication/oauth-2-0/user-access-token.
 * Access tokens live 2 hours; refresh tokens rotate
 * (UNCONFIRMED upstream; Herald always stores the newest one it receives).
 */
import { authorizationServer, standardExchange, standardRefresh, type OAuthProvider, type PlatformApp } from '../oauth.ts';
import { httpJson } from '../http.ts';
import { PLAIN_OAUTH, type ConnectShape } from '../connect-shape.ts';

export const X_DEFAULTS = { apiBaseUrl: 'https://api.x.com', authBaseUrl: 'https://x.com' };
export const X_SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'offline.access', 'media.write'];

const as = (app: PlatformApp) => authorizationServer(app.authBaseUrl, `${app.apiBaseUrl}/2/oauth2/token`, `${app.authBaseUrl}/i/oauth2/authorize`);

export const xOAuth: OAuthProvider = {
  platform: 'twitter',
  usesPkce: true,
  scopes: X_SCOPES,
  authorizeUrl(app, p) {
    const u = new URL(`${app.authBaseUrl}/i/oauth2/authorize`);
    u.search = new URLSearchParams({
      response_type: 'code', client_id: app.clientId, redirect_uri: p.redirectUri, scope: X_SCOPES.join(' '), state: p.state,
      code_challenge: p.codeChallenge!, code_challenge_method: 'S256',
    }).toString();
    return u.toString();
  },
  exchangeCode: (app, p) => standardExchange(as(app), app, p),
  refresh: (app, tokens) => standardRefresh(as(app), app, tokens),
  async identify(app, tokens) {
    const { body } = await httpJson<{ data: { id: string; username: string; name?: string; profile_image_url?: string } }>(
      app.apiBaseUrl, '/2/users/me', { token: tokens.accessToken, query: { 'user.fields': 'username,name,profile_image_url' } });
    return {
      platformUserId: body.data.id,
      username: body.data.username,
      displayName: body.data.name ?? body.data.username,
      profilePicture: body.data.profile_image_url,
      permissions: ['posts:write', 'posts:read'],
    };
  },
};

/** How X connects: plain OAuth 2.0 (the account is stored when the code is exchanged; decision 0051). */
export const xConnect: ConnectShape = PLAIN_OAUTH;
