/**
 * A Bluesky platform invite (decision 0037): the invite page's app-password form logs in to a real
 * local PDS (the sandbox's, @atproto/dev-env), stores the account under the invite's profile
 * and uses the invite up; a refused app password re-shows the form with a message and leaves
 * the invite unused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';

let sandbox: Sandbox;
let ctx: TestContext;
let t: Tenant;

beforeAll(async () => {
  sandbox = await startSandbox({ simulators: [] });
  ctx = await createTestApp({ env: { HERALD_SANDBOX: 'on' }, deps: { sandbox } });
  t = await createTenant(ctx);
}, 180_000);
afterAll(async () => { await ctx?.close(); await sandbox?.close(); });

const form = (path: string, fields: Record<string, string>) => ctx.app.inject({
  method: 'POST', url: path, headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString(),
});

describe('Bluesky platform invite', () => {
  it('connects with the app-password form and uses the invite; a wrong password leaves it unused', async () => {
    const bsky = sandbox.bluesky!;
    const profileId = await createProfile(ctx, t, 'Sky Client');
    const created = await ctx.app.inject({ method: 'POST', url: '/v1/platform-invites', headers: t.headers, payload: { profileId, platform: 'bluesky' } });
    const inv = created.json().invite as { _id: string; inviteUrl: string };
    const path = new URL(inv.inviteUrl).pathname;

    const wrong = await form(`${path}/bluesky`, { identifier: bsky.identifier, appPassword: 'wrong-wrong-wrong-wrong' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('Bluesky did not accept this handle and app password');
    expect(wrong.body).toContain(`value="${bsky.identifier}"`);
    expect((await ctx.db.query('SELECT used_at FROM platform_invites WHERE id = $1', [inv._id])).rows[0].used_at).toBeNull();

    const ok = await form(`${path}/bluesky`, { identifier: bsky.identifier, appPassword: bsky.appPassword });
    expect(ok.statusCode, ok.body).toBe(303);
    expect(ok.headers.location).toBe(`${inv.inviteUrl}?connected=bluesky`);
    const accounts = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: t.headers })).json().accounts;
    expect(accounts).toEqual([expect.objectContaining({ platform: 'bluesky', profileId, isActive: true })]);
    const done = await ctx.app.inject({ method: 'GET', url: `${path}?connected=bluesky` });
    expect(done.body).toContain('Connected, you can close this page');

    const again = await form(`${path}/bluesky`, { identifier: bsky.identifier, appPassword: bsky.appPassword });
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain('This invite has already been used');
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: t.headers })).json().accounts).toHaveLength(1);
  });
});
