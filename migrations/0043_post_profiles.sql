-- The posts of each profile, kept in the writing transaction, so that a profile's page of the post
-- list reads its rows in list order from an index and its total from counters, instead of
-- gathering and sorting every post of the profile (docs/decisions/0076-post-profiles.md).
--
-- A post belongs to a profile while one of its targets is on an account of that profile, or while it
-- is queued from that profile (posts.queued_from_profile): exactly what the list's profile filter
-- means. `refs` counts those reasons; the row goes when it reaches 0. The row copies the post's sort
-- keys and hidden flag (kept by the posts trigger below), so a page is an index scan that stops after
-- its rows.
CREATE TABLE post_profiles (
  post_id        char(24) NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  profile_id     char(24) NOT NULL,
  tenant_id      char(24) NOT NULL,
  refs           integer NOT NULL,
  scheduled_for  timestamptz,
  created_at     timestamptz NOT NULL,
  hidden         boolean NOT NULL,
  PRIMARY KEY (post_id, profile_id)
);
CREATE INDEX post_profiles_scheduled_idx ON post_profiles (profile_id, scheduled_for DESC NULLS LAST, post_id DESC);
CREATE INDEX post_profiles_created_idx ON post_profiles (profile_id, created_at DESC, post_id DESC);

-- Exact counts of each profile's posts (hidden or not), as post_counters (0012) keeps the tenant's:
-- one row per writing backend, folded into shard 0 by the reconciler.
CREATE TABLE profile_post_counters (
  tenant_id   char(24) NOT NULL,
  profile_id  char(24) NOT NULL,
  hidden      boolean NOT NULL,
  shard       integer NOT NULL,
  n           bigint NOT NULL,
  PRIMARY KEY (tenant_id, profile_id, hidden, shard)
);

-- Adds `delta` (+1 or -1) reasons for one post in one profile: a new row copies the post's sort keys;
-- a row whose reasons reach 0 goes. A NULL profile (an account that no longer exists) changes nothing.
CREATE FUNCTION post_profiles_add(p_post char(24), p_profile char(24), p_delta int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_profile IS NULL OR p_post IS NULL OR p_delta = 0 THEN
    RETURN;
  ELSIF p_delta > 0 THEN
    INSERT INTO post_profiles (post_id, profile_id, tenant_id, refs, scheduled_for, created_at, hidden)
    SELECT p.id, p_profile, p.tenant_id, p_delta, p.scheduled_for, p.created_at, p.hidden FROM posts p WHERE p.id = p_post
    ON CONFLICT (post_id, profile_id) DO UPDATE SET refs = post_profiles.refs + excluded.refs;
  ELSE
    UPDATE post_profiles SET refs = refs + p_delta WHERE post_id = p_post AND profile_id = p_profile;
    DELETE FROM post_profiles WHERE post_id = p_post AND profile_id = p_profile AND refs <= 0;
  END IF;
END $$;

-- The targets' side: an insert adds a reason per target on an existing account, a delete removes it,
-- a target moved to another account or post moves it.
CREATE FUNCTION post_profiles_from_targets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO post_profiles (post_id, profile_id, tenant_id, refs, scheduled_for, created_at, hidden)
    SELECT p.id, a.profile_id, p.tenant_id, count(*), p.scheduled_for, p.created_at, p.hidden
      FROM new_targets n JOIN accounts a ON a.id = n.account_id JOIN posts p ON p.id = n.post_id
     GROUP BY p.id, a.profile_id
    ON CONFLICT (post_id, profile_id) DO UPDATE SET refs = post_profiles.refs + excluded.refs;
  ELSE
    UPDATE post_profiles pp SET refs = pp.refs - d.n
      FROM (SELECT o.post_id, a.profile_id, count(*)::int AS n
              FROM old_targets o JOIN accounts a ON a.id = o.account_id GROUP BY o.post_id, a.profile_id) d
     WHERE pp.post_id = d.post_id AND pp.profile_id = d.profile_id;
    DELETE FROM post_profiles pp WHERE pp.refs <= 0 AND pp.post_id IN (SELECT o.post_id FROM old_targets o);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION post_profiles_target_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM post_profiles_add(OLD.post_id, (SELECT a.profile_id FROM accounts a WHERE a.id = OLD.account_id), -1);
  PERFORM post_profiles_add(NEW.post_id, (SELECT a.profile_id FROM accounts a WHERE a.id = NEW.account_id), 1);
  RETURN NULL;
END $$;

CREATE TRIGGER post_targets_profiles_insert AFTER INSERT ON post_targets
  REFERENCING NEW TABLE AS new_targets FOR EACH STATEMENT EXECUTE FUNCTION post_profiles_from_targets();
CREATE TRIGGER post_targets_profiles_delete AFTER DELETE ON post_targets
  REFERENCING OLD TABLE AS old_targets FOR EACH STATEMENT EXECUTE FUNCTION post_profiles_from_targets();
CREATE TRIGGER post_targets_profiles_move AFTER UPDATE OF account_id, post_id ON post_targets
  FOR EACH ROW WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id OR OLD.post_id IS DISTINCT FROM NEW.post_id)
  EXECUTE FUNCTION post_profiles_target_moved();

-- The posts' side: a post queued from a profile belongs to it; the copied sort keys and hidden flag
-- follow the post.
CREATE FUNCTION post_profiles_from_posts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO post_profiles (post_id, profile_id, tenant_id, refs, scheduled_for, created_at, hidden)
    SELECT n.id, n.queued_from_profile, n.tenant_id, 1, n.scheduled_for, n.created_at, n.hidden
      FROM new_posts n WHERE n.queued_from_profile IS NOT NULL
    ON CONFLICT (post_id, profile_id) DO UPDATE SET refs = post_profiles.refs + excluded.refs;
    RETURN NULL;
  END IF;
  IF OLD.scheduled_for IS DISTINCT FROM NEW.scheduled_for OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.hidden IS DISTINCT FROM NEW.hidden THEN
    UPDATE post_profiles SET scheduled_for = NEW.scheduled_for, created_at = NEW.created_at, hidden = NEW.hidden WHERE post_id = NEW.id;
  END IF;
  IF OLD.queued_from_profile IS DISTINCT FROM NEW.queued_from_profile THEN
    PERFORM post_profiles_add(OLD.id, OLD.queued_from_profile, -1);
    PERFORM post_profiles_add(NEW.id, NEW.queued_from_profile, 1);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER posts_profiles_insert AFTER INSERT ON posts
  REFERENCING NEW TABLE AS new_posts FOR EACH STATEMENT EXECUTE FUNCTION post_profiles_from_posts();
CREATE TRIGGER posts_profiles_update AFTER UPDATE OF scheduled_for, created_at, hidden, queued_from_profile ON posts
  FOR EACH ROW WHEN (OLD.scheduled_for IS DISTINCT FROM NEW.scheduled_for OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.hidden IS DISTINCT FROM NEW.hidden OR OLD.queued_from_profile IS DISTINCT FROM NEW.queued_from_profile)
  EXECUTE FUNCTION post_profiles_from_posts();

-- The accounts' side: an account moved to another profile takes its targets' posts along; a deleted
-- account's targets stay (history keeps the id) but no longer place their posts in its profile.
CREATE FUNCTION post_profiles_from_accounts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE post_profiles pp SET refs = pp.refs - d.n
      FROM (SELECT t.post_id, count(*)::int AS n FROM post_targets t WHERE t.account_id = OLD.id GROUP BY t.post_id) d
     WHERE pp.post_id = d.post_id AND pp.profile_id = OLD.profile_id;
    DELETE FROM post_profiles pp
     WHERE pp.profile_id = OLD.profile_id AND pp.refs <= 0 AND pp.post_id IN (SELECT t.post_id FROM post_targets t WHERE t.account_id = OLD.id);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO post_profiles (post_id, profile_id, tenant_id, refs, scheduled_for, created_at, hidden)
    SELECT p.id, NEW.profile_id, p.tenant_id, count(*), p.scheduled_for, p.created_at, p.hidden
      FROM post_targets t JOIN posts p ON p.id = t.post_id WHERE t.account_id = NEW.id
     GROUP BY p.id
    ON CONFLICT (post_id, profile_id) DO UPDATE SET refs = post_profiles.refs + excluded.refs;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER accounts_profiles_move AFTER UPDATE OF profile_id ON accounts
  FOR EACH ROW WHEN (OLD.profile_id IS DISTINCT FROM NEW.profile_id) EXECUTE FUNCTION post_profiles_from_accounts();
CREATE TRIGGER accounts_profiles_delete AFTER DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION post_profiles_from_accounts();
CREATE TRIGGER accounts_profiles_insert AFTER INSERT ON accounts
  FOR EACH ROW EXECUTE FUNCTION post_profiles_from_accounts();

-- The counters follow the rows.
CREATE FUNCTION profile_post_counters_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO profile_post_counters (tenant_id, profile_id, hidden, shard, n)
    SELECT tenant_id, profile_id, hidden, pg_backend_pid(), count(*) FROM new_rows GROUP BY tenant_id, profile_id, hidden
    ON CONFLICT (tenant_id, profile_id, hidden, shard) DO UPDATE SET n = profile_post_counters.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
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

CREATE TRIGGER post_profiles_count_insert AFTER INSERT ON post_profiles
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION profile_post_counters_add();
CREATE TRIGGER post_profiles_count_delete AFTER DELETE ON post_profiles
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION profile_post_counters_add();
CREATE TRIGGER post_profiles_count_update AFTER UPDATE OF hidden, profile_id, tenant_id ON post_profiles
  FOR EACH ROW WHEN (OLD.hidden IS DISTINCT FROM NEW.hidden OR OLD.profile_id IS DISTINCT FROM NEW.profile_id OR OLD.tenant_id IS DISTINCT FROM NEW.tenant_id)
  EXECUTE FUNCTION profile_post_counters_add();

-- The rows and counts of the posts stored before this migration.
INSERT INTO post_profiles (post_id, profile_id, tenant_id, refs, scheduled_for, created_at, hidden)
SELECT p.id, m.profile_id, p.tenant_id, count(*), p.scheduled_for, p.created_at, p.hidden
  FROM (SELECT t.post_id, a.profile_id FROM post_targets t JOIN accounts a ON a.id = t.account_id
        UNION ALL SELECT q.id, q.queued_from_profile FROM posts q WHERE q.queued_from_profile IS NOT NULL) m
  JOIN posts p ON p.id = m.post_id
 GROUP BY p.id, m.profile_id;
