/**
 * A worker that stalls while it holds targets (a paused VM or container, CPU throttling, a
 * starved event loop, a laptop that sleeps), counted on the platform's side.
 *
 * Two `herald worker` processes on one PostgreSQL with the default stale time (30 s); 300 posts due
 * at once on one Facebook Page whose answers to the visible call take 1 s. Worker A is stopped with
 * SIGSTOP while it holds claimed targets, some with their visible call in flight and some waiting for
 * a slot (on a Page their attempt rows are written ahead, decision 0076); the other worker takes them over once A's lease runs out. A is resumed with SIGCONT
 * after `stallMs`, and runs on. Then the Page is read: every post exactly once, and Herald's status
 * and post id equal to it (docs/decisions/0045-fencing-and-late-landings.md).
 */
import { expect } from 'vitest';
import { waitFor } from './net.ts';
import { isFeedPost, startFacebookFlow } from './facebook-flow.ts';
import type { PlatformFlow } from './platform-flow.ts';

const POSTS = 300;
/** The workers' concurrency (HERALD_WORKER_CONCURRENCY, set here): at most this many visible calls of one worker are in flight. */
const CONCURRENCY = 50;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How a flow is started with the proxy and environment the scenario asks for (the Facebook Page flow by default). */
export type StartFlow = (opts: { proxy: { delayMs: number; slow: (method: string, path: string) => boolean }; env: Record<string, string> }) => Promise<PlatformFlow>;

/**
 * `start`: the platform's flow (default the Facebook Page's, its feed call held); `slow` picks the
 * platform's visible call that the proxy holds; `preparesOffline`: whether the adapter prepares these
 * posts without a request (a Page's text post: yes; Mastodon reads the instance's limits: no), i.e.
 * whether targets waiting for a slot have their attempt row written (decision 0076) or only their claim.
 */
export async function runStallScenario(stallMs: number, platform: { start: StartFlow; slow: (method: string, path: string) => boolean; preparesOffline: boolean } = { start: startFacebookFlow, slow: isFeedPost, preparesOffline: true }): Promise<void> {
  // A request here lands at most 1 s after it was sent (the proxy's hold), so the settle time is
  // 5 s: the taker-over commits again soon after its verify, and only the fence keeps the stalled
  // worker from publishing the same post when it wakes.
  const flow = await platform.start({ proxy: { delayMs: 1_000, slow: platform.slow }, env: { HERALD_COMMIT_SETTLE_MS: '5000' } });
  try {
    const run = Date.now().toString(36);
    const texts = Array.from({ length: POSTS }, (_, i) => `stall ${stallMs / 1000} s ${run} #${i}`);
    const due = new Date(Date.now() + 20_000);
    const planned = await flow.schedule(texts, due);
    const workerEnv = { HERALD_WORKER_CONCURRENCY: String(CONCURRENCY) };
    const a = flow.startWorker(workerEnv);
    flow.startWorker(workerEnv);
    const q = async (sql: string, params: unknown[]) => (await flow.ctx.db.query<{ n: number }>(sql, params)).rows[0].n;
    const workerA = await waitFor(async () => (await flow.ctx.db.query<{ id: string }>('SELECT id FROM workers WHERE pid = $1', [a.pid])).rows[0]?.id,
      { timeoutMs: 60_000, what: 'worker A to register' });
    const held = () => q(`SELECT count(*)::int AS n FROM post_targets WHERE locked_by = $1 AND status = 'publishing'`, [workerA]);
    const committing = () => q(`SELECT count(*)::int AS n FROM publish_attempts WHERE worker_id = $1 AND phase = 'commit' AND outcome IS NULL`, [workerA]);

    // Stop A in the middle of the burst, while it holds targets in flight and others waiting for a
    // slot: with their attempt rows written (more unanswered attempt rows than calls can be in
    // flight), or claimed only (more held than unanswered).
    const waitingFor = (h: number, c: number) => (platform.preparesOffline ? c > CONCURRENCY : h > c);
    let atStop = { held: 0, committing: 0 };
    await waitFor(async () => {
      const [h, c] = [await held(), await committing()];
      if (c > 0 && waitingFor(h, c)) {
        a.kill('SIGSTOP');
        // What A held at that moment (read after the stop, so it no longer changes).
        atStop = { held: await held(), committing: await committing() };
        return true;
      }
      return false;
    }, { timeoutMs: 60_000, intervalMs: 5, what: 'worker A to hold targets waiting for a slot mid-burst' });
    const stoppedAt = Date.now();

    // The other worker finishes everything, A's targets once A's lease ran out.
    await waitFor(async () => { const s = await flow.statuses(); return (s.published ?? 0) + (s.failed ?? 0) >= POSTS; },
      { timeoutMs: stallMs + 120_000, intervalMs: 250, what: 'every post finished' });
    const finishedAfterMs = Date.now() - stoppedAt;
    await sleep(Math.max(0, stallMs - (Date.now() - stoppedAt)));
    a.kill('SIGCONT');
    // A wakes: its in-flight answers arrive and its waiting targets get slots. Give it time to act.
    await sleep(8_000);

    const counts = await flow.count(planned);
    const staleFinishes = await q('SELECT count(*)::int AS n FROM publish_attempts WHERE worker_id = $1 AND stale', [workerA]);
    const attemptsByA = await q(`SELECT count(*)::int AS n FROM publish_attempts WHERE worker_id = $1 AND started_at > to_timestamp($2 / 1000.0)`, [workerA, stoppedAt + 1_000]);
    const { rows: dupRows } = await flow.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM post_targets WHERE tenant_id = $1 AND result ? 'duplicates'`, [flow.tenant.userId]);
    process.stdout.write(`stall ${stallMs / 1000} s: ${JSON.stringify({
      posts: POSTS, heldByStalledWorker: atStop.held, unansweredAttemptsAtStop: atStop.committing,
      waitingWithAttemptRowAtStopAtLeast: platform.preparesOffline ? atStop.committing - CONCURRENCY : 0, waitingClaimedOnlyAtStop: atStop.held - atStop.committing,
      allFinishedMsAfterStop: finishedAfterMs, statuses: await flow.statuses(), attemptsWrittenByStalledWorkerAfterWaking: attemptsByA,
      staleFinishesRecorded: staleFinishes, duplicates: counts.duplicates, lost: counts.lost, heraldDiffersFromPlatform: counts.statusWrong,
      targetsWithRecordedDuplicates: dupRows[0].n,
    })}\n`);

    if (counts.wrong.length) {
      // What each process did with the posts that went wrong, for the reader of a failed run.
      const { rows } = await flow.ctx.db.query(
        `SELECT t.post_id, a.worker_id = $2 AS by_stalled_worker, a.phase, a.outcome, a.stale, a.platform_post_id, a.started_at, a.finished_at
           FROM publish_attempts a JOIN post_targets t ON t.id = a.target_id
          WHERE t.tenant_id = $1 AND t.id IN (SELECT target_id FROM publish_attempts GROUP BY target_id HAVING count(*) > 1) ORDER BY a.id`,
        [flow.tenant.userId, workerA]);
      process.stdout.write(`stall ${stallMs / 1000} s, attempts of the targets run more than once: ${JSON.stringify(rows)}\n`);
      // Why Herald settled the failed ones as it did (the last error of each, e.g. what verify answered).
      const { rows: failed } = await flow.ctx.db.query(
        `SELECT post_id, error_category, error_message FROM post_targets WHERE tenant_id = $1 AND status = 'failed'`, [flow.tenant.userId]);
      process.stdout.write(`stall ${stallMs / 1000} s, failed targets: ${JSON.stringify(failed)}\n`);
    }
    expect(counts.wrong).toEqual([]);
    expect({ duplicates: counts.duplicates, lost: counts.lost, statusWrong: counts.statusWrong }).toEqual({ duplicates: 0, lost: 0, statusWrong: 0 });
    // The stall really caught A holding targets in flight and waiting for a slot, and A wrote no attempt after waking.
    expect(atStop.committing).toBeGreaterThan(0);
    expect(waitingFor(atStop.held, atStop.committing)).toBe(true);
    expect(attemptsByA).toBe(0);
  } finally {
    await flow.close();
  }
}
