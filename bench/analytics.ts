/**
 * Analytics list view benchmark (decision 0030): one tenant with 10,000 published posts (one target
 * each, over the last 30 days, on two profiles) and 30 days of metric snapshots per post (one a
 * day: 300,000 rows), seeded with SQL; then GET /v1/analytics (50 a page) is loaded with
 * autocannon: sorted by date, sorted by engagement, one profile, and a late page; and
 * GET /v1/analytics/daily over the 30 days. Prints req/s, p50 and p99 per view.
 *
 *   node --import tsx bench/analytics.ts [--seconds 5] [--connections 1] [--explain]   (npm run bench runs it as section (j))
 *
 * The snapshots are seeded by SQL, so the daily view's summed gains (post_metric_daily, decision
 * 0067) are built by the migration's backfill statement afterwards; `--explain` prints the plan of
 * the daily view's statement on that seed.
 *
 * From another script: `import { runAnalyticsBench } from './analytics.ts'`.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { newId } from '../src/core/ids.ts';
import { buildApp } from '../src/http/app.ts';
import { createAdapterRegistry } from '../src/platforms/registry.ts';
import { createServices } from '../src/services.ts';
import { createAnalyticsRepository } from '../src/modules/analytics/repository.ts';
import { createDb, type Db } from '../src/storage/db.ts';
import { startEmbeddedPostgres } from '../src/storage/embedded-pg.ts';
import { migrate } from '../src/storage/migrate.ts';
import { BenchAdapter } from './bench-adapter.ts';
import { line, runOnce, type RunFigures } from './load.ts';
import { freePort } from '../test/support/net.ts';

export interface AnalyticsBenchOptions {
  posts?: number;
  days?: number;
  seconds?: number;
  connections?: number;
  /** Also print EXPLAIN (ANALYZE, BUFFERS) of the daily view's statement (default range). */
  explain?: boolean;
  log?: (line: string) => void;
}

/** Seeds and loads the analytics views; answers each view's figures by label. */
export async function runAnalyticsBench(o: AnalyticsBenchOptions = {}): Promise<Record<string, RunFigures>> {
  const posts = o.posts ?? 10_000;
  const days = o.days ?? 30;
  const settings = { seconds: o.seconds ?? 5, connections: o.connections ?? 1 };
  const log = o.log ?? ((s: string) => console.log(s));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-analytics-'));
  fs.chmodSync(tmp, 0o755);
  const password = randomBytes(12).toString('hex');
  const handle = await startEmbeddedPostgres({ dir: path.join(tmp, 'pg'), port: await freePort(), user: 'herald', password });
  const admin = new pg.Client({ connectionString: handle.url('postgres') });
  await admin.connect();
  await admin.query('CREATE DATABASE analytics_bench');
  await admin.end();
  const dataDir = path.join(tmp, 'data');
  fs.mkdirSync(dataDir);
  const secretKeyHex = randomBytes(32).toString('hex');
  const config = loadConfig({
    DATABASE_URL: handle.url('analytics_bench'), HERALD_DATA_DIR: dataDir, HERALD_SECRET_KEY: secretKeyHex,
    HERALD_RATE_LIMIT: 'off', HERALD_ANALYTICS_RATE_LIMIT: '100000', HERALD_LOG_LEVEL: 'silent', PORT: '0',
  });
  const db = createDb(handle.url('analytics_bench'), { max: config.dbPoolSize, applicationName: 'herald-bench-analytics' });
  const services = createServices({ config, db, secretKeyHex, processId: `bench-analytics-${process.pid}`, adapters: createAdapterRegistry(config, { bluesky: new BenchAdapter(0) }) });
  const app = await buildApp({ services });
  try {
    await migrate(db);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
    const { userId } = await services.users.createRootUser({ email: 'analytics@example.test', plan: 'advanced', addons: ['analytics'] });
    const { key } = await services.apiKeys.create({ tenantId: userId, userId }, { name: 'bench' });
    const headers = { authorization: `Bearer ${key}` };
    const profiles = [newId(), newId()];
    const accounts = [newId(), newId()];
    for (const [i, p] of profiles.entries()) {
      await db.query('INSERT INTO profiles (id, tenant_id, name) VALUES ($1, $2, $3)', [p, userId, `Profile ${i + 1}`]);
      await db.query(
        `INSERT INTO accounts (id, tenant_id, profile_id, platform, platform_user_id, username, credentials, is_active)
         VALUES ($1, $2, $3, 'bluesky', $4, $5, $6, true)`, [accounts[i], userId, p, `did:plc:${accounts[i]}`, `bench${i}.test`, services.secrets.sealJson({})]);
    }
    const seedStart = Date.now();
    // Posts published over the last `days` days; one target each, alternating the two accounts.
    await db.query(
      `INSERT INTO posts (id, tenant_id, created_by, content, status, published_at, created_at)
       SELECT 'a' || lpad(to_hex(g), 23, '0'), $1, $1, 'Measured post ' || g, 'published',
              now() - (g::float / $2) * make_interval(days => $3), now() - (g::float / $2) * make_interval(days => $3)
         FROM generate_series(1, $2::int) g`, [userId, posts, days]);
    await db.query(
      `INSERT INTO post_targets (id, post_id, tenant_id, position, account_id, platform, status, published_at, platform_post_id, platform_post_url)
       SELECT 'b' || lpad(to_hex(g), 23, '0'), 'a' || lpad(to_hex(g), 23, '0'), $1, 0, CASE WHEN g % 2 = 0 THEN $2 ELSE $3 END, 'bluesky', 'published',
              now() - (g::float / $4) * make_interval(days => $5), 'at://bench/' || g, 'https://bsky.app/bench/' || g
         FROM generate_series(1, $4::int) g`, [userId, accounts[0], accounts[1], posts, days]);
    // Latest counts per target, and one snapshot a day for `days` days (counts growing to the latest).
    await db.query(
      `INSERT INTO post_metrics (target_id, tenant_id, post_id, account_id, platform, platform_post_id, published_at, likes, comments, shares, saves, engagement, sync_status, last_refreshed_at, next_refresh_at)
       SELECT t.id, t.tenant_id, t.post_id, t.account_id, t.platform, t.platform_post_id, t.published_at,
              (hashtext(t.id) & 1023), (hashtext(t.id) & 63), (hashtext(t.id) & 31), NULL,
              (hashtext(t.id) & 1023) + (hashtext(t.id) & 63) + (hashtext(t.id) & 31), 'synced', now(), now() + interval '1 day'
         FROM post_targets t WHERE t.tenant_id = $1`, [userId]);
    await db.query(
      `INSERT INTO post_metric_snapshots (target_id, captured_at, tenant_id, likes, comments, shares, saves, engagement)
       SELECT m.target_id, now() - make_interval(days => d), m.tenant_id,
              m.likes * ($2 - d) / $2, m.comments * ($2 - d) / $2, m.shares * ($2 - d) / $2, NULL, m.engagement * ($2 - d) / $2
         FROM post_metrics m, generate_series(0, $2::int - 1) d WHERE m.tenant_id = $1`, [userId, days]);
    // Snapshots seeded by SQL bypass the refresh job that adds their gains to post_metric_daily
    // (decision 0067): the migration's backfill statement sums them, as it did for existing data.
    const rebuildStart = Date.now();
    const rollupRows = await createAnalyticsRepository(db).rebuildDaily(userId);
    const rebuildMs = Date.now() - rebuildStart;
    await db.query('ANALYZE');
    const snapshots = (await db.query<{ n: string }>('SELECT count(*) AS n FROM post_metric_snapshots')).rows[0].n;
    line('seeded', `${posts.toLocaleString('en-US')} published posts over ${days} days, ${Number(snapshots).toLocaleString('en-US')} snapshots, ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);
    line('daily gains summed', `${rollupRows.toLocaleString('en-US')} rows of post_metric_daily in ${rebuildMs} ms (post_metric_daily_rebuild)`);
    if (o.explain) {
      // The daily view's statement as GET /v1/analytics/daily runs it by default (the last 90 days), explained.
      const now = Date.now();
      const explained: string[] = [];
      const explaining = { ...db, query: async (text: string, values?: unknown[]) => {
        const r = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
        explained.push(...r.rows.map((x) => x['QUERY PLAN']));
        return { ...r, rows: [] };
      } } as unknown as Db;
      await createAnalyticsRepository(explaining).daily(userId, { platform: null, profileId: null, profileIds: null, from: new Date(now - 90 * 86_400_000), to: new Date(now + 60_000) });
      log(explained.join('\n'));
      // What each stored reading and each trigger on post_targets reads: one target's gains (its own snapshots only).
      const one = await db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM post_metric_gains WHERE target_id = (SELECT min(id) FROM post_targets) AND day >= (now() AT TIME ZONE 'UTC')::date - 1`);
      log(one.rows.map((x) => x['QUERY PLAN']).join('\n'));
    }

    const views: Array<[string, string]> = [
      ['list, by date (page 1 of 50)', '/v1/analytics'],
      ['list, by engagement', '/v1/analytics?sortBy=engagement'],
      ['list, one profile', `/v1/analytics?profileId=${profiles[0]}&sortBy=engagement`],
      ['list, page 100', '/v1/analytics?page=100&limit=50'],
      [`daily, ${days} days`, '/v1/analytics/daily'],
    ];
    const out: Record<string, RunFigures> = {};
    log(`    autocannon ${settings.seconds} s per view, ${settings.connections} connections`);
    for (const [label, url] of views) {
      // The body is read whole: an unread one keeps the connection busy, and closing the app then waits
      // for Fastify's keep-alive timeout (72 s), which the default bench run spent in 3 of 5 runs.
      const check = await fetch(`${base}${url}`, { headers });
      const body = await check.text();
      if (check.status !== 200) throw new Error(`${url} answered ${check.status}: ${body.slice(0, 300)}`);
      const r = await runOnce({ label, url: `${base}${url}`, method: 'GET', headers }, settings);
      out[label] = r;
      line(label, `${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms${r.non2xx || r.errors ? ` (${r.non2xx} non-2xx, ${r.errors} errors)` : ''}`);
    }
    return out;
  } finally {
    await app.close().catch(() => {});
    await db.close().catch(() => {});
    await handle.stop().catch(() => {});
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { values } = parseArgs({ options: { seconds: { type: 'string' }, connections: { type: 'string' }, posts: { type: 'string' }, explain: { type: 'boolean' } } });
  console.log('Herald analytics benchmark: GET /v1/analytics over 10,000 published posts with 30 days of snapshots');
  await runAnalyticsBench({
    seconds: values.seconds ? Number(values.seconds) : undefined,
    connections: values.connections ? Number(values.connections) : undefined,
    posts: values.posts ? Number(values.posts) : undefined,
    explain: values.explain,
  });
}
