-- Analytics (docs/decisions/0030-analytics-metrics.md).
--
-- post_metrics: one row per published target whose metrics Herald follows: the latest counts
-- (null: the platform has no such metric), the engagement they sum to (the list view sorts by
-- it), and the refresh schedule (decaying with the post's age, backed off on 429).
CREATE TABLE post_metrics (
  target_id          char(24) PRIMARY KEY REFERENCES post_targets (id) ON DELETE CASCADE,
  tenant_id          char(24) NOT NULL,
  post_id            char(24) NOT NULL,
  account_id         char(24) NOT NULL,
  platform           text NOT NULL,
  platform_post_id   text NOT NULL,
  published_at       timestamptz NOT NULL,
  impressions        bigint,
  reach              bigint,
  views              bigint,
  likes              bigint,
  comments           bigint,
  shares             bigint,
  saves              bigint,
  clicks             bigint,
  engagement         bigint NOT NULL DEFAULT 0,
  -- pending: not read yet; synced: read; unavailable: the platform has no metrics for this post
  sync_status        text NOT NULL DEFAULT 'pending' CHECK (sync_status IN ('pending', 'synced', 'unavailable')),
  last_refreshed_at  timestamptz,
  next_refresh_at    timestamptz,                -- null: no more refreshes (too old, or unavailable)
  refreshes          int NOT NULL DEFAULT 0,
  failures           int NOT NULL DEFAULT 0,     -- consecutive failed reads (429 backoff grows with it)
  last_error         text
);
CREATE INDEX post_metrics_due_idx ON post_metrics (next_refresh_at) WHERE next_refresh_at IS NOT NULL;
CREATE INDEX post_metrics_account_idx ON post_metrics (account_id);
CREATE INDEX post_metrics_tenant_idx ON post_metrics (tenant_id, published_at DESC);

-- The time series: every successful read of a target's metrics.
CREATE TABLE post_metric_snapshots (
  target_id    char(24) NOT NULL REFERENCES post_targets (id) ON DELETE CASCADE,
  captured_at  timestamptz NOT NULL,
  tenant_id    char(24) NOT NULL,
  impressions  bigint,
  reach        bigint,
  views        bigint,
  likes        bigint,
  comments     bigint,
  shares       bigint,
  saves        bigint,
  clicks       bigint,
  engagement   bigint NOT NULL,
  PRIMARY KEY (target_id, captured_at)
);
CREATE INDEX post_metric_snapshots_tenant_idx ON post_metric_snapshots (tenant_id, captured_at);

-- Finding published targets not followed yet.
CREATE INDEX post_targets_published_idx ON post_targets (published_at) WHERE status = 'published';
