/**
 * A request that lands late (docs/decisions/0045-fencing-and-late-landings.md), on any platform
 * flow with its simulator in its own process (test/support/facebook-flow.ts,
 * mastodon-flow.ts): a proxy holds a fifth of the creates for 60 s before delivering them to the
 * platform (which then creates the post), while Herald's call times out after 30 s. A verify right
 * after finds nothing, which proves nothing: Herald must wait out the settle time
 * (HERALD_COMMIT_SETTLE_MS, here 75 s: longer than the proxy's hold), verify again, find the post
 * that landed, and never create a second one. Counted on the platform's side.
 */
import { expect } from 'vitest';
import type { PlatformFlow } from './platform-flow.ts';
import type { startDelayProxy } from './delay-proxy.ts';
import { waitFor } from './net.ts';

const POSTS = 30;
const HOLD_MS = 60_000;

/** A platform's flow: how to start it, which request is the create, its name in the output. */
export interface LateLandingPlatform {
  name: string;
  start: (opts: { proxy: Parameters<typeof startDelayProxy>[1]; env: Record<string, string> }) => Promise<PlatformFlow>;
  isCreate: (method: string, path: string) => boolean;
}

/** Runs the scenario and asserts 0 duplicates, 0 lost, and that the late landings really happened. */
export async function runLateLandingScenario(platform: LateLandingPlatform): Promise<void> {
  let creates = 0;
  const flow = await platform.start({
    // Every fifth of the first 30 creates lands 60 s late; later ones (a second create, if any) go straight through.
    proxy: { delayMs: 0, slow: () => false, late: { ms: HOLD_MS, select: (m, p) => platform.isCreate(m, p) && creates++ < POSTS && (creates - 1) % 5 === 0 } },
    env: { HERALD_COMMIT_SETTLE_MS: '75000' },
  });
  try {
    const run = Date.now().toString(36);
    const planned = await flow.schedule(Array.from({ length: POSTS }, (_, i) => `late landing ${run} #${i}`), new Date(Date.now() + 2_000));
    flow.startWorker();
    await waitFor(async () => { const s = await flow.statuses(); return (s.published ?? 0) + (s.failed ?? 0) >= POSTS; },
      { timeoutMs: 240_000, intervalMs: 500, what: 'every post finished' });
    // Count only once every held request has reached the platform (a second create made before it
    // landed would look fine until then).
    await waitFor(async () => flow.proxy.landedLate >= POSTS / 5, { timeoutMs: HOLD_MS + 60_000, intervalMs: 500, what: 'every held request to land' });
    const counts = await flow.count(planned);
    const { rows: verifies } = await flow.ctx.db.query<{ outcome: string | null; n: number }>(
      `SELECT a.outcome, count(*)::int AS n FROM publish_attempts a JOIN post_targets t ON t.id = a.target_id
        WHERE t.tenant_id = $1 AND a.phase = 'verify' GROUP BY a.outcome ORDER BY a.outcome`, [flow.tenant.userId]);
    const { rows: [commits] } = await flow.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM publish_attempts a JOIN post_targets t ON t.id = a.target_id WHERE t.tenant_id = $1 AND a.phase = 'commit'`, [flow.tenant.userId]);
    process.stdout.write(`late landing (${platform.name}): ${JSON.stringify({
      posts: POSTS, heldMs: HOLD_MS, landedLate: flow.proxy.landedLate, landedAfterHeraldGaveUp: flow.proxy.landedAfterClientLeft,
      commitCalls: commits.n, verifies: Object.fromEntries(verifies.map((v) => [v.outcome ?? 'interrupted', v.n])), statuses: await flow.statuses(),
      duplicates: counts.duplicates, lost: counts.lost, heraldDiffersFromPlatform: counts.statusWrong,
    })}\n`);
    expect(counts.wrong).toEqual([]);
    expect({ duplicates: counts.duplicates, lost: counts.lost, statusWrong: counts.statusWrong }).toEqual({ duplicates: 0, lost: 0, statusWrong: 0 });
    // The case really happened: six creates landed after Herald's call had timed out, and Herald
    // found each of them by verifying after the settle time instead of creating it again.
    expect(flow.proxy.landedLate).toBe(POSTS / 5);
    expect(flow.proxy.landedAfterClientLeft).toBe(POSTS / 5);
    expect(commits.n).toBe(POSTS);
    expect(Object.fromEntries(verifies.map((v) => [v.outcome, v.n]))).toMatchObject({ published: POSTS / 5 });
  } finally {
    await flow.close();
  }
}
