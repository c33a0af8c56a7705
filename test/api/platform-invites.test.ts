/**
 * Platform invites (client onboarding, decision 0037): the /v1/platform-invites routes and the
 * no-login page at each inviteUrl, through the real app in sandbox mode (X, Facebook, LinkedIn,
 * Discord and Google Business Profile simulators; the choice step of the last four on the page): connecting through an invite stores the account under the invite's
 * profile and uses the invite up once, even with two flows in flight; revoked, expired and
 * unknown links answer pages saying so; the visitor never gets a cookie.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';
import type { DiscordSimulator } from '../../sim/discord/server.ts';
import type { GoogleBusinessSimulator } from '../../sim/googlebusiness/server.ts';

let sandbox: Sandbox;
let ctx: TestContext;
let t: Tenant;
let origin: string;

beforeAll(async () => {
  sandbox = await startSandbox({ bluesky: false });
  ctx = await createTestApp({ env: { HERALD_SANDBOX: 'on' }, deps: { sandbox } });
  origin = 'http://localhost'; // app.inject's Host
  t = await createTenant(ctx);
}, 120_000);
afterAll(async () => { await ctx?.close(); await sandbox?.close(); });

async function invite(profileId: string, platform: string) {
  const res = await ctx.app.inject({ method: 'POST', url: '/v1/platform-invites', headers: t.headers, payload: { profileId, platform } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().invite as { _id: string; token: string; inviteUrl: string; isUsed: boolean; expiresAt: string; createdAt: string; profileId: string };
}
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
const page = (url: string) => ctx.app.inject({ method: 'GET', url: pathOf(url) });
const form = (url: string, fields: Record<string, string> = {}) => ctx.app.inject({
  method: 'POST', url: pathOf(url), headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString(),
});

/** Starts the invite's OAuth flow and lets the simulator approve it; answers the callback path (not yet followed). */
async function consent(inviteUrl: string): Promise<string> {
  const start = await form(inviteUrl);
  expect(start.statusCode, start.body).toBe(303);
  const approved = await fetch(start.headers.location as string, { redirect: 'manual' });
  expect(approved.status).toBe(302);
  return pathOf(approved.headers.get('location')!);
}

const accountsOf = async (profileId: string) =>
  (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: t.headers })).json().accounts as Array<Record<string, unknown>>;

describe('platform invites API', () => {
  it('creates (token, inviteUrl, 7 days), lists with the profile populated, and revokes an unused invite', async () => {
    const p1 = await createProfile(ctx, t, 'Acme Bakery');
    const p2 = await createProfile(ctx, t);
    const a = await invite(p1, 'twitter');
    expect(a).toMatchObject({ profileId: p1, platform: 'twitter', userId: t.userId, isUsed: false });
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.inviteUrl).toBe(`${ctx.services.publicUrl}/v1/platform-invites/${a.token}/connect`);
    expect(Date.parse(a.expiresAt) - Date.parse(a.createdAt)).toBe(7 * 24 * 3600 * 1000);
    const stored = await ctx.db.query('SELECT token_hash, token_sealed FROM platform_invites WHERE id = $1', [a._id]);
    expect(stored.rows[0].token_sealed).not.toContain(a.token); // only its hash and a sealed copy are stored
    const b = await invite(p2, 'bluesky');

    const all = (await ctx.app.inject({ method: 'GET', url: '/v1/platform-invites', headers: t.headers })).json().invites;
    expect(all.map((i: { _id: string }) => i._id)).toEqual([b._id, a._id]);
    expect(all[1]).toMatchObject({ _id: a._id, token: a.token, profileId: { _id: p1, name: 'Acme Bakery' }, platform: 'twitter', isUsed: false });
    expect(all[1]).not.toHaveProperty('inviteUrl');
    const one = (await ctx.app.inject({ method: 'GET', url: `/v1/platform-invites?profileId=${p2}`, headers: t.headers })).json().invites;
    expect(one.map((i: { _id: string }) => i._id)).toEqual([b._id]);

    const del = await ctx.app.inject({ method: 'DELETE', url: `/v1/platform-invites?id=${b._id}`, headers: t.headers });
    expect(del.statusCode).toBe(200);
    expect(del.json().message).toMatch(/revoked/i);
    expect((await page(b.inviteUrl)).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/v1/platform-invites?id=${b._id}`, headers: t.headers })).statusCode).toBe(404);
  });

  it('refuses bad input with field errors and hides other tenants\' profiles and invites (404)', async () => {
    const p = await createProfile(ctx, t);
    const bad = await ctx.app.inject({ method: 'POST', url: '/v1/platform-invites', headers: t.headers, payload: { profileId: p, platform: 'myspace' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.fields).toHaveProperty('platform');
    const missing = await ctx.app.inject({ method: 'POST', url: '/v1/platform-invites', headers: t.headers, payload: { platform: 'twitter' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details.fields).toHaveProperty('profileId');
    expect((await ctx.app.inject({ method: 'DELETE', url: '/v1/platform-invites', headers: t.headers })).json().details.fields).toHaveProperty('id');

    const other = await createTenant(ctx);
    const theirs = await createProfile(ctx, other);
    expect((await ctx.app.inject({ method: 'POST', url: '/v1/platform-invites', headers: t.headers, payload: { profileId: theirs, platform: 'twitter' } })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/platform-invites?profileId=${theirs}`, headers: t.headers })).statusCode).toBe(404);
    const mine = await invite(p, 'twitter');
    expect((await ctx.app.inject({ method: 'DELETE', url: `/v1/platform-invites?id=${mine._id}`, headers: other.headers })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/platform-invites', headers: other.headers })).json().invites).toEqual([]);
  });
});

describe('the invite page (no login)', () => {
  it('says who invited and for which profile, connects X through the platform, and the invite is then used', async () => {
    const p = await createProfile(ctx, t, 'Client & Co');
    const inv = await invite(p, 'twitter');
    const open = await page(inv.inviteUrl);
    expect(open.statusCode).toBe(200);
    expect(open.headers['content-type']).toMatch(/text\/html/);
    expect(open.headers['set-cookie']).toBeUndefined();
    expect(open.body).toContain('Client &amp; Co');
    expect(open.body).toMatch(/invited you to connect your X \(Twitter\) account/);
    expect(open.body).toContain('Continue to X (Twitter)');

    const callback = await consent(inv.inviteUrl);
    const done = await ctx.app.inject({ method: 'GET', url: callback });
    expect(done.statusCode).toBe(302);
    expect(done.headers['set-cookie']).toBeUndefined();
    expect(done.headers.location).toBe(`${inv.inviteUrl}?connected=twitter&profileId=${p}&username=${(await accountsOf(p))[0].username}&accountId=${(await accountsOf(p))[0]._id}`);
    const after = await page(done.headers.location as string);
    expect(after.body).toContain('Connected, you can close this page');

    const accounts = await accountsOf(p);
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ platform: 'twitter', profileId: p, isActive: true });
    const listed = (await ctx.app.inject({ method: 'GET', url: `/v1/platform-invites?profileId=${p}`, headers: t.headers })).json().invites[0];
    expect(listed.isUsed).toBe(true);

    const revoke = await ctx.app.inject({ method: 'DELETE', url: `/v1/platform-invites?id=${inv._id}`, headers: t.headers });
    expect(revoke.statusCode).toBe(400);
    expect(revoke.json()).toMatchObject({ code: 'BAD_REQUEST', details: { reason: 'invite_used' } });
    expect(revoke.json().error).toMatch(/already used .* cannot be revoked/);
    // A used invite cannot start another connection.
    const again = await form(inv.inviteUrl);
    expect(again.statusCode).toBe(410);
    expect(again.headers.location).toBeUndefined();
    expect(again.body).toContain('This invite has already been used');
  });

  it('uses an invite once: of two flows started in two tabs, only the first to finish stores an account', async () => {
    const p = await createProfile(ctx, t);
    const inv = await invite(p, 'twitter');
    const first = await consent(inv.inviteUrl);
    const second = await consent(inv.inviteUrl);
    const [a, b] = await Promise.all([ctx.app.inject({ method: 'GET', url: first }), ctx.app.inject({ method: 'GET', url: second })]);
    const locations = [a.headers.location, b.headers.location] as string[];
    expect(locations.filter((l) => l.includes('connected=twitter'))).toHaveLength(1);
    expect(locations.filter((l) => l.includes('error=invite_unavailable'))).toHaveLength(1);
    expect(await accountsOf(p)).toHaveLength(1);
    const used = await ctx.db.query('SELECT used_at, account_id FROM platform_invites WHERE id = $1', [inv._id]);
    expect(used.rows[0].account_id).toBe((await accountsOf(p))[0]._id);
  });

  it('brings the client back to the invite page when they cancel on the platform; the invite stays usable', async () => {
    const p = await createProfile(ctx, t, 'Cancel Co');
    const inv = await invite(p, 'twitter');
    const start = await form(inv.inviteUrl);
    const state = new URL(start.headers.location as string).searchParams.get('state')!;
    const back = await ctx.app.inject({ method: 'GET', url: `/v1/connect/twitter/callback?error=access_denied&state=${encodeURIComponent(state)}` });
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe(`${inv.inviteUrl}?error=access_denied&platform=twitter`);
    const shown = await page(back.headers.location as string);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('The authorization was cancelled on the platform. You can try again.');
    expect(shown.body).toContain('Continue to X (Twitter)');
    const done = await ctx.app.inject({ method: 'GET', url: await consent(inv.inviteUrl) });
    expect(done.headers.location).toContain('connected=twitter');
  });

  it('runs the Facebook page choice on the invite page itself', async () => {
    const p = await createProfile(ctx, t, 'Page Client');
    const inv = await invite(p, 'facebook');
    const done = await ctx.app.inject({ method: 'GET', url: await consent(inv.inviteUrl) });
    expect(done.statusCode).toBe(302);
    const select = done.headers.location as string;
    expect(select.startsWith(`${inv.inviteUrl}/select?tempToken=`)).toBe(true);
    const picker = await page(select);
    expect(picker.statusCode).toBe(200);
    expect(picker.body).toContain('Choose the Facebook page');
    expect(picker.body).not.toContain('access_token');
    const choice = /name="choice" value="([^"]+)"/.exec(picker.body)![1];
    const tempToken = new URL(select).searchParams.get('tempToken')!;
    const chosen = await form(`${inv.inviteUrl}/select`, { tempToken, choice });
    expect(chosen.statusCode, chosen.body).toBe(303);
    expect(chosen.headers.location).toBe(`${inv.inviteUrl}?connected=facebook`);
    const accounts = await accountsOf(p);
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ platform: 'facebook', selectedPageName: expect.any(String) });
    expect((await page(inv.inviteUrl)).body).toContain('This invite has already been used');
  });

  it('runs the LinkedIn author choice on the invite page: the client picks an organization they administer', async () => {
    const p = await createProfile(ctx, t, 'Org Client');
    const inv = await invite(p, 'linkedin');
    const done = await ctx.app.inject({ method: 'GET', url: await consent(inv.inviteUrl) });
    const select = done.headers.location as string;
    expect(select.startsWith(`${inv.inviteUrl}/select?tempToken=`)).toBe(true);
    const picker = await page(select);
    expect(picker.body).toContain('Choose who posts on LinkedIn');
    expect(picker.body).toContain('My personal profile');
    expect(picker.body).toContain('Herald Demo Co');
    const tempToken = new URL(select).searchParams.get('tempToken')!;
    // A choice that was not offered is refused on the page; the invite stays unused.
    const bogus = await form(`${inv.inviteUrl}/select`, { tempToken, choice: '5550001' });
    expect(bogus.statusCode).toBe(400);
    expect(bogus.body).toContain('Choose one of the listed options.');
    const chosen = await form(`${inv.inviteUrl}/select`, { tempToken, choice: '2414183' });
    expect(chosen.statusCode, chosen.body).toBe(303);
    expect(await accountsOf(p)).toEqual([expect.objectContaining({ platform: 'linkedin', accountType: 'organization', selectedOrganization: expect.objectContaining({ id: '2414183' }) })]);
    // The selection token of this invite cannot be replayed.
    const replay = await form(`${inv.inviteUrl}/select`, { tempToken, choice: 'personal' });
    expect(replay.statusCode).toBe(410);
    expect(replay.body).toContain('This invite has already been used');
    expect(await accountsOf(p)).toHaveLength(1);
  });

  /** The choices the invite's picker page offers: value and visible label. */
  const choicesOn = (html: string) => [...html.matchAll(/name="choice" value="([^"]+)"/g)].map((m) => m[1]);

  it('runs the Discord channel choice on the invite page: a channel not offered is refused, one where the bot lacks a permission says so on the same page, the chosen one connects', async () => {
    const sim = sandbox.simulators.get('discord') as unknown as DiscordSimulator;
    const p = await createProfile(ctx, t, 'Guild Client');
    const inv = await invite(p, 'discord');
    const open = await page(inv.inviteUrl);
    expect(open.body).toContain('Continue to Discord');
    const done = await ctx.app.inject({ method: 'GET', url: await consent(inv.inviteUrl) });
    expect(done.statusCode).toBe(302);
    const select = done.headers.location as string;
    expect(select.startsWith(`${inv.inviteUrl}/select?tempToken=`)).toBe(true);
    const picker = await page(select);
    expect(picker.statusCode).toBe(200);
    expect(picker.body).toContain('Choose the Discord channel');
    const offered = choicesOn(picker.body);
    // Text, announcement and forum channels; not the voice channel.
    expect(offered).toEqual(expect.arrayContaining([sim.channels.general.id, sim.channels.announcements.id, sim.channels.forum.id]));
    expect(offered).not.toContain(sim.channels.voice.id);
    const tempToken = new URL(select).searchParams.get('tempToken')!;
    const refused = await form(`${inv.inviteUrl}/select`, { tempToken, choice: sim.channels.voice.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Choose one of the listed options.');
    // A channel listed with what the bot lacks there: Discord's reason on the same choice page, which still works.
    expect(picker.body).toContain('the bot lacks SEND_MESSAGES');
    const lacking = await form(`${inv.inviteUrl}/select`, { tempToken, choice: sim.channels.readonly.id });
    expect(lacking.statusCode).toBe(400);
    expect(lacking.body).toContain('Choose the Discord channel');
    expect(lacking.body).toMatch(/role="alert">[^<]*lacks SEND_MESSAGES/);
    expect(await accountsOf(p)).toHaveLength(0);
    const chosen = await form(`${inv.inviteUrl}/select`, { tempToken, choice: sim.channels.announcements.id });
    expect(chosen.statusCode, chosen.body).toBe(303);
    expect(chosen.headers.location).toBe(`${inv.inviteUrl}?connected=discord`);
    expect(await accountsOf(p)).toEqual([expect.objectContaining({ platform: 'discord', profileId: p, isActive: true, sandbox: true })]);
    const { rows: [row] } = await ctx.db.query<{ settings: Record<string, unknown> }>(`SELECT settings FROM accounts WHERE profile_id = $1 AND platform = 'discord'`, [p]);
    expect(row.settings).toMatchObject({ guildId: sim.guild.id, channelId: sim.channels.announcements.id });
    expect((await page(inv.inviteUrl)).body).toContain('This invite has already been used');
  });

  it('runs the Google Business Profile location choice on the invite page: the client\'s own locations only, one account for the chosen one', async () => {
    const sim = sandbox.simulators.get('googlebusiness') as unknown as GoogleBusinessSimulator;
    const p = await createProfile(ctx, t, 'Bakery Client');
    const inv = await invite(p, 'googlebusiness');
    const done = await ctx.app.inject({ method: 'GET', url: await consent(inv.inviteUrl) });
    const select = done.headers.location as string;
    expect(select.startsWith(`${inv.inviteUrl}/select?tempToken=`)).toBe(true);
    const picker = await page(select);
    expect(picker.statusCode).toBe(200);
    expect(picker.body).toContain('Choose the Google Business Profile location');
    const offered = choicesOn(picker.body);
    expect(offered.length).toBeGreaterThan(1);
    expect(picker.body).toContain(sim.locations[0].title);
    const tempToken = new URL(select).searchParams.get('tempToken')!;
    const refused = await form(`${inv.inviteUrl}/select`, { tempToken, choice: 'locations/999' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Choose one of the listed options.');
    const chosen = await form(`${inv.inviteUrl}/select`, { tempToken, choice: offered[1] });
    expect(chosen.statusCode, chosen.body).toBe(303);
    expect(chosen.headers.location).toBe(`${inv.inviteUrl}?connected=googlebusiness`);
    const accounts = await accountsOf(p);
    expect(accounts).toEqual([expect.objectContaining({ platform: 'googlebusiness', profileId: p, isActive: true })]);
    const { rows: [row] } = await ctx.db.query<{ settings: Record<string, unknown> }>(`SELECT settings FROM accounts WHERE profile_id = $1 AND platform = 'googlebusiness'`, [p]);
    const location = sim.locations.find((l) => offered[1].endsWith(l.name.replace('locations/', '')))!;
    expect(row.settings).toMatchObject({ locationId: location.name, selectedLocationName: location.title });
    const replay = await form(`${inv.inviteUrl}/select`, { tempToken, choice: offered[0] });
    expect(replay.statusCode).toBe(410);
    expect(await accountsOf(p)).toHaveLength(1);
  });

  it('answers 404 for unknown links, 410 for expired ones, and refuses form posts from other sites', async () => {
    const p = await createProfile(ctx, t);
    const unknown = await ctx.app.inject({ method: 'GET', url: '/v1/platform-invites/not-a-real-token/connect' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('This invite link is not valid');

    const inv = await invite(p, 'linkedin');
    await ctx.db.query(`UPDATE platform_invites SET expires_at = now() - interval '1 minute' WHERE id = $1`, [inv._id]);
    const expired = await page(inv.inviteUrl);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('This invite has expired');
    expect((await form(inv.inviteUrl)).statusCode).toBe(410);

    const fresh = await invite(p, 'twitter');
    const cross = await ctx.app.inject({ method: 'POST', url: pathOf(fresh.inviteUrl), headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(cross.statusCode).toBe(403);
  });

  it('shows the Bluesky app-password form for a Bluesky invite', async () => {
    const p = await createProfile(ctx, t);
    const inv = await invite(p, 'bluesky');
    const open = await page(inv.inviteUrl);
    expect(open.body).toContain('name="appPassword"');
    const empty = await form(`${inv.inviteUrl}/bluesky`, { identifier: '', appPassword: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Enter your Bluesky handle and an app password.');
  });
});

describe('team members', () => {
  it('a member scoped to one profile invites clients to it only, sees only its invites, and cannot clone an account of another profile', async () => {
    const mine = await createProfile(ctx, t, 'Member Brand');
    const other = await createProfile(ctx, t, 'Owner Only Brand');
    const ownerInvite = await invite(other, 'twitter');
    const tok = (await ctx.app.inject({ method: 'POST', url: '/v1/invite/tokens', headers: t.headers, payload: { scope: 'profiles', profileIds: [mine] } })).json().token as string;
    const signup = await ctx.app.inject({
      method: 'POST', url: '/auth/signup', headers: { origin: 'http://localhost:80', host: 'localhost:80' },
      payload: { inviteToken: tok, name: 'Mia Member', email: `mia${Date.now()}@example.test`, password: 'member password 1' },
    });
    expect(signup.statusCode, signup.body).toBe(201);
    const member = { cookie: String(signup.headers['set-cookie']).split(';')[0], 'x-csrf-token': signup.json().csrfToken as string, origin: 'http://localhost:80', host: 'localhost:80' };

    const created = await ctx.app.inject({ method: 'POST', url: '/v1/platform-invites', headers: member, payload: { profileId: mine, platform: 'twitter' } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().invite).toMatchObject({ inviterName: 'Mia Member', userId: signup.json().user._id });
    expect((await ctx.app.inject({ method: 'POST', url: '/v1/platform-invites', headers: member, payload: { profileId: other, platform: 'twitter' } })).statusCode).toBe(404);
    const listed = (await ctx.app.inject({ method: 'GET', url: '/v1/platform-invites', headers: member })).json().invites as Array<{ _id: string }>;
    expect(listed.map((i) => i._id)).toEqual([created.json().invite._id]);
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/platform-invites?profileId=${other}`, headers: member })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/v1/platform-invites?id=${ownerInvite._id}`, headers: member })).statusCode).toBe(404);

    const otherAccount = (await ctx.app.inject({ method: 'GET', url: await consent(ownerInvite.inviteUrl) })).headers.location as string;
    const otherAccountId = new URL(otherAccount).searchParams.get('accountId')!;
    const cloneOut = await ctx.app.inject({ method: 'POST', url: `/v1/profiles/${mine}/clone-connection`, headers: member, payload: { sourceAccountId: otherAccountId } });
    expect(cloneOut.statusCode).toBe(404);
    expect((await accountsOf(mine))).toEqual([]);
  });
});
