/**
 * A Facebook Page behind a proxy, for the exactly-once flows that count on the platform's side
 * (stalled workers, requests that land late): the Facebook simulator runs in its own process (its
 * state outlives any Herald process), and a Page feed, unlike X, does not refuse duplicate content,
 * so every second create is a real duplicate. Herald's workers run as their own processes.
 */
import { expect } from 'vitest';
import { createProfile, createTenant, createTestApp } from './app.ts';
import { startDelayProxy } from './delay-proxy.ts';
import { oauthConnect } from './oauth.ts';
import { startSimProcess, type SimProcess } from './sim-process.ts';
import { platformFlow, type PlatformFlow } from './platform-flow.ts';

type FacebookSim = SimProcess<{ url: string; clientId: string; clientSecret: string; pages: Array<{ id: string }> }>;

/** The Page feed's visible call, `POST /{version}/{page-id}/feed`. */
export const isFeedPost = (method: string, path: string) => method === 'POST' && /^\/v[\d.]+\/\d+\/feed/.test(path);

export async function startFacebookFlow(opts: {
  proxy: Parameters<typeof startDelayProxy>[1];
  env?: Record<string, string>;
}): Promise<PlatformFlow> {
  const fb: FacebookSim = await startSimProcess('sim/facebook/server.ts');
  const proxy = await startDelayProxy(fb.info.url, opts.proxy);
  const platformEnv = {
    HERALD_FACEBOOK_CLIENT_ID: fb.info.clientId, HERALD_FACEBOOK_CLIENT_SECRET: fb.info.clientSecret,
    HERALD_FACEBOOK_API_URL: proxy.url, HERALD_FACEBOOK_AUTH_URL: fb.info.url,
  };
  const ctx = await createTestApp({ env: { ...platformEnv, ...(opts.env ?? {}) } });
  const tenant = await createTenant(ctx);
  const profileId = await createProfile(ctx, tenant);
  const dance = await oauthConnect(ctx, tenant, 'facebook', profileId);
  const tempToken = new URL(dance.done.headers.location as string).searchParams.get('tempToken')!;
  const page = await ctx.app.inject({ method: 'POST', url: '/v1/connect/facebook/select-page', headers: tenant.headers, payload: { profileId, pageId: fb.info.pages[0].id, tempToken } });
  expect(page.statusCode, page.body).toBe(200);
  const accountId = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: tenant.headers })).json().accounts[0]._id as string;
  return platformFlow({
    ctx, tenant, accountId, platform: 'facebook', proxy, env: { ...platformEnv, ...(opts.env ?? {}) }, where: 'the Page',
    onPlatform: async () => ((await (await fetch(`${fb.info.url}/__sim/state`)).json()) as { posts: Array<{ id: string; message: string }> }).posts.map((p) => ({ id: p.id, text: p.message })),
    stop: () => fb.stop(),
  });
}
