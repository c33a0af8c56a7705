/**
 * The metrics endpoint of a process without the API: `herald worker` with HERALD_METRICS=on serves
 * GET /metrics (the same series and token rule as the API's, src/observability/routes.ts) on its
 * own PORT, so that a split-role deployment can scrape the publish lag and lateness, which only
 * worker processes observe.
 */
import Fastify from 'fastify';
import type { Db } from '../storage/db.ts';
import { registerMetrics } from './routes.ts';

export interface MetricsServer {
  /** `http://host:port` it listens on. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts GET /metrics on `port` and `host` (nothing else is served: other paths answer 404).
 * @throws the listen error (e.g. EADDRINUSE) so that the process does not start half-observed.
 */
export async function startMetricsServer(opts: { port: number; host: string; token: string | null; db: Db }): Promise<MetricsServer> {
  const app = Fastify({ logger: false });
  registerMetrics(app, { token: opts.token, db: opts.db });
  const url = await app.listen({ port: opts.port, host: opts.host });
  return { url, close: () => app.close() };
}
