/**
 * OAuth connect state at rest: the PKCE code_verifier kept for up to an hour in
 * oauth_states is sealed like every other credential (AES-256-GCM, src/core/crypto.ts),
 * and a flow started before sealing (a plain-text verifier) still completes.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXSimulator, type XSimulator } from '../../sim/twitter/server.ts';
import { SecretBox } from '../../src/core/crypto.ts';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';

let sim: XSimulator;
let ctx: TestContext;
let tenant: Tenant;

beforeAll(async () => {
  sim = await startXSimulator();
  ctx = await createTestApp({
    env: { HERALD_TWITTER_CLIENT_ID: sim.clientId, HERALD_TWITTER_CLIENT_SECRET: sim.clientSecret, HERALD_TWITTER_API_URL: sim.url, HERALD_TWITTER_AUTH_URL: sim.url },
  });
  tenant = await createTenant(ctx);
});
afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

/** Starts a connect flow; returns the state, the authorize URL and the stored code_verifier column. */
async function start(profileId: string) {
  const res = await ctx.app.inject({ method: 'GET', url: `/v1/connect/twitter?profileId=${profileId}&redirect_url=${encodeURIComponent('https://client.example/done')}`, headers: tenant.headers });
  expect(res.statusCode, res.body).toBe(200);
  const { authUrl, state } = res.json() as { authUrl: string; state: string };
  const id = state.split('.')[0];
  const { rows } = await ctx.db.query<{ code_verifier: string }>('SELECT code_verifier FROM oauth_states WHERE id = $1', [id]);
  return { authUrl, state, id, stored: rows[0].code_verifier };
}

/** Approves at the simulator and follows its redirect to Herald's callback. */
async function finish(authUrl: string) {
  const consent = await fetch(authUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const callback = new URL(consent.headers.get('location')!);
  const done = await ctx.app.inject({ method: 'GET', url: callback.pathname + callback.search });
  expect(done.statusCode).toBe(302);
  return new URL(done.headers.location as string).searchParams;
}

describe('PKCE code_verifier at rest', () => {
  it('is stored sealed, opens to the verifier of the challenge sent, and the flow completes', async () => {
    const profileId = await createProfile(ctx, tenant);
    const { authUrl, stored } = await start(profileId);
    expect(stored).toMatch(/^v1:/);
    const verifier = new SecretBox(ctx.secretKeyHex).open(stored);
    expect(verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    expect(stored).not.toContain(verifier);
    expect(new URL(authUrl).searchParams.get('code_challenge')).toBe(createHash('sha256').update(verifier).digest('base64url'));
    expect(Object.fromEntries(await finish(authUrl))).toMatchObject({ connected: 'twitter', profileId });
  });

  it('still completes a flow whose verifier was stored in plain text before sealing', async () => {
    const profileId = await createProfile(ctx, tenant);
    const { authUrl, id, stored } = await start(profileId);
    await ctx.db.query('UPDATE oauth_states SET code_verifier = $2 WHERE id = $1', [id, new SecretBox(ctx.secretKeyHex).open(stored)]);
    expect(Object.fromEntries(await finish(authUrl))).toMatchObject({ connected: 'twitter', profileId });
  });
});
