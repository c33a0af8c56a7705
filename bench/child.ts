/**
 * Herald in child processes of the bench: the Node flags Herald ships with, a worker process
 * (bench/ceiling-worker.ts) driven over IPC, and the RSS sampling of a child under load that
 * (i) --rss and (n) --worker-rss share.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { REPO_ROOT } from './anchor.ts';
import { line, statCpuMs } from './load.ts';

/** The Node flags Herald's launcher runs with: the `bin/herald.js` shebang after `env -S node` (decision 0041). */
export const HERALD_NODE_FLAGS = fs.readFileSync(path.join(REPO_ROOT, 'bin/herald.js'), 'utf8').split('\n')[0].replace(/^#!\S*env -S node/, '').trim().split(/\s+/).filter(Boolean);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** VmRSS of a process in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** A worker process (bench/ceiling-worker.ts), loaded and waiting for `start()`. */
export interface WorkerChild {
  readonly pid: number;
  /** Its database pool size (HERALD_DB_POOL_SIZE, default 10). */
  readonly pool: number;
  /** Commits that returned so far, as last reported (every 200 ms). */
  readonly committed: number;
  /** [content, commit start (ms epoch)] of each commit reported so far (empty with record: false). */
  readonly commits: Array<[string, number]>;
  /** Starts the worker; resolves once it runs. */
  start(): Promise<void>;
  /** CPU time (user + system, ms) of the whole process so far. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/**
 * Spawns bench/ceiling-worker.ts with Herald's Node flags on the bench's database (`env`:
 * DATABASE_URL, HERALD_DATA_DIR, HERALD_SECRET_KEY; HERALD_DB_POOL_SIZE passes through from the
 * bench's environment) and waits until its services are built.
 */
export async function spawnWorker(env: Record<string, string>, o: { commitMs: number; concurrency: number; record: boolean }): Promise<WorkerChild> {
  const child = spawn(process.execPath, [...HERALD_NODE_FLAGS, '--import', 'tsx', path.join(REPO_ROOT, 'bench/ceiling-worker.ts')], {
    cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...process.env, ...env, BENCH_COMMIT_MS: String(o.commitMs), BENCH_CONCURRENCY: String(o.concurrency), BENCH_RECORD: o.record ? '1' : '0' },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-4_000); });
  const state = { committed: 0, commits: [] as Array<[string, number]>, pool: 0 };
  const waiters = new Map<string, () => void>();
  child.on('message', (m: { type: string; pool?: number; committed?: number; commits?: Array<[string, number]> }) => {
    if (m.type === 'progress') {
      state.committed = m.committed!;
      for (const c of m.commits!) state.commits.push(c);
      return;
    }
    if (m.type === 'loaded') state.pool = m.pool!;
    waiters.get(m.type)?.();
  });
  const waitFor = (type: string, ms: number) => new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`worker process: no '${type}' within ${ms} ms: ${stderr}`)), ms);
    const onExit = () => { clearTimeout(t); reject(new Error(`worker process exited (${child.exitCode}): ${stderr}`)); };
    child.once('exit', onExit);
    waiters.set(type, () => { clearTimeout(t); child.off('exit', onExit); waiters.delete(type); resolve(); });
  });
  await waitFor('loaded', 60_000);
  const pid = child.pid!;
  return {
    pid,
    get pool() { return state.pool; },
    get committed() { return state.committed; },
    get commits() { return state.commits; },
    async start() {
      const ready = waitFor('ready', 30_000);
      child.send({ type: 'start' });
      await ready;
    },
    cpuMs: () => statCpuMs(`/proc/${pid}/stat`),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.send({ type: 'stop' });
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/**
 * Samples the VmRSS of process `pid` every second while `load` runs, then for 15 s of idle time, and
 * prints: the lines `load`'s report gives for the run's length in seconds, the RSS at the start, at
 * 10% of the run, its peak after that and at the end, at each tenth of the run, every 3 s of the
 * idle time, and the peak over the RSS at 10%. Answers the growth: the RSS after the idle time minus
 * the RSS at 10% of the run (start-up and first allocations excluded), in MiB. Under load the RSS is
 * a sawtooth (V8 collects the old generation lazily), so its peaks are garbage, not growth.
 */
export async function sampleRss(pid: number, load: () => Promise<(secs: number) => Array<[string, string]>>): Promise<number> {
  const samples: Array<{ at: number; rss: number }> = [];
  const start = performance.now();
  const sampler = setInterval(() => { samples.push({ at: performance.now() - start, rss: rssMiB(pid) }); }, 1_000);
  samples.push({ at: 0, rss: rssMiB(pid) });
  let report: (secs: number) => Array<[string, string]>;
  try {
    report = await load();
  } finally {
    clearInterval(sampler);
  }
  const secs = (performance.now() - start) / 1000;
  samples.push({ at: secs * 1000, rss: rssMiB(pid) });
  const warm = samples.find((x) => x.at >= secs * 100) ?? samples[0];
  const after = samples.filter((x) => x.at >= warm.at);
  const peak = Math.max(...after.map((x) => x.rss));
  for (const [label, value] of report(secs)) line(label, value);
  line('RSS', `${samples[0].rss.toFixed(0)} MiB at start, ${warm.rss.toFixed(0)} MiB at 10% of the run, peak ${peak.toFixed(0)} MiB after it, ${samples.at(-1)!.rss.toFixed(0)} MiB at the end`);
  const deciles = Array.from({ length: 10 }, (_, i) => samples.find((x) => x.at >= (secs * 1000 * (i + 1)) / 10) ?? samples.at(-1)!);
  line('RSS at each tenth of the run', deciles.map((x) => x.rss.toFixed(0)).join(' / ') + ' MiB');
  // Garbage still held when the load stops is not a leak: V8 gives memory back once idle.
  const idle: number[] = [];
  for (let i = 0; i < 15; i++) { await sleep(1_000); idle.push(rssMiB(pid)); }
  line('RSS idle after the run', `${idle.filter((_, i) => i % 3 === 2).map((x) => x.toFixed(0)).join(' / ')} MiB (every 3 s for 15 s)`);
  line('peak under load', `+${(peak - warm.rss).toFixed(0)} MiB over the RSS at 10% (garbage between major collections: see the tenths)`);
  return idle.at(-1)! - warm.rss;
}
