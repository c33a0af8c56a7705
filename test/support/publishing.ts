/**
 * Driving the publisher by hand in tests: a registered worker identity, and "run this
 * post's pending targets now" without waiting for their backoff.
 */
import { createPublisher, type Publisher } from '../../src/publishing/publisher.ts';
import type { TestContext } from './app.ts';

/** A publisher with its own worker id, registered (heartbeat row) like a real worker. */
export async function startTestPublisher(ctx: TestContext, tag: string): Promise<Publisher> {
  const s = ctx.services;
  const worker = createPublisher({
    db: ctx.db, accounts: s.accountsRepository, adapters: s.adapters, mediaStorage: s.mediaStorage, config: ctx.config, clock: s.clock,
    workerId: `worker-${tag}-${process.pid}`,
  });
  await ctx.db.query('INSERT INTO workers (id, hostname, pid) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [worker.workerId, 'test', process.pid]);
  return worker;
}

/** Makes the post's pending targets due now and runs exactly those (other due targets are left alone). */
export async function runDue(ctx: TestContext, worker: Publisher, postId: string): Promise<number> {
  const { rows } = await ctx.db.query<{ id: string }>(
    `UPDATE post_targets SET run_at = now() WHERE post_id = $1 AND status = 'pending' RETURNING id`, [postId]);
  const claimed = await worker.claimByIds(rows.map((r) => r.id));
  await Promise.all(claimed.map((t) => worker.runTarget(t)));
  return claimed.length;
}
