/**
 * The one rule of a post's status (docs/decisions/0004-status-table.md): derived from its
 * targets, by the publisher's finishes, by an edit, a retry and a repair, and by unpublish
 * (its own case of the rule). The statements here are the posts module's; publishing embeds
 * {@link POST_STATUS_FROM_TARGET_COUNTS} in its finish statements.
 */
import type { Queryable } from '../../storage/db.ts';
import type { PostStatus } from './schemas.ts';

/**
 * The one rule deriving a post's status from its targets (docs/decisions/0004-status-table.md),
 * as a SQL expression over a row `a` of counts, in one of two cases (`after`):
 *
 * - `publishing` (the default): `a` has total, published, failed (failed or cancelled),
 *   publishing, retrying (pending after an attempt). All published: published; all finished
 *   with some published: partial; all failed: failed; anything started: publishing; else
 *   scheduled. Used by recomputePostStatus and by the publisher's single-target finish.
 * - `unpublish` (decision 0039), once none of the post's targets is pending or publishing: `a`
 *   has published. Something still live (a platform without delete, a refused delete): partial;
 *   nothing live: cancelled. Used by {@link setStatusAfterUnpublish}.
 */
export const POST_STATUS_FROM_TARGET_COUNTS = (a: string, after: 'publishing' | 'unpublish' = 'publishing') => after === 'unpublish'
  ? `CASE WHEN ${a}.published > 0 THEN 'partial' ELSE 'cancelled' END`
  : `CASE
         WHEN ${a}.total = 0 THEN p.status
         WHEN ${a}.published = ${a}.total THEN 'published'
         WHEN ${a}.published + ${a}.failed = ${a}.total AND ${a}.published > 0 THEN 'partial'
         WHEN ${a}.failed = ${a}.total THEN 'failed'
         WHEN ${a}.publishing > 0 OR ${a}.retrying > 0 OR ${a}.published + ${a}.failed > 0 THEN 'publishing'
         ELSE 'scheduled' END`;

/**
 * After unpublish wrote its targets: the post's status by the rule's `unpublish` case, stamped
 * `now`, if none of its targets is pending or publishing (else it is left as it is: targets of
 * another platform, outside an unpublish of one platform, still run). Any status, drafts included.
 * In the caller's transaction, which holds the post's targets locked.
 */
export async function setStatusAfterUnpublish(q: Queryable, postId: string, now: Date): Promise<void> {
  await q.query(
    `WITH agg AS (
       SELECT count(*) FILTER (WHERE status = 'published') AS published,
              count(*) FILTER (WHERE status IN ('pending', 'publishing')) AS unfinished
         FROM post_targets WHERE post_id = $1)
     UPDATE posts p SET status = ${POST_STATUS_FROM_TARGET_COUNTS('agg', 'unpublish')}, updated_at = $2
       FROM agg WHERE p.id = $1 AND agg.unfinished = 0`, [postId, now]);
}

/**
 * Derives a post's status from its targets with {@link POST_STATUS_FROM_TARGET_COUNTS} and
 * stores it; drafts and cancelled posts are left alone. The caller must hold the post row
 * lock (SELECT ... FOR UPDATE) in its transaction, so that concurrent target updates are
 * all visible to this statement.
 */
export async function recomputePostStatus(q: Queryable, postId: string): Promise<PostStatus | null> {
  const { rows } = await q.query<{ status: PostStatus }>(
    `WITH agg AS (
       SELECT count(*) AS total,
              count(*) FILTER (WHERE status = 'published') AS published,
              count(*) FILTER (WHERE status IN ('failed', 'cancelled')) AS failed,
              count(*) FILTER (WHERE status = 'publishing') AS publishing,
              count(*) FILTER (WHERE status = 'pending' AND attempts > 0 AND platform_post_id IS NULL) AS retrying,
              max(published_at) AS last_published
         FROM post_targets WHERE post_id = $1)
     UPDATE posts p SET
       status = ${POST_STATUS_FROM_TARGET_COUNTS('agg')},
       published_at = COALESCE(p.published_at, agg.last_published),
       updated_at = now()
       FROM agg
      WHERE p.id = $1 AND p.status NOT IN ('draft', 'cancelled', 'pending_approval')
     RETURNING p.status`,
    [postId],
  );
  return rows[0]?.status ?? null;
}

/**
 * Recomputes the status of scheduled or publishing posts none of whose targets is still pending or
 * publishing (a status left behind by a crash; every writer derives it in the target's own
 * transaction, so this is a safety net). Looks at `scan` posts in id order after `after` (null: from
 * the first), so a pass costs the same at a million posts as at a thousand: checking every scheduled
 * post took 1.2 s of PostgreSQL per pass at a million posts, and the reconciler runs every few seconds
 * (bench/README.md, session 12). Answers how many it fixed and where the next pass starts (null when
 * this one reached the last post: the sweep starts over).
 */
export async function repairPostStatuses(client: Queryable, after: string | null, scan = REPAIR_SCAN): Promise<{ fixed: number; next: string | null }> {
  const { rows } = await client.query<{ last: string | null; n: number; ids: string[] }>(
    `WITH slice AS (SELECT p.id, p.status FROM posts p ${after === null ? '' : 'WHERE p.id > $2'} ORDER BY p.id LIMIT $1)
     SELECT (SELECT max(s.id) FROM slice s) AS last, (SELECT count(*) FROM slice)::int AS n,
            ARRAY(SELECT s.id FROM slice s
                   WHERE s.status IN ('scheduled', 'publishing')
                     AND NOT EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = s.id AND t.status IN ('pending', 'publishing'))) AS ids`,
    after === null ? [scan] : [scan, after]);
  const { last, n, ids } = rows[0];
  for (const id of ids) {
    await client.query('SELECT 1 FROM posts WHERE id = $1 FOR UPDATE', [id]);
    await recomputePostStatus(client, id);
  }
  return { fixed: ids.length, next: n < scan ? null : last };
}

/** Posts one reconciler pass looks at (repairPostStatuses): 17 ms of PostgreSQL at a million posts. */
export const REPAIR_SCAN = 5_000;

/**
 * SQL over alias `t` (a post_targets row): its last attempt is a commit or verify without an
 * answer, so the next run must verify before committing (decision 0018). The one definition of "in doubt".
 */
export const LAST_ATTEMPT_UNANSWERED = `EXISTS (
              SELECT 1 FROM (SELECT phase, outcome FROM publish_attempts a WHERE a.target_id = t.id ORDER BY a.id DESC LIMIT 1) last
               WHERE last.phase IN ('commit', 'verify') AND (last.outcome IS NULL OR last.outcome = 'unknown'))`;

/**
 * Puts a failed or partial post's failed targets (`only` those ids when given) back to pending, due now, with a fresh retry
 * budget, and derives the post's status again (a failed post is scheduled; a partial one, whose
 * published targets are kept, is publishing). A target whose last commit got no answer ("may
 * have been published") stays in doubt: its next run asks the platform before committing again
 * (decision 0018). Answers how many targets were re-queued.
 */
export async function requeueFailedTargets(q: Queryable, postId: string, only?: { targetIds: readonly string[] }): Promise<number> {
  const { rowCount } = await q.query(
    `UPDATE post_targets t SET status = 'pending', run_at = now(), attempts = 0, crash_count = 0, in_doubt = ${LAST_ATTEMPT_UNANSWERED},
            error_message = NULL, error_category = NULL, locked_by = NULL, locked_until = NULL, updated_at = now()
      WHERE post_id = $1 AND status = 'failed'${only ? ' AND id = ANY($2::char(24)[])' : ''}`, only ? [postId, only.targetIds] : [postId]);
  if (!rowCount) return 0;
  const { rows } = await q.query<{ published: boolean }>(`SELECT EXISTS (SELECT 1 FROM post_targets WHERE post_id = $1 AND status = 'published') AS published`, [postId]);
  if (rows[0].published) await recomputePostStatus(q, postId);
  else await q.query(`UPDATE posts SET status = 'scheduled', updated_at = now() WHERE id = $1`, [postId]);
  return rowCount;
}
