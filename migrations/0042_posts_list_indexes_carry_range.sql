-- The tenant's list with a date range (the dashboard's calendar asks for a month of every profile) reads
-- the range from indexes alone (docs/decisions/0074-filtered-lists-at-scale.md). A post's time is
-- COALESCE(scheduled_for, created_at), taken as two disjoint ranges: scheduled posts by scheduled_for,
-- from posts_tenant_scheduled_idx, which now carries created_at (the default order) and hidden (INCLUDE:
-- carried, not sorted); drafts (no scheduled_for) by created_at, from an index of the drafts alone. So
-- the range's entries, its total and the page's sort keys come from index-only scans, where a bitmap scan
-- read a heap page per post and the created_at range walked every post created in it to find the few
-- drafts (a month of a million-post tenant, 34,542 posts: 75 ms a page, now 7-10 ms).
--
-- No cost on the publish path: a post's updates there were never HOT (posts_queue_slot_key's predicate
-- reads the status), so they already add an entry to posts_tenant_scheduled_idx, now 9 bytes wider; the
-- drafts' index takes an entry per draft only. Rebuilding locks writes to posts while it runs (3 s at a
-- million posts on the bench's 2-core machine).
DROP INDEX posts_tenant_scheduled_idx;
CREATE INDEX posts_tenant_scheduled_idx ON posts (tenant_id, scheduled_for DESC NULLS LAST, id DESC) INCLUDE (created_at, hidden);
CREATE INDEX posts_tenant_drafts_idx ON posts (tenant_id, created_at DESC, id DESC) INCLUDE (hidden) WHERE scheduled_for IS NULL;
