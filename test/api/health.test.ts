import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublisher } from '../../src/publishing/publisher.ts';
import { startWorker } from '../../src/publishing/worker.ts';
import { createTestApp, type TestContext } from '../support/app.ts';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestApp(); });
afterAll(async () => { await ctx.close(); });

describe('GET /health', () => {
  it('is 503 without a live worker and 200 with one, reporting the heartbeat', async () => {
    const before = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(before.statusCode).toBe(503);
    expect(before.json()).toMatchObject({ status: 'degraded', database: { ok: true }, worker: { ok: false } });
    const s = ctx.services;
    const publisher = createPublisher({ db: ctx.db, accounts: s.accountsRepository, adapters: s.adapters, mediaStorage: s.mediaStorage, config: ctx.config, clock: s.clock, workerId: `worker-health-${process.pid}` });
    const worker = await startWorker({ db: ctx.db, publisher, concurrency: 1 });
    try {
      const after = await ctx.app.inject({ method: 'GET', url: '/health' });
      expect(after.statusCode).toBe(200);
      expect(after.json()).toMatchObject({ status: 'ok', worker: { ok: true, workers: 1 } });
      expect(Date.now() - new Date(after.json().worker.lastHeartbeat).getTime()).toBeLessThan(60_000);
    } finally {
      await worker.stop(1_000);
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(503);
  });

  it('serves the OpenAPI document without a key, listing the routes', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    for (const p of ['/v1/posts', '/v1/posts/{postId}', '/v1/posts/{postId}/retry', '/v1/profiles', '/v1/api-keys', '/v1/usage-stats', '/v1/media', '/v1/connect/bluesky/credentials', '/v1/accounts']) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
  });
});
