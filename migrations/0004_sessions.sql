-- Dashboard sign-in: browser sessions stored in PostgreSQL (issue 5).
-- The cookie carries a random token; only its SHA-256 is stored (as for API keys).
-- Passwords are already stored as scrypt hashes in users.password_hash (src/core/password.ts).

CREATE TABLE sessions (
  id             char(24) PRIMARY KEY,
  token_hash     bytea NOT NULL UNIQUE,
  user_id        char(24) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  tenant_id      char(24) NOT NULL,
  -- Synchronizer token for state-changing requests made with the cookie (X-CSRF-Token).
  csrf_token     text NOT NULL,
  user_agent     text,
  ip             text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  last_seen_at   timestamptz NOT NULL DEFAULT now(),
  -- Sliding idle expiry, bounded by absolute_expires_at.
  expires_at     timestamptz NOT NULL,
  absolute_expires_at timestamptz NOT NULL,
  revoked_at     timestamptz
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

-- When the password last changed: sessions created before it are refused.
ALTER TABLE users ADD COLUMN password_changed_at timestamptz;
