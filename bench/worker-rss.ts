/**
 * (n) Worker memory (`--worker-rss`): one worker process (bench/ceiling-worker.ts, `startWorker`
 * with the bench adapter keeping no record per commit, so its memory is Herald's alone) publishes
 * `n` targets due at once (created before it starts, by Herald's insert statement), with a short
 * commit time and concurrency 50. Its VmRSS is sampled every second (sampleRss in bench/child.ts,
 * as (i) --rss samples the API): growth = the RSS after 15 s idle minus the RSS at 10% of the run.
 */
import type { Db } from '../src/storage/db.ts';
import { createDueTargets, type BenchTenant } from './burst.ts';
import { sampleRss, spawnWorker } from './child.ts';
import { line } from './load.ts';

export async function runWorkerRss(o: { db: Db; tenant: BenchTenant; env: Record<string, string>; n: number; commitMs: number; concurrency: number }): Promise<number> {
  const { db, n } = o;
  console.log(`\n(n) worker memory: ${n.toLocaleString('en-US')} publishes by one worker process (concurrency ${o.concurrency}, commit ${o.commitMs} ms); RSS sampled every second`);
  const { ids, seconds } = await createDueTargets(db, o.tenant, n, new Date(), 'rss ');
  line('created in', `${seconds.toFixed(1)} s (all due at once, before the worker starts)`);
  const child = await spawnWorker(o.env, { commitMs: o.commitMs, concurrency: o.concurrency, record: false });
  try {
    return await sampleRss(child.pid, async () => {
      await child.start();
      const deadline = Date.now() + 600_000;
      while (Date.now() < deadline && child.committed < n) await new Promise((r) => setTimeout(r, 200));
      let counts = { published: 0, failed: 0 };
      while (Date.now() < deadline) {
        counts = (await db.query<{ published: number; failed: number }>(
          `SELECT count(*) FILTER (WHERE status = 'published')::int AS published, count(*) FILTER (WHERE status = 'failed')::int AS failed
             FROM post_targets WHERE post_id = ANY($1::char(24)[])`, [ids])).rows[0];
        if (counts.published + counts.failed >= n) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      return (secs) => [['publishes', `${counts.published} published, ${counts.failed} failed, ${child.committed} commits in ${secs.toFixed(1)} s (${Math.round(counts.published / secs)}/s)`]];
    });
  } finally {
    await child.stop();
  }
}
