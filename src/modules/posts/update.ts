/**
 * Editing posts. Editable: draft, scheduled, failed, partial (docs/decisions/0004-status-table.md).
 * Published targets of a partial post are kept; other targets follow the post's new time.
 * A failed or partial post is queued again only when the edit gives scheduledFor or publishNow.
 * On a profile that requires approval (decision 0059), an edit by someone who may not approve there
 * goes to review when it (re)schedules the post or changes what would be published (its text, title,
 * media, options, tags, visibility or targets): a failed post edited so cannot be retried unreviewed.
 */
import { isDeepStrictEqual } from 'node:util';
import { AppError, FieldErrorCollector } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { PlatformId } from '../../platforms/types.ts';
import type { Db } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { enrichMediaRefs, type EnrichOptions } from '../media/lookup.ts';
import type { QueueService } from '../queue/service.ts';
import type { UsageService } from '../usage/service.ts';
import { lockAccessiblePost } from './access.ts';
import { viewOf, type PublishInline, type WriteResult } from './publish-inline.ts';
import type { PublishingPort } from './publishing-port.ts';
import {
  deleteUnpublishedTargets, failTargets, isOnPlatform, insertTargets, lockTargets, readTargets, recomputePostStatus, renumberTargets, updatePost, type TargetRow,
} from './repository.ts';
import type { UpdatePostBody } from './schemas.ts';
import { enqueuePostEvent, enqueueReviewEvent } from '../webhooks/outbox.ts';
import { hasReviewHistory, recordReviewEvent, reviewNeeded } from '../approvals/repository.ts';
import { checkTargetTimes, dbAccountSource, earliestTargetTime, type AccountSource, type Mode, type ResolvedTarget, type TargetRules } from './targets.ts';
import { planRecycling, writeRecycling } from './recycling.ts';
import { isRecyclingOnly, updateRecyclingOnly } from './recycling-update.ts';
import { dropTagOverflow, normalizeHashtags, normalizeMedia, normalizeMentions, normalizeTags, parseSchedule } from './validation.ts';

const EDITABLE = new Set(['draft', 'pending_approval', 'scheduled', 'failed', 'partial']);

/** What a post would publish: its own fields and its unpublished targets (account, text, options, own time). */
interface Output {
  title: string | null; content: string; media: unknown; tags: unknown; hashtags: unknown; mentions: unknown; visibility: unknown;
  targets: Array<{ accountId: string; customContent: string | null; data: unknown; at: number | null }>;
}

/** The fields of `after` that differ from `before` (key order of objects aside): what an edit changes in what would go out. */
function outputChanges(before: Output, after: Output): string[] {
  return (Object.keys(before) as Array<keyof Output>).filter((k) => !isDeepStrictEqual(before[k], after[k]));
}

const targetOutput = (t: { accountId: string; customContent: string | null; data: unknown; at: Date | null }) =>
  ({ accountId: t.accountId, customContent: t.customContent || null, data: t.data ?? {}, at: t.at?.getTime() ?? null });

/** Options of an update: `submit` (POST .../submit) asks for review whoever the caller is (decision 0059). */
export interface UpdateOptions { submit?: boolean }

export function createPostUpdate(deps: {
  db: Db; usage: UsageService; publisher: PublishingPort; clock: () => Date; queue: QueueService; rules: TargetRules; publishInline: PublishInline;
  probeRemoteImage?: EnrichOptions['probeRemoteImage'];
  /** Called after a post was submitted for approval (committed): the approvers' mail. */
  onSubmitted?: (tenantId: string, postIds: string[]) => void;
}) {
  const { db, usage, publisher, clock, queue, rules } = deps;

  /** The post's unpublished targets as the edit keeps them (no platforms in the body), and those whose account is gone. */
  async function keptTargets(accounts: AccountSource, rows: TargetRow[]): Promise<{ targets: ResolvedTarget[]; disconnected: TargetRow[] }> {
    const keep = rows.filter((t) => !isOnPlatform(t));
    const byId = new Map((await accounts.byIds(keep.map((t) => t.account_id))).map((a) => [a.id, a]));
    const targets: ResolvedTarget[] = [];
    const disconnected: TargetRow[] = [];
    for (const t of keep) {
      const account = byId.get(t.account_id);
      if (account) targets.push({ account, platform: t.platform as PlatformId, customContent: t.custom_content, platformSpecificData: t.platform_specific_data, scheduledFor: t.scheduled_for });
      else disconnected.push(t);
    }
    return { targets, disconnected };
  }

  /**
   * Network and media reads the rule check needs, done before the transaction so that no
   * platform call holds the post's lock: the body's media are enriched (stored metadata, probed
   * foreign images), and the platforms' rule settings (Reddit's subreddit rules, cached) are read
   * for the targets the edit will most likely have, when one of their platforms has such rules;
   * inside, the same reads hit the cache.
   */
  async function readAhead(auth: AuthContext, id: string, body: UpdatePostBody, errors: FieldErrorCollector) {
    const media = body.mediaItems !== undefined ? normalizeMedia(body.mediaItems, 'mediaItems', errors) : undefined;
    if (media) await enrichMediaRefs(db, auth.tenantId, [media], body.isDraft ? {} : { probeRemoteImage: deps.probeRemoteImage });
    if (body.isDraft) return media;
    const current = body.platforms === undefined ? await readTargets(db, id) : [];
    const platforms = body.platforms !== undefined ? body.platforms.map((p) => p.platform) : current.map((t) => t.platform);
    if (!platforms.some((p) => rules.readsFromPlatform(p))) return media; // nothing to read from a platform: no extra queries
    const accounts = dbAccountSource(db, auth.tenantId);
    const targets = body.platforms !== undefined
      ? await rules.resolve(accounts, auth, body.platforms, 'scheduled', new FieldErrorCollector())
      : (await keptTargets(accounts, current)).targets;
    await rules.readRuleSettings(targets);
    return media;
  }

  /**
   * Updates an editable post.
   * @throws 400 VALIDATION_ERROR naming fields; 409 INVALID_STATE for other statuses or while a target is publishing.
   */
  return async function update(auth: AuthContext, id: string, body: UpdatePostBody, opts: UpdateOptions = {}): Promise<WriteResult> {
    // A body with only `recycling` changes only that, whatever the post's status (a published post's recycling is paused or stopped so).
    if (!opts.submit && isRecyclingOnly(body)) return updateRecyclingOnly({ db, rules, clock }, auth, id, body.recycling ?? null);
    const errors = new FieldErrorCollector();
    const warnings: string[] = [];
    const now = clock();
    const bodyMedia = await readAhead(auth, id, body, errors);
    const outcome = await db.tx(async (client) => {
      const post = await lockAccessiblePost(client, auth, id);
      if (!EDITABLE.has(post.status)) {
        throw new AppError('INVALID_STATE', `Posts with status "${post.status}" cannot be edited (editable: draft, scheduled, failed, partial)`, { status: post.status });
      }
      const oldTargets = await lockTargets(client, id);
      if (oldTargets.some((t) => t.status === 'publishing')) {
        throw new AppError('INVALID_STATE', 'The post is being published right now; try again when it has finished', { status: 'publishing' });
      }
      // queuedFromProfile: an id moves a draft or scheduled post into that queue; null takes it out (keeping its time).
      const queueProfile = body.queuedFromProfile ? body.queuedFromProfile.toLowerCase() : null;
      if (queueProfile && post.status !== 'draft' && post.status !== 'scheduled') {
        errors.add('queuedFromProfile', `only draft and scheduled posts can be moved into the queue (this post is "${post.status}")`);
      }
      if (queueProfile && (body.isDraft || body.publishNow)) errors.add('queuedFromProfile', 'cannot be combined with isDraft or publishNow');
      // queueId: the queue of queuedFromProfile to take a slot of (its default queue without it).
      if (body.queueId && !queueProfile) errors.add('queueId', 'needs queuedFromProfile (the profile the queue belongs to)');
      const tzInput = body.timezone !== undefined ? body.timezone : post.timezone;
      const schedule = body.scheduledFor !== undefined
        ? parseSchedule({ scheduledFor: body.scheduledFor, timezone: tzInput }, errors, warnings)
        : parseSchedule({ scheduledFor: null, timezone: tzInput }, errors);
      let newAt = body.scheduledFor !== undefined ? schedule.at : post.scheduled_for;
      const wantsDraft = body.isDraft ?? (post.is_draft && !body.scheduledFor && !body.publishNow && !queueProfile);
      if (body.isDraft && body.publishNow) errors.add('publishNow', 'cannot be true together with isDraft');
      if (wantsDraft && post.status !== 'draft' && oldTargets.some(isOnPlatform)) {
        errors.add('isDraft', 'a post with published targets (or a video the platform publishes at its time) cannot become a draft');
      }
      const mode: Mode = wantsDraft ? 'draft' : body.publishNow ? 'now' : 'scheduled';
      const requeue = mode !== 'draft' && (post.status === 'draft' || post.status === 'pending_approval' || post.status === 'scheduled' || body.scheduledFor !== undefined || body.publishNow === true || !!queueProfile);
      const tags = body.tags !== undefined ? normalizeTags(body.tags, warnings) : post.tags;
      const hashtags = body.hashtags !== undefined ? normalizeHashtags(body.hashtags, errors) : post.hashtags;
      const mentions = body.mentions !== undefined ? normalizeMentions(body.mentions, errors) : post.mentions;
      const media = bodyMedia ?? post.media_items;
      const content = body.content !== undefined ? (body.content ?? '') : post.content;
      const visibility = body.visibility ?? post.visibility;
      const published = oldTargets.filter(isOnPlatform);
      const accounts = dbAccountSource(client, auth.tenantId);
      let targets: ResolvedTarget[];
      if (body.platforms !== undefined) {
        targets = await rules.resolve(accounts, auth, body.platforms, mode, errors, undefined, schedule.timezone);
        targets = targets.filter((t) => !published.some((p) => p.account_id === t.account.id));
      } else {
        const kept = await keptTargets(accounts, oldTargets);
        targets = kept.targets;
        if (mode !== 'draft') for (const t of kept.disconnected) errors.add('platforms', `the ${t.platform} account ${t.account_id} was disconnected; give platforms again`);
      }
      // Per-target times (decision 0064): checked whenever the post goes out; a post given only per-target times takes the earliest.
      const queued = !!queueProfile || (body.queuedFromProfile !== null && !!post.queued_from_profile && mode === 'scheduled' && body.scheduledFor === undefined && !body.publishNow);
      if (requeue || body.platforms !== undefined) checkTargetTimes(targets, { mode, queued, now }, errors);
      if (mode === 'scheduled' && !newAt && !queueProfile) newAt = earliestTargetTime(targets);
      if (mode === 'scheduled' && !newAt && !queueProfile) errors.add('scheduledFor', 'is required to schedule a draft (or set publishNow: true or queuedFromProfile)');
      if (body.platforms !== undefined || body.tags !== undefined) dropTagOverflow(targets, tags, warnings);
      if (mode !== 'draft') await rules.readRuleSettings(targets); // cached by readAhead: no platform call under the lock
      if (mode !== 'draft') rules.check(targets, content, media, tags, visibility, mode === 'now' ? now : newAt, errors, { hashtags, mentions });
      // Recycling (decision 0061): checked with the requested time here, planned again below once a queue slot fixed the time.
      const kept = published.map((t) => ({ platform: t.platform as PlatformId, customContent: t.custom_content }));
      const recyclingFields = { content, media, tags, hashtags, mentions, visibility };
      if (body.recycling !== undefined) {
        planRecycling(body.recycling, { current: post.recycling, postAt: (mode === 'now' ? now : newAt) ?? null, now }, targets,
          { ...recyclingFields, at: mode === 'now' ? now : newAt }, rules, errors, mode === 'draft', kept);
      }
      errors.throwIfAny();
      // Decision 0059: going out on a profile that requires approval, by someone who may not approve there (or POST .../submit): review.
      // So does an edit of what would be published by such a user, without a new time (a failed or partial post: its retry
      // must not publish text nobody reviewed). A post waiting for review stays waiting when edited, whoever edits it: only
      // approve releases it.
      const changesOutput = () => outputChanges({
        title: post.title, content: post.content, media: post.media_items, tags: post.tags, hashtags: post.hashtags, mentions: post.mentions, visibility: post.visibility,
        targets: oldTargets.filter((t) => !isOnPlatform(t)).map((t) => targetOutput({ accountId: t.account_id, customContent: t.custom_content, data: t.platform_specific_data, at: t.scheduled_for })),
      }, {
        title: body.title !== undefined ? body.title : post.title, content, media, tags, hashtags, mentions, visibility,
        targets: targets.map((t) => targetOutput({ accountId: t.account.id, customContent: t.customContent, data: t.platformSpecificData, at: t.scheduledFor })),
      }).length > 0;
      const review = mode !== 'draft' && (opts.submit === true || post.status === 'pending_approval'
        || ((requeue || changesOutput()) && await reviewNeeded(client, auth, targets.map((t) => t.account.profile_id))));
      if (opts.submit && !review) errors.add('status', 'only a post that would be scheduled, queued or published can be submitted for review');
      errors.throwIfAny();

      const countsNow = mode !== 'draft' && !post.usage_counted_at;
      if (countsNow) await usage.assertUploadsAvailable(client, auth);
      let runAt = mode === 'now' ? now : newAt;
      let timezone = schedule.timezone;
      let queuedFrom = body.queuedFromProfile === null ? null : post.queued_from_profile;
      let queueId = post.queue_id;
      if (queueProfile) {
        const slot = await queue.allocate(client, auth, { profileId: queueProfile, queueId: body.queueId?.toLowerCase() },
          { preferred: body.scheduledFor !== undefined ? newAt : null, postId: id });
        runAt = slot.at;
        if (body.timezone === undefined) timezone = slot.timezone;
        queuedFrom = queueProfile;
        queueId = slot.queueId;
      } else if (mode === 'draft') {
        // A draft is in no queue (a draft cannot be queued, as on create): its slot is free again.
        queuedFrom = null;
      } else if (body.scheduledFor !== undefined || body.publishNow) {
        // A new explicit time leaves the queue unless queuedFromProfile is sent again.
        if (body.queuedFromProfile === undefined) queuedFrom = null;
      }
      await updatePost(client, id, {
        title: body.title !== undefined ? body.title : post.title, content, scheduledFor: runAt, timezone,
        publishNow: mode === 'now', isDraft: mode === 'draft', visibility, tags, hashtags, mentions, media, hidden: body.hidden ?? post.hidden,
        metadata: (body.metadata ?? post.metadata) as Record<string, unknown>, countedAt: countsNow ? now : null,
        status: mode === 'draft' ? 'draft' : review ? 'pending_approval' : requeue ? 'scheduled' : post.status, queuedFromProfile: queuedFrom,
        queueId: queuedFrom ? queueId : null,
      });
      let newTargetIds: string[] = [];
      if (body.platforms !== undefined || requeue || mode === 'draft' || review) {
        await deleteUnpublishedTargets(client, id);
        const start = published.length + 1000;
        const rows = targets.map((t, i) => ({
          id: newId(), postId: id, position: start + i, accountId: t.account.id, platform: t.platform, customContent: t.customContent,
          platformSpecificData: t.platformSpecificData, status: mode === 'draft' || review ? 'draft' as const : 'pending' as const,
          runAt: requeue && !review ? rules.runAt(t.platform, runAt, clock(), t.scheduledFor) : null, scheduledFor: t.scheduledFor,
        }));
        await insertTargets(client, auth.tenantId, rows);
        newTargetIds = rows.map((r) => r.id);
        // Edited failed/partial post without a new time: targets stay failed until retried.
        if (!requeue && mode !== 'draft' && !review) await failTargets(client, newTargetIds, 'Edited; use retry or give scheduledFor to publish');
        await renumberTargets(client, id);
      }
      if (body.recycling !== undefined) {
        const again = new FieldErrorCollector();
        const change = planRecycling(body.recycling, { current: post.recycling, postAt: runAt, now }, targets, { ...recyclingFields, at: runAt }, rules, again, true, kept);
        again.throwIfAny();
        await writeRecycling(client, auth.tenantId, id, change, [...targets.map((t) => t.account.id), ...published.map((t) => t.account_id)]);
      }
      const changed = Object.keys(body).filter((k) => (body as Record<string, unknown>)[k] !== undefined).sort();
      if (review) {
        // Submitted (again) for approval: recorded with what changed, and the post.submitted event (decision 0059).
        const details = {
          scheduledFor: runAt?.toISOString() ?? null, queuedFromProfile: queuedFrom, publishNow: mode === 'now', previousStatus: post.status, changed,
          ...(body.content !== undefined && body.content !== post.content ? { contentBefore: post.content, contentAfter: content } : {}),
        };
        const eventId = await recordReviewEvent(client, { tenantId: auth.tenantId, postId: id, kind: 'submitted', actor: { kind: 'user', userId: auth.userId }, details, at: now });
        await enqueueReviewEvent(client, id, 'post.submitted', eventId, { review: { kind: 'submitted', by: auth.userId, at: now.toISOString(), ...details } });
        return { mode: 'review' as const, newTargetIds: [], runAt: null, ahead: false, times: [] };
      }
      if (await hasReviewHistory(client, id)) {
        await recordReviewEvent(client, { tenantId: auth.tenantId, postId: id, kind: 'edited', actor: { kind: 'user', userId: auth.userId }, details: { changed, previousStatus: post.status }, at: now });
      }
      if (mode !== 'draft') await recomputePostStatus(client, id);
      // The post.scheduled webhook event when the edit (re)scheduled the post (outbox, decision 0038).
      if (mode === 'scheduled' && requeue) await enqueuePostEvent(client, id, 'post.scheduled', { whenStatus: 'scheduled' });
      const times = [runAt, ...targets.map((t) => t.scheduledFor)].filter((d): d is Date => d !== null);
      return { mode, newTargetIds, runAt, ahead: mode === 'scheduled' && newTargetIds.length > 0 && rules.uploadsAhead(targets, runAt, now), times };
    });
    if (outcome.mode === 'review') {
      deps.onSubmitted?.(auth.tenantId, [id]);
      return { statusCode: 200, body: { message: 'Post submitted for approval', post: await viewOf(db, auth, id), ...(warnings.length ? { warnings } : {}) } };
    }
    if (outcome.mode === 'now') {
      const r = await deps.publishInline(auth, id, outcome.newTargetIds, 'Post updated and published successfully');
      if (warnings.length) r.body.warnings = warnings;
      return r;
    }
    if (outcome.runAt && outcome.mode === 'scheduled') for (const at of outcome.times) publisher.notifyDue(at);
    if (outcome.ahead) publisher.notifyDue(clock()); // uploadsAhead targets (YouTube) run at once
    return { statusCode: 200, body: { message: 'Post updated successfully', post: await viewOf(db, auth, id), ...(warnings.length ? { warnings } : {}) } };
  };
}
