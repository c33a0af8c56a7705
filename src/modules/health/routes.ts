/**
 * GET /health: the database (within its own short timeout, HERALD_DB_HEALTH_TIMEOUT_MS), the
 * workers' last heartbeat and the disk uploads are written to; 200 when all are fine, else 503
 * with the same body (docs/decisions/0044-database-failures.md).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../services.ts';

/** A worker heartbeat older than this marks the worker as not alive. */
const WORKER_FRESH_MS = 30_000;

/** The /health route (no authentication): load balancers and monitors poll it. */
export const healthRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'config' | 'db' | 'diskSpace' | 'mediaStorage'> }> = async (app, { services }) => {
  const Health = Type.Object({
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
    database: Type.Object({ ok: Type.Boolean(), latencyMs: Type.Optional(Type.Number()), error: Type.Optional(Type.String()) }),
    worker: Type.Object({ ok: Type.Boolean(), lastHeartbeat: Type.Union([Type.String(), Type.Null()]), workers: Type.Integer() }),
    storage: Type.Object({
      ok: Type.Boolean({ description: 'False while free space is under HERALD_MEDIA_MIN_FREE_MB, or after a write failed for a full disk (until one succeeds, at most 10 minutes)' }),
      kind: Type.Union([Type.Literal('local'), Type.Literal('s3')], { description: 'Media storage backend; uploads are staged on local disk either way' }),
      freeBytes: Type.Union([Type.Integer(), Type.Null()], { description: 'Free space of the disk uploads are written to (the media folder on local storage, and the staging folder)' }),
      minFreeBytes: Type.Integer(),
      lastFullAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When a write last failed for a full disk, while it counts' }),
      error: Type.Optional(Type.String()),
    }),
    time: Type.String(),
    sandbox: Type.Boolean({ description: 'True in sandbox mode (HERALD_SANDBOX=on): platforms are local simulators' }),
  });
  app.get('/health', {
    schema: {
      tags: ['Operations'], summary: 'Database reachability, the workers\' last heartbeat and the upload disk\'s free space',
      response: { 200: Health, 503: Health },
    },
  }, async (_req, reply) => {
    const started = Date.now();
    let database: { ok: boolean; latencyMs?: number; error?: string };
    let worker = { ok: false, lastHeartbeat: null as string | null, workers: 0 };
    const storage = services.diskSpace.check();
    try {
      const { rows } = await services.db.queryWithin<{ last: Date | null; n: number }>(services.config.db.healthTimeoutMs,
        `SELECT max(heartbeat_at) AS last, count(*) FILTER (WHERE heartbeat_at > now() - make_interval(secs => $1) AND id LIKE 'worker-%')::int AS n FROM workers WHERE id LIKE 'worker-%'`,
        [WORKER_FRESH_MS / 1000]);
      database = { ok: true, latencyMs: Date.now() - started };
      worker = { ok: rows[0].n > 0, lastHeartbeat: rows[0].last ? rows[0].last.toISOString() : null, workers: rows[0].n };
    } catch (err) {
      database = { ok: false, error: (err as Error).message };
    }
    const disk = { kind: services.mediaStorage.kind, ...await storage };
    const ok = database.ok && worker.ok && disk.ok;
    return reply.status(ok ? 200 : 503).send({
      status: ok ? 'ok' : 'degraded', database, worker, storage: disk, time: new Date().toISOString(), sandbox: services.config.sandbox,
    });
  });
};
