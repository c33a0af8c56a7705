/**
 * TikTok Login Kit v2 (https://developers.tiktok.com/doc/oauth-user-access-token-management):
 * authorization code without PKCE (PKCE is
 * for mobile and desktop apps only), with TikTok's own parameter names: `client_key`
 * instead of `client_id`, and the client secret in the form body of
 * `POST /v2/oauth/token/` (not Basic auth), so oauth4webapi's RFC 6749 requests do not
 * apply. The app's `clientId` setting (`HERALD_TIKTOK_CLIENT_ID`) is the client key.
 * Sources: https://developers.tiktok.com/doc/oauth-user-access-token-management,
 * https://developers.tiktok.com/doc/login-kit-web.
 *
 * Token lifetimes are a **CONFLICT** upstream: one page says access 24 h / refresh 365 days,
 * a newer one 2 h / 180 days with refresh-token rotation. Herald always uses the
 * `expires_in` / `refresh_expires_in` of each answer and stores the refresh token each
 * refresh returns (rotation); only when an answer lacks them are the configurable
 * fallbacks of {@link TikTokOAuthOptions} used (default: the shorter 2 h / 180 days).
 * A refresh token past its expiry is not sent: the account must reconnect.
 */
import { httpJson } from '../http.ts';
import type { OAuthProvider, OAuthTokens, PlatformApp } from '../oauth.ts';
import { AdapterError } from '../types.ts';
import { tiktokJson } from './api.ts';
import { PLAIN_OAUTH, type ConnectShape } from '../connect-shape.ts';

export const TIKTOK_DEFAULTS = { apiBaseUrl: 'https://open.tiktokapis.com', authBaseUrl: 'https://www.tiktok.com' };
/**
 * user.info.basic/profile to identify the account, video.publish for Direct Post,
 * video.upload for inbox drafts, video.list so that `verify` can find a post whose
 * answer was lost.
 */
export const TIKTOK_SCOPES = ['user.info.basic', 'user.info.profile', 'video.publish', 'video.upload', 'video.list'];

export interface TikTokOAuthOptions {
  /** Access token lifetime used when an answer has no `expires_in`, seconds. CONFLICT upstream (24 h vs 2 h). Default 7,200. */
  accessTokenTtlSeconds?: number;
  /** Refresh token lifetime used when an answer has no `refresh_expires_in`, seconds. CONFLICT upstream (365 vs 180 days). Default 180 days. */
  refreshTokenTtlSeconds?: number;
}

/** TikTok tokens as stored (sealed): the standard fields plus the refresh token's expiry and the open_id. */
export interface TikTokTokens extends OAuthTokens {
  refreshExpiresAt?: string | null;
  openId?: string;
}

interface TokenAnswer {
  open_id?: string; scope?: string; access_token?: string; expires_in?: number; refresh_token?: string; refresh_expires_in?: number; token_type?: string;
  error?: string; error_description?: string; log_id?: string;
}

/** The creator info (`/v2/post/publish/creator_info/query/`), as kept in the account settings. */
export interface TikTokCreatorInfo {
  privacyLevelOptions: string[];
  maxVideoPostDurationSec?: number;
  commentDisabled?: boolean;
  duetDisabled?: boolean;
  stitchDisabled?: boolean;
  fetchedAt: string;
}

export interface CreatorInfoAnswer {
  creator_avatar_url?: string; creator_username?: string; creator_nickname?: string; privacy_level_options?: string[];
  comment_disabled?: boolean; duet_disabled?: boolean; stitch_disabled?: boolean; max_video_post_duration_sec?: number;
}

export function toCreatorInfo(d: CreatorInfoAnswer): TikTokCreatorInfo {
  return {
    privacyLevelOptions: d.privacy_level_options ?? [],
    maxVideoPostDurationSec: d.max_video_post_duration_sec,
    commentDisabled: d.comment_disabled, duetDisabled: d.duet_disabled, stitchDisabled: d.stitch_disabled,
    fetchedAt: new Date().toISOString(),
  };
}

/** `POST /v2/post/publish/creator_info/query/` (20 requests per minute per token). @throws AdapterError. */
export async function queryCreatorInfo(app: PlatformApp, token: string): Promise<CreatorInfoAnswer> {
  return tiktokJson<CreatorInfoAnswer>(app.apiBaseUrl, '/v2/post/publish/creator_info/query/', { method: 'POST', token, json: {} });
}

export function createTikTokOAuth(opts: TikTokOAuthOptions = {}): OAuthProvider {
  const accessTtl = opts.accessTokenTtlSeconds ?? 7200;
  const refreshTtl = opts.refreshTokenTtlSeconds ?? 180 * 86400;

  async function tokenCall(app: PlatformApp, form: Record<string, string>, what: string, refusal: 'rejected' | 'disconnected', previous?: TikTokTokens): Promise<TikTokTokens> {
    let body: TokenAnswer;
    try {
      body = (await httpJson<TokenAnswer>(app.apiBaseUrl, '/v2/oauth/token/', { method: 'POST', form: { client_key: app.clientId, client_secret: app.clientSecret, ...form } },
        (b) => { const e = b as TokenAnswer; return `${e?.error ?? 'error'}${e?.error_description ? ` (${e.error_description})` : ''}`; })).body;
    } catch (err) {
      if (err instanceof AdapterError && err.kind !== 'transient' && err.kind !== 'rate_limited') throw new AdapterError(refusal, `${what} failed: ${err.message}`, err.opts);
      throw err;
    }
    if (!body.access_token) throw new AdapterError(refusal, `${what} failed: ${body.error ?? 'no access token'}${body.error_description ? ` (${body.error_description})` : ''}`);
    const now = Date.now();
    return {
      accessToken: body.access_token,
      refreshToken: body.refresh_token ?? previous?.refreshToken ?? null,
      expiresAt: new Date(now + (typeof body.expires_in === 'number' ? body.expires_in : accessTtl) * 1000).toISOString(),
      refreshExpiresAt: body.refresh_token
        ? new Date(now + (typeof body.refresh_expires_in === 'number' ? body.refresh_expires_in : refreshTtl) * 1000).toISOString()
        : previous?.refreshExpiresAt ?? null,
      scope: body.scope ? body.scope.split(/[\s,]+/).filter(Boolean) : previous?.scope,
      openId: body.open_id ?? previous?.openId,
    };
  }

  return {
    platform: 'tiktok',
    usesPkce: false,
    scopes: TIKTOK_SCOPES,
    authorizeUrl(app, p) {
      const u = new URL(`${app.authBaseUrl}/v2/auth/authorize/`);
      u.search = new URLSearchParams({
        client_key: app.clientId, response_type: 'code', scope: TIKTOK_SCOPES.join(','), redirect_uri: p.redirectUri, state: p.state,
      }).toString();
      return u.toString();
    },
    /** @throws AdapterError rejected (bad code) or transient. */
    exchangeCode: (app, p) => tokenCall(app, { code: p.code, grant_type: 'authorization_code', redirect_uri: p.redirectUri }, 'authorization code exchange', 'rejected'),
    /** Refresh with rotation. @throws AdapterError disconnected when the refresh token is missing, expired or refused. */
    async refresh(app, tokens) {
      const t = tokens as TikTokTokens;
      if (!t.refreshToken) throw new AdapterError('disconnected', 'No TikTok refresh token was granted; reconnect the account');
      if (t.refreshExpiresAt && new Date(t.refreshExpiresAt).getTime() <= Date.now()) {
        throw new AdapterError('disconnected', 'The TikTok refresh token expired; reconnect the account');
      }
      return tokenCall(app, { grant_type: 'refresh_token', refresh_token: t.refreshToken }, 'refresh', 'disconnected', t);
    },
    /** Reads the user (`/v2/user/info/`) and, when allowed, the creator info kept in the account settings. */
    async identify(app, tokens) {
      const d = await tiktokJson<{ user?: { open_id?: string; union_id?: string; avatar_url?: string; display_name?: string; username?: string } }>(
        app.apiBaseUrl, '/v2/user/info/', { token: tokens.accessToken, query: { fields: 'open_id,union_id,avatar_url,display_name,username' } });
      const u = d.user ?? {};
      const openId = u.open_id ?? (tokens as TikTokTokens).openId;
      if (!openId) throw new AdapterError('rejected', 'TikTok did not return the user\'s open_id');
      let creator: TikTokCreatorInfo | undefined;
      try {
        creator = toCreatorInfo(await queryCreatorInfo(app, tokens.accessToken));
      } catch { /* checked again before each post */ }
      return {
        platformUserId: openId,
        username: u.username ?? u.display_name ?? openId,
        displayName: u.display_name ?? u.username ?? openId,
        profilePicture: u.avatar_url,
        permissions: ['posts:write', 'posts:read'],
        ...(creator ? { settings: { tiktokCreator: creator } } : {}),
      };
    },
  };
}

/** The provider with the default fallbacks. */
export const tiktokOAuth = createTikTokOAuth();

/** How TikTok connects: plain OAuth 2.0 (the account is stored when the code is exchanged; decision 0051). */
export const tiktokConnect: ConnectShape = PLAIN_OAUTH;
