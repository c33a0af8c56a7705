-- Herald schema, version 1. Ids are 24-hex ObjectId-format strings (src/core/ids.ts).
-- A tenant is a root user: tenant_id = the root user's id on every tenant-owned row.

CREATE TABLE users (
  id              char(24) PRIMARY KEY,
  tenant_id       char(24) NOT NULL,
  email           text NOT NULL,
  name            text,
  password_hash   text,
  role            text NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'admin', 'member')),
  is_root         boolean NOT NULL DEFAULT true,
  profile_access  text NOT NULL DEFAULT 'all' CHECK (profile_access IN ('all', 'profiles')),
  profile_ids     char(24)[] NOT NULL DEFAULT '{}',
  plan            text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'basic', 'professional', 'advanced')),
  billing_period  text NOT NULL DEFAULT 'monthly' CHECK (billing_period IN ('monthly', 'yearly')),
  billing_anchor  timestamptz NOT NULL DEFAULT now(),
  created_at      timestamptz NOT NULL DEFAULT now(),
  last_login_at   timestamptz
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_tenant_idx ON users (tenant_id);

CREATE TABLE api_keys (
  id            char(24) PRIMARY KEY,
  tenant_id     char(24) NOT NULL,
  user_id       char(24) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name          text NOT NULL,
  key_hash      bytea NOT NULL UNIQUE,
  key_preview   text NOT NULL,
  permissions   text[] NOT NULL,
  expires_at    timestamptz,
  revoked_at    timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id);

CREATE TABLE profiles (
  id           char(24) PRIMARY KEY,
  tenant_id    char(24) NOT NULL,
  name         text NOT NULL,
  description  text,
  color        text,
  is_default   boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX profiles_name_key ON profiles (tenant_id, lower(name));
CREATE UNIQUE INDEX profiles_one_default ON profiles (tenant_id) WHERE is_default;

CREATE TABLE accounts (
  id                char(24) PRIMARY KEY,
  tenant_id         char(24) NOT NULL,
  profile_id        char(24) NOT NULL REFERENCES profiles (id) ON DELETE RESTRICT,
  platform          text NOT NULL,
  platform_user_id  text NOT NULL,
  username          text NOT NULL,
  display_name      text,
  profile_picture   text,
  is_active         boolean NOT NULL DEFAULT true,
  inactive_reason   text,
  credentials       text NOT NULL,            -- AES-256-GCM sealed JSON (src/core/crypto.ts)
  token_expires_at  timestamptz,
  permissions       text[] NOT NULL DEFAULT '{posts:write,posts:read}',
  settings          jsonb NOT NULL DEFAULT '{}',
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (profile_id, platform, platform_user_id)
);
CREATE INDEX accounts_tenant_idx ON accounts (tenant_id, profile_id);

CREATE TABLE posts (
  id                   char(24) PRIMARY KEY,
  tenant_id            char(24) NOT NULL,
  created_by           char(24) NOT NULL,
  title                text,
  content              text NOT NULL DEFAULT '',
  status               text NOT NULL CHECK (status IN ('draft', 'scheduled', 'publishing', 'published', 'failed', 'partial', 'cancelled')),
  scheduled_for        timestamptz,
  timezone             text NOT NULL DEFAULT 'UTC',
  publish_now          boolean NOT NULL DEFAULT false,
  is_draft             boolean NOT NULL DEFAULT false,
  visibility           text NOT NULL DEFAULT 'public' CHECK (visibility IN ('public', 'private', 'unlisted')),
  tags                 text[] NOT NULL DEFAULT '{}',
  media_items          jsonb NOT NULL DEFAULT '[]',
  queued_from_profile  char(24),
  hidden               boolean NOT NULL DEFAULT false,
  metadata             jsonb NOT NULL DEFAULT '{}',
  usage_counted_at     timestamptz,            -- when the post first counted toward the plan's uploads
  published_at         timestamptz,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX posts_tenant_created_idx ON posts (tenant_id, created_at DESC, id DESC);
CREATE INDEX posts_tenant_usage_idx ON posts (tenant_id, usage_counted_at) WHERE usage_counted_at IS NOT NULL;

-- One (post, account) pair. The target row is also the publish job: a pending target
-- whose run_at has passed is due, claimed with FOR UPDATE SKIP LOCKED (src/jobs/).
CREATE TABLE post_targets (
  id                      char(24) PRIMARY KEY,
  post_id                 char(24) NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  tenant_id               char(24) NOT NULL,
  position                int NOT NULL,
  account_id              char(24) NOT NULL,      -- no FK: history keeps the id after a disconnect
  platform                text NOT NULL,
  custom_content          text,
  platform_specific_data  jsonb NOT NULL DEFAULT '{}',
  status                  text NOT NULL CHECK (status IN ('draft', 'pending', 'publishing', 'published', 'failed', 'cancelled')),
  run_at                  timestamptz,
  attempts                int NOT NULL DEFAULT 0,
  locked_by               text,
  locked_until            timestamptz,
  platform_post_id        text,
  platform_post_url       text,
  published_at            timestamptz,
  error_message           text,
  error_category          text,
  result                  jsonb,
  updated_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX post_targets_post_idx ON post_targets (post_id, position);
CREATE INDEX post_targets_due_idx ON post_targets (run_at) WHERE status = 'pending';
CREATE INDEX post_targets_running_idx ON post_targets (locked_until) WHERE status = 'publishing';
CREATE INDEX post_targets_account_idx ON post_targets (account_id);

-- One try to publish one target. The commit row is written before the visible platform call.
CREATE TABLE publish_attempts (
  id            bigserial PRIMARY KEY,
  target_id     char(24) NOT NULL REFERENCES post_targets (id) ON DELETE CASCADE,
  attempt       int NOT NULL,
  worker_id     text NOT NULL,
  phase         text NOT NULL CHECK (phase IN ('prepare', 'commit', 'verify')),
  prepared      jsonb,                         -- the adapter's prepared state (commit tokens, blob refs)
  outcome       text CHECK (outcome IN ('published', 'retry', 'failed', 'unknown', 'not_published')),
  error         text,
  started_at    timestamptz NOT NULL DEFAULT now(),
  finished_at   timestamptz
);
CREATE INDEX publish_attempts_target_idx ON publish_attempts (target_id, id DESC);

CREATE TABLE workers (
  id            text PRIMARY KEY,
  hostname      text NOT NULL,
  pid           int NOT NULL,
  started_at    timestamptz NOT NULL DEFAULT now(),
  heartbeat_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE idempotency_keys (
  tenant_id      char(24) NOT NULL,
  key            text NOT NULL,
  request_hash   text NOT NULL,
  post_id        char(24),
  status_code    int,
  response_body  jsonb,
  created_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

CREATE TABLE media_files (
  id           char(24) PRIMARY KEY,
  tenant_id    char(24) NOT NULL,
  user_id      char(24) NOT NULL,
  storage_key  text NOT NULL UNIQUE,
  filename     text NOT NULL,
  mime_type    text NOT NULL,
  type         text NOT NULL CHECK (type IN ('image', 'video', 'gif', 'document')),
  size         bigint NOT NULL,
  metadata     jsonb NOT NULL DEFAULT '{}',
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX media_files_tenant_idx ON media_files (tenant_id, created_at DESC);

-- Fixed-window request counters shared by every API process.
CREATE UNLOGGED TABLE rate_limit_counters (
  key           text PRIMARY KEY,
  window_start  timestamptz NOT NULL,
  count         int NOT NULL
);
