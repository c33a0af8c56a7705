/**
 * GET /metrics: Prometheus text with request counts by route template, publish outcomes and lag
 * by platform, queue depth and pool usage; protected by HERALD_METRICS_TOKEN; absent when off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type TestContext } from '../support/app.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';
import { runDue, startTestPublisher } from '../support/publishing.ts';

const TOKEN = 'metrics-token-0123456789';
let ctx: TestContext;
let off: TestContext;

beforeAll(async () => {
  ctx = await createTestApp({
    env: { HERALD_METRICS: 'on', HERALD_METRICS_TOKEN: TOKEN },
    deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: new ScriptedAdapter() }) },
  });
  off = await createTestApp({ databaseUrl: ctx.databaseUrl });
});
afterAll(async () => { await off.close(); await ctx.close(); });

const scrape = async () => {
  const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return res.body;
};

/** The value of a series line whose name and labels contain all of `parts`. */
const value = (text: string, ...parts: string[]) => {
  const line = text.split('\n').find((l) => !l.startsWith('#') && parts.every((p) => l.includes(p)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
};

describe('GET /metrics', () => {
  it('refuses a scraper without the token', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong-token-0123456789' } })).statusCode).toBe(401);
  });

  it('counts requests by route template, publish outcomes by platform, the queue and the pool', async () => {
    const tenant = await createTenant(ctx);
    const acc = await insertAccount(ctx, tenant, await createProfile(ctx, tenant));
    const before = await scrape();
    const published0 = value(before, 'herald_publish_outcomes_total{', 'platform="bluesky"', 'outcome="published"') ?? 0;
    const created = await ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: tenant.headers,
      payload: { content: 'counted', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: acc }] },
    });
    const postId = created.json().post._id;
    await ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}`, headers: tenant.headers });
    let text = await scrape();
    expect(value(text, 'herald_queue_depth{', 'state="scheduled"')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'herald_http_requests_total{', 'method="POST"', 'route="/v1/posts"', 'status="201"')).toBeGreaterThanOrEqual(1);
    // The route template, never the id.
    expect(value(text, 'herald_http_requests_total{', 'route="/v1/posts/:postId"', 'status="200"')).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(postId);
    expect(value(text, 'herald_http_request_duration_seconds_count{', 'route="/v1/posts"')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'herald_db_pool_connections{', 'state="total"')).toBeGreaterThanOrEqual(1);

    await runDue(ctx, await startTestPublisher(ctx, 'metrics'), postId);
    text = await scrape();
    expect(value(text, 'herald_publish_outcomes_total{', 'platform="bluesky"', 'outcome="published"')).toBe(published0 + 1);
    expect(value(text, 'herald_publish_lag_seconds_count{', 'platform="bluesky"')).toBeGreaterThanOrEqual(1);
  });

  it('is not served when HERALD_METRICS is off (the default)', async () => {
    expect((await off.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });
});
