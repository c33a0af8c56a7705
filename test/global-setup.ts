/**
 * One embedded PostgreSQL for the whole test run, in a temporary directory, with a
 * migrated template database. Each test file clones its own database from the
 * template (test/support/app.ts), so files never see each other's data.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../src/storage/embedded-pg.ts';
import { createDb } from '../src/storage/db.ts';
import { migrate } from '../src/storage/migrate.ts';
import { freePort } from './support/net.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-test-pg-'));
  fs.chmodSync(dir, 0o755);
  const handle = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port: await freePort(), user: 'herald', password: 'herald-test' });
  const admin = new pg.Client({ connectionString: handle.url('postgres') });
  await admin.connect();
  await admin.query('CREATE DATABASE herald_template');
  await admin.end();
  const db = createDb(handle.url('herald_template'), { max: 2 });
  await migrate(db);
  await db.close();
  project.provide('pgAdminUrl', handle.url('postgres'));
  project.provide('pgTemplate', 'herald_template');
  return async () => {
    await handle.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
