-- Password resets by email (docs/decisions/0050-password-reset-by-email.md): one row per link
-- sent. Only the SHA-256 of the token is stored; a row is used at most once and lasts an hour.
CREATE TABLE password_resets (
  token_hash  bytea PRIMARY KEY,
  user_id     char(24) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  ip          text
);
CREATE INDEX password_resets_user_idx ON password_resets (user_id);
