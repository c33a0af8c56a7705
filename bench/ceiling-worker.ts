/**
 * One Herald worker in its own process, for the bench (--ceiling, --worker-rss): builds the
 * services on the bench's database as bench/run.ts does in-process (createServices, the adapter
 * registry with the bench adapter for Bluesky) and starts `startWorker` as src/main.ts does for the
 * publishing part (no token refresh, analytics, recycling or prune passes: nothing of theirs is due).
 * Spawned by the bench with an IPC channel; not a command of its own.
 *
 * Environment: DATABASE_URL, HERALD_DATA_DIR, HERALD_SECRET_KEY (as the bench's own), HERALD_DB_POOL_SIZE
 * (optional, Herald's default 10), BENCH_COMMIT_MS (the adapter's commit time), BENCH_CONCURRENCY
 * (the worker's), BENCH_RECORD=0 (keep only a count of commits, no record each: --worker-rss).
 *
 * Messages to the parent: `{ type: 'loaded', pool, concurrency }` once the services are built; the
 * parent answers `{ type: 'start' }` when it wants the worker to run (so that several processes start
 * together), then `{ type: 'ready' }` once it runs; then every 200 ms while commits happen
 * `{ type: 'progress', committed, commits: [[text, startedAt], ...] }` (the records since the last
 * message; none with BENCH_RECORD=0). On `{ type: 'stop' }` it stops the worker, closes its pool,
 * answers `{ type: 'stopped' }` and exits.
 */
import os from 'node:os';
import { loadConfig } from '../src/config.ts';
import { createAdapterRegistry } from '../src/platforms/registry.ts';
import { startWorker } from '../src/publishing/worker.ts';
import { createServices } from '../src/services.ts';
import { createDb } from '../src/storage/db.ts';
import { BenchAdapter } from './bench-adapter.ts';

const env = process.env;
const send = (m: object) => process.send?.(m);
const config = loadConfig({
  DATABASE_URL: env.DATABASE_URL!, HERALD_DATA_DIR: env.HERALD_DATA_DIR!, HERALD_SECRET_KEY: env.HERALD_SECRET_KEY!,
  HERALD_RATE_LIMIT: 'off', HERALD_LOG_LEVEL: 'silent', PORT: '0',
  ...(env.HERALD_DB_POOL_SIZE ? { HERALD_DB_POOL_SIZE: env.HERALD_DB_POOL_SIZE } : {}),
});
const concurrency = Number(env.BENCH_CONCURRENCY ?? 50);
const adapter = new BenchAdapter({ commitMs: Number(env.BENCH_COMMIT_MS ?? 50), record: env.BENCH_RECORD !== '0' });
const db = createDb(env.DATABASE_URL!, { max: config.dbPoolSize, applicationName: 'herald-bench-worker' });
const services = createServices({
  config, db, secretKeyHex: env.HERALD_SECRET_KEY!, processId: `bench-worker-${os.hostname()}-${process.pid}`,
  adapters: createAdapterRegistry(config, { bluesky: adapter }),
});
let worker: Awaited<ReturnType<typeof startWorker>> | null = null;
send({ type: 'loaded', pool: config.dbPoolSize, concurrency });

let sent = 0;
let reported = 0;
const progress = setInterval(() => {
  if (adapter.committed === reported) return;
  reported = adapter.committed;
  const commits = adapter.commits.slice(sent).map((c) => [c.text, c.startedAt]);
  sent = adapter.commits.length;
  send({ type: 'progress', committed: adapter.committed, commits });
}, 200);

process.on('message', (m: { type?: string }) => {
  if (m?.type === 'start' && !worker) {
    void startWorker({ db, publisher: services.publisher, concurrency }).then((w) => { worker = w; send({ type: 'ready' }); });
    return;
  }
  if (m?.type !== 'stop') return;
  clearInterval(progress);
  void (async () => {
    await worker?.stop(5_000).catch(() => {});
    await db.close().catch(() => {});
    send({ type: 'stopped' });
    process.disconnect?.();
    process.exit(0);
  })();
});
// The bench went away: stop too.
process.on('disconnect', () => { void (worker?.stop(1_000) ?? Promise.resolve()).finally(() => process.exit(0)); });
