/**
 * Threads OAuth 2.0
 * (https://developers.facebook.com/documentation/threads/get-started/get-access-tokens-and-permissions,
 * https://developers.facebook.com/docs/threads/get-started/long-lived-tokens):
 * authorization code without PKCE, using the
 * **Threads** app id and secret. The code exchange (`POST /oauth/access_token`, form
 * parameters, answers `{access_token, user_id}`, valid 1 hour) is followed at once by the
 * long-lived exchange (`GET /access_token?grant_type=th_exchange_token`, 60 days). There is
 * no refresh token: `refresh` calls `GET /refresh_access_token?grant_type=th_refresh_token`
 * with the long-lived token itself, which Threads allows once the token is at least 24 hours
 * old and not yet expired; an expired token cannot be refreshed (the account must reconnect).
 * Sources: https://developers.facebook.com/documentation/threads/get-started/get-access-tokens-and-permissions,
 * https://developers.facebook.com/docs/threads/get-started/long-lived-tokens.
 * Neither response has `token_type`, so oauth4webapi's strict RFC 6749 processing does not
 * apply; the calls use plain fetch.
 */
import type { OAuthProvider, OAuthTokens, PlatformApp } from '../oauth.ts';
import { AdapterError } from '../types.ts';
import { graphJson } from '../meta/graph.ts';
import { PLAIN_OAUTH, type ConnectShape } from '../connect-shape.ts';

/** API host (graph.threads.net; graph.threads.com is also accepted) and the authorization page host. */
export const THREADS_DEFAULTS = { apiBaseUrl: 'https://graph.threads.net', authBaseUrl: 'https://threads.net' };
/** Graph API version prefix of the Threads endpoints. */
export const THREADS_API_VERSION = 'v1.0';
/**
 * threads_basic for every call, threads_content_publish to publish, threads_manage_replies to
 * publish replies, threads_read_replies to read the user's replies back when checking an
 * interrupted thread (https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies),
 * threads_delete to unpublish (https://developers.facebook.com/docs/threads/posts/delete-posts).
 */
export const THREADS_SCOPES = ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_read_replies', 'threads_manage_insights', 'threads_delete'];

interface LongLived { access_token: string; token_type?: string; expires_in?: number }

const toTokens = (r: LongLived, scope?: string[]): OAuthTokens => ({
  accessToken: r.access_token,
  refreshToken: null,
  expiresAt: typeof r.expires_in === 'number' ? new Date(Date.now() + r.expires_in * 1000).toISOString() : null,
  scope,
});

/** Token-endpoint failures are refusals of the grant (bad code, dead token), except network/5xx. */
function asGrantError(err: unknown, what: string, kindForRefusal: 'rejected' | 'disconnected'): AdapterError {
  if (err instanceof AdapterError && err.kind !== 'transient' && err.kind !== 'rate_limited') {
    return new AdapterError(kindForRefusal, `${what} failed: ${err.message}`, err.opts);
  }
  return err instanceof AdapterError ? err : new AdapterError('transient', `${what} failed: ${(err as Error).message}`);
}

export const threadsOAuth: OAuthProvider = {
  platform: 'threads',
  usesPkce: false,
  scopes: THREADS_SCOPES,
  authorizeUrl(app, p) {
    const u = new URL(`${app.authBaseUrl}/oauth/authorize`);
    u.search = new URLSearchParams({
      client_id: app.clientId, redirect_uri: p.redirectUri, scope: THREADS_SCOPES.join(','), response_type: 'code', state: p.state,
    }).toString();
    return u.toString();
  },
  /** Code -> short-lived token -> long-lived (60-day) token. @throws AdapterError rejected (bad code) or transient. */
  async exchangeCode(app: PlatformApp, p) {
    try {
      const short = await graphJson<{ access_token: string; user_id?: string | number }>(app.apiBaseUrl, '/oauth/access_token', {
        method: 'POST',
        form: { client_id: app.clientId, client_secret: app.clientSecret, code: p.code, grant_type: 'authorization_code', redirect_uri: p.redirectUri },
      });
      const long = await graphJson<LongLived>(app.apiBaseUrl, '/access_token', {
        query: { grant_type: 'th_exchange_token', client_secret: app.clientSecret, access_token: short.body.access_token },
      });
      return toTokens(long.body, THREADS_SCOPES);
    } catch (err) {
      throw asGrantError(err, 'authorization code exchange', 'rejected');
    }
  },
  /**
   * Extends the long-lived token by 60 days (th_refresh_token).
   * @throws AdapterError disconnected when Threads refuses (expired, revoked, or younger than 24 h).
   */
  async refresh(app, tokens) {
    try {
      const r = await graphJson<LongLived>(app.apiBaseUrl, '/refresh_access_token', {
        query: { grant_type: 'th_refresh_token', access_token: tokens.accessToken },
      });
      return { ...toTokens(r.body, tokens.scope), scope: tokens.scope };
    } catch (err) {
      throw asGrantError(err, 'refresh', 'disconnected');
    }
  },
  async identify(app, tokens) {
    const { body } = await graphJson<{ id: string; username: string; name?: string; threads_profile_picture_url?: string }>(
      app.apiBaseUrl, `/${THREADS_API_VERSION}/me`, { token: tokens.accessToken, query: { fields: 'id,username,name,threads_profile_picture_url' } });
    return {
      platformUserId: String(body.id),
      username: body.username,
      displayName: body.name ?? body.username,
      profilePicture: body.threads_profile_picture_url,
      permissions: ['posts:write', 'posts:read'],
    };
  },
};

/** How Threads connects: plain OAuth 2.0 (the account is stored when the code is exchanged; decision 0051). */
export const threadsConnect: ConnectShape = PLAIN_OAUTH;
