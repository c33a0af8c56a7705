-- Account groups (named sets of connected accounts across profiles, for cross-posting): the
-- Late-compatible /v1/account-groups. `account_ids` keeps the order the caller gave; accounts
-- disconnected since are left out when a group is read.
CREATE TABLE account_groups (
  id          char(24) PRIMARY KEY,
  tenant_id   char(24) NOT NULL,
  name        text NOT NULL,
  account_ids char(24)[] NOT NULL,
  created_by  char(24) NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX account_groups_tenant_idx ON account_groups (tenant_id, created_at);
