-- The daily view's gains summed ahead of the request (docs/decisions/0067-analytics-daily-rollup.md).
--
-- post_metric_gains: what each target gained per UTC day, the one definition of a gain that
-- GET /v1/analytics/daily has used since migration 0011: the target's last snapshot of the day less
-- its last snapshot of the previous day that has one (0 before the first: the first day gains the
-- whole count). A metric the last snapshot of the day lacks (null) gains null that day; a null the
-- day before counts as 0. Filtered by target_id, the filter reaches the snapshots' primary key (it
-- is the window's partition), so one target's gains read only its own snapshots.
CREATE VIEW post_metric_gains AS
SELECT target_id, day,
       impressions - coalesce(lag(impressions) OVER w, 0) AS impressions,
       reach - coalesce(lag(reach) OVER w, 0) AS reach,
       views - coalesce(lag(views) OVER w, 0) AS views,
       likes - coalesce(lag(likes) OVER w, 0) AS likes,
       comments - coalesce(lag(comments) OVER w, 0) AS comments,
       shares - coalesce(lag(shares) OVER w, 0) AS shares,
       saves - coalesce(lag(saves) OVER w, 0) AS saves,
       clicks - coalesce(lag(clicks) OVER w, 0) AS clicks,
       engagement - coalesce(lag(engagement) OVER w, 0) AS engagement
  FROM (SELECT DISTINCT ON (target_id, (captured_at AT TIME ZONE 'UTC')::date)
               target_id, (captured_at AT TIME ZONE 'UTC')::date AS day,
               impressions, reach, views, likes, comments, shares, saves, clicks, engagement
          FROM post_metric_snapshots
         ORDER BY target_id, (captured_at AT TIME ZONE 'UTC')::date, captured_at DESC) last_of_day
WINDOW w AS (PARTITION BY target_id ORDER BY day);

-- post_metric_daily: the gains of the targets that count in the daily view (status 'published'),
-- summed per tenant, account, platform, UTC day of the target's publication (the view selects
-- targets by their publish time) and UTC day of the gain. The profile is not stored: the view
-- joins accounts when it reads, as it did (a moved account's history moves with it; a removed
-- account's rows are no longer joined). Each metric has its sum and how many targets' gains were
-- not null (the view answers null for a day where none was); `targets` counts the targets with a
-- reading that day (a row at 0 is a day the view no longer shows).
CREATE TABLE post_metric_daily (
  tenant_id       char(24) NOT NULL,
  published_day   date NOT NULL,
  account_id      char(24) NOT NULL,
  platform        text NOT NULL,
  day             date NOT NULL,
  targets         int NOT NULL DEFAULT 0,
  impressions     bigint NOT NULL DEFAULT 0,
  impressions_n   int NOT NULL DEFAULT 0,
  reach           bigint NOT NULL DEFAULT 0,
  reach_n         int NOT NULL DEFAULT 0,
  views           bigint NOT NULL DEFAULT 0,
  views_n         int NOT NULL DEFAULT 0,
  likes           bigint NOT NULL DEFAULT 0,
  likes_n         int NOT NULL DEFAULT 0,
  comments        bigint NOT NULL DEFAULT 0,
  comments_n      int NOT NULL DEFAULT 0,
  shares          bigint NOT NULL DEFAULT 0,
  shares_n        int NOT NULL DEFAULT 0,
  saves           bigint NOT NULL DEFAULT 0,
  saves_n         int NOT NULL DEFAULT 0,
  clicks          bigint NOT NULL DEFAULT 0,
  clicks_n        int NOT NULL DEFAULT 0,
  engagement      bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, published_day, account_id, platform, day)
);

-- Adds `sign` (1 or -1) times one target's gains of the days from `from_day` on (null: all) to the
-- bucket the target's columns name, for the triggers below and for each reading stored by the analytics repository
-- (saveReading, src/modules/analytics/repository.ts). Concurrent writers
-- of one bucket add (ON CONFLICT DO UPDATE adds to the row, under its row lock), so no increment is
-- lost. Nothing without a publish time.
CREATE FUNCTION post_metric_daily_add(p_target char(24), p_tenant char(24), p_account char(24), p_platform text,
                                      p_published_at timestamptz, p_from_day date, p_sign int) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO post_metric_daily AS d (tenant_id, published_day, account_id, platform, day, targets,
         impressions, impressions_n, reach, reach_n, views, views_n, likes, likes_n, comments, comments_n,
         shares, shares_n, saves, saves_n, clicks, clicks_n, engagement)
  SELECT p_tenant, (p_published_at AT TIME ZONE 'UTC')::date, p_account, p_platform, g.day, p_sign,
         p_sign * coalesce(g.impressions, 0), p_sign * (g.impressions IS NOT NULL)::int,
         p_sign * coalesce(g.reach, 0), p_sign * (g.reach IS NOT NULL)::int,
         p_sign * coalesce(g.views, 0), p_sign * (g.views IS NOT NULL)::int,
         p_sign * coalesce(g.likes, 0), p_sign * (g.likes IS NOT NULL)::int,
         p_sign * coalesce(g.comments, 0), p_sign * (g.comments IS NOT NULL)::int,
         p_sign * coalesce(g.shares, 0), p_sign * (g.shares IS NOT NULL)::int,
         p_sign * coalesce(g.saves, 0), p_sign * (g.saves IS NOT NULL)::int,
         p_sign * coalesce(g.clicks, 0), p_sign * (g.clicks IS NOT NULL)::int,
         p_sign * g.engagement
    FROM post_metric_gains g
   WHERE g.target_id = p_target AND (p_from_day IS NULL OR g.day >= p_from_day) AND p_published_at IS NOT NULL
   ORDER BY g.day
  ON CONFLICT (tenant_id, published_day, account_id, platform, day) DO UPDATE SET
         targets = d.targets + EXCLUDED.targets,
         impressions = d.impressions + EXCLUDED.impressions, impressions_n = d.impressions_n + EXCLUDED.impressions_n,
         reach = d.reach + EXCLUDED.reach, reach_n = d.reach_n + EXCLUDED.reach_n,
         views = d.views + EXCLUDED.views, views_n = d.views_n + EXCLUDED.views_n,
         likes = d.likes + EXCLUDED.likes, likes_n = d.likes_n + EXCLUDED.likes_n,
         comments = d.comments + EXCLUDED.comments, comments_n = d.comments_n + EXCLUDED.comments_n,
         shares = d.shares + EXCLUDED.shares, shares_n = d.shares_n + EXCLUDED.shares_n,
         saves = d.saves + EXCLUDED.saves, saves_n = d.saves_n + EXCLUDED.saves_n,
         clicks = d.clicks + EXCLUDED.clicks, clicks_n = d.clicks_n + EXCLUDED.clicks_n,
         engagement = d.engagement + EXCLUDED.engagement
$$;

-- A target that stops counting (unpublished: cancelled; its post deleted; any status other than
-- published) takes its gains out; one that counts again, or moves (publish time, account,
-- platform, tenant), puts them back where it now belongs. Every path that changes a target goes
-- through here, whichever module or statement it is (a deleted post's targets too: BEFORE DELETE,
-- while their snapshots are still there). A removed account needs nothing: its targets keep their
-- account id and the view's join to accounts no longer finds it, as before.
CREATE FUNCTION post_metric_daily_follow_target() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'published' THEN
    PERFORM post_metric_daily_add(OLD.id, OLD.tenant_id, OLD.account_id, OLD.platform, OLD.published_at, NULL, -1);
  END IF;
  IF TG_OP = 'UPDATE' THEN
    IF NEW.status = 'published' THEN
      PERFORM post_metric_daily_add(NEW.id, NEW.tenant_id, NEW.account_id, NEW.platform, NEW.published_at, NULL, 1);
    END IF;
    RETURN NEW;
  END IF;
  RETURN OLD;
END $$;

-- A target published for the first time (no publish time before: nothing clears one) has no snapshots,
-- so nothing to put back: the trigger stays out of the publisher's finish, where it took a third of the
-- statement's time (bench/README.md, the EXPLAIN of the finish at scale).
CREATE TRIGGER post_targets_metric_daily_update AFTER UPDATE OF status, published_at, account_id, platform, tenant_id ON post_targets
  FOR EACH ROW WHEN ((OLD.status = 'published' OR (NEW.status = 'published' AND OLD.published_at IS NOT NULL))
    AND (OLD.status, OLD.published_at, OLD.account_id, OLD.platform, OLD.tenant_id) IS DISTINCT FROM (NEW.status, NEW.published_at, NEW.account_id, NEW.platform, NEW.tenant_id))
  EXECUTE FUNCTION post_metric_daily_follow_target();
CREATE TRIGGER post_targets_metric_daily_delete BEFORE DELETE ON post_targets
  FOR EACH ROW WHEN (OLD.status = 'published')
  EXECUTE FUNCTION post_metric_daily_follow_target();

-- Rebuilds the table from the snapshots, for one tenant (null: all), in one statement after
-- deleting its rows: the backfill below, and what bench/analytics.ts runs after seeding snapshots
-- by SQL. Answers how many rows it wrote.
CREATE FUNCTION post_metric_daily_rebuild(p_tenant char(24)) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE written bigint;
BEGIN
  DELETE FROM post_metric_daily WHERE p_tenant IS NULL OR tenant_id = p_tenant;
  INSERT INTO post_metric_daily (tenant_id, published_day, account_id, platform, day, targets,
         impressions, impressions_n, reach, reach_n, views, views_n, likes, likes_n, comments, comments_n,
         shares, shares_n, saves, saves_n, clicks, clicks_n, engagement)
  SELECT t.tenant_id, (t.published_at AT TIME ZONE 'UTC')::date, t.account_id, t.platform, g.day, count(*),
         coalesce(sum(g.impressions), 0), count(g.impressions), coalesce(sum(g.reach), 0), count(g.reach),
         coalesce(sum(g.views), 0), count(g.views), coalesce(sum(g.likes), 0), count(g.likes),
         coalesce(sum(g.comments), 0), count(g.comments), coalesce(sum(g.shares), 0), count(g.shares),
         coalesce(sum(g.saves), 0), count(g.saves), coalesce(sum(g.clicks), 0), count(g.clicks),
         sum(g.engagement)
    FROM post_metric_gains g JOIN post_targets t ON t.id = g.target_id
   WHERE t.status = 'published' AND t.published_at IS NOT NULL AND (p_tenant IS NULL OR t.tenant_id = p_tenant)
   GROUP BY 1, 2, 3, 4, 5;
  GET DIAGNOSTICS written = ROW_COUNT;
  RETURN written;
END $$;

SELECT post_metric_daily_rebuild(NULL);
