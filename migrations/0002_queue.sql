-- Posting queue: one weekly schedule per profile (docs/decisions/0007-queue.md).
CREATE TABLE queue_schedules (
  id          char(24) PRIMARY KEY,
  tenant_id   char(24) NOT NULL,
  profile_id  char(24) NOT NULL UNIQUE REFERENCES profiles (id) ON DELETE CASCADE,
  timezone    text NOT NULL,
  slots       jsonb NOT NULL,              -- [{ "dayOfWeek": 0-6, "time": "HH:mm" }], sorted
  active      boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX queue_schedules_tenant_idx ON queue_schedules (tenant_id);

-- A queue slot holds at most one live post: the safety net under the per-queue lock.
CREATE UNIQUE INDEX posts_queue_slot_key ON posts (queued_from_profile, scheduled_for)
  WHERE queued_from_profile IS NOT NULL AND status IN ('scheduled', 'publishing', 'published', 'partial');
