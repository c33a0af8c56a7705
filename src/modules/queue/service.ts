/**
 * The posting queue: one weekly schedule per profile (slots in an IANA zone), and slot
 * allocation for queued posts. "Add to queue" takes the next slot after now that no
 * live queued post of the profile holds. Allocation runs inside the post's transaction
 * under a per-queue advisory lock, and a partial unique index on
 * (queued_from_profile, scheduled_for) backs it, so two posts created at the same moment
 * never take the same slot.
 */
import { AppError, fieldError, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { isSlotInstant, nextSlots, normalizeSlots, upcomingSlots, type QueueSlot } from '../../core/queue-slots.ts';
import { canonicalTimeZone, isValidTimeZone } from '../../core/time.ts';
import type { Db, Queryable } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { getAccessibleProfile } from '../profiles/service.ts';
import { clearQueuedTimes, lockReshufflablePosts, moveQueuedPosts } from '../posts/repository.ts';
import { targetRunAt } from '../posts/targets.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import type { PlatformId } from '../../platforms/types.ts';

interface ScheduleRow {
  id: string;
  tenant_id: string;
  profile_id: string;
  timezone: string;
  slots: QueueSlot[];
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Post statuses that hold a queue slot. */
const LIVE = `('scheduled', 'publishing', 'published', 'partial')`;
/** How many upcoming slots are shown with a schedule. */
const NEXT_SLOTS_SHOWN = 10;

function scheduleView(s: ScheduleRow) {
  return {
    _id: s.id,
    profileId: s.profile_id,
    name: 'Default',
    timezone: s.timezone,
    slots: s.slots,
    active: s.active,
    isDefault: true,
    createdAt: s.created_at.toISOString(),
    updatedAt: s.updated_at.toISOString(),
  };
}

async function lockQueue(q: Queryable, profileId: string): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`herald:queue:${profileId}`]);
}

async function loadSchedule(q: Queryable, profileId: string): Promise<ScheduleRow | null> {
  const { rows } = await q.query<ScheduleRow>('SELECT * FROM queue_schedules WHERE profile_id = $1', [profileId]);
  return rows[0] ?? null;
}

/** Instants (ms) held by live queued posts of the profile in [from, to]. */
async function occupied(q: Queryable, profileId: string, from: Date, to: Date, exceptPostId?: string): Promise<Set<number>> {
  const { rows } = await q.query<{ scheduled_for: Date }>(
    `SELECT scheduled_for FROM posts
      WHERE queued_from_profile = $1 AND status IN ${LIVE} AND scheduled_for BETWEEN $2 AND $3 AND ($4::char(24) IS NULL OR id <> $4)`,
    [profileId, from, to, exceptPostId ?? null]);
  return new Set(rows.map((r) => r.scheduled_for.getTime()));
}

/** The first slot after `after` that no live queued post (nor `alsoTaken`) holds. */
async function firstFreeSlot(q: Queryable, s: ScheduleRow, after: Date, exceptPostId?: string, alsoTaken?: ReadonlySet<number>): Promise<Date | null> {
  let cursor = after;
  for (let round = 0; round < 50; round++) {
    const batch = nextSlots(s.slots, s.timezone, cursor, 200);
    if (batch.length === 0) return null;
    const taken = await occupied(q, s.profile_id, batch[0], batch[batch.length - 1], exceptPostId);
    const free = batch.find((d) => !taken.has(d.getTime()) && !alsoTaken?.has(d.getTime()));
    if (free) return free;
    cursor = batch[batch.length - 1];
  }
  return null;
}

/** `adapters`: what the run-at rule of a reshuffled post's targets asks (which platforms upload ahead). */
export function createQueueService(db: Db, clock: () => Date, adapters: AdapterRegistry) {
  return {
    async get(auth: AuthContext, profileId: string) {
      await getAccessibleProfile(db, auth, profileId);
      const s = await loadSchedule(db, profileId);
      if (!s) return { exists: false, schedule: null, nextSlots: [] as string[] };
      return { exists: true, schedule: scheduleView(s), nextSlots: nextSlots(s.slots, s.timezone, clock(), NEXT_SLOTS_SHOWN).map((d) => d.toISOString()) };
    },

    /**
     * Creates or replaces the profile's schedule. With `reshuffleExisting`, the profile's
     * future queued posts keep their order and move to the first slots of the new schedule;
     * `reshuffledCount` is how many changed time.
     */
    async put(auth: AuthContext, input: { profileId: string; timezone: string; slots: QueueSlot[]; active?: boolean; reshuffleExisting?: boolean }) {
      if (!isValidTimeZone(input.timezone)) throw fieldError('timezone', 'must be a valid IANA time zone name such as "America/New_York"');
      const timezone = canonicalTimeZone(input.timezone);
      const slots = normalizeSlots(input.slots);
      if (slots.length === 0) throw fieldError('slots', 'must contain at least one { dayOfWeek, time } slot (DELETE the schedule to remove it)');
      return db.tx(async (client) => {
        await getAccessibleProfile(client, auth, input.profileId, true);
        await lockQueue(client, input.profileId);
        const { rows } = await client.query<ScheduleRow>(
          `INSERT INTO queue_schedules (id, tenant_id, profile_id, timezone, slots, active)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (profile_id) DO UPDATE SET timezone = EXCLUDED.timezone, slots = EXCLUDED.slots,
             active = COALESCE($7, queue_schedules.active), updated_at = now()
           RETURNING *`,
          [newId(), auth.tenantId, input.profileId, timezone, JSON.stringify(slots), input.active ?? true, input.active ?? null],
        );
        const s = rows[0];
        let reshuffledCount = 0;
        if (input.reshuffleExisting) {
          const now = clock();
          const queued = await lockReshufflablePosts(client, input.profileId, now);
          if (queued.length > 0) {
            // Free their slots first (the unique index checks each row), then re-spread in order.
            await clearQueuedTimes(client, queued.map((p) => p.id));
            const taken = await occupied(client, input.profileId, now, new Date(8.64e15));
            const fresh: Date[] = [];
            for (const at of upcomingSlots(s.slots, s.timezone, now)) {
              if (taken.has(at.getTime())) continue;
              fresh.push(at);
              if (fresh.length === queued.length) break;
            }
            if (fresh.length < queued.length) throw new AppError('BAD_REQUEST', 'The new schedule has too few slots for the queued posts');
            // Each pending target runs by the one run-at rule (a YouTube target uploads ahead, as when the post was created).
            await moveQueuedPosts(client, queued.map((p, i) => ({ id: p.id, at: fresh[i] })), s.timezone,
              (platform, at) => targetRunAt(adapters, platform as PlatformId, at, now));
            reshuffledCount = queued.filter((p, i) => p.scheduled_for.getTime() !== fresh[i].getTime()).length;
          }
        }
        return {
          success: true,
          schedule: scheduleView(s),
          nextSlots: nextSlots(s.slots, s.timezone, clock(), NEXT_SLOTS_SHOWN).map((d) => d.toISOString()),
          reshuffledCount,
        };
      });
    },

    /**
     * Moves queued posts to slots of the profile's queue (the dashboard's timeline: drag a post
     * onto another post to swap them, onto a free slot to move it there). Each `moves[i]` puts a
     * post at a slot; the posts move together, so two posts may trade slots. Every post must be
     * a queued post of this profile that has not started (all targets pending); every slot a
     * future instant of the schedule, used once, and not held by a post that is not moving.
     * Pending targets take the new time (the run-at rule, as for a reshuffle).
     * @throws VALIDATION_ERROR (400) naming `moves.<i>.postId` or `moves.<i>.slot`; NOT_FOUND without a schedule.
     */
    async arrange(auth: AuthContext, input: { profileId: string; moves: Array<{ postId: string; slot: string }> }) {
      return db.tx(async (client) => {
        await getAccessibleProfile(client, auth, input.profileId, true);
        await lockQueue(client, input.profileId);
        const s = await loadSchedule(client, input.profileId);
        if (!s) throw notFound('Queue schedule');
        const now = clock();
        const movable = new Map((await lockReshufflablePosts(client, input.profileId, now)).map((p) => [p.id, p]));
        const seenPosts = new Set<string>();
        const seenSlots = new Set<number>();
        const moves = input.moves.map((m, i) => {
          const at = new Date(m.slot);
          if (!movable.has(m.postId)) throw fieldError(`moves.${i}.postId`, 'is not a post waiting in this profile\'s queue (scheduled, not started)');
          if (seenPosts.has(m.postId)) throw fieldError(`moves.${i}.postId`, 'is moved twice');
          if (Number.isNaN(at.getTime()) || at.getTime() <= now.getTime() || !isSlotInstant(s.slots, s.timezone, at)) {
            throw fieldError(`moves.${i}.slot`, 'must be a future slot of this queue (an instant from GET /v1/queue/preview)');
          }
          if (seenSlots.has(at.getTime())) throw fieldError(`moves.${i}.slot`, 'is given to two posts');
          seenPosts.add(m.postId);
          seenSlots.add(at.getTime());
          return { id: m.postId, at, from: movable.get(m.postId)!.scheduled_for };
        });
        if (moves.length === 0) return { success: true, moved: [] as Array<{ _id: string; scheduledFor: string }> };
        // Free the moving posts' slots first (the slots' unique index checks each row), then check the targets are free.
        await clearQueuedTimes(client, moves.map((m) => m.id));
        const times = moves.map((m) => m.at.getTime());
        const taken = await occupied(client, input.profileId, new Date(Math.min(...times)), new Date(Math.max(...times)));
        const clash = moves.findIndex((m) => taken.has(m.at.getTime()));
        if (clash >= 0) throw fieldError(`moves.${clash}.slot`, 'is held by another post; move that post too (a swap moves both)');
        await moveQueuedPosts(client, moves, s.timezone, (platform, at) => targetRunAt(adapters, platform as PlatformId, at, now));
        return { success: true, moved: moves.map((m) => ({ _id: m.id, scheduledFor: m.at.toISOString() })) };
      });
    },

    /** Deletes the schedule; queued posts keep their times. */
    async remove(auth: AuthContext, profileId: string) {
      await getAccessibleProfile(db, auth, profileId);
      const { rowCount } = await db.query('DELETE FROM queue_schedules WHERE profile_id = $1 AND tenant_id = $2', [profileId, auth.tenantId]);
      if (!rowCount) throw notFound('Queue schedule');
      return { success: true, deleted: true, deletedCount: 1, message: 'Queue schedule deleted; queued posts keep their times' };
    },

    /** The next `count` slots, ignoring existing posts. */
    async preview(auth: AuthContext, profileId: string, count: number) {
      await getAccessibleProfile(db, auth, profileId);
      const s = await loadSchedule(db, profileId);
      if (!s) throw notFound('Queue schedule');
      return { profileId, count, queueId: s.id, queueName: 'Default', timezone: s.timezone, slots: nextSlots(s.slots, s.timezone, clock(), count).map((d) => d.toISOString()) };
    },

    /** The next slot that no queued post holds. @throws 400 when the queue is inactive. */
    async nextSlot(auth: AuthContext, profileId: string) {
      await getAccessibleProfile(db, auth, profileId);
      const s = await loadSchedule(db, profileId);
      if (!s) throw notFound('Queue schedule');
      if (!s.active) throw new AppError('BAD_REQUEST', 'The queue of this profile is inactive; activate it with PUT /v1/queue/slots', { fields: { profileId: ['has an inactive queue'] } });
      const at = await firstFreeSlot(db, s, clock());
      return { profileId, nextSlot: at ? at.toISOString() : null, timezone: s.timezone, queueId: s.id, queueName: 'Default' };
    },

    /**
     * Within the post's transaction: takes a slot of the profile's queue for a post.
     * `preferred` (a scheduledFor the client sent) is kept when it is a free slot of the
     * queue; otherwise the next free slot after now is taken. `alsoTaken` holds slots given
     * to posts of the same batch that are not inserted yet (instants in ms).
     * @throws 400 naming `queuedFromProfile` when the profile has no active queue or no free slot.
     */
    async allocate(client: Queryable, auth: AuthContext, profileId: string, preferred: Date | null, postId?: string, alsoTaken?: ReadonlySet<number>): Promise<{ at: Date; timezone: string }> {
      await getAccessibleProfile(client, auth, profileId);
      await lockQueue(client, profileId);
      const s = await loadSchedule(client, profileId);
      if (!s) throw fieldError('queuedFromProfile', 'this profile has no queue schedule; create one with PUT /v1/queue/slots');
      if (!s.active) throw fieldError('queuedFromProfile', 'the queue of this profile is inactive and cannot be used for scheduling');
      const now = clock();
      if (preferred && preferred.getTime() > now.getTime() && isSlotInstant(s.slots, s.timezone, preferred)) {
        const taken = await occupied(client, profileId, preferred, preferred, postId);
        if (!taken.has(preferred.getTime()) && !alsoTaken?.has(preferred.getTime())) return { at: preferred, timezone: s.timezone };
      }
      const at = await firstFreeSlot(client, s, now, postId, alsoTaken);
      if (!at) throw fieldError('queuedFromProfile', 'the queue has no free slot');
      return { at, timezone: s.timezone };
    },
  };
}

export type QueueService = ReturnType<typeof createQueueService>;
