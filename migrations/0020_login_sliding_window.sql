-- Sign-in throttling (issue 24, docs/decisions/0010-dashboard-sessions.md): a sliding window of
-- attempts instead of fixed windows, and the browsers each user signed in from (a known browser
-- passes the lockout of its user's email with the right password).

-- One row per counted attempt: the count of a key is its rows newer than the window. UNLOGGED like
-- rate_limit_counters (a crash forgets them). Owned by src/storage/rate-limit-counters.ts.
CREATE UNLOGGED TABLE rate_limit_events (
  id         bigserial PRIMARY KEY,
  key        text NOT NULL,
  at         timestamptz NOT NULL,
  window_ms  int NOT NULL
);
CREATE INDEX rate_limit_events_key_idx ON rate_limit_events (key, at);
CREATE INDEX rate_limit_events_at_idx ON rate_limit_events (at);

-- A browser's random cookie (herald_browser), set by a successful sign-in; only its SHA-256 is
-- stored, as for sessions. Owned by src/modules/sessions/service.ts.
CREATE TABLE known_browsers (
  token_hash    bytea PRIMARY KEY,
  user_id       char(24) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at    timestamptz NOT NULL,
  last_used_at  timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL
);
CREATE INDEX known_browsers_user_idx ON known_browsers (user_id, last_used_at DESC);
