/**
 * The process shell: parses configuration, opens the runtime, starts the requested
 * roles (`start` = api + worker, `api`, `worker`) and shuts down gracefully on
 * SIGTERM/SIGINT (stop accepting requests, finish or release running publishes, stop
 * the embedded PostgreSQL this process started).
 */
import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import type { Config } from './config.ts';
import type { App } from './http/app.ts';
import type { Heartbeat, Worker } from './publishing/worker.ts';
import type { ClipWorker } from './clips/worker.ts';
import type { WebhookWorker } from './publishing/webhook-delivery.ts';
import type { FeedPoller } from './modules/feeds/poller.ts';
import { openRuntime } from './runtime.ts';
import type { Sandbox } from './sandbox/index.ts';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';

export type Role = 'start' | 'api' | 'worker';

export interface RunningHerald {
  app: App | null;
  worker: Worker | null;
  url: string | null;
  close(): Promise<void>;
}

/**
 * The application's modules, loaded on demand: most of a start's CPU goes to loading them, so
 * runHerald loads them while PostgreSQL starts (a separate process) instead of before.
 */
async function loadModules() {
  const [app, worker, clips, services, sandbox] = await Promise.all([
    import('./http/app.ts'), import('./publishing/worker.ts'), import('./clips/worker.ts'), import('./services.ts'), import('./sandbox/index.ts'),
  ]);
  return {
    buildApp: app.buildApp, startHeartbeat: worker.startHeartbeat, startWorker: worker.startWorker, startClipWorker: clips.startClipWorker,
    createServices: services.createServices, startSandbox: sandbox.startSandbox,
  };
}

export async function runHerald(config: Config, role: Role, opts: { installSignalHandlers?: boolean } = {}): Promise<RunningHerald> {
  const logger = pino({ level: config.logLevel, base: { pid: process.pid, role } });
  const loading = loadModules();
  loading.catch(() => {}); // awaited below; a failed start must not also report it unhandled
  const runtime = await openRuntime(config, { applicationName: `herald-${role}`, log: (m) => logger.debug(m) });
  const { buildApp, startHeartbeat, startWorker, startClipWorker, createServices, startSandbox } = await loading.catch(async (err) => {
    await runtime.close();
    throw err;
  });
  const processId = `${role === 'worker' ? 'worker' : role === 'api' ? 'api' : 'worker'}-${hostname()}-${process.pid}-${Date.now().toString(36)}`;
  // Sandbox mode: the simulators run inside this process, so a separate worker process cannot reach them.
  let sandbox: Sandbox | null = null;
  if (config.sandbox) {
    if (role === 'worker') {
      await runtime.close();
      throw new Error('HERALD_SANDBOX=on runs the platform simulators inside the API process, which a separate worker cannot reach: use "start" (API and worker in one process)');
    }
    if (role === 'api') logger.warn('sandbox: with the "api" role only posts published at once (publishNow) reach the simulators; scheduled posts need "start" (API and worker in one process)');
    sandbox = await startSandbox({ log: logger, env: process.env }).catch(async (err) => { await runtime.close(); throw err; });
  }
  const services = createServices({ config, db: runtime.db, secretKeyHex: runtime.secretKeyHex, processId, sandbox, log: logger });

  let app: App | null = null;
  let worker: Worker | null = null;
  let heartbeat: Heartbeat | null = null;
  let clipWorker: ClipWorker | null = null;
  let webhookWorker: WebhookWorker | null = null;
  let feedPoller: FeedPoller | null = null;
  let url: string | null = null;
  let metricsServer: { url: string; close(): Promise<void> } | null = null;
  try {

  if (role !== 'worker') {
    // First start on an empty database: create the root user and print its key once.
    if ((await services.users.count()) === 0) {
      // A random dashboard password too, so that /dashboard works right after the first start.
      const email = 'admin@localhost.localdomain';
      const password = randomBytes(12).toString('base64url');
      const { userId } = await services.users.createRootUser({ email, password, name: 'Admin', plan: 'advanced' });
      const key = await services.apiKeys.create({ tenantId: userId, userId }, { name: 'Initial key' });
      process.stdout.write(`${JSON.stringify({ message: 'Herald created the first user. This API key and the dashboard password are shown only once.', userId, apiKey: key.key, email, password })}\n`);
    }
    app = await buildApp({ services, logger });
    url = await app.listen({ port: config.port, host: config.host });
  }
  if (role === 'api') heartbeat = await startHeartbeat(runtime.db, services.publisher, Math.min(5_000, Math.max(250, config.workerStaleMs / 3)), { instance: config.dataDir, log: logger });
  if (role !== 'api') {
    worker = await startWorker({
      db: runtime.db, publisher: services.publisher, concurrency: config.workerConcurrency,
      pollMs: config.workerPollMs, staleMs: config.workerStaleMs, log: logger, instance: config.dataDir,
      tokenRefresh: { adapters: services.adapters, accounts: services.accountsRepository },
      metricsRefresh: { run: () => services.analytics.refreshDue() },
      // Hourly: old log entries and claims; temporary media files past 7 days, settled presigned uploads (decision 0066).
      prune: { run: async () => ({ ...(await services.publishingLog.pruneExpired()), ...(await services.presign.maintenance()) }) },
      recycle: { run: () => services.posts.recycleDue() },
    });
    logger.info({ workerId: worker.id, concurrency: config.workerConcurrency }, 'worker started');
    // A worker process without the API serves its own /metrics (publish lag and lateness are observed here).
    if (role === 'worker' && config.metrics.enabled) {
      const { startMetricsServer } = await import('./observability/server.ts');
      metricsServer = await startMetricsServer({ port: config.port, host: config.host, token: config.metrics.token, db: runtime.db });
      logger.info({ url: `${metricsServer.url}/metrics` }, 'worker metrics listening');
    }
    // AI clipping jobs (src/clips/worker.ts): CPU-heavy, HERALD_CLIPS_CONCURRENCY at a time.
    clipWorker = startClipWorker({ clips: services.videoClips, workerId: processId, concurrency: config.clips.concurrency, staleMs: config.workerStaleMs, pollMs: config.workerPollMs, log: logger });
    // Webhook deliveries from the outbox (src/publishing/webhook-delivery.ts), HERALD_WEBHOOK_CONCURRENCY at a time.
    const { startWebhookWorker } = await import('./publishing/webhook-delivery.ts');
    webhookWorker = startWebhookWorker({ webhooks: services.webhooks, workerId: processId, concurrency: config.webhooks.concurrency, pollMs: Math.min(config.workerPollMs, 250), log: logger });
    // Followed feeds (RSS to queue, decision 0065), each leased to one worker at a time.
    const { startFeedPoller } = await import('./modules/feeds/poller.ts');
    feedPoller = startFeedPoller({ feeds: services.feeds, log: logger });
  }
  } catch (err) {
    await app?.close().catch(() => {});
    await metricsServer?.close().catch(() => {});
    await clipWorker?.stop().catch(() => {});
    await webhookWorker?.stop().catch(() => {});
    await feedPoller?.stop().catch(() => {});
    await worker?.stop(1_000).catch(() => {});
    await sandbox?.close().catch(() => {});
    await runtime.close();
    throw err;
  }
  if (url) logger.info({ url, docs: `${url}/v1/openapi.json`, ...(sandbox ? { sandbox: `${url}/v1/sandbox` } : {}) }, sandbox ? 'Herald is listening (SANDBOX MODE)' : 'Herald is listening');

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    if (app) await app.close();
    if (metricsServer) await metricsServer.close();
    if (clipWorker) await clipWorker.stop();
    if (webhookWorker) await webhookWorker.stop();
    if (feedPoller) await feedPoller.stop();
    if (worker) await worker.stop();
    if (heartbeat) await heartbeat.stop();
    if (sandbox) await sandbox.close();
    await runtime.close();
    logger.info('Herald stopped');
  };
  if (opts.installSignalHandlers !== false) {
    closeWithGrace({ delay: 30_000 }, async ({ signal, err }) => {
      if (err) logger.error({ err }, 'fatal error, shutting down');
      else logger.info({ signal }, 'shutting down');
      await close();
    });
  }
  return { app, worker, url, close };
}
