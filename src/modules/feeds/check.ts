/**
 * One check of a leased feed: fetch (conditional GET through the SSRF guard), parse, and turn each
 * new item into a post from the feed's template, once. "Once" holds twice over: a feed is leased
 * to one worker at a time (repository.claimDue), and an item's record and its post are written in
 * one transaction whose item insert is refused by the unique index `(feed_id, item_key)` when any
 * other check recorded the item first, so a second post is never written.
 *
 * A failed check (network, HTTP status, SSRF refusal, a body that is no feed) keeps the feed's
 * items as they are, records the error on the feed, and backs off: the n-th failure in a row waits
 * the poll interval times 2^(n-1), at most {@link MAX_BACKOFF_MS}.
 */
import { AppError } from '../../core/errors.ts';
import { FetchBlockedError } from '../../infra/ssrf.ts';
import type { Db } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { dbAccountSource, type PlannedPost, type PostsService } from '../posts/service.ts';
import type { PublishingPort } from '../posts/publishing-port.ts';
import type { CreatePostBody } from '../posts/schemas.ts';
import { fetchFeed, type FetchedFeed } from './fetch.ts';
import { FeedParseError, renderTemplate, type FeedItem } from './parse.ts';
import type { FeedRow, FeedsRepository } from './repository.ts';
import { ALL_PERMISSIONS } from '../../shared/permissions.ts';
import type { PlanId } from '../../shared/plans.ts';

/** Longest wait between checks of a failing feed, ms (24 hours). */
export const MAX_BACKOFF_MS = 24 * 3_600_000;
/** Most new items turned into posts per check (the oldest first; the rest wait for the next check). */
export const MAX_NEW_ITEMS_PER_CHECK = 20;

/** What one check did. */
export interface CheckResult {
  feedId: string;
  outcome: 'ok' | 'not_modified' | 'failed' | 'lost_lease';
  /** Posts written by this check. */
  created: number;
  /** Items recorded without a post (first check without importExisting, or failed items). */
  skipped: number;
  error?: string;
}

/** What a check needs: the database, the feeds repository, the posts module's plan and insert, the publisher's wake-up, a clock. */
export interface CheckDeps {
  db: Db;
  repository: FeedsRepository;
  posts: Pick<PostsService, 'planNewPost' | 'insertPlannedPosts'>;
  publisher: Pick<PublishingPort, 'notifyDue'>;
  clock: () => Date;
  allowPrivateUrls: boolean;
}

/** When a feed is checked next after `failures` failures in a row (0: after a success). */
export function nextCheckAt(now: Date, intervalMinutes: number, failures: number): Date {
  const base = intervalMinutes * 60_000;
  const wait = failures <= 0 ? base : Math.min(base * 2 ** (failures - 1), MAX_BACKOFF_MS);
  return new Date(now.getTime() + Math.max(base, wait));
}

/** The feed's error in words, for `lastError`. */
function errorText(err: unknown): string {
  if (err instanceof FetchBlockedError) return `refused: ${err.message}`;
  if (err instanceof FeedParseError) return err.message;
  return (err as Error)?.message ?? String(err);
}

/** The user the feed's posts are created as: its creator (their plan, profile access), or the tenant's owner when the creator left. */
async function authOf(db: Db, feed: FeedRow): Promise<AuthContext> {
  const { rows } = await db.query<{ id: string; tenant_id: string; is_root: boolean; profile_access: 'all' | 'profiles'; profile_ids: string[] | null; plan: PlanId; billing_period: AuthContext['billingPeriod']; billing_anchor: Date }>(
    `SELECT u.id, u.tenant_id, u.is_root, u.profile_access, u.profile_ids, r.plan, r.billing_period, r.billing_anchor
       FROM users u JOIN users r ON r.id = u.tenant_id
      WHERE u.id = ANY($1::char(24)[]) AND u.tenant_id = $2
      ORDER BY (u.id = $3) DESC LIMIT 1`, [[feed.created_by, feed.tenant_id], feed.tenant_id, feed.created_by]);
  const u = rows[0];
  if (!u) throw new Error('the feed\'s owner no longer exists');
  return {
    tenantId: u.tenant_id, userId: u.id, isRoot: u.is_root, keyId: `feed:${feed.id}`, permissions: new Set(ALL_PERMISSIONS),
    profileAccess: u.profile_access, profileIds: u.profile_ids ?? [], plan: u.plan, billingPeriod: u.billing_period, billingAnchor: u.billing_anchor,
  };
}

/** Builds the check of one leased feed: `check(feed, workerId)` resolves to a {@link CheckResult}. */
export function createFeedCheck(deps: CheckDeps) {
  const { db, repository } = deps;

  /** The post body of an item (draft, or queued on the feed's profile). */
  async function bodyOf(feed: FeedRow, item: FeedItem, mode: 'draft' | 'queue'): Promise<CreatePostBody> {
    const { rows } = await db.query<{ id: string; platform: string }>(
      'SELECT id, platform FROM accounts WHERE tenant_id = $1 AND id = ANY($2::char(24)[])', [feed.tenant_id, feed.account_ids]);
    const platformOf = new Map(rows.map((r) => [r.id, r.platform]));
    const platforms = feed.account_ids.filter((id) => platformOf.has(id)).map((id) => ({ platform: platformOf.get(id)!, accountId: id }));
    return {
      content: renderTemplate(feed.template, item),
      ...(feed.include_image && item.imageUrl ? { mediaItems: [{ type: 'image' as const, url: item.imageUrl }] } : {}),
      platforms: platforms as CreatePostBody['platforms'],
      ...(mode === 'queue' ? { queuedFromProfile: feed.profile_id } : { isDraft: true }),
      metadata: { feed: { feedId: feed.id, itemKey: item.key, link: item.link || null } },
    };
  }

  /** Plans and writes the item's post with its record, in one transaction. 'duplicate': recorded already by another check. */
  async function write(auth: AuthContext, feed: FeedRow, item: FeedItem, mode: 'draft' | 'queue', note: string | null): Promise<'created' | 'duplicate'> {
    const plan: PlannedPost = await deps.posts.planNewPost(auth, await bodyOf(feed, item, mode), dbAccountSource(db, feed.tenant_id, auth));
    const written = await db.tx(async (client) => {
      const itemId = await repository.recordItem(client, feed, item, { status: 'created', postId: plan.id, error: note });
      if (!itemId) return false;
      await deps.posts.insertPlannedPosts(client, auth, [plan]);
      return true;
    });
    if (!written) return 'duplicate';
    if (plan.runAt && plan.mode !== 'draft') deps.publisher.notifyDue(plan.runAt);
    return 'created';
  }

  /**
   * The item's post: queued (or a draft, by the feed's mode). A queued post the rules or the queue
   * refuse (too long for a platform, no free slot, the plan's limit) is saved as a draft instead,
   * with the reason on the item; an item no post can be made of is recorded as failed.
   */
  async function createPost(auth: AuthContext, feed: FeedRow, item: FeedItem): Promise<'created' | 'duplicate' | 'failed'> {
    try {
      return await write(auth, feed, item, feed.mode, null);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const reason = err.details?.fields ? `${err.message} (${JSON.stringify(err.details.fields)})` : err.message;
      if (feed.mode === 'queue') {
        try {
          return await write(auth, feed, item, 'draft', `saved as a draft: ${reason}`.slice(0, 1000));
        } catch (again) {
          if (!(again instanceof AppError)) throw again;
        }
      }
      const id = await repository.recordItem(db, feed, item, { status: 'failed', error: reason.slice(0, 1000) });
      return id ? 'failed' : 'duplicate';
    }
  }

  /** Checks one feed this worker leased; writes the outcome under the lease. Never throws for the feed's own failures. */
  return async function check(feed: FeedRow, workerId: string): Promise<CheckResult> {
    const result: CheckResult = { feedId: feed.id, outcome: 'ok', created: 0, skipped: 0 };
    let fetched: FetchedFeed;
    try {
      fetched = await fetchFeed(feed.url, { etag: feed.etag, lastModified: feed.last_modified }, { allowPrivate: deps.allowPrivateUrls });
    } catch (err) {
      const error = errorText(err);
      const ok = await repository.finishCheck(feed.id, workerId, { ok: false, error, nextCheckAt: nextCheckAt(deps.clock(), feed.poll_interval_minutes, feed.consecutive_failures + 1) });
      return { ...result, outcome: ok ? 'failed' : 'lost_lease', error };
    }
    if (fetched.kind === 'not_modified') {
      const ok = await repository.finishCheck(feed.id, workerId, { ok: true, nextCheckAt: nextCheckAt(deps.clock(), feed.poll_interval_minutes, 0) });
      return { ...result, outcome: ok ? 'not_modified' : 'lost_lease' };
    }
    const { feed: parsed, validators } = fetched;
    const firstCheck = feed.last_success_at === null && (await repository.itemCount(feed.id)) === 0;
    const known = await repository.knownKeys(feed.id, parsed.items.map((i) => i.key));
    const seen = new Set<string>();
    // Oldest first (by date where the feed gives one, else the feed's newest-first order reversed), so the queue keeps their order.
    const fresh = parsed.items.map((item, i) => ({ item, i })).filter(({ item }) => !known.has(item.key) && !seen.has(item.key) && seen.add(item.key))
      .sort((a, b) => (a.item.publishedAt && b.item.publishedAt ? a.item.publishedAt.getTime() - b.item.publishedAt.getTime() : b.i - a.i))
      .map(({ item }) => item);
    let error: string | undefined;
    try {
      if (firstCheck && !feed.import_existing) {
        for (const item of fresh) if (await repository.recordItem(db, feed, item, { status: 'skipped', error: 'in the feed when it was added (importExisting: false)' })) result.skipped++;
      } else if (fresh.length > 0) {
        const auth = await authOf(db, feed);
        for (const item of fresh.slice(0, MAX_NEW_ITEMS_PER_CHECK)) {
          const r = await createPost(auth, feed, item);
          if (r === 'created') result.created++;
          else if (r === 'failed') result.skipped++;
        }
      }
    } catch (err) {
      error = `items could not be saved: ${errorText(err)}`;
    }
    const now = deps.clock();
    const ok = error
      ? await repository.finishCheck(feed.id, workerId, { ok: false, error, nextCheckAt: nextCheckAt(now, feed.poll_interval_minutes, feed.consecutive_failures + 1) })
      : await repository.finishCheck(feed.id, workerId, { ok: true, title: parsed.title || null, etag: validators.etag, lastModified: validators.lastModified, nextCheckAt: nextCheckAt(now, feed.poll_interval_minutes, 0) });
    return { ...result, outcome: !ok ? 'lost_lease' : error ? 'failed' : 'ok', ...(error ? { error } : {}) };
  };
}
