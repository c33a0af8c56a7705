/**
 * Load generation for the benchmark: autocannon runs (in a worker thread, so the load
 * generator does not share the in-process server's event loop) and alternating rounds
 * over several targets (Herald and the anchor), so that a noisy, shared machine slows both
 * sides of a ratio alike.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';

// ---- autocannon (CommonJS, no bundled types) ----------------------------------------
export interface Histogram { average: number; mean: number; stddev: number; min: number; max: number; p50: number; p90: number; p97_5: number; p99: number }
export interface AutocannonResult {
  latency: Histogram;
  requests: Histogram & { total: number; sent: number };
  start: Date;
  finish: Date;
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export const loadavg = () => os.loadavg().map((l) => l.toFixed(2)).join(' / ');
export const ms = (v: number) => `${v.toFixed(v < 10 ? 1 : 0)} ms`;
export const line = (label: string, value: string) => console.log(`  ${label.padEnd(34)} ${value}`);

/** The p-th percentile of an ascending array (nearest rank); NaN when empty. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/** Runs `fn(i)` for i in [0, n) with at most `concurrency` in flight. */
export async function pool(n: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, concurrency) }, async () => {
    while (next < n) await fn(next++);
  }));
}

export function median(xs: number[]): number {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** One HTTP endpoint under load. `cpu` measures the server while a run lasts. */
export interface LoadTarget {
  label: string;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Starts a measurement of the server; the returned function ends it (see cpuMeasure). */
  measure?: () => () => Measured;
}

export interface RunFigures {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  codes: string;
  note: string;
  /** CPU per 2xx answer (ms): the loaded server's (Herald's main thread or the anchor process) and PostgreSQL's. */
  serverCpuPerReq: number;
  pgCpuPerReq: number;
  load1: number;
}

export interface LoadSettings { connections: number; seconds: number; warmupSeconds: number }

export async function runOnce(t: LoadTarget, settings: { connections: number; seconds: number }): Promise<RunFigures> {
  const stop = t.measure?.();
  const r = await autocannon({
    url: t.url, method: t.method, headers: t.headers, body: t.body, connections: settings.connections,
    duration: settings.seconds, workers: 1, timeout: 30,
    // `[<id>]` in a body becomes a new id per request: every post differs, as Herald's duplicate
    // protection expects of real traffic (the same content to one account twice in 24 hours is refused).
    idReplacement: t.body?.includes('[<id>]') ?? false,
  });
  const m = stop?.() ?? { note: '', serverCpuMs: NaN, pgCpuMs: NaN };
  const secs = (r.finish.getTime() - r.start.getTime()) / 1000;
  return {
    rps: r['2xx'] / secs, p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, ok: r['2xx'], non2xx: r.non2xx,
    errors: r.errors, timeouts: r.timeouts, note: m.note, load1: os.loadavg()[0],
    serverCpuPerReq: m.serverCpuMs / r['2xx'], pgCpuPerReq: m.pgCpuMs / r['2xx'],
    codes: Object.entries(r.statusCodeStats).map(([k, v]) => `${k}x${v.count}`).join(' '),
  };
}

export const fmtRun = (f: RunFigures) =>
  `${f.rps.toFixed(0).padStart(5)} req/s  p50 ${ms(f.p50).padStart(7)}  p99 ${ms(f.p99).padStart(7)}  max ${ms(f.max).padStart(7)}` +
  `${f.note ? `  ${f.note}` : ''}${Number.isFinite(f.serverCpuPerReq) ? `; cpu/req server ${f.serverCpuPerReq.toFixed(2)} ms pg ${f.pgCpuPerReq.toFixed(2)} ms` : ''}  [${f.codes || 'no answers'}${f.errors ? `, ${f.errors} errors` : ''}${f.timeouts ? `, ${f.timeouts} timeouts` : ''}; load ${f.load1.toFixed(2)}]`;

/**
 * Warms every target up, then runs `rounds` rounds in which each target gets one run, in the
 * given order. Prints each run as it ends; answers every target's runs and warm-ups. `settle`, when
 * given, runs after each run and warm-up (e.g. waits until requests the run left in flight are done).
 */
export async function alternate(targets: LoadTarget[], rounds: number, settings: LoadSettings, settle?: () => Promise<void>): Promise<{ runs: RunFigures[][]; warmups: RunFigures[] }> {
  const warmups: RunFigures[] = [];
  for (const t of targets) {
    const w = await runOnce({ ...t, measure: undefined }, { connections: settings.connections, seconds: settings.warmupSeconds });
    warmups.push(w);
    line(`warm-up ${t.label}`, `${w.ok} x 2xx in ${settings.warmupSeconds} s (not counted)${w.non2xx || w.errors ? ` - ${w.non2xx} non-2xx, ${w.errors} errors: ${w.codes}` : ''}`);
    await settle?.();
  }
  const out: RunFigures[][] = targets.map(() => []);
  for (let round = 1; round <= rounds; round++) {
    for (const [i, t] of targets.entries()) {
      const f = await runOnce(t, settings);
      out[i].push(f);
      line(`round ${round} ${t.label}`, fmtRun(f));
      await settle?.();
    }
  }
  return { runs: out, warmups };
}

export function medians(runs: RunFigures[]) {
  return {
    rps: median(runs.map((r) => r.rps)), p50: median(runs.map((r) => r.p50)), p99: median(runs.map((r) => r.p99)),
    serverCpuPerReq: median(runs.map((r) => r.serverCpuPerReq)), pgCpuPerReq: median(runs.map((r) => r.pgCpuPerReq)),
  };
}

export const fmtMedian = (m: ReturnType<typeof medians>) =>
  `${m.rps.toFixed(0).padStart(5)} req/s  p50 ${ms(m.p50).padStart(7)}  p99 ${ms(m.p99).padStart(7)}` +
  `${Number.isFinite(m.serverCpuPerReq) ? `  cpu/req server ${m.serverCpuPerReq.toFixed(2)} ms, pg ${m.pgCpuPerReq.toFixed(2)} ms` : ''}`;

/** Herald / anchor per round (adjacent runs, so noise hits both alike), and the median of those. */
export function ratios(herald: RunFigures[], anchor: RunFigures[]) {
  const rps = herald.map((h, i) => h.rps / anchor[i].rps);
  const p99 = herald.map((h, i) => h.p99 / anchor[i].p99);
  const cpu = herald.map((h, i) => h.serverCpuPerReq / anchor[i].serverCpuPerReq);
  const pg = herald.map((h, i) => h.pgCpuPerReq / anchor[i].pgCpuPerReq);
  return { rps, p99, rpsMedian: median(rps), p99Median: median(p99), cpuMedian: median(cpu), pgMedian: median(pg) };
}

// ---- where the two cores go (Linux /proc; NaN elsewhere) ------------------------------
const CLK_MS = 10; // USER_HZ = 100

/** utime + stime in ms from a /proc/.../stat file, or NaN. */
export function statCpuMs(file: string): number {
  try {
    const stat = fs.readFileSync(file, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * CLK_MS;
  } catch {
    return NaN;
  }
}

/** CPU (ms) of the postmaster `pid` and of each of its children (the backends, autovacuum, ...), by pid. */
export function pgTreeCpu(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  const own = statCpuMs(`/proc/${pid}/stat`);
  if (!Number.isFinite(own)) return out;
  out.set(pid, own);
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d) || Number(d) === pid) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[1]) === pid) out.set(Number(d), (Number(f[11]) + Number(f[12])) * CLK_MS);
    } catch { /* gone */ }
  }
  return out;
}

/** CPU used between two snapshots; a child that exited in between is not counted (slightly low). */
export function pgDelta(a: Map<number, number>, b: Map<number, number>): number {
  if (b.size === 0) return NaN;
  let sum = 0;
  for (const [pid, ms] of b) sum += ms - (a.get(pid) ?? 0);
  return sum;
}

export interface CpuSources {
  /** The anchor's process CPU (ms), when it runs. */
  anchorCpuMs?: () => number;
  /** The embedded PostgreSQL's postmaster pid. */
  pgPid?: number;
}

/** What a run's measurement answers: a note to print and the loaded server's and PostgreSQL's CPU (ms). */
export interface Measured { note: string; serverCpuMs: number; pgCpuMs: number }

/**
 * A measurement for every run, whichever server is loaded: the event-loop utilisation of this
 * process's main thread (Herald's server) and the CPU, as a share of one core, of Herald's main
 * thread, the anchor process, PostgreSQL (postmaster and its children) and this process's other
 * threads (the autocannon worker, mostly). Event-loop "busy" counts time the thread was ready
 * but waiting for a core; CPU counts only time on a core. `server` names the loaded one.
 */
export function cpuMeasure(src: CpuSources, server: 'herald' | 'anchor'): () => () => Measured {
  const main = () => statCpuMs(`/proc/${process.pid}/task/${process.pid}/stat`);
  const proc = () => statCpuMs(`/proc/${process.pid}/stat`);
  const pgc = () => (src.pgPid ? pgTreeCpu(src.pgPid) : new Map<number, number>());
  const anc = () => (src.anchorCpuMs ? src.anchorCpuMs() : NaN);
  return () => {
    const elu = performance.eventLoopUtilization();
    const t0 = performance.now();
    const c0 = { main: main(), proc: proc(), pg: pgc(), anchor: anc() };
    return () => {
      const dt = performance.now() - t0;
      const c1 = { main: main(), proc: proc(), pg: pgc(), anchor: anc() };
      const d = { main: c1.main - c0.main, anchor: c1.anchor - c0.anchor, pg: pgDelta(c0.pg, c1.pg), loadgen: (c1.proc - c0.proc) - (c1.main - c0.main) };
      const pct = (v: number) => (Number.isFinite(v) ? `${((v / dt) * 100).toFixed(0)}%` : 'n/a');
      const loop = server === 'herald' ? `loop ${(performance.eventLoopUtilization(elu).utilization * 100).toFixed(0)}%, ` : '';
      return {
        note: `${loop}cpu herald ${pct(d.main)} anchor ${pct(d.anchor)} pg ${pct(d.pg)} loadgen ${pct(d.loadgen)}`,
        serverCpuMs: server === 'herald' ? d.main : d.anchor, pgCpuMs: d.pg,
      };
    };
  };
}
