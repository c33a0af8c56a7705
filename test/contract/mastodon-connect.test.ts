/**
 * Connecting Mastodon where the instance is not a URL the caller controls: sandbox mode (the
 * simulator is the instance, whatever server is named) and the platform invite page (its form
 * asks for the server first, then goes on to that server's authorization page).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SIMULATORS, startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import type { MastodonSimulator } from '../../sim/mastodon/server.ts';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';

let sandbox: Sandbox;
let ctx: TestContext;
let t: Tenant;
const sim = () => sandbox.simulators.get('mastodon') as unknown as MastodonSimulator;

beforeAll(async () => {
  sandbox = await startSandbox({ simulators: SANDBOX_SIMULATORS.filter((s) => s.platform === 'mastodon'), bluesky: false });
  ctx = await createTestApp({ env: { HERALD_SANDBOX: 'on', HERALD_ALLOW_PRIVATE_URLS: 'false' }, deps: { sandbox } });
  t = await createTenant(ctx);
}, 60_000);
afterAll(async () => { await ctx?.close(); await sandbox?.close(); });

/** Follows an authorization URL on the simulator to Herald's callback; Herald's answer. */
async function consent(authUrl: string) {
  const res = await fetch(authUrl, { redirect: 'manual' });
  expect(res.status, await res.clone().text()).toBe(302);
  const cb = new URL(res.headers.get('location')!);
  return ctx.app.inject({ method: 'GET', url: cb.pathname + cb.search });
}

describe('Mastodon in sandbox mode', () => {
  it('the simulator is the instance: a named server connects to it (no private-address refusal), the account is a sandbox one and publishes there', async () => {
    const profileId = await createProfile(ctx, t);
    const start = await ctx.app.inject({ method: 'GET', url: `/v1/connect/mastodon?profileId=${profileId}&instance=mastodon.social`, headers: t.headers });
    expect(start.statusCode, start.body).toBe(200);
    expect(new URL(start.json().authUrl).origin).toBe(sim().url);
    const done = await consent(start.json().authUrl);
    expect(new URL(done.headers.location as string).searchParams.get('connected')).toBe('mastodon');
    const accounts = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: t.headers })).json().accounts;
    expect(accounts).toEqual([expect.objectContaining({ platform: 'mastodon', sandbox: true, isActive: true })]);
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers, payload: { content: 'Hello sandbox fediverse', publishNow: true, platforms: [{ platform: 'mastodon', accountId: accounts[0]._id }] } });
    expect(res.statusCode, res.body).toBe(201);
    expect(sim().statuses.some((s) => s.text === 'Hello sandbox fediverse')).toBe(true);
    // Still a host name, even here.
    const bad = await ctx.app.inject({ method: 'GET', url: `/v1/connect/mastodon?profileId=${profileId}&instance=${encodeURIComponent('not a host')}`, headers: t.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.fields.instance).toBeDefined();
  });
});

describe('Mastodon platform invite', () => {
  const form = (path: string, fields: Record<string, string>) => ctx.app.inject({
    method: 'POST', url: path, headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString(),
  });

  it('asks for the server first, refuses an empty or malformed one on the page, then goes on to the server and uses the invite', async () => {
    const profileId = await createProfile(ctx, t, 'Fedi Client');
    const created = await ctx.app.inject({ method: 'POST', url: '/v1/platform-invites', headers: t.headers, payload: { profileId, platform: 'mastodon' } });
    expect(created.statusCode, created.body).toBe(201);
    const inv = created.json().invite as { _id: string; inviteUrl: string };
    const path = new URL(inv.inviteUrl).pathname;
    const page = await ctx.app.inject({ method: 'GET', url: path });
    expect(page.body).toContain('Mastodon server');
    expect(page.body).toContain('name="instance"');
    const empty = await form(path, { instance: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Enter your mastodon server first');
    const malformed = await form(path, { instance: 'mastodon.social/@me' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain('host name only');
    expect(malformed.body).toContain('value="mastodon.social/@me"');
    const go = await form(path, { instance: 'mastodon.social' });
    expect(go.statusCode, go.body).toBe(303);
    expect(new URL(go.headers.location as string).origin).toBe(sim().url);
    await consent(go.headers.location as string);
    const accounts = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: t.headers })).json().accounts;
    expect(accounts).toEqual([expect.objectContaining({ platform: 'mastodon', profileId, isActive: true })]);
    expect((await ctx.db.query('SELECT used_at FROM platform_invites WHERE id = $1', [inv._id])).rows[0].used_at).not.toBeNull();
  });
});
