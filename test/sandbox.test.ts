/**
 * Sandbox mode (HERALD_SANDBOX=on): the simulators and the local Bluesky PDS started in-process
 * by startSandbox(), handed to createServices() as src/main.ts does. Connect X through the
 * authUrl redirect dance, publish, see it published with sandbox labels; Discord and Google Business
 * Profile through their choice step (channel, location) and publish with their own options (a silent
 * message and a thread; an event with a button and an offer, pending until the simulated moderation
 * lets them live); real credentials in the
 * environment are ignored; the SSRF guard still refuses private user media, in Herald and in the
 * simulators that download media by URL (Herald's own media excepted); sandbox off by default.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { SANDBOX_SIMULATORS, startSandbox, type Sandbox } from '../src/sandbox/index.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from './support/app.ts';
import { freePort } from './support/net.ts';
import { runDue, startTestPublisher } from './support/publishing.ts';
import { makeImage, makeVideo } from './support/media.ts';
import { makePng, multipart } from './support/png.ts';
import type { DiscordSimulator } from '../sim/discord/server.ts';
import type { GoogleBusinessSimulator } from '../sim/googlebusiness/server.ts';

let sandbox: Sandbox;
let ctx: TestContext;
let tenant: Tenant;
let profileId: string;
let accountId: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  ctx = await createTestApp({
    // Real-looking credentials that sandbox mode must not use; user media on private addresses stays refused.
    env: { HERALD_SANDBOX: 'on', HERALD_TWITTER_CLIENT_ID: 'real-x-client', HERALD_TWITTER_CLIENT_SECRET: 'real-x-secret', HERALD_ALLOW_PRIVATE_URLS: 'false' },
    deps: { sandbox },
  });
  tenant = await createTenant(ctx);
  profileId = await createProfile(ctx, tenant);
});
afterAll(async () => {
  await ctx?.close();
  await sandbox?.close();
});

const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: tenant.headers });
const post = (payload: object) => ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: tenant.headers, payload });

describe('sandbox mode on', () => {
  it('parses HERALD_SANDBOX (off by default, on|off only)', () => {
    expect(loadConfig({}).sandbox).toBe(false);
    expect(loadConfig({ HERALD_SANDBOX: 'on' }).sandbox).toBe(true);
    expect(() => loadConfig({ HERALD_SANDBOX: 'yes' })).toThrow(/HERALD_SANDBOX/);
  });

  it('labels every /v1 response (errors too) with X-Herald-Sandbox and GET /health with sandbox: true', async () => {
    expect((await get('/v1/profiles')).headers['x-herald-sandbox']).toBe('true');
    const unauth = await ctx.app.inject({ method: 'GET', url: '/v1/profiles' });
    expect(unauth.statusCode).toBe(401);
    expect(unauth.headers['x-herald-sandbox']).toBe('true');
    const health = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(health.json().sandbox).toBe(true);
  });

  it('GET /v1/sandbox describes the simulated platforms, the Bluesky test account and a walk-through', async () => {
    const res = await get('/v1/sandbox');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.enabled).toBe(true);
    expect(body.platforms.map((p: { platform: string }) => p.platform)).toEqual(expect.arrayContaining(['twitter', 'reddit', 'pinterest', 'linkedin', 'threads']));
    for (const p of body.platforms) expect(p.simulatorUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(body.bluesky).toMatchObject({ identifier: 'herald-demo.test', appPassword: expect.any(String) });
    expect(body.walkthrough.length).toBeGreaterThan(3);
    const noPerm = await createTenant(ctx, { permissions: ['posts:read'] });
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/sandbox', headers: noPerm.headers })).statusCode).toBe(403);
  });

  it('connects X through the simulator (authUrl -> instant approval -> Herald callback), ignoring real credentials; the account is a sandbox account', async () => {
    const start = await get(`/v1/connect/twitter?profileId=${profileId}&redirect_url=${encodeURIComponent('https://client.example/done')}`);
    expect(start.statusCode).toBe(200);
    const authUrl = new URL(start.json().authUrl);
    const sim = sandbox.simulators.get('twitter')!;
    expect(authUrl.origin).toBe(sim.url);
    expect(authUrl.searchParams.get('client_id')).toBe(sim.clientId);
    const consent = await fetch(authUrl, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const callback = new URL(consent.headers.get('location')!);
    expect(callback.pathname).toBe('/v1/connect/twitter/callback');
    const done = await ctx.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    expect(done.statusCode).toBe(302);
    expect(new URL(done.headers.location as string).searchParams.get('connected')).toBe('twitter');
    const accounts = (await get(`/v1/accounts?profileId=${profileId}`)).json().accounts;
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ platform: 'twitter', username: 'herald_sim', sandbox: true, isActive: true });
    accountId = accounts[0]._id;
  });

  it.each(['reddit', 'pinterest', 'threads'])('connects %s through its simulator\'s authorize page the same way', async (platform) => {
    const start = await get(`/v1/connect/${platform}?profileId=${profileId}`);
    expect(start.statusCode, start.body).toBe(200);
    const consent = await fetch(start.json().authUrl, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const callback = new URL(consent.headers.get('location')!);
    const done = await ctx.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    expect(new URL(done.headers.location as string).searchParams.get('connected'), done.headers.location as string).toBe(platform);
    const accounts = (await get(`/v1/accounts?profileId=${profileId}`)).json().accounts as Array<{ platform: string; sandbox?: boolean }>;
    expect(accounts.find((a) => a.platform === platform)).toMatchObject({ sandbox: true, isActive: true });
  });

  it('refuses a platform without a simulator, saying sandbox mode never uses real credentials', async () => {
    // Every OAuth platform has a simulator by default: a sandbox started with none shows the refusal.
    const bare = await startSandbox({ simulators: [], bluesky: false });
    try {
      const registry = bare.adapterRegistry(bare.configure(ctx.config));
      expect(() => registry.oauth('twitter')).toThrow(/twitter has no simulator in this sandbox.*never uses real platform credentials/);
      const bluesky = registry.connectShape('bluesky');
      expect(bluesky.kind).toBe('app-password');
      await expect(bluesky.kind === 'app-password' ? bluesky.login('a.test', 'aaaa-bbbb-cccc-dddd') : null).rejects.toThrow(/bluesky has no simulator/);
      expect(bare.describe('http://h').notSimulated).toContain('twitter');
    } finally {
      await bare.close();
    }
  });

  it('publishes text and an uploaded image to the simulator; GET /v1/sandbox/twitter/state shows what it received', async () => {
    const text = await post({ content: 'Hello from the Herald sandbox', publishNow: true, platforms: [{ platform: 'twitter', accountId }] });
    expect(text.statusCode).toBe(201);
    expect(text.headers['x-herald-sandbox']).toBe('true');
    const t = text.json().post.platforms[0];
    expect(t.status).toBe('published');
    expect(t.platformPostId).toMatch(/^\d+$/);

    // Herald's own media is read from storage; the adapter uploads it to the loopback simulator.
    const mp = multipart('files', [{ filename: 'p.png', contentType: 'image/png', data: makePng(3, 7) }]);
    const files = (await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...tenant.headers, 'content-type': mp.contentType }, payload: mp.payload })).json().files;
    const img = await post({ content: 'a sandbox picture', publishNow: true, mediaItems: files, platforms: [{ platform: 'twitter', accountId }] });
    expect(img.statusCode).toBe(201);
    expect(img.json().post.platforms[0].status).toBe('published');

    const state = await get('/v1/sandbox/twitter/state');
    expect(state.statusCode).toBe(200);
    const tweets = state.json().state.tweets as Array<{ id: string; text: string; media_ids: string[] }>;
    expect(tweets.find((x) => x.id === t.platformPostId)?.text).toBe('Hello from the Herald sandbox');
    expect(tweets.find((x) => x.text === 'a sandbox picture')?.media_ids).toHaveLength(1);
    expect(JSON.stringify(state.json())).not.toContain(sandbox.simulators.get('twitter')!.clientSecret);
    expect((await get('/v1/sandbox/facebook/state')).statusCode).toBe(sandbox.simulators.has('facebook') ? 200 : 404);
  });

  it('named queues work in sandbox mode: create a queue, queue a post for the simulated X account into it, preview, next slot, arrange, delete (decision 0062)', async () => {
    const q = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      ctx.app.inject({ method, url, headers: tenant.headers, ...(payload ? { payload } : {}) });
    const created = await q('POST', '/v1/queue/slots', { profileId, name: 'Sandbox evenings', timezone: 'UTC', slots: [{ dayOfWeek: 2, time: '19:00' }, { dayOfWeek: 4, time: '19:00' }] });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers['x-herald-sandbox']).toBe('true');
    const queueId = created.json().schedule._id as string;
    const preview = (await q('GET', `/v1/queue/preview?profileId=${profileId}&queueId=${queueId}&count=2`)).json().slots as string[];
    const queued = await post({ content: 'Queued in the sandbox', queuedFromProfile: profileId, queueId, platforms: [{ platform: 'twitter', accountId }] });
    expect(queued.statusCode, queued.body).toBe(201);
    expect(queued.json().post).toMatchObject({ status: 'scheduled', queueId, scheduledFor: preview[0] });
    expect((await q('GET', `/v1/queue/next-slot?profileId=${profileId}&queueId=${queueId}`)).json()).toMatchObject({ nextSlot: preview[1], queueName: 'Sandbox evenings' });
    const moved = await q('POST', '/v1/queue/arrange', { profileId, queueId, moves: [{ postId: queued.json().post._id, slot: preview[1] }] });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await q('GET', `/v1/queue/slots?profileId=${profileId}&all=true`)).json().queues.map((x: { name: string }) => x.name)).toContain('Sandbox evenings');
    const deleted = await q('DELETE', `/v1/queue/slots?profileId=${profileId}&queueId=${queueId}`);
    expect(deleted.json()).toMatchObject({ deleted: true, deletedCount: 1 });
  });

  it('recycles a post published to the X simulator: the copy, with the next variation, publishes there too (decision 0061)', async () => {
    const res = await post({
      content: 'Evergreen in the sandbox', publishNow: true, platforms: [{ platform: 'twitter', accountId }],
      recycling: { gap: 1, gapFreq: 'week', contentVariations: ['Sandbox copy one', 'Sandbox copy two'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().post._id as string;
    expect(res.json().post.recycling).toMatchObject({ enabled: true, recycleCount: 0 });
    // Its due time comes (moved into the past); the worker's recycling pass makes the copy, the publisher publishes it.
    await ctx.db.query(`UPDATE posts SET recycle_next_at = now() - interval '1 minute' WHERE id = $1`, [id]);
    expect((await ctx.services.posts.recycleDue()).created).toBe(1);
    const { rows: [copy] } = await ctx.db.query<{ id: string }>('SELECT id FROM posts WHERE recycled_from_post_id = $1', [id]);
    expect(await runDue(ctx, await startTestPublisher(ctx, 'sandbox-recycle'), copy.id)).toBe(1);
    const published = (await get(`/v1/posts/${copy.id}`)).json().post;
    expect(published).toMatchObject({ status: 'published', recycledFromPostId: id, content: 'Sandbox copy one' });
    const state = (await get('/v1/sandbox/twitter/state')).json();
    expect(JSON.stringify(state)).toContain('Sandbox copy one');
  });

  it('still refuses user media on private addresses (the SSRF guard is unchanged)', async () => {
    const res = await post({
      content: 'private media', publishNow: true,
      mediaItems: [{ type: 'image', url: `${sandbox.simulators.get('twitter')!.url}/secret.png` }],
      platforms: [{ platform: 'twitter', accountId }],
    });
    const target = res.json().post?.platforms?.[0];
    expect(target?.status).not.toBe('published');
    const { rows } = await ctx.db.query<{ status: string; error_message: string | null }>(
      `SELECT t.status, t.error_message FROM post_targets t JOIN posts p ON p.id = t.post_id WHERE p.content = 'private media'`);
    expect(rows[0].status).toBe('failed');
    expect(rows[0].error_message).toMatch(/private or reserved address/);
  });

  it('follows feeds (/v1/feeds, decision 0065); a feed on a private address is refused as everywhere else', async () => {
    const feeds = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      ctx.app.inject({ method, url, headers: tenant.headers, ...(payload ? { payload } : {}) });
    const refused = await feeds('POST', '/v1/feeds', { profileId, url: `${sandbox.simulators.get('twitter')!.url}/feed.xml`, mode: 'draft' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details.fields.url[0]).toMatch(/private or reserved/);
    const created = await feeds('POST', '/v1/feeds', { profileId, url: 'https://feeds.example.test/sandbox.xml', mode: 'draft', accountIds: [accountId] });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers['x-herald-sandbox']).toBe('true');
    const id = created.json().feed._id;
    expect((await feeds('GET', `/v1/feeds?profileId=${profileId}`)).json().feeds.map((f: { _id: string }) => f._id)).toContain(id);
    expect((await feeds('POST', `/v1/feeds/${id}/check`)).statusCode).toBe(200);
    expect((await feeds('PUT', `/v1/feeds/${id}`, { paused: true })).json().feed.status).toBe('paused');
    expect((await feeds('GET', `/v1/feeds/${id}`)).json()).toMatchObject({ feed: { _id: id }, items: [] });
    expect((await feeds('DELETE', `/v1/feeds/${id}`)).statusCode).toBe(200);
  });

  /** The authUrl dance of a platform with a choice step: answers the chooser's URL (profileId and tempToken). */
  async function danceToChooser(platform: string): Promise<URL> {
    const start = await get(`/v1/connect/${platform}?profileId=${profileId}`);
    expect(start.statusCode, start.body).toBe(200);
    const consent = await fetch(start.json().authUrl, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const callback = new URL(consent.headers.get('location')!);
    const done = await ctx.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    expect(done.statusCode).toBe(302);
    return new URL(done.headers.location as string, 'http://h');
  }
  const accountOf = async (platform: string) =>
    ((await get(`/v1/accounts?profileId=${profileId}`)).json().accounts as Array<{ _id: string; platform: string; sandbox?: boolean }>).find((a) => a.platform === platform)!;

  it('Discord: connects through the bot authorization and the channel choice, publishes a silent message without embeds and a thread under it; the simulator has them', async () => {
    const sim = sandbox.simulators.get('discord') as unknown as DiscordSimulator;
    const chooser = await danceToChooser('discord');
    expect(chooser.pathname).toBe('/dashboard/connect/discord/select-channel');
    const tempToken = chooser.searchParams.get('tempToken')!;
    const listed = await get(`/v1/connect/discord/select-channel?profileId=${profileId}&tempToken=${encodeURIComponent(tempToken)}`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(JSON.stringify(listed.json())).toContain(sim.channels.general.id);
    const chosen = await ctx.app.inject({ method: 'POST', url: '/v1/connect/discord/select-channel', headers: tenant.headers, payload: { profileId, tempToken, channelId: sim.channels.general.id } });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const account = await accountOf('discord');
    expect(account).toMatchObject({ sandbox: true });

    const quiet = await post({ content: 'Sandbox Discord: quiet https://example.com', publishNow: true, platforms: [{ platform: 'discord', accountId: account._id, platformSpecificData: { silent: true, suppressEmbeds: true } }] });
    expect(quiet.statusCode, quiet.body).toBe(201);
    const q = quiet.json().post.platforms[0];
    expect(q.status).toBe('published');
    const message = sim.messages.find((m) => m.id === q.platformPostId)!;
    expect(message).toMatchObject({ channel_id: sim.channels.general.id, content: 'Sandbox Discord: quiet https://example.com', flags: (1 << 12) | (1 << 2) });

    const thread = await post({ content: 'x', publishNow: true, platforms: [{ platform: 'discord', accountId: account._id, platformSpecificData: {
      threadName: 'Sandbox release notes', threadItems: [{ content: 'Sandbox thread start' }, { content: 'Sandbox thread reply' }] } }] });
    expect(thread.statusCode, thread.body).toBe(201);
    const root = thread.json().post.platforms[0].platformPostId as string;
    expect(sim.allChannels.find((c) => c.id === root)).toMatchObject({ type: 11, parent_id: sim.channels.general.id, name: 'Sandbox release notes' });
    expect(sim.inChannel(root).map((m) => m.content)).toEqual(['Sandbox thread reply']);
    // GET /v1/sandbox/discord/state shows the user's messages.
    expect(JSON.stringify((await get('/v1/sandbox/discord/state')).json())).toContain('Sandbox thread reply');
  });

  it('Google Business Profile: connects through the location choice, publishes an event with a button and an offer; pending while Google moderates, published once live', async () => {
    const sim = sandbox.simulators.get('googlebusiness') as unknown as GoogleBusinessSimulator;
    const chooser = await danceToChooser('googlebusiness');
    expect(chooser.pathname).toBe('/dashboard/connect/googlebusiness/select-location');
    const tempToken = chooser.searchParams.get('tempToken')!;
    const location = sim.locations[0];
    const chosen = await ctx.app.inject({ method: 'POST', url: '/v1/connect/googlebusiness/select-location', headers: tenant.headers, payload: { profileId, tempToken, locationId: location.name } });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const account = await accountOf('googlebusiness');
    expect(account).toMatchObject({ sandbox: true });

    const on = (platformSpecificData: object) => [{ platform: 'googlebusiness', accountId: account._id, platformSpecificData }];
    const event = await post({ content: 'Sandbox open day at the bakery', publishNow: true, platforms: on({
      topicType: 'EVENT', event: { title: 'Open day', schedule: { startDate: '2030-05-01T09:00', endDate: '2030-05-01T17:30' } },
      callToAction: { type: 'SIGN_UP', url: 'https://bakery.example/open-day' },
    }) });
    const offer = await post({ content: 'Sandbox spring offer', publishNow: true, platforms: on({
      topicType: 'OFFER', event: { title: 'Spring sale', schedule: { startDate: '2030-03-01', endDate: '2030-03-07' } },
      offer: { couponCode: 'SPRING10', redeemOnlineUrl: 'https://bakery.example/sale', termsConditions: 'One per customer' },
    }) });
    for (const res of [event, offer]) {
      // The sandbox's Google moderates for 5 seconds: the post is made but not yet live (202, pending).
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json().post.platforms[0]).toMatchObject({ status: 'pending', goesLiveAt: expect.any(String) });
      expect(res.json().message).toMatch(/^Published on the platform but not live yet/);
    }
    const name = (res: typeof event) => res.json().post.platforms[0].platformPostId as string;
    expect(sim.posts.find((p) => p.name === name(event))!.body).toMatchObject({
      topicType: 'EVENT', summary: 'Sandbox open day at the bakery', event: { title: 'Open day', schedule: { startDate: { year: 2030, month: 5, day: 1 }, startTime: { hours: 9, minutes: 0 } } },
      callToAction: { actionType: 'SIGN_UP', url: 'https://bakery.example/open-day' },
    });
    expect(sim.posts.find((p) => p.name === name(offer))!.body).toMatchObject({ topicType: 'OFFER', offer: { couponCode: 'SPRING10', redeemOnlineUrl: 'https://bakery.example/sale' } });
    const creates = sim.posts.length;
    // Once Google has decided (the sandbox's 5 seconds), the worker's next look confirms it.
    await new Promise((r) => setTimeout(r, 5_200));
    const worker = await startTestPublisher(ctx, 'sandbox-gbp');
    for (const res of [event, offer]) {
      const id = res.json().post._id as string;
      expect(await runDue(ctx, worker, id)).toBe(1);
      expect((await get(`/v1/posts/${id}`)).json().post.platforms[0]).toMatchObject({ status: 'published', platformPostUrl: expect.stringMatching(/lpsid=/) });
    }
    expect(sim.posts.length).toBe(creates);
    expect(sim.posts.filter((p) => p.name === name(event) || p.name === name(offer)).map((p) => p.state)).toEqual(['LIVE', 'LIVE']);
  });

  it('does not publish a real (non-sandbox) account while sandbox mode is on', async () => {
    const real = await insertAccount(ctx, tenant, profileId, 'twitter');
    const res = await post({ content: 'to a real account', publishNow: true, platforms: [{ platform: 'twitter', accountId: real }] });
    const { rows } = await ctx.db.query<{ status: string; error_message: string | null }>(
      `SELECT t.status, t.error_message FROM post_targets t JOIN posts p ON p.id = t.post_id WHERE p.id = $1`, [res.json().post._id]);
    expect(rows[0].status).toBe('failed');
    expect(rows[0].error_message).toMatch(/Sandbox mode is on: only sandbox/);
  });

  it('connects the ready-made Bluesky account on the local PDS and publishes to it', async () => {
    const bsky = sandbox.bluesky!;
    const conn = await ctx.app.inject({
      method: 'POST', url: '/v1/connect/bluesky/credentials', headers: tenant.headers,
      payload: { identifier: bsky.identifier, appPassword: bsky.appPassword, state: profileId },
    });
    expect(conn.statusCode).toBe(200);
    expect(conn.json().account).toMatchObject({ platform: 'bluesky', sandbox: true });
    const res = await post({ content: 'Hello Bluesky sandbox', publishNow: true, platforms: [{ platform: 'bluesky', accountId: conn.json().account._id }] });
    expect(res.statusCode).toBe(201);
    expect(res.json().post.platforms[0].status).toBe('published');
    const state = (await get('/v1/sandbox/bluesky/state')).json().state;
    expect(state.posts.map((p: { value: { text: string } }) => p.value.text)).toContain('Hello Bluesky sandbox');
  });
});

describe('sandbox simulators that download media by URL (SSRF guard)', () => {
  // A sandbox of its own with the URL-pulling simulators, and a Herald that really listens (the
  // simulators download Herald's media from its loopback origin) with private URLs refused.
  let sb: Sandbox;
  let app: TestContext;
  let t: Tenant;
  let pid: string;
  let victim: http.Server;
  let victimUrl: string;
  const victimHits: string[] = [];

  beforeAll(async () => {
    victim = http.createServer((req, res) => { victimHits.push(req.url ?? ''); res.writeHead(200, { 'content-type': 'image/png' }).end(makePng(2, 2)); });
    await new Promise<void>((r) => victim.listen(0, '127.0.0.1', r));
    victimUrl = `http://127.0.0.1:${(victim.address() as AddressInfo).port}`;
    sb = await startSandbox({ bluesky: false, simulators: SANDBOX_SIMULATORS.filter((e) => ['threads', 'instagram', 'facebook', 'tiktok'].includes(e.platform)) });
    app = await createTestApp({ listen: true, env: { HERALD_SANDBOX: 'on', HERALD_ALLOW_PRIVATE_URLS: 'false', PORT: String(await freePort()) }, deps: { sandbox: sb } });
    t = await createTenant(app);
    pid = await createProfile(app, t);
  });
  afterAll(async () => {
    await app?.close();
    await sb?.close();
    await new Promise((r) => victim?.close(r));
  });

  async function connect(platform: string): Promise<string> {
    const start = await app.app.inject({ method: 'GET', url: `/v1/connect/${platform}?profileId=${pid}`, headers: t.headers });
    const consent = await fetch(start.json().authUrl, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location')!);
    await app.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    const accounts = (await app.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${pid}`, headers: t.headers })).json().accounts as Array<{ _id: string; platform: string }>;
    return accounts.find((a) => a.platform === platform)!._id;
  }
  async function publish(platform: string, accountId: string, content: string, mediaItems: object[]) {
    const res = await app.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers, payload: { content, publishNow: true, mediaItems, platforms: [{ platform, accountId }] } });
    expect([201, 207], res.body).toContain(res.statusCode);
    const { rows } = await app.db.query<{ status: string; error_message: string | null }>('SELECT status, error_message FROM post_targets WHERE post_id = $1', [res.json().post._id]);
    return rows[0];
  }

  it.each(['threads', 'instagram'])('%s: a media URL on another loopback port never reaches it and the target fails clearly; Herald\'s own media publishes', async (platform) => {
    const accountId = await connect(platform);
    const before = victimHits.length;
    const refused = await publish(platform, accountId, `probe ${platform}`, [{ type: 'image', url: `${victimUrl}/x.jpg` }]);
    expect(refused.status).toBe('failed');
    expect(refused.error_message).toMatch(/could not be fetched.*private or reserved address/);
    // Herald's own origin on another path is not Herald's media either.
    const sideDoor = await publish(platform, accountId, `side door ${platform}`, [{ type: 'image', url: `${app.services.publicUrl}/v1/openapi.json?x.jpg` }]);
    expect(sideDoor.status).toBe('failed');
    expect(victimHits.length).toBe(before);

    const mp = multipart('files', [{ filename: 'p.jpg', contentType: 'image/jpeg', data: makeImage({ format: 'jpeg', width: 64, height: 64 }) }]); // Instagram takes JPEG only
    const up = await app.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, 'content-type': mp.contentType }, payload: mp.payload });
    expect(up.statusCode, up.body).toBe(200);
    const own = await publish(platform, accountId, `own media ${platform}`, up.json().files);
    expect(own, JSON.stringify(own)).toMatchObject({ status: 'published' });
  });

  it('tiktok: a video post publishes on a machine without ffprobe (the simulator reads the MP4 duration itself)', async () => {
    const accountId = await connect('tiktok');
    const mp = multipart('files', [{ filename: 'clip.mp4', contentType: 'video/mp4', data: makeVideo({ seconds: 2 }) }]);
    const noTools = await fs.mkdtemp(path.join(os.tmpdir(), 'no-ffprobe-'));
    const savedPath = process.env.PATH;
    process.env.PATH = noTools; // neither Herald nor the simulator finds ffprobe from here on
    try {
      const up = await app.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, 'content-type': mp.contentType }, payload: mp.payload });
      expect(up.statusCode, up.body).toBe(200);
      const res = await publish('tiktok', accountId, 'tiktok without ffprobe', up.json().files);
      expect(res, JSON.stringify(res)).toMatchObject({ status: 'published' });
    } finally {
      process.env.PATH = savedPath;
      await fs.rm(noTools, { recursive: true, force: true });
    }
  });

  it('facebook: the documented story example publishes end to end with Herald\'s own (plain HTTP, loopback) media; the simulator decides', async () => {
    const start = await app.app.inject({ method: 'GET', url: `/v1/connect/facebook?profileId=${pid}`, headers: t.headers });
    const consent = await fetch(start.json().authUrl, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location')!);
    const picker = new URL((await app.app.inject({ method: 'GET', url: callback.pathname + callback.search })).headers.location as string, 'http://h');
    const tempToken = picker.searchParams.get('tempToken')!;
    const pages = (await app.app.inject({ method: 'GET', url: `/v1/connect/facebook/select-page?profileId=${pid}&tempToken=${tempToken}`, headers: t.headers })).json().pages as Array<{ id: string; tasks: string[] }>;
    const page = pages.find((p) => p.tasks.includes('CREATE_CONTENT'))!;
    const chosen = await app.app.inject({ method: 'POST', url: '/v1/connect/facebook/select-page', headers: t.headers, payload: { profileId: pid, pageId: page.id, tempToken } });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const accounts = (await app.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${pid}`, headers: t.headers })).json().accounts as Array<{ _id: string; platform: string }>;
    const accountId = accounts.find((a) => a.platform === 'facebook')!._id;

    const mp = multipart('files', [{ filename: 'story.png', contentType: 'image/png', data: makePng(9, 16) }]);
    const up = await app.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, 'content-type': mp.contentType }, payload: mp.payload });
    expect(up.json().files[0].url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    const res = await app.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers, payload: {
      content: 'story', publishNow: true, mediaItems: up.json().files, platforms: [{ platform: 'facebook', accountId, platformSpecificData: { contentType: 'story', pageId: page.id } }],
    } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().post.platforms[0]).toMatchObject({ status: 'published', platformPostUrl: expect.stringMatching(/facebook\.com\/stories\//) });
    const stories = (await sb.state('facebook'))!.posts as Record<string, { kind: string }> | Array<{ kind: string }>;
    expect(Object.values(stories).some((p) => p.kind === 'photo_story')).toBe(true);
    // The simulator still decides about the media: a URL it may not fetch fails the story.
    const probe = await app.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers, payload: {
      content: 'story probe', publishNow: true, mediaItems: [{ type: 'image', url: `${victimUrl}/x.jpg` }],
      platforms: [{ platform: 'facebook', accountId, platformSpecificData: { contentType: 'story' } }],
    } });
    expect(probe.json().post.platforms[0].status, probe.body).toBe('failed');
    expect(probe.json().post.platforms[0].errorMessage).not.toMatch(/HTTPS/);
  });
});

describe('sandbox mode off (the default)', () => {
  let off: TestContext;
  beforeAll(async () => { off = await createTestApp(); });
  afterAll(async () => { await off?.close(); });

  it('has no sandbox header, sandbox: false in /health, and GET /v1/sandbox says how to turn it on', async () => {
    const t = await createTenant(off);
    const res = await off.app.inject({ method: 'GET', url: '/v1/sandbox', headers: t.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-herald-sandbox']).toBeUndefined();
    expect(res.json()).toMatchObject({ enabled: false, message: expect.stringMatching(/HERALD_SANDBOX=on/) });
    expect((await off.app.inject({ method: 'GET', url: '/health' })).json().sandbox).toBe(false);
    expect((await off.app.inject({ method: 'GET', url: '/v1/sandbox/twitter/state', headers: t.headers })).statusCode).toBe(404);
  });

  it('does not publish a sandbox account when sandbox mode is off', async () => {
    const t = await createTenant(off);
    const p = await createProfile(off, t);
    const id = await insertAccount(off, t, p, 'twitter');
    await off.db.query(`UPDATE accounts SET settings = '{"sandbox": true}' WHERE id = $1`, [id]);
    expect((await off.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${p}`, headers: t.headers })).json().accounts[0]).toMatchObject({ _id: id, sandbox: true });
    const res = await off.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers, payload: { content: 'sandbox leftovers', publishNow: true, platforms: [{ platform: 'twitter', accountId: id }] } });
    const { rows } = await off.db.query<{ status: string; error_message: string | null }>(
      'SELECT status, error_message FROM post_targets WHERE post_id = $1', [res.json().post._id]);
    expect(rows[0].status).toBe('failed');
    expect(rows[0].error_message).toMatch(/sandbox \(simulator\) account and sandbox mode is off/);
  });
});
