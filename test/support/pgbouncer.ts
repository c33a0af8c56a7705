/**
 * A real PgBouncer in transaction mode in front of the tests' PostgreSQL (Debian's package
 * `pgbouncer`, installed by .ci/run), started and stopped like the embedded PostgreSQL: its own ini
 * and userlist in a temporary directory, a free port on 127.0.0.1, every database name forwarded to
 * the upstream server (`* =`), SCRAM for clients and for the server with the upstream's user and
 * password. The Debian package's own system service is not used (nor needed): this process is ours.
 * docs/decisions/0068-connection-pooler.md.
 *
 * No app or database imports beyond `pg`: the bench's pooler (bench/pooler.ts) uses it too.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './net.ts';

/** Where Debian's package installs the binary (/usr/sbin is not on every user's PATH). */
const CANDIDATES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'];

/** The pgbouncer binary, or null when it is not installed. */
export function pgbouncerBinary(): string | null {
  for (const c of CANDIDATES) if (fs.existsSync(c)) return c;
  try {
    const found = execFileSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' }).trim();
    return found || null;
  } catch {
    return null;
  }
}

/**
 * Whether PgBouncer is installed. `.ci/run` installs it; when it is missing outside CI the suite is
 * skipped with a message saying how to install it. In CI a missing PgBouncer fails.
 */
export function pgbouncerAvailable(suite: string): boolean {
  if (pgbouncerBinary()) return true;
  const msg = `${suite}: SKIPPED, PgBouncer is not installed (install it with: apt-get install -y pgbouncer)`;
  if (process.env.CI) throw new Error(`${msg}; .ci/run must install it`);
  console.warn(msg);
  return false;
}

/** The version line of `pgbouncer --version` (e.g. `PgBouncer 1.18.0`). */
export function pgbouncerVersion(): string {
  const bin = pgbouncerBinary();
  if (!bin) return 'not installed';
  return execFileSync(bin, ['--version'], { encoding: 'utf8' }).split('\n')[0].trim();
}

export interface PgBouncer {
  /** The URL of `database` through the pooler (same user and password as the upstream). */
  url(database: string): string;
  readonly port: number;
  readonly pid: number;
  /** CPU time (user + system, ms) the pgbouncer process has used so far, from /proc; NaN elsewhere. */
  cpuMs(): number;
  /** Immediate shutdown (SIGTERM), then SIGKILL after 3 s; removes the temporary directory. */
  stop(): Promise<void>;
  /** SIGTERM and removes the temporary directory, without waiting (a process's 'exit' handler). */
  stopNow(): void;
}

export interface PgBouncerOptions {
  /** A URL of the upstream PostgreSQL (any database): its host, port, user and password are used. */
  upstream: string;
  /** Server connections per database and user (PgBouncer's default_pool_size); 10 by default. */
  poolSize?: number;
  /** Client connections PgBouncer accepts in all (max_client_conn); 400 by default. */
  maxClientConn?: number;
  /** `pool_mode`; transaction by default (what managed poolers run). */
  poolMode?: 'transaction' | 'session' | 'statement';
  /** Called with PgBouncer's log lines (stderr); dropped by default. */
  onLog?: (line: string) => void;
}

/** Starts PgBouncer and waits until a query passes through it. @throws Error when it is not installed or does not start in 15 s. */
export async function startPgBouncer(opts: PgBouncerOptions): Promise<PgBouncer> {
  const bin = pgbouncerBinary();
  if (!bin) throw new Error('pgbouncer is not installed (apt-get install -y pgbouncer)');
  const up = new URL(opts.upstream);
  const user = decodeURIComponent(up.username);
  const password = decodeURIComponent(up.password);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-pgbouncer-'));
  fs.chmodSync(dir, 0o755);
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  // A plain password in the userlist lets PgBouncer answer SCRAM to the client and log in to the server with SCRAM.
  fs.writeFileSync(path.join(dir, 'userlist.txt'), `${q(user)} ${q(password)}\n`, { mode: 0o644 });
  const ini = path.join(dir, 'pgbouncer.ini');
  fs.writeFileSync(ini, [
    '[databases]',
    `* = host=${up.hostname} port=${up.port || 5432}`,
    '',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    // No Unix socket, pid file or log file: nothing outside this directory, and the log goes to stderr.
    'unix_socket_dir =',
    'pidfile =',
    'logfile =',
    'auth_type = scram-sha-256',
    `auth_file = ${path.join(dir, 'userlist.txt')}`,
    `pool_mode = ${opts.poolMode ?? 'transaction'}`,
    `default_pool_size = ${opts.poolSize ?? 10}`,
    `max_client_conn = ${opts.maxClientConn ?? 400}`,
    // Strict on purpose: any start-up parameter Herald sent beyond what PgBouncer tracks
    // (statement_timeout, options, ...) would be refused ("unsupported startup parameter").
    'ignore_startup_parameters =',
    'log_connections = 0',
    'log_disconnections = 0',
    'log_pooler_errors = 1',
    '',
  ].join('\n'), { mode: 0o644 });
  // PgBouncer refuses to run as root: it switches to the `postgres` user (which the embedded PostgreSQL created).
  const args = process.getuid?.() === 0 ? ['-u', 'postgres', ini] : [ini];
  const child: ChildProcess = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    const s = d.toString();
    stderr = (stderr + s).slice(-4000);
    if (opts.onLog) for (const line of s.split('\n')) if (line) opts.onLog(line);
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = (database: string) => {
    const u = new URL(opts.upstream);
    u.hostname = '127.0.0.1';
    u.port = String(port);
    u.pathname = `/${database}`;
    return u.toString();
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(t);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`pgbouncer exited with ${child.exitCode}: ${stderr}`);
    }
    const client = new pg.Client({ connectionString: url('postgres'), connectionTimeoutMillis: 2_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      break;
    } catch (err) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`pgbouncer did not accept a query within 15 s (${(err as Error).message}): ${stderr}`, { cause: err });
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const pid = child.pid!;
  return {
    url, port, pid,
    stopNow() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
    cpuMs() {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime; USER_HZ 100
      } catch {
        return NaN;
      }
    },
    stop,
  };
}
