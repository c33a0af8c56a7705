/**
 * Never lose a post, never publish one twice, on Mastodon (issue 26; the Bluesky proof is
 * test/flows/crash.test.ts): a real worker process (`herald worker`) is killed with SIGKILL in the
 * middle of publishing, and a new worker finishes the job. The Mastodon simulator runs in its own
 * process (test/support/mastodon-flow.ts), so what it holds outlives every Herald process, and the
 * statuses are counted there: duplicates, losses and statuses Herald got wrong.
 *
 * The proxy between Herald and the instance holds the visible call (`POST /api/v1/statuses`):
 * - after the instance created the status but before Herald saw the answer (outcome unknown: the
 *   next worker must find the status by paging the account's statuses, not post again);
 * - before the request reached the instance (nothing visible: the next worker must publish);
 * - and a burst of posts with slow answers, the worker killed halfway through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTarget } from '../support/harness.ts';
import { isStatusPost, startMastodonFlow } from '../support/mastodon-flow.ts';
import { waitFor } from '../support/net.ts';
import type { PlatformFlow } from '../support/platform-flow.ts';
import { kill9 } from '../support/sim-process.ts';

/** What the proxy does with the status creations now. */
let mode: 'pass' | 'answer-held' | 'request-held' | 'slow' = 'pass';
let flow: PlatformFlow;
/** Status creations of the burst so far: the first BURST_MADE reach the instance, the others are held before it. */
let burstSent = 0;
const BURST_MADE = 5;

beforeAll(async () => {
  flow = await startMastodonFlow({
    proxy: {
      // Held answers, long enough for the kill: the status is made, Herald never sees the answer.
      delayMs: 120_000,
      slow: (m, p) => (mode === 'answer-held' || mode === 'slow') && isStatusPost(m, p),
      hold: (m, p) => isStatusPost(m, p) && (mode === 'request-held' || (mode === 'slow' && ++burstSent > BURST_MADE)),
    },
  });
}, 120_000);

afterAll(async () => { await flow?.close(); });

/**
 * A worker that takes over a dead worker's targets after 2 s (its heartbeat stops), and sends an
 * unanswered status again only once verify has found nothing 5 s after it was sent (the settle time
 * of decision 0045, 2 minutes by default; the proxy here never delivers a request late).
 */
const startWorker = () => flow.startWorker({ HERALD_WORKER_STALE_MS: '2000', HERALD_WORKER_POLL_MS: '100', HERALD_COMMIT_SETTLE_MS: '5000' });
const soon = () => new Date(Date.now() + 500);
const targetOf = (postId: string) => readTarget(flow.ctx, postId);
const settled = (postId: string) => waitFor(async () => {
  const t = await targetOf(postId);
  return t.status === 'published' || t.status === 'failed' ? t : null;
}, { timeoutMs: 60_000 });

async function attemptsOf(postId: string) {
  const { rows } = await flow.ctx.db.query<{ phase: string; outcome: string | null }>(
    'SELECT a.phase, a.outcome FROM publish_attempts a JOIN post_targets t ON t.id = a.target_id WHERE t.post_id = $1 ORDER BY a.id', [postId]);
  return rows;
}

describe('kill -9 of a worker mid-publish (Mastodon)', () => {
  it('after the instance created the status: the next worker finds it among the account\'s statuses and records it, no second status', async () => {
    mode = 'answer-held';
    const held = flow.proxy.delayed;
    const planned = await flow.schedule([`mastodon crash after commit ${Date.now()}`], soon());
    const [postId] = [...planned.keys()];
    const first = startWorker();
    await waitFor(async () => flow.proxy.delayed > held || null, { timeoutMs: 30_000 });
    expect((await targetOf(postId)).status).toBe('publishing');
    await kill9(first);

    mode = 'pass';
    const second = startWorker();
    const done = await settled(postId);
    expect(done.status, done.error_message ?? '').toBe('published');
    expect(await flow.count(planned)).toEqual({ duplicates: 0, lost: 0, statusWrong: 0, wrong: [] });
    // The dead worker's commit has no outcome; the next one's exact verify found the status.
    expect(await attemptsOf(postId)).toEqual([{ phase: 'commit', outcome: null }, { phase: 'verify', outcome: 'published' }]);
    await kill9(second);
  }, 120_000);

  it('before the request reached the instance: the next worker publishes it exactly once', async () => {
    mode = 'request-held';
    const held = flow.proxy.held;
    const planned = await flow.schedule([`mastodon crash before commit ${Date.now()}`], soon());
    const [postId] = [...planned.keys()];
    const first = startWorker();
    await waitFor(async () => flow.proxy.held > held || null, { timeoutMs: 30_000 });
    expect((await flow.count(planned)).lost).toBe(1); // nothing on the instance yet
    await kill9(first);

    mode = 'pass';
    const second = startWorker();
    const done = await settled(postId);
    expect(done.status, done.error_message ?? '').toBe('published');
    expect(await flow.count(planned)).toEqual({ duplicates: 0, lost: 0, statusWrong: 0, wrong: [] });
    await kill9(second);
  }, 120_000);

  it('a burst of 20 posts, the worker killed with 5 statuses made and unanswered and 15 not arrived: each exactly once', async () => {
    mode = 'slow';
    const texts = Array.from({ length: 20 }, (_, i) => `mastodon burst ${i} ${Date.now()}`);
    const planned = await flow.schedule(texts, soon());
    const answered = flow.proxy.delayed;
    const lostOnTheWay = flow.proxy.held;
    const first = startWorker();
    // Five statuses made with their answers held, the other fifteen held before the instance: kill the worker.
    await waitFor(async () => (flow.proxy.delayed - answered === BURST_MADE && flow.proxy.held - lostOnTheWay === texts.length - BURST_MADE) || null, { timeoutMs: 30_000 });
    await kill9(first);
    const before = await flow.count(planned);
    expect(before.lost).toBe(texts.length - BURST_MADE);
    expect(before.duplicates).toBe(0);

    mode = 'pass';
    const second = startWorker();
    await waitFor(async () => {
      const s = await flow.statuses();
      return (s.pending ?? 0) + (s.publishing ?? 0) === 0 || null;
    }, { timeoutMs: 90_000 });
    const counted = await flow.count(planned);
    expect(counted, counted.wrong.join('\n')).toEqual({ duplicates: 0, lost: 0, statusWrong: 0, wrong: [] });
    await kill9(second);
  }, 180_000);
});
