/**
 * The reconciler (design.md section 4): the posts table is the source of truth, so a
 * crash or restart never leaves a post unpublished and silent.
 * - Targets in `publishing` whose owner stopped heartbeating (or whose lock expired)
 *   go back to `pending`, due now; their attempt rows tell the next run whether to
 *   prepare again or verify an interrupted commit first (publisher.ts). A target whose
 *   last visible call has no recorded answer is marked `in_doubt`: it is claimed before
 *   anything else on its account, so it is verified before a new commit there
 *   (docs/decisions/0018-exact-verify.md).
 * - A process on this host and installation whose pid is gone is dead now: its targets
 *   are released at once instead of after the stale timeout.
 * - Posts whose derived status no longer matches their targets are recomputed.
 * - Expired idempotency keys, old rate-limit windows and dead process rows are purged.
 * Runs in every worker; a transaction-level advisory lock keeps one pass at a time.
 */
import type { Db, Queryable } from '../storage/db.ts';
import { recomputePostStatus } from '../modules/posts/repository.ts';
import { pruneRateLimitCounters } from '../storage/rate-limit-counters.ts';

const LOCK_KEY = 7_263_591_005;
/** Crashes after which a crashed run counts as an attempt again (a post that kills every worker must still end). */
export const MAX_FREE_CRASHES = 10;

/**
 * Puts claimed targets matching `where` (SQL over alias `t`, parameters from $2 on) back to
 * pending, due now. A crash does not spend the retry budget (the claim's attempt is given
 * back, up to MAX_FREE_CRASHES), and an unanswered last commit or verify marks the target in doubt.
 */
async function releaseTargets(client: Queryable, where: string, params: unknown[]): Promise<Array<{ post_id: string }>> {
  const { rows } = await client.query<{ post_id: string }>(
    `UPDATE post_targets t SET status = 'pending', run_at = now(), locked_by = NULL, locked_until = NULL, updated_at = now(),
            crash_count = t.crash_count + 1,
            attempts = CASE WHEN t.crash_count < $1 THEN GREATEST(t.attempts - 1, 0) ELSE t.attempts END,
            in_doubt = EXISTS (
              SELECT 1 FROM (SELECT phase, outcome FROM publish_attempts a WHERE a.target_id = t.id ORDER BY a.id DESC LIMIT 1) last
               WHERE last.phase IN ('commit', 'verify') AND (last.outcome IS NULL OR last.outcome = 'unknown'))
      WHERE t.status = 'publishing' AND (${where})
      RETURNING t.post_id`, [MAX_FREE_CRASHES, ...params]);
  return rows;
}

export async function reconcile(db: Db, opts: { staleMs: number }): Promise<{ released: number; fixed: number }> {
  return db.tx(async (client) => {
    const { rows: got } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [LOCK_KEY]);
    if (!got[0].ok) return { released: 0, fixed: 0 };
    const stale = opts.staleMs / 1000;
    const released = await releaseTargets(client,
      `t.locked_until < now() OR t.locked_by IS NULL OR NOT EXISTS (
         SELECT 1 FROM workers w WHERE w.id = t.locked_by AND w.heartbeat_at > now() - make_interval(secs => $2))`, [stale]);
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
    await pruneRateLimitCounters(client);
    return { released: released.length, fixed: broken.length };
  });
}

/** Whether a process with this pid exists on this host (EPERM: it exists, owned by another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** This process as the workers table knows it. */
export interface ProcessIdentity {
  id: string;
  hostname: string;
  /** The installation on this host (its data directory); null opts out of the pid check. */
  instance: string | null;
}

/**
 * Releases at once the targets of earlier processes of the same installation on this host
 * whose pid is gone (or is this process's own pid: a container restarted under the same
 * pid), and forgets those processes. Returns the number of targets released.
 */
export async function releaseDeadLocalProcesses(db: Db, self: ProcessIdentity, isAlive: (pid: number) => boolean = pidAlive): Promise<number> {
  if (!self.instance) return 0;
  const { rows } = await db.query<{ id: string; pid: number }>(
    'SELECT id, pid FROM workers WHERE hostname = $1 AND instance = $2 AND id <> $3', [self.hostname, self.instance, self.id]);
  const dead = rows.filter((r) => r.pid === process.pid || !isAlive(r.pid)).map((r) => r.id);
  if (dead.length === 0) return 0;
  return db.tx(async (client) => {
    const released = await releaseTargets(client, 't.locked_by = ANY($2::text[])', [dead]);
    await client.query('DELETE FROM workers WHERE id = ANY($1::text[])', [dead]);
    return released.length;
  });
}
