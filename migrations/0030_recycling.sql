-- Recycling (docs/decisions/0061-recycling.md): a post's `recycling` config and state (jsonb, null
-- when none), the due time of its next repost (null when not active: the recycling job's index), and
-- on a repost, its source post and the due time it was created for. One repost per (source, due
-- time): the unique index makes a second one impossible whatever the workers do.
ALTER TABLE posts
  ADD COLUMN recycling jsonb,
  ADD COLUMN recycle_next_at timestamptz,
  ADD COLUMN recycled_from_post_id char(24) REFERENCES posts(id) ON DELETE SET NULL,
  ADD COLUMN recycle_due_at timestamptz;
CREATE INDEX posts_recycle_next_idx ON posts (recycle_next_at) WHERE recycle_next_at IS NOT NULL;
CREATE UNIQUE INDEX posts_one_repost_per_due_time ON posts (recycled_from_post_id, recycle_due_at) WHERE recycled_from_post_id IS NOT NULL;
