-- Named queues (docs/decisions/0062-named-queues.md): several weekly schedules per profile, one of
-- them the default (used when no queueId is given). Every existing schedule becomes its profile's
-- default queue, named "Default", and the queued posts of a profile with a schedule are placed in it.
ALTER TABLE queue_schedules ADD COLUMN name text NOT NULL DEFAULT 'Default';
ALTER TABLE queue_schedules ADD COLUMN is_default boolean NOT NULL DEFAULT false;
UPDATE queue_schedules SET is_default = true;
ALTER TABLE queue_schedules ALTER COLUMN name DROP DEFAULT;
ALTER TABLE queue_schedules DROP CONSTRAINT queue_schedules_profile_id_key;
-- One default per profile; names unique per profile (case-insensitive).
CREATE UNIQUE INDEX queue_schedules_default_key ON queue_schedules (profile_id) WHERE is_default;
CREATE UNIQUE INDEX queue_schedules_name_key ON queue_schedules (profile_id, lower(name));

-- The queue a queued post holds a slot of. A deleted queue leaves its posts at their times
-- (queued_from_profile kept, queue_id NULL: they count against the profile's default queue).
ALTER TABLE posts ADD COLUMN queue_id char(24) REFERENCES queue_schedules (id) ON DELETE SET NULL;
UPDATE posts p SET queue_id = s.id FROM queue_schedules s
 WHERE p.queued_from_profile IS NOT NULL AND s.profile_id = p.queued_from_profile;
CREATE INDEX posts_queue_idx ON posts (queue_id) WHERE queue_id IS NOT NULL;

-- A slot of a queue holds at most one live post (the safety net under the per-profile queue lock);
-- two queues of one profile may each have a post at the same instant.
DROP INDEX posts_queue_slot_key;
CREATE UNIQUE INDEX posts_queue_slot_key ON posts (queue_id, scheduled_for)
  WHERE queue_id IS NOT NULL AND status IN ('scheduled', 'publishing', 'published', 'partial');
-- Posts queued from a profile outside any queue (their queue was deleted): the default queue's slots.
CREATE INDEX posts_queued_without_queue_idx ON posts (queued_from_profile, scheduled_for)
  WHERE queued_from_profile IS NOT NULL AND queue_id IS NULL;
