-- Fencing and late landings (docs/decisions/0045-fencing-and-late-landings.md).
-- An attempt keeps the platform's post id it got: a finish the database refuses (the worker no
-- longer held the target: its lease ran out while it was paused) is still recorded, with that id,
-- so a copy that did reach the platform is visible in the publishing log and can be unpublished.
ALTER TABLE publish_attempts
  ADD COLUMN platform_post_id text,
  ADD COLUMN platform_post_url text,
  ADD COLUMN stale boolean NOT NULL DEFAULT false;

-- When a claim's lease ended for the reconciler (or its process was found dead): a request of that
-- claim cannot leave its process later than this, so the settle time before a second commit counts
-- from here when it is later than the commit's start.
ALTER TABLE post_targets ADD COLUMN lease_ended_at timestamptz;
