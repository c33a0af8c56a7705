/**
 * GET /health: the database (within its own short timeout, HERALD_DB_HEALTH_TIMEOUT_MS) and the
 * workers' last heartbeat; 200 when both are fine, else 503 with the same body
 * (docs/decisions/0044-database-failures.md).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../services.ts';

/** A worker heartbeat older than this marks the worker as not alive. */
const WORKER_FRESH_MS = 30_000;

/** The /health route (no authentication): load balancers and monitors poll it. */
export const healthRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const Health = Type.Object({
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
    database: Type.Object({ ok: Type.Boolean(), latencyMs: Type.Optional(Type.Number()), error: Type.Optional(Type.String()) }),
    worker: Type.Object({ ok: Type.Boolean(), lastHeartbeat: Type.Union([Type.String(), Type.Null()]), workers: Type.Integer() }),
    time: Type.String(),
    sandbox: Type.Boolean({ description: 'True in sandbox mode (HERALD_SANDBOX=on): platforms are local simulators' }),
  });
  app.get('/health', {
    schema: { tags: ['Operations'], summary: 'Database reachability and the workers\' last heartbeat', response: { 200: Health, 503: Health } },
  }, async (_req, reply) => {
    const started = Date.now();
    let database: { ok: boolean; latencyMs?: number; error?: string };
    let worker = { ok: false, lastHeartbeat: null as string | null, workers: 0 };
    try {
      const { rows } = await services.db.queryWithin<{ last: Date | null; n: number }>(services.config.db.healthTimeoutMs,
        `SELECT max(heartbeat_at) AS last, count(*) FILTER (WHERE heartbeat_at > now() - make_interval(secs => $1) AND id LIKE 'worker-%')::int AS n FROM workers WHERE id LIKE 'worker-%'`,
        [WORKER_FRESH_MS / 1000]);
      database = { ok: true, latencyMs: Date.now() - started };
      worker = { ok: rows[0].n > 0, lastHeartbeat: rows[0].last ? rows[0].last.toISOString() : null, workers: rows[0].n };
    } catch (err) {
      database = { ok: false, error: (err as Error).message };
    }
    const ok = database.ok && worker.ok;
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', database, worker, time: new Date().toISOString(), sandbox: services.config.sandbox });
  });
};
