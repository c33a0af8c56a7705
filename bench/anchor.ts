/**
 * Starts the performance anchor (`../shared/perf-anchor/anchor.mjs`, outside the repo) as a
 * child process beside Herald, as its README says: from the project root (it loads fastify
 * and pg from this project), with DATABASE_URL and PORT=0; it answers one JSON line
 * `{"ready": true, "url", "token"}` on stdout. The anchor is never copied into the repo:
 * when the folder is missing, `startAnchor` returns null and the bench skips the ratios.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** `HERALD_BENCH_ANCHOR` overrides the path (e.g. to check the bench without an anchor). */
export const ANCHOR_PATH = path.resolve(REPO_ROOT, process.env.HERALD_BENCH_ANCHOR || '../shared/perf-anchor/anchor.mjs');

export interface Anchor {
  url: string;
  token: string;
  pid: number;
  /** CPU time (user + system, ms) the anchor process has used so far, from /proc; NaN elsewhere. */
  cpuMs(): number;
  stop(): Promise<void>;
}

export function anchorAvailable(): boolean {
  return fs.existsSync(ANCHOR_PATH);
}

export async function startAnchor(databaseUrl: string, timeoutMs = 20_000): Promise<Anchor | null> {
  if (!anchorAvailable()) return null;
  const child: ChildProcess = spawn(process.execPath, [ANCHOR_PATH], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  const ready = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`anchor did not start within ${timeoutMs} ms: ${stderr}`)), timeoutMs);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      try {
        const msg = JSON.parse(out.slice(0, nl)) as { ready?: boolean; url?: string; token?: string };
        if (msg.ready && msg.url && msg.token) resolve({ url: msg.url, token: msg.token });
        else reject(new Error(`anchor answered ${out.slice(0, nl)}`));
      } catch (err) {
        reject(err);
      }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`anchor exited (${code}): ${stderr}`)); });
  }).catch((err) => { child.kill('SIGKILL'); throw err; });
  const pid = child.pid!;
  const clk = 100; // USER_HZ on Linux
  return {
    ...ready,
    pid,
    cpuMs() {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return ((Number(fields[11]) + Number(fields[12])) * 1000) / clk; // utime, stime
      } catch {
        return NaN;
      }
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(t);
    },
  };
}
