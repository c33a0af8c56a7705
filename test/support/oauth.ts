/**
 * The OAuth 2.0 connect dance through the real app and a platform simulator:
 * GET /v1/connect/{platform} -> the simulator's authorize page (which approves at once and
 * redirects) -> Herald's callback. Asserts the state round-trips unchanged.
 */
import { expect } from 'vitest';
import type { Tenant, TestContext } from './app.ts';

export interface OAuthDance {
  /** Herald's answer to the callback (a 302 to redirect_url, the dashboard or a selection step). */
  done: Awaited<ReturnType<TestContext['app']['inject']>>;
  /** The callback path + query the simulator redirected to (replay it to test single use). */
  callbackPath: string;
  state: string;
  authUrl: string;
}

export async function oauthConnect(ctx: TestContext, t: Tenant, platform: string, profileId: string, redirectUrl = 'https://client.example/done'): Promise<OAuthDance> {
  const start = await ctx.app.inject({ method: 'GET', url: `/v1/connect/${platform}?profileId=${profileId}&redirect_url=${encodeURIComponent(redirectUrl)}`, headers: t.headers });
  expect(start.statusCode, start.body).toBe(200);
  const { authUrl, state } = start.json() as { authUrl: string; state: string };
  const consent = await fetch(authUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const callback = new URL(consent.headers.get('location')!);
  expect(callback.searchParams.get('state')).toBe(state);
  const callbackPath = callback.pathname + callback.search;
  const done = await ctx.app.inject({ method: 'GET', url: callbackPath });
  return { done, callbackPath, state, authUrl };
}
