/**
 * LinkedIn OAuth 2.0: authorization code without PKCE (not used
 * by the reference scheduler; whether LinkedIn checks it for web apps is UNCONFIRMED), client
 * credentials sent as form parameters, 60-day access tokens.
 * Sources: https://learn.microsoft.com/en-us/linkedin/shared/authentication/authorization-code-flow,
 * https://learn.microsoft.com/en-us/linkedin/shared/authentication/programmatic-refresh-tokens.
 *
 * Refresh tokens are granted **only to approved Community Management (Marketing Developer
 * Platform) partners**. They last 365 days from the first consent and that expiry does not move
 * on refresh. `refresh` therefore:
 * - throws `disconnected` ("reconnect before day 60") when no refresh token was granted;
 * - throws `disconnected` when the refresh token itself has expired (stored `refreshTokenExpiresAt`);
 * - otherwise exchanges it (grant_type=refresh_token) and keeps the original refresh-token expiry.
 */
import type { OAuthProvider, OAuthTokens, PlatformApp } from '../oauth.ts';
import { httpJson } from '../http.ts';
import { AdapterError } from '../types.ts';

export const LINKEDIN_DEFAULTS = { apiBaseUrl: 'https://api.linkedin.com', authBaseUrl: 'https://www.linkedin.com' };
/**
 * OpenID Connect (member id and name), member posting, and organization posting/admin data.
 * The organization scopes need the Community Management API product on the LinkedIn app.
 */
export const LINKEDIN_SCOPES = ['openid', 'profile', 'w_member_social', 'r_organization_social', 'w_organization_social', 'rw_organization_admin'];

/** LinkedIn tokens as stored: OAuth tokens plus the fixed refresh-token expiry (ISO), when granted. */
export type LinkedInTokens = OAuthTokens & { refreshTokenExpiresAt?: string | null };

interface TokenResponse { access_token: string; expires_in?: number; scope?: string; refresh_token?: string; refresh_token_expires_in?: number }

function describe(body: unknown, status: number): string {
  const b = body as { error?: string; error_description?: string; message?: string } | null;
  return b?.error_description ? `${b.error ?? 'error'} (${b.error_description})` : b?.message ?? b?.error ?? `HTTP ${status}`;
}

const at = (seconds: number | undefined) => (typeof seconds === 'number' ? new Date(Date.now() + seconds * 1000).toISOString() : null);

function toTokens(r: TokenResponse, previous?: LinkedInTokens): LinkedInTokens {
  return {
    accessToken: r.access_token,
    refreshToken: r.refresh_token ?? previous?.refreshToken ?? null,
    expiresAt: at(r.expires_in) ?? previous?.expiresAt ?? null,
    // The refresh token's expiry is fixed at first consent: keep the first one we saw.
    refreshTokenExpiresAt: previous?.refreshTokenExpiresAt ?? at(r.refresh_token_expires_in),
    scope: r.scope ? r.scope.split(/[\s,]+/).filter(Boolean) : previous?.scope,
  };
}

async function tokenCall(app: PlatformApp, form: Record<string, string>, what: string, refusal: 'rejected' | 'disconnected'): Promise<TokenResponse> {
  try {
    return (await httpJson<TokenResponse>(app.authBaseUrl, '/oauth/v2/accessToken', {
      method: 'POST', form: { ...form, client_id: app.clientId, client_secret: app.clientSecret },
    }, describe)).body;
  } catch (err) {
    if (err instanceof AdapterError && err.kind !== 'transient' && err.kind !== 'rate_limited') throw new AdapterError(refusal, `${what} failed: ${err.message}`, err.opts);
    throw err;
  }
}

export const linkedinOAuth: OAuthProvider = {
  platform: 'linkedin',
  usesPkce: false,
  scopes: LINKEDIN_SCOPES,
  authorizeUrl(app, p) {
    const u = new URL(`${app.authBaseUrl}/oauth/v2/authorization`);
    u.search = new URLSearchParams({ response_type: 'code', client_id: app.clientId, redirect_uri: p.redirectUri, state: p.state, scope: LINKEDIN_SCOPES.join(' ') }).toString();
    return u.toString();
  },
  /** @throws AdapterError rejected (bad or reused code) or transient. */
  async exchangeCode(app, p) {
    return toTokens(await tokenCall(app, { grant_type: 'authorization_code', code: p.code, redirect_uri: p.redirectUri }, 'authorization code exchange', 'rejected'));
  },
  /** @throws AdapterError disconnected when no (valid) refresh token exists or LinkedIn refuses it. */
  async refresh(app, tokens) {
    const t = tokens as LinkedInTokens;
    if (!t.refreshToken) {
      throw new AdapterError('disconnected', 'LinkedIn grants refresh tokens only to approved partner apps; reconnect the account before its 60-day token expires');
    }
    if (t.refreshTokenExpiresAt && Date.parse(t.refreshTokenExpiresAt) <= Date.now()) {
      throw new AdapterError('disconnected', 'The LinkedIn refresh token expired (365 days after the first consent); reconnect the account');
    }
    return toTokens(await tokenCall(app, { grant_type: 'refresh_token', refresh_token: t.refreshToken }, 'refresh', 'disconnected'), t);
  },
  async identify(app, tokens) {
    const { body } = await httpJson<{ sub: string; name?: string; given_name?: string; family_name?: string; picture?: string; email?: string }>(
      app.apiBaseUrl, '/v2/userinfo', { token: tokens.accessToken }, describe);
    const name = body.name ?? [body.given_name, body.family_name].filter(Boolean).join(' ') ?? body.sub;
    return {
      platformUserId: body.sub,
      username: name || body.sub,
      displayName: name || body.sub,
      profilePicture: body.picture,
      permissions: ['posts:write', 'posts:read'],
    };
  },
};
