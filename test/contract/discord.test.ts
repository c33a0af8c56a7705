/**
 * Discord adapter against the Discord simulator, through the real app: connecting (OAuth with
 * the bot scope adds the bot to the server, then the channel is chosen: permissions checked),
 * publishing (text, files, a thread from the first message, a forum post, an announcement
 * crossposted, the flags), the rules refused before any call and sent past Herald to the
 * simulator, the exactly-once machinery (nonce, exact look-back after a lost answer, a thread
 * resumed after part of it was posted), revocation (the bot removed), unpublish and reactions.
 */
import { describe, expect, it } from 'vitest';
import { P, startDiscordSimulator, type DiscordSimulator, type SimChannel } from '../../sim/discord/server.ts';
import { DISCORD_BOT_PERMISSIONS, snowflakeAt, snowflakeTime } from '../../src/platforms/discord/api.ts';
import type { Tenant } from '../support/app.ts';
import { createProfile } from '../support/app.ts';
import { platformEnv, platformHarness, type ConnectResult, type PlatformHarness } from '../support/harness.ts';
import { makeImage } from '../support/media.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { cases } from '../rules/discord.cases.ts';
import { harnessPublisher, simulatorRuleCases } from './rule-cases.ts';
import { platformContract } from './suite.ts';

/** A fetch answer whose JSON the test reads loosely. */
type JsonResponse = Omit<Response, 'json'> & { json(): Promise<any> };

let sim: DiscordSimulator;
let media: MediaServer;
let img: string[];
/** The channel the harness's connect chooses (the shared cases publish to #general). */
let chooseChannel = () => sim.channels.general.id;

async function choose(h: PlatformHarness, t: Tenant, location: string, channelId: string) {
  const selectUrl = new URL(location, 'http://x');
  expect(selectUrl.pathname).toBe('/dashboard/connect/discord/select-channel');
  return h.ctx.app.inject({ method: 'POST', url: '/v1/connect/discord/select-channel', headers: t.headers, payload: {
    profileId: selectUrl.searchParams.get('profileId'), tempToken: selectUrl.searchParams.get('tempToken'), channelId,
  } });
}

const h = platformHarness({
  platform: 'discord', tag: 'dc',
  async setup() {
    // Discord's per-channel buckets are not documented numbers: generous here, the 429 has its own case.
    sim = await startDiscordSimulator({ messagesPerWindow: 10_000 });
    media = await startMediaServer();
    img = [1, 2, 3].map((i) => media.put(`/img${i}.png`, makeImage({ format: 'png', width: 60 + i, height: 60 }), 'image/png'));
    return { env: { ...platformEnv('discord', sim), HERALD_DISCORD_BOT_TOKEN: sim.botToken } };
  },
  teardown: async () => { await sim?.close(); await media?.close(); },
  async connect(h, dance, t): Promise<ConnectResult> {
    const chosen = await choose(h, t, dance.done.headers.location as string, chooseChannel());
    expect(chosen.statusCode, chosen.body).toBe(200);
    return { ...dance, done: { statusCode: 302, headers: { location: chosen.json().redirect_url as string } }, selectUrl: new URL(dance.done.headers.location as string, 'http://x') };
  },
});

const post = (payload: object) => h.post(payload);
const on = (extra: object = {}, id = h.accountId) => [{ platform: 'discord', accountId: id, ...extra }];
const byContent = (content: string) => sim.messages.filter((m) => m.content === content && !m.deleted);
const creates = () => sim.calls.get('POST /api/v10/channels/:cid/messages') ?? 0;
/** Connects one more account on a new profile for `channel` and answers its id. */
async function connectChannel(channel: SimChannel): Promise<string> {
  const before = chooseChannel;
  chooseChannel = () => channel.id;
  try {
    return await h.connectNew();
  } finally {
    chooseChannel = before;
  }
}

const contract = platformContract({
  platform: 'discord', name: 'Discord', h,
  payload: (content) => ({ content, platforms: on() }),
  fault: (kind) => sim.addFault(kind === 'list_unreadable' ? { op: 'list', kind: 'server_error', count: 1 } : { op: 'message', kind, count: 1 }),
  created: (content) => byContent(content),
  creates,
  lists: () => sim.calls.get('GET /api/v10/channels/:cid/messages') ?? 0,
  bury: (n, prefix) => { for (let i = 0; i < n; i++) sim.addMessage(sim.channels.general.id, `${prefix} ${i}`); },
});

contract.connectOwn('connecting a channel', () => {
  it('the bot is added to the server the user picks (bot scope, the permissions integer), then the channel is chosen; the account is the channel, with no token kept', async () => {
    const start = await h.ctx.app.inject({ method: 'GET', url: `/v1/connect/discord?profileId=${h.profileId}`, headers: h.tenant.headers });
    expect(start.statusCode, start.body).toBe(200);
    const au = new URL(start.json().authUrl);
    expect(au.pathname).toBe('/oauth2/authorize');
    expect(au.searchParams.get('scope')).toBe('identify bot');
    expect(au.searchParams.get('permissions')).toBe('309237763072');
    expect(DISCORD_BOT_PERMISSIONS).toBe(309237763072n);
    expect(sim.botInGuild()).toBe(false);
    const consent = await fetch(start.json().authUrl, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location')!);
    expect(callback.searchParams.get('guild_id')).toBe(sim.guild.id);
    const done = await h.ctx.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    expect(done.statusCode).toBe(302);
    expect(sim.botInGuild()).toBe(true);
    const to = new URL(done.headers.location as string, 'http://x');
    expect(to.pathname).toBe('/dashboard/connect/discord/select-channel');
    const tempToken = to.searchParams.get('tempToken')!;
    expect(await h.accounts()).toHaveLength(0);

    // Text, announcement and forum channels, in order, each with what the bot lacks; no voice channel.
    const list = await h.ctx.app.inject({ method: 'GET', url: `/v1/connect/discord/select-channel?profileId=${h.profileId}&tempToken=${tempToken}`, headers: h.tenant.headers });
    expect(list.statusCode, list.body).toBe(200);
    const channels = list.json().channels as Array<{ id: string; name: string; typeName: string; missingPermissions: string[] }>;
    expect(channels.map((c) => [c.name, c.typeName, c.missingPermissions])).toEqual([
      ['general', 'text', []], ['announcements', 'announcement', []], ['help-forum', 'forum', []], ['rules', 'text', ['SEND_MESSAGES']], ['drop-box', 'text', ['READ_MESSAGE_HISTORY']],
    ]);
    expect(channels[0]).toMatchObject({ id: sim.channels.general.id, type: 0, guildId: sim.guild.id, guildName: 'Herald Sim Server' });

    const pick = (channelId: string) => h.ctx.app.inject({ method: 'POST', url: '/v1/connect/discord/select-channel', headers: h.tenant.headers, payload: { profileId: h.profileId, tempToken, channelId } });
    const noHistory = await pick(sim.channels.nohistory.id);
    expect(noHistory.statusCode).toBe(403);
    expect(noHistory.json().error).toMatch(/lacks READ_MESSAGE_HISTORY in #drop-box/);
    expect((await pick(sim.channels.readonly.id)).json().error).toMatch(/lacks SEND_MESSAGES/);
    expect((await pick(sim.channels.voice.id)).statusCode).toBe(403);
    const chosen = await pick(sim.channels.general.id);
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({ message: 'Discord channel connected successfully', account: { platform: 'discord', username: 'general', displayName: '#general (Herald Sim Server)', isActive: true } });
    h.accountId = chosen.json().account._id;
    const row = await h.account();
    expect(row.platform_user_id).toBe(sim.channels.general.id);
    expect(row.settings).toMatchObject({ guildId: sim.guild.id, channelId: sim.channels.general.id, channelType: 0, discordUserId: sim.user.id });
    expect(row.token_expires_at).toBeNull();
    expect(await h.credentials()).toEqual({});
    const reuse = await pick(sim.channels.general.id);
    expect(reuse.statusCode).toBe(400);
  });

  it('API completion (POST /v1/connect/discord) answers a tempToken and the channels, not an account', async () => {
    const start = (await h.ctx.app.inject({ method: 'GET', url: `/v1/connect/discord?profileId=${h.profileId}`, headers: h.tenant.headers })).json();
    const code = new URL((await fetch(start.authUrl, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code');
    const res = await h.ctx.app.inject({ method: 'POST', url: '/v1/connect/discord', headers: h.tenant.headers, payload: { code, state: start.state, profileId: h.profileId } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: expect.stringMatching(/select-channel/), tempToken: expect.any(String) });
    expect(res.json().account).toBeUndefined();
    expect(res.json().channels.map((c: { name: string }) => c.name)).toContain('help-forum');
  });

  it('names HERALD_DISCORD_BOT_TOKEN when only the bot token is missing', async () => {
    const { createTestApp, createTenant } = await import('../support/app.ts');
    const bare = await createTestApp({ env: platformEnv('discord', sim) });
    try {
      const t = await createTenant(bare);
      const p = await createProfile(bare, t);
      const res = await bare.app.inject({ method: 'GET', url: `/v1/connect/discord?profileId=${p}`, headers: t.headers });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/set HERALD_DISCORD_BOT_TOKEN \(/);
    } finally {
      await bare.close();
    }
  });
});

describe('Discord: publishing', () => {
  it('publishes a message as the bot: nonce with enforce_nonce, the message URL, no flags by default', async () => {
    const res = await post({ content: 'Hello Discord\nsecond line', publishNow: true, platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    const m = sim.messages.find((x) => x.id === t.platformPostId)!;
    expect(m).toMatchObject({ channel_id: sim.channels.general.id, content: 'Hello Discord\nsecond line', flags: 0, author: { id: sim.bot.id, bot: true } });
    expect(String(m.nonce).length).toBeLessThanOrEqual(25);
    expect(t.platformPostUrl).toBe(`https://discord.com/channels/${sim.guild.id}/${sim.channels.general.id}/${m.id}`);
  });

  it('silent and suppressEmbeds set the message flags SUPPRESS_NOTIFICATIONS and SUPPRESS_EMBEDS', async () => {
    const res = await post({ content: 'quiet https://example.com', publishNow: true, platforms: on({ platformSpecificData: { silent: true, suppressEmbeds: true } }) });
    expect(res.statusCode, res.body).toBe(201);
    expect(byContent('quiet https://example.com')[0].flags).toBe((1 << 12) | (1 << 2));
  });

  it('publishes several files in one message (multipart payload_json + files[n]), alt text as the description', async () => {
    const res = await post({ content: 'three pictures', publishNow: true, mediaItems: img.map((url, i) => ({ type: 'image', url, ...(i === 0 ? { altText: 'the first' } : {}) })), platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    const m = byContent('three pictures')[0];
    expect(m.attachments.map((a) => a.filename)).toEqual(['img1.png', 'img2.png', 'img3.png']);
    expect(m.attachments[0]).toMatchObject({ description: 'the first', content_type: 'image/png' });
    expect(m.attachments[0].size).toBeGreaterThan(50);
  });

  it('a thread: the first message, a public thread started from it (threadName), the other items in it, in order', async () => {
    // Herald's thread input gives media to the first item (the post's mediaItems).
    const res = await post({ content: 'x', publishNow: true, mediaItems: [{ type: 'image', url: img[0] }], platforms: on({ platformSpecificData: { threadName: 'Release notes', threadItems: [{ content: 'Part one' }, { content: 'Part two' }, { content: 'Part three' }] } }) });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    const root = byContent('Part one')[0];
    expect(t.platformPostId).toBe(root.id);
    const thread = sim.allChannels.find((c) => c.id === root.id)!;
    expect(thread).toMatchObject({ type: 11, parent_id: sim.channels.general.id, name: 'Release notes' });
    expect(sim.inChannel(root.id).map((m) => m.content)).toEqual(['Part two', 'Part three']);
    expect(root.attachments.map((a) => a.filename)).toEqual(['img1.png']);
    const target = await h.target(res.json().post._id);
    expect((target.result as { thread?: Array<{ platformPostId: string; platformPostUrl: string }> }).thread?.map((x) => x.platformPostId)).toEqual([root.id, ...sim.inChannel(root.id).map((m) => m.id)]);
  });

  it('a forum channel: a forum post named by forumThreadName with its tags, the other items in it', async () => {
    const id = await connectChannel(sim.channels.forum);
    const tag = sim.channels.forum.available_tags![1].id;
    const res = await post({ content: 'x', publishNow: true, platforms: on({ platformSpecificData: { forumThreadName: 'Weekly update', forumAppliedTags: [tag], threadItems: [{ content: 'Forum starter' }, { content: 'Forum reply' }] } }, id) });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    const thread = sim.allChannels.find((c) => c.id === t.platformPostId)!;
    expect(thread).toMatchObject({ type: 11, parent_id: sim.channels.forum.id, name: 'Weekly update', applied_tags: [tag], owner_id: sim.bot.id });
    expect(sim.inChannel(thread.id).map((m) => m.content)).toEqual(['Forum starter', 'Forum reply']);
    expect(t.platformPostUrl).toBe(`https://discord.com/channels/${sim.guild.id}/${thread.id}`);
    // Without a name, the first line names it.
    const plain = await post({ content: 'First line is the title\nand the body', publishNow: true, platforms: on({}, id) });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(sim.allChannels.find((c) => c.id === plain.json().post.platforms[0].platformPostId)!.name).toBe('First line is the title');
    // The forum options belong to a forum: refused for the text channel's account (the account's settings are read).
    const refused = await post({ content: 'not a forum', publishNow: true, platforms: on({ platformSpecificData: { forumThreadName: 'x' } }) });
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json().details.fields)).toMatch(/discord\.forum_only/);
  });

  it('an announcement channel with crosspost: the message is published to following servers; a text channel refuses the option', async () => {
    const id = await connectChannel(sim.channels.announcements);
    const res = await post({ content: 'Big news', publishNow: true, platforms: on({ platformSpecificData: { crosspost: true } }, id) });
    expect(res.statusCode, res.body).toBe(201);
    expect(byContent('Big news')[0].flags & 1).toBe(1);
    expect((await h.target(res.json().post._id)).result?.extra?.crosspost).toEqual({ status: 'published' });
    const refused = await post({ content: 'crosspost here?', publishNow: true, platforms: on({ platformSpecificData: { crosspost: true } }) });
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json().details.fields)).toMatch(/discord\.crosspost\.announcement_only/);
  });

  it('refuses rule violations before any Discord call, naming the rule', async () => {
    const before = creates();
    const fields = async (payload: object) => {
      const res = await post(payload);
      expect(res.statusCode, res.body).toBe(400);
      return JSON.stringify(res.json().details.fields);
    };
    expect(await fields({ content: 'a'.repeat(2001), publishNow: true, platforms: on() })).toMatch(/discord\.text\.max_length/);
    expect(await fields({ content: 'x', publishNow: true, mediaItems: Array.from({ length: 11 }, () => ({ type: 'image', url: img[0] })), platforms: on() })).toMatch(/discord\.media\.max_items/);
    expect(await fields({ content: 'x', publishNow: true, platforms: on({ platformSpecificData: { silent: 'yes' } }) })).toMatch(/discord\.options\.boolean/);
    expect(await fields({ content: 'x', publishNow: true, platforms: on({ platformSpecificData: { threadName: 't'.repeat(101), threadItems: [{ content: 'a' }, { content: 'b' }] } }) })).toMatch(/discord\.thread_name\.length/);
    expect(creates()).toBe(before);
  });
});

describe('Discord: the rule table against the simulator', () => {
  simulatorRuleCases({ cases, publisher: harnessPublisher(h, 'discord'), media: () => media });
});

describe('Discord: the simulator is as strict as Discord', () => {
  const api = (path: string, init: RequestInit & { bot?: boolean } = {}) => fetch(`${sim.url}/api/v10${path}`, {
    ...init, headers: { ...(init.bot === false ? {} : { authorization: `Bot ${sim.botToken}` }), 'content-type': 'application/json', ...(init.headers as Record<string, string> ?? {}) },
  }) as Promise<JsonResponse>;
  const send = (channelId: string, body: object) => api(`/channels/${channelId}/messages`, { method: 'POST', body: JSON.stringify(body) });

  it('bot auth, permissions, channel types, the 2,000 characters in Discord\'s error shape, nonces', async () => {
    expect(sim.botInGuild()).toBe(true);
    const g = sim.channels.general.id;
    const bearer = await fetch(`${sim.url}/api/v10/channels/${g}/messages`, { method: 'POST', headers: { authorization: `Bearer ${sim.botToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ content: 'x' }) });
    expect(bearer.status).toBe(401);
    expect(await bearer.json()).toEqual({ message: '401: Unauthorized', code: 0 });
    expect(await (await send(sim.channels.readonly.id, { content: 'x' })).json()).toEqual({ message: 'Missing Permissions', code: 50013 });
    expect((await (await send(sim.channels.forum.id, { content: 'x' })).json()).code).toBe(40058);
    expect((await (await send('1', { content: 'x' })).json()).code).toBe(10003);
    const long = await send(g, { content: 'a'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({ code: 50035, message: 'Invalid Form Body', errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] } } });
    expect((await (await send(g, { content: 'x', nonce: 'n'.repeat(26) })).json()).code).toBe(50035);
    expect((await (await send(g, { content: 'x', flags: 1 << 3 })).json()).code).toBe(50035);
    // enforce_nonce: the same author's nonce again answers the first message, no second one.
    const a = await (await send(g, { content: 'nonce test', nonce: 'abc123', enforce_nonce: true })).json();
    const b = await (await send(g, { content: 'nonce test', nonce: 'abc123', enforce_nonce: true })).json();
    expect(b.id).toBe(a.id);
    expect(byContent('nonce test')).toHaveLength(1);
    // Without READ_MESSAGE_HISTORY the listing is empty, not an error.
    sim.addMessage(sim.channels.nohistory.id, 'hidden');
    const hidden = await api(`/channels/${sim.channels.nohistory.id}/messages`);
    expect(hidden.status).toBe(200);
    expect(await hidden.json()).toEqual([]);
    expect((await (await api(`/channels/${g}/messages?limit=101`)).json()).code).toBe(50035);
  });

  it('paging with after (the limit oldest after it, newest first) and before; snowflakes carry their time', async () => {
    const c = sim.channels.announcements.id;
    // Page from the channel's newest message so messages earlier tests posted here are not in the window.
    const newest = await (await api(`/channels/${c}/messages?limit=1`)).json() as Array<{ id: string }>;
    const from = newest[0]?.id ?? snowflakeAt(new Date(Date.now() - 1000));
    for (let i = 0; i < 5; i++) sim.addMessage(c, `page ${i}`);
    const first = await (await api(`/channels/${c}/messages?after=${from}&limit=2`)).json() as Array<{ id: string; content: string }>;
    expect(first.map((m) => m.content)).toEqual(['page 1', 'page 0']);
    const next = await (await api(`/channels/${c}/messages?after=${first[0].id}&limit=2`)).json() as Array<{ content: string }>;
    expect(next.map((m) => m.content)).toEqual(['page 3', 'page 2']);
    const older = await (await api(`/channels/${c}/messages?before=${first[0].id}&limit=100`)).json() as Array<{ content: string }>;
    expect(older[0].content).toBe('page 0');
    expect(Math.abs(snowflakeTime(first[0].id).getTime() - Date.now())).toBeLessThan(5000);
  });

  it('the channel\'s message bucket: 429 with retry_after and the X-RateLimit headers', async () => {
    const strict = await startDiscordSimulator({ messagesPerWindow: 2, windowMs: 60_000 });
    try {
      const consent = await fetch(`${strict.url}/oauth2/authorize?client_id=${strict.clientId}&scope=bot&permissions=${P.VIEW_CHANNEL | P.SEND_MESSAGES}&response_type=code&redirect_uri=https://h.example/cb`, { redirect: 'manual' });
      expect(consent.status).toBe(302);
      const s = (body: object): Promise<JsonResponse> => fetch(`${strict.url}/api/v10/channels/${strict.channels.general.id}/messages`, { method: 'POST', headers: { authorization: `Bot ${strict.botToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect((await s({ content: '1' })).headers.get('x-ratelimit-bucket')).toBeTruthy();
      await s({ content: '2' });
      const limited = await s({ content: '3' });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
      const body = await limited.json();
      expect(body).toMatchObject({ message: 'You are being rate limited.', global: false });
      expect(body.retry_after).toBeGreaterThan(0);
      // Files need ATTACH_FILES, which this install did not grant.
      const form = new FormData();
      form.set('payload_json', JSON.stringify({ content: 'file' }));
      form.set('files[0]', new Blob([Buffer.from('x')]), 'a.txt');
      const noAttach: JsonResponse = await fetch(`${strict.url}/api/v10/channels/${strict.channels.announcements.id}/messages`, { method: 'POST', headers: { authorization: `Bot ${strict.botToken}` }, body: form });
      expect((await noAttach.json()).code).toBe(50013);
    } finally {
      await strict.close();
    }
  });
});

contract.failures({
  rateLimit: { title: '429 (retry_after 64.57 s): the target waits that long, then publishes once', waiting: (t) => expect(t.run_at!.getTime()).toBeGreaterThan(Date.now() + 60_000) },
  serverError: {},
  lostAnswer: { title: 'answer lost after Discord created the message: the look-back finds it (bot author, content), no duplicate' },
  lostAnswerBurst: { title: 'answer lost, then 250 newer messages: verify pages with after= past them and finds it', n: 250, minLists: 3 },
  verifyUnreadable: { title: 'the channel cannot be read during verify (502): not sent again, asked again later' },
  dropped: { title: 'connection dropped before Discord acted: verify says not published, sent once' },
  lookBack: { title: 'connection dropped, 250 messages since: the complete look-back finds nothing, sent once', n: 250, minLists: 3 },
  more() {
    it('a thread interrupted after its second message: verify finds the first two and the thread, the rest follow once', async () => {
      // The third create (the second item in the thread) is dropped after Discord made it.
      sim.addFault({ op: 'message', kind: 'drop_after_create', count: 1, after: 1 });
      const id = (await post({ content: 'x', scheduledFor: '2030-01-01T00:00:00Z', platforms: on({ platformSpecificData: { threadItems: [{ content: 'resume one' }, { content: 'resume two' }, { content: 'resume three' }] } }) })).json().post._id;
      await h.runDue(id);
      expect((await h.target(id)).status).toBe('pending');
      expect(byContent('resume two')).toHaveLength(1);
      expect(byContent('resume three')).toHaveLength(0);
      await h.runDue(id);
      const t = await h.target(id);
      expect(t.status, t.error_message ?? '').toBe('published');
      for (const c of ['resume one', 'resume two', 'resume three']) expect(byContent(c)).toHaveLength(1);
      const root = byContent('resume one')[0];
      expect(t.platform_post_id).toBe(root.id);
      expect(sim.inChannel(root.id).map((m) => m.content)).toEqual(['resume two', 'resume three']);
    });

    it('Herald stopped after a forum post was made: verify finds the post among the forum\'s threads, no second post', async () => {
      const id = await connectChannel(sim.channels.forum);
      const postId = (await post({ content: 'Crash in the forum', scheduledFor: '2030-01-01T00:00:00Z', platforms: on({}, id) })).json().post._id;
      await h.runDue(postId);
      expect((await h.target(postId)).status).toBe('published');
      const threads = () => sim.allChannels.filter((c) => c.name === 'Crash in the forum');
      expect(threads()).toHaveLength(1);
      // Archived since: found in the archive listing.
      threads()[0].archived = true;
      threads()[0].archive_timestamp = new Date().toISOString();
      await h.forgetOutcome(postId);
      await h.runDue(postId);
      const t = await h.target(postId);
      expect(t.status).toBe('published');
      expect(t.platform_post_id).toBe(threads()[0].id);
      expect(threads()).toHaveLength(1);
    });

    it('two messages of the bot since the attempt match what was sent: verify cannot tell which, and sends nothing', async () => {
      const first = await post({ content: 'said twice', publishNow: true, platforms: on() });
      expect(first.statusCode, first.body).toBe(201);
      const again = await post({ content: 'said twice', allowDuplicate: true, scheduledFor: '2030-01-01T00:00:00Z', platforms: on() });
      expect(again.statusCode, again.body).toBe(201);
      sim.addFault({ op: 'message', kind: 'drop_after_create', count: 1 });
      const id = again.json().post._id;
      await h.runDue(id);
      const n = creates();
      await h.runDue(id);
      expect(await h.target(id)).toMatchObject({ status: 'pending', in_doubt: true });
      expect(creates()).toBe(n);
      expect(byContent('said twice')).toHaveLength(2);
    });

    it('the bot lost READ_MESSAGE_HISTORY: verify cannot tell (Discord would list nothing) and does not send again', async () => {
      sim.addFault({ op: 'message', kind: 'drop_after_create', count: 1 });
      const id = (await post({ content: 'history gone', scheduledFor: '2030-01-01T00:00:00Z', platforms: on() })).json().post._id;
      await h.runDue(id);
      const ow = { id: sim.bot.id, type: 1 as const, allow: 0n, deny: P.READ_MESSAGE_HISTORY };
      sim.channels.general.overwrites.push(ow);
      try {
        const n = creates();
        await h.runDue(id);
        expect(await h.target(id)).toMatchObject({ status: 'pending', in_doubt: true });
        expect(creates()).toBe(n);
      } finally {
        sim.channels.general.overwrites.splice(sim.channels.general.overwrites.indexOf(ow), 1);
      }
      await h.runDue(id);
      expect((await h.target(id)).status).toBe('published');
      expect(byContent('history gone')).toHaveLength(1);
    });
  },
});

describe('Discord: unpublish', () => {
  contract.unpublish({
    title: 'deletes the message (DELETE /channels/{id}/messages/{id}, 204); again changes nothing; one already gone counts as deleted',
    publish: (content) => post({ content, publishNow: true, platforms: on() }),
    onPlatform: (id) => sim.messages.some((m) => m.id === id && !m.deleted),
    removeOnPlatform: (id) => { sim.messages.find((m) => m.id === id)!.deleted = true; },
    after: async (id) => {
      const res: JsonResponse = await fetch(`${sim.url}/api/v10/channels/${sim.channels.general.id}/messages/${id}`, { headers: { authorization: `Bot ${sim.botToken}` } });
      expect(res.status).toBe(404);
      expect((await res.json()).code).toBe(10008);
    },
  });

  it('a thread: its messages are deleted, the last first, then the first one', async () => {
    const res = await post({ content: 'x', publishNow: true, platforms: on({ platformSpecificData: { threadItems: [{ content: 'gone one' }, { content: 'gone two' }, { content: 'gone three' }] } }) });
    expect(res.statusCode, res.body).toBe(201);
    const out = await h.ctx.app.inject({ method: 'POST', url: `/v1/posts/${res.json().post._id}/unpublish`, headers: h.tenant.headers, payload: {} });
    expect(out.json()).toMatchObject({ success: true, results: [{ platform: 'discord', outcome: 'deleted' }] });
    for (const c of ['gone one', 'gone two', 'gone three']) expect(byContent(c)).toHaveLength(0);
  });
});

contract.revoked({ title: 'the bot removed from the server (403 Missing Access): the account needs reconnecting and the target says so', revoke: () => sim.removeBot() });

contract.metrics({
  expected: (id) => ({ impressions: null, reach: null, views: null, likes: Object.values(sim.messages.find((m) => m.id === id)!.reactions ?? {}).reduce((a, b) => a + b, 0), comments: null, shares: null, saves: null, clicks: null }),
  payload: (content) => ({ content, platforms: on() }),
  rateLimit: () => sim.addFault({ op: 'read', kind: 'rate_limit', count: 1 }),
  revoke: () => sim.removeBot(),
});

describe('Discord: reactions as likes', () => {
  it('the reactions of the message are summed; Discord has no views or impressions', async () => {
    const m = sim.messages.filter((x) => x.content === 'metrics read back').at(-1);
    // The metrics cases above read it: every reaction is counted.
    expect(m).toBeTruthy();
    m!.reactions = { '👍': 3, '🎉': 2 };
    const adapter = h.ctx.services.adapters.require('discord');
    sim.guild.members.set(sim.bot.id, sim.guild.roles.filter((r) => r.managed).map((r) => r.id));
    const row = await h.account();
    const got = await adapter.fetchMetrics!({ saveCredentials: async () => {}, fetchMedia: async () => { throw new Error('no'); }, log: () => {} },
      { id: h.accountId, platformUserId: row.platform_user_id, username: row.username, credentials: {}, settings: row.settings }, [m!.id]);
    expect(got.get(m!.id)).toEqual({ impressions: null, reach: null, views: null, likes: 5, comments: null, shares: null, saves: null, clicks: null });
  });
});
