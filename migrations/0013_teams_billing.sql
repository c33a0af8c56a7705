-- Issue 10 (team half): team invites, self-service sign-up, the full plan table and Stripe billing.

-- Plans: spec section 9 lists Enterprise (250 profiles) and an unlimited-profiles tier beside
-- free/basic/professional/advanced (src/shared/plans.ts, docs/decisions/0036-teams-plans-billing.md).
ALTER TABLE users DROP CONSTRAINT users_plan_check;
ALTER TABLE users ADD CONSTRAINT users_plan_check
  CHECK (plan IN ('free', 'basic', 'professional', 'advanced', 'enterprise', 'unlimited'));

-- Who invited a team member (the root user); NULL for root users.
ALTER TABLE users ADD COLUMN invited_by char(24);
-- Stripe: the tenant's customer and subscription (on the root user), and the creation time of the
-- latest subscription event applied, so events arriving out of order never undo a newer one.
ALTER TABLE users ADD COLUMN stripe_customer_id text;
ALTER TABLE users ADD COLUMN stripe_subscription_id text;
ALTER TABLE users ADD COLUMN stripe_synced_at timestamptz;
CREATE UNIQUE INDEX users_stripe_customer_key ON users (stripe_customer_id) WHERE stripe_customer_id IS NOT NULL;

-- Team invites: single use, 7 days; only the token's SHA-256 is stored.
CREATE TABLE team_invites (
  id           char(24) PRIMARY KEY,
  tenant_id    char(24) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_by   char(24) NOT NULL,
  token_hash   bytea NOT NULL UNIQUE,
  scope        text NOT NULL CHECK (scope IN ('all', 'profiles')),
  profile_ids  char(24)[] NOT NULL DEFAULT '{}',
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz,
  used_by      char(24),
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX team_invites_tenant_idx ON team_invites (tenant_id, created_at DESC);

-- Stripe webhook events already applied, by Stripe's event id: each is applied exactly once.
CREATE TABLE stripe_events (
  id           text PRIMARY KEY,
  type         text NOT NULL,
  tenant_id    char(24),
  created_at   timestamptz NOT NULL,
  received_at  timestamptz NOT NULL DEFAULT now()
);
