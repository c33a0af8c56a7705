/**
 * The recycling job (docs/decisions/0061-recycling.md): each worker process runs {@link Recycler.runDue}
 * on a timer. A source post whose next due time has come (within {@link RECYCLE_LEAD_MS}) and that is
 * published (or partial) gets one recycled copy: a post of its own (its own targets, hence its own
 * publish jobs, verify and logs; decision 0001), scheduled at the due time, with the next content
 * variation, linked to its source (`recycled_from_post_id`); then the source's next due time is set.
 *
 * Exactly one copy per due time with any number of workers: the claim is the source row, locked
 * `FOR UPDATE SKIP LOCKED` in the transaction that inserts the copy and moves the due time on, so a
 * second worker skips it while the first holds it and no longer finds it due once committed; and
 * the unique index on (recycled_from_post_id, recycle_due_at) refuses a second copy of a due time
 * outright. Nothing outside the database happens in that transaction (the copy is published later
 * by the ordinary pipeline), so there is no lease to lose (unlike publishing: decisions 0002, 0045).
 */
import { newId } from '../../core/ids.ts';
import type { PlatformId } from '../../platforms/types.ts';
import { nextRecycleTime } from '../../shared/recycling.ts';
import type { Db, Queryable } from '../../storage/db.ts';
import { enqueueRecycledEvent } from '../webhooks/outbox.ts';
import type { PublishingPort } from './publishing-port.ts';
import type { StoredRecycling } from './recycling-state.ts';
import { insertPostsWithTargets, type NewTarget, type PostRow, type TargetRow } from './repository.ts';

/** How long before its due time a copy is created (it then waits as a scheduled post), ms. */
export const RECYCLE_LEAD_MS = 10 * 60_000;

/** What one pass did. */
export interface RecyclePass {
  /** Copies created. */
  created: number;
  /** Sources whose recycling ended (expireCount or expireDate reached, or no target left). */
  finished: number;
}

export interface Recycler {
  /** Creates the copies that are due (at most `limit`, one transaction each). */
  runDue(limit?: number): Promise<RecyclePass>;
}

export function createRecycler(deps: { db: Db; clock: () => Date; publisher: PublishingPort; runAt: (platform: PlatformId, at: Date, now: Date) => Date | null }): Recycler {
  const { db, clock } = deps;
  return {
    async runDue(limit = 50) {
      const pass: RecyclePass = { created: 0, finished: 0 };
      for (let i = 0; i < limit; i++) {
        const done = await db.tx(async (client) => {
          const now = clock();
          const { rows: [source] } = await client.query<PostRow>(
            `SELECT * FROM posts WHERE recycle_next_at <= $1 AND status IN ('published', 'partial')
              ORDER BY recycle_next_at LIMIT 1 FOR UPDATE SKIP LOCKED`, [new Date(now.getTime() + RECYCLE_LEAD_MS)]);
          return source ? recycleOne(client, source, now) : null;
        });
        if (done === null) break;
        if (done.copyId) {
          pass.created++;
          deps.publisher.notifyDue(done.dueAt);
        }
        if (done.finished) pass.finished++;
      }
      return pass;
    },
  };

  /** One due time of a locked source: the copy (unless recycling has ended) and the next due time. */
  async function recycleOne(q: Queryable, source: PostRow, now: Date): Promise<{ copyId: string | null; dueAt: Date; finished: boolean }> {
    const r = source.recycling!;
    const dueAt = source.recycle_next_at!;
    const targets = (await q.query<TargetRow>(`SELECT * FROM post_targets WHERE post_id = $1 AND status <> 'cancelled' ORDER BY position`, [source.id])).rows;
    if (!r.enabled || expired(r, r.recycleCount, dueAt) || targets.length === 0) {
      await finish(q, source.id, r);
      return { copyId: null, dueAt, finished: true };
    }
    const content = r.contentVariations.length ? r.contentVariations[r.contentVariationIndex % r.contentVariations.length] : source.content;
    const copyId = newId();
    const rows: NewTarget[] = targets.map((t, i) => ({
      id: newId(), postId: copyId, position: i, accountId: t.account_id, platform: t.platform, customContent: t.custom_content,
      platformSpecificData: t.platform_specific_data, status: 'pending', runAt: deps.runAt(t.platform as PlatformId, dueAt, now),
      // A copy goes out at its due time on every platform: a source target's own time is not carried over.
      scheduledFor: null,
    }));
    await insertPostsWithTargets(q, source.tenant_id, source.created_by, [{
      id: copyId, status: 'scheduled', title: source.title, content, scheduledFor: dueAt, timezone: source.timezone, publishNow: false, isDraft: false,
      visibility: source.visibility, tags: source.tags, hashtags: source.hashtags ?? [], mentions: source.mentions ?? [], media: source.media_items,
      hidden: source.hidden, metadata: source.metadata, countedAt: now, queuedFromProfile: null, queueId: null,
    }], rows, now);
    // The link, and with it the unique (source, due time) index: a second copy of this due time fails here.
    await q.query('UPDATE posts SET recycled_from_post_id = $2, recycle_due_at = $3 WHERE id = $1', [copyId, source.id, dueAt]);
    const count = r.recycleCount + 1;
    const next = nextRecycleTime(new Date(r.startDate), r.gap, r.gapFreq, new Date(Math.max(dueAt.getTime(), now.getTime())));
    const ended = expired(r, count, next);
    const state: StoredRecycling = {
      ...r, enabled: !ended, recycleCount: count, lastRecycledAt: now.toISOString(),
      contentVariationIndex: r.contentVariations.length ? (r.contentVariationIndex + 1) % r.contentVariations.length : 0,
    };
    await q.query('UPDATE posts SET recycling = $2, recycle_next_at = $3 WHERE id = $1', [source.id, JSON.stringify(state), ended ? null : next]);
    await enqueueRecycledEvent(q, copyId, {
      sourcePostId: source.id, dueAt: dueAt.toISOString(), recycleCount: count, contentVariationIndex: r.contentVariations.length ? r.contentVariationIndex % r.contentVariations.length : null,
      nextRecycleAt: ended ? null : next.toISOString(),
    });
    return { copyId, dueAt, finished: ended };
  }
}

/** True when a copy due at `at` would pass the config's end (`count` copies made so far). */
function expired(r: StoredRecycling, count: number, at: Date): boolean {
  return (r.expireCount !== null && count >= r.expireCount) || (r.expireDate !== null && at.getTime() > Date.parse(r.expireDate));
}

/** Ends a source's recycling: disabled, no next due time (its counters stay). */
async function finish(q: Queryable, postId: string, r: StoredRecycling): Promise<void> {
  await q.query('UPDATE posts SET recycling = $2, recycle_next_at = NULL WHERE id = $1', [postId, JSON.stringify({ ...r, enabled: false })]);
}
