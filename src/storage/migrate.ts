/**
 * Forward-only SQL migrations from `migrations/NNNN_name.sql`, applied in order at
 * start, each in its own transaction, under a transaction-scoped advisory lock so that several
 * Herald processes starting together apply each migration once. They run on a connection of their
 * own without the statement timeout (`Db.unbounded`): a migration may take long, and so may the wait
 * for another process's (docs/decisions/0044-database-failures.md).
 *
 * Nothing here needs the session to last beyond a transaction, so migrations also run through a
 * pooler in transaction mode (each transaction takes the lock again and checks again what is applied);
 * `Db.unbounded` takes the direct URL when there is one (docs/decisions/0068-connection-pooler.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import type { Db } from './db.ts';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');
const LOCK_ID = 7_263_591_004;

/** Applies pending migrations; returns the versions applied now. */
export async function migrate(db: Db, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const files = fs.readdirSync(dir).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).sort();
  return db.unbounded((client) => migrateOn(client, files, dir));
}

/**
 * Runs `fn` in a transaction holding the migrations' lock (released at its end), without a
 * statement timeout (a role's own statement_timeout, as set behind a pooler, included).
 */
async function locked<T>(client: pg.Client, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query('SELECT pg_advisory_xact_lock($1)', [LOCK_ID]);
    const out = await fn();
    await client.query('COMMIT');
    return out;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

/** Applies the pending ones of `files` on `client`, each in a transaction under the migrations' lock. */
async function migrateOn(client: pg.Client, files: string[], dir: string): Promise<string[]> {
  const appliedVersions = () => client.query<{ version: string }>('SELECT version FROM schema_migrations').then((r) => new Set(r.rows.map((x) => x.version)));
  // The common case (every migration applied) is this one transaction.
  const done = await locked(client, async () => {
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    return appliedVersions();
  });
  const applied: string[] = [];
  for (const file of files) {
    const version = file.replace(/\.sql$/, '');
    if (done.has(version)) continue;
    const sql = fs.readFileSync(path.join(dir, file), 'utf8');
    const now = await locked(client, async () => {
      // Another process may have applied it while this one waited for the lock.
      if ((await client.query('SELECT 1 FROM schema_migrations WHERE version = $1', [version])).rowCount) return false;
      try {
        await client.query(sql);
      } catch (err) {
        throw new Error(`migration ${file} failed: ${(err as Error).message}`, { cause: err });
      }
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
      return true;
    });
    if (now) applied.push(version);
  }
  return applied;
}
