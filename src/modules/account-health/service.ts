/**
 * Account health (GET /v1/accounts/health and /v1/accounts/{id}/health): for each connected
 * account, whether its token is valid and when it expires, whether it must be reconnected,
 * which permissions it lacks, its latest publish result, and what to do about each issue.
 * Read from the account row and the publishing log; no platform call.
 *
 * Issues are only what needs the user (docs/decisions/0047-account-health-warns-about-what-needs-the-user.md):
 * an account to reconnect, a token that expires and cannot be renewed, a renewal that failed,
 * missing permissions, a failed publish. A token that Herald renews by itself is not one, however
 * soon it expires (tokenStatus still says when).
 */
import type { AdapterRegistry } from '../../platforms/registry.ts';
import type { PlatformId } from '../../shared/platforms.ts';
import { canAccessProfile, type AuthContext } from '../auth/context.ts';
import type { AccountRow, AccountsRepository } from '../accounts/repository.ts';
import type { LogsService } from '../logs/service.ts';

/** A token expiring within this is reported as needing a refresh (ms). */
export const REFRESH_WARNING_MS = 24 * 3_600_000;

/** Herald's permissions an account needs to publish, and to read analytics. */
const POSTING = ['posts:write'];
const ANALYTICS = ['posts:read'];

/** "3 days", "5 hours", "12 minutes"; "expired" in the past. */
export function expiresInWords(ms: number): string {
  if (ms <= 0) return 'expired';
  const units: Array<[number, string]> = [[86_400_000, 'day'], [3_600_000, 'hour'], [60_000, 'minute']];
  for (const [size, name] of units) {
    const n = Math.floor(ms / size);
    if (n >= 1) return `${n} ${name}${n === 1 ? '' : 's'}`;
  }
  return 'less than a minute';
}

export function createAccountHealthService(deps: { accounts: AccountsRepository; adapters: AdapterRegistry; logs: LogsService; clock: () => Date }) {
  const { accounts, adapters, logs, clock } = deps;

  async function healthOf(auth: AuthContext, rows: AccountRow[]) {
    const ids = rows.map((r) => r.id);
    const [last, refreshes] = await Promise.all([logs.lastPublishByAccount(auth.tenantId, ids), logs.lastTokenRefreshByAccount(auth.tenantId, ids)]);
    const now = clock().getTime();
    return rows.map((a) => {
      const platform = a.platform as PlatformId;
      const expiresAt = a.token_expires_at;
      const refreshable = !!adapters.oauthProvider(platform)?.refresh;
      // The latest renewal failed (and none succeeded since): Herald tries again, but the user may have to reconnect.
      const refresh = refreshes.get(a.id);
      const refreshFailed = refreshable && refresh?.status === 'failed';
      const pastExpiry = !!expiresAt && expiresAt.getTime() <= now;
      const expired = pastExpiry && (!refreshable || refreshFailed);
      const tokenValid = a.is_active && !expired;
      const needsRefresh = !!expiresAt && expiresAt.getTime() - now < REFRESH_WARNING_MS;
      const granted = new Set(a.permissions ?? []);
      const scopes = (list: string[]) => list.map((scope) => ({ scope, granted: granted.has(scope), required: true }));
      const missingRequired = [...POSTING, ...ANALYTICS].filter((p) => !granted.has(p));
      const canPost = tokenValid && POSTING.every((p) => granted.has(p));
      const canFetchAnalytics = tokenValid && !!adapters.get(platform)?.fetchMetrics && ANALYTICS.every((p) => granted.has(p));
      const entry = last.get(a.id);
      const lastPublish = entry ? {
        status: entry.status, action: entry.action, at: entry.finishedAt ?? entry.createdAt, postId: entry.postId,
        errorMessage: entry.errorMessage, errorCategory: entry.errorCategory, logId: entry._id,
      } : null;

      const issues: string[] = [];
      const recommendations: string[] = [];
      if (!a.is_active) {
        issues.push(`The account needs to be reconnected${a.inactive_reason ? `: ${a.inactive_reason}` : ''}`);
        recommendations.push(`Reconnect the ${platform} account (GET /v1/connect/${platform}); posts to it fail until then`);
      } else if (expired && refreshFailed) {
        issues.push(`The access token has expired and Herald could not renew it${refresh?.errorMessage ? `: ${refresh.errorMessage}` : ''}`);
        recommendations.push(`Reconnect the ${platform} account (GET /v1/connect/${platform}); posts to it fail until then`);
      } else if (expired) {
        issues.push('The access token has expired');
        recommendations.push(`Reconnect the ${platform} account: ${platform} tokens cannot be refreshed`);
      } else if (refreshFailed) {
        issues.push(`Herald could not renew the access token${refresh?.errorMessage ? `: ${refresh.errorMessage}` : ''}`);
        recommendations.push(`Herald tries again before the token expires${expiresAt ? ` (in ${expiresInWords(expiresAt.getTime() - now)})` : ''}; if it keeps failing, reconnect the ${platform} account`);
      } else if (needsRefresh && !refreshable) {
        issues.push(`The access token expires in ${expiresInWords(expiresAt!.getTime() - now)}`);
        recommendations.push(`Reconnect the ${platform} account before the token expires: ${platform} tokens cannot be refreshed`);
      }
      // A token Herald renews by itself is no issue, however soon it expires (tokenStatus says when).
      for (const p of missingRequired) {
        issues.push(`Missing permission ${p}`);
        recommendations.push(`Reconnect the account and grant every permission Herald asks for (${p} is needed to ${POSTING.includes(p) ? 'publish' : 'read analytics'})`);
      }
      if (lastPublish?.status === 'failed') {
        issues.push(`The last publish failed${lastPublish.errorMessage ? `: ${lastPublish.errorMessage}` : ''}`);
        recommendations.push(lastPublish.errorCategory === 'platform_rate_limit'
          ? 'The platform rate-limited the account: space posts out'
          : `See the publishing log (GET /v1/logs?accountId=${a.id}) for what ${platform} answered`);
      }
      const status = !canPost ? 'error' as const : issues.length ? 'warning' as const : 'healthy' as const;
      return {
        accountId: a.id, platform: a.platform, username: a.username, displayName: a.display_name ?? a.username, profileId: a.profile_id,
        status, canPost, canFetchAnalytics, tokenValid, tokenExpiresAt: expiresAt ? expiresAt.toISOString() : null,
        needsReconnect: !a.is_active || expired, issues, lastPublish,
        tokenStatus: {
          valid: tokenValid, expiresAt: expiresAt ? expiresAt.toISOString() : null,
          expiresIn: expiresAt ? expiresInWords(expiresAt.getTime() - now) : null, needsRefresh, refreshable,
        },
        permissions: { posting: scopes(POSTING), analytics: scopes(ANALYTICS), canPost, canFetchAnalytics, missingRequired },
        recommendations,
      };
    });
  }

  return {
    /** Every account the caller can see: a summary by status and each account's health. */
    async list(auth: AuthContext) {
      const rows = (await accounts.listForTenant(auth.tenantId, null)).filter((a) => canAccessProfile(auth, a.profile_id));
      const all = await healthOf(auth, rows);
      const count = (s: string) => all.filter((h) => h.status === s).length;
      return {
        summary: { total: all.length, healthy: count('healthy'), warning: count('warning'), error: count('error'), needsReconnect: all.filter((h) => h.needsReconnect).length },
        accounts: all.map(({ tokenStatus: _t, permissions: _p, recommendations: _r, ...summary }) => summary),
      };
    },

    /** One account's health with token status, permissions and recommendations. @throws 404 NOT_FOUND. */
    async get(auth: AuthContext, accountId: string) {
      const row = await accounts.accessible(auth, accountId.toLowerCase());
      return (await healthOf(auth, [row]))[0];
    },
  };
}

export type AccountHealthService = ReturnType<typeof createAccountHealthService>;
