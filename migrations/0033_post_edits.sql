-- Editing published posts (issue 30; docs/decisions/0060-edit-published-posts.md).
-- Each edit (POST /v1/posts/{id}/edit) and metadata update (POST /v1/posts/{id}/update-metadata)
-- is a publishing-log entry: action `edit` or `update_metadata`, who asked (actor_id: the user),
-- what changed (changes: the fields with their old and new values) and the platform's answer
-- (http_status, endpoint, response_excerpt, error), next to the time it ran (started_at).
ALTER TABLE publish_attempts DROP CONSTRAINT IF EXISTS publish_attempts_action_check;
ALTER TABLE publish_attempts ADD CONSTRAINT publish_attempts_action_check
  CHECK (action IN ('publish', 'retry', 'verify', 'media_upload', 'token_refresh', 'rate_limit_pause', 'unpublish', 'edit', 'update_metadata'));
ALTER TABLE publish_attempts DROP CONSTRAINT IF EXISTS publish_attempts_phase_check;
ALTER TABLE publish_attempts ADD CONSTRAINT publish_attempts_phase_check
  CHECK (phase IN ('prepare', 'commit', 'verify', 'token_refresh', 'unpublish', 'edit', 'update_metadata'));
ALTER TABLE publish_attempts
  ADD COLUMN actor_id char(24),
  ADD COLUMN changes  jsonb;
