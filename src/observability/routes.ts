/**
 * GET /metrics (Prometheus text format), registered only when HERALD_METRICS=on. With
 * HERALD_METRICS_TOKEN set, the scraper must send `Authorization: Bearer <token>`; others get 401.
 * Also records every request's route, status and duration.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../storage/db.ts';
import { httpDuration, httpRequests, observeDatabase, scrape } from './metrics.ts';

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Adds the request hook and GET /metrics to the root app (not as an encapsulated plugin, so the
 * hook sees every route registered after it). `db` feeds the queue-depth and pool gauges.
 */
export function registerMetrics(app: FastifyInstance, opts: { token: string | null; db: Db }): void {
  observeDatabase(opts.db);
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    httpRequests.inc({ method: req.method, route, status: String(reply.statusCode) });
    httpDuration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (opts.token) {
      const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
      if (!m || !sameToken(m[1], opts.token)) {
        return reply.status(401).header('www-authenticate', 'Bearer').send({ error: 'A valid metrics token is required', code: 'UNAUTHORIZED' });
      }
    }
    const { contentType, body } = await scrape();
    return reply.header('content-type', contentType).send(body);
  });
}
