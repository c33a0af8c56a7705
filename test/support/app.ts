/**
 * Test harness: a fresh database per call (cloned from the migrated template), the
 * real app built in-process, and tenants with API keys. No mocks of the database.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config.ts';
import { buildApp, type App } from '../../src/http/app.ts';
import { createServices, type ServiceDeps, type Services } from '../../src/services.ts';
import { createDb, type Db } from '../../src/storage/db.ts';
import type { AddonId, PlanId } from '../../src/shared/plans.ts';
import type { Permission } from '../../src/shared/permissions.ts';

let counter = 0;

/** Creates a database cloned from the migrated template; returns its URL. */
export async function createTestDatabase(): Promise<string> {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
  } finally {
    await admin.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

export interface TestContext {
  app: App;
  services: Services;
  db: Db;
  config: Config;
  databaseUrl: string;
  secretKeyHex: string;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Builds the real app on a fresh database (or on `databaseUrl`, e.g. one the CLI wrote to).
 * `env` overrides configuration variables. `listen` serves real HTTP on 127.0.0.1 at the
 * configured PORT (default 0: a free port; give PORT to make media URLs reachable).
 */
/** `poolSize`: the app's database pool (10; 1 runs every statement on one connection, whose prepared statements a test can then inspect). */
export async function createTestApp(opts: { env?: Record<string, string>; deps?: Partial<ServiceDeps>; listen?: boolean; databaseUrl?: string; poolSize?: number } = {}): Promise<TestContext> {
  const databaseUrl = opts.databaseUrl ?? await createTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-test-data-'));
  const secretKeyHex = randomBytes(32).toString('hex');
  const config = loadConfig({
    DATABASE_URL: databaseUrl, HERALD_DATA_DIR: dataDir, HERALD_SECRET_KEY: secretKeyHex,
    HERALD_RATE_LIMIT: 'off', HERALD_ALLOW_PRIVATE_URLS: 'true', PORT: '0',
    // The client app the connect tests send the browser back to (redirect_url; docs/decisions/0046-connect-redirect-origins.md).
    HERALD_CONNECT_REDIRECT_ORIGINS: 'https://client.example', ...opts.env,
  });
  const db = createDb(databaseUrl, { max: opts.poolSize ?? 10, applicationName: 'herald-test', timeouts: config.db, pooler: config.dbPooler, directUrl: config.databaseDirectUrl });
  const services = createServices({ config, db, secretKeyHex, processId: `api-test-${process.pid}-${counter++}`, ...opts.deps });
  await db.query('INSERT INTO workers (id, hostname, pid) VALUES ($1, $2, $3)', [services.publisher.workerId, 'test', process.pid]);
  const app = await buildApp({ services });
  if (opts.listen) await app.listen({ port: config.port, host: '127.0.0.1' });
  return {
    app, services, db, config, databaseUrl, secretKeyHex, dataDir,
    async close() {
      await app.close();
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Tenant {
  userId: string;
  apiKey: string;
  headers: { authorization: string };
}

/** Creates a root user with an API key (all permissions unless given). */
export async function createTenant(ctx: TestContext, opts: { plan?: PlanId; addons?: AddonId[]; permissions?: Permission[]; email?: string } = {}): Promise<Tenant> {
  const { userId } = await ctx.services.users.createRootUser({ email: opts.email ?? `u${Date.now()}${counter++}@example.test`, plan: opts.plan ?? 'advanced', addons: opts.addons });
  const key = await ctx.services.apiKeys.create({ tenantId: userId, userId }, { name: 'test', permissions: opts.permissions });
  return { userId, apiKey: key.key, headers: { authorization: `Bearer ${key.key}` } };
}

/** Inserts a connected account directly (for API tests that do not need a real platform). */
export async function insertAccount(ctx: TestContext, tenant: Tenant, profileId: string, platform = 'bluesky', opts: { isActive?: boolean; username?: string } = {}): Promise<string> {
  const id = (await import('../../src/core/ids.ts')).newId();
  await ctx.db.query(
    `INSERT INTO accounts (id, tenant_id, profile_id, platform, platform_user_id, username, credentials, is_active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [id, tenant.userId, profileId, platform, `did:plc:${id}`, opts.username ?? `user${id.slice(-6)}.test`, ctx.services.secrets.sealJson({}), opts.isActive ?? true],
  );
  return id;
}

export async function createProfile(ctx: TestContext, tenant: Tenant, name = `Profile ${counter++}`): Promise<string> {
  const res = await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: tenant.headers, payload: { name } });
  if (res.statusCode !== 201) throw new Error(`profile create failed: ${res.body}`);
  return res.json().profile._id;
}
