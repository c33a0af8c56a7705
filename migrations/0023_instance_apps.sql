-- Platforms connected through an instance the user names (connect shape `instance-oauth`,
-- docs/decisions/0055-mastodon-instance-connect.md): Herald registers its app on each instance
-- once (Mastodon's POST /api/v1/apps) and keeps it here, one row per platform, instance base URL
-- and redirect URI. The client secret is sealed with the SecretBox like every credential.
-- A row is dropped when the instance answers `invalid_client` (the next connect registers again).
CREATE TABLE instance_apps (
  platform       text NOT NULL,
  instance_url   text NOT NULL,
  redirect_uri   text NOT NULL,
  client_id      text NOT NULL,
  client_secret  text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (platform, instance_url, redirect_uri)
);

-- The instance a started flow goes to (its base URL), NULL for the platforms with one server.
ALTER TABLE oauth_states ADD COLUMN instance_url text;
