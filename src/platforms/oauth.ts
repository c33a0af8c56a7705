/**
 * OAuth 2.0 for platform connections (authorization code grant; PKCE S256 where the
 * platform requires it, as X does). Each platform supplies an {@link OAuthProvider}; the
 * connect service (src/modules/connect/oauth-service.ts) runs the flow, stores the state
 * and the tokens. Standard token requests go through `oauth4webapi`; platforms that
 * deviate from RFC 6749 (Facebook's GET exchange, TikTok's client_key) override them.
 */
import * as oauth from 'oauth4webapi';
import { AdapterError, type PlatformId } from './types.ts';

/** The app, token and identity types are part of the connect contract (./connect-shape.ts). */
export type { Identity, OAuthTokens, PlatformApp } from './connect-shape.ts';
import type { Identity, OAuthTokens, PlatformApp } from './connect-shape.ts';

export interface AuthorizeParams {
  state: string;
  redirectUri: string;
  /** S256 challenge when the provider uses PKCE. */
  codeChallenge?: string;
}

export interface OAuthProvider {
  readonly platform: PlatformId;
  readonly usesPkce: boolean;
  readonly scopes: string[];
  /** The URL the user is sent to. */
  authorizeUrl(app: PlatformApp, p: AuthorizeParams): string;
  /** Exchanges the authorization code. @throws AdapterError rejected (bad code) or transient. */
  exchangeCode(app: PlatformApp, p: { code: string; redirectUri: string; codeVerifier?: string }): Promise<OAuthTokens>;
  /** Refreshes tokens; absent when the platform has no refresh (re-connect instead). @throws AdapterError disconnected when revoked. */
  refresh?(app: PlatformApp, tokens: OAuthTokens): Promise<OAuthTokens>;
  /** Reads the connected user. */
  identify(app: PlatformApp, tokens: OAuthTokens): Promise<Identity>;
}

/** oauth4webapi's view of a platform's endpoints. */
export function authorizationServer(issuer: string, tokenEndpoint: string, authorizationEndpoint: string): oauth.AuthorizationServer {
  return { issuer, token_endpoint: tokenEndpoint, authorization_endpoint: authorizationEndpoint };
}

const insecure = (url: string) => url.startsWith('http://');

function toTokens(r: oauth.TokenEndpointResponse, previous?: OAuthTokens): OAuthTokens {
  return {
    accessToken: r.access_token,
    // Keep a refresh token the platform did not send again.
    refreshToken: r.refresh_token ?? previous?.refreshToken ?? null,
    expiresAt: typeof r.expires_in === 'number' ? new Date(Date.now() + r.expires_in * 1000).toISOString() : previous?.expiresAt ?? null,
    scope: r.scope ? r.scope.split(/[\s,]+/).filter(Boolean) : previous?.scope,
  };
}

function mapOAuthError(err: unknown, what: string): AdapterError {
  if (err instanceof oauth.ResponseBodyError) {
    const kind = err.error === 'invalid_grant' ? (what === 'refresh' ? 'disconnected' : 'rejected') : err.status >= 500 ? 'transient' : 'rejected';
    return new AdapterError(kind, `${what} failed: ${err.error}${err.error_description ? ` (${err.error_description})` : ''}`, { status: err.status, platformCode: err.error });
  }
  if (err instanceof oauth.WWWAuthenticateChallengeError || err instanceof oauth.OperationProcessingError) {
    return new AdapterError('rejected', `${what} failed: ${(err as Error).message}`);
  }
  return new AdapterError('transient', `${what} failed: ${(err as Error)?.message ?? String(err)}`);
}

/**
 * RFC 6749 code exchange (client_secret_basic), with PKCE when a verifier is given.
 * @throws AdapterError (rejected for invalid_grant/invalid_client, transient for network/5xx).
 */
export async function standardExchange(as: oauth.AuthorizationServer, app: PlatformApp, p: { code: string; redirectUri: string; codeVerifier?: string }): Promise<OAuthTokens> {
  const client: oauth.Client = { client_id: app.clientId };
  try {
    const callback = oauth.validateAuthResponse(as, client, new URLSearchParams({ code: p.code }), oauth.skipStateCheck);
    const res = await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretBasic(app.clientSecret), callback, p.redirectUri,
      p.codeVerifier ?? oauth.nopkce, { [oauth.allowInsecureRequests]: insecure(as.token_endpoint!) });
    return toTokens(await oauth.processAuthorizationCodeResponse(as, client, res));
  } catch (err) {
    throw mapOAuthError(err, 'authorization code exchange');
  }
}

/** RFC 6749 refresh (client_secret_basic). @throws AdapterError disconnected on invalid_grant. */
export async function standardRefresh(as: oauth.AuthorizationServer, app: PlatformApp, tokens: OAuthTokens): Promise<OAuthTokens> {
  if (!tokens.refreshToken) throw new AdapterError('disconnected', 'No refresh token was granted; reconnect the account');
  const client: oauth.Client = { client_id: app.clientId };
  try {
    const res = await oauth.refreshTokenGrantRequest(as, client, oauth.ClientSecretBasic(app.clientSecret), tokens.refreshToken,
      { [oauth.allowInsecureRequests]: insecure(as.token_endpoint!) });
    return toTokens(await oauth.processRefreshTokenResponse(as, client, res), tokens);
  } catch (err) {
    throw mapOAuthError(err, 'refresh');
  }
}

/** A fresh PKCE pair (S256). */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = oauth.generateRandomCodeVerifier();
  return { verifier, challenge: await oauth.calculatePKCECodeChallenge(verifier) };
}
