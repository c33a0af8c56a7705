/**
 * A Mastodon account behind a proxy, for the exactly-once flows that count on the platform's side
 * (the stalled worker of test/support/stall-scenario.ts, the kill -9 of test/flows/crash-mastodon.test.ts): the Mastodon simulator runs in its own
 * process (its state outlives any Herald process) and, like a real instance, takes the same text
 * twice, so every second create is a real duplicate. The account is connected with the proxy as its
 * instance, so every call of Herald's workers goes through the proxy. Same shape as the Facebook flow.
 */
import { expect } from 'vitest';
import { createProfile, createTenant, createTestApp } from './app.ts';
import { startDelayProxy } from './delay-proxy.ts';
import { platformFlow, type PlatformFlow } from './platform-flow.ts';
import { startSimProcess, type SimProcess } from './sim-process.ts';

type MastodonSim = SimProcess<{ url: string }>;

/** The visible call, `POST /api/v1/statuses`. */
export const isStatusPost = (method: string, path: string) => method === 'POST' && path.startsWith('/api/v1/statuses');

export async function startMastodonFlow(opts: {
  proxy: Parameters<typeof startDelayProxy>[1];
  env?: Record<string, string>;
}): Promise<PlatformFlow> {
  // A burst of 300 posts makes about 900 calls, and each verify after a stall pages through the
  // statuses posted since (min_id reads, 300 per 15 minutes on Mastodon): both limits are raised so
  // that the scenario tests fencing, not rate limits (a rate-limited verify waits: test/api/publisher.test.ts).
  const sim: MastodonSim = await startSimProcess('sim/mastodon/server.ts', { MASTODON_SIM_RATE_LIMIT: '100000', MASTODON_SIM_PAGING_RATE_LIMIT: '100000' });
  const proxy = await startDelayProxy(sim.info.url, opts.proxy);
  const ctx = await createTestApp({ env: { ...(opts.env ?? {}) } });
  const tenant = await createTenant(ctx);
  const profileId = await createProfile(ctx, tenant);
  const start = await ctx.app.inject({ method: 'GET', url: `/v1/connect/mastodon?profileId=${profileId}&instance=${encodeURIComponent(proxy.url)}`, headers: tenant.headers });
  expect(start.statusCode, start.body).toBe(200);
  const consent = await fetch(start.json().authUrl, { redirect: 'manual' });
  const cb = new URL(consent.headers.get('location')!);
  const done = await ctx.app.inject({ method: 'GET', url: cb.pathname + cb.search });
  expect(done.statusCode).toBe(302);
  const accountId = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: tenant.headers })).json().accounts[0]._id as string;
  return platformFlow({
    ctx, tenant, accountId, platform: 'mastodon', proxy, env: opts.env ?? {}, where: 'the instance',
    onPlatform: async () => ((await (await fetch(`${sim.info.url}/__sim/state`)).json()) as { statuses: Array<{ id: string; text: string }> }).statuses,
    stop: () => sim.stop(),
  });
}
