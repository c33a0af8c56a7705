-- RSS to queue (docs/decisions/0065-rss-to-queue.md): a profile follows feeds (RSS 2.0, Atom,
-- JSON Feed); each new item becomes a draft or a queued post from the feed's template, once.
--
-- `feeds`: one followed feed. The poller leases a due feed (`locked_by`, `locked_until`) so that
-- one worker at a time checks it; `etag` / `last_modified` are the validators of the last 200
-- (sent back as If-None-Match / If-Modified-Since); `consecutive_failures` drives the backoff of
-- `next_check_at`; `last_error` / `last_error_at` stay until the next successful check.
CREATE TABLE feeds (
  id                    char(24) PRIMARY KEY,
  tenant_id             char(24) NOT NULL,
  profile_id            char(24) NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
  created_by            char(24) NOT NULL,
  url                   text NOT NULL,
  name                  text,
  title                 text,
  mode                  text NOT NULL CHECK (mode IN ('draft', 'queue')),
  template              text NOT NULL,
  account_ids           char(24)[] NOT NULL DEFAULT '{}',
  include_image         boolean NOT NULL DEFAULT true,
  import_existing       boolean NOT NULL DEFAULT false,
  paused                boolean NOT NULL DEFAULT false,
  poll_interval_minutes integer NOT NULL CHECK (poll_interval_minutes BETWEEN 5 AND 1440),
  etag                  text,
  last_modified         text,
  last_checked_at       timestamptz,
  last_success_at       timestamptz,
  last_error            text,
  last_error_at         timestamptz,
  consecutive_failures  integer NOT NULL DEFAULT 0,
  next_check_at         timestamptz NOT NULL DEFAULT now(),
  locked_by             text,
  locked_until          timestamptz,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feeds_tenant_idx ON feeds (tenant_id, profile_id, created_at);
CREATE INDEX feeds_due_idx ON feeds (next_check_at) WHERE NOT paused;
-- One follow of a URL per profile.
CREATE UNIQUE INDEX feeds_profile_url_key ON feeds (profile_id, url);

-- `feed_items`: every item Herald has seen of a feed, once (the unique index is the dedupe:
-- the item's guid / id, else its link). `status`: `created` (post_id is its post), `skipped`
-- (present at the feed's first check, not imported), `failed` (error says why; not retried).
CREATE TABLE feed_items (
  id           char(24) PRIMARY KEY,
  feed_id      char(24) NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
  tenant_id    char(24) NOT NULL,
  item_key     text NOT NULL,
  link         text,
  title        text,
  published_at timestamptz,
  status       text NOT NULL CHECK (status IN ('created', 'skipped', 'failed')),
  post_id      char(24),
  error        text,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX feed_items_feed_key ON feed_items (feed_id, item_key);
CREATE INDEX feed_items_feed_recent_idx ON feed_items (feed_id, created_at DESC);
