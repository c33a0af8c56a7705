/**
 * Third attack pass, second part, through the real app in sandbox mode (the platform
 * simulators of sim/) on real PostgreSQL:
 *   1. the platform invite page stops once it answered: an unknown token logs no error, a used or
 *      expired invite shows its own page and starts no OAuth flow;
 *   2. the public OAuth callback redirects only to the dashboard or a registered origin
 *      (HERALD_CONNECT_REDIRECT_ORIGINS), checked at the start and at the callback, and never for a
 *      state already used (docs/decisions/0046-connect-redirect-origins.md);
 *   3. request log lines carry no bearer secret (invite tokens, OAuth codes and states, selection tokens);
 *   5. a Facebook page where the user only has CREATE_CONTENT (no MANAGE) is neither offered nor connected;
 *   6. GET /v1/sandbox/{platform}/state shows the caller's posts only.
 * (4, a queued post turned back into a draft, is in test/api/queue.test.ts.)
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FacebookSimulator } from '../../sim/facebook/server.ts';
import { buildApp, type App } from '../../src/http/app.ts';
import { redactUrl } from '../../src/http/log-redaction.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';
import { oauthConnect } from '../support/oauth.ts';

const CLIENT = 'https://client.example';

let sandbox: Sandbox;
let ctx: TestContext;
let t: Tenant;
/** A second app on the same services, logging at info level into `lines` (one JSON object a line). */
let logged: App;
let lines: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ bluesky: false });
  ctx = await createTestApp({ env: { HERALD_SANDBOX: 'on', HERALD_CONNECT_REDIRECT_ORIGINS: `${CLIENT}, https://staging.client.example:8443` }, deps: { sandbox } });
  t = await createTenant(ctx);
  const sink = new Writable({ write(chunk, _enc, done) { lines.push(...String(chunk).split('\n').filter(Boolean)); done(); } });
  logged = await buildApp({ services: ctx.services, logger: pino({ level: 'info' }, sink) });
}, 120_000);
afterAll(async () => {
  await logged?.close();
  await ctx?.close();
  await sandbox?.close();
});

const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
const errorLines = () => lines.map((l) => JSON.parse(l) as { level: number; msg: string; err?: { type?: string; message?: string } }).filter((l) => l.level >= 50);
const invite = async (profileId: string, platform: string) => {
  const res = await ctx.app.inject({ method: 'POST', url: '/v1/platform-invites', headers: t.headers, payload: { profileId, platform } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().invite as { _id: string; token: string; inviteUrl: string };
};
const form = (app: App, url: string) => app.inject({ method: 'POST', url: pathOf(url), headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
/** The OAuth states of an invite, read after a pause: a handler that ran on after answering did so by then. */
const statesOf = async (inviteId: string) => {
  await new Promise((r) => setTimeout(r, 300));
  return (await ctx.db.query('SELECT id FROM oauth_states WHERE platform_invite_id = $1', [inviteId])).rowCount;
};

describe('1. the platform invite page stops once it answered', () => {
  it('an unknown token answers 404 and logs no error', async () => {
    lines = [];
    const res = await logged.inject({ method: 'GET', url: '/v1/platform-invites/not-a-real-token/connect' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('This invite link is not valid');
    const form404 = await form(logged, 'http://localhost/v1/platform-invites/not-a-real-token/connect');
    expect(form404.statusCode).toBe(404);
    await new Promise((r) => setTimeout(r, 300));
    expect(errorLines()).toEqual([]);
  });

  it('a used invite shows "already used", starts no OAuth flow and redirects nowhere; only the landing after the flow says connected', async () => {
    const p = await createProfile(ctx, t, 'Used Invite Co');
    const inv = await invite(p, 'twitter');
    const start = await form(ctx.app, inv.inviteUrl);
    expect(start.statusCode, start.body).toBe(303);
    const consent = await fetch(start.headers.location as string, { redirect: 'manual' });
    const done = await ctx.app.inject({ method: 'GET', url: pathOf(consent.headers.get('location')!) });
    expect(done.headers.location).toContain('connected=twitter');
    const landing = await ctx.app.inject({ method: 'GET', url: pathOf(done.headers.location as string) });
    expect(landing.body).toContain('Connected, you can close this page');
    expect(await statesOf(inv._id)).toBe(1);

    lines = [];
    const again = await form(logged, inv.inviteUrl);
    expect(again.statusCode).toBe(410);
    expect(again.headers.location).toBeUndefined();
    expect(again.body).toContain('This invite has already been used');
    expect(await statesOf(inv._id)).toBe(1); // no second OAuth state
    const visit = await logged.inject({ method: 'GET', url: pathOf(inv.inviteUrl) });
    expect(visit.statusCode).toBe(410);
    expect(visit.body).toContain('This invite has already been used');
    expect(visit.body).not.toContain('Connected');
    expect(errorLines()).toEqual([]);
  });

  it('an expired invite shows "expired", starts no OAuth flow and redirects nowhere', async () => {
    const p = await createProfile(ctx, t);
    const inv = await invite(p, 'twitter');
    await ctx.db.query(`UPDATE platform_invites SET expires_at = now() - interval '1 minute' WHERE id = $1`, [inv._id]);
    lines = [];
    const res = await form(logged, inv.inviteUrl);
    expect(res.statusCode).toBe(410);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toContain('This invite has expired');
    expect(await statesOf(inv._id)).toBe(0);
    expect(errorLines()).toEqual([]);
  });
});

describe('2. the OAuth callback redirects only to the dashboard or a registered origin, once', () => {
  const start = (profileId: string, redirect: string) =>
    ctx.app.inject({ method: 'GET', url: `/v1/connect/twitter?profileId=${profileId}&redirect_url=${encodeURIComponent(redirect)}`, headers: t.headers });

  it('refuses a redirect_url outside them when the connect starts (400 naming redirect_url) and stores no state', async () => {
    const p = await createProfile(ctx, t);
    const before = (await ctx.db.query('SELECT id FROM oauth_states WHERE profile_id = $1', [p])).rowCount;
    for (const bad of ['https://evil.example/done', 'https://client.example.evil.example/x', `${CLIENT}:444/x`, 'http://client.example/x',
      `https://client.example@evil.example/`, 'https://staging.client.example/x']) {
      const res = await start(p, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().details.fields.redirect_url[0], bad).toMatch(/HERALD_CONNECT_REDIRECT_ORIGINS/);
    }
    expect((await ctx.db.query('SELECT id FROM oauth_states WHERE profile_id = $1', [p])).rowCount).toBe(before);
    for (const good of [`${CLIENT}/done?x=1`, 'https://staging.client.example:8443/cb', `${ctx.services.publicUrl}/dashboard/profiles`]) {
      expect((await start(p, good)).statusCode, good).toBe(200);
    }
  });

  it('checks the stored redirect_url again at the callback: one no longer allowed ends on the dashboard', async () => {
    const p = await createProfile(ctx, t);
    const res = await start(p, `${CLIENT}/done`);
    const { authUrl, state } = res.json() as { authUrl: string; state: string };
    // A state stored before the check existed (or an origin removed from the setting since).
    await ctx.db.query('UPDATE oauth_states SET redirect_url = $2 WHERE id = $1', [state.split('.')[0], 'https://evil.example/landing']);
    const consent = await fetch(authUrl, { redirect: 'manual' });
    const done = await ctx.app.inject({ method: 'GET', url: pathOf(consent.headers.get('location')!) });
    expect(done.statusCode).toBe(302);
    const to = new URL(done.headers.location as string);
    expect(to.origin + to.pathname).toBe(`${ctx.services.publicUrl}/dashboard/accounts`);
    expect(to.searchParams.get('connected')).toBe('twitter');
  });

  it('a replayed callback answers an error page and redirects nowhere; an error callback uses the state up too', async () => {
    const p = await createProfile(ctx, t);
    const dance = await oauthConnect(ctx, t, 'twitter', p, `${CLIENT}/done`);
    expect(new URL(dance.done.headers.location as string).origin).toBe(CLIENT);
    for (const url of [dance.callbackPath, `/v1/connect/twitter/callback?error=access_denied&state=${encodeURIComponent(dance.state)}`]) {
      const replay = await ctx.app.inject({ method: 'GET', url });
      expect(replay.statusCode, url).toBe(400);
      expect(replay.headers.location, url).toBeUndefined();
      expect(replay.headers['content-type']).toMatch(/text\/html/);
      expect(replay.body).toContain('already used or has expired');
    }

    // Cancelled on the platform: back to the client once, then the state is spent.
    const fresh = (await start(p, `${CLIENT}/cancelled`)).json().state as string;
    const cancelled = `/v1/connect/twitter/callback?error=access_denied&state=${encodeURIComponent(fresh)}`;
    const first = await ctx.app.inject({ method: 'GET', url: cancelled });
    expect(first.headers.location).toBe(`${CLIENT}/cancelled?error=access_denied&platform=twitter`);
    const second = await ctx.app.inject({ method: 'GET', url: cancelled });
    expect(second.statusCode).toBe(400);
    expect(second.headers.location).toBeUndefined();
  });
});

describe('3. request log lines carry no bearer secret', () => {
  it('redacts invite tokens, OAuth codes and states, and selection tokens from the logged URL', async () => {
    const p = await createProfile(ctx, t);
    const inv = await invite(p, 'twitter');
    const secrets = {
      code: 'SECRETCODE1234567890', state: 'SECRETSTATEid.SECRETSTATEmac', teamInvite: 'SECRETTEAMINVITE123',
      signupInvite: 'SECRETSIGNUPINVITE1', tempToken: 'SECRETTEMPTOKEN12345', inviteToken: inv.token,
    };
    lines = [];
    const urls = [
      `/v1/connect/twitter/callback?code=${secrets.code}&state=${secrets.state}`,
      `/v1/connect/twitter/callback?error=access_denied&STATE=${secrets.state}`,
      `/auth/invite?token=${secrets.teamInvite}`,
      `/signup?inviteToken=${secrets.signupInvite}`,
      `/v1/connect/facebook/select-page?profileId=${p}&tempToken=${secrets.tempToken}`,
      `/dashboard/connect/facebook/select-page?tempToken=${secrets.tempToken}&profileId=${p}`,
      pathOf(inv.inviteUrl),
      `${pathOf(inv.inviteUrl)}/select?tempToken=${secrets.tempToken}`,
    ];
    for (const url of urls) await logged.inject({ method: 'GET', url, headers: t.headers });
    await form(logged, inv.inviteUrl);
    const log = lines.join('\n');
    for (const [name, secret] of Object.entries(secrets)) expect(log, name).not.toContain(secret);
    const logged_ = lines.map((l) => JSON.parse(l) as { msg: string; req?: { url: string } }).filter((l) => l.msg === 'incoming request').map((l) => l.req!.url);
    expect(logged_).toContain('/v1/connect/twitter/callback?code=[redacted]&state=[redacted]');
    expect(logged_).toContain(`/v1/connect/facebook/select-page?profileId=${p}&tempToken=[redacted]`);
    expect(logged_).toContain('/v1/platform-invites/[redacted]/connect');
  });

  it('redactUrl keeps everything else as sent', () => {
    expect(redactUrl('/v1/posts?page=2&status=draft')).toBe('/v1/posts?page=2&status=draft');
    expect(redactUrl('/v1/platform-invites?profileId=abc')).toBe('/v1/platform-invites?profileId=abc');
    expect(redactUrl('/v1/platform-invites/tok/connect/select?tempToken=x&a=%20b&code')).toBe('/v1/platform-invites/[redacted]/connect/select?tempToken=[redacted]&a=%20b&code');
  });
});

describe('5. Facebook pages need admin rights (MANAGE)', () => {
  it('does not offer a page with only CREATE_CONTENT, refuses it when chosen or switched to, saying why', async () => {
    const fb = sandbox.simulators.get('facebook') as unknown as FacebookSimulator;
    const editorPage = fb.pages.find((pg) => pg.tasks.includes('CREATE_CONTENT') && !pg.tasks.includes('MANAGE'))!;
    expect(editorPage).toBeDefined();
    // The simulator answers tasks per page as GET /me/accounts does.
    const admin = fb.pages.find((pg) => pg.tasks.includes('MANAGE'))!;
    expect(admin.tasks).toEqual(['ANALYZE', 'ADVERTISE', 'MODERATE', 'CREATE_CONTENT', 'MANAGE']);

    const p = await createProfile(ctx, t);
    const dance = await oauthConnect(ctx, t, 'facebook', p, `${CLIENT}/done`);
    const tempToken = new URL(dance.done.headers.location as string).searchParams.get('tempToken')!;
    const list = await ctx.app.inject({ method: 'GET', url: `/v1/connect/facebook/select-page?profileId=${p}&tempToken=${tempToken}`, headers: t.headers });
    const offered = list.json().pages as Array<{ id: string; tasks: string[] }>;
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.map((pg) => pg.id)).not.toContain(editorPage.id);
    for (const pg of offered) expect(pg.tasks).toContain('MANAGE');

    const refused = await ctx.app.inject({ method: 'POST', url: '/v1/connect/facebook/select-page', headers: t.headers, payload: { profileId: p, pageId: editorPage.id, tempToken } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatch(/not MANAGE/);
    expect(refused.json().details).toMatchObject({ requiredTask: 'MANAGE', tasks: editorPage.tasks });

    const chosen = await ctx.app.inject({ method: 'POST', url: '/v1/connect/facebook/select-page', headers: t.headers, payload: { profileId: p, pageId: offered[0].id, tempToken } });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const accountId = chosen.json().account.accountId as string;
    const switchable = await ctx.app.inject({ method: 'GET', url: `/v1/accounts/${accountId}/facebook-page`, headers: t.headers });
    expect(switchable.json().pages.map((pg: { id: string }) => pg.id)).not.toContain(editorPage.id);
    const moved = await ctx.app.inject({ method: 'PUT', url: `/v1/accounts/${accountId}/facebook-page`, headers: t.headers, payload: { selectedPageId: editorPage.id } });
    expect(moved.statusCode).toBe(403);
    expect(moved.json().error).toMatch(/not MANAGE/);
  });
});

describe('6. the sandbox state shows the caller\'s posts only', () => {
  it('GET /v1/sandbox/twitter/state lists my tweets, not another user\'s', async () => {
    const other = await createTenant(ctx);
    const publish = async (who: Tenant, content: string) => {
      const p = await createProfile(ctx, who);
      await oauthConnect(ctx, who, 'twitter', p, `${CLIENT}/done`);
      const accounts = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${p}`, headers: who.headers })).json().accounts as Array<{ _id: string }>;
      const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: who.headers, payload: { content, publishNow: true, platforms: [{ platform: 'twitter', accountId: accounts[0]._id }] } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().post.platforms[0].platformPostId as string;
    };
    const mine = await publish(t, 'my sandbox tweet');
    const theirs = await publish(other, 'someone else\'s private sandbox draft');
    const state = await ctx.app.inject({ method: 'GET', url: '/v1/sandbox/twitter/state', headers: t.headers });
    expect(state.statusCode).toBe(200);
    const tweets = state.json().state.tweets as Array<{ id: string; text: string }>;
    expect(tweets.map((x) => x.id)).toContain(mine);
    expect(tweets.map((x) => x.id)).not.toContain(theirs);
    expect(state.body).not.toContain('someone else');
    const theirState = (await ctx.app.inject({ method: 'GET', url: '/v1/sandbox/twitter/state', headers: other.headers })).json().state;
    expect(theirState.tweets.map((x: { id: string }) => x.id)).toEqual([theirs]);
  });
});
