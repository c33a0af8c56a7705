/**
 * Herald through a real PgBouncer in transaction mode (docs/decisions/0068-connection-pooler.md):
 * PgBouncer's server pool is smaller than Herald's (4 against 10), so consecutive statements of one
 * Herald connection land on different server connections, as they do behind a busy managed pooler.
 * First what breaks without the setting (the statement_timeout start-up parameter, a named prepared
 * statement), then a slice of the app with HERALD_DB_POOLER=transaction: create, list, publish at once
 * and through the worker (which polls: no LISTEN without a direct URL), the migrations run by three
 * processes at once on an empty database, the passes' lease, and LISTEN on the direct URL.
 * The scale-out flow through the pooler is test/flows/scale-out-pgbouncer.test.ts.
 */
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { startWorker } from '../../src/publishing/worker.ts';
import { createDb, prepared } from '../../src/storage/db.ts';
import { takeJobLease } from '../../src/storage/job-leases.ts';
import { migrate, MIGRATIONS_DIR } from '../../src/storage/migrate.ts';
import { createProfile, createTenant, createTestApp, createTestDatabase, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { waitFor } from '../support/net.ts';
import { pgbouncerAvailable, pgbouncerVersion, startPgBouncer, type PgBouncer } from '../support/pgbouncer.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';

const available = pgbouncerAvailable('test/api/pgbouncer.test.ts');

let bouncer: PgBouncer;
let directUrl: string;
let poolerUrl: string;
let ctx: TestContext;
let tenant: Tenant;
let adapter: ScriptedAdapter;
let accountId: string;

const dbName = (url: string) => new URL(url).pathname.slice(1);

describe.skipIf(!available)('through PgBouncer in transaction mode', () => {
  beforeAll(async () => {
    bouncer = await startPgBouncer({ upstream: inject('pgAdminUrl'), poolSize: 4 });
    directUrl = await createTestDatabase();
    poolerUrl = bouncer.url(dbName(directUrl));
    adapter = new ScriptedAdapter();
    ctx = await createTestApp({
      databaseUrl: poolerUrl,
      env: { HERALD_DB_POOLER: 'transaction' },
      deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: adapter }) },
    });
    tenant = await createTenant(ctx);
    const profileId = await createProfile(ctx, tenant);
    accountId = await insertAccount(ctx, tenant, profileId);
    process.stdout.write(`pgbouncer: ${pgbouncerVersion()}, pool_mode transaction, default_pool_size 4\n`);
  });

  afterAll(async () => {
    await ctx?.close();
    await bouncer?.stop();
  });

  it('without HERALD_DB_POOLER: PgBouncer refuses the statement timeout start-up parameter, and a named statement goes missing', async () => {
    const strict = createDb(poolerUrl, { max: 2, timeouts: { connectTimeoutMs: 5_000, statementTimeoutMs: 5_000 } });
    await expect(strict.query('SELECT 1')).rejects.toThrow(/unsupported startup parameter: statement_timeout/);
    await strict.close();

    // A named statement is parsed on the server connection of its first use only. A second client
    // holding that server connection in a transaction sends the next use to another one.
    const a = new pg.Client({ connectionString: poolerUrl });
    const b = new pg.Client({ connectionString: poolerUrl });
    await a.connect();
    await b.connect();
    try {
      const stmt = prepared('test.pgbouncer-named', 'SELECT $1::int + 1 AS n');
      expect((await a.query({ ...stmt, values: [1] })).rows[0].n).toBe(2);
      await b.query('BEGIN');
      await b.query('SELECT 1'); // b now holds the server connection a used last (PgBouncer reuses the most recent one)
      await expect(a.query({ ...stmt, values: [2] })).rejects.toThrow(/prepared statement "test.pgbouncer-named" does not exist/);
      await b.query('ROLLBACK');
    } finally {
      await a.end();
      await b.end();
    }
  });

  it('creates, lists and publishes at once through the pooler (named statements sent unnamed, no start-up statement_timeout)', async () => {
    const headers = tenant.headers;
    // Concurrent creates and lists: Herald's 10 connections share PgBouncer's 4 server connections.
    const created = await Promise.all(Array.from({ length: 40 }, async (_, i) => {
      const res = await ctx.app.inject({
        method: 'POST', url: '/v1/posts', headers,
        payload: { content: `pooled ${i}`, scheduledFor: '2035-06-15T09:30', timezone: 'Europe/Paris', platforms: [{ platform: 'bluesky', accountId }] },
      });
      expect(res.statusCode, res.body).toBe(201);
      const list = await ctx.app.inject({ method: 'GET', url: '/v1/posts?limit=5', headers });
      expect(list.statusCode, list.body).toBe(200);
      return res.json().post._id as string;
    }));
    expect(new Set(created).size).toBe(40);
    const list = await ctx.app.inject({ method: 'GET', url: '/v1/posts?limit=10&status=scheduled', headers });
    expect(list.json().pagination.total).toBe(40);
    expect(list.json().posts).toHaveLength(10);

    const now = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers, payload: { content: 'pooled now', publishNow: true, platforms: [{ platform: 'bluesky', accountId }] } });
    expect(now.statusCode, now.body).toBe(201);
    expect(now.json().post.status).toBe('published');
    expect(adapter.commits.map((c) => c.text)).toContain('pooled now');

    const health = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(health.json().database).toMatchObject({ ok: true });
  });

  it('HERALD_DB_POOLER=transaction-prepared (PgBouncer 1.21+ with max_prepared_statements) connects without the start-up parameter and keeps no session', async () => {
    const db = createDb(poolerUrl, { max: 2, pooler: 'transaction-prepared', timeouts: { connectTimeoutMs: 5_000, statementTimeoutMs: 5_000 } });
    try {
      expect((await db.query<{ n: number }>('SELECT 1 AS n')).rows[0].n).toBe(1);
      expect(db.session()).toBeNull();
    } finally {
      await db.close();
    }
  });

  it('the worker polls without a direct URL (no LISTEN) and publishes what another process made due', async () => {
    expect(ctx.db.session()).toBeNull();
    const publisher = ctx.services.publisher;
    const worker = await startWorker({ db: ctx.db, publisher, concurrency: 4, pollMs: 200, staleMs: 5_000 });
    try {
      // Created through another connection, as by an API process: no in-process notice reaches the worker.
      const other = await createTestApp({ databaseUrl: poolerUrl, env: { HERALD_DB_POOLER: 'transaction' }, deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: adapter }) } });
      try {
        const res = await other.app.inject({
          method: 'POST', url: '/v1/posts', headers: tenant.headers,
          payload: { content: 'pooled by the worker', scheduledFor: new Date(Date.now() + 1_000).toISOString(), platforms: [{ platform: 'bluesky', accountId }] },
        });
        expect(res.statusCode, res.body).toBe(201);
        await waitFor(async () => adapter.commits.some((c) => c.text === 'pooled by the worker'), { timeoutMs: 10_000, what: 'the worker to publish' });
      } finally {
        await other.close();
      }
    } finally {
      await worker.stop(5_000);
    }
  });

  it('migrates an empty database through the pooler, three processes at once, each migration once', async () => {
    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    const name = `t_pgb_migrate_${process.pid}_${Date.now().toString(36)}`;
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const dbs = Array.from({ length: 3 }, () => createDb(bouncer.url(name), { max: 2, pooler: 'transaction' }));
    try {
      const applied = await Promise.all(dbs.map((db) => migrate(db)));
      const files = fs.readdirSync(MIGRATIONS_DIR).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f));
      expect(applied.flat().sort()).toEqual(files.map((f) => f.replace(/\.sql$/, '')).sort());
      expect(await migrate(dbs[0])).toEqual([]);
      expect((await dbs[0].query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations')).rows[0].n).toBe(files.length);
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
    }
    // Every migration from an empty database: seconds here, over a minute on a loaded CI machine.
  }, 240_000);

  it('one holder of a pass lease at a time through the pooler; free again once released', async () => {
    const first = await takeJobLease(ctx.db, 'test-pgbouncer', 30_000);
    expect(first?.held()).toBe(true);
    expect(await takeJobLease(ctx.db, 'test-pgbouncer', 30_000)).toBeNull();
    await first!.release();
    const second = await takeJobLease(ctx.db, 'test-pgbouncer', 30_000);
    expect(second?.held()).toBe(true);
    await second!.release();

    // A holder whose lease ran out (a paused process) finds it taken at its next renewal, and stops holding it.
    const paused = (await takeJobLease(ctx.db, 'test-pgbouncer-expiry', 600))!;
    await ctx.db.query(`UPDATE job_leases SET expires_at = now() - interval '1 second' WHERE name = 'test-pgbouncer-expiry'`);
    const taker = await takeJobLease(ctx.db, 'test-pgbouncer-expiry', 30_000);
    expect(taker?.held()).toBe(true);
    await waitFor(async () => !paused.held(), { timeoutMs: 2_000, intervalMs: 20, what: 'the first holder to see its lease lost' });
    await paused.release(); // deletes nothing of the taker's
    expect((await ctx.db.query('SELECT 1 FROM job_leases WHERE name = $1', ['test-pgbouncer-expiry'])).rowCount).toBe(1);
    await taker!.release();
  });

  it('with HERALD_DATABASE_DIRECT_URL: LISTEN on the database itself hears a NOTIFY sent through the pooler', async () => {
    const db = createDb(poolerUrl, { max: 2, pooler: 'transaction', directUrl });
    try {
      const session = await db.session()!;
      const heard = new Promise<string>((resolve) => session.client.on('notification', (n) => resolve(n.channel)));
      await session.client.query('LISTEN herald_due');
      await db.query(`SELECT pg_notify('herald_due', '')`);
      expect(await heard).toBe('herald_due');
      session.release();
    } finally {
      await db.close();
    }
  });
});
