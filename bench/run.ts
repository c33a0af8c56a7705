/**
 * Herald benchmark (`npm run bench`): prints figures, asserts nothing.
 *
 * Starts its own embedded PostgreSQL in a temporary directory, builds the real app
 * (createServices + buildApp, rate limit off) listening on loopback, starts the performance
 * anchor (../shared/perf-anchor/anchor.mjs, outside the repo) as a child process against the
 * same PostgreSQL (its own database), and measures:
 *   (a) create post, scheduled, one target: Herald vs the anchor's create route;
 *   (b) create post, three targets and one media item: Herald only, run in the same rounds;
 *   (c) list posts, 10 of 10,000 with their targets: Herald vs the anchor's list route;
 *       (a)-(c) are alternating autocannon runs (3 rounds x 5 s each, 50 connections, warm-up
 *       first, autocannon in a worker thread); per round and median: req/s, p50, p99, CPU per
 *       request, and Herald / anchor ratios against their goals (GOALS below); (c) runs first, while
 *       the posts table holds only the 10,000 seeded posts;
 *   (d) publish lag: 1,000 posts due at the same instant T, published by a worker
 *       (startWorker, concurrency 50 as src/main.ts configures it) through a benchmark
 *       adapter whose commit takes 50 ms; lag = commit start - T;
 *   (e) single-post lag: 20 posts due a few hundred ms apart, with an idle worker;
 *   (f) bulk CSV upload of 5,000 rows;
 *   (j) analytics (decision 0030): GET /v1/analytics over 10,000 published posts with 30 days of
 *       snapshots, one connection, 2 s per view (bench/analytics.ts; about 20 s);
 * and, opt-in (they would push the run past its 3-minute budget):
 *   --drain-10k  (g) 10,000 posts due at once (created by bulk upload), same worker;
 *   --startup    (h) `herald start` on a fresh data directory (initdb), then again on it;
 *   --rss        (i) 100,000 creates against `herald api` in its own process, its RSS sampled
 *                (--rss-only: the setup and (i) alone);
 *   --clips      (k) AI clipping of a generated 10-minute 720p video (bench/clips.ts);
 *   --scale      issue 31: 1,000,000 posts seeded first (bench/scale.ts); (c) lists a big profile's newest
 *                and deep page, (a) and (g) run on that database; EXPLAIN of the hot statements to a file
 *                (bench/explain.ts).
 * Setup, then only these (they combine, and with --scale run on the big database):
 *   --burst[=N]  (l) 10,000 and N targets due in the same second, in-process worker (bench/burst.ts);
 *   --ceiling    (m) throughput ceiling, commit 0 ms, one and two worker processes (bench/ceiling.ts);
 *   --worker-rss (n) a worker process's RSS over 100,000 publishes (bench/worker-rss.ts).
 * (d) runs three rounds (alternating with (g) when it runs): the drains' goals are on the median.
 * `--profile` runs only the setup and CPU-profiles the server's main thread (inspector
 * Profiler) during 10 s of (a) and 10 s of (c); see bench/profile-summary.ts.
 * See bench/README.md for what each figure means and the last recorded run.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
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
import { ANCHOR_PATH, REPO_ROOT, startAnchor, type Anchor } from './anchor.ts';
import { benchDatabases, directUrl } from './pooler.ts';
import { BenchAdapter, type CommitRecord } from './bench-adapter.ts';
import { HERALD_NODE_FLAGS, sampleRss } from './child.ts';
import { runAnalyticsBench } from './analytics.ts';
import { createBenchTenant, runBurst, type BurstFigures } from './burst.ts';
import { runCeiling } from './ceiling.ts';
import { explainHotStatements } from './explain.ts';
import { runDashboardFilters } from './filters.ts';
import { SCALE as SCALE_SIZE, seedAnchorScale, seedHeraldScale } from './scale.ts';
import { runWorkerRss } from './worker-rss.ts';
import {
  alternate, autocannon, cpuMeasure, fmtMedian, line, loadavg, median, medians, ms, percentile, pool, ratios, runOnce, type LoadTarget, type RunFigures,
} from './load.ts';
import { printSummary, summarise, type CpuProfile } from './profile-summary.ts';
import { freePort } from '../test/support/net.ts';
import { makePng } from '../test/support/png.ts';

// ---- parameters ---------------------------------------------------------------------
const ARGS = new Set(process.argv.slice(2));
const PROFILE = ARGS.has('--profile');
const DRAIN_10K = ARGS.has('--drain-10k');
const STARTUP = ARGS.has('--startup');
const RSS_ONLY = ARGS.has('--rss-only');
const RSS = ARGS.has('--rss') || RSS_ONLY;
const CLIPS = ARGS.has('--clips');
/** Setup, then only (d) and (g), each `--repeat=N` times (3 by default): separates publishing changes from run-to-run noise. */
const DRAINS_ONLY = ARGS.has('--drains-only');
const REPEAT = Number([...ARGS].find((a) => a.startsWith('--repeat='))?.slice('--repeat='.length) ?? 3);
/** PostgreSQL statement statistics (pg_stat_statements) for each drain: the statements with the most execution time. */
const PG_STATS = ARGS.has('--pg-stats');
/** Setup, then only (a) and (b), the create rounds. */
const CREATE_ONLY = ARGS.has('--create-only');
/**
 * Issue 31, where big users live: `--scale` seeds 1,000,000 posts (bench/scale.ts) before the runs; (c) then
 * lists a big profile's newest and deep page, (a) creates and (g) drains with those rows present.
 */
const SCALE = ARGS.has('--scale');
/** `--burst[=N]`: setup, then (l) 10,000 and N (100,000 by default) targets due in the same second (bench/burst.ts). */
const BURST_ARG = [...ARGS].find((a) => a === '--burst' || a.startsWith('--burst='));
const BURST_N = BURST_ARG ? Number(BURST_ARG.split('=')[1] ?? 100_000) : 0;
/** `--ceiling`: setup, then (m) the throughput ceiling, commit 0 ms, one and two worker processes (bench/ceiling.ts). */
const CEILING = ARGS.has('--ceiling');
/** `--worker-rss`: setup, then (n) a worker process's RSS over 100,000 publishes (bench/worker-rss.ts). */
const WORKER_RSS = ARGS.has('--worker-rss');
/** Any of the three: the setup (with the --scale seed when given), then only those sections. */
const SECTIONS_ONLY = BURST_N > 0 || CEILING || WORKER_RSS;
const CEILING_TARGETS = 20_000;
const CEILING_CONFIGS = [{ workers: 1, concurrency: 200 }, { workers: 1, concurrency: 500 }, { workers: 2, concurrency: 200 }, { workers: 2, concurrency: 500 }];
const WORKER_RSS_PUBLISHES = 100_000;
const WORKER_RSS_COMMIT_MS = 2;
const RSS_REQUESTS = 100_000;
const LOAD = { connections: 50, seconds: 5, warmupSeconds: 2 };
const ROUNDS = 3;
const PROFILE_SECONDS = 10;
const LIST_POSTS = 10_000;
const LAG_POSTS = 1_000;
const WORKER_CONCURRENCY = 50; // HERALD_WORKER_CONCURRENCY default, as src/main.ts passes it
const COMMIT_MS = 50;
const SINGLE_POSTS = 20;
const SINGLE_GAP_MS = 200;
const SINGLE_LEAD_MS = 3_000;
const BULK_ROWS = 5_000; // the bulk upload's maximum per file
const DRAIN_POSTS = 10_000;
/** Rounds of (d) (and of (g) when it runs) in the full run: the drains' goals are on the median of at least three. */
const DRAIN_ROUNDS = 3;
/** The goals (issue 31): ratios are medians of the alternating rounds; the drains' goals need the median of at least three rounds. */
const GOALS = { rssGrowthMiB: 50, createRps: 0.7, createP99: 1.8, listRps: 0.9, lagRatio1k: 1.15, lagRatio10k: 1.05, singleP99: 100, secondStartMs: 3_000, firstStartMs: 10_000 };
/** With `--scale` (1,000,000 posts present), the figures are printed next to these goals too. */
const SCALE_GOALS = { createRps: 0.6, listRps: 0.8, lagRatio10k: 1.1 };
/** The list at scale: the dashboard's filter and order (web/src/dashboard/pages/Posts.tsx), 10 a page as the anchor; the deep page is page 1,000, the rows of the dashboard's page 500 (20 a page). */
const SCALE_LIST_QUERY = 'sortBy=scheduled-desc&limit=10';
/**
 * The list runs at scale with the small database's load (50 connections, 6 s a run). Sessions 9 and 10 ran it
 * with 2 connections and 10 s, while a profile's page cost PostgreSQL one to two seconds of CPU and 50
 * requests in flight queued past the end of a run; since `post_profiles` (decision 0072) the newest page costs
 * under a millisecond, and 2 connections measured round trips rather than what the machine serves. A run
 * still first waits until PostgreSQL is idle (the deep page leaves requests in flight).
 */
const SCALE_LIST_LOAD = LOAD;
const SCALE_DEEP_PAGE = 1_000;

// ---- helpers ------------------------------------------------------------------------
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const verdict = (ok: boolean) => (ok ? 'met' : 'NOT MET');
const med = (a: number[]) => median(a);
/** A ratio: two decimals, or two significant digits under 0.1 (a list at scale is thousands of times slower). */
const fx = (x: number) => (Math.abs(x) >= 0.1 || x === 0 || !Number.isFinite(x) ? x.toFixed(2) : x.toPrecision(2));
/** `median 0.53 of 0.53, 0.57, 0.42`: the median over the rounds and every round's figure. */
const rounds = (a: number[]) => (a.length === 1 ? `${fx(a[0])}, one round` : `median ${fx(med(a))} of ${a.map(fx).join(', ')}`);
/** `goal >= 0.7: met` and, at --scale, the scale goal after it. */
const goal = (v: number, cmp: '>=' | '<=', g: number, scaleGoal?: number) => {
  const ok = (x: number) => (cmp === '>=' ? v >= x : v <= x);
  return `goal ${cmp} ${g}: ${verdict(ok(g))}${SCALE && scaleGoal !== undefined ? `; at --scale ${cmp} ${scaleGoal}: ${verdict(ok(scaleGoal))}` : ''}`;
};

// ---- main ---------------------------------------------------------------------------
async function main() {
  const startedAt = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-'));
  fs.chmodSync(tmp, 0o755); // PostgreSQL runs as `postgres` when we are root
  let handle: EmbeddedPgHandle | null = null;
  let db: Db | null = null;
  let app: App | null = null;
  let worker: Worker | null = null;
  let anchor: Anchor | null = null;
  let anchorDb: pg.Client | null = null;
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    await anchor?.stop().catch(() => {});
    await anchorDb?.end().catch(() => {});
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
    const flags = process.argv.slice(2).filter((a) => a.startsWith('--') && !['--profile', '--drain-10k', '--startup'].includes(a));
    console.log(`Herald benchmark${PROFILE ? ' (--profile)' : ''}${DRAIN_10K ? ' (--drain-10k)' : ''}${STARTUP ? ' (--startup)' : ''}${flags.map((f) => ` (${f})`).join('')}`);
    console.log(`  date                               ${new Date().toISOString()}`);
    line('CPU', `${cpus[0]?.model ?? 'unknown'} x ${cpus.length}`);
    line('memory', `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`);
    line('OS', `${os.type()} ${os.release()} ${os.arch()}`);
    line('Node', process.version);
    const missing = HERALD_NODE_FLAGS.filter((f) => !process.execArgv.includes(f));
    line('Node flags (Herald runs in this process)', `${process.execArgv.filter((f) => f.startsWith('--max')).join(' ') || 'none'}${missing.length ? `; NOT as shipped, missing ${missing.join(' ')} (run it with npm run bench)` : ' (as bin/herald.js runs Herald)'}`);
    line('load average (1/5/15 min)', loadavg());

    // PostgreSQL: one server, a database for Herald and one for the anchor
    const password = randomBytes(12).toString('hex');
    handle = await startEmbeddedPostgres({
      dir: path.join(tmp, 'pg'), port: await freePort(), user: 'herald', password,
      settings: PG_STATS ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all', 'pg_stat_statements.track_planning': 'on' } : undefined,
    });
    const admin = new pg.Client({ connectionString: handle.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE herald_bench');
    await admin.query('CREATE DATABASE anchor_bench');
    const version = (await admin.query<{ version: string }>('SELECT version()')).rows[0].version;
    await admin.end();
    line('PostgreSQL', version);
    const dbs = await benchDatabases(handle); // --pgbouncer: bench/pooler.ts
    line('database connections', dbs.describe);

    const dataDir = path.join(tmp, 'data');
    fs.mkdirSync(dataDir);
    const secretKeyHex = randomBytes(32).toString('hex');
    const config = loadConfig({
      DATABASE_URL: dbs.url('herald_bench'), HERALD_DATA_DIR: dataDir, HERALD_SECRET_KEY: secretKeyHex,
      HERALD_RATE_LIMIT: 'off', HERALD_LOG_LEVEL: 'silent', PORT: '0', ...dbs.env,
    });
    db = createDb(dbs.url('herald_bench'), { max: config.dbPoolSize, applicationName: 'herald-bench', ...dbs.pooling });
    await migrate(db);
    if (PG_STATS) await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const adapter = new BenchAdapter(COMMIT_MS);
    const services = createServices({
      config, db, secretKeyHex, processId: `bench-${os.hostname()}-${process.pid}`,
      adapters: createAdapterRegistry(config, { bluesky: adapter }),
    });
    app = await buildApp({ services });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as net.AddressInfo;
    const base = `http://127.0.0.1:${port}`;
    line('Herald', `in this process, ${base}, database pool ${config.dbPoolSize}, worker concurrency ${WORKER_CONCURRENCY}`);

    // The anchor, beside Herald (a child process), in its own database on the same server
    anchor = await startAnchor(dbs.url('anchor_bench'));
    if (anchor) {
      anchorDb = new pg.Client({ connectionString: handle.url('anchor_bench') });
      await anchorDb.connect();
      line('anchor', `${path.relative(REPO_ROOT, ANCHOR_PATH)}, pid ${anchor.pid}, ${anchor.url}, database pool ${process.env.ANCHOR_POOL || 10}`);
    } else {
      line('anchor', `unavailable (${path.relative(REPO_ROOT, ANCHOR_PATH)} not found): Herald figures only, no ratios`);
    }

    // Tenant A (advanced plan: unlimited posts): profile, three accounts on the bench adapter, one image
    const tenant = async (email: string, accounts: number) => {
      const { userId } = await services.users.createRootUser({ email, plan: 'advanced' });
      const { key } = await services.apiKeys.create({ tenantId: userId, userId }, { name: 'bench' });
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const profileRes = await fetch(`${base}/v1/profiles`, { method: 'POST', headers, body: JSON.stringify({ name: 'Bench' }) });
      if (profileRes.status !== 201) throw new Error(`profile create failed: ${profileRes.status} ${await profileRes.text()}`);
      const profileId = ((await profileRes.json()) as { profile: { _id: string } }).profile._id;
      // The first account in profile "Bench" (what the CSV rows name), the others in a second profile, so that a
      // bulk row for "Bench" has exactly one target.
      const extraRes = accounts > 1 ? await fetch(`${base}/v1/profiles`, { method: 'POST', headers, body: JSON.stringify({ name: 'Bench extra' }) }) : null;
      if (extraRes && extraRes.status !== 201) throw new Error(`profile create failed: ${extraRes.status} ${await extraRes.text()}`);
      const extraId = extraRes ? ((await extraRes.json()) as { profile: { _id: string } }).profile._id : profileId;
      const accountIds: string[] = [];
      for (let i = 0; i < accounts; i++) {
        const accountId = newId();
        await db!.query(
          `INSERT INTO accounts (id, tenant_id, profile_id, platform, platform_user_id, username, credentials, is_active)
           VALUES ($1, $2, $3, 'bluesky', $4, $5, $6, true)`,
          [accountId, userId, i === 0 ? profileId : extraId, `did:plc:${accountId}`, `bench${i}.test`, services.secrets.sealJson({})],
        );
        accountIds.push(accountId);
      }
      return { userId, headers, accountIds };
    };
    const A = await tenant('bench@example.test', 3);
    const accountId = A.accountIds[0];
    const headers = A.headers;
    const bulkUpload = async (h: Record<string, string>, rows: string[], dry = false) => {
      const csv = ['platforms,profiles,schedule_time,tz,post_content', ...rows].join('\n');
      const form = new FormData();
      form.set('file', new Blob([csv], { type: 'text/csv' }), 'bench.csv');
      const res = await fetch(`${base}/v1/posts/bulk-upload${dry ? '?dryRun=true' : ''}`, { method: 'POST', headers: { authorization: h.authorization }, body: form });
      const body = (await res.json()) as { valid: number };
      if (res.status >= 300) throw new Error(`bulk upload failed: ${res.status} ${JSON.stringify(body).slice(0, 500)}`);
      return { status: res.status, valid: body.valid };
    };
    const mediaForm = new FormData();
    mediaForm.set('files', new Blob([makePng(64, 64, 'noise')], { type: 'image/png' }), 'bench.png');
    const mediaRes = await fetch(`${base}/v1/media`, { method: 'POST', headers: { authorization: headers.authorization }, body: mediaForm });
    if (mediaRes.status !== 200) throw new Error(`media upload failed: ${mediaRes.status} ${await mediaRes.text()}`);
    const media = ((await mediaRes.json()) as { files: { type: string; url: string }[] }).files[0];

    // Tenant B: 10,000 posts with one target each (bulk upload, Herald's own create path), for the list
    const seedStart = Date.now();
    const B = await tenant('list@example.test', 1);
    for (let done = 0; done < LIST_POSTS; done += BULK_ROWS) {
      const rows = Array.from({ length: Math.min(BULK_ROWS, LIST_POSTS - done) }, (_, i) => `bluesky,Bench,2031-04-01 10:00,UTC,"Listed post ${done + i}"`);
      await bulkUpload(B.headers, rows);
    }
    const seedAnchor = async () => {
      // The anchor's equivalent: 10,000 posts of its one user, each with its target list, newest first by created_at.
      await anchorDb!.query('TRUNCATE perf_anchor.posts');
      await anchorDb!.query(
        `INSERT INTO perf_anchor.posts (user_id, content, platforms, scheduled_for, timezone, created_at)
         SELECT k.user_id, 'Listed post ' || g, $2::jsonb, '2031-04-01T10:00:00Z', 'UTC', now() - g * interval '1 second'
           FROM generate_series(1, $1::int) g, (SELECT user_id FROM perf_anchor.api_keys LIMIT 1) k`,
        [LIST_POSTS, JSON.stringify([{ platform: 'bluesky', accountId: B.accountIds[0] }])]);
      await anchorDb!.query('ANALYZE perf_anchor.posts');
    };
    if (anchor && !SCALE) await seedAnchor();
    await db.query('ANALYZE');
    line('seeded for the list', `${LIST_POSTS} posts with one target each in a second tenant (bulk upload)${anchor && !SCALE ? ' and for the anchor (one INSERT)' : ''}, ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);
    // --scale: 1,000,000 posts of a big tenant (and the anchor's 1,000,000 rows), by SQL (bench/scale.ts)
    let scale: (Awaited<ReturnType<typeof seedHeraldScale>> & { anchorSeconds: number }) | null = null;
    if (SCALE) {
      console.log(`  --scale: ${SCALE_SIZE.posts.toLocaleString('en-US')} posts with their targets over ${SCALE_SIZE.profiles.toLocaleString('en-US')} profiles and ${(SCALE_SIZE.profiles * SCALE_SIZE.accountsPerProfile).toLocaleString('en-US')} accounts (bench/scale.ts)`);
      const seeded = await seedHeraldScale(db, services, line);
      const anchorSeconds = anchor ? await seedAnchorScale(anchorDb!) : 0;
      // VACUUM as well as ANALYZE, both sides: a database that grew to a million posts has been vacuumed, so
      // its visibility map is set (index-only scans read no rows) and autovacuum is not working through a
      // million fresh rows during the runs, as it did after a bare ANALYZE (it took CPU from both sides
      // and made create at scale vary from run to run).
      const a0 = performance.now();
      await db.unbounded((c) => c.query('VACUUM (ANALYZE)'));
      if (anchorDb) await anchorDb.query('VACUUM (ANALYZE) perf_anchor.posts');
      const analyzeSeconds = (performance.now() - a0) / 1000;
      scale = { ...seeded, anchorSeconds };
      const total = seeded.seconds + anchorSeconds + analyzeSeconds;
      line('seeded at scale', `Herald ${seeded.posts.toLocaleString('en-US')} posts, ${seeded.targets.toLocaleString('en-US')} targets in ${seeded.seconds.toFixed(1)} s; ` +
        `${anchor ? `anchor ${SCALE_SIZE.posts.toLocaleString('en-US')} rows in ${anchorSeconds.toFixed(1)} s; ` : ''}VACUUM (ANALYZE) ${analyzeSeconds.toFixed(1)} s; total ${total.toFixed(1)} s (budget 120 s: ${verdict(total < 120)})`);
      line('list profile (the biggest)', `${seeded.profileId}, ${seeded.profilePosts.toLocaleString('en-US')} posts; database ${(await db.query<{ size: string }>(`SELECT pg_size_pretty(pg_database_size(current_database())) AS size`)).rows[0].size}`);
    }
    console.log(`  (setup took ${((Date.now() - startedAt) / 1000).toFixed(1)} s)`);

    // The load targets; every run measures the loop and where the CPU went (see load.ts)
    const pgPid = Number(fs.readFileSync(path.join(tmp, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const cpuSrc = { pgPid, anchorCpuMs: anchor ? anchor.cpuMs : undefined };
    const heraldMeasure = cpuMeasure(cpuSrc, 'herald');
    const anchorMeasure = cpuMeasure(cpuSrc, 'anchor');
    const platform1 = [{ platform: 'bluesky', accountId }];
    const heraldCreate: LoadTarget = {
      label: 'Herald', url: `${base}/v1/posts`, method: 'POST', headers, measure: heraldMeasure,
      body: JSON.stringify({ content: 'Benchmark post [<id>], scheduled far in the future', scheduledFor: '2035-06-15T09:30', timezone: 'Europe/Paris', platforms: platform1 }),
    };
    const heraldCreate3: LoadTarget = {
      label: 'Herald 3+1', url: `${base}/v1/posts`, method: 'POST', headers, measure: heraldMeasure,
      body: JSON.stringify({
        content: 'Benchmark post [<id>], scheduled far in the future', scheduledFor: '2035-06-15T09:30', timezone: 'Europe/Paris',
        mediaItems: [{ type: media.type, url: media.url }], platforms: A.accountIds.map((id) => ({ platform: 'bluesky', accountId: id })),
      }),
    };
    const heraldList: LoadTarget = { label: 'Herald', url: `${base}/v1/posts?limit=10`, method: 'GET', headers: { authorization: B.headers.authorization }, measure: heraldMeasure };
    const anchorCreate: LoadTarget | null = anchor && {
      label: 'anchor', url: `${anchor.url}/posts`, method: 'POST', measure: anchorMeasure,
      headers: { authorization: `Bearer ${anchor.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Benchmark post [<id>], scheduled far in the future', scheduledFor: '2035-06-15T07:30:00Z', timezone: 'Europe/Paris', platforms: platform1 }),
    };
    const anchorList: LoadTarget | null = anchor && {
      label: 'anchor', url: `${anchor.url}/posts`, method: 'GET', measure: anchorMeasure, headers: { authorization: `Bearer ${anchor.token}` },
    };
    // One answer of each, checked before loading them.
    for (const t of [heraldCreate, heraldCreate3, heraldList, anchorCreate, anchorList]) {
      if (!t) continue;
      const res = await fetch(t.url, { method: t.method, headers: t.headers, body: t.body });
      const text = await res.text(); // read whole: an unread body keeps the connection busy and the app's close waits for it
      if (res.status >= 300) throw new Error(`${t.label} ${t.method} ${t.url} answered ${res.status}: ${text.slice(0, 500)}`);
    }
    const listCheck = (await (await fetch(heraldList.url, { headers: heraldList.headers })).json()) as { posts: { platforms: unknown[] }[]; pagination: { total: number } };
    if (listCheck.posts.length !== 10 || listCheck.pagination.total !== LIST_POSTS || listCheck.posts[0].platforms.length !== 1) {
      throw new Error(`Herald's list answered ${listCheck.posts.length} posts of ${listCheck.pagination.total}`);
    }

    // --scale: the biggest profile's newest page and a deep page, with the dashboard's filter and order; one of each checked
    const scaleList = scale && {
      newest: { label: 'Herald newest', url: `${base}/v1/posts?profileId=${scale.profileId}&${SCALE_LIST_QUERY}`, method: 'GET', headers: { authorization: scale.headers.authorization }, measure: heraldMeasure } satisfies LoadTarget,
      deep: { label: `Herald page ${SCALE_DEEP_PAGE}`, url: `${base}/v1/posts?profileId=${scale.profileId}&${SCALE_LIST_QUERY}&page=${SCALE_DEEP_PAGE}`, method: 'GET', headers: { authorization: scale.headers.authorization }, measure: heraldMeasure } satisfies LoadTarget,
    };
    if (scale && scaleList) {
      for (const t of [scaleList.newest, scaleList.deep]) {
        const t0 = performance.now();
        const res = await fetch(t.url, { headers: t.headers });
        const body = (await res.json()) as { posts?: unknown[]; pagination?: { total: number } };
        if (res.status !== 200 || body.posts?.length !== 10 || body.pagination?.total !== scale.profilePosts) {
          throw new Error(`${t.label} answered ${res.status}: ${body.posts?.length} posts of ${body.pagination?.total} (expected 10 of ${scale.profilePosts})`);
        }
        line(`one request, ${t.label}`, `${ms(performance.now() - t0)} (10 posts of ${body.pagination.total})`);
      }
    }

    if (RSS_ONLY) {
      const growth = await rssRun({
        DATABASE_URL: dbs.url('herald_bench'), HERALD_DATA_DIR: dataDir, HERALD_SECRET_KEY: secretKeyHex, HERALD_RATE_LIMIT: 'off', HERALD_LOG_LEVEL: 'warn', ...dbs.env,
      }, headers, JSON.stringify({ content: 'Memory run [<id>], scheduled far in the future', scheduledFor: '2035-06-15T09:30', timezone: 'Europe/Paris', platforms: platform1 }));
      line('(i) API RSS growth, 100,000 creates', `${growth.toFixed(0)} MiB (goal <= ${GOALS.rssGrowthMiB} MiB: ${verdict(growth <= GOALS.rssGrowthMiB)})`);
      return;
    }
    if (SECTIONS_ONLY) {
      await anchor?.stop();
      anchor = null;
      // A tenant with 100 accounts (one profile) on the bench adapter, for the targets of (l), (m) and (n)
      const bt = await createBenchTenant(db, services, 'burst@example.test', 100);
      const workerEnv = { DATABASE_URL: directUrl(handle, 'herald_bench'), HERALD_DATA_DIR: dataDir, HERALD_SECRET_KEY: secretKeyHex };
      const bursts: BurstFigures[] = [];
      if (BURST_N > 0) {
        worker = await startWorker({ db, publisher: services.publisher, concurrency: WORKER_CONCURRENCY });
        let rate = 4_000; // posts created per second, until the first burst measures it
        for (const [i, n] of [...new Set([Math.min(10_000, BURST_N), BURST_N])].entries()) {
          const leadMs = Math.max(8_000, ((1.5 * n) / rate) * 1000 + 4_000);
          const f = await runBurst({ db, adapter, tenant: bt, n, leadMs, pgPid, concurrency: WORKER_CONCURRENCY, tag: String(i), notifyDue: (at) => services.publisher.notifyDue(at) });
          rate = n / f.createSeconds;
          bursts.push(f);
        }
        await worker.stop(5_000);
        worker = null;
      }
      const ceiling = CEILING ? await runCeiling({ db, tenant: bt, pgPid, env: workerEnv, n: CEILING_TARGETS, configs: CEILING_CONFIGS,
        pgStats: PG_STATS ? { reset: async () => { await db!.query('SELECT pg_stat_statements_reset()'); }, print: (what) => printPgStats(db!, what) } : undefined }) : [];
      const workerRss = WORKER_RSS
        ? await runWorkerRss({ db, tenant: bt, env: workerEnv, n: WORKER_RSS_PUBLISHES, commitMs: WORKER_RSS_COMMIT_MS, concurrency: WORKER_CONCURRENCY })
        : null;
      console.log(`\nsummary`);
      for (const b of bursts) {
        line(`(l) burst ${b.n.toLocaleString('en-US')}`, `drain / ideal ${b.ratio.toFixed(2)}, ${Math.round(b.n / (b.drainMs / 1000))} targets/s; PostgreSQL CPU per target ${b.pgCpuPerTarget.toFixed(3)} ms, Herald ${b.heraldCpuPerTarget.toFixed(3)} ms; ${b.exactlyOnce ? 'exactly one commit per post' : 'commits MISMATCH'}`);
      }
      if (bursts.length === 2) line('(l) PostgreSQL CPU per target', `${bursts[1].n.toLocaleString('en-US')} / ${bursts[0].n.toLocaleString('en-US')}: ${(bursts[1].pgCpuPerTarget / bursts[0].pgCpuPerTarget).toFixed(2)}x (1.00: no growth with the burst's size)`);
      for (const c of ceiling) {
        line(`(m) ${c.workers} worker${c.workers > 1 ? 's' : ''} x ${c.concurrency}`, `${Math.round(c.targetsPerSecond)} targets/s; CPU per target pg ${c.pgCpuPerTarget.toFixed(3)} ms, Herald ${c.heraldCpuPerTarget.toFixed(3)} ms${c.exactlyOnce ? '' : '; commits MISMATCH'}`);
      }
      if (workerRss !== null) line('(n) worker RSS growth, 100,000 publishes', `${workerRss.toFixed(0)} MiB (goal <= ${GOALS.rssGrowthMiB} MiB: ${verdict(workerRss <= GOALS.rssGrowthMiB)})`);
      console.log(`\ntotal ${((Date.now() - startedAt) / 1000).toFixed(1)} s; load average now ${loadavg()}`);
      return;
    }
    const createPost = async (content: string, scheduledFor: string): Promise<string> => {
      const res = await fetch(`${base}/v1/posts`, {
        method: 'POST', headers, body: JSON.stringify({ content, scheduledFor, platforms: [{ platform: 'bluesky', accountId }] }),
      });
      if (res.status !== 201) throw new Error(`post create failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { post: { _id: string } }).post._id;
    };
    /** (d): 1,000 posts created over HTTP, due at one instant; `tag` keeps repeated rounds' contents distinct (duplicate protection). */
    const drain1k = (leadMs: number, tag = '') => publishLag({
      label: `(d) publish lag: ${LAG_POSTS} posts due at once${tag && ` [round ${tag}]`}`, prefix: `lag${tag} `, count: LAG_POSTS, leadMs,
      create: async (tIso, ids) => { await pool(LAG_POSTS, 20, async (i) => { ids[i] = await createPost(`lag${tag} ${i}`, tIso); }); },
      adapter, db: db!, goal: GOALS.lagRatio1k,
    });
    /**
     * Before the measured drains, as the load runs have their warm-up: 100 posts due at once, not counted. A
     * worker just started has its pool's connections parse and plan the claim, attempt and finish statements on
     * its first burst (its first round's first call went out 36-61 ms after T, the later rounds' 14-24 ms).
     */
    const warmUpDrain = async () => {
      const n = 100;
      const dueIso = new Date(Date.now() + 2_000).toISOString();
      const ids: string[] = new Array(n);
      const started = Date.now();
      await pool(n, 20, async (i) => { ids[i] = await createPost(`warm-up ${started} ${i}`, dueIso); });
      const settled = async () => { const o = await targetOutcomes(db!, ids); return o.published + o.failed; };
      while (Date.now() < started + 60_000 && (await settled()) < n) await sleep(100);
      line('warm-up drain (not counted)', `${n} posts due at once, all settled ${((Date.now() - started) / 1000).toFixed(1)} s after their creation began`);
    };
    /** (g): 10,000 posts created by two bulk uploads, due at one instant. */
    const drain10k = (tag = '') => publishLag({
      label: `(g) publish lag: ${DRAIN_POSTS} posts due at once (bulk upload)${tag && ` [round ${tag}]`}`, prefix: `drain${tag} `, count: DRAIN_POSTS, leadMs: 12_000,
      create: async (tIso) => {
        for (let done = 0; done < DRAIN_POSTS; done += BULK_ROWS) {
          await bulkUpload(headers, Array.from({ length: BULK_ROWS }, (_, i) => `bluesky,Bench,${tIso},UTC,"drain${tag} ${done + i}"`));
        }
      },
      adapter, db: db!, goal: GOALS.lagRatio10k, byContent: true,
    });

    if (DRAINS_ONLY) {
      await anchor?.stop();
      anchor = null;
      worker = await startWorker({ db, publisher: services.publisher, concurrency: WORKER_CONCURRENCY });
      await warmUpDrain();
      const r1: number[] = [];
      const r10: number[] = [];
      for (let i = 1; i <= REPEAT; i++) {
        r1.push((await drain1k(6_000, String(i))).ratio);
        r10.push((await drain10k(String(i))).ratio);
      }
      console.log(`\nsummary (--drains-only, ${REPEAT} rounds)`);
      line('(d) 1,000 due, drain / ideal', `${rounds(r1)} (${goal(med(r1), '<=', GOALS.lagRatio1k)})`);
      line('(g) 10,000 due, drain / ideal', `${rounds(r10)} (${goal(med(r10), '<=', GOALS.lagRatio10k, SCALE_GOALS.lagRatio10k)})`);
      console.log(`\ntotal ${((Date.now() - startedAt) / 1000).toFixed(1)} s; load average now ${loadavg()}`);
      return;
    }
    if (PROFILE) {
      await profileRuns(heraldCreate, heraldList, db);
      console.log(`\ntotal ${((Date.now() - startedAt) / 1000).toFixed(1)} s; load average now ${loadavg()}`);
      return;
    }

    const loadDesc = `${ROUNDS} rounds, ${LOAD.seconds} s per run, ${LOAD.connections} connections, ${LOAD.warmupSeconds} s warm-up each`;
    // ---- (c) list posts, run first: the posts table then holds only the 10,000 seeded posts (tenant A's
    // creates would otherwise add some 30,000 rows of another tenant, which Herald's count reads too) -----
    let listRatio: ReturnType<typeof ratios> | null = null;
    let deepRatio: ReturnType<typeof ratios> | null = null;
    if (!CREATE_ONLY && scale && scaleList) {
      // At scale: the biggest profile's newest page against the anchor's 10 newest of its biggest user, and a deep page.
      // A run leaves slow requests in flight when it stops: each run first waits until PostgreSQL has none left.
      console.log(`\n(c) list posts at scale, profile ${scale.profileId} (${scale.profilePosts.toLocaleString('en-US')} of the tenant's ${scale.posts.toLocaleString('en-US')} posts): ` +
        `Herald GET /v1/posts?profileId=...&${SCALE_LIST_QUERY}, newest page and page ${SCALE_DEEP_PAGE}${anchor ? ' vs anchor GET /posts (10 newest of its biggest user)' : ' (anchor unavailable)'}`);
      console.log(`    ${ROUNDS} rounds, ${SCALE_LIST_LOAD.seconds} s per run, ${SCALE_LIST_LOAD.connections} connections, ${SCALE_LIST_LOAD.warmupSeconds} s warm-up each; alternating Herald newest${anchor ? ' / anchor' : ''} / Herald page ${SCALE_DEEP_PAGE}; each run starts once PostgreSQL is idle`);
      const watch = new pg.Client({ connectionString: handle.url('postgres') });
      watch.on('error', () => {}); // PostgreSQL stopping under it (Ctrl-C) must not end the process before the cleanup
      await watch.connect();
      const settle = async () => {
        const t0 = performance.now();
        while (performance.now() - t0 < 120_000) {
          const { rows } = await watch.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND backend_type = 'client backend' AND pid <> pg_backend_pid()`);
          if (rows[0].n === 0) break;
          await sleep(100);
        }
        const waited = performance.now() - t0;
        if (waited > 500) line('  (settled)', `${(waited / 1000).toFixed(1)} s until the previous run's requests were done`);
      };
      if (PG_STATS) await db.query('SELECT pg_stat_statements_reset()');
      const { runs } = await alternate([scaleList.newest, ...(anchorList ? [anchorList] : []), scaleList.deep], ROUNDS, SCALE_LIST_LOAD, settle).finally(() => watch.end());
      const [hN, hD] = [runs[0], runs[runs.length - 1]];
      line('median Herald newest page', fmtMedian(medians(hN)));
      if (anchorList) line('median anchor', fmtMedian(medians(runs[1])));
      line(`median Herald page ${SCALE_DEEP_PAGE}`, fmtMedian(medians(hD)));
      if (PG_STATS) await printPgStats(db, 'list at scale');
      if (anchorList) {
        listRatio = ratios(hN, runs[1]);
        line('ratio Herald newest / anchor, req/s', `${listRatio.rps.map(fx).join(', ')}; median ${fx(listRatio.rpsMedian)} (${goal(listRatio.rpsMedian, '>=', GOALS.listRps, SCALE_GOALS.listRps)})`);
        line('ratio Herald newest / anchor, p99', listRatio.p99.every(Number.isFinite)
          ? `${listRatio.p99.map(fx).join(', ')}; median ${fx(listRatio.p99Median)} (no goal)`
          : `not computed: the anchor's p99 is under autocannon's 1 ms resolution at ${SCALE_LIST_LOAD.connections} connections (Herald's: ${ms(medians(hN).p99)})`);
        line('CPU per request, Herald / anchor', `server ${fx(listRatio.cpuMedian)}x, PostgreSQL ${fx(listRatio.pgMedian)}x (medians of rounds)`);
      }
      deepRatio = ratios(hD, hN);
      line(`ratio page ${SCALE_DEEP_PAGE} / newest, req/s`, `${deepRatio.rps.map((r) => r.toFixed(2)).join(', ')}; median ${deepRatio.rpsMedian.toFixed(2)} (no goal)`);
      line(`ratio page ${SCALE_DEEP_PAGE} / newest, p99`, `${deepRatio.p99.map((r) => r.toFixed(2)).join(', ')}; median ${deepRatio.p99Median.toFixed(2)}; PostgreSQL CPU per request ${deepRatio.pgMedian.toFixed(2)}x`);
    } else if (!CREATE_ONLY) {
      console.log(`\n(c) list posts (run first), 10 of ${LIST_POSTS} with their targets: Herald GET /v1/posts?limit=10${anchor ? ' vs anchor GET /posts' : ' (anchor unavailable)'}`);
      console.log(`    ${loadDesc}${anchor ? '; alternating Herald / anchor' : ''}`);
      if (PG_STATS) await db.query('SELECT pg_stat_statements_reset()');
      const { runs: listRuns } = await alternate([heraldList, ...(anchorList ? [anchorList] : [])], ROUNDS, LOAD);
      line('median Herald', fmtMedian(medians(listRuns[0])));
      if (PG_STATS) await printPgStats(db, 'list');
      if (anchorList) {
        line('median anchor', fmtMedian(medians(listRuns[1])));
        listRatio = ratios(listRuns[0], listRuns[1]);
        line('ratio Herald / anchor, req/s', `${listRatio.rps.map((r) => r.toFixed(2)).join(', ')}; median ${listRatio.rpsMedian.toFixed(2)} (${goal(listRatio.rpsMedian, '>=', GOALS.listRps)})`);
        line('ratio Herald / anchor, p99', `${listRatio.p99.map((r) => r.toFixed(2)).join(', ')}; median ${listRatio.p99Median.toFixed(2)} (no goal)`);
        line('CPU per request, Herald / anchor', `server ${listRatio.cpuMedian.toFixed(2)}x, PostgreSQL ${listRatio.pgMedian.toFixed(2)}x (medians of rounds)`);
      }
    }

    // ---- (a) + (b) create post: Herald one target / anchor / Herald three targets + media ----
    console.log(`\n(a) create post, scheduled, one target: Herald POST /v1/posts${anchor ? ' vs anchor POST /posts' : ' (anchor unavailable)'}${scale ? `, with the ${scale.posts.toLocaleString('en-US')} posts of --scale present` : ''}`);
    console.log(`(b) create post, three targets + one media item: Herald only, in the same rounds (label "Herald 3+1")`);
    console.log(`    ${loadDesc}; alternating Herald${anchor ? ' / anchor' : ''} / Herald 3+1`);
    const createTargets = [heraldCreate, ...(anchorCreate ? [anchorCreate] : []), heraldCreate3];
    if (PG_STATS) await db.query('SELECT pg_stat_statements_reset()');
    const { runs: createRuns, warmups: createWarmups } = await alternate(createTargets, ROUNDS, LOAD);
    if (PG_STATS) await printPgStats(db, 'creates, one and three targets');
    const hC = createRuns[0];
    const aC = anchorCreate ? createRuns[1] : null;
    const hC3 = createRuns[createRuns.length - 1];
    line('median Herald (one target)', fmtMedian(medians(hC)));
    if (aC) line('median anchor', fmtMedian(medians(aC)));
    line('median Herald 3+1 (3 targets, media)', fmtMedian(medians(hC3)));
    let createRatio: ReturnType<typeof ratios> | null = null;
    if (aC) {
      createRatio = ratios(hC, aC);
      line('ratio Herald / anchor, req/s', `${createRatio.rps.map((r) => r.toFixed(2)).join(', ')}; median ${createRatio.rpsMedian.toFixed(2)} (${goal(createRatio.rpsMedian, '>=', GOALS.createRps, SCALE_GOALS.createRps)})`);
      line('ratio Herald / anchor, p99', `${createRatio.p99.map((r) => r.toFixed(2)).join(', ')}; median ${createRatio.p99Median.toFixed(2)} (${goal(createRatio.p99Median, '<=', GOALS.createP99)})`);
      line('CPU per request, Herald / anchor', `server ${createRatio.cpuMedian.toFixed(2)}x, PostgreSQL ${createRatio.pgMedian.toFixed(2)}x (medians of rounds; no goal, less sensitive to a busy machine)`);
      const r3 = ratios(hC3, aC);
      line('ratio Herald 3+1 / anchor (info)', `req/s ${r3.rpsMedian.toFixed(2)}, p99 ${r3.p99Median.toFixed(2)} (the anchor has no equivalent route)`);
    }
    // Every 201 must have stored its post with all its pending targets: runs, warm-ups and the one checked
    // request of each. Requests still in flight when a run stops may be stored without being counted.
    const stored = (await db.query<{ one: number; three: number; other: number }>(
      `SELECT count(*) FILTER (WHERE n = 1)::int AS one, count(*) FILTER (WHERE n = 3)::int AS three, count(*) FILTER (WHERE n NOT IN (1, 3))::int AS other
         FROM (SELECT t.post_id, count(*) AS n FROM post_targets t JOIN posts p ON p.id = t.post_id
                WHERE p.tenant_id = $1 AND t.status = 'pending' GROUP BY t.post_id) x`, [A.userId])).rows[0];
    const answered1 = [...hC, createWarmups[0]].reduce((n, r) => n + r.ok, 1);
    const answered3 = [...hC3, createWarmups[createWarmups.length - 1]].reduce((n, r) => n + r.ok, 1);
    const storedOk = stored.one >= answered1 && stored.three >= answered3 && stored.other === 0;
    line('stored (posts with pending targets)', `${stored.one} with 1 target, ${stored.three} with 3, ${stored.other} other; 201 answers counted ${answered1} and ${answered3}${storedOk ? '' : ' - MISMATCH'}`);
    if (CREATE_ONLY) {
      console.log(`\ntotal ${((Date.now() - startedAt) / 1000).toFixed(1)} s; load average now ${loadavg()}`);
      return;
    }

    // The anchor is done: stop it so that it uses no memory or CPU during the publishing figures.
    await anchor?.stop();
    anchor = null;

    // ---- --scale: the dashboard's filters one request at a time, then EXPLAIN (ANALYZE, BUFFERS) of the hot
    // statements at that size, before the worker runs -----
    if (scale) {
      await runDashboardFilters(db, { tenantId: scale.tenantId, profileId: scale.profileId, platform: 'linkedin' });
      const file = await explainHotStatements(db, { scale, tenant: A, deepOffset: (SCALE_DEEP_PAGE - 1) * 10, pageSize: 10 });
      console.log(`\nEXPLAIN (ANALYZE, BUFFERS) at scale (list, create insert, claim, attempt and finish statements): ${file}`);
    }

    // ---- (d) publish lag, 1,000 posts due at once, three rounds (the goal is on their median); with (g)
    // (--drain-10k or --scale) the rounds alternate (d) and (g) -------------------------------------------------
    worker = await startWorker({ db, publisher: services.publisher, concurrency: WORKER_CONCURRENCY });
    await warmUpDrain();
    // Lead time: four times what creating them would take at (a)'s median rate (the client here shares the
    // server's event loop and has 20 in flight; the first round's creation took 2.2-2.8 times that), plus 2 s;
    // 5-15 s. Later rounds: 1.5 times the previous round's creation, plus 1.5 s (3 s to the first round's).
    const leadMs = Math.min(15_000, Math.max(5_000, (4 * LAG_POSTS * 1000) / (medians(hC).rps || 100) + 2_000));
    const withG = DRAIN_10K || SCALE;
    const lag1k: number[] = [];
    const lag10k: number[] = [];
    let createdMs = leadMs;
    for (let round = 1; round <= DRAIN_ROUNDS; round++) {
      const r = await drain1k(round === 1 ? leadMs : Math.min(leadMs, Math.max(3_000, 1.5 * createdMs + 1_500)), round === 1 ? '' : String(round));
      createdMs = r.createdMs;
      lag1k.push(r.ratio);
      if (withG) lag10k.push((await drain10k(round === 1 ? '' : String(round))).ratio);
    }

    // ---- (e) single-post lag with an idle worker ----------------------------------
    const firstDue = Date.now() + SINGLE_LEAD_MS;
    console.log(`\n(e) single-post lag: ${SINGLE_POSTS} posts due ${SINGLE_GAP_MS} ms apart, idle worker`);
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
    line('lag p50 / p99 / max', `${ms(percentile(singleLags, 50))} / ${ms(percentile(singleLags, 99))} / ${ms(singleLags[singleLags.length - 1] ?? NaN)} (goal p99 < ${GOALS.singleP99} ms: ${verdict(percentile(singleLags, 99) < GOALS.singleP99)})`);
    line('within 2 s of T', `${singleLags.filter((l) => l <= 2_000).length} of ${SINGLE_POSTS}`);

    // ---- (f) bulk CSV upload: 5,000 rows validated and created -----------------------
    console.log(`\n(f) bulk CSV upload: ${BULK_ROWS} rows (POST /v1/posts/bulk-upload), dry run then create`);
    const csvRows = Array.from({ length: BULK_ROWS }, (_, i) => `bluesky,Bench,2031-04-01 10:00,America/New_York,"Bulk post ${i}, with a comma"`);
    for (const dry of [true, false]) {
      const t0 = performance.now();
      const r = await bulkUpload(headers, csvRows, dry);
      const secs = (performance.now() - t0) / 1000;
      line(dry ? 'dry run (validate only)' : 'validate + create', `HTTP ${r.status}, ${r.valid} valid, ${secs.toFixed(2)} s, ${Math.round(BULK_ROWS / secs)} rows/s`);
    }

    // ---- (g) opt-in: 10,000 posts due at once ------------------------------------
    if (!withG) {
      console.log(`\n(g) 10,000 posts due at once: skipped (opt-in: npm run bench -- --drain-10k; adds about 80 s, three rounds)`);
    }

    // ---- (h) opt-in: startup -------------------------------------------------------
    if (STARTUP) await startupRuns(tmp);
    else console.log(`(h) startup (first start with initdb, second on the same data directory): skipped (opt-in: npm run bench -- --startup; adds about 20 s)`);

    // ---- (i) opt-in: memory over 100,000 creates -----------------------------------------
    let rssGrowth: number | null = null;
    if (RSS) {
      rssGrowth = await rssRun({
        DATABASE_URL: dbs.url('herald_bench'), HERALD_DATA_DIR: dataDir, HERALD_SECRET_KEY: secretKeyHex, HERALD_RATE_LIMIT: 'off', HERALD_LOG_LEVEL: 'warn', ...dbs.env,
      }, headers, JSON.stringify({ content: 'Memory run [<id>], scheduled far in the future', scheduledFor: '2035-06-15T09:30', timezone: 'Europe/Paris', platforms: platform1 }));
    } else {
      console.log(`(i) memory over ${RSS_REQUESTS.toLocaleString('en-US')} creates: skipped (opt-in: npm run bench -- --rss; adds about 2-3 min)`);
    }

    // ---- (j) analytics list view (decision 0030): bench/analytics.ts, in its own database and app ----
    console.log(`\n(j) analytics: GET /v1/analytics over 10,000 published posts with 30 days of snapshots, one connection, 2 s per view (bench/analytics.ts)`);
    await runAnalyticsBench({ seconds: 2, connections: 1 });

    // ---- (k) opt-in: AI clipping -----------------------------------------------------------
    let clipsRatio: number | null = null;
    if (CLIPS) {
      console.log('\n(k) AI clipping: a generated 10-minute 720p video through the clip pipeline (bench/clips.ts)');
      const { runClipsBench, printClipsBench } = await import('./clips.ts');
      const r = await runClipsBench({ log: (l) => line('note', l) });
      printClipsBench(r, (l) => line('', l.replace(/^clips: /, '')));
      clipsRatio = r.ratio;
    } else {
      console.log('(k) AI clipping, 10-minute 720p video: skipped (opt-in: npm run bench -- --clips; adds about 80 s, plus about 60 s once to generate the video)');
    }

    // ---- summary -------------------------------------------------------------------
    console.log(`\nsummary against the goals (ratios: median of the rounds, then each round)`);
    if (createRatio) {
      line('(a) create req/s ratio', `${rounds(createRatio.rps)} (${goal(createRatio.rpsMedian, '>=', GOALS.createRps, SCALE_GOALS.createRps)})`);
      line('(a) create p99 ratio', `${rounds(createRatio.p99)} (${goal(createRatio.p99Median, '<=', GOALS.createP99)})`);
    }
    if (listRatio) line(scale ? '(c) list req/s ratio, newest page' : '(c) list req/s ratio', `${rounds(listRatio.rps)} (${goal(listRatio.rpsMedian, '>=', GOALS.listRps, SCALE_GOALS.listRps)})`);
    if (deepRatio) line(`(c) page ${SCALE_DEEP_PAGE} / newest page, req/s`, `${rounds(deepRatio.rps)} (no goal)`);
    if (!createRatio) line('ratios', 'none: the anchor is unavailable');
    line('(d) 1,000 due, drain / ideal', `${rounds(lag1k)} (${goal(med(lag1k), '<=', GOALS.lagRatio1k)})`);
    if (lag10k.length) line('(g) 10,000 due, drain / ideal', `${rounds(lag10k)} (${goal(med(lag10k), '<=', GOALS.lagRatio10k, SCALE_GOALS.lagRatio10k)})`);
    if (rssGrowth !== null) line('(i) API RSS growth, 100,000 creates', `${rssGrowth.toFixed(0)} MiB (goal <= ${GOALS.rssGrowthMiB} MiB: ${verdict(rssGrowth <= GOALS.rssGrowthMiB)})`);
    if (clipsRatio !== null) line('(k) clipping time / video duration', `${clipsRatio.toFixed(3)} (goal < 0.3, i.e. 10 min in under 3 min: ${verdict(clipsRatio < 0.3)})`);
    line('(e) single-post lag p99', `${ms(percentile(singleLags, 99))} (goal < ${GOALS.singleP99} ms: ${verdict(percentile(singleLags, 99) < GOALS.singleP99)})`);

    console.log(`\ntotal ${((Date.now() - startedAt) / 1000).toFixed(1)} s; load average now ${loadavg()}`);
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * `count` posts due at one instant T (a whole second, `leadMs` away) with the worker running:
 * lag = commit start - T; all published = last published_at - T against the ideal
 * count x commit time / concurrency; commits counted against distinct posts.
 */
async function publishLag(o: {
  label: string; prefix: string; count: number; leadMs: number; goal: number; adapter: BenchAdapter; db: Db;
  create: (tIso: string, ids: string[]) => Promise<void>; byContent?: boolean;
}): Promise<{ ratio: number; createdMs: number }> {
  const { adapter, db } = o;
  const T = Math.ceil((Date.now() + o.leadMs) / 1000) * 1000;
  const tIso = new Date(T).toISOString();
  console.log(`\n${o.label} at T = ${tIso}, worker concurrency ${WORKER_CONCURRENCY}, commit ${COMMIT_MS} ms`);
  // Counted incrementally: a scan of every commit so far, 50 times a second, would take Herald's CPU during the drain.
  // From before the creation: when it overruns T, commits start while the posts are still being created.
  let counted = 0;
  let scanned = adapter.commits.length;
  const createStart = Date.now();
  let ids: string[] = new Array(o.count);
  await o.create(tIso, ids);
  const createdMs = Date.now() - createStart;
  line('created in', `${(createdMs / 1000).toFixed(2)} s; T is ${((T - Date.now()) / 1000).toFixed(1)} s away`);
  if (Date.now() >= T) console.log('  WARNING: creating the posts took longer than the lead time; lag figures are skewed');
  if (o.byContent) {
    ids = (await db.query<{ id: string }>(`SELECT id FROM posts WHERE content LIKE $1`, [`${o.prefix}%`])).rows.map((r) => r.id);
  }

  const deadline = T + 120_000;
  let done = { published: 0, failed: 0 };
  // Read before T, so that the drain's first moments carry no query of the bench's own.
  const autovacuumBefore = await autovacuumCounts(db);
  await sleep(Math.max(0, T - Date.now()));
  if (PG_STATS) await db.query('SELECT pg_stat_statements_reset()');
  const elu = performance.eventLoopUtilization();
  const commitCount = () => {
    for (; scanned < adapter.commits.length; scanned++) if (adapter.commits[scanned].text.startsWith(o.prefix)) counted++;
    return counted;
  };
  const finalCounts = () => targetOutcomes(db, ids);
  while (Date.now() < deadline) {
    // Watch the adapter in memory first, so that polling adds no load to the database while it drains.
    if (commitCount() < o.count) { await sleep(20); continue; }
    done = await finalCounts();
    if (done.published + done.failed >= o.count) break;
    await sleep(20);
  }
  if (done.published + done.failed < o.count) done = await finalCounts();
  const eluUsed = performance.eventLoopUtilization(elu).utilization;
  const commits = adapter.commits.filter((c) => c.text.startsWith(o.prefix));
  const lags = commits.map((c) => c.startedAt - T).sort((a, b) => a - b);
  const distinct = new Set(commits.map((c) => c.text)).size;
  const { rows: lastRows } = await db.query<{ last: Date | null }>(
    'SELECT max(published_at) AS last FROM post_targets WHERE post_id = ANY($1::char(24)[])', [ids]);
  const allPublishedMs = lastRows[0].last ? lastRows[0].last.getTime() - T : NaN;
  const lastCommitEnd = Math.max(...commits.map((c) => c.endedAt)) - T;
  const ideal = (o.count * COMMIT_MS) / WORKER_CONCURRENCY;
  const ratio = allPublishedMs / ideal;
  line('targets', `${done.published} published, ${done.failed} failed`);
  line('commits', `${commits.length} (distinct posts ${distinct}, duplicates ${commits.length - distinct})${commits.length === o.count && distinct === o.count ? ' - exactly one commit per post' : ' - MISMATCH'}`);
  line('lag p50 / p99 / max', `${ms(percentile(lags, 50))} / ${ms(percentile(lags, 99))} / ${ms(lags[lags.length - 1] ?? NaN)}`);
  line('first commit started', `T + ${ms(lags[0] ?? NaN)}`);
  line('all published (last published_at)', `T + ${ms(allPublishedMs)} (ideal ${ms(ideal)} = ${o.count} x ${COMMIT_MS} ms / ${WORKER_CONCURRENCY}; ratio ${ratio.toFixed(2)}, goal <= ${o.goal}: ${verdict(ratio <= o.goal)})`);
  line('last commit returned', `T + ${ms(lastCommitEnd)}`);
  line('over the ideal, per slot', drainOverhead(commits, lags[0] ?? NaN, lastCommitEnd, allPublishedMs));
  line('event-loop utilisation (drain)', `${(eluUsed * 100).toFixed(0)}%; load average ${loadavg()}`);
  const autovacuum = autovacuumDuring(autovacuumBefore, await autovacuumCounts(db));
  line('autovacuum (lead and drain)', autovacuum || 'none finished');
  if (PG_STATS) await printPgStats(db, 'drain');
  return { ratio, createdMs };
}

/**
 * Where a drain's time beyond the ideal went, in ms of one slot's time (slot-ms over the worker's
 * concurrency, so the parts add up to all published - ideal): before the first commit; the commits'
 * overrun of their COMMIT_MS (timer and event-loop lateness); slots left idle between the first commit's
 * start and the last one's end (a slot that answered waiting for its next target); after the last commit
 * (its finish written). Slots idle in the last wave because fewer targets than slots were left count as idle.
 * `first` and `last`: the first commit's start and the last commit's end, ms after T.
 */
function drainOverhead(commits: CommitRecord[], first: number, last: number, allPublishedMs: number): string {
  if (commits.length === 0) return 'no commits';
  const busy = commits.reduce((s, c) => s + (c.endedAt - c.startedAt), 0);
  const overrun = (busy - commits.length * COMMIT_MS) / WORKER_CONCURRENCY;
  const idle = (WORKER_CONCURRENCY * (last - first) - busy) / WORKER_CONCURRENCY;
  const f = (n: number) => `${n.toFixed(0)} ms`;
  return `start ${f(first)}, commits' overrun ${f(overrun)}, slots idle ${f(idle)}, finish ${f(allPublishedMs - last)}`;
}

/** How many of the posts' targets are published and how many failed. */
async function targetOutcomes(db: Db, postIds: string[]): Promise<{ published: number; failed: number }> {
  return (await db.query<{ published: number; failed: number }>(
    `SELECT count(*) FILTER (WHERE status = 'published')::int AS published, count(*) FILTER (WHERE status = 'failed')::int AS failed
       FROM post_targets WHERE post_id = ANY($1::char(24)[])`, [postIds])).rows[0];
}

/** Autovacuum and autoanalyze runs finished so far, per table of this database: `table -> [vacuums, analyzes]`. */
async function autovacuumCounts(db: Db): Promise<Map<string, [number, number]>> {
  const { rows } = await db.query<{ relname: string; v: string; a: string }>(
    'SELECT relname, autovacuum_count AS v, autoanalyze_count AS a FROM pg_stat_user_tables');
  return new Map(rows.map((r) => [r.relname, [Number(r.v), Number(r.a)]]));
}

/** The runs finished between two {@link autovacuumCounts}, as "post_targets: vacuum 1, analyze 1; ..." (empty: none). */
function autovacuumDuring(before: Map<string, [number, number]>, after: Map<string, [number, number]>): string {
  const parts: string[] = [];
  for (const [table, [v, a]] of after) {
    const [v0, a0] = before.get(table) ?? [0, 0];
    const runs = [v > v0 && `vacuum ${v - v0}`, a > a0 && `analyze ${a - a0}`].filter(Boolean);
    if (runs.length) parts.push(`${table}: ${runs.join(', ')}`);
  }
  return parts.join('; ');
}

/** The statements with the most execution time since the last reset (pg_stat_statements), with calls, rows and mean time. */
async function printPgStats(db: Db, what: string): Promise<void> {
  const { rows } = await db.query<{ calls: string; plans: string; plan_mean: number; rows: string; total: number; mean: number; wal: string; fpi: string; query: string }>(
    `SELECT calls, plans, total_plan_time / greatest(plans, 1) AS plan_mean, rows, total_exec_time AS total, mean_exec_time AS mean,
            wal_bytes AS wal, wal_fpi AS fpi, query FROM pg_stat_statements
      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      ORDER BY total_exec_time DESC LIMIT 12`);
  const all = (await db.query<{ total: number; wal: string; fpi: string; records: string }>(
    `SELECT sum(total_exec_time) AS total, sum(wal_bytes) AS wal, sum(wal_fpi) AS fpi, sum(wal_records) AS records FROM pg_stat_statements
      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`)).rows[0];
  line(`PostgreSQL statements (${what})`, `${Number(all.total).toFixed(0)} ms executing in all, ${(Number(all.wal) / 1e6).toFixed(1)} MB WAL `
    + `(${all.records} records, ${all.fpi} full-page images); top by time (plans: how often PostgreSQL planned it, as often as calls for a statement planned on every call; `
    + 'WAL: bytes per call, full-page images per 100 calls):');
  for (const r of rows) {
    const planned = Number(r.plans) > 0 ? ` ${String(r.plans).padStart(7)} plans ${Number(r.plan_mean).toFixed(2)} ms` : '';
    const calls = Math.max(1, Number(r.calls));
    const wal = ` WAL ${(Number(r.wal) / calls).toFixed(0).padStart(6)} B ${(Number(r.fpi) * 100 / calls).toFixed(1).padStart(5)} FPI`;
    console.log(`    ${Number(r.total).toFixed(0).padStart(7)} ms ${String(r.calls).padStart(7)} calls ${Number(r.mean).toFixed(2).padStart(7)} ms mean ${String(r.rows).padStart(7)} rows${planned}${wal}  ${r.query.replace(/\s+/g, ' ').slice(0, 100)}`);
  }
}

/** CPU-profiles this process's main thread (the Herald server) during one run of each target. */
async function profileRuns(create: LoadTarget, list: LoadTarget, db: Db): Promise<void> {
  const outDir = path.join(REPO_ROOT, 'bench', 'profiles');
  fs.mkdirSync(outDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  for (const [name, t] of [['list', list], ['create', create]] as const) { // list first: the table holds only the seeded posts
    console.log(`\nprofile: ${name} ${t.method} ${t.url.replace(/^http:\/\/[^/]+/, '')}, ${LOAD.connections} connections, ${PROFILE_SECONDS} s after ${LOAD.warmupSeconds} s warm-up`);
    await runOnce({ ...t, measure: undefined }, { connections: LOAD.connections, seconds: LOAD.warmupSeconds });
    await session.post('Profiler.start');
    const f: RunFigures = await runOnce(t, { connections: LOAD.connections, seconds: PROFILE_SECONDS });
    const { profile } = await session.post('Profiler.stop');
    const file = path.join(outDir, `${name}-${stamp}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
    line('under the profiler', `${f.rps.toFixed(0)} req/s, p50 ${ms(f.p50)}, p99 ${ms(f.p99)}, ${f.note}; cpu/req server ${f.serverCpuPerReq.toFixed(2)} ms, pg ${f.pgCpuPerReq.toFixed(2)} ms; load average ${loadavg()}`);
    line('written', path.relative(REPO_ROOT, file));
    printSummary(summarise(profile as unknown as CpuProfile, 25), `${name} profile`);
    await countQueries(t, 200, db);
  }
  session.disconnect();
}

/**
 * Counts the SQL statements (pg Client.query calls in this process) and the socket writes
 * that `n` sequential requests to `t` cause, grouped by statement.
 */
async function countQueries(t: LoadTarget, n: number, db: Db): Promise<void> {
  await sleep(1_000); // let the requests still in flight from the load run finish
  type QueryFn = (this: pg.Client, ...args: unknown[]) => unknown;
  const proto = pg.Client.prototype as unknown as { query: QueryFn };
  const original = proto.query;
  const seen = new Map<string, { count: number; text: string; values: unknown }>();
  proto.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; values?: unknown };
    const text = typeof first === 'string' ? first : first?.text ?? '?';
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 90);
    const s = seen.get(key);
    if (s) s.count++; else seen.set(key, { count: 1, text, values: typeof first === 'string' ? args[1] : first?.values });
    return original.apply(this, args);
  };
  try {
    for (let i = 0; i < n; i++) {
      // A new id per request, as autocannon's idReplacement gives (the same content twice would be a 409 duplicate).
      const res = await fetch(t.url, { method: t.method, headers: t.headers, body: t.body?.replaceAll('[<id>]', `sql-${Date.now()}-${i}`) });
      if (res.status >= 300) throw new Error(`${t.label} answered ${res.status} while counting statements: ${(await res.text()).slice(0, 300)}`);
      await res.arrayBuffer();
    }
  } finally {
    proto.query = original;
  }
  const total = [...seen.values()].reduce((a, b) => a + b.count, 0);
  console.log(`\n  SQL statements per request (${n} sequential requests): ${(total / n).toFixed(2)}`);
  for (const [key, v] of [...seen].sort((a, b) => b[1].count - a[1].count)) console.log(`    ${(v.count / n).toFixed(2).padStart(6)}  ${key}`);
  // The read-only ones, explained with the values of their first call (EXPLAIN ANALYZE runs them once more).
  for (const [key, v] of seen) {
    if (!/^\s*SELECT/i.test(v.text)) continue;
    const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${v.text}`, v.values as unknown[]);
    console.log(`\n  EXPLAIN ANALYZE ${key}`);
    for (const r of rows) console.log(`    ${r['QUERY PLAN']}`);
  }
}

/** `herald start` twice on one data directory: time until /health answers, first (initdb) and second start. */
async function startupRuns(tmp: string): Promise<void> {
  console.log(`\n(h) startup: node bin/herald.js start on a fresh data directory, then again on it (time until GET /health answers)`);
  const dataDir = path.join(tmp, 'startup');
  fs.mkdirSync(dataDir, { mode: 0o755 });
  const pgPort = await freePort();
  for (const which of ['first (initdb)', 'second (existing data directory)']) {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, HERALD_DATA_DIR: dataDir, PORT: String(port), HERALD_EMBEDDED_PG_PORT: String(pgPort), HERALD_LOG_LEVEL: 'warn' };
    delete env.DATABASE_URL;
    const t0 = performance.now();
    const child = spawn(process.execPath, [...HERALD_NODE_FLAGS, path.join(REPO_ROOT, 'bin/herald.js'), 'start'], {
      cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'],
      env,
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
    let answered = NaN;
    let status = 0;
    while (performance.now() - t0 < 60_000 && child.exitCode === null) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        status = res.status;
        await res.arrayBuffer();
        answered = performance.now() - t0;
        break;
      } catch {
        await sleep(25);
      }
    }
    const exited = new Promise<void>((r) => { if (child.exitCode !== null) r(); else child.once('exit', () => r()); });
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(killer);
    const goal = which.startsWith('first') ? GOALS.firstStartMs : GOALS.secondStartMs;
    line(which, Number.isFinite(answered)
      ? `/health answered ${status} after ${(answered / 1000).toFixed(2)} s (goal <= ${goal / 1000} s: ${verdict(answered <= goal)})`
      : `no answer within 60 s: ${stderr.slice(-500)}`);
  }
}

/**
 * (i) `node bin/herald.js api` as a child process on the bench's database (so that its memory is
 * Herald's alone), loaded with RSS_REQUESTS creates (50 connections); its RSS sampled every
 * second, then 15 s idle (sampleRss in bench/child.ts). Growth = the RSS after the idle time minus
 * the RSS at 10% of the run (start-up and first allocations excluded): what the requests left
 * behind. Answers the growth in MiB.
 */
async function rssRun(env: Record<string, string>, headers: Record<string, string>, body: string): Promise<number> {
  console.log(`\n(i) memory: ${RSS_REQUESTS.toLocaleString('en-US')} creates (50 connections) against \`node bin/herald.js api\` in its own process, same database; RSS sampled every second`);
  const port = await freePort();
  const child = spawn(process.execPath, [...HERALD_NODE_FLAGS, path.join(REPO_ROOT, 'bin/herald.js'), 'api'], {
    cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env, PORT: String(port) },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  try {
    const t0 = performance.now();
    for (;;) {
      if (child.exitCode !== null || performance.now() - t0 > 60_000) throw new Error(`herald api did not start (exit code ${child.exitCode}): ${stderr.slice(-500)}`);
      // Any answer will do: /health says 503 when no worker is alive, and this process has none.
      try { await (await fetch(`http://127.0.0.1:${port}/health`)).arrayBuffer(); break; } catch { /* not yet */ }
      await sleep(50);
    }
    return await sampleRss(child.pid!, async () => {
      const r = await autocannon({ url: `http://127.0.0.1:${port}/v1/posts`, method: 'POST', headers, body, connections: 50, amount: RSS_REQUESTS, workers: 1, timeout: 30, idReplacement: true });
      return (secs) => [['answers', `${r['2xx']} x 2xx, ${r.non2xx} other, ${r.errors} errors in ${secs.toFixed(1)} s (${Math.round(r['2xx'] / secs)} req/s)`]];
    });
  } finally {
    const exited = new Promise<void>((res) => { if (child.exitCode !== null) res(); else child.once('exit', () => res()); });
    child.kill('SIGTERM');
    await exited;
  }
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
