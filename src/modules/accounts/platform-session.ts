/**
 * Platform API calls made on behalf of a connected account from a route (board and
 * subreddit pickers, the Reddit feed): loads the account the caller may see (404
 * otherwise, same as any foreign id), checks its platform, and runs calls with a valid
 * access token (refreshed and persisted when needed, like the publisher does).
 *
 * Adapter failures become API errors (./platform-errors.ts): a revoked authorization marks
 * the account inactive and answers 400 asking to reconnect; the platform's rate limit answers
 * 429; a platform refusal or outage answers 502 PLATFORM_ERROR with the platform's message.
 * Authorization calls (LinkedIn organizations) pass their wording instead.
 */
import { fieldError } from '../../core/errors.ts';
import type { OAuthPlatform } from '../../config.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import type { PlatformApp } from '../../platforms/oauth.ts';
import { withAccessToken } from '../../platforms/oauth-session.ts';
import type { AccountContext } from '../../platforms/types.ts';
import type { AuthContext } from '../auth/context.ts';
import { adapterContextFor } from './adapter-context.ts';
import { apiErrorFrom, needsReconnect, type AuthorizationWording } from './platform-errors.ts';
import type { AccountRow, AccountsRepository } from './repository.ts';

export { apiErrorFrom } from './platform-errors.ts';

export interface PlatformSession {
  row: AccountRow;
  account: AccountContext;
  app: PlatformApp;
  /** Runs `fn` with a valid access token; adapter errors become API errors. */
  call<T>(fn: (token: string, app: PlatformApp) => Promise<T>): Promise<T>;
}

export function createPlatformSessions(deps: { accounts: AccountsRepository; adapters: AdapterRegistry }) {
  /**
   * A session on an account row already loaded and checked. A failure that needs a reconnect
   * marks the account inactive with the platform's message.
   */
  function sessionFor(row: AccountRow, platform: OAuthPlatform, label: string, wording?: AuthorizationWording): PlatformSession {
    const { provider, app } = deps.adapters.oauth(platform);
    const { account, ctx } = adapterContextFor(deps.accounts, row);
    return {
      row, account, app,
      async call(fn) {
        try {
          return await withAccessToken(ctx, account, provider, app, (token) => fn(token, app));
        } catch (err) {
          if (needsReconnect(err, wording)) await deps.accounts.markNeedsReconnect(row.id, (err as Error).message);
          throw apiErrorFrom(err, label, wording);
        }
      },
    };
  }

  return {
    sessionFor,

    /**
     * Opens a session on the caller's account `accountId`, which must be a `platform` account.
     * @throws 404 NOT_FOUND for an account the caller cannot see; 400 (field `field`) for
     *   another platform's account or a disconnected one; 400 naming the missing settings
     *   when the platform app is not configured.
     */
    async open(auth: AuthContext, accountId: string, platform: OAuthPlatform, label: string, field = 'accountId'): Promise<PlatformSession> {
      const row = await deps.accounts.accessible(auth, accountId);
      if (row.platform !== platform) throw fieldError(field, `is a ${row.platform} account, not a ${label} account`);
      if (!row.is_active) throw fieldError(field, `the ${label} account @${row.username} needs to be reconnected (${row.inactive_reason ?? 'inactive'})`);
      return sessionFor(row, platform, label);
    },
  };
}

export type PlatformSessions = ReturnType<typeof createPlatformSessions>;
