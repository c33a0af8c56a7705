-- Exactly once across crashes (docs/decisions/0018-exact-verify.md).
-- in_doubt: the target's last visible call (commit) or check (verify) ended without a
-- recorded answer, so its next run must ask the platform before anything else is
-- committed on the same account. crash_count: runs ended by a crashed process (they do
-- not spend the retry budget, up to a bound).
ALTER TABLE post_targets ADD COLUMN in_doubt boolean NOT NULL DEFAULT false;
ALTER TABLE post_targets ADD COLUMN crash_count int NOT NULL DEFAULT 0;
CREATE INDEX post_targets_in_doubt_idx ON post_targets (account_id, run_at) WHERE status = 'pending' AND in_doubt;

-- The installation a process belongs to on its host (the data directory), so that a
-- restarted process recognises its dead predecessors by pid instead of waiting for
-- their heartbeat to go stale.
ALTER TABLE workers ADD COLUMN instance text;
CREATE INDEX workers_host_instance_idx ON workers (hostname, instance);
