/**
 * Herald benchmark (`npm run bench`): prints figures, asserts nothing.
 *
 * Starts its own embedded PostgreSQL in a temporary directory, builds the real app
 * (createServices + buildApp, rate limit off) listening on loopback, and measures:
 *   (a) create-post throughput and latency: N POST /v1/posts (scheduled far in the
 *       future) over real HTTP with 50 concurrent connections (autocannon, run in a
 *       worker thread so that the load generator does not share the server's event loop);
 *   (b) publish lag: 1,000 posts due at the same instant T, published by a worker
 *       (startWorker, concurrency 50 as src/main.ts configures it) through a benchmark
 *       adapter whose commit takes 50 ms; lag = commit start - T;
 *   (c) single-post lag: 20 posts due a few hundred ms apart, with an idle worker.
 * See bench/README.md for what each figure means and the last recorded run.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { newId } from '../src/core/ids.ts';
import { buildApp, type App } from '../src/http/app.ts';
import { startWorker, type Worker } from '../src/publishing/worker.ts';
import { createAdapterRegistry } from '../src/platforms/registry.ts';
import { createServices } from '../src/services.ts';
import { createDb, type Db } from '../src/storage/db.ts';
import { startEmbeddedPostgres, type EmbeddedPgHandle } from '../src/storage/embedded-pg.ts';
import { migrate } from '../src/storage/migrate.ts';
import { BenchAdapter } from './bench-adapter.ts';
import { freePort } from '../test/support/net.ts';

// ---- parameters ---------------------------------------------------------------------
const CREATE_N = 5_000;
const CREATE_WARMUP_N = 500;
const CREATE_CONNECTIONS = 50;
const LAG_POSTS = 1_000;
const LAG_LEAD_MS = 15_000;
const WORKER_CONCURRENCY = 50; // HERALD_WORKER_CONCURRENCY default, as src/main.ts passes it
const COMMIT_MS = 50;
const SINGLE_POSTS = 20;
const SINGLE_GAP_MS = 300;
const SINGLE_LEAD_MS = 3_000;
const BULK_ROWS = 5_000;

// ---- autocannon (CommonJS, no bundled types) ----------------------------------------
interface Histogram { average: number; mean: number; stddev: number; min: number; max: number; p50: number; p90: number; p97_5: number; p99: number }
interface AutocannonResult {
  latency: Histogram;
  requests: Histogram & { total: number; sent: number };
  start: Date;
  finish: Date;
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

// ---- helpers ------------------------------------------------------------------------
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));


function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

const loadavg = () => os.loadavg().map((l) => l.toFixed(2)).join(' / ');
const ms = (v: number) => `${v.toFixed(v < 10 ? 1 : 0)} ms`;
const line = (label: string, value: string) => console.log(`  ${label.padEnd(34)} ${value}`);

/** Runs `fn(i)` for i in [0, n) with at most `concurrency` in flight. */
async function pool(n: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, concurrency) }, async () => {
    while (next < n) await fn(next++);
  }));
}

// ---- main ---------------------------------------------------------------------------
async function main() {
  const startedAt = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-'));
  fs.chmodSync(tmp, 0o755); // PostgreSQL runs as `postgres` when we are root
  let handle: EmbeddedPgHandle | null = null;
  let db: Db | null = null;
  let app: App | null = null;
  let worker: Worker | null = null;
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    await worker?.stop(5_000).catch(() => {});
    await app?.close().catch(() => {});
    await db?.close().catch(() => {});
    await handle?.stop().catch(() => {});
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  const onSignal = () => { void cleanup().finally(() => process.exit(130)); };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    // Machine
    const cpus = os.cpus();
    console.log('Herald benchmark');
    console.log(`  date                               ${new Date().toISOString()}`);
    line('CPU', `${cpus[0]?.model ?? 'unknown'} x ${cpus.length}`);
    line('memory', `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`);
    line('OS', `${os.type()} ${os.release()} ${os.arch()}`);
    line('Node', process.version);
    line('load average (1/5/15 min)', loadavg());

    // PostgreSQL
    const password = randomBytes(12).toString('hex');
    handle = await startEmbeddedPostgres({ dir: path.join(tmp, 'pg'), port: await freePort(), user: 'herald', password });
    const admin = new pg.Client({ connectionString: handle.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE herald_bench');
    const version = (await admin.query<{ version: string }>('SELECT version()')).rows[0].version;
    await admin.end();
    line('PostgreSQL', version);

    const dataDir = path.join(tmp, 'data');
    fs.mkdirSync(dataDir);
    const secretKeyHex = randomBytes(32).toString('hex');
    const config = loadConfig({
      DATABASE_URL: handle.url('herald_bench'), HERALD_DATA_DIR: dataDir, HERALD_SECRET_KEY: secretKeyHex,
      HERALD_RATE_LIMIT: 'off', HERALD_LOG_LEVEL: 'silent', PORT: '0',
    });
    db = createDb(handle.url('herald_bench'), { max: config.dbPoolSize, applicationName: 'herald-bench' });
    await migrate(db);
    const adapter = new BenchAdapter(COMMIT_MS);
    const services = createServices({
      config, db, secretKeyHex, processId: `bench-${os.hostname()}-${process.pid}`,
      adapters: createAdapterRegistry(config, { bluesky: adapter }),
    });
    app = await buildApp({ services });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as net.AddressInfo;
    const base = `http://127.0.0.1:${port}`;
    line('database pool / worker concurrency', `${config.dbPoolSize} / ${WORKER_CONCURRENCY}`);
    console.log(`  (setup took ${((Date.now() - startedAt) / 1000).toFixed(1)} s)`);

    // Tenant (advanced plan: unlimited posts), profile, account on the bench adapter
    const { userId } = await services.users.createRootUser({ email: 'bench@example.test', plan: 'advanced' });
    const { key } = await services.apiKeys.create({ tenantId: userId, userId }, { name: 'bench' });
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const profileRes = await fetch(`${base}/v1/profiles`, { method: 'POST', headers, body: JSON.stringify({ name: 'Bench' }) });
    if (profileRes.status !== 201) throw new Error(`profile create failed: ${profileRes.status} ${await profileRes.text()}`);
    const profileId = ((await profileRes.json()) as { profile: { _id: string } }).profile._id;
    const accountId = newId();
    await db.query(
      `INSERT INTO accounts (id, tenant_id, profile_id, platform, platform_user_id, username, credentials, is_active)
       VALUES ($1, $2, $3, 'bluesky', $4, 'bench.test', $5, true)`,
      [accountId, userId, profileId, `did:plc:${accountId}`, services.secrets.sealJson({})],
    );
    const createPost = async (content: string, scheduledFor: string): Promise<string> => {
      const res = await fetch(`${base}/v1/posts`, {
        method: 'POST', headers, body: JSON.stringify({ content, scheduledFor, platforms: [{ platform: 'bluesky', accountId }] }),
      });
      if (res.status !== 201) throw new Error(`post create failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { post: { _id: string } }).post._id;
    };

    // ---- (a) create-post throughput ------------------------------------------------
    console.log(`\n(a) create post: ${CREATE_N} x POST /v1/posts, ${CREATE_CONNECTIONS} connections, scheduled far in the future`);
    const body = JSON.stringify({
      content: 'Benchmark post, scheduled far in the future', scheduledFor: '2035-06-15T09:30', timezone: 'Europe/Paris',
      platforms: [{ platform: 'bluesky', accountId }],
    });
    const cannon = (amount: number) => autocannon({
      url: `${base}/v1/posts`, method: 'POST', headers, body, amount, connections: CREATE_CONNECTIONS, workers: 1, timeout: 30,
    });
    const warm = await cannon(CREATE_WARMUP_N);
    line('warm-up', `${warm['2xx']} created (not counted)`);
    const eluA = performance.eventLoopUtilization();
    const r = await cannon(CREATE_N);
    const eluAUsed = performance.eventLoopUtilization(eluA).utilization;
    const seconds = (r.finish.getTime() - r.start.getTime()) / 1000;
    line('responses', `${r['2xx']} x 2xx, ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts (${JSON.stringify(Object.fromEntries(Object.entries(r.statusCodeStats).map(([k, v]) => [k, v.count])))})`);
    line('throughput', `${(r['2xx'] / seconds).toFixed(0)} requests/s (${seconds.toFixed(2)} s wall)`);
    line('latency p50 / p99 / max', `${ms(r.latency.p50)} / ${ms(r.latency.p99)} / ${ms(r.latency.max)}`);
    line('server event-loop utilisation', `${(eluAUsed * 100).toFixed(0)}%`);
    const stored = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM post_targets WHERE status = 'pending'`)).rows[0].n;
    line('targets stored (pending)', `${stored} (expected ${CREATE_WARMUP_N + CREATE_N})`);

    // ---- (b) publish lag, 1,000 posts due at once ---------------------------------
    worker = await startWorker({ db, publisher: services.publisher, concurrency: WORKER_CONCURRENCY });
    const T = Math.ceil((Date.now() + LAG_LEAD_MS) / 1000) * 1000;
    const tIso = new Date(T).toISOString();
    console.log(`\n(b) publish lag: ${LAG_POSTS} posts due at T = ${tIso}, worker concurrency ${WORKER_CONCURRENCY}, commit ${COMMIT_MS} ms`);
    const createStart = Date.now();
    const lagIds: string[] = new Array(LAG_POSTS);
    await pool(LAG_POSTS, 20, async (i) => { lagIds[i] = await createPost(`lag ${i}`, tIso); });
    line('created in', `${((Date.now() - createStart) / 1000).toFixed(2)} s; T is ${((T - Date.now()) / 1000).toFixed(1)} s away`);
    if (Date.now() >= T) console.log('  WARNING: creating the posts took longer than the lead time; lag figures are skewed');

    const deadline = T + 60_000;
    let done = { published: 0, failed: 0 };
    await sleep(Math.max(0, T - Date.now()));
    const eluB = performance.eventLoopUtilization();
    const lagCommitCount = () => adapter.commits.reduce((n, c) => n + (c.text.startsWith('lag ') ? 1 : 0), 0);
    const finalCounts = async () => (await db!.query<{ published: number; failed: number }>(
      `SELECT count(*) FILTER (WHERE status = 'published')::int AS published, count(*) FILTER (WHERE status = 'failed')::int AS failed
         FROM post_targets WHERE post_id = ANY($1::char(24)[])`, [lagIds])).rows[0];
    while (Date.now() < deadline) {
      // Watch the adapter in memory first, so that polling adds no load to the database while it drains.
      if (lagCommitCount() < LAG_POSTS) { await sleep(20); continue; }
      done = await finalCounts();
      if (done.published + done.failed >= LAG_POSTS) break;
      await sleep(20);
    }
    if (done.published + done.failed < LAG_POSTS) done = await finalCounts();
    const eluBUsed = performance.eventLoopUtilization(eluB).utilization;
    const lagCommits = adapter.commits.filter((c) => c.text.startsWith('lag '));
    const lags = lagCommits.map((c) => c.startedAt - T).sort((a, b) => a - b);
    const distinct = new Set(lagCommits.map((c) => c.text)).size;
    const { rows: lastRows } = await db.query<{ last: Date | null }>(
      'SELECT max(published_at) AS last FROM post_targets WHERE post_id = ANY($1::char(24)[])', [lagIds]);
    const allPublishedMs = lastRows[0].last ? lastRows[0].last.getTime() - T : NaN;
    const lastCommitEnd = Math.max(...lagCommits.map((c) => c.endedAt)) - T;
    const ideal = (LAG_POSTS * COMMIT_MS) / WORKER_CONCURRENCY;
    line('targets', `${done.published} published, ${done.failed} failed`);
    line('commits', `${lagCommits.length} (distinct posts ${distinct}, duplicates ${lagCommits.length - distinct})${lagCommits.length === LAG_POSTS && distinct === LAG_POSTS ? ' - exactly one commit per post' : ' - MISMATCH'}`);
    line('lag p50 / p99 / max', `${ms(percentile(lags, 50))} / ${ms(percentile(lags, 99))} / ${ms(lags[lags.length - 1] ?? NaN)}`);
    line('first commit started', `T + ${ms(lags[0] ?? NaN)}`);
    line('all published (last published_at)', `T + ${ms(allPublishedMs)} (ideal ${ms(ideal)} = ${LAG_POSTS} x ${COMMIT_MS} ms / ${WORKER_CONCURRENCY}; ratio ${(allPublishedMs / ideal).toFixed(2)})`);
    line('last commit returned', `T + ${ms(lastCommitEnd)}`);
    line('event-loop utilisation (drain)', `${(eluBUsed * 100).toFixed(0)}%`);

    // ---- (c) single-post lag with an idle worker ----------------------------------
    const firstDue = Date.now() + SINGLE_LEAD_MS;
    console.log(`\n(c) single-post lag: ${SINGLE_POSTS} posts due ${SINGLE_GAP_MS} ms apart, idle worker`);
    const dues: number[] = [];
    const singleIds: string[] = [];
    for (let i = 0; i < SINGLE_POSTS; i++) {
      const due = firstDue + i * SINGLE_GAP_MS;
      dues.push(due);
      singleIds.push(await createPost(`single ${i}`, new Date(due).toISOString()));
    }
    const lastDue = dues[dues.length - 1];
    while (Date.now() < lastDue + 10_000) {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM post_targets WHERE post_id = ANY($1::char(24)[]) AND status IN ('published', 'failed')`, [singleIds]);
      if (rows[0].n >= SINGLE_POSTS) break;
      await sleep(100);
    }
    const singleLags = adapter.commits.filter((c) => c.text.startsWith('single '))
      .map((c) => c.startedAt - dues[Number(c.text.slice('single '.length))]).sort((a, b) => a - b);
    line('published', `${singleLags.length} of ${SINGLE_POSTS}`);
    line('lag p50 / p99 / max', `${ms(percentile(singleLags, 50))} / ${ms(percentile(singleLags, 99))} / ${ms(singleLags[singleLags.length - 1] ?? NaN)}`);
    line('within 2 s of T', `${singleLags.filter((l) => l <= 2_000).length} of ${SINGLE_POSTS}`);

    // ---- (d) bulk CSV upload: 5,000 rows validated and created -----------------------
    console.log(`\n(d) bulk CSV upload: ${BULK_ROWS} rows (POST /v1/posts/bulk-upload), dry run then create`);
    const csvRows = Array.from({ length: BULK_ROWS }, (_, i) => `bluesky,Bench,2031-04-01 10:00,America/New_York,"Bulk post ${i}, with a comma"`);
    const csv = ['platforms,profiles,schedule_time,tz,post_content', ...csvRows].join('\n');
    for (const dry of [true, false]) {
      const form = new FormData();
      form.set('file', new Blob([csv], { type: 'text/csv' }), 'bench.csv');
      const t0 = performance.now();
      const res = await fetch(`${base}/v1/posts/bulk-upload${dry ? '?dryRun=true' : ''}`, { method: 'POST', headers: { authorization: headers.authorization }, body: form });
      const body = (await res.json()) as { valid: number };
      const secs = (performance.now() - t0) / 1000;
      line(dry ? 'dry run (validate only)' : 'validate + create', `HTTP ${res.status}, ${body.valid} valid, ${secs.toFixed(2)} s, ${Math.round(BULK_ROWS / secs)} rows/s`);
    }

    console.log(`\ntotal ${((Date.now() - startedAt) / 1000).toFixed(1)} s; load average now ${loadavg()}`);
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
