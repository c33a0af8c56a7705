-- The posts of each profile, kept in the writing transaction, so that a profile's page of the post
-- list reads its rows in list order from an index and its total from counters, instead of
-- gathering and sorting every post of the profile (docs/decisions/0072-post-profiles.md).
--
-- A post belongs to a profile while one of its targets is on an account of that profile, or while it
-- is queued from that profile (posts.queued_from_profile): exactly what the list's profile filter
-- means. A reason added inserts the row if it is missing; a reason removed deletes the row if no
-- other reason remains (checked against the targets, accounts and posts themselves). The row copies
-- the post's sort keys and hidden flag (kept by the posts trigger below), so a page is an index scan
-- that stops after its rows.
CREATE TABLE post_profiles (
  post_id        char(24) NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  profile_id     char(24) NOT NULL,
  tenant_id      char(24) NOT NULL,
  scheduled_for  timestamptz,
  created_at     timestamptz NOT NULL,
  hidden         boolean NOT NULL,
  PRIMARY KEY (post_id, profile_id)
);
CREATE INDEX post_profiles_scheduled_idx ON post_profiles (profile_id, scheduled_for DESC NULLS LAST, post_id DESC);
CREATE INDEX post_profiles_created_idx ON post_profiles (profile_id, created_at DESC, post_id DESC);

-- Exact counts of each profile's posts (hidden or not), as post_counters (0012) keeps the tenant's:
-- one row per writing backend, folded into shard 0 by the reconciler. The functions below count the
-- rows they insert (in the same statement); a trigger counts deleted rows and hidden changes.
CREATE TABLE profile_post_counters (
  tenant_id   char(24) NOT NULL,
  profile_id  char(24) NOT NULL,
  hidden      boolean NOT NULL,
  shard       integer NOT NULL,
  n           bigint NOT NULL,
  PRIMARY KEY (tenant_id, profile_id, hidden, shard)
);

-- Post `p_post` has a reason to be in profile `p_profile`: its row, if missing, copying the post's
-- sort keys, and counted. A NULL profile (an account that no longer exists) changes nothing.
CREATE FUNCTION post_profiles_put(p_post char(24), p_profile char(24)) RETURNS void LANGUAGE sql AS $$
  WITH up AS (
    INSERT INTO post_profiles (post_id, profile_id, tenant_id, scheduled_for, created_at, hidden)
    SELECT p.id, p_profile, p.tenant_id, p.scheduled_for, p.created_at, p.hidden FROM posts p WHERE p.id = p_post AND p_profile IS NOT NULL
    ON CONFLICT (post_id, profile_id) DO NOTHING
    RETURNING tenant_id, profile_id, hidden)
  INSERT INTO profile_post_counters (tenant_id, profile_id, hidden, shard, n)
  SELECT up.tenant_id, up.profile_id, up.hidden, pg_backend_pid(), 1 FROM up
  ON CONFLICT (tenant_id, profile_id, hidden, shard) DO UPDATE SET n = profile_post_counters.n + 1;
$$;

-- Post `p_post` lost a reason to be in profile `p_profile`: its row goes unless another target on an
-- account of the profile, or its queue, still places it there.
CREATE FUNCTION post_profiles_check(p_post char(24), p_profile char(24)) RETURNS void LANGUAGE sql AS $$
  DELETE FROM post_profiles pp
   WHERE pp.post_id = p_post AND pp.profile_id = p_profile
     AND NOT EXISTS (SELECT 1 FROM post_targets t JOIN accounts a ON a.id = t.account_id WHERE t.post_id = p_post AND a.profile_id = p_profile)
     AND NOT EXISTS (SELECT 1 FROM posts q WHERE q.id = p_post AND q.queued_from_profile = p_profile);
$$;

-- The targets' side. An insert puts its post in the account's profile (row level: the create route
-- inserts one or a few targets, and a statement trigger's transition table cost more than the row's
-- own work); deleted targets take their posts out of profiles no other reason holds them in
-- (statement level: a post's targets go together); a target moved to another account or post moves.
-- (post_profiles_put written out: the hot path of every create, without a function call.)
CREATE FUNCTION post_profiles_target_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH up AS (
    INSERT INTO post_profiles (post_id, profile_id, tenant_id, scheduled_for, created_at, hidden)
    SELECT p.id, a.profile_id, p.tenant_id, p.scheduled_for, p.created_at, p.hidden
      FROM posts p JOIN accounts a ON a.id = NEW.account_id WHERE p.id = NEW.post_id
    ON CONFLICT (post_id, profile_id) DO NOTHING
    RETURNING tenant_id, profile_id, hidden)
  INSERT INTO profile_post_counters (tenant_id, profile_id, hidden, shard, n)
  SELECT up.tenant_id, up.profile_id, up.hidden, pg_backend_pid(), 1 FROM up
  ON CONFLICT (tenant_id, profile_id, hidden, shard) DO UPDATE SET n = profile_post_counters.n + 1;
  RETURN NULL;
END $$;

CREATE FUNCTION post_profiles_targets_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM post_profiles pp
   USING (SELECT DISTINCT o.post_id, a.profile_id FROM old_targets o JOIN accounts a ON a.id = o.account_id) d
   WHERE pp.post_id = d.post_id AND pp.profile_id = d.profile_id
     AND NOT EXISTS (SELECT 1 FROM post_targets t JOIN accounts a ON a.id = t.account_id WHERE t.post_id = pp.post_id AND a.profile_id = pp.profile_id)
     AND NOT EXISTS (SELECT 1 FROM posts q WHERE q.id = pp.post_id AND q.queued_from_profile = pp.profile_id);
  RETURN NULL;
END $$;

CREATE FUNCTION post_profiles_target_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM post_profiles_put(NEW.post_id, (SELECT a.profile_id FROM accounts a WHERE a.id = NEW.account_id));
  PERFORM post_profiles_check(OLD.post_id, (SELECT a.profile_id FROM accounts a WHERE a.id = OLD.account_id));
  RETURN NULL;
END $$;

CREATE TRIGGER post_targets_profiles_insert AFTER INSERT ON post_targets
  FOR EACH ROW EXECUTE FUNCTION post_profiles_target_added();
CREATE TRIGGER post_targets_profiles_delete AFTER DELETE ON post_targets
  REFERENCING OLD TABLE AS old_targets FOR EACH STATEMENT EXECUTE FUNCTION post_profiles_targets_removed();
CREATE TRIGGER post_targets_profiles_move AFTER UPDATE OF account_id, post_id ON post_targets
  FOR EACH ROW WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id OR OLD.post_id IS DISTINCT FROM NEW.post_id)
  EXECUTE FUNCTION post_profiles_target_moved();

-- The posts' side: a post queued from a profile belongs to it; the copied scheduled_for and hidden flag
-- follow the post (created_at never changes); a deleted post's rows go by the foreign key's cascade.
CREATE FUNCTION post_profiles_from_posts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM post_profiles_put(NEW.id, NEW.queued_from_profile);
    RETURN NULL;
  END IF;
  IF OLD.scheduled_for IS DISTINCT FROM NEW.scheduled_for OR OLD.hidden IS DISTINCT FROM NEW.hidden THEN
    UPDATE post_profiles SET scheduled_for = NEW.scheduled_for, hidden = NEW.hidden WHERE post_id = NEW.id;
  END IF;
  IF OLD.queued_from_profile IS DISTINCT FROM NEW.queued_from_profile THEN
    PERFORM post_profiles_put(NEW.id, NEW.queued_from_profile);
    PERFORM post_profiles_check(OLD.id, OLD.queued_from_profile);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER posts_profiles_insert AFTER INSERT ON posts
  FOR EACH ROW WHEN (NEW.queued_from_profile IS NOT NULL) EXECUTE FUNCTION post_profiles_from_posts();
CREATE TRIGGER posts_profiles_update AFTER UPDATE OF scheduled_for, hidden, queued_from_profile ON posts
  FOR EACH ROW WHEN (OLD.scheduled_for IS DISTINCT FROM NEW.scheduled_for OR OLD.hidden IS DISTINCT FROM NEW.hidden
    OR OLD.queued_from_profile IS DISTINCT FROM NEW.queued_from_profile)
  EXECUTE FUNCTION post_profiles_from_posts();

-- The accounts' side: an account moved to another profile takes its targets' posts along; a deleted
-- account's targets stay (history keeps the id) but no longer place their posts in its profile; an
-- account inserted with an id that targets already name (none in practice) places their posts.
CREATE FUNCTION post_profiles_from_accounts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM post_profiles pp
     WHERE pp.profile_id = OLD.profile_id AND pp.post_id IN (SELECT t.post_id FROM post_targets t WHERE t.account_id = OLD.id)
       AND NOT EXISTS (SELECT 1 FROM post_targets t JOIN accounts a ON a.id = t.account_id WHERE t.post_id = pp.post_id AND a.profile_id = pp.profile_id)
       AND NOT EXISTS (SELECT 1 FROM posts q WHERE q.id = pp.post_id AND q.queued_from_profile = pp.profile_id);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    WITH up AS (
      INSERT INTO post_profiles (post_id, profile_id, tenant_id, scheduled_for, created_at, hidden)
      SELECT DISTINCT p.id, NEW.profile_id, p.tenant_id, p.scheduled_for, p.created_at, p.hidden
        FROM post_targets t JOIN posts p ON p.id = t.post_id WHERE t.account_id = NEW.id
      ON CONFLICT (post_id, profile_id) DO NOTHING
      RETURNING tenant_id, profile_id, hidden)
    INSERT INTO profile_post_counters (tenant_id, profile_id, hidden, shard, n)
    SELECT up.tenant_id, up.profile_id, up.hidden, pg_backend_pid(), count(*) FROM up GROUP BY up.tenant_id, up.profile_id, up.hidden
    ON CONFLICT (tenant_id, profile_id, hidden, shard) DO UPDATE SET n = profile_post_counters.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER accounts_profiles_move AFTER UPDATE OF profile_id ON accounts
  FOR EACH ROW WHEN (OLD.profile_id IS DISTINCT FROM NEW.profile_id) EXECUTE FUNCTION post_profiles_from_accounts();
CREATE TRIGGER accounts_profiles_delete AFTER DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION post_profiles_from_accounts();
CREATE TRIGGER accounts_profiles_insert AFTER INSERT ON accounts
  FOR EACH ROW EXECUTE FUNCTION post_profiles_from_accounts();

-- Deleted rows count off together (a deleted post's rows go by cascade); a hidden change moves one.
CREATE FUNCTION profile_post_counters_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO profile_post_counters (tenant_id, profile_id, hidden, shard, n)
    SELECT tenant_id, profile_id, hidden, pg_backend_pid(), -count(*) FROM old_rows GROUP BY tenant_id, profile_id, hidden
    ON CONFLICT (tenant_id, profile_id, hidden, shard) DO UPDATE SET n = profile_post_counters.n + excluded.n;
  ELSE
    INSERT INTO profile_post_counters (tenant_id, profile_id, hidden, shard, n)
    VALUES (OLD.tenant_id, OLD.profile_id, OLD.hidden, pg_backend_pid(), -1), (NEW.tenant_id, NEW.profile_id, NEW.hidden, pg_backend_pid(), 1)
    ON CONFLICT (tenant_id, profile_id, hidden, shard) DO UPDATE SET n = profile_post_counters.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER post_profiles_count_delete AFTER DELETE ON post_profiles
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION profile_post_counters_add();
CREATE TRIGGER post_profiles_count_update AFTER UPDATE OF hidden, profile_id, tenant_id ON post_profiles
  FOR EACH ROW WHEN (OLD.hidden IS DISTINCT FROM NEW.hidden OR OLD.profile_id IS DISTINCT FROM NEW.profile_id OR OLD.tenant_id IS DISTINCT FROM NEW.tenant_id)
  EXECUTE FUNCTION profile_post_counters_add();

-- The rows and counts of the posts stored before this migration.
INSERT INTO post_profiles (post_id, profile_id, tenant_id, scheduled_for, created_at, hidden)
SELECT DISTINCT p.id, m.profile_id, p.tenant_id, p.scheduled_for, p.created_at, p.hidden
  FROM (SELECT t.post_id, a.profile_id FROM post_targets t JOIN accounts a ON a.id = t.account_id
        UNION ALL SELECT q.id, q.queued_from_profile FROM posts q WHERE q.queued_from_profile IS NOT NULL) m
  JOIN posts p ON p.id = m.post_id;
INSERT INTO profile_post_counters (tenant_id, profile_id, hidden, shard, n)
SELECT tenant_id, profile_id, hidden, 0, count(*) FROM post_profiles GROUP BY tenant_id, profile_id, hidden;
