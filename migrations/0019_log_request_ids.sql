-- GET /v1/logs?requestId= (issue 24): the log entries one API request spawned. Herald answers
-- every request with its id (`x-request-id`, src/http/request-id.ts). A post keeps the id of the
-- request that created it, so the attempts the worker writes for it later (which never see the
-- request) are found through the post; an entry written while serving a request (unpublish)
-- keeps that request's id itself. The attempts' index is partial: the worker's rows (no id) cost it nothing.
ALTER TABLE posts ADD COLUMN request_id text;
CREATE INDEX posts_request_idx ON posts (tenant_id, request_id) WHERE request_id IS NOT NULL;

ALTER TABLE publish_attempts ADD COLUMN request_id text;
CREATE INDEX publish_attempts_request_idx ON publish_attempts (tenant_id, request_id) WHERE request_id IS NOT NULL;
