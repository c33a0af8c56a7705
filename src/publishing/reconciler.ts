/**
 * The reconciler (docs/decisions/0001, 0002, 0018): the posts table is the source of truth, so a
 * crash or restart never leaves a post unpublished and silent.
 * - Targets in `publishing` whose owner stopped heartbeating (or whose lock expired)
 *   go back to `pending`, due now; their attempt rows tell the next run whether to
 *   prepare again or verify an interrupted commit first (publisher.ts). A target whose
 *   last visible call has no recorded answer is marked `in_doubt`: it is claimed before
 *   anything else on its account, so it is verified before a new commit there
 *   (docs/decisions/0018-exact-verify.md).
 * - A process on this host and installation whose pid is gone is dead now: its targets
 *   are released at once instead of after the stale timeout.
 * - Posts whose derived status no longer matches their targets are recomputed, a slice of the posts
 *   per pass (the sweep goes round; see repairPostStatuses).
 * - Expired idempotency keys, old rate-limit windows and dead process rows are purged.
 * - The per-backend post counter rows are folded together (docs/decisions/0034-post-counters.md),
 *   in a statement of their own after the pass, so no writer waits on the pass's transaction.
 * Runs in every worker; a transaction-level advisory lock keeps one pass at a time.
 */
import type { Db } from '../storage/db.ts';
import { pidAlive } from '../infra/process.ts';
import { createTargetsRepository, forgetSilentProcesses, releaseStaleTargets } from './targets-repository.ts';
import { compactPostCounters, repairPostStatuses } from '../modules/posts/repository.ts';
import { pruneIdempotencyKeys } from '../modules/posts/idempotency.ts';
import { pruneRateLimitCounters } from '../storage/rate-limit-counters.ts';

const LOCK_KEY = 7_263_591_005;
/**
 * Where a worker's sweep of post statuses goes on from pass to pass (repairPostStatuses): the post id after
 * which the next pass looks; null, from the first post. Its caller keeps it (one per worker).
 */
export interface RepairSweep { from: string | null }

/**
 * One reconciler pass, if no other process is running one. `sweep`: the caller's place in the sweep of
 * post statuses, moved on by this pass (without it, the pass looks from the first post).
 */
export async function reconcile(db: Db, opts: { staleMs: number; sweep?: RepairSweep }): Promise<{ released: number; fixed: number }> {
  const sweep = opts.sweep ?? { from: null };
  const result = await db.tx(async (client) => {
    const { rows: got } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [LOCK_KEY]);
    if (!got[0].ok) return { released: 0, fixed: 0 };
    const stale = opts.staleMs / 1000;
    const released = await releaseStaleTargets(client);
    const repair = await repairPostStatuses(client, sweep.from);
    sweep.from = repair.next;
    const fixed = repair.fixed;
    await forgetSilentProcesses(client, Math.max(stale * 10, 600));
    await pruneIdempotencyKeys(client);
    await pruneRateLimitCounters(client);
    return { released: released.length, fixed };
  });
  await compactPostCounters(db);
  return result;
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
  const targets = createTargetsRepository(db);
  const others = await targets.processesOf(self.hostname, self.instance, self.id);
  const dead = others.filter((r) => r.pid === process.pid || !isAlive(r.pid)).map((r) => r.id);
  return dead.length ? targets.releaseProcesses(dead) : 0;
}
