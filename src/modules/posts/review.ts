/**
 * The posts side of approvals (docs/decisions/0059-approvals.md): what an approval and a request
 * for changes write on a post and its targets. A post waiting for review is `pending_approval`
 * with its targets kept as drafts (no run_at: the publisher's claim takes only pending targets).
 * Approved, it takes the time or queue slot it was submitted with; when that time has passed, the
 * next free slot of its profile's queue, or at once when the profile has no usable queue.
 * A target with its own time (decision 0064) keeps it when it has not passed, else it goes with the post.
 * Changes requested, it goes back to its author as a draft that keeps its time and queue.
 * Called by modules/approvals in its transaction, which holds the post locked.
 */
import { AppError } from '../../core/errors.ts';
import type { PlatformId } from '../../platforms/types.ts';
import type { Queryable } from '../../storage/db.ts';
import type { QueueService } from '../queue/service.ts';
import { enqueuePostEvent } from '../webhooks/outbox.ts';
import { targetProfileIds, type PostRow } from './repository.ts';
import type { TargetRules } from './targets.ts';

/** Where an approved post went: its time, and whether it is not the one it was submitted with (and why). */
export interface Release { runAt: Date; moved: boolean; note: string | null }

/** A submitted time this close to now (or later) is kept. */
const GRACE_MS = 60_000;

export function createPostReview(deps: { queue: QueueService; rules: TargetRules; clock: () => Date }) {
  const { queue, rules, clock } = deps;

  /** The next free slot of the post's queue, or of its first profile's; null when there is none to use. */
  async function nextSlot(client: Queryable, tenant: { tenantId: string }, post: PostRow): Promise<Date | null> {
    const profiles = post.queued_from_profile ? [post.queued_from_profile] : [...new Set(await targetProfileIds(client, post.id))];
    for (const profileId of profiles) {
      try {
        const queueId = post.queued_from_profile ? post.queue_id : null;
        return (await queue.allocate(client, tenant, { profileId: profileId.trim(), queueId }, { postId: post.id })).at;
      } catch (err) {
        if (!(err instanceof AppError)) throw err; // no queue, inactive, full: try the next, else publish now
      }
    }
    return null;
  }

  return {
    /**
     * Releases an approved `pending_approval` post (locked by the caller): scheduled at its time
     * (see the file's comment), its targets pending, the post.scheduled event written. `tenant`:
     * the post's tenant, whose queue slots it takes (the approver's right to the post, or the review
     * link's, was checked by the caller; a named approver need not see the queue's profile).
     */
    async releaseApproved(client: Queryable, tenant: { tenantId: string }, post: PostRow): Promise<Release> {
      if (post.tenant_id !== tenant.tenantId) throw new AppError('NOT_FOUND', 'Post not found');
      if (post.status !== 'pending_approval') throw new AppError('INVALID_STATE', `Only posts waiting for approval can be approved (this post is "${post.status}")`, { status: post.status });
      const now = clock();
      let runAt: Date;
      let moved = false;
      let note: string | null = null;
      const submitted = post.scheduled_for;
      if (post.publish_now) {
        runAt = now;
      } else if (submitted && submitted.getTime() >= now.getTime() - GRACE_MS) {
        runAt = submitted;
        if (post.queued_from_profile) {
          runAt = (await queue.allocate(client, tenant, { profileId: post.queued_from_profile.trim(), queueId: post.queue_id }, { preferred: submitted, postId: post.id })).at;
          if (runAt.getTime() !== submitted.getTime()) {
            moved = true;
            note = `The queue slot ${submitted.toISOString()} is no longer free (taken or removed meanwhile): the post takes the next free slot, ${runAt.toISOString()}`;
          }
        }
      } else {
        const slot = await nextSlot(client, tenant, post);
        moved = true;
        runAt = slot ?? now;
        note = slot
          ? `The time it was submitted with (${submitted?.toISOString() ?? 'none'}) has passed: the post takes the next free queue slot, ${slot.toISOString()}`
          : `The time it was submitted with (${submitted?.toISOString() ?? 'none'}) has passed and the profile has no free queue slot: the post is published now`;
      }
      const { rows } = await client.query<{ id: string; platform: string; scheduled_for: Date | null }>(
        `SELECT id, platform, scheduled_for FROM post_targets WHERE post_id = $1 AND status = 'draft' ORDER BY position`, [post.id]);
      // A target's own time that has passed meanwhile is dropped: the target goes with the post.
      const passed = rows.filter((r) => r.scheduled_for && r.scheduled_for.getTime() < now.getTime() - GRACE_MS);
      if (passed.length) {
        moved = true;
        note = [note, `${passed.map((r) => r.platform).join(', ')}: its own time (${passed.map((r) => r.scheduled_for!.toISOString()).join(', ')}) has passed, so it publishes with the post at ${runAt.toISOString()}`]
          .filter(Boolean).join('. ');
      }
      const own = (r: (typeof rows)[number]) => (passed.includes(r) ? null : r.scheduled_for);
      await client.query(
        `UPDATE post_targets t SET status = 'pending', run_at = u.run_at, scheduled_for = u.own_at, updated_at = now()
           FROM unnest($1::char(24)[], $2::timestamptz[], $3::timestamptz[]) AS u(id, run_at, own_at) WHERE t.id = u.id`,
        [rows.map((r) => r.id), rows.map((r) => rules.runAt(r.platform as PlatformId, runAt, now, own(r))), rows.map(own)]);
      await client.query(
        `UPDATE posts SET status = 'scheduled', scheduled_for = $2, is_draft = false, updated_at = now() WHERE id = $1`, [post.id, runAt]);
      if (!post.publish_now) await enqueuePostEvent(client, post.id, 'post.scheduled', { whenStatus: 'scheduled' });
      return { runAt, moved, note };
    },

    /**
     * Changes requested on a `pending_approval` post (locked by the caller): a draft again,
     * keeping its time and queue, so that its author edits it and submits it again.
     */
    async returnForChanges(client: Queryable, post: PostRow): Promise<void> {
      if (post.status !== 'pending_approval') throw new AppError('INVALID_STATE', `Only posts waiting for approval can be sent back (this post is "${post.status}")`, { status: post.status });
      await client.query(`UPDATE posts SET status = 'draft', is_draft = true, updated_at = now() WHERE id = $1`, [post.id]);
    },
  };
}
