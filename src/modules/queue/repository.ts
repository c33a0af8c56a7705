/**
 * The queue module's table, `queue_schedules` (named queues, docs/decisions/0062-named-queues.md):
 * several weekly schedules per profile, exactly one of them the default once a profile has any.
 * Every statement writing the table is here; callers hold the profile's queue lock
 * ({@link lockProfileQueues}) around a read-then-write.
 */
import type { QueueSlot } from '../../core/queue-slots.ts';
import type { Queryable } from '../../storage/db.ts';

/** A row of `queue_schedules`. `slots` sorted by day, then time; `timezone` an IANA name. */
export interface QueueRow {
  id: string;
  tenant_id: string;
  profile_id: string;
  name: string;
  is_default: boolean;
  timezone: string;
  slots: QueueSlot[];
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

/** How many queues one profile may have. */
export const MAX_QUEUES_PER_PROFILE = 20;

/** Post statuses that hold a queue slot (as the slots' unique index, migration 0031). */
export const LIVE_STATUSES = `('scheduled', 'publishing', 'published', 'partial')`;

/**
 * Serializes every change of a profile's queues and every slot allocation from them, in the
 * caller's transaction (a transaction-scoped advisory lock, released at commit or rollback).
 */
export async function lockProfileQueues(q: Queryable, profileId: string): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`herald:queue:${profileId}`]);
}

/** The profile's queues, the default first, then by creation. */
export async function listQueues(q: Queryable, profileId: string): Promise<QueueRow[]> {
  const { rows } = await q.query<QueueRow>(
    'SELECT * FROM queue_schedules WHERE profile_id = $1 ORDER BY is_default DESC, created_at, id', [profileId]);
  return rows;
}

/**
 * The profile's queue `queueId`, or its default queue when `queueId` is absent; null when there is
 * none (a queue of another profile or tenant is none).
 */
export async function findQueue(q: Queryable, profileId: string, queueId?: string | null): Promise<QueueRow | null> {
  const { rows } = queueId
    ? await q.query<QueueRow>('SELECT * FROM queue_schedules WHERE profile_id = $1 AND id = $2', [profileId, queueId.toLowerCase()])
    : await q.query<QueueRow>('SELECT * FROM queue_schedules WHERE profile_id = $1 AND is_default', [profileId]);
  return rows[0] ?? null;
}

/** True when another queue of the profile (not `exceptId`) has this name, compared case-insensitively. */
export async function nameTaken(q: Queryable, profileId: string, name: string, exceptId?: string): Promise<boolean> {
  const { rows } = await q.query(
    'SELECT 1 FROM queue_schedules WHERE profile_id = $1 AND lower(name) = lower($2) AND ($3::char(24) IS NULL OR id <> $3)',
    [profileId, name, exceptId ?? null]);
  return rows.length > 0;
}

/** Inserts a queue. A default queue must be the profile's only default ({@link clearDefault} first). */
export async function insertQueue(q: Queryable, row: Pick<QueueRow, 'id' | 'tenant_id' | 'profile_id' | 'name' | 'is_default' | 'timezone' | 'slots' | 'active'>): Promise<QueueRow> {
  const { rows } = await q.query<QueueRow>(
    `INSERT INTO queue_schedules (id, tenant_id, profile_id, name, is_default, timezone, slots, active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [row.id, row.tenant_id, row.profile_id, row.name, row.is_default, row.timezone, JSON.stringify(row.slots), row.active]);
  return rows[0];
}

/** Replaces a queue's name, zone, slots and active flag. */
export async function updateQueue(q: Queryable, id: string, u: Pick<QueueRow, 'name' | 'timezone' | 'slots' | 'active'>): Promise<QueueRow> {
  const { rows } = await q.query<QueueRow>(
    `UPDATE queue_schedules SET name = $2, timezone = $3, slots = $4, active = $5, updated_at = now() WHERE id = $1 RETURNING *`,
    [id, u.name, u.timezone, JSON.stringify(u.slots), u.active]);
  return rows[0];
}

/** No queue of the profile is the default any more (the step before another becomes it). */
export async function clearDefault(q: Queryable, profileId: string): Promise<void> {
  await q.query('UPDATE queue_schedules SET is_default = false, updated_at = now() WHERE profile_id = $1 AND is_default', [profileId]);
}

/** Makes queue `id` the default (after {@link clearDefault}). */
export async function markDefault(q: Queryable, id: string): Promise<QueueRow> {
  const { rows } = await q.query<QueueRow>('UPDATE queue_schedules SET is_default = true, updated_at = now() WHERE id = $1 RETURNING *', [id]);
  return rows[0];
}

/** Deletes queue `id` of the profile, or every queue of the profile without `id`. Answers how many went. */
export async function deleteQueues(q: Queryable, tenantId: string, profileId: string, id?: string): Promise<number> {
  const { rowCount } = await q.query(
    'DELETE FROM queue_schedules WHERE tenant_id = $1 AND profile_id = $2 AND ($3::char(24) IS NULL OR id = $3)', [tenantId, profileId, id ?? null]);
  return rowCount ?? 0;
}

/**
 * Instants (ms) in [from, to] held by live posts of queue `s`: its own posts, and for the default
 * queue also the profile's queued posts outside any queue (their queue was deleted, or they were
 * queued before migration 0031 from a profile without a schedule). `exceptPostId`: a post that is
 * moving, whose slot does not count.
 */
export async function occupiedSlots(q: Queryable, s: QueueRow, from: Date, to: Date, exceptPostId?: string): Promise<Set<number>> {
  const { rows } = await q.query<{ scheduled_for: Date }>(
    `SELECT scheduled_for FROM posts
      WHERE (queue_id = $1 OR ($2 AND queue_id IS NULL AND queued_from_profile = $3))
        AND status IN ${LIVE_STATUSES} AND scheduled_for BETWEEN $4 AND $5 AND ($6::char(24) IS NULL OR id <> $6)`,
    [s.id, s.is_default, s.profile_id, from, to, exceptPostId ?? null]);
  return new Set(rows.map((r) => r.scheduled_for.getTime()));
}
