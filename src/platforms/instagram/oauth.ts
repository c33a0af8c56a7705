/**
 * Instagram API with Instagram Login
 * (https://developers.facebook.com/documentation/instagram-platform/reference/access_token,
 * .../reference/refresh_access_token): authorization code without
 * PKCE, comma-separated `instagram_business_*` scopes; the code is exchanged with
 * `POST https://api.instagram.com/oauth/access_token` (form; short-lived, 1 hour) and at once
 * for a 60-day token (`GET graph.instagram.com/access_token?grant_type=ig_exchange_token`).
 * `refresh` extends it with `grant_type=ig_refresh_token` (the token must be at least 24 hours
 * old and not expired; an expired token cannot be refreshed: reconnect).
 * Sources: https://developers.facebook.com/documentation/instagram-platform/reference/access_token,
 * .../reference/refresh_access_token.
 *
 * Only **business** accounts are accepted (docs/decisions/0016): `identify` reads
 * `GET /me?fields=user_id,username,name,account_type,profile_picture_url` and refuses any other
 * account_type (personal, creator/MEDIA_CREATOR) with a clear error.
 *
 * The token endpoint lives on a third host (api.instagram.com). When HERALD_INSTAGRAM_API_URL
 * is overridden (a simulator or a proxy), the token endpoint is taken from that same base.
 * The Facebook Login variant (graph.facebook.com, Page-linked accounts) is not implemented.
 */
import type { OAuthProvider, OAuthTokens, PlatformApp } from '../oauth.ts';
import { AdapterError } from '../types.ts';
import { graphJson } from '../meta/graph.ts';
import { httpJson } from '../http.ts';
import { PLAIN_OAUTH, type ConnectShape } from '../connect-shape.ts';

export const INSTAGRAM_DEFAULTS = { apiBaseUrl: 'https://graph.instagram.com', authBaseUrl: 'https://www.instagram.com' };
/** Host of the code exchange in production. */
export const INSTAGRAM_TOKEN_BASE = 'https://api.instagram.com';
/** Graph version prefix on graph.instagram.com. */
export const INSTAGRAM_API_VERSION = 'v25.0';
export const INSTAGRAM_SCOPES = ['instagram_business_basic', 'instagram_business_content_publish', 'instagram_business_manage_comments', 'instagram_business_manage_insights'];
/** account_type values accepted at connect. */
export const INSTAGRAM_BUSINESS_TYPES = ['BUSINESS'];

interface LongLived { access_token: string; token_type?: string; expires_in?: number }

const toTokens = (r: LongLived, scope?: string[]): OAuthTokens => ({
  accessToken: r.access_token, refreshToken: null, scope,
  expiresAt: typeof r.expires_in === 'number' ? new Date(Date.now() + r.expires_in * 1000).toISOString() : null,
});

function asGrantError(err: unknown, what: string, kind: 'rejected' | 'disconnected'): AdapterError {
  if (err instanceof AdapterError && err.kind !== 'transient' && err.kind !== 'rate_limited') return new AdapterError(kind, `${what} failed: ${err.message}`, err.opts);
  return err instanceof AdapterError ? err : new AdapterError('transient', `${what} failed: ${(err as Error).message}`);
}

const tokenBase = (app: PlatformApp) => (app.apiBaseUrl === INSTAGRAM_DEFAULTS.apiBaseUrl ? INSTAGRAM_TOKEN_BASE : app.apiBaseUrl);

export const instagramOAuth: OAuthProvider = {
  platform: 'instagram',
  usesPkce: false,
  scopes: INSTAGRAM_SCOPES,
  authorizeUrl(app, p) {
    const u = new URL(`${app.authBaseUrl}/oauth/authorize`);
    u.search = new URLSearchParams({ client_id: app.clientId, redirect_uri: p.redirectUri, response_type: 'code', scope: INSTAGRAM_SCOPES.join(','), state: p.state, enable_fb_login: '0' }).toString();
    return u.toString();
  },
  async exchangeCode(app, p) {
    try {
      // api.instagram.com answers errors as {error_type, code, error_message}, not the Graph envelope.
      const short = await httpJson<{ access_token: string; user_id?: string | number; permissions?: string[] | string }>(tokenBase(app), '/oauth/access_token', {
        method: 'POST', form: { client_id: app.clientId, client_secret: app.clientSecret, grant_type: 'authorization_code', redirect_uri: p.redirectUri, code: p.code },
      }, (b, status) => {
        const e = b as { error_message?: string; error?: { message?: string } } | null;
        return e?.error_message ?? e?.error?.message ?? `HTTP ${status}`;
      });
      const long = await graphJson<LongLived>(app.apiBaseUrl, '/access_token', { query: { grant_type: 'ig_exchange_token', client_secret: app.clientSecret, access_token: short.body.access_token } });
      const perms = short.body.permissions;
      return toTokens(long.body, Array.isArray(perms) ? perms : typeof perms === 'string' ? perms.split(',') : INSTAGRAM_SCOPES);
    } catch (err) {
      throw asGrantError(err, 'authorization code exchange', 'rejected');
    }
  },
  /** @throws AdapterError disconnected when Instagram refuses (expired, revoked, younger than 24 h). */
  async refresh(app, tokens) {
    try {
      const r = await graphJson<LongLived>(app.apiBaseUrl, '/refresh_access_token', { query: { grant_type: 'ig_refresh_token', access_token: tokens.accessToken } });
      return toTokens(r.body, tokens.scope);
    } catch (err) {
      throw asGrantError(err, 'refresh', 'disconnected');
    }
  },
  /** @throws AdapterError rejected for a personal or creator account (business accounts only). */
  async identify(app, tokens) {
    const { body } = await graphJson<{ user_id?: string; id: string; username: string; name?: string; account_type?: string; profile_picture_url?: string }>(
      app.apiBaseUrl, `/${INSTAGRAM_API_VERSION}/me`, { token: tokens.accessToken, query: { fields: 'user_id,username,name,account_type,profile_picture_url' } });
    const type = String(body.account_type ?? '').toUpperCase();
    if (!INSTAGRAM_BUSINESS_TYPES.includes(type)) {
      const what = type === 'MEDIA_CREATOR' || type === 'CREATOR' ? 'a creator account' : type === 'PERSONAL' ? 'a personal account' : `an account of type ${type || 'unknown'}`;
      throw new AdapterError('rejected', `@${body.username} is ${what}; Herald publishes to Instagram business accounts only. Switch the account to a business account in the Instagram app (Settings > Account type and tools) and connect again`);
    }
    return {
      platformUserId: String(body.user_id ?? body.id), username: body.username, displayName: body.name ?? body.username,
      profilePicture: body.profile_picture_url, permissions: ['posts:write', 'posts:read'],
    };
  },
};

/** How Instagram connects: plain OAuth 2.0 (the account is stored when the code is exchanged; decision 0051). */
export const instagramConnect: ConnectShape = PLAIN_OAUTH;
