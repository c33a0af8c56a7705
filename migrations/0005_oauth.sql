-- OAuth 2.0 connect flows: one row per started flow. The `state` sent to the platform is
-- `<id>.<hmac>`; the row makes it single-use (used_at) and holds the PKCE verifier.
CREATE TABLE oauth_states (
  id             text PRIMARY KEY,
  tenant_id      char(24) NOT NULL,
  user_id        char(24) NOT NULL,
  profile_id     char(24) NOT NULL,
  platform       text NOT NULL,
  redirect_uri   text NOT NULL,              -- the redirect_uri sent to the platform
  redirect_url   text,                       -- where the user goes afterwards (client's redirect_url)
  code_verifier  text,                       -- PKCE (S256)
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL,
  used_at        timestamptz
);
CREATE INDEX oauth_states_expires_idx ON oauth_states (expires_at);

-- Selection steps after OAuth (Facebook pages, LinkedIn organizations): a short-lived
-- token that holds the user's platform tokens (sealed) until the choice is made.
CREATE TABLE connect_selections (
  token        text PRIMARY KEY,
  tenant_id    char(24) NOT NULL,
  user_id      char(24) NOT NULL,
  profile_id   char(24) NOT NULL,
  platform     text NOT NULL,
  payload      text NOT NULL,                -- sealed JSON (tokens, user profile, options)
  redirect_url text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz
);
