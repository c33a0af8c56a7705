/**
 * Access tokens for OAuth platform calls: refreshed shortly before they expire, and once
 * more when the platform answers 401 (auth expired). Refreshed tokens are persisted
 * through the adapter context and written back into the account object, so the commit
 * that follows a prepare uses them too. A refused refresh marks the account for
 * reconnection (AdapterError 'disconnected').
 */
import type { OAuthProvider, OAuthTokens, PlatformApp } from './oauth.ts';
import { AdapterError, type AccountContext, type AdapterContext } from './types.ts';

/** Refresh when the access token has less than this left (ms). */
export const REFRESH_MARGIN_MS = 2 * 60_000;

async function refreshInto(ctx: AdapterContext, account: AccountContext, provider: OAuthProvider, app: PlatformApp): Promise<OAuthTokens> {
  const current = account.credentials as unknown as OAuthTokens;
  if (!provider.refresh) throw new AdapterError('disconnected', `The ${provider.platform} token expired and cannot be refreshed; reconnect the account`);
  let next: OAuthTokens;
  try {
    next = await provider.refresh(app, current);
  } catch (err) {
    if (err instanceof AdapterError && (err.kind === 'disconnected' || err.kind === 'rejected')) {
      throw new AdapterError('disconnected', `The ${provider.platform} authorization was revoked or expired (${err.message}); reconnect the account`);
    }
    throw err;
  }
  account.credentials = { ...account.credentials, ...next };
  await ctx.saveCredentials(account.credentials, next.expiresAt ? new Date(next.expiresAt) : null);
  return next;
}

/**
 * Runs `fn` with a valid access token.
 * @throws AdapterError disconnected when the token cannot be refreshed; whatever `fn` throws otherwise.
 */
export async function withAccessToken<T>(ctx: AdapterContext, account: AccountContext, provider: OAuthProvider, app: PlatformApp, fn: (token: string) => Promise<T>, now: () => number = Date.now): Promise<T> {
  let tokens = account.credentials as unknown as OAuthTokens;
  let refreshed = false;
  if (tokens.expiresAt && new Date(tokens.expiresAt).getTime() - now() < REFRESH_MARGIN_MS) {
    tokens = await refreshInto(ctx, account, provider, app);
    refreshed = true;
  }
  try {
    return await fn(tokens.accessToken);
  } catch (err) {
    if (!(err instanceof AdapterError) || err.kind !== 'auth_expired' || refreshed) throw err;
    tokens = await refreshInto(ctx, account, provider, app);
    return fn(tokens.accessToken);
  }
}

/** Refreshes an account's tokens now (the token refresh job). */
export async function refreshAccountTokens(ctx: AdapterContext, account: AccountContext, provider: OAuthProvider, app: PlatformApp): Promise<OAuthTokens> {
  return refreshInto(ctx, account, provider, app);
}
