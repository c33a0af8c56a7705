/**
 * The embedded PostgreSQL's Unix-domain socket (docs/decisions/0075-embedded-postgres-unix-socket.md):
 * a process on the machine (`openRuntime`, what `herald start` runs) reaches it there, the socket is
 * its owner's alone, loopback TCP still answers, and a cluster directory too long for a socket
 * address falls back to TCP alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openRuntime } from '../../src/runtime.ts';
import { startEmbeddedPostgres } from '../../src/storage/embedded-pg.ts';
import { freePort } from '../support/net.ts';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-pg-socket-'));
  fs.chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user when the tests run as root
});
afterAll(() => { fs.rmSync(dir, { recursive: true, force: true }); });

/** The server's address as the session sees it: null over a Unix-domain socket. */
async function serverAddress(url: string): Promise<string | null> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<{ a: string | null }>('SELECT host(inet_server_addr()) AS a')).rows[0].a;
  } finally {
    await c.end();
  }
}

describe('embedded PostgreSQL over its Unix-domain socket', () => {
  it('the runtime connects through the socket in the cluster directory; TCP still answers', async () => {
    const port = await freePort();
    const config = loadConfig({ HERALD_DATA_DIR: path.join(dir, 'data'), HERALD_EMBEDDED_PG_PORT: String(port) });
    fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o755 });
    const runtime = await openRuntime(config, { applicationName: 'socket-test', poolSize: 2 });
    try {
      const pgDir = path.join(config.dataDir, 'pg');
      expect(runtime.databaseUrl).toBe(runtime.embedded!.localUrl('herald'));
      expect(new URL(runtime.databaseUrl).searchParams.get('host')).toBe(path.resolve(pgDir));
      const { rows: [session] } = await runtime.db.query<{ addr: string | null; db: string }>('SELECT host(inet_server_addr()) AS addr, current_database() AS db');
      expect(session).toEqual({ addr: null, db: 'herald' });
      // Only the cluster's owner may open the socket.
      expect(fs.statSync(path.join(pgDir, `.s.PGSQL.${port}`)).mode & 0o777).toBe(0o700);
      expect(await serverAddress(runtime.embedded!.url('herald'))).toBe('127.0.0.1');
      // The password is still asked for over the socket.
      const wrong = runtime.embedded!.localUrl('herald').replace(/^postgres:\/\/herald:[^@]+@/, 'postgres://herald:wrong@');
      await expect(serverAddress(wrong)).rejects.toMatchObject({ code: '28P01' }); // invalid_password
    } finally {
      await runtime.close();
    }
    expect(fs.existsSync(path.join(config.dataDir, 'pg', `.s.PGSQL.${port}`))).toBe(false);
  }, 90_000);

  it('a cluster directory too long for a socket address is reached over TCP alone', async () => {
    const long = path.join(dir, 'x'.repeat(60), 'y'.repeat(60), 'pg');
    fs.mkdirSync(path.dirname(long), { recursive: true });
    for (let d = path.dirname(long); d !== dir; d = path.dirname(d)) fs.chmodSync(d, 0o755);
    const port = await freePort();
    const handle = await startEmbeddedPostgres({ dir: long, port, user: 'herald', password: 'socket-test' });
    try {
      expect(handle.localUrl('postgres')).toBe(handle.url('postgres'));
      expect(await serverAddress(handle.localUrl('postgres'))).toBe('127.0.0.1');
      expect(fs.readdirSync(long).filter((f) => f.startsWith('.s.PGSQL'))).toEqual([]);
    } finally {
      await handle.stop();
    }
  }, 90_000);
});
