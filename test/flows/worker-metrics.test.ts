/**
 * Lateness is recorded and visible in a split-role deployment: a post published after its time
 * (no worker was running when it was due) shows how late on its platform (`lateSeconds`), and
 * `herald worker` with HERALD_METRICS=on serves the publish lag and lateness histograms on its own
 * PORT (the API process never observes them), behind the same token as the API's /metrics.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';
import { freePort, waitFor } from '../support/net.ts';
import { oauthConnect } from '../support/oauth.ts';
import { spawnHerald, startSimProcess, type SimProcess } from '../support/sim-process.ts';

const TOKEN = 'worker-metrics-token-0123456789';
let x: SimProcess<{ url: string; clientId: string; clientSecret: string }>;
let ctx: TestContext;
let tenant: Tenant;
let accountId: string;
let env: Record<string, string>;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  x = await startSimProcess('sim/twitter/server.ts');
  const platformEnv = { HERALD_TWITTER_CLIENT_ID: x.info.clientId, HERALD_TWITTER_CLIENT_SECRET: x.info.clientSecret, HERALD_TWITTER_API_URL: x.info.url, HERALD_TWITTER_AUTH_URL: x.info.url };
  ctx = await createTestApp({ env: platformEnv });
  tenant = await createTenant(ctx);
  const profileId = await createProfile(ctx, tenant);
  await oauthConnect(ctx, tenant, 'twitter', profileId);
  accountId = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: tenant.headers })).json().accounts[0]._id;
  env = {
    ...platformEnv, DATABASE_URL: ctx.databaseUrl, HERALD_SECRET_KEY: ctx.secretKeyHex, HERALD_DATA_DIR: ctx.dataDir, HERALD_WORKER_POLL_MS: '200',
    HERALD_LOG_LEVEL: 'warn', HERALD_ALLOW_PRIVATE_URLS: 'true', HERALD_METRICS: 'on', HERALD_METRICS_TOKEN: TOKEN,
  };
}, 120_000);
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await ctx?.close();
  await x?.stop();
});

describe('lateness, and a worker process\'s own /metrics', () => {
  it('a post published 3 s after its time says so, and the worker\'s /metrics has its lag and lateness', async () => {
    const due = new Date(Date.now() + 1_500);
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: tenant.headers,
      payload: { content: `late by the workers ${Date.now()}`, scheduledFor: due.toISOString(), platforms: [{ platform: 'twitter', accountId }] } });
    expect(res.statusCode, res.body).toBe(201);
    const postId = res.json().post._id as string;
    // No worker runs when it is due; one starts 3 s later.
    await new Promise((r) => setTimeout(r, due.getTime() + 3_000 - Date.now()));
    const port = await freePort();
    spawnHerald('worker', { ...env, PORT: String(port) }, children);
    const post = await waitFor(async () => {
      const p = (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}`, headers: tenant.headers })).json().post;
      return p.status === 'published' ? p : null;
    }, { timeoutMs: 60_000, intervalMs: 200, what: 'the post to be published' });
    const late = post.platforms[0].lateSeconds as number;
    expect(late).toBeGreaterThanOrEqual(3);
    expect(late).toBeLessThan(60);

    const url = `http://127.0.0.1:${port}/metrics`;
    expect((await fetch(url)).status).toBe(401);
    const text = await (await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const series = (name: string) => Number(text.split('\n').find((l) => l.startsWith(name))?.split(' ').pop());
    expect(series('herald_publish_lateness_seconds_count{platform="twitter"}')).toBe(1);
    expect(series('herald_publish_lateness_seconds_bucket{le="1",platform="twitter"}')).toBe(0);
    expect(series('herald_publish_lateness_seconds_bucket{le="60",platform="twitter"}')).toBe(1);
    expect(series('herald_publish_lag_seconds_count{platform="twitter"}')).toBe(1);
    expect(series('herald_publish_outcomes_total{platform="twitter",outcome="published"}')).toBe(1);
    // Only /metrics: the worker serves no API.
    expect((await fetch(`http://127.0.0.1:${port}/v1/posts`, { headers: tenant.headers })).status).toBe(404);
  }, 120_000);
});
