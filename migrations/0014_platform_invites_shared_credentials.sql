-- Platform invites (client onboarding) and connections shared between profiles
-- (docs/decisions/0037-platform-invites-and-shared-credentials.md).

-- A link that lets someone without a login connect one account of `platform` to `profile_id`.
-- The token is looked up by its SHA-256 (token_hash) and kept sealed (AES-256-GCM) so the
-- list can show it to the inviter. Single use (used_at, account_id), 7 days (expires_at).
CREATE TABLE platform_invites (
  id           char(24) PRIMARY KEY,
  tenant_id    char(24) NOT NULL,
  user_id      char(24) NOT NULL,             -- the inviter
  profile_id   char(24) NOT NULL,
  platform     text NOT NULL,
  token_hash   bytea NOT NULL UNIQUE,
  token_sealed text NOT NULL,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz,
  account_id   char(24),                      -- the account connected with it
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX platform_invites_tenant_idx ON platform_invites (tenant_id, created_at DESC);

-- A connect flow started from a platform invite: finishing it uses the invite up.
ALTER TABLE oauth_states ADD COLUMN platform_invite_id char(24);
ALTER TABLE connect_selections ADD COLUMN platform_invite_id char(24);

-- Clone connections: a clone keeps no credentials of its own; it names the account row that
-- holds them (credential_owner), so a refresh or a re-authorization written there is the one
-- every clone uses. Its own `credentials` column is then the empty string.
ALTER TABLE accounts ADD COLUMN credential_owner char(24) REFERENCES accounts (id);
CREATE INDEX accounts_credential_owner_idx ON accounts (credential_owner) WHERE credential_owner IS NOT NULL;
