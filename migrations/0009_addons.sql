-- Paid add-ons of a tenant (kept on its root user, beside the plan): 'analytics', 'clips'.
-- See src/shared/plans.ts ADDONS.
ALTER TABLE users ADD COLUMN addons text[] NOT NULL DEFAULT '{}';
