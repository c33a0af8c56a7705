/**
 * The token refresh job: tokens are refreshed before they expire. Runs in every
 * worker under a lease (src/storage/job-leases.ts: a row, so that it also holds behind a pooler in
 * transaction mode, decision 0068), so one pass at a time across processes: accounts whose access
 * token expires within `marginMs` are refreshed through their platform's OAuth provider
 * and the new tokens stored sealed. A refused refresh (revoked or expired authorization)
 * marks the account inactive with the reason; its due posts then fail with a reconnect
 * message. Network failures are left for the next pass. Each refresh is a publishing-log
 * entry (action token_refresh).
 */
import type { Db } from '../storage/db.ts';
import { withJobLease } from '../storage/job-leases.ts';
import type { AdapterRegistry } from '../platforms/registry.ts';
import type { OAuthPlatform } from '../config.ts';
import { refreshAccountTokens } from '../platforms/oauth-session.ts';
import { AdapterError } from '../platforms/types.ts';
import type { AccountsRepository } from '../modules/accounts/repository.ts';
import { adapterContextFor } from '../modules/accounts/adapter-context.ts';
import { writeLogEntry } from './log-entries.ts';

const LEASE = 'token-refresh';
/** The pass's lease lasts this long unless renewed (every third of it while the pass runs). */
const LEASE_TTL_MS = 60_000;

export interface RefreshPassResult {
  refreshed: number;
  deactivated: number;
  failed: number;
}

export async function refreshExpiringTokens(deps: { db: Db; adapters: AdapterRegistry; accounts: AccountsRepository }, marginMs = 10 * 60_000): Promise<RefreshPassResult> {
  const { db, adapters, accounts } = deps;
  /** One publishing-log entry per refresh (action token_refresh), with the platform's answer on failure. */
  const log = (a: { id: string; platform: string }, started: number, err: unknown) => {
    const ae = err instanceof AdapterError ? err : null;
    return writeLogEntry(db, {
      tenantId: null, accountId: a.id, platform: a.platform, action: 'token_refresh', outcome: err ? 'failed' : 'success',
      error: err ? (err as Error).message : null, errorCategory: ae ? (ae.kind === 'disconnected' ? 'auth_expired' : 'platform_error') : err ? 'system_error' : null,
      httpStatus: ae?.opts.status ?? null, endpoint: ae?.opts.endpoint ?? null, responseExcerpt: ae?.opts.excerpt ?? null,
      durationMs: Date.now() - started, workerId: 'token-refresh',
    }).catch(() => {});
  };
  const out: RefreshPassResult = { refreshed: 0, deactivated: 0, failed: 0 };
  await withJobLease(db, LEASE, LEASE_TTL_MS, async (lease) => {
    const rows = await accounts.dueForRefresh(db, marginMs, adapters.sandbox === true);
    for (const a of rows) {
      // Two refreshes of one account at once could spend a rotating refresh token twice: stop when
      // the lease may have passed to another process (this one was paused).
      if (!lease.held()) break;
      const provider = adapters.oauthProvider(a.platform);
      if (!provider?.refresh) continue;
      // A refresh that answers no expiry stores none (the token no longer expires on a schedule).
      const { account, ctx } = adapterContextFor(accounts, a, { replaceExpiry: true });
      const started = Date.now();
      try {
        const { app } = adapters.oauth(a.platform as OAuthPlatform);
        await refreshAccountTokens(ctx, account, provider, app);
        out.refreshed++;
        await log(a, started, null);
      } catch (err) {
        await log(a, started, err);
        if (err instanceof AdapterError && err.kind === 'disconnected') {
          await accounts.markNeedsReconnect(a.id, err.message);
          out.deactivated++;
        } else {
          out.failed++;
        }
      }
    }
  });
  return out;
}
