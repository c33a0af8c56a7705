/**
 * The database failing under a running app (docs/decisions/0044-database-failures.md):
 * frozen (a TCP proxy that stops forwarding: no refusal, no answer), down (connections
 * refused, reset, or terminated by an administrator) and slow (a statement past the statement
 * timeout). /health answers 503 within 2 s and API requests answer 503 DATABASE_UNAVAILABLE
 * with Retry-After within the configured bound; everything works again once the database does.
 * Real PostgreSQL throughout: the proxy sits in front of this file's own test database.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/storage/db.ts';
import { createTenant, createTestApp, createTestDatabase, type Tenant, type TestContext } from '../support/app.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

/** The bound on an API answer with the database frozen, at the default settings (README: connect 5 s, statements 5 s + 1 s). */
const API_BOUND_MS = 8_000;

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - started };
}

function expectUnavailable(res: { statusCode: number; headers: Record<string, unknown>; json(): Record<string, unknown> }) {
  expect(res.statusCode).toBe(503);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  const body = res.json();
  expect(body).toMatchObject({ code: 'DATABASE_UNAVAILABLE', requestId: expect.any(String) });
  expect(body.error).toMatch(/database/i);
  expect(Object.keys(body).sort()).toEqual(['code', 'error', 'requestId']);
}

async function behindProxy(env: Record<string, string> = {}): Promise<{ ctx: TestContext; proxy: TcpProxy; tenant: Tenant; databaseUrl: string }> {
  const databaseUrl = await createTestDatabase();
  const u = new URL(databaseUrl);
  const proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port) });
  const ctx = await createTestApp({ databaseUrl: proxy.urlFor(databaseUrl), env });
  const tenant = await createTenant(ctx);
  return { ctx, proxy, tenant, databaseUrl };
}

describe('a frozen database (no refusal, no answer)', () => {
  let ctx: TestContext;
  let proxy: TcpProxy;
  let tenant: Tenant;
  beforeAll(async () => { ({ ctx, proxy, tenant } = await behindProxy()); });
  afterAll(async () => {
    await proxy.close();
    await ctx.close();
  });

  it('/health answers 503 within 2 s, API requests 503 DATABASE_UNAVAILABLE with Retry-After within the bound, and all recover', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: tenant.headers })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/health' })).json().database.ok).toBe(true);
    proxy.freeze();

    const health = await timed(() => ctx.app.inject({ method: 'GET', url: '/health' }));
    expect(health.value.statusCode).toBe(503);
    expect(health.value.json()).toMatchObject({ status: 'degraded', database: { ok: false } });
    expect(health.ms).toBeLessThan(2_000);

    // More requests at once than the pool has connections: the pooled ones wait for an answer
    // that never comes, the rest for a connection.
    const many = await timed(() => Promise.all(Array.from({ length: 14 }, () => ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: tenant.headers }))));
    for (const res of many.value) expectUnavailable(res);
    expect(many.ms).toBeLessThan(API_BOUND_MS);

    // The pool's connections were dropped: the next request waits for a new connection, which never completes.
    const next = await timed(() => ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: tenant.headers }));
    expectUnavailable(next.value);
    expect(next.ms).toBeLessThan(API_BOUND_MS);
    const healthAgain = await timed(() => ctx.app.inject({ method: 'GET', url: '/health' }));
    expect(healthAgain.value.statusCode).toBe(503);
    expect(healthAgain.ms).toBeLessThan(2_000);
    console.info(`frozen database: /health 503 in ${health.ms} ms and ${healthAgain.ms} ms; 14 API requests at once 503 in ${many.ms} ms; the next one in ${next.ms} ms`);

    proxy.thaw();
    const back = await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: tenant.headers });
    expect(back.statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/health' })).json().database.ok).toBe(true);
  });
});

describe('a database that is down', () => {
  let ctx: TestContext;
  let proxy: TcpProxy;
  let tenant: Tenant;
  beforeAll(async () => { ({ ctx, proxy, tenant } = await behindProxy()); });
  afterAll(async () => { await ctx.close(); });

  it('connections reset and refused: 503 DATABASE_UNAVAILABLE with Retry-After at once, /health 503, the process keeps running', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: tenant.headers })).statusCode).toBe(200);
    // Resets the pool's idle connections (each one's error reaches the pool's error listener) and refuses new ones.
    await proxy.close();
    await new Promise((r) => setTimeout(r, 50));
    for (let i = 0; i < 3; i++) {
      const res = await timed(() => ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: tenant.headers }));
      expectUnavailable(res.value);
      expect(res.ms).toBeLessThan(2_000);
    }
    const post = await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: tenant.headers, payload: { name: 'Down' } });
    expectUnavailable(post);
    const health = await timed(() => ctx.app.inject({ method: 'GET', url: '/health' }));
    expect(health.value.statusCode).toBe(503);
    expect(health.value.json().database).toMatchObject({ ok: false, error: expect.any(String) });
    expect(health.ms).toBeLessThan(2_000);
  });
});

describe('a statement ended by the server', () => {
  let ctx: TestContext;
  let tenant: Tenant;
  let admin: pg.Client;
  let databaseName: string;
  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    databaseName = new URL(databaseUrl).pathname.slice(1);
    ctx = await createTestApp({ databaseUrl, env: { HERALD_DB_STATEMENT_TIMEOUT_MS: '1000' } });
    tenant = await createTenant(ctx);
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
  });
  afterEach(async () => { await admin.query('ROLLBACK').catch(() => {}); });
  afterAll(async () => {
    await admin.end();
    await ctx.close();
  });

  /** Holds a lock on the profiles table from another session, so that the profiles list waits. */
  const lockProfiles = async () => {
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE profiles IN ACCESS EXCLUSIVE MODE');
  };

  it('past the statement timeout (57014): 503 DATABASE_UNAVAILABLE, and the connection serves the next request', async () => {
    await lockProfiles();
    const res = await timed(() => ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: tenant.headers }));
    expectUnavailable(res.value);
    expect(res.ms).toBeGreaterThanOrEqual(900);
    expect(res.ms).toBeLessThan(3_000);
    await admin.query('ROLLBACK');
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: tenant.headers })).statusCode).toBe(200);
  });

  it('terminated by an administrator (57P01) while running: 503 DATABASE_UNAVAILABLE; the idle connections end without crashing the process', async () => {
    await lockProfiles();
    const pending = ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: tenant.headers });
    // Wait until the request's statement waits for the lock, then end every connection of the app.
    for (let i = 0; i < 50; i++) {
      const { rows } = await ctx.db.unbounded((c) => c.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`, [databaseName]));
      if (rows[0].n > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'herald-test'`, [databaseName]);
    expectUnavailable(await pending);
    await admin.query('ROLLBACK');
    await new Promise((r) => setTimeout(r, 50));
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: tenant.headers })).statusCode).toBe(200);
  });

  it('a transaction whose connection is terminated between two statements fails as DATABASE_UNAVAILABLE; the process keeps running', async () => {
    const err = await ctx.db.tx(async (client) => {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      // The server's notice and the connection's end arrive while the client is checked out and idle.
      await new Promise((r) => setTimeout(r, 200));
      await client.query('SELECT 1');
    }).catch((e: unknown) => e);
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: tenant.headers })).statusCode).toBe(200);
  });

  it('long work runs on a connection without the statement timeout (migrations)', async () => {
    await expect(ctx.db.query('SELECT pg_sleep(1.2)')).rejects.toMatchObject({ code: '57014' });
    const { rows } = await ctx.db.unbounded((c) => c.query<{ ok: number }>('SELECT 1 AS ok FROM pg_sleep(1.2)'));
    expect(rows[0].ok).toBe(1);
  });
});
