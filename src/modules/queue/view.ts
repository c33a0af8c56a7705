import type { QueueRow } from './repository.ts';

/**
 * The API shape of a queue (the client's `QueueSchedule`): `_id` (the queueId), `profileId`,
 * `name`, `timezone` (IANA), `slots` (`{ dayOfWeek 0-6 from Sunday, time 'HH:mm' }` in that zone),
 * `active`, `isDefault` (used when a call gives no queueId), ISO 8601 `createdAt` and `updatedAt`.
 */
export function queueView(s: QueueRow) {
  return {
    _id: s.id,
    profileId: s.profile_id,
    name: s.name,
    timezone: s.timezone,
    slots: s.slots,
    active: s.active,
    isDefault: s.is_default,
    createdAt: s.created_at.toISOString(),
    updatedAt: s.updated_at.toISOString(),
  };
}
