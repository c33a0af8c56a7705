-- Herald as the OAuth 2.1 authorization server of its MCP endpoint (docs/decisions/0049-oauth-for-mcp.md).
-- Every table is owned by src/modules/oauth-server/repository.ts. Codes and tokens are stored as
-- their SHA-256 only.

-- Clients registered by dynamic client registration (RFC 7591): public clients, no secret.
CREATE TABLE oauth_clients (
  id             text PRIMARY KEY,
  client_name    text NOT NULL,
  redirect_uris  text[] NOT NULL,
  created_at     timestamptz NOT NULL
);

-- One consent: a user let a client act on some profiles with some capabilities.
CREATE TABLE oauth_grants (
  id            char(24) PRIMARY KEY,
  client_id     text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  user_id       char(24) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  tenant_id     char(24) NOT NULL,
  profile_ids   text[] NOT NULL,
  capabilities  text[] NOT NULL,
  created_at    timestamptz NOT NULL,
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX oauth_grants_tenant_idx ON oauth_grants (tenant_id, client_id);

-- Authorization codes (single use, minutes long).
CREATE TABLE oauth_codes (
  code_hash       bytea PRIMARY KEY,
  grant_id        char(24) NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  redirect_uri    text NOT NULL,
  code_challenge  text NOT NULL,
  scope           text NOT NULL,
  expires_at      timestamptz NOT NULL,
  used_at         timestamptz
);
CREATE INDEX oauth_codes_grant_idx ON oauth_codes (grant_id);

-- Access tokens (short-lived) and refresh tokens (rotated on every use).
CREATE TABLE oauth_tokens (
  token_hash  bytea PRIMARY KEY,
  kind        text NOT NULL CHECK (kind IN ('access', 'refresh')),
  grant_id    char(24) NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  scope       text NOT NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX oauth_tokens_grant_idx ON oauth_tokens (grant_id);
