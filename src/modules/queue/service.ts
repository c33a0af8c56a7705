/**
 * The posting queues: named weekly schedules per profile (slots in an IANA zone), one of them the
 * default (docs/decisions/0007-queue.md, 0062-named-queues.md), and slot allocation for queued
 * posts. "Add to queue" takes the next slot after now that no live post of that queue holds.
 * Allocation runs inside the post's transaction under the profile's queue lock, and a partial
 * unique index on (queue_id, scheduled_for) backs it, so two posts created at the same moment
 * never take the same slot of a queue. Calls without a queueId address the default queue.
 */
import { AppError, fieldError, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { isSlotInstant, nextSlots, normalizeSlots, upcomingSlots, type QueueSlot } from '../../core/queue-slots.ts';
import { canonicalTimeZone, isValidTimeZone } from '../../core/time.ts';
import type { Db, Queryable } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { getAccessibleProfile, getTenantProfile } from '../profiles/service.ts';
import { clearQueuedTimes, lockReshufflablePosts, moveQueuedPosts } from '../posts/repository.ts';
import { targetRunAt } from '../posts/targets.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import type { PlatformId } from '../../platforms/types.ts';
import {
  MAX_QUEUES_PER_PROFILE, clearDefault, deleteQueues, findQueue, insertQueue, listQueues, lockProfileQueues, markDefault, nameTaken,
  occupiedSlots, updateQueue, type QueueRow,
} from './repository.ts';
import { queueView } from './view.ts';

/** How many upcoming slots are shown with a schedule. */
const NEXT_SLOTS_SHOWN = 10;
/** The name of a profile's first queue when none is given. */
const DEFAULT_NAME = 'Default';

/** Which queue a call addresses: the profile's queue `queueId`, or its default queue without it. */
export interface QueueRef {
  profileId: string;
  queueId?: string | null;
}

/** The first slot after `after` that no live post of the queue (nor `alsoTaken`) holds. */
async function firstFreeSlot(q: Queryable, s: QueueRow, after: Date, exceptPostId?: string, alsoTaken?: ReadonlySet<number>): Promise<Date | null> {
  let cursor = after;
  for (let round = 0; round < 50; round++) {
    const batch = nextSlots(s.slots, s.timezone, cursor, 200);
    if (batch.length === 0) return null;
    const taken = await occupiedSlots(q, s, batch[0], batch[batch.length - 1], exceptPostId);
    const free = batch.find((d) => !taken.has(d.getTime()) && !alsoTaken?.has(d.getTime()));
    if (free) return free;
    cursor = batch[batch.length - 1];
  }
  return null;
}

/** Checks a schedule's zone and slots. @throws 400 naming `timezone` or `slots`. */
function checkedSchedule(input: { timezone: string; slots: QueueSlot[] }): { timezone: string; slots: QueueSlot[] } {
  if (!isValidTimeZone(input.timezone)) throw fieldError('timezone', 'must be a valid IANA time zone name such as "America/New_York"');
  const slots = normalizeSlots(input.slots);
  if (slots.length === 0) throw fieldError('slots', 'must contain at least one { dayOfWeek, time } slot (DELETE the queue to remove it)');
  return { timezone: canonicalTimeZone(input.timezone), slots };
}

/** A queue name, trimmed. @throws 400 naming `name` when it is blank or another queue of the profile has it. */
async function checkedName(q: Queryable, profileId: string, raw: string, exceptId?: string): Promise<string> {
  const name = raw.trim();
  if (!name) throw fieldError('name', 'must not be empty');
  if (await nameTaken(q, profileId, name, exceptId)) throw fieldError('name', `another queue of this profile is named "${name}"`);
  return name;
}

/** `adapters`: what the run-at rule of a reshuffled post's targets asks (which platforms upload ahead). */
export function createQueueService(db: Db, clock: () => Date, adapters: AdapterRegistry) {
  const upcoming = (s: QueueRow, count = NEXT_SLOTS_SHOWN) => nextSlots(s.slots, s.timezone, clock(), count).map((d) => d.toISOString());
  const runAtRule = (now: Date) => (platform: string, at: Date) => targetRunAt(adapters, platform as PlatformId, at, now);

  /** The addressed queue. @throws 404 when the profile has no such queue (or no queue at all). */
  async function queueOf(q: Queryable, ref: QueueRef): Promise<QueueRow> {
    const s = await findQueue(q, ref.profileId, ref.queueId);
    if (!s) throw notFound(ref.queueId ? 'Queue' : 'Queue schedule');
    return s;
  }

  /**
   * With `reshuffleExisting`: the queue's future queued posts keep their order and move to the
   * first free slots of its (new) schedule. Answers how many changed time.
   * @throws BAD_REQUEST when the schedule has too few slots for them.
   */
  async function reshuffle(client: Queryable, s: QueueRow): Promise<number> {
    const now = clock();
    const queued = await lockReshufflablePosts(client, { id: s.id, profileId: s.profile_id, isDefault: s.is_default }, now);
    if (queued.length === 0) return 0;
    // Free their slots first (the unique index checks each row), then re-spread in order.
    await clearQueuedTimes(client, queued.map((p) => p.id));
    const taken = await occupiedSlots(client, s, now, new Date(8.64e15));
    const fresh: Date[] = [];
    for (const at of upcomingSlots(s.slots, s.timezone, now)) {
      if (taken.has(at.getTime())) continue;
      fresh.push(at);
      if (fresh.length === queued.length) break;
    }
    if (fresh.length < queued.length) throw new AppError('BAD_REQUEST', 'The new schedule has too few slots for the queued posts');
    // Each pending target runs by the one run-at rule (a YouTube target uploads ahead, as when the post was created).
    await moveQueuedPosts(client, queued.map((p, i) => ({ id: p.id, at: fresh[i] })), s.timezone, runAtRule(now), s.id);
    return queued.filter((p, i) => p.scheduled_for.getTime() !== fresh[i].getTime()).length;
  }

  return {
    /**
     * One queue (`queueId`, else the default) as `{ exists, schedule, nextSlots }` (`exists: false`
     * when the profile has no queue), or with `all` every queue of the profile as `{ queues, count }`.
     * @throws 404 for a profile the caller cannot reach or a queueId that is not one of its queues.
     */
    async get(auth: AuthContext, input: QueueRef & { all?: boolean }) {
      await getAccessibleProfile(db, auth, input.profileId);
      if (input.all) {
        const queues = (await listQueues(db, input.profileId)).map(queueView);
        return { queues, count: queues.length };
      }
      const s = await findQueue(db, input.profileId, input.queueId);
      if (!s && input.queueId) throw notFound('Queue');
      if (!s) return { exists: false, schedule: null, nextSlots: [] as string[] };
      return { exists: true, schedule: queueView(s), nextSlots: upcoming(s) };
    },

    /**
     * Creates a named queue for the profile (`POST /v1/queue/slots`). The profile's first queue is
     * its default. @throws 400 naming `name` (blank, taken), `timezone` or `slots`, or `profileId`
     * when the profile has {@link MAX_QUEUES_PER_PROFILE} queues already.
     */
    async create(auth: AuthContext, input: { profileId: string; name: string; timezone: string; slots: QueueSlot[]; active?: boolean }) {
      const schedule = checkedSchedule(input);
      return db.tx(async (client) => {
        await getAccessibleProfile(client, auth, input.profileId, true);
        await lockProfileQueues(client, input.profileId);
        const name = await checkedName(client, input.profileId, input.name);
        const existing = await listQueues(client, input.profileId);
        if (existing.length >= MAX_QUEUES_PER_PROFILE) throw fieldError('profileId', `already has ${MAX_QUEUES_PER_PROFILE} queues, the most a profile can have`);
        const s = await insertQueue(client, {
          id: newId(), tenant_id: auth.tenantId, profile_id: input.profileId, name, is_default: existing.length === 0, ...schedule, active: input.active ?? true,
        });
        return { success: true, schedule: queueView(s), nextSlots: upcoming(s) };
      });
    },

    /**
     * Updates the queue `queueId`, or creates or updates the default queue without it
     * (`isNewQueue` says it was created). `name` renames; `active` omitted keeps the flag;
     * `setAsDefault` makes the queue the profile's default. With `reshuffleExisting`, the queue's
     * future queued posts keep their order and move to the new slots (`reshuffledCount`).
     * @throws 400 naming the field; 404 for a queueId that is not one of the profile's queues.
     */
    async put(auth: AuthContext, input: QueueRef & {
      name?: string; timezone: string; slots: QueueSlot[]; active?: boolean; setAsDefault?: boolean; reshuffleExisting?: boolean;
    }) {
      const schedule = checkedSchedule(input);
      return db.tx(async (client) => {
        await getAccessibleProfile(client, auth, input.profileId, true);
        await lockProfileQueues(client, input.profileId);
        const current = await findQueue(client, input.profileId, input.queueId);
        if (!current && input.queueId) throw notFound('Queue');
        let s: QueueRow;
        if (current) {
          const name = input.name !== undefined ? await checkedName(client, input.profileId, input.name, current.id) : current.name;
          s = await updateQueue(client, current.id, { name, ...schedule, active: input.active ?? current.active });
          if (input.setAsDefault && !s.is_default) {
            await clearDefault(client, input.profileId);
            s = await markDefault(client, s.id);
          }
        } else {
          const name = input.name !== undefined ? await checkedName(client, input.profileId, input.name) : DEFAULT_NAME;
          s = await insertQueue(client, { id: newId(), tenant_id: auth.tenantId, profile_id: input.profileId, name, is_default: true, ...schedule, active: input.active ?? true });
        }
        const reshuffledCount = input.reshuffleExisting ? await reshuffle(client, s) : 0;
        return { success: true, schedule: queueView(s), nextSlots: upcoming(s), reshuffledCount, isNewQueue: !current };
      });
    },

    /**
     * Moves queued posts to slots of the queue (the dashboard's timeline: drag a post onto another
     * post to swap them, onto a free slot to move it there). Each `moves[i]` puts a post at a slot;
     * the posts move together, so two posts may trade slots. Every post must be a queued post of
     * this queue that has not started (all targets pending); every slot a future instant of the
     * schedule, used once, and not held by a post that is not moving. Pending targets take the new
     * time (the run-at rule, as for a reshuffle).
     * @throws VALIDATION_ERROR (400) naming `moves.<i>.postId` or `moves.<i>.slot`; NOT_FOUND without the queue.
     */
    async arrange(auth: AuthContext, input: QueueRef & { moves: Array<{ postId: string; slot: string }> }) {
      return db.tx(async (client) => {
        await getAccessibleProfile(client, auth, input.profileId, true);
        await lockProfileQueues(client, input.profileId);
        const s = await queueOf(client, input);
        const now = clock();
        const movable = new Map((await lockReshufflablePosts(client, { id: s.id, profileId: s.profile_id, isDefault: s.is_default }, now)).map((p) => [p.id, p]));
        const seenPosts = new Set<string>();
        const seenSlots = new Set<number>();
        const moves = input.moves.map((m, i) => {
          const at = new Date(m.slot);
          if (!movable.has(m.postId)) throw fieldError(`moves.${i}.postId`, 'is not a post waiting in this queue (scheduled, not started)');
          if (seenPosts.has(m.postId)) throw fieldError(`moves.${i}.postId`, 'is moved twice');
          if (Number.isNaN(at.getTime()) || at.getTime() <= now.getTime() || !isSlotInstant(s.slots, s.timezone, at)) {
            throw fieldError(`moves.${i}.slot`, 'must be a future slot of this queue (an instant from GET /v1/queue/preview)');
          }
          if (seenSlots.has(at.getTime())) throw fieldError(`moves.${i}.slot`, 'is given to two posts');
          seenPosts.add(m.postId);
          seenSlots.add(at.getTime());
          return { id: m.postId, at };
        });
        // Free the moving posts' slots first (the slots' unique index checks each row), then check the targets are free.
        await clearQueuedTimes(client, moves.map((m) => m.id));
        const times = moves.map((m) => m.at.getTime());
        const taken = await occupiedSlots(client, s, new Date(Math.min(...times)), new Date(Math.max(...times)));
        const clash = moves.findIndex((m) => taken.has(m.at.getTime()));
        if (clash >= 0) throw fieldError(`moves.${clash}.slot`, 'is held by another post; move that post too (a swap moves both)');
        await moveQueuedPosts(client, moves, s.timezone, runAtRule(now), s.id);
        return { success: true, moved: moves.map((m) => ({ _id: m.id, scheduledFor: m.at.toISOString() })) };
      });
    },

    /**
     * Deletes the queue `queueId`, or every queue of the profile without it; queued posts keep
     * their times. The default queue goes only with the others (or as the last one): make another
     * queue the default first. @throws 404 when there is nothing to delete; 400 naming `queueId`
     * for the default queue while others exist.
     */
    async remove(auth: AuthContext, input: QueueRef) {
      return db.tx(async (client) => {
        await getAccessibleProfile(client, auth, input.profileId);
        await lockProfileQueues(client, input.profileId);
        if (input.queueId) {
          const s = await queueOf(client, input);
          if (s.is_default && (await listQueues(client, input.profileId)).length > 1) {
            throw fieldError('queueId', 'is the default queue; make another queue the default first (PUT /v1/queue/slots with setAsDefault: true), or omit queueId to delete every queue');
          }
        }
        const deletedCount = await deleteQueues(client, auth.tenantId, input.profileId, input.queueId?.toLowerCase());
        if (deletedCount === 0) throw notFound('Queue schedule');
        return {
          success: true, deleted: true, deletedCount,
          message: `${deletedCount === 1 ? 'Queue' : `${deletedCount} queues`} deleted; queued posts keep their times`,
        };
      });
    },

    /** The next `count` slots of the queue, ignoring existing posts. @throws 404 without the queue. */
    async preview(auth: AuthContext, input: QueueRef & { count: number }) {
      await getAccessibleProfile(db, auth, input.profileId);
      const s = await queueOf(db, input);
      return { profileId: input.profileId, count: input.count, queueId: s.id, queueName: s.name, timezone: s.timezone, slots: upcoming(s, input.count) };
    },

    /** The next slot of the queue that no queued post holds. @throws 404 without the queue; 400 when it is inactive. */
    async nextSlot(auth: AuthContext, input: QueueRef) {
      await getAccessibleProfile(db, auth, input.profileId);
      const s = await queueOf(db, input);
      if (!s.active) {
        const field = input.queueId ? 'queueId' : 'profileId';
        throw new AppError('BAD_REQUEST', 'This queue is inactive; activate it with PUT /v1/queue/slots', { fields: { [field]: ['is an inactive queue'] } });
      }
      const at = await firstFreeSlot(db, s, clock());
      return { profileId: input.profileId, nextSlot: at ? at.toISOString() : null, timezone: s.timezone, queueId: s.id, queueName: s.name };
    },

    /**
     * Within the post's transaction: takes a slot of the profile's queue `queueId` (the default
     * queue without it) for a post. `preferred` (a scheduledFor the client sent) is kept when it
     * is a free slot of the queue; otherwise the next free slot after now is taken. `postId`: the
     * post being moved (its own slot does not count). `batch`: slots given to posts of the same
     * batch that are not inserted yet, by queue id (instants in ms); the slot taken is added.
     * `by`: the caller (its profile access applies), or `{ tenantId }` for work done on the tenant's
     * behalf after a caller's right to the post was checked (an approval, also a client's through a
     * review link: decision 0059).
     * @throws 404 for a queueId that is not one of the profile's queues (`details.field` queueId); 400 naming
     *   `queuedFromProfile` (or `queueId`) when there is no queue, it is inactive, or it is full.
     */
    async allocate(client: Queryable, by: AuthContext | { tenantId: string }, ref: QueueRef,
      opts: { preferred?: Date | null; postId?: string; batch?: Map<string, Set<number>> } = {}): Promise<{ at: Date; timezone: string; queueId: string }> {
      if ('permissions' in by) await getAccessibleProfile(client, by, ref.profileId);
      else await getTenantProfile(client, by.tenantId, ref.profileId);
      await lockProfileQueues(client, ref.profileId);
      const s = await findQueue(client, ref.profileId, ref.queueId);
      // 404 naming the field, so that a caller checking a post (validate_post) can tell it from a profile it may not see.
      if (!s && ref.queueId) throw notFound('Queue', { field: 'queueId' });
      const field = ref.queueId ? 'queueId' : 'queuedFromProfile';
      if (!s) throw fieldError('queuedFromProfile', 'this profile has no queue schedule; create one with PUT /v1/queue/slots');
      if (!s.active) throw fieldError(field, 'the queue of this profile is inactive and cannot be used for scheduling');
      const taken = opts.batch?.get(s.id) ?? new Set<number>();
      opts.batch?.set(s.id, taken);
      const now = clock();
      const preferred = opts.preferred;
      let at: Date | null = null;
      if (preferred && preferred.getTime() > now.getTime() && isSlotInstant(s.slots, s.timezone, preferred)) {
        const held = await occupiedSlots(client, s, preferred, preferred, opts.postId);
        if (!held.has(preferred.getTime()) && !taken.has(preferred.getTime())) at = preferred;
      }
      at ??= await firstFreeSlot(client, s, now, opts.postId, taken);
      if (!at) throw fieldError(field, 'the queue has no free slot');
      taken.add(at.getTime());
      return { at, timezone: s.timezone, queueId: s.id };
    },
  };
}

export type QueueService = ReturnType<typeof createQueueService>;
