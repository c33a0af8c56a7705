/**
 * (m) The publishing throughput ceiling (`--ceiling`): the bench adapter with a 0 ms commit (the
 * platform answers at once), so what is left is Herald's own work per target and PostgreSQL's.
 * For each configuration, `n` targets due at once are created (bench/burst.ts createDueTargets:
 * Herald's insert statement) while no worker runs; then one or two worker processes
 * (bench/ceiling-worker.ts: `startWorker` with the bench adapter, each its own process, so two
 * workers do not share an event loop) are started together and drain them.
 * Per configuration: targets/s (n over the time from the start signal to the last published_at),
 * PostgreSQL CPU per target (postmaster and backends, /proc), Herald CPU per target (the worker
 * processes, all threads), and commits against distinct posts.
 */
import type { Db } from '../src/storage/db.ts';
import { createDueTargets, type BenchTenant } from './burst.ts';
import { spawnWorker } from './child.ts';
import { line, loadavg, ms, pgDelta, pgTreeCpu } from './load.ts';

export interface CeilingConfig { workers: number; concurrency: number }
export interface CeilingFigures extends CeilingConfig { targetsPerSecond: number; pgCpuPerTarget: number; heraldCpuPerTarget: number; exactlyOnce: boolean }

export async function runCeiling(o: {
  db: Db; tenant: BenchTenant; pgPid: number; env: Record<string, string>; n: number; configs: CeilingConfig[];
  /** With --pg-stats: PostgreSQL's statement statistics of each configuration's drain (reset before it, printed after). */
  pgStats?: { reset: () => Promise<void>; print: (what: string) => Promise<void> };
}): Promise<CeilingFigures[]> {
  const { db, n } = o;
  console.log(`\n(m) throughput ceiling: ${n.toLocaleString('en-US')} targets due at once per configuration, commit 0 ms, worker processes started together (bench/ceiling-worker.ts)`);
  const out: CeilingFigures[] = [];
  for (const [i, cfg] of o.configs.entries()) {
    const prefix = `ceil${i} `;
    const { ids, seconds } = await createDueTargets(db, o.tenant, n, new Date(), prefix);
    const children = await Promise.all(Array.from({ length: cfg.workers }, () => spawnWorker(o.env, { commitMs: 0, concurrency: cfg.concurrency, record: true })));
    try {
      await o.pgStats?.reset();
      const pg0 = pgTreeCpu(o.pgPid);
      const cpu0 = children.map((c) => c.cpuMs());
      const start = Date.now();
      await Promise.all(children.map((c) => c.start()));
      const deadline = start + 180_000;
      while (Date.now() < deadline && children.reduce((a, c) => a + c.committed, 0) < n) await new Promise((r) => setTimeout(r, 50));
      // The finishes of the last commits are written after them (grouped): wait for the rows.
      let counts = { published: 0, failed: 0, last: null as Date | null };
      while (Date.now() < deadline) {
        counts = (await db.query<{ published: number; failed: number; last: Date | null }>(
          `SELECT count(*) FILTER (WHERE status = 'published')::int AS published, count(*) FILTER (WHERE status = 'failed')::int AS failed,
                  max(published_at) AS last FROM post_targets WHERE post_id = ANY($1::char(24)[])`, [ids])).rows[0];
        if (counts.published + counts.failed >= n) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const pgMs = pgDelta(pg0, pgTreeCpu(o.pgPid));
      const heraldMs = children.reduce((a, c, k) => a + (c.cpuMs() - cpu0[k]), 0);
      const drainMs = counts.last ? counts.last.getTime() - start : NaN;
      const commits = children.flatMap((c) => c.commits).filter(([text]) => text.startsWith(prefix));
      const distinct = new Set(commits.map(([text]) => text)).size;
      const exactlyOnce = commits.length === n && distinct === n;
      const first = Math.min(...commits.map(([, at]) => at)) - start;
      const f: CeilingFigures = { ...cfg, targetsPerSecond: n / (drainMs / 1000), pgCpuPerTarget: pgMs / n, heraldCpuPerTarget: heraldMs / n, exactlyOnce };
      out.push(f);
      line(`${cfg.workers} worker${cfg.workers > 1 ? 's' : ' '} x concurrency ${cfg.concurrency}`,
        `${Math.round(f.targetsPerSecond).toString().padStart(5)} targets/s (drain ${ms(drainMs)}, first commit + ${ms(first)}); CPU per target: pg ${f.pgCpuPerTarget.toFixed(3)} ms, Herald ${f.heraldCpuPerTarget.toFixed(3)} ms` +
        `  [${counts.published} published, ${counts.failed} failed; commits ${commits.length}, distinct ${distinct}${exactlyOnce ? '' : ' - MISMATCH'}; pool ${children[0].pool} per process; created in ${seconds.toFixed(1)} s; load ${loadavg().split(' / ')[0]}]`);
      await o.pgStats?.print(`ceiling, ${cfg.workers} x ${cfg.concurrency}`);
    } finally {
      await Promise.all(children.map((c) => c.stop()));
    }
  }
  return out;
}
