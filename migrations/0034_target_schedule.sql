-- A target's own time (docs/decisions/0064-target-schedule-and-calendar-approvals.md): a post's
-- platforms[] entry may carry `scheduledFor`, and that target runs then instead of at its post's
-- time. NULL: the target follows the post. Written by modules/posts only; the publisher reads it
-- (the time a YouTube video goes public, lateness).
ALTER TABLE post_targets ADD COLUMN scheduled_for timestamptz;
