/**
 * Creating posts: plan (validate everything, write nothing), insert (posts and their
 * targets, the jobs, in one statement), and the create route's flow. Bulk upload uses
 * plan + insert for many posts in one transaction.
 */
import { AppError, FieldErrorCollector, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { PLANS } from '../../shared/plans.ts';
import type { Db, Queryable } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { enrichMediaRefs, type EnrichOptions } from '../media/lookup.ts';
import type { QueueService } from '../queue/service.ts';
import type { UsageService } from '../usage/service.ts';
import { contentHash, duplicateContentError, isDuplicateError, type ContentClaim } from './duplicates.ts';
import { reserveIdempotencyKey } from './idempotency.ts';
import type { PublishingPort } from './publishing-port.ts';
import { insertPostsWithTargets, isStaleAccountsError, postView, type NewTarget, type PostFields, type PostRow, type PostViewT } from './repository.ts';
import type { CreatePostBody } from './schemas.ts';
import type { AccountRowCache } from '../accounts/repository.ts';
import {
  accountVersionsOf, cachedAccountSource, checkTargetTimes, dbAccountSource, earliestTargetTime, type AccountSource, type Mode, type ResolvedTarget, type TargetRules,
} from './targets.ts';
import { dropTagOverflow, normalizeHashtags, normalizeMedia, normalizeMentions, normalizeTags, parseSchedule, threadItemsOf } from './validation.ts';
import type { PublishInline, WriteResult } from './publish-inline.ts';
import { recordReviewEvent, reviewNeeded } from '../approvals/repository.ts';
import { enqueueReviewEvent } from '../webhooks/outbox.ts';
import { planRecycling, writeRecycling } from './recycling.ts';
import type { RecyclingChange } from './recycling-state.ts';
import type { RecyclingInput } from './schemas.ts';

/** A validated new post, ready to insert (plan -> insert). */
export interface PlannedPost extends Pick<PostFields, 'title' | 'content' | 'visibility' | 'tags' | 'hashtags' | 'mentions' | 'media' | 'hidden' | 'metadata'> {
  id: string;
  mode: Mode;
  warnings: string[];
  queueProfile: string | null;
  /** The queue of `queueProfile` the client named (null: its default queue); the queue taken, once inserted. */
  queueId: string | null;
  targets: ResolvedTarget[];
  /** Filled by insert. */
  targetIds: string[];
  /** (account, content) pairs reserved against duplicates; empty for drafts and with allowDuplicate. */
  claims: ContentClaim[];
  runAt: Date | null;
  timezone: string;
  timezoneGiven: boolean;
  preferredAt: Date | null;
  /**
   * The post waits for approval (decision 0059): it goes out on a profile whose rule requires
   * approval and the caller may not approve there. Saved `pending_approval`, its targets drafts.
   */
  review: boolean;
  /** The request's `recycling` (decision 0061), applied again in the insert's transaction once the post's time is known (a queue slot). */
  recyclingInput: RecyclingInput | null;
  /** The config it gives (planned with the requested time); null without recycling. */
  recycling: RecyclingChange | null;
  /** Set by insert. */
  createdAt?: Date;
}

export function createPostCreation(deps: {
  db: Db; usage: UsageService; publisher: PublishingPort; clock: () => Date; queue: QueueService; rules: TargetRules; publishInline: PublishInline;
  probeRemoteImage?: EnrichOptions['probeRemoteImage'];
  /** Account rows kept per process for the create route (one statement per create; see createAccountRowCache). */
  accountRows?: AccountRowCache;
  /** Called after posts were submitted for approval (committed): the approvers' mail. */
  onSubmitted?: (tenantId: string, postIds: string[]) => void;
}) {
  const { db, usage, publisher, clock, queue, rules } = deps;

  /**
   * Validates a new post completely (schema-level input already checked) without writing
   * anything: mode, schedule, tags, media, targets and every platform rule.
   * @throws AppError VALIDATION_ERROR naming each field and rule; NOT_FOUND for a foreign queue profile.
   */
  async function plan(auth: AuthContext, body: CreatePostBody, source: AccountSource): Promise<PlannedPost> {
    const errors = new FieldErrorCollector();
    const warnings: string[] = [];
    if (body.isDraft && body.publishNow) errors.add('publishNow', 'cannot be true together with isDraft');
    const queueProfile = body.queuedFromProfile ? body.queuedFromProfile.toLowerCase() : null;
    if (queueProfile && body.isDraft) errors.add('queuedFromProfile', 'a draft cannot be queued; omit isDraft to add the post to the queue');
    if (queueProfile && body.publishNow) errors.add('queuedFromProfile', 'cannot be combined with publishNow');
    const queueId = body.queueId ? body.queueId.toLowerCase() : null;
    if (queueId && !queueProfile) errors.add('queueId', 'needs queuedFromProfile (the profile the queue belongs to)');
    const schedule = parseSchedule(body, errors, warnings);
    // Only per-target times (decision 0064): the post is scheduled, at the earliest of them (set once the targets are read).
    const targetTimed = !body.scheduledFor && !!body.platforms?.some((t) => t.scheduledFor);
    const mode: Mode = body.isDraft ? 'draft' : body.publishNow ? 'now' : schedule.at || queueProfile || targetTimed ? 'scheduled' : 'draft';
    if (!body.isDraft && !body.publishNow && !body.scheduledFor && !queueProfile && !targetTimed) warnings.push('No scheduledFor or publishNow given: the post was saved as a draft');
    const tags = normalizeTags(body.tags, warnings);
    const hashtags = normalizeHashtags(body.hashtags, errors);
    const mentions = normalizeMentions(body.mentions, errors);
    const media = normalizeMedia(body.mediaItems, 'mediaItems', errors);
    // Foreign images are probed only when the rules will run (not for drafts).
    await enrichMediaRefs(db, auth.tenantId, [media], mode !== 'draft' ? { probeRemoteImage: deps.probeRemoteImage } : {});
    const content = body.content ?? '';
    const visibility = body.visibility ?? 'public';
    const now = clock();
    if (queueProfile && !(await source.profileAccessible(queueProfile))) throw notFound('Profile');
    const targets = await rules.resolve(source, auth, body.platforms, mode, errors, queueProfile ?? undefined, schedule.timezone);
    checkTargetTimes(targets, { mode, queued: !!queueProfile, now }, errors);
    if (targetTimed && !schedule.at) schedule.at = earliestTargetTime(targets);
    dropTagOverflow(targets, tags, warnings);
    if (mode !== 'draft') await rules.readRuleSettings(targets);
    if (mode !== 'draft') rules.check(targets, content, media, tags, visibility, mode === 'now' ? now : schedule.at, errors, { hashtags, mentions });
    else targets.forEach((t, i) => threadItemsOf(t.platformSpecificData, `platforms.${i}.platformSpecificData`, errors));
    const recyclingInput = body.recycling ?? null;
    const recycling = recyclingInput ? planRecycling(recyclingInput, { current: null, postAt: mode === 'now' ? now : schedule.at ?? (queueProfile ? now : null), now }, targets,
      { content, media, tags, hashtags, mentions, visibility, at: mode === 'now' ? now : schedule.at }, rules, errors, mode === 'draft') : null;
    errors.throwIfAny();
    if (mode === 'scheduled' && !queueProfile && schedule.at && schedule.at.getTime() < now.getTime() - 60_000) {
      warnings.push('scheduledFor is in the past: the post is published right away');
    }
    // Duplicate protection: what each account would publish (decision 0039); drafts publish nothing.
    const claims = mode === 'draft' || body.allowDuplicate === true ? [] : uniqueClaims(targets.map((t) => ({
      accountId: t.account.id, hash: contentHash(t.customContent ?? content, media, t.platformSpecificData),
    })));
    const review = mode !== 'draft' && await reviewNeeded(db, auth, targets.map((t) => t.account.profile_id));
    if (review) warnings.push('This profile requires approval: the post waits for review and is published once approved');
    return {
      review, recyclingInput, recycling,
      id: newId(), mode, warnings, queueProfile, queueId, targets, targetIds: [], claims,
      runAt: mode === 'now' ? now : schedule.at, timezone: schedule.timezone, timezoneGiven: !!body.timezone,
      title: body.title ?? null, content, visibility, tags, hashtags, mentions, media, hidden: body.hidden ?? false, metadata: (body.metadata ?? {}) as Record<string, unknown>,
      preferredAt: schedule.at,
    };
  }

  /**
   * Writes planned posts with their targets (the jobs) in the caller's transaction:
   * checks the plan's upload limit for all of them at once, takes queue slots, then one
   * statement inserts the posts and their targets. Returns the post ids. With `claimContent`
   * (the create route), the same statement reserves the posts' content against duplicates.
   * `requestId`: the API request creating them (the publishing logs' `requestId` filter).
   * @throws AppError PLAN_LIMIT_REACHED when the posts do not all fit the limit.
   */
  async function insert(client: Queryable, auth: AuthContext, plans: PlannedPost[], claimContent = false, requestId: string | null = null): Promise<string[]> {
    const counted = plans.filter((p) => p.mode !== 'draft').length;
    if (counted > 0) await usage.assertUploadsAvailable(client, auth, counted);
    const now = clock();
    const batch = new Map<string, Set<number>>();
    for (const p of plans) {
      if (!p.queueProfile) continue;
      const slot = await queue.allocate(client, auth, { profileId: p.queueProfile, queueId: p.queueId }, { preferred: p.preferredAt, batch });
      p.queueId = slot.queueId;
      p.runAt = slot.at;
      if (!p.timezoneGiven) p.timezone = slot.timezone;
    }
    const targets: NewTarget[] = plans.flatMap((p) => p.targets.map((t, i) => ({
      id: newId(), postId: p.id, position: i, accountId: t.account.id, platform: t.platform, customContent: t.customContent,
      platformSpecificData: t.platformSpecificData, status: p.mode === 'draft' || p.review ? 'draft' as const : 'pending' as const,
      runAt: p.mode === 'draft' || p.review ? null : rules.runAt(t.platform, p.runAt, now, t.scheduledFor), scheduledFor: t.scheduledFor,
    })));
    const byPost = new Map(plans.map((p) => [p.id, p]));
    for (const t of targets) byPost.get(t.postId)!.targetIds.push(t.id);
    for (const p of plans) p.createdAt = now;
    await insertPostsWithTargets(client, auth.tenantId, auth.userId, plans.map((p) => ({
      id: p.id, title: p.title, content: p.content, status: statusOf(p), scheduledFor: p.runAt,
      timezone: p.timezone, publishNow: p.mode === 'now', isDraft: p.mode === 'draft', visibility: p.visibility, tags: p.tags,
      hashtags: p.hashtags, mentions: p.mentions, media: p.media, hidden: p.hidden, metadata: p.metadata, countedAt: p.mode === 'draft' ? null : now, queuedFromProfile: p.queueProfile,
      queueId: p.queueProfile ? p.queueId : null,
    })), targets, now, claimContent ? plans.flatMap((p) => p.claims.map((c) => ({ ...c, postId: p.id }))) : [],
    accountVersionsOf(plans.flatMap((p) => p.targets)), requestId);
    for (const p of plans.filter((x) => x.review)) {
      // Submitted for approval (decision 0059): the step recorded and the post.submitted event, in this transaction.
      const details = { scheduledFor: p.runAt?.toISOString() ?? null, queuedFromProfile: p.queueProfile, publishNow: p.mode === 'now' };
      const eventId = await recordReviewEvent(client, { tenantId: auth.tenantId, postId: p.id, kind: 'submitted', actor: { kind: 'user', userId: auth.userId }, details, at: now });
      await enqueueReviewEvent(client, p.id, 'post.submitted', eventId, { review: { kind: 'submitted', by: auth.userId, at: now.toISOString(), ...details } });
    }
    return plans.map((p) => p.id);
  }

  /** The API view of a just-inserted planned post, built from what was written (no read back). */
  function plannedView(auth: AuthContext, p: PlannedPost): PostViewT {
    const at = p.createdAt ?? clock();
    const row: PostRow = {
      id: p.id, tenant_id: auth.tenantId, created_by: auth.userId, title: p.title, content: p.content,
      status: statusOf(p), scheduled_for: p.runAt, timezone: p.timezone, publish_now: p.mode === 'now',
      is_draft: p.mode === 'draft', visibility: p.visibility, tags: p.tags, hashtags: p.hashtags, mentions: p.mentions, media_items: p.media, queued_from_profile: p.queueProfile, queue_id: p.queueProfile ? p.queueId : null,
      hidden: p.hidden, metadata: p.metadata, usage_counted_at: p.mode === 'draft' ? null : at, published_at: null, created_at: at, updated_at: at,
      recycling: p.recycling?.stored ?? null, recycle_next_at: p.recycling?.nextAt ?? null, recycled_from_post_id: null,
    };
    return postView(row, p.targets.map((t, i) => ({
      id: p.targetIds[i], post_id: p.id, tenant_id: auth.tenantId, position: i, account_id: t.account.id, platform: t.platform,
      custom_content: t.customContent, platform_specific_data: t.platformSpecificData, status: p.mode === 'draft' || p.review ? 'draft' : 'pending',
      run_at: p.mode === 'draft' || p.review ? null : t.scheduledFor ?? p.runAt, scheduled_for: t.scheduledFor, attempts: 0, locked_by: null, locked_until: null, platform_post_id: null,
      platform_post_url: null, published_at: null, error_message: null, error_category: null, result: null, updated_at: at,
      acc_username: t.account.username, acc_display_name: t.account.display_name, acc_is_active: t.account.is_active,
    })));
  }

  return {
    planNewPost: plan,
    insertPlannedPosts: insert,

    /**
     * Creates a post. Mode: isDraft -> draft; publishNow -> published inline (201 all,
     * 207 some failed, 202 still running); scheduledFor -> scheduled; none of these -> draft.
     * `idempotency` stores the key in the same transaction; `requestId` (the API request's id) is
     * kept with the post, so the publishing logs find its entries by it.
     * @throws 400 VALIDATION_ERROR naming fields; 403 PLAN_LIMIT_REACHED.
     */
    async create(auth: AuthContext, body: CreatePostBody, idempotency?: { key: string; hash: string }, requestId: string | null = null): Promise<WriteResult & { postId: string }> {
      const cache = deps.accountRows;
      const fromDatabase = () => plan(auth, body, dbAccountSource(db, auth.tenantId, auth));
      if (!cache) return write(auth, await fromDatabase(), idempotency, requestId);
      let p: PlannedPost;
      try {
        p = await plan(auth, body, cachedAccountSource(cache, db, auth.tenantId, auth));
      } catch (err) {
        // A refusal may rest on a cached row that has changed since: only the database's rows refuse a post.
        if (!(err instanceof AppError)) throw err;
        cache.forget(auth.tenantId);
        p = await fromDatabase();
      }
      try {
        return await write(auth, p, idempotency, requestId);
      } catch (err) {
        // An account changed after it was cached: nothing was written; validate again against the database.
        if (!isStaleAccountsError(err)) throw err;
        cache.forget(auth.tenantId);
        return write(auth, await fromDatabase(), idempotency, requestId);
      }
    },
  };

  /** Writes a planned post (and publishes it inline for publishNow): the create flow after the plan. */
  async function write(auth: AuthContext, p: PlannedPost, idempotency: { key: string; hash: string } | undefined, requestId: string | null): Promise<WriteResult & { postId: string }> {
    const needsTx = p.review || !!idempotency || !!p.queueProfile || !!p.recycling || (p.mode !== 'draft' && PLANS[auth.plan].uploads !== -1);
    let postId: string;
    try {
      [postId] = needsTx ? await db.tx(async (client) => {
        const ids = await insert(client, auth, [p], true, requestId);
        if (p.recyclingInput) {
          // Planned again with the post's time as written (a queue slot is known only now); a refusal rolls the post back.
          const errors = new FieldErrorCollector();
          p.recycling = planRecycling(p.recyclingInput, { current: null, postAt: p.runAt, now: clock() }, p.targets,
            { content: p.content, media: p.media, tags: p.tags, hashtags: p.hashtags, mentions: p.mentions, visibility: p.visibility, at: p.runAt }, rules, errors, true);
          errors.throwIfAny();
          await writeRecycling(client, auth.tenantId, p.id, p.recycling, p.targets.map((t) => t.account.id));
        }
        if (idempotency) await reserveIdempotencyKey(client, auth.tenantId, idempotency.key, idempotency.hash, p.id);
        return ids;
      }) : await insert(db, auth, [p], true, requestId); // one atomic statement: no explicit transaction needed
    } catch (err) {
      // An earlier post holds this content for one of the accounts (read only on this path).
      if (isDuplicateError(err)) throw await duplicateContentError(db, p.claims);
      throw err;
    }
    const { mode, warnings } = p;
    if (p.review) {
      deps.onSubmitted?.(auth.tenantId, [postId]);
      return {
        postId, statusCode: 201,
        body: { message: 'Post submitted for approval', post: plannedView(auth, p), ...(warnings.length ? { warnings } : {}) },
      };
    }
    if (mode === 'now') {
      const r = await deps.publishInline(auth, postId, p.targetIds, 'Post published successfully');
      if (warnings.length) r.body.warnings = warnings;
      return { ...r, postId };
    }
    if (mode === 'scheduled') for (const at of [p.runAt!, ...p.targets.map((t) => t.scheduledFor)]) if (at) publisher.notifyDue(at);
    const ahead = mode === 'scheduled' && rules.uploadsAhead(p.targets, p.runAt, clock());
    if (ahead) publisher.notifyDue(clock());
    return {
      postId,
      statusCode: 201,
      body: {
        message: (mode === 'draft' ? 'Draft saved successfully' : p.queueProfile ? 'Post added to the queue' : 'Post scheduled successfully')
          + (ahead ? '. YouTube video uploaded immediately for processing time.' : ''),
        post: plannedView(auth, p),
        ...(warnings.length ? { warnings } : {}),
      },
    };
  }
}

/** The status a planned post is saved with. */
function statusOf(p: PlannedPost): 'draft' | 'pending_approval' | 'scheduled' {
  return p.mode === 'draft' ? 'draft' : p.review ? 'pending_approval' : 'scheduled';
}

/** Claims without repeats (a post naming one account twice claims it once). */
function uniqueClaims(claims: ContentClaim[]): ContentClaim[] {
  const seen = new Set<string>();
  return claims.filter((c) => {
    const k = `${c.accountId}:${c.hash.toString('hex')}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
