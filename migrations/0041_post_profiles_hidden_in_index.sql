-- A profile's list skips hidden posts by the row's own copy of `hidden`. With the flag in the two list
-- indexes (INCLUDE: carried, not sorted), a page deep in a profile's list skips its OFFSET by an index-only
-- scan instead of reading a post_profiles row per skipped post: page 1,000 of a 31,524-post profile went
-- from 13.4 ms to 1.9 ms of execution (docs/decisions/0072-post-profiles.md, "Deep pages").
-- Rebuilding locks writes to post_profiles while it runs (a few seconds at a million rows).
DROP INDEX post_profiles_scheduled_idx;
CREATE INDEX post_profiles_scheduled_idx ON post_profiles (profile_id, scheduled_for DESC NULLS LAST, post_id DESC) INCLUDE (hidden);
DROP INDEX post_profiles_created_idx;
CREATE INDEX post_profiles_created_idx ON post_profiles (profile_id, created_at DESC, post_id DESC) INCLUDE (hidden);
