-- The post list at a million posts (issue 31; bench/README.md "scale").
-- A profile's posts include those queued from it: found by this index, not by scanning the tenant's posts.
CREATE INDEX posts_queued_from_profile_idx ON posts (queued_from_profile) WHERE queued_from_profile IS NOT NULL;
-- The list's date filter (dateFrom/dateTo, the calendar's month) is on COALESCE(scheduled_for, created_at).
CREATE INDEX posts_tenant_when_idx ON posts (tenant_id, (COALESCE(scheduled_for, created_at)));
