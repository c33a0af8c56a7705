/**
 * The reconciler (design.md section 4): the posts table is the source of truth, so a
 * crash or restart never leaves a post unpublished and silent.
 * - Targets in `publishing` whose owner stopped heartbeating (or whose lock expired)
 *   go back to `pending`, due now; their attempt rows tell the next run whether to
 *   prepare again or verify an interrupted commit first (publisher.ts).
 * - Posts whose derived status no longer matches their targets are recomputed.
 * - Expired idempotency keys, old rate-limit windows and dead process rows are purged.
 * Runs in every worker; a transaction-level advisory lock keeps one pass at a time.
 */
import type { Db } from '../storage/db.ts';
import { recomputePostStatus } from '../modules/posts/repository.ts';

const LOCK_KEY = 7_263_591_005;

export async function reconcile(db: Db, opts: { staleMs: number }): Promise<{ released: number; fixed: number }> {
  return db.tx(async (client) => {
    const { rows: got } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [LOCK_KEY]);
    if (!got[0].ok) return { released: 0, fixed: 0 };
    const stale = opts.staleMs / 1000;
    const { rows: released } = await client.query<{ post_id: string }>(
      `UPDATE post_targets t SET status = 'pending', run_at = now(), locked_by = NULL, locked_until = NULL, updated_at = now()
        WHERE t.status = 'publishing'
          AND (t.locked_until < now() OR t.locked_by IS NULL OR NOT EXISTS (
                SELECT 1 FROM workers w WHERE w.id = t.locked_by AND w.heartbeat_at > now() - make_interval(secs => $1)))
       RETURNING t.post_id`, [stale]);
    const { rows: broken } = await client.query<{ id: string }>(
      `SELECT p.id FROM posts p
        WHERE p.status IN ('scheduled', 'publishing')
          AND NOT EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = p.id AND t.status IN ('pending', 'publishing'))
        LIMIT 500`);
    for (const { id } of broken) {
      await client.query('SELECT 1 FROM posts WHERE id = $1 FOR UPDATE', [id]);
      await recomputePostStatus(client, id);
    }
    await client.query(`DELETE FROM workers WHERE heartbeat_at < now() - make_interval(secs => $1)`, [Math.max(stale * 10, 600)]);
    await client.query(`DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours'`);
    await client.query(`DELETE FROM rate_limit_counters WHERE window_start < now() - interval '10 minutes'`);
    return { released: released.length, fixed: broken.length };
  });
}
