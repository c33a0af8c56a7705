-- Webhooks (issue 15): a tenant's subscriptions, the outbox of events to deliver (one row per event
-- and subscription, written in the transaction of the state change that causes the event) and the
-- log of delivery attempts (docs/decisions/0038-webhook-outbox.md).

CREATE TABLE webhooks (
  id              char(24) PRIMARY KEY,
  tenant_id       char(24) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name            text NOT NULL,
  url             text NOT NULL,
  -- HMAC-SHA256 key, sealed with the installation's secret key (AES-256-GCM, src/core/crypto.ts).
  secret          text NOT NULL,
  events          text[] NOT NULL,
  is_active       boolean NOT NULL DEFAULT true,
  custom_headers  jsonb NOT NULL DEFAULT '{}',
  -- Consecutive deliveries that ended failed (retries exhausted); 0 after any success.
  failure_count   integer NOT NULL DEFAULT 0,
  -- First failure since the last success (null while healthy): a webhook failing for days is disabled.
  failing_since   timestamptz,
  last_fired_at   timestamptz,
  disabled_at     timestamptz,
  disabled_reason text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
-- The outbox inserts join on it for every post event: tenants without webhooks find nothing at once.
CREATE INDEX webhooks_tenant_active ON webhooks (tenant_id) WHERE is_active;

CREATE TABLE webhook_deliveries (
  id               bigserial PRIMARY KEY,
  -- The stable event id: the payload's `id` and the X-Herald-Event-Id header, shared by every attempt.
  event_id         uuid NOT NULL,
  -- No foreign key: the outbox inserts of the publishing statements must not fail (or lock) when a
  -- webhook is deleted meanwhile. Deleting a webhook deletes its open deliveries; the prune removes
  -- any written concurrently (a delivery is only claimed while its webhook exists and is active).
  webhook_id       char(24) NOT NULL,
  tenant_id        char(24) NOT NULL,
  event            text NOT NULL,
  -- Deliveries with the same webhook and order key go out one at a time, in id order (a post's events in order).
  order_key        text NOT NULL,
  payload          jsonb NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivering', 'delivered', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  locked_by        text,
  locked_until     timestamptz,
  last_status_code integer,
  last_error       text,
  delivered_at     timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now()
);
-- The claim: open deliveries by due time, and the per-key order check.
CREATE INDEX webhook_deliveries_open ON webhook_deliveries (next_attempt_at, id) WHERE status IN ('pending', 'delivering');
CREATE INDEX webhook_deliveries_order ON webhook_deliveries (webhook_id, order_key, id) WHERE status IN ('pending', 'delivering');
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (tenant_id, event_id);
CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at);

CREATE TABLE webhook_delivery_logs (
  id              bigserial PRIMARY KEY,
  tenant_id       char(24) NOT NULL,
  webhook_id      char(24) NOT NULL,
  webhook_name    text NOT NULL,
  delivery_id     bigint,
  event_id        uuid NOT NULL,
  event           text NOT NULL,
  url             text NOT NULL,
  status          text NOT NULL CHECK (status IN ('success', 'failed')),
  status_code     integer,
  -- The receiver's answer, cut at 10 KB.
  response_body   text,
  error_message   text,
  attempt_number  integer NOT NULL,
  duration_ms     integer NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_delivery_logs_tenant ON webhook_delivery_logs (tenant_id, id DESC);
CREATE INDEX webhook_delivery_logs_created ON webhook_delivery_logs (created_at);

-- Keys that hold every permission of the earlier list (created without an explicit list) get the
-- new `webhooks` resource too, as a key created today would.
UPDATE api_keys SET permissions = permissions || ARRAY['webhooks:read', 'webhooks:write']
 WHERE permissions @> ARRAY['posts:read', 'posts:write', 'profiles:read', 'profiles:write', 'accounts:read', 'accounts:write',
                            'media:read', 'media:write', 'users:read', 'users:write', 'api-keys:read', 'api-keys:write',
                            'usage:read', 'usage:write', 'queue:read', 'queue:write', 'analytics:read', 'analytics:write']
   AND NOT permissions @> ARRAY['webhooks:read'];
