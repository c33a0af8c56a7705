-- Exact post counts per tenant, status and hidden flag, kept by triggers in the same transaction as
-- the change, so GET /v1/posts answers pagination.total without counting rows
-- (docs/decisions/0034-post-counters.md).
--
-- Each backend adds to its own row (shard = pg_backend_pid()), and a backend runs one transaction
-- at a time, so concurrent writers never wait on one another's counter row. A count is the sum of
-- a tenant's rows. The reconciler folds the rows of each tenant into shard 0 now and then
-- (compactPostCounters in src/modules/posts/repository.ts).
CREATE TABLE post_counters (
  tenant_id  char(24) NOT NULL,
  status     text NOT NULL,
  hidden     boolean NOT NULL,
  shard      integer NOT NULL,
  n          bigint NOT NULL,
  PRIMARY KEY (tenant_id, status, hidden, shard)
);

CREATE FUNCTION post_counters_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO post_counters (tenant_id, status, hidden, shard, n)
    SELECT tenant_id, status, hidden, pg_backend_pid(), count(*) FROM new_posts GROUP BY tenant_id, status, hidden
    ON CONFLICT (tenant_id, status, hidden, shard) DO UPDATE SET n = post_counters.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO post_counters (tenant_id, status, hidden, shard, n)
    SELECT tenant_id, status, hidden, pg_backend_pid(), -count(*) FROM old_posts GROUP BY tenant_id, status, hidden
    ON CONFLICT (tenant_id, status, hidden, shard) DO UPDATE SET n = post_counters.n + excluded.n;
  ELSE
    INSERT INTO post_counters (tenant_id, status, hidden, shard, n)
    VALUES (OLD.tenant_id, OLD.status, OLD.hidden, pg_backend_pid(), -1), (NEW.tenant_id, NEW.status, NEW.hidden, pg_backend_pid(), 1)
    ON CONFLICT (tenant_id, status, hidden, shard) DO UPDATE SET n = post_counters.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER posts_count_insert AFTER INSERT ON posts
  REFERENCING NEW TABLE AS new_posts FOR EACH STATEMENT EXECUTE FUNCTION post_counters_add();
CREATE TRIGGER posts_count_delete AFTER DELETE ON posts
  REFERENCING OLD TABLE AS old_posts FOR EACH STATEMENT EXECUTE FUNCTION post_counters_add();
CREATE TRIGGER posts_count_update AFTER UPDATE OF status, hidden, tenant_id ON posts
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.hidden IS DISTINCT FROM NEW.hidden OR OLD.tenant_id IS DISTINCT FROM NEW.tenant_id)
  EXECUTE FUNCTION post_counters_add();

INSERT INTO post_counters (tenant_id, status, hidden, shard, n)
SELECT tenant_id, status, hidden, 0, count(*) FROM posts GROUP BY tenant_id, status, hidden;
