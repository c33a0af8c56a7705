/**
 * Opening Herald's storage for a process (server roles and CLI alike): the data
 * directory, its generated secrets, the database (embedded PostgreSQL or DATABASE_URL)
 * and the migrations.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Config } from './config.ts';
import { createDb, type Db } from './storage/db.ts';
import { startEmbeddedPostgres, type EmbeddedPgHandle } from './storage/embedded-pg.ts';
import { migrate } from './storage/migrate.ts';

export interface Runtime {
  db: Db;
  databaseUrl: string;
  secretKeyHex: string;
  embedded: EmbeddedPgHandle | null;
  close(): Promise<void>;
}

interface SecretsFile {
  secretKey: string;
  pgPassword: string;
}

/**
 * Reads `<dataDir>/secrets.json`, creating it (mode 0600) with fresh random values on first run.
 * Processes starting at once on a new data directory (a worker and an API) agree on one file: it
 * is written whole under a temporary name and linked into place, which fails for all but the
 * first (EEXIST), so no process ever reads a half-written file or overwrites another's secrets.
 */
export function loadDataDirSecrets(dataDir: string): SecretsFile {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'secrets.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as SecretsFile;
  const secrets: SecretsFile = { secretKey: randomBytes(32).toString('hex'), pgPassword: randomBytes(18).toString('base64url') };
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(tmp, file);
    return secrets;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return JSON.parse(fs.readFileSync(file, 'utf8')) as SecretsFile;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } catch (err) {
    if ((err as { code?: string }).code !== '42P04') throw err; // created concurrently
  } finally {
    await client.end();
  }
}

/**
 * Opens the database for a process. `borrow` (CLI) reuses a running embedded server
 * without taking ownership, so the CLI never stops the server's database.
 */
export async function openRuntime(config: Config, opts: { applicationName: string; borrow?: boolean; poolSize?: number; log?: (m: string) => void }): Promise<Runtime> {
  const secrets = loadDataDirSecrets(config.dataDir);
  const secretKeyHex = config.secretKeyHex ?? secrets.secretKey;
  let embedded: EmbeddedPgHandle | null = null;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({
      dir: path.join(config.dataDir, 'pg'), port: config.embeddedPgPort, user: 'herald', password: secrets.pgPassword,
      borrow: opts.borrow, onLog: opts.log,
    });
    await ensureDatabase(embedded.url('postgres'), 'herald');
    // Its Unix-domain socket where it has one (docs/decisions/0075-embedded-postgres-unix-socket.md).
    databaseUrl = embedded.localUrl('herald');
  }
  const db = createDb(databaseUrl, {
    max: opts.poolSize ?? config.dbPoolSize, applicationName: opts.applicationName, timeouts: config.db,
    // Behind a pooler in transaction mode (docs/decisions/0068-connection-pooler.md).
    pooler: config.dbPooler, directUrl: config.databaseDirectUrl,
  });
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    if (embedded) await embedded.stop();
    throw err;
  }
  return {
    db, databaseUrl, secretKeyHex, embedded,
    async close() {
      await db.close().catch(() => {});
      if (embedded?.owned) await embedded.stop();
    },
  };
}
