-- The post list at a million posts (issue 31; bench/README.md "scale").
-- A profile's posts include those queued from it: found by this index, not by scanning the tenant's posts.
CREATE INDEX posts_queued_from_profile_idx ON posts (queued_from_profile) WHERE queued_from_profile IS NOT NULL;
-- The dashboard's default order (sortBy=scheduled-desc), and with posts_tenant_created_idx the date
-- filter (dateFrom/dateTo on COALESCE(scheduled_for, created_at): scheduled posts by this one, drafts by that one).
CREATE INDEX posts_tenant_scheduled_idx ON posts (tenant_id, scheduled_for DESC NULLS LAST, id DESC);
