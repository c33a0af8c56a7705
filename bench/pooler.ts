/**
 * `--pgbouncer`: the bench's Herald and the anchor both reach PostgreSQL through a real PgBouncer in
 * transaction mode (test/support/pgbouncer.ts; Debian's package `pgbouncer`), so that their ratio stays
 * fair and the cost of the pooler shows against a run without the flag (bench/README.md, "session 10:
 * through PgBouncer"; docs/decisions/0068-connection-pooler.md). PgBouncer gets 10 server connections
 * per database, the pool size of Herald (decision 0042) and of the anchor, so the database sees as many
 * connections as without it. Without the flag everything goes to PostgreSQL directly.
 *
 * bench/run.ts only asks this file for the URLs and settings of the databases it measures; the
 * pooler is stopped when the bench's process exits (whatever way it ends).
 */
import type { EmbeddedPgHandle } from '../src/storage/embedded-pg.ts';
import type { DbPooling } from '../src/storage/db.ts';
import { pgbouncerBinary, pgbouncerVersion, startPgBouncer } from '../test/support/pgbouncer.ts';

export const PGBOUNCER = process.argv.slice(2).includes('--pgbouncer');
/**
 * `--unnamed-statements` (without --pgbouncer): PostgreSQL directly, but Herald's statements sent
 * unnamed as behind a pooler (HERALD_DB_POOLER=transaction), to split the pooler's cost into its hop
 * and the prepared statements it costs.
 */
export const UNNAMED = process.argv.slice(2).includes('--unnamed-statements');
/** `--tcp`: Herald and the anchor reach the embedded PostgreSQL over loopback TCP instead of its Unix-domain socket (as before 2026-11-29). */
const TCP = process.argv.slice(2).includes('--tcp');

/** Where the measured processes reach their databases. */
export interface BenchDatabases {
  /** The URL of database `name` (through PgBouncer with --pgbouncer). */
  url(name: string): string;
  /** Herald's environment for it (HERALD_DB_POOLER). */
  env: Record<string, string>;
  /** createDb's options for it. */
  pooling: DbPooling;
  /** One line for the bench's header. */
  describe: string;
}

/**
 * The URL of `name` on the embedded server itself: over its Unix-domain socket, the way `herald start`
 * reaches it (docs/decisions/0075-embedded-postgres-unix-socket.md), or loopback TCP with --tcp.
 */
export function directUrl(handle: EmbeddedPgHandle, name: string): string {
  return TCP ? handle.url(name) : handle.localUrl(name);
}

/** Starts PgBouncer in front of `handle` with --pgbouncer; otherwise the direct URLs. @throws Error with --pgbouncer when PgBouncer is not installed. */
export async function benchDatabases(handle: EmbeddedPgHandle): Promise<BenchDatabases> {
  const direct = (name: string) => directUrl(handle, name);
  const how = directUrl(handle, 'postgres') === handle.url('postgres') ? 'loopback TCP' : 'its Unix-domain socket';
  if (!PGBOUNCER && UNNAMED) {
    return {
      url: direct, env: { HERALD_DB_POOLER: 'transaction' }, pooling: { pooler: 'transaction' },
      describe: `direct over ${how}, but Herald as behind a pooler in transaction mode (--unnamed-statements: statements unnamed)`,
    };
  }
  if (!PGBOUNCER) return { url: direct, env: {}, pooling: {}, describe: `direct over ${how} (Herald and the anchor; --tcp for loopback TCP, --pgbouncer puts PgBouncer in front)` };
  if (!pgbouncerBinary()) throw new Error('--pgbouncer needs PgBouncer (apt-get install -y pgbouncer)');
  const bouncer = await startPgBouncer({ upstream: handle.url('postgres'), poolSize: 10 });
  const cpuAtStart = bouncer.cpuMs();
  process.once('exit', () => {
    // Synchronous here: a signal to the child, and its CPU time for the record.
    console.log(`  pgbouncer CPU over the whole bench  ${((bouncer.cpuMs() - cpuAtStart) / 1000).toFixed(1)} s`);
    bouncer.stopNow();
  });
  return {
    url: (name) => bouncer.url(name),
    env: { HERALD_DB_POOLER: 'transaction' },
    pooling: { pooler: 'transaction' },
    describe: `through ${pgbouncerVersion()}, pool_mode transaction, default_pool_size 10, 127.0.0.1:${bouncer.port} (Herald and the anchor)`,
  };
}
