/**
 * Analytics: the metrics of published posts, read from each platform by a background refresh
 * (docs/decisions/0030-analytics-metrics.md) and shown by `GET /v1/analytics` in the shapes the
 * official client expects (a single-post view with `postId`, else a list view). The Analytics
 * add-on gates every view (402 `analytics_addon_required` with the add-on to get).
 */
import { AppError, fieldError, notFound } from '../../core/errors.ts';
import type { SecretBox } from '../../core/crypto.ts';
import { ADDONS } from '../../shared/plans.ts';
import { METRICS, PLATFORM_METRICS, engagementRateOf, noMetrics, type MetricName, type PostMetrics } from '../../shared/metrics.ts';
import { PLATFORMS, type PlatformId } from '../../shared/platforms.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import { AdapterError } from '../../platforms/types.ts';
import type { Db } from '../../storage/db.ts';
import { takeJobLease } from '../../storage/job-leases.ts';
import type { AuthContext } from '../auth/context.ts';
import { canAccessProfile } from '../auth/context.ts';
import { findTenantAccounts, type AccountRow, type AccountsRepository } from '../accounts/repository.ts';
import { adapterContextFor } from '../accounts/adapter-context.ts';
import { toAccountView } from '../accounts/service.ts';
import { getAccessibleProfile } from '../profiles/service.ts';
import { createAnalyticsRepository, type ListFilters, type PostRow, type TargetMetricsRow } from './repository.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Posts older than this are no longer refreshed (Pinterest reads at most 90 days back; interest fades long before). */
export const METRICS_FOLLOW_MS = 90 * DAY;
/** Most targets a pass takes. */
const METRICS_PASS_LIMIT = 2000;
/** First wait after a failed read; it doubles with each failure in a row, up to a day. */
const BACKOFF_BASE_MS = 15 * 60_000;
/** One refresh pass at a time across processes: a row lease, which also holds behind a pooler in transaction mode (decision 0068). */
const METRICS_LEASE = 'analytics-refresh';
/** The pass's lease lasts this long unless renewed (every third of it while the pass runs). */
const METRICS_LEASE_TTL_MS = 120_000;

/**
 * The decaying schedule: how long after a read of a post of age `ageMs` the next read is due.
 * Hourly on the first day, every 6 hours in the first week, daily in the first month, weekly
 * until {@link METRICS_FOLLOW_MS}; null after that (no more reads).
 */
export function refreshInterval(ageMs: number): number | null {
  if (ageMs < DAY) return HOUR;
  if (ageMs < 7 * DAY) return 6 * HOUR;
  if (ageMs < 30 * DAY) return DAY;
  if (ageMs < METRICS_FOLLOW_MS) return 7 * DAY;
  return null;
}

/** The wait after `failures` failed reads in a row (this one included), at least `retryAfterMs` when the platform named one. */
export function backoffDelay(failures: number, retryAfterMs?: number): number {
  const exp = Math.min(DAY, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1));
  return Math.max(exp, retryAfterMs ?? 0);
}

/**
 * What one refresh pass did. `needsReconnect`: accounts waiting for a reconnection with targets
 * due (skipped), and accounts this pass found revoked, with how many targets wait.
 */
export interface MetricsPassResult {
  enrolled: number;
  refreshed: number;
  missing: number;
  rateLimited: number;
  failed: number;
  needsReconnect: Array<{ accountId: string; platform: PlatformId; targets: number }>;
}

export interface AnalyticsQuery {
  postId?: string;
  platform?: PlatformId | 'all';
  profileId?: string;
  fromDate?: string;
  toDate?: string;
  limit?: number;
  page?: number;
  sortBy?: 'date' | 'engagement';
  order?: 'asc' | 'desc';
}

/** PostAnalytics as the official client reads it: Herald's metrics plus the engagement rate and last update. */
function postAnalytics(m: PostMetrics, lastUpdated: Date | null) {
  return { ...m, engagementRate: engagementRateOf(m), lastUpdated: lastUpdated ? lastUpdated.toISOString() : null };
}

function metricsOf(t: TargetMetricsRow): PostMetrics {
  const m = noMetrics();
  for (const k of METRICS) m[k] = t[k] === null || t[k] === undefined ? null : Number(t[k]);
  return m;
}

/** Sum over targets, metric by metric; null where no target has the metric. */
function sumMetrics(ms: PostMetrics[]): PostMetrics {
  const out = noMetrics();
  for (const m of ms) for (const k of METRICS) if (m[k] !== null) out[k] = (out[k] ?? 0) + m[k]!;
  return out;
}

function platformAnalytics(t: TargetMetricsRow) {
  const published = t.status === 'published';
  const syncStatus: 'synced' | 'pending' | 'unavailable' = !published ? 'unavailable' : t.sync_status === 'synced' ? 'synced' : t.sync_status === 'unavailable' ? 'unavailable' : 'pending';
  return {
    platform: t.platform,
    status: published ? 'published' as const : 'failed' as const,
    platformPostId: t.platform_post_id,
    accountId: t.account_id,
    accountUsername: t.username,
    analytics: published && t.sync_status === 'synced' ? postAnalytics(metricsOf(t), t.last_refreshed_at) : null,
    syncStatus,
    platformPostUrl: t.platform_post_url,
    errorMessage: !published ? t.error_message
      : t.account_active === false ? `Metrics paused: the account needs reconnecting${t.inactive_reason ? ` (${t.inactive_reason})` : ''}`
        : t.last_error,
  };
}

/** YYYY-MM-DD (or an ISO date-time) to an instant; `endOfDay` makes a bare date inclusive (its next midnight, UTC). */
function parseDay(field: string, v: string, endOfDay: boolean): Date {
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(v);
  const d = new Date(bare ? `${v}T00:00:00Z` : v);
  if (Number.isNaN(d.getTime())) throw fieldError(field, 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time');
  return bare && endOfDay ? new Date(d.getTime() + DAY) : d;
}

export interface AnalyticsServiceDeps {
  db: Db;
  clock: () => Date;
  adapters: AdapterRegistry;
  secrets: SecretBox;
  accounts: AccountsRepository;
  /** The tenant's add-ons (users service). */
  addons(tenantId: string): Promise<readonly string[]>;
  /**
   * The tenants holding the Analytics add-on (users service): only their posts' metrics are read,
   * so a tenant without it never spends its platforms' rate limits on a view it cannot open.
   */
  tenantsWithAddon(): Promise<readonly string[]>;
}

export function createAnalyticsService(deps: AnalyticsServiceDeps) {
  const { db, clock } = deps;
  const repo = createAnalyticsRepository(db);

  /** @throws 402 analytics_addon_required, with the add-on to get. */
  async function requireAddon(auth: AuthContext): Promise<void> {
    if ((await deps.addons(auth.tenantId)).includes('analytics')) return;
    const addon = ADDONS.analytics;
    throw new AppError('analytics_addon_required', `Analytics requires the ${addon.name} add-on. ${addon.description}`, undefined, {
      upgrade: { addon: addon.id, name: addon.name, description: addon.description, howTo: 'Ask the operator of this Herald to grant the Analytics add-on to your account (herald user addon --addon analytics).' },
    });
  }

  /** Profile scope of the caller (null: all), after checking a named profile is visible. */
  async function scopeOf(auth: AuthContext, profileId?: string): Promise<readonly string[] | null> {
    if (profileId) await getAccessibleProfile(db, auth, profileId);
    return auth.profileAccess === 'all' ? null : auth.profileIds;
  }

  function filtersOf(q: AnalyticsQuery, profileIds: readonly string[] | null): ListFilters {
    const now = clock();
    const to = q.toDate ? parseDay('toDate', q.toDate, true) : new Date(now.getTime() + 60_000);
    const from = q.fromDate ? parseDay('fromDate', q.fromDate, false) : new Date(now.getTime() - METRICS_FOLLOW_MS);
    if (from >= to) throw fieldError('fromDate', 'must be before toDate');
    if (to.getTime() - from.getTime() > 367 * DAY) throw fieldError('fromDate', 'the range may span at most 366 days');
    return { platform: q.platform && q.platform !== 'all' ? q.platform : null, profileId: q.profileId ?? null, profileIds, from, to };
  }

  function postView(p: PostRow, targets: TargetMetricsRow[]) {
    const published = targets.filter((t) => t.status === 'published');
    const synced = published.filter((t) => t.sync_status === 'synced');
    const lastUpdated = synced.reduce<Date | null>((a, t) => (t.last_refreshed_at && (!a || t.last_refreshed_at > a) ? t.last_refreshed_at : a), null);
    const first = published[0] ?? targets[0];
    return {
      analytics: postAnalytics(sumMetrics(synced.map(metricsOf)), lastUpdated),
      platforms: targets.map(platformAnalytics),
      platform: first?.platform ?? null,
      platformPostUrl: first?.platform_post_url ?? null,
      publishedAt: (p.published_at ?? published[0]?.published_at)?.toISOString() ?? null,
      syncStatus: (!published.length ? 'unavailable' : synced.length === published.length ? 'synced' : synced.length ? 'partial' : 'pending') as 'synced' | 'pending' | 'partial' | 'unavailable',
    };
  }

  async function single(auth: AuthContext, postId: string) {
    const [p] = await repo.posts(auth.tenantId, [postId]);
    if (!p) throw notFound('Post');
    const targets = (await repo.targets(auth.tenantId, [postId])).filter((t) => !t.profile_id || canAccessProfile(auth, t.profile_id));
    if (!targets.length) throw notFound('Post');
    const v = postView(p, targets);
    return {
      postId: p.id, status: p.status, content: p.content, scheduledFor: p.scheduled_for?.toISOString() ?? null, publishedAt: v.publishedAt,
      analytics: v.analytics, platformAnalytics: v.platforms, platform: v.platform, platformPostUrl: v.platformPostUrl, isExternal: false, syncStatus: v.syncStatus,
    };
  }

  async function list(auth: AuthContext, q: AnalyticsQuery) {
    const profileIds = await scopeOf(auth, q.profileId);
    const f = filtersOf(q, profileIds);
    const limit = q.limit ?? 50;
    const page = q.page ?? 1;
    const { ids, total } = await repo.listPosts(auth.tenantId, f, { by: q.sortBy ?? 'date', order: q.order ?? 'desc' }, { limit, offset: (page - 1) * limit });
    const [posts, targets, overview, accounts] = await Promise.all([
      repo.posts(auth.tenantId, ids), repo.targets(auth.tenantId, ids), repo.overview(auth.tenantId, profileIds), deps.accounts.listForTenant(auth.tenantId, q.profileId ?? null),
    ]);
    const byId = new Map(posts.map((p) => [p.id, p]));
    const matches = (t: TargetMetricsRow) => (!f.platform || t.platform === f.platform) && (!t.profile_id || canAccessProfile(auth, t.profile_id)) && (!f.profileId || t.profile_id === f.profileId);
    return {
      overview: {
        totalPosts: overview.total, publishedPosts: overview.published, scheduledPosts: overview.scheduled, lastSync: overview.lastSync?.toISOString() ?? null,
        // Accounts whose posts' metrics wait for a reconnection (the refresh pass skips them).
        dataStaleness: { staleAccountCount: overview.staleAccounts, syncTriggered: false },
      },
      posts: ids.map((id) => {
        const p = byId.get(id)!;
        const v = postView(p, targets.filter((t) => t.post_id === id && matches(t)));
        return {
          _id: p.id, content: p.content, scheduledFor: p.scheduled_for?.toISOString() ?? null, publishedAt: v.publishedAt, status: p.status,
          analytics: v.analytics, platforms: v.platforms, platform: v.platform, platformPostUrl: v.platformPostUrl, isExternal: false,
          profileId: targets.find((t) => t.post_id === id && t.profile_id)?.profile_id ?? null, syncStatus: v.syncStatus,
        };
      }),
      pagination: { page, limit, total, pages: Math.ceil(total / limit) },
      accounts: accounts.filter((a) => canAccessProfile(auth, a.profile_id)).map(toAccountView),
      hasAnalyticsAccess: true,
    };
  }

  /** Marks the account for reconnection once, from a refused read. */
  async function disconnect(a: AccountRow, err: AdapterError): Promise<void> {
    if (a.is_active) await deps.accounts.markNeedsReconnect(a.id, `${err.message} (reconnect the account)`);
  }

  return {
    requireAddon,

    /** GET /v1/analytics: the single-post view with `postId`, else the list view. */
    async get(auth: AuthContext, q: AnalyticsQuery) {
      await requireAddon(auth);
      return q.postId ? single(auth, q.postId) : list(auth, q);
    },

    /**
     * Daily gains of the selected posts' metrics (the dashboard's chart), with totals per
     * platform and per profile over the range. Herald's own view (the official client has none).
     */
    async daily(auth: AuthContext, q: Omit<AnalyticsQuery, 'postId' | 'limit' | 'page' | 'sortBy' | 'order'>) {
      await requireAddon(auth);
      const f = filtersOf(q, await scopeOf(auth, q.profileId));
      const rows = await repo.daily(auth.tenantId, f);
      const num = (v: string | null) => (v === null ? null : Number(v));
      return {
        fromDate: f.from.toISOString(), toDate: f.to.toISOString(),
        days: rows.map((r) => ({
          date: r.day.toISOString().slice(0, 10),
          ...Object.fromEntries(METRICS.map((k) => [k, num(r[k])])) as Record<MetricName, number | null>,
          engagement: Number(r.engagement ?? 0),
        })),
      };
    },

    /**
     * One refresh pass (the worker runs it every few minutes; one pass at a time across processes):
     * follows newly published targets, then reads the due ones account by account, at most the
     * platform's `postsPerPass` (src/shared/metrics.ts) per account. A 429 moves that account's targets back by the
     * platform's wait (or a doubling backoff); accounts that need reconnection are skipped and
     * reported, and a read refused for revoked access marks its account so.
     */
    async refreshDue(): Promise<MetricsPassResult> {
      const out: MetricsPassResult = { enrolled: 0, refreshed: 0, missing: 0, rateLimited: 0, failed: 0, needsReconnect: [] };
      const lease = await takeJobLease(db, METRICS_LEASE, METRICS_LEASE_TTL_MS);
      if (!lease) return out;
      try {
        const now = clock();
        const without = PLATFORMS.filter((p) => !deps.adapters.get(p)?.fetchMetrics);
        out.enrolled = await repo.enroll(now, METRICS_FOLLOW_MS, without);
        const tenantsWithAddon = await deps.tenantsWithAddon();
        const due = await repo.due(now, METRICS_PASS_LIMIT, deps.adapters.sandbox === true, tenantsWithAddon);
        // Not read (and not retried in a loop) until reconnected; reported each pass.
        out.needsReconnect = (await repo.waitingForReconnect(now, tenantsWithAddon)).map((w) => ({ accountId: w.account_id, platform: w.platform, targets: Number(w.targets) }));
        const byAccount = new Map<string, typeof due>();
        for (const t of due) byAccount.set(t.account_id, [...(byAccount.get(t.account_id) ?? []), t]);
        const tenants = new Map<string, string[]>();
        for (const t of due) tenants.set(t.tenant_id, [...new Set([...(tenants.get(t.tenant_id) ?? []), t.account_id])]);
        const accounts = new Map<string, AccountRow>();
        for (const [tenant, ids] of tenants) for (const a of await findTenantAccounts(db, tenant, ids)) accounts.set(a.id, a);
        for (const [accountId, all] of byAccount) {
          const a = accounts.get(accountId);
          if (!a) continue; // removed since the targets were read
          const adapter = deps.adapters.get(a.platform);
          if (!adapter?.fetchMetrics) {
            await repo.stopFollowing(all.map((t) => t.target_id));
            continue;
          }
          // Oldest due first; the rest wait for the next pass (each platform's posts-per-pass cap keeps within its read limits).
          const batch = all.slice(0, PLATFORM_METRICS[a.platform].postsPerPass);
          const { account, ctx } = adapterContextFor(deps.accounts, a);
          try {
            const got = await adapter.fetchMetrics(ctx, account, batch.map((t) => t.platform_post_id));
            const at = clock();
            for (const t of batch) {
              const interval = refreshInterval(at.getTime() - t.published_at.getTime());
              const next = interval === null ? null : new Date(at.getTime() + interval);
              const m = got.get(t.platform_post_id);
              if (m) { await repo.saveReading(t.target_id, t.tenant_id, m, at, next); out.refreshed++; }
              else { await repo.saveMissing(t.target_id, at, next); out.missing++; }
            }
          } catch (err) {
            const e = err instanceof AdapterError ? err : new AdapterError('transient', (err as Error).message);
            const failures = Math.max(...batch.map((t) => t.failures)) + 1;
            if (e.kind === 'disconnected') {
              await disconnect(a, e);
              out.needsReconnect.push({ accountId, platform: a.platform, targets: all.length });
              await repo.saveFailure(batch.map((t) => t.target_id), e.message, new Date(clock().getTime() + backoffDelay(failures)));
            } else if (e.kind === 'rate_limited') {
              out.rateLimited += batch.length;
              await repo.saveFailure(all.map((t) => t.target_id), e.message, new Date(clock().getTime() + backoffDelay(failures, e.opts.retryAfterMs)));
            } else {
              out.failed += batch.length;
              await repo.saveFailure(batch.map((t) => t.target_id), e.message, new Date(clock().getTime() + backoffDelay(failures)));
            }
          }
        }
      } finally {
        await lease.release();
      }
      return out;
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
