/**
 * A post's targets before they are written: which accounts a post goes to (named in
 * `platforms[]`, or every accessible active account), whether they fit each platform's
 * rules, and when each one runs.
 */
import { type FieldErrorCollector } from '../../core/errors.ts';
import { parseScheduledFor } from '../../core/time.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import type { MediaRef, PlatformId } from '../../platforms/types.ts';
import type { Queryable } from '../../storage/db.ts';
import { canAccessProfile, type AuthContext } from '../auth/context.ts';
import type { AccountRow } from '../accounts/service.ts';
import { findTenantAccounts, listTenantAccounts, type AccountRowCache } from '../accounts/repository.ts';
import type { PlatformTargetInput } from './schemas.ts';
import { buildPublishRequest, checkPlatformRules, threadItemsOf } from './validation.ts';

/** draft: saved only; now: published inline; scheduled: published at its time by a worker. */
export type Mode = 'draft' | 'now' | 'scheduled';

export interface ResolvedTarget {
  account: AccountRow;
  platform: PlatformId;
  customContent: string | null;
  platformSpecificData: Record<string, unknown>;
  /** The target's own time (its platforms[] entry's `scheduledFor`), or null: it runs at its post's time (see {@link targetRunAt}). */
  scheduledFor: Date | null;
  /**
   * Settings the platform's rules need besides the account's own, read from the platform when
   * the post is checked (Reddit: the subreddit's rules, `subredditRules`); see {@link TargetRulesDeps.ruleSettings}.
   */
  ruleSettings?: Record<string, unknown>;
}

export interface TargetRulesDeps {
  adapters: AdapterRegistry;
  clock: () => Date;
  /**
   * What a target's rules need from its platform, for the `platforms` that have such rules
   * (Reddit: the subreddit's posting rules through the account's session, cached). `read`
   * answers undefined when there is nothing or it cannot be read: the post is not blocked then
   * (the platform checks at publish time).
   */
  ruleSettings?: {
    platforms: readonly PlatformId[];
    read(target: ResolvedTarget): Promise<Record<string, unknown> | undefined>;
  };
}

/** Where target accounts come from: the database, or a preloaded list (bulk upload). */
export interface AccountSource {
  byIds(ids: string[]): Promise<AccountRow[]>;
  /** Every account of the tenant. */
  all(): Promise<AccountRow[]>;
  profileAccessible(profileId: string): Promise<boolean>;
}

/** An {@link AccountSource} reading the tenant's accounts from the database. */
export function dbAccountSource(q: Queryable, tenantId: string, auth?: AuthContext): AccountSource {
  return {
    byIds: (ids) => findTenantAccounts(q, tenantId, ids),
    all: () => listTenantAccounts(q, tenantId),
    profileAccessible: async (profileId) => {
      const { rows } = await q.query<{ id: string }>('SELECT id FROM profiles WHERE id = $1 AND tenant_id = $2', [profileId, tenantId]);
      return rows.length > 0 && (!auth || canAccessProfile(auth, profileId));
    },
  };
}

/**
 * An {@link AccountSource} whose named accounts come from a per-process cache of versioned rows
 * (the create route): the insert must then check them (accountVersionsOf, createAccountRowCache).
 */
export function cachedAccountSource(cache: AccountRowCache, q: Queryable, tenantId: string, auth?: AuthContext): AccountSource {
  return { ...dbAccountSource(q, tenantId, auth), byIds: (ids) => cache.byIds(q, tenantId, ids) };
}

/** The row versions of the targets' accounts that came from a cache (deduplicated), for the insert to check. */
export function accountVersionsOf(targets: ResolvedTarget[]): Array<{ id: string; version: string }> {
  const out = new Map<string, string>();
  for (const t of targets) {
    const version = (t.account as AccountRow & { row_version?: string }).row_version;
    if (version !== undefined) out.set(t.account.id, version);
  }
  return [...out].map(([id, version]) => ({ id, version }));
}

/** How far in the past a time may be and still count as "now" (a request's own transit, clocks). */
export const PAST_GRACE_MS = 60_000;

/**
 * The one run-at rule. A target's time is its own `scheduledFor` when it has one (`own`,
 * decision 0064), else its post's (`at`). Its run_at is that time, except on platforms that
 * schedule natively (capability `uploadsAhead`, YouTube): a target more than a minute ahead runs
 * at once (`now`) and the adapter hands the target's time to the platform (private + publishAt);
 * a nearer time is simply published then, as on other platforms. See docs/decisions/0017-youtube.md.
 * Used by create, edit, approval and the queue's reshuffle.
 */
export function targetRunAt(adapters: AdapterRegistry, platform: PlatformId, at: Date | null, now: Date, own: Date | null = null): Date | null {
  const time = own ?? at;
  if (time && time.getTime() > now.getTime() + PAST_GRACE_MS && adapters.get(platform)?.capabilities.uploadsAhead) return now;
  return time;
}

/** The earliest own time of the targets (null when none has one): a post given only per-target times takes it as its own. */
export function earliestTargetTime(targets: ReadonlyArray<Pick<ResolvedTarget, 'scheduledFor'>>): Date | null {
  const times = targets.map((t) => t.scheduledFor).filter((d): d is Date => d !== null);
  return times.length ? new Date(Math.min(...times.map((d) => d.getTime()))) : null;
}

/**
 * The rules of a target's own time (decision 0064), each error naming `platforms.N.scheduledFor`:
 * not with publishNow (everything goes at once) nor with a queue (the slot is the post's), and,
 * on a post that goes out, not more than a minute in the past. A draft keeps any time.
 */
export function checkTargetTimes(targets: ReadonlyArray<Pick<ResolvedTarget, 'scheduledFor'>>, ctx: { mode: Mode; queued: boolean; now: Date }, errors: FieldErrorCollector): void {
  targets.forEach((t, i) => {
    if (!t.scheduledFor) return;
    const field = `platforms.${i}.scheduledFor`;
    if (ctx.mode === 'now') errors.add(field, 'cannot be combined with publishNow (every target is published at once)');
    else if (ctx.queued) errors.add(field, 'cannot be combined with queuedFromProfile (the queue slot is the time of every target); give the post a scheduledFor instead');
    else if (ctx.mode === 'scheduled' && t.scheduledFor.getTime() < ctx.now.getTime() - PAST_GRACE_MS) {
      errors.add(field, `must not be in the past (it is ${t.scheduledFor.toISOString()}); give a later time, or null to follow the post's time`);
    }
  });
}

export function createTargetRules(deps: TargetRulesDeps) {
  const { adapters } = deps;

  const runAt = (platform: PlatformId, at: Date | null, now: Date, own: Date | null = null) => targetRunAt(adapters, platform, at, now, own);

  return {
    runAt,
    /** True when some target runs ahead of its time (see runAt). */
    uploadsAhead: (targets: ResolvedTarget[], at: Date | null, now: Date) => targets.some((t) => runAt(t.platform, at, now, t.scheduledFor) !== (t.scheduledFor ?? at)),

    /**
     * Loads the accounts named by `platforms[]`, or all accessible active accounts when
     * omitted on a non-draft (`onlyProfile`: that profile's accounts only, for queued posts).
     * Each entry's own `scheduledFor` is read in `timezone` (the post's); its rules are {@link checkTargetTimes}.
     */
    async resolve(source: AccountSource, auth: AuthContext, items: PlatformTargetInput[] | undefined, mode: Mode, errors: FieldErrorCollector, onlyProfile?: string,
      timezone?: string | null): Promise<ResolvedTarget[]> {
      if (items === undefined) {
        if (mode === 'draft') return [];
        const rows = (await source.all()).filter((a) => a.is_active && (!onlyProfile || a.profile_id === onlyProfile));
        const accessible = rows.filter((a) => canAccessProfile(auth, a.profile_id));
        if (accessible.length === 0) errors.add('platforms', 'is required: there are no active connected accounts to publish to');
        return accessible.map((a) => ({ account: a, platform: a.platform, customContent: null, platformSpecificData: {}, scheduledFor: null }));
      }
      if (items.length === 0 && mode !== 'draft') {
        errors.add('platforms', 'must name at least one { platform, accountId } (or be omitted to target all active accounts)');
        return [];
      }
      const ids = [...new Set(items.map((i) => i.accountId.toLowerCase()))];
      const rows = await source.byIds(ids);
      const byId = new Map(rows.filter((a) => canAccessProfile(auth, a.profile_id)).map((a) => [a.id, a]));
      const seen = new Set<string>();
      const out: ResolvedTarget[] = [];
      items.forEach((item, i) => {
        const id = item.accountId.toLowerCase();
        const account = byId.get(id);
        if (!account) {
          errors.add(`platforms.${i}.accountId`, 'is not a connected account of yours (see GET /v1/accounts)');
          return;
        }
        if (account.platform !== item.platform) {
          errors.add(`platforms.${i}.platform`, `does not match the account's platform (${account.platform})`);
          return;
        }
        if (seen.has(id)) {
          errors.add(`platforms.${i}.accountId`, 'appears more than once in platforms');
          return;
        }
        seen.add(id);
        let own: Date | null = null;
        if (item.scheduledFor) {
          const r = parseScheduledFor(item.scheduledFor, timezone ?? 'UTC');
          if (r.ok) own = r.instant;
          else if (r.field === 'scheduledFor') errors.add(`platforms.${i}.scheduledFor`, r.message); // a bad timezone is the post's error
        }
        if (!account.is_active && mode !== 'draft') {
          errors.add(`platforms.${i}.accountId`, `the ${account.platform} account @${account.username} is disconnected (${account.inactive_reason ?? 'reconnect it'}); reconnect it before publishing`);
          return;
        }
        out.push({
          account,
          platform: item.platform,
          customContent: item.customContent ?? null,
          platformSpecificData: (item.platformSpecificData ?? {}) as Record<string, unknown>,
          scheduledFor: own,
        });
      });
      return out;
    },

    /** True when a target on `platform` has rules that read settings from the platform ({@link readRuleSettings}). */
    readsFromPlatform(platform: string): boolean {
      return !!deps.ruleSettings?.platforms.includes(platform as PlatformId);
    },

    /** Reads each target's {@link ResolvedTarget.ruleSettings} (before {@link check}; a failed read leaves it unset). */
    async readRuleSettings(targets: ResolvedTarget[]): Promise<void> {
      const source = deps.ruleSettings;
      if (!source) return;
      await Promise.all(targets.filter((t) => source.platforms.includes(t.platform)).map(async (t) => {
        const settings = await source.read(t).catch(() => undefined);
        if (settings) t.ruleSettings = settings;
      }));
    },

    /** Checks every target against its platform's rules (skipped for drafts). */
    check(targets: ResolvedTarget[], content: string, media: MediaRef[], tags: string[], visibility: 'public' | 'private' | 'unlisted', at: Date | null, errors: FieldErrorCollector,
      marks: { hashtags: string[]; mentions: string[] } = { hashtags: [], mentions: [] }) {
      targets.forEach((t, i) => {
        const thread = threadItemsOf(t.platformSpecificData, `platforms.${i}.platformSpecificData`, errors);
        const req = buildPublishRequest({
          content, customContent: t.customContent, mediaItems: media, platformSpecificData: t.platformSpecificData,
          threadItems: thread, tags, visibility, scheduledFor: t.scheduledFor ?? at, accountSettings: { ...(t.account.settings ?? {}), ...(t.ruleSettings ?? {}) },
          platform: t.platform, hashtags: marks.hashtags, mentions: marks.mentions,
        });
        if (!req.text.trim() && req.mediaItems.length === 0) {
          errors.add(t.customContent !== null ? `platforms.${i}.customContent` : 'content', `is required for ${t.platform}: give text or mediaItems`);
          return;
        }
        checkPlatformRules(adapters, t.platform, i, req, t.customContent !== null, errors);
      });
    },
  };
}

export type TargetRules = ReturnType<typeof createTargetRules>;
