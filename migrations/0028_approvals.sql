-- Approvals (docs/decisions/0059-approvals.md): a post may wait for review (`pending_approval`,
-- its targets kept as drafts with no run_at, so the publisher's claim never sees them), a
-- profile's approval rule, the review history, comments on posts, and client review links.
ALTER TABLE posts DROP CONSTRAINT posts_status_check;
ALTER TABLE posts ADD CONSTRAINT posts_status_check
  CHECK (status IN ('draft', 'pending_approval', 'scheduled', 'publishing', 'published', 'failed', 'partial', 'cancelled'));

-- The profile's approval rule (written by modules/profiles): off, or required; who approves
-- besides the owner (named members; the client through a review link).
ALTER TABLE profiles
  ADD COLUMN approval_required boolean NOT NULL DEFAULT false,
  ADD COLUMN approver_ids char(24)[] NOT NULL DEFAULT '{}',
  ADD COLUMN client_approval boolean NOT NULL DEFAULT false;

-- Every step of a post's review: who (a user or a review link's client), when, what.
CREATE TABLE post_review_events (
  id              char(24) PRIMARY KEY,
  tenant_id       char(24) NOT NULL,
  post_id         char(24) NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  kind            text NOT NULL CHECK (kind IN ('submitted', 'approved', 'changes_requested', 'edited')),
  actor_user_id   char(24),
  review_link_id  char(24),
  actor_name      text NOT NULL DEFAULT '',
  comment         text,
  details         jsonb NOT NULL DEFAULT '{}',
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX post_review_events_post_idx ON post_review_events (post_id, created_at, id);

-- Comments on posts: internal notes between team members, or the client's (through a link).
CREATE TABLE post_comments (
  id              char(24) PRIMARY KEY,
  tenant_id       char(24) NOT NULL,
  post_id         char(24) NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  visibility      text NOT NULL CHECK (visibility IN ('internal', 'client')),
  author_user_id  char(24),
  review_link_id  char(24),
  author_name     text NOT NULL DEFAULT '',
  body            text NOT NULL,
  mentions        char(24)[] NOT NULL DEFAULT '{}',
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX post_comments_post_idx ON post_comments (post_id, created_at, id);

-- Client review links: a post, or a batch (a profile's posts in a time range). Only the token's
-- SHA-256 is stored.
CREATE TABLE review_links (
  id           char(24) PRIMARY KEY,
  tenant_id    char(24) NOT NULL,
  created_by   char(24) NOT NULL,
  post_id      char(24) REFERENCES posts (id) ON DELETE CASCADE,
  profile_id   char(24) REFERENCES profiles (id) ON DELETE CASCADE,
  range_from   timestamptz,
  range_to     timestamptz,
  label        text NOT NULL DEFAULT '',
  token_hash   bytea NOT NULL UNIQUE,
  expires_at   timestamptz NOT NULL,
  revoked_at   timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  CHECK ((post_id IS NOT NULL) <> (profile_id IS NOT NULL AND range_from IS NOT NULL AND range_to IS NOT NULL))
);
CREATE INDEX review_links_tenant_idx ON review_links (tenant_id, created_at DESC);
