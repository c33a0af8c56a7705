-- Leases of the worker passes that run one at a time across processes (token refresh, analytics
-- refresh): a row per pass, held by one run until `expires_at`, renewed while it runs
-- (src/storage/job-leases.ts). They replace session advisory locks, which a pooler in transaction
-- mode cannot hold across statements (docs/decisions/0068-connection-pooler.md). A holder that dies
-- leaves its lease to expire.
CREATE TABLE job_leases (
  name text PRIMARY KEY,
  holder text NOT NULL,
  expires_at timestamptz NOT NULL
);
