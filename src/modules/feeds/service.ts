/**
 * Feeds (RSS to queue, docs/decisions/0065-rss-to-queue.md): a profile follows RSS 2.0, Atom and
 * JSON feeds; each new item becomes a draft or a queued post from the feed's template, once.
 * `/v1/feeds` (list, get with its latest items, create, update, delete, check now) and `runDue`,
 * the poll pass the worker runs (./poller.ts).
 *
 * Errors: 400 naming `url` (not http(s), a private or reserved address, over 2048 characters),
 * `template` (empty, unknown placeholder), `accountIds` / `accountIds.N` (repeated, not an account
 * of the feed's profile, none for `mode: queue`), `mode` (queue without an active queue schedule),
 * `name`; 404 for a profile or feed of another tenant or outside the caller's profiles; 409 when
 * the profile follows the URL already.
 */
import { AppError, FieldErrorCollector, notFound } from '../../core/errors.ts';
import { checkFetchUrl } from '../../shared/net/address-policy.ts';
import { canAccessProfile, type AuthContext } from '../auth/context.ts';
import { getAccessibleProfile } from '../profiles/service.ts';
import { createFeedCheck, type CheckDeps, type CheckResult } from './check.ts';
import { DEFAULT_TEMPLATE, TEMPLATE_FIELDS, unknownPlaceholders } from './parse.ts';
import type { FeedFields, FeedItemRow, FeedRow, FeedsRepository } from './repository.ts';

/** Longest feed URL, characters. */
export const FEED_URL_MAX = 2048;
/** Longest template, characters. */
export const TEMPLATE_MAX = 5000;
/** Most target accounts of a feed. */
export const FEED_ACCOUNTS_MAX = 50;
/** Longest feed name, characters. */
export const FEED_NAME_MAX = 100;
/** Default minutes between checks. */
export const DEFAULT_POLL_MINUTES = 30;
/** Items shown with a feed (GET /v1/feeds/{feedId}). */
export const RECENT_ITEMS = 20;
/** How long a worker holds a feed it checks, ms (a fetch is capped at 20 s; the rest is writing its posts). */
export const FEED_LEASE_MS = 120_000;

/** A feed as the API shows it. */
export interface FeedView {
  _id: string; profileId: string; url: string; name: string | null; title: string | null;
  mode: 'draft' | 'queue'; template: string; accountIds: string[]; includeImage: boolean; importExisting: boolean;
  paused: boolean; pollIntervalMinutes: number;
  status: 'active' | 'paused' | 'failing';
  lastCheckedAt: string | null; lastSuccessAt: string | null; nextCheckAt: string | null;
  lastError: string | null; lastErrorAt: string | null; consecutiveFailures: number;
  createdAt: string; updatedAt: string;
}

/** An item as the API shows it. */
export interface FeedItemView {
  _id: string; key: string; title: string | null; link: string | null; publishedAt: string | null;
  status: 'created' | 'skipped' | 'failed'; postId: string | null; error: string | null; createdAt: string;
}

/** The fields of a create (all but profileId and url optional) or an update (all optional). */
export interface FeedInput {
  url?: string; name?: string | null; mode?: 'draft' | 'queue'; template?: string; accountIds?: string[];
  includeImage?: boolean; importExisting?: boolean; paused?: boolean; pollIntervalMinutes?: number;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The API view of a stored feed. */
export function feedView(f: FeedRow): FeedView {
  return {
    _id: f.id, profileId: f.profile_id, url: f.url, name: f.name, title: f.title, mode: f.mode, template: f.template,
    accountIds: f.account_ids.map((a) => a.trim()), includeImage: f.include_image, importExisting: f.import_existing, paused: f.paused,
    pollIntervalMinutes: f.poll_interval_minutes,
    status: f.paused ? 'paused' : f.consecutive_failures > 0 ? 'failing' : 'active',
    lastCheckedAt: iso(f.last_checked_at), lastSuccessAt: iso(f.last_success_at), nextCheckAt: f.paused ? null : iso(f.next_check_at),
    lastError: f.last_error, lastErrorAt: iso(f.last_error_at), consecutiveFailures: f.consecutive_failures,
    createdAt: f.created_at.toISOString(), updatedAt: f.updated_at.toISOString(),
  };
}

function itemView(i: FeedItemRow): FeedItemView {
  return {
    _id: i.id, key: i.item_key, title: i.title, link: i.link, publishedAt: iso(i.published_at), status: i.status,
    postId: i.post_id?.trim() ?? null, error: i.error, createdAt: i.created_at.toISOString(),
  };
}

/**
 * The feeds service: the routes' operations and the poll pass. `workerId` names this process in the
 * feeds' leases; `allowPrivateUrls` (tests, local development) lets feed URLs reach private addresses.
 */
export function createFeedsService(deps: Omit<CheckDeps, 'repository'> & { repository: FeedsRepository; workerId: string }) {
  const { db, repository: feeds } = deps;
  const check = createFeedCheck(deps);
  const wakers = new Set<() => void>();

  /** The feed when the caller may see it. @throws 404 otherwise. */
  async function visible(auth: AuthContext, id: string): Promise<FeedRow> {
    const f = await feeds.get(auth.tenantId, id);
    if (!f || !canAccessProfile(auth, f.profile_id)) throw notFound('Feed');
    return f;
  }

  /** Checks the complete fields of a feed on `profileId`. @throws 400 naming every bad field. */
  async function checked(auth: AuthContext, profileId: string, f: FeedFields): Promise<FeedFields> {
    const errors = new FieldErrorCollector();
    const url = f.url.trim();
    if ([...url].length > FEED_URL_MAX) errors.add('url', `must be at most ${FEED_URL_MAX} characters`);
    else {
      const ok = checkFetchUrl(url, { allowPrivate: deps.allowPrivateUrls });
      if (!ok.ok) errors.add('url', ok.message);
    }
    const name = f.name?.trim() || null;
    if (name && [...name].length > FEED_NAME_MAX) errors.add('name', `must be at most ${FEED_NAME_MAX} characters`);
    const template = f.template;
    if (!template.trim()) errors.add('template', 'must not be empty');
    else if ([...template].length > TEMPLATE_MAX) errors.add('template', `must be at most ${TEMPLATE_MAX} characters`);
    else {
      const unknown = unknownPlaceholders(template);
      if (unknown.length) errors.add('template', `unknown placeholder {${unknown[0]}}; use ${TEMPLATE_FIELDS.map((n) => `{${n}}`).join(', ')}`);
    }
    if (f.accountIds.length > FEED_ACCOUNTS_MAX) errors.add('accountIds', `must name at most ${FEED_ACCOUNTS_MAX} accounts`);
    if (f.mode === 'queue' && f.accountIds.length === 0) errors.add('accountIds', 'a feed whose items are queued needs at least one account to publish to');
    const { rows } = await db.query<{ id: string }>('SELECT id FROM accounts WHERE tenant_id = $1 AND profile_id = $2', [auth.tenantId, profileId]);
    const ofProfile = new Set(rows.map((r) => r.id));
    const seen = new Set<string>();
    f.accountIds.forEach((id, i) => {
      if (seen.has(id)) errors.add(`accountIds.${i}`, `repeats ${id}`);
      else if (!ofProfile.has(id)) errors.add(`accountIds.${i}`, `${id} is not a connected account of the feed's profile`);
      seen.add(id);
    });
    if (f.mode === 'queue') {
      const { rows: q } = await db.query<{ active: boolean }>('SELECT active FROM queue_schedules WHERE profile_id = $1', [profileId]);
      if (!q[0]?.active) errors.add('mode', 'queue needs an active queue schedule on the profile (PUT /v1/queue/slots); use draft otherwise');
    }
    errors.throwIfAny();
    return { ...f, url, name, template };
  }

  return {
    /** `{ feeds }`: the caller's feeds (of one profile with `profileId`), oldest first. @throws 404 for a profile the caller cannot see. */
    async list(auth: AuthContext, profileId?: string): Promise<{ feeds: FeedView[] }> {
      if (profileId) await getAccessibleProfile(db, auth, profileId);
      const scope = profileId ? [profileId] : auth.profileAccess === 'all' ? null : [...auth.profileIds];
      return { feeds: (await feeds.list(auth.tenantId, scope)).map(feedView) };
    },

    /** `{ feed, items }`: one feed and its {@link RECENT_ITEMS} latest items, newest first. */
    async get(auth: AuthContext, id: string): Promise<{ feed: FeedView; items: FeedItemView[] }> {
      const f = await visible(auth, id);
      return { feed: feedView(f), items: (await feeds.recentItems(f.id, RECENT_ITEMS)).map(itemView) };
    },

    /** Follows a feed: `{ message, feed }`; it is checked at once. */
    async create(auth: AuthContext, input: FeedInput & { profileId: string; url: string }): Promise<{ message: string; feed: FeedView }> {
      const profile = await getAccessibleProfile(db, auth, input.profileId);
      const f = await checked(auth, profile.id, {
        url: input.url, name: input.name ?? null, mode: input.mode ?? 'queue', template: input.template ?? DEFAULT_TEMPLATE,
        accountIds: input.accountIds ?? [], includeImage: input.includeImage ?? true, importExisting: input.importExisting ?? false,
        paused: input.paused ?? false, pollIntervalMinutes: input.pollIntervalMinutes ?? DEFAULT_POLL_MINUTES,
      });
      const row = await feeds.insert(auth.tenantId, profile.id, auth.userId, f);
      if (!row) throw new AppError('CONFLICT', 'This profile follows this feed already', { field: 'url' });
      if (!row.paused) this.wake();
      return { message: 'Feed added', feed: feedView(row) };
    },

    /** Changes a feed (pause, resume, template, accounts, URL...): `{ message, feed }`. */
    async update(auth: AuthContext, id: string, input: FeedInput): Promise<{ message: string; feed: FeedView }> {
      const cur = await visible(auth, id);
      // Kept accounts: those still connected to the profile (a disconnected one is dropped, not refused).
      const { rows: live } = await db.query<{ id: string }>('SELECT id FROM accounts WHERE tenant_id = $1 AND profile_id = $2', [auth.tenantId, cur.profile_id]);
      const liveIds = new Set(live.map((r) => r.id));
      const f = await checked(auth, cur.profile_id, {
        url: input.url ?? cur.url, name: input.name !== undefined ? input.name : cur.name, mode: input.mode ?? cur.mode,
        template: input.template ?? cur.template, accountIds: input.accountIds ?? cur.account_ids.map((a) => a.trim()).filter((a) => liveIds.has(a)),
        includeImage: input.includeImage ?? cur.include_image, importExisting: cur.import_existing, paused: input.paused ?? cur.paused,
        pollIntervalMinutes: input.pollIntervalMinutes ?? cur.poll_interval_minutes,
      });
      if (f.url !== cur.url && await feeds.urlTaken(cur.profile_id, f.url, cur.id)) throw new AppError('CONFLICT', 'This profile follows this feed already', { field: 'url' });
      const row = await feeds.update(auth.tenantId, id, f);
      if (!row) throw notFound('Feed');
      if (!row.paused) this.wake();
      return { message: 'Feed updated', feed: feedView(row) };
    },

    /** Stops following a feed (the posts made from it stay): `{ message }`. */
    async remove(auth: AuthContext, id: string): Promise<{ message: string }> {
      await visible(auth, id);
      if (!(await feeds.remove(auth.tenantId, id))) throw notFound('Feed');
      return { message: 'Feed deleted' };
    },

    /** Makes a feed due now (a worker checks it within seconds): `{ message, feed }`. @throws 409 for a paused feed. */
    async checkNow(auth: AuthContext, id: string): Promise<{ message: string; feed: FeedView }> {
      const cur = await visible(auth, id);
      if (cur.paused) throw new AppError('INVALID_STATE', 'This feed is paused; resume it first (PUT with paused: false)');
      await feeds.makeDue(auth.tenantId, id);
      this.wake();
      return { message: 'Feed check requested', feed: feedView((await feeds.get(auth.tenantId, id))!) };
    },

    /**
     * One poll pass: leases up to `limit` due feeds to this process and checks them, `concurrency` at a
     * time. Returns what each check did. A feed another worker holds is left to it.
     */
    async runDue(opts: { limit?: number; concurrency?: number; workerId?: string } = {}): Promise<CheckResult[]> {
      const workerId = opts.workerId ?? deps.workerId;
      const due = await feeds.claimDue(workerId, opts.limit ?? 20, FEED_LEASE_MS);
      const results: CheckResult[] = [];
      const queue = [...due];
      const run = async () => { for (let f = queue.shift(); f; f = queue.shift()) results.push(await check(f, workerId)); };
      await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 4, queue.length) }, run));
      return results;
    },

    /** Checks one leased feed row (tests drive two checks of one feed at once with it). */
    checkLeased: check,

    /** Wakes this process's poller (a feed was added, resumed or asked to be checked). */
    wake(): void { for (const w of wakers) w(); },
    /** Registers a poller's wake-up; returns its removal. */
    onWake(fn: () => void): () => void { wakers.add(fn); return () => wakers.delete(fn); },
  };
}

export type FeedsService = ReturnType<typeof createFeedsService>;
