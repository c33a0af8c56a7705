-- Publishing logs, unpublish and duplicate protection (issue 15; docs/decisions/0039).

-- Publishing logs are the attempt rows, widened: what was done (action), where (tenant,
-- post, account, platform: copied from the target the worker holds, so the logs read no
-- join), what the platform answered (HTTP status, endpoint, a capped secret-free excerpt)
-- and how long it took. Token refreshes log here too, without a target.
ALTER TABLE publish_attempts
  ALTER COLUMN target_id DROP NOT NULL,
  ADD COLUMN tenant_id        char(24),
  ADD COLUMN post_id          char(24),
  ADD COLUMN account_id       char(24),
  ADD COLUMN platform         text,
  ADD COLUMN action           text CHECK (action IN ('publish', 'retry', 'verify', 'media_upload', 'token_refresh', 'rate_limit_pause', 'unpublish')),
  ADD COLUMN http_status      int,
  ADD COLUMN endpoint         text,
  ADD COLUMN duration_ms      int,
  ADD COLUMN error_category   text,
  ADD COLUMN response_excerpt text;

ALTER TABLE publish_attempts DROP CONSTRAINT IF EXISTS publish_attempts_phase_check;
ALTER TABLE publish_attempts ADD CONSTRAINT publish_attempts_phase_check
  CHECK (phase IN ('prepare', 'commit', 'verify', 'token_refresh', 'unpublish'));
ALTER TABLE publish_attempts DROP CONSTRAINT IF EXISTS publish_attempts_outcome_check;
ALTER TABLE publish_attempts ADD CONSTRAINT publish_attempts_outcome_check
  CHECK (outcome IN ('published', 'retry', 'failed', 'unknown', 'not_published', 'success', 'skipped'));

UPDATE publish_attempts a
   SET tenant_id = t.tenant_id, post_id = t.post_id, account_id = t.account_id, platform = t.platform,
       action = CASE WHEN a.phase = 'verify' THEN 'verify' WHEN a.attempt > 1 THEN 'retry' ELSE 'publish' END,
       duration_ms = (extract(epoch FROM a.finished_at - a.started_at) * 1000)::int
  FROM post_targets t
 WHERE t.id = a.target_id;

-- GET /v1/logs: a tenant's newest first.
CREATE INDEX publish_attempts_tenant_idx ON publish_attempts (tenant_id, id DESC);

-- Unpublish: when a target was taken off its platform, or why it could not be.
ALTER TABLE post_targets
  ADD COLUMN removed_from_platform_at timestamptz,
  ADD COLUMN unpublish_error text;

-- Duplicate protection: the first post of a text (and media) to an account claims it for
-- 24 hours. A claim is taken in the post's own INSERT statement (ON CONFLICT waits for a
-- concurrent claim and sees it); a claim older than the window is taken over; deleting the
-- post drops its claims, and so does unpublishing it.
CREATE TABLE post_content_claims (
  account_id    char(24) NOT NULL,
  content_hash  bytea NOT NULL,
  post_id       char(24) NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  claimed_at    timestamptz NOT NULL,
  PRIMARY KEY (account_id, content_hash)
);
CREATE INDEX post_content_claims_post_idx ON post_content_claims (post_id);
