/**
 * Platform API calls made on behalf of a connected account from a route (board and
 * subreddit pickers, the Reddit feed): loads the account the caller may see (404
 * otherwise, same as any foreign id), checks its platform, and runs calls with a valid
 * access token (refreshed and persisted when needed, like the publisher does).
 *
 * Adapter failures become API errors: a revoked authorization marks the account
 * inactive and answers 400 asking to reconnect; the platform's rate limit answers 429;
 * a platform refusal or outage answers 502 PLATFORM_ERROR with the platform's message.
 */
import { AppError, fieldError } from '../../core/errors.ts';
import type { OAuthPlatform } from '../../config.ts';
import type { SecretBox } from '../../core/crypto.ts';
import type { Db } from '../../storage/db.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import type { PlatformApp } from '../../platforms/oauth.ts';
import { withAccessToken } from '../../platforms/oauth-session.ts';
import { AdapterError, type AccountContext, type AdapterContext } from '../../platforms/types.ts';
import type { AuthContext } from '../auth/context.ts';
import { getAccessibleAccount, type AccountRow } from './service.ts';

export interface PlatformSession {
  row: AccountRow;
  account: AccountContext;
  app: PlatformApp;
  /** Runs `fn` with a valid access token; adapter errors become API errors. */
  call<T>(fn: (token: string, app: PlatformApp) => Promise<T>): Promise<T>;
}

/** Turns an adapter failure into the API error a route answers. */
export function apiErrorFrom(err: unknown, platform: string): unknown {
  if (!(err instanceof AdapterError)) return err;
  switch (err.kind) {
    case 'rate_limited':
      return new AppError('RATE_LIMITED', `${platform} rate limit reached: ${err.message}`, { platform, retryAfterMs: err.opts.retryAfterMs ?? null });
    case 'disconnected':
      return new AppError('BAD_REQUEST', `${err.message}. Reconnect the account.`, { platform, needsReconnection: true });
    default:
      return new AppError('PLATFORM_ERROR', `${platform}: ${err.message}`, { platform, platformStatus: err.opts.status ?? null });
  }
}

/**
 * Opens a session on the caller's account `accountId`, which must be a `platform` account.
 * @throws 404 NOT_FOUND for an account the caller cannot see; 400 (field `field`) for
 *   another platform's account or a disconnected one; 400 naming the missing settings
 *   when the platform app is not configured.
 */
export async function openPlatformSession(
  deps: { db: Db; secrets: SecretBox; adapters: AdapterRegistry },
  auth: AuthContext, accountId: string, platform: OAuthPlatform, label: string, field = 'accountId',
): Promise<PlatformSession> {
  const row = await getAccessibleAccount(deps.db, auth, accountId);
  if (row.platform !== platform) throw fieldError(field, `is a ${row.platform} account, not a ${label} account`);
  if (!row.is_active) throw fieldError(field, `the ${label} account @${row.username} needs to be reconnected (${row.inactive_reason ?? 'inactive'})`);
  const { provider, app } = deps.adapters.oauth(platform);
  const account: AccountContext = {
    id: row.id, platformUserId: row.platform_user_id, username: row.username,
    credentials: deps.secrets.openJson(row.credentials), settings: row.settings ?? {},
  };
  const ctx: AdapterContext = {
    async saveCredentials(credentials, tokenExpiresAt) {
      await deps.db.query(
        'UPDATE accounts SET credentials = $2, token_expires_at = COALESCE($3, token_expires_at), updated_at = now() WHERE id = $1',
        [row.id, deps.secrets.sealJson(credentials), tokenExpiresAt ?? null]);
    },
    fetchMedia: () => Promise.reject(new AdapterError('rejected', 'no media in this call')),
    log: () => {},
  };
  return {
    row, account, app,
    async call(fn) {
      try {
        return await withAccessToken(ctx, account, provider, app, (token) => fn(token, app));
      } catch (err) {
        if (err instanceof AdapterError && err.kind === 'disconnected') {
          await deps.db.query('UPDATE accounts SET is_active = false, inactive_reason = $2, updated_at = now() WHERE id = $1', [row.id, err.message]);
        }
        throw apiErrorFrom(err, label);
      }
    },
  };
}

/** Merges `patch` into the account's settings and returns the updated row. */
export async function updateAccountSettings(db: Db, accountId: string, patch: Record<string, unknown>): Promise<AccountRow> {
  const { rows } = await db.query<AccountRow>(
    'UPDATE accounts SET settings = settings || $2::jsonb, updated_at = now() WHERE id = $1 RETURNING *', [accountId, JSON.stringify(patch)]);
  return rows[0];
}
