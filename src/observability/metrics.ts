/**
 * Prometheus metrics (prom-client), served at GET /metrics when HERALD_METRICS=on
 * (docs/decisions/0039-publishing-logs-health-unpublish.md). One registry per process:
 * modules add their own series to {@link registry} (e.g. webhook deliveries:
 * `new Counter({ name: 'herald_webhook_deliveries_total', ..., registers: [registry] })`).
 *
 * Series here: HTTP requests and latencies by route template, publish outcomes and lag by
 * platform (incremented in memory by the publisher), and at scrape time the queue depth
 * (due and waiting targets) and the database pool's usage.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../storage/db.ts';

/** The process's registry: every Herald series registers here. */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'herald_process_' });

/** Requests by method, route template (`/v1/posts/:postId`, never the raw URL) and status code. */
export const httpRequests = new Counter({
  name: 'herald_http_requests_total', help: 'HTTP requests by method, route and status code',
  labelNames: ['method', 'route', 'status'] as const, registers: [registry],
});

/** Request durations (seconds) by method and route template. */
export const httpDuration = new Histogram({
  name: 'herald_http_request_duration_seconds', help: 'HTTP request duration by method and route, seconds',
  labelNames: ['method', 'route'] as const, buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [registry],
});

/** Finished publish runs by platform and result (published, failed, retry). */
export const publishOutcomes = new Counter({
  name: 'herald_publish_outcomes_total', help: 'Publish runs by platform and result (published, failed, retry)',
  labelNames: ['platform', 'outcome'] as const, registers: [registry],
});

/**
 * Seconds from a post's scheduled time to its publication on the platform, by platform: how late
 * Herald published (workers down, retries, rate limits), observed when a target is published.
 */
export const publishLateness = new Histogram({
  name: 'herald_publish_lateness_seconds', help: 'Delay from a post\'s scheduled time to its publication on the platform, by platform, seconds',
  labelNames: ['platform'] as const, buckets: [1, 5, 15, 30, 60, 120, 300, 900, 3600, 21600], registers: [registry],
});

/** Seconds from a target's due time to the start of its run, by platform. */
export const publishLag = new Histogram({
  name: 'herald_publish_lag_seconds', help: 'Delay from a target\'s due time to the start of its publish run, by platform, seconds',
  labelNames: ['platform'] as const, buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 900], registers: [registry],
});

let source: Db | null = null;

new Gauge({
  name: 'herald_queue_depth', help: 'Targets waiting to be published: due now (state due), later (state scheduled), running (state publishing)',
  labelNames: ['state'] as const, registers: [registry],
  async collect() {
    if (!source) return;
    const { rows } = await source.query<{ due: number; scheduled: number; publishing: number }>(
      `SELECT count(*) FILTER (WHERE status = 'pending' AND run_at <= now())::int AS due,
              count(*) FILTER (WHERE status = 'pending' AND run_at > now())::int AS scheduled,
              count(*) FILTER (WHERE status = 'publishing')::int AS publishing
         FROM post_targets WHERE status IN ('pending', 'publishing')`);
    for (const [state, n] of Object.entries(rows[0])) this.set({ state }, n);
  },
});

new Gauge({
  name: 'herald_db_pool_connections', help: 'Database pool connections by state (total, idle, waiting clients)',
  labelNames: ['state'] as const, registers: [registry],
  collect() {
    if (!source) return;
    const p = source.pool;
    this.set({ state: 'total' }, p.totalCount);
    this.set({ state: 'idle' }, p.idleCount);
    this.set({ state: 'waiting' }, p.waitingCount);
  },
});

/** Gives the scrape-time gauges (queue depth, pool) their database. */
export function observeDatabase(db: Db): void {
  source = db;
}

/** The exposition text and its content type. */
export async function scrape(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
