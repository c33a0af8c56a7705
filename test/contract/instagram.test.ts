/**
 * Instagram adapter against the Instagram simulator, through the real app: OAuth connect
 * (business accounts only; personal and creator accounts refused), every post kind (image,
 * carousel, video as a Reel with a cover, story), collaborators, user tags, first comment,
 * every rule refused before any platform call, and the failure modes (rate limit, 5xx,
 * processing error, refresh, revoked authorization, answer lost after media_publish, publish
 * call dropped).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstagramSimulator, type InstagramSimulator } from '../../sim/instagram/server.ts';
import type { Publisher } from '../../src/publishing/publisher.ts';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from '../helpers.ts';
import { makePng } from '../support/png.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { runDue as runDueTargets, startTestPublisher } from '../support/publishing.ts';
import { oauthConnect } from '../support/oauth.ts';

let sim: InstagramSimulator;
let media: MediaServer;
let ctx: TestContext;
let tenant: Tenant;
let profileId: string;
let accountId: string;
let worker: Publisher;
let img: string[];
let video: string;
let cover: string;

const connect = (profile: string) => oauthConnect(ctx, tenant, 'instagram', profile);

const post = (payload: object) => ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: tenant.headers, payload });
const on = (extra: object = {}) => [{ platform: 'instagram', accountId, ...extra }];
const platformCalls = () => (sim.calls.get('POST /v25.0/:user/media') ?? 0) + (sim.calls.get('POST /v25.0/:user/media_publish') ?? 0);
const mediaOf = (id: string) => sim.media.find((m) => m.id === id)!;
const containerOf = (id: string) => sim.containers.get(mediaOf(id).container)!;

const runDue = (postId: string) => runDueTargets(ctx, worker, postId);
async function target(postId: string) {
  const { rows } = await ctx.db.query<{ status: string; error_message: string | null; platform_post_id: string | null; error_category: string | null; result: { extra?: Record<string, unknown> } | null }>(
    'SELECT status, error_message, platform_post_id, error_category, result FROM post_targets WHERE post_id = $1', [postId]);
  return rows[0];
}
async function expireSoon(id: string) {
  const { rows } = await ctx.db.query<{ credentials: string }>('SELECT credentials FROM accounts WHERE id = $1', [id]);
  const creds = ctx.services.secrets.openJson<Record<string, unknown>>(rows[0].credentials);
  creds.expiresAt = new Date(Date.now() + 30_000).toISOString();
  await ctx.db.query(`UPDATE accounts SET credentials = $2, token_expires_at = now() + interval '30 seconds' WHERE id = $1`, [id, ctx.services.secrets.sealJson(creds)]);
  return creds.accessToken as string;
}

beforeAll(async () => {
  sim = await startInstagramSimulator({ processingPolls: 1, minRefreshAgeSeconds: 0, mediaFetch: { allowPrivate: true } }); // media is on a loopback server
  media = await startMediaServer();
  img = [1, 2, 3].map((i) => media.put(`/img${i}.jpg`, makePng(4, i + 1), 'image/jpeg'));
  video = media.put('/clip.mp4', Buffer.alloc(4096, 7), 'video/mp4');
  cover = media.put('/cover.jpg', makePng(4, 9), 'image/jpeg');
  media.put('/huge-cover.jpg', Buffer.alloc(8 * 1024 * 1024 + 10, 1), 'image/jpeg');
  ctx = await createTestApp({ env: { HERALD_INSTAGRAM_CLIENT_ID: sim.clientId, HERALD_INSTAGRAM_CLIENT_SECRET: sim.clientSecret, HERALD_INSTAGRAM_API_URL: sim.url, HERALD_INSTAGRAM_AUTH_URL: sim.url } });
  tenant = await createTenant(ctx);
  profileId = await createProfile(ctx, tenant);
  worker = await startTestPublisher(ctx, 'ig');
});
afterAll(async () => {
  await ctx?.close();
  await sim?.close();
  await media?.close();
});

describe('Instagram: connecting (business accounts only)', () => {
  it('names the missing settings when the Instagram app is not configured', async () => {
    const bare = await createTestApp();
    try {
      const t = await createTenant(bare);
      const p = await createProfile(bare, t);
      const res = await bare.app.inject({ method: 'GET', url: `/v1/connect/instagram?profileId=${p}`, headers: t.headers });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/HERALD_INSTAGRAM_CLIENT_ID and HERALD_INSTAGRAM_CLIENT_SECRET/);
    } finally {
      await bare.close();
    }
  });

  it('refuses personal and creator accounts with a clear error', async () => {
    for (const kind of ['personal', 'creator'] as const) {
      sim.nextLogin = kind;
      const { done } = await connect(profileId);
      const to = new URL(done.headers.location as string);
      expect(Object.fromEntries(to.searchParams)).toMatchObject({ error: 'connection_failed', platform: 'instagram' });
      const start = (await ctx.app.inject({ method: 'GET', url: `/v1/connect/instagram?profileId=${profileId}`, headers: tenant.headers })).json();
      const code = new URL((await fetch(start.authUrl, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code');
      const res = await ctx.app.inject({ method: 'POST', url: '/v1/connect/instagram', headers: tenant.headers, payload: { code, state: start.state, profileId } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(new RegExp(`${kind} account; Herald publishes to Instagram business accounts only`));
    }
    sim.nextLogin = 'business';
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: tenant.headers })).json().accounts).toHaveLength(0);
  });

  it('connects a business account: long-lived token stored sealed', async () => {
    const { done, authUrl } = await connect(profileId);
    const au = new URL(authUrl);
    expect(au.pathname).toBe('/oauth/authorize');
    expect(au.searchParams.get('scope')).toBe('instagram_business_basic,instagram_business_content_publish,instagram_business_manage_comments');
    expect(au.searchParams.has('code_challenge')).toBe(false);
    const to = new URL(done.headers.location as string);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({ connected: 'instagram', profileId, username: 'herald_business' });
    const accounts = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: tenant.headers })).json().accounts;
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ platform: 'instagram', username: 'herald_business', isActive: true });
    expect(new Date(accounts[0].tokenExpiresAt).getTime() - Date.now()).toBeGreaterThan(50 * 86400_000);
    accountId = accounts[0]._id;
    const { rows } = await ctx.db.query<{ credentials: string; platform_user_id: string }>('SELECT credentials, platform_user_id FROM accounts WHERE id = $1', [accountId]);
    expect(rows[0].credentials).toMatch(/^v1:/);
    expect(rows[0].platform_user_id).toBe(sim.users.business.id);
  });
});

describe('Instagram: publishing (container, status polled, media_publish)', () => {
  it('publishes a single image with collaborators and user tags, and its permalink', async () => {
    const res = await post({ content: 'A photo #herald', publishNow: true, mediaItems: [{ type: 'image', url: img[0] }],
      platforms: on({ platformSpecificData: { collaborators: ['friend.one', 'friend_two'], userTags: [{ username: 'tagged', x: 0.5, y: 0.25 }] } }) });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostUrl).toMatch(/^https:\/\/www\.instagram\.com\/p\//);
    const c = containerOf(t.platformPostId);
    expect(c).toMatchObject({ media_type: 'IMAGE', caption: 'A photo #herald', collaborators: ['friend.one', 'friend_two'], user_tags: [{ username: 'tagged', x: 0.5, y: 0.25 }] });
  });

  it('publishes a carousel (children first, polled, then the parent), tags on the chosen item', async () => {
    const res = await post({ content: 'three things', publishNow: true, mediaItems: [...img.map((url) => ({ type: 'image', url })), { type: 'video', url: video }],
      platforms: on({ platformSpecificData: { userTags: [{ username: 'second', x: 0.1, y: 0.9, mediaIndex: 1 }] } }) });
    expect(res.statusCode, res.body).toBe(201);
    const m = mediaOf(res.json().post.platforms[0].platformPostId);
    expect(m.media_type).toBe('CAROUSEL_ALBUM');
    expect(m.children).toHaveLength(4);
    const children = m.children.map((id) => sim.containers.get(id)!);
    expect(children.map((c) => c.media_type)).toEqual(['IMAGE', 'IMAGE', 'IMAGE', 'VIDEO']);
    expect(children[1].user_tags).toEqual([{ username: 'second', x: 0.1, y: 0.9 }]);
  });

  it('publishes a video as a Reel with the JPEG cover', async () => {
    const res = await post({ content: 'a reel', publishNow: true, mediaItems: [{ type: 'video', url: video, instagramThumbnail: cover }], platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().post.platforms[0].platformPostId;
    expect(mediaOf(id).media_product_type).toBe('REELS');
    expect(containerOf(id)).toMatchObject({ media_type: 'REELS', cover_url: cover, share_to_feed: true });
  });

  it('publishes image and video stories (no caption)', async () => {
    const a = await post({ content: 'story caption is not sent', publishNow: true, mediaItems: [{ type: 'image', url: img[1] }], platforms: on({ platformSpecificData: { contentType: 'story' } }) });
    expect(a.statusCode, a.body).toBe(201);
    const s = mediaOf(a.json().post.platforms[0].platformPostId);
    expect(s).toMatchObject({ media_product_type: 'STORY', caption: '' });
    const v = await post({ content: '', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on({ platformSpecificData: { contentType: 'story' } }) });
    expect(v.statusCode, v.body).toBe(201);
    expect(containerOf(v.json().post.platforms[0].platformPostId).media_type).toBe('STORIES');
  });

  it('posts the first comment and records it; a failed one does not fail the post', async () => {
    const res = await post({ content: 'with a comment', publishNow: true, mediaItems: [{ type: 'image', url: img[2] }], platforms: on({ platformSpecificData: { firstComment: '#more #tags' } }) });
    expect(res.statusCode, res.body).toBe(201);
    expect(mediaOf(res.json().post.platforms[0].platformPostId).comments.map((c) => c.text)).toEqual(['#more #tags']);
    expect((await target(res.json().post._id)).result?.extra?.firstComment).toMatchObject({ status: 'published' });
    sim.addFault({ op: 'comment', kind: 'server_error', count: 1 });
    const bad = await post({ content: 'comment will fail', publishNow: true, mediaItems: [{ type: 'image', url: img[2] }], platforms: on({ platformSpecificData: { firstComment: 'hello' } }) });
    expect(bad.statusCode, bad.body).toBe(201);
    const t = await target(bad.json().post._id);
    expect(t.status).toBe('published');
    expect(t.result?.extra?.firstComment).toMatchObject({ status: 'failed', error: expect.stringMatching(/unexpected error/) });
  });

  it('interrupted after the first comment was posted: verify reads the comments and records it, exactly one comment', async () => {
    const id = (await post({ content: 'comment before the crash', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [{ type: 'image', url: img[0] }], platforms: on({ platformSpecificData: { firstComment: 'only once' } }) })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    const created = sim.media.filter((m) => m.caption === 'comment before the crash');
    expect(created).toHaveLength(1);
    // Herald stopped after the comment, before recording the outcome: the next run verifies.
    await ctx.db.query(`UPDATE publish_attempts SET outcome = NULL WHERE id = (SELECT max(a.id) FROM publish_attempts a JOIN post_targets pt ON pt.id = a.target_id WHERE pt.post_id = $1)`, [id]);
    await ctx.db.query(`UPDATE post_targets SET status = 'pending' WHERE post_id = $1`, [id]);
    await runDue(id);
    const t = await target(id);
    expect(t.status).toBe('published');
    expect(t.platform_post_id).toBe(created[0].id);
    expect(created[0].comments).toHaveLength(1);
    expect(t.result?.extra?.firstComment).toMatchObject({ status: 'published', id: created[0].comments[0].id });
  });

  it('answer lost after media_publish, before the first comment: verify finds the media and comments once', async () => {
    sim.addFault({ op: 'publish', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'lost before the comment', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [{ type: 'image', url: img[1] }], platforms: on({ platformSpecificData: { firstComment: 'late comment' } }) })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    await runDue(id);
    const t = await target(id);
    expect(t.status).toBe('published');
    const created = sim.media.filter((m) => m.caption === 'lost before the comment');
    expect(created).toHaveLength(1);
    expect(created[0].comments.map((c) => c.text)).toEqual(['late comment']);
  });

  it('refuses rule violations before any platform call, naming the rule', async () => {
    const before = platformCalls();
    const image = [{ type: 'image', url: img[0] }];
    const story = { contentType: 'story' };
    const cases: Array<[object, RegExp]> = [
      [{ content: 'x'.repeat(2201), mediaItems: image, platforms: on() }, /instagram\.caption\.max_length/],
      [{ content: Array.from({ length: 31 }, (_, i) => `#t${i}`).join(' '), mediaItems: image, platforms: on() }, /instagram\.caption\.hashtags/],
      [{ content: 'no media', platforms: on() }, /instagram\.media\.required/],
      [{ content: 'x', mediaItems: [{ type: 'document', url: 'https://example.com/a.pdf' }], platforms: on() }, /instagram\.media\.type/],
      [{ content: 'x', mediaItems: Array.from({ length: 11 }, (_, i) => ({ type: 'image', url: `https://example.com/${i}.jpg` })), platforms: on() }, /instagram\.carousel\.max_items/],
      [{ content: 'x', mediaItems: image, platforms: on({ platformSpecificData: { collaborators: ['a', 'b', 'c', 'd'] } }) }, /instagram\.collaborators\.max/],
      [{ content: 'x', mediaItems: image, platforms: on({ platformSpecificData: { collaborators: ['@friend'] } }) }, /instagram\.collaborators\.no_at/],
      [{ content: 'x', mediaItems: image, platforms: on({ platformSpecificData: { ...story, collaborators: ['friend'] } }) }, /instagram\.story\.collaborators/],
      [{ content: 'x', mediaItems: image, platforms: on({ platformSpecificData: { ...story, firstComment: 'no' } }) }, /instagram\.story\.first_comment/],
      [{ content: 'x', mediaItems: [...image, ...image], platforms: on({ platformSpecificData: story }) }, /instagram\.story\.single_media/],
      [{ content: 'x', mediaItems: image, platforms: on({ platformSpecificData: { userTags: [{ username: 'a', x: 540, y: 0.5 }] } }) }, /userTags\.0\.x.*instagram\.user_tags\.position/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: video }], platforms: on({ platformSpecificData: { userTags: [{ username: 'a', x: 0.5, y: 0.5 }] } }) }, /instagram\.user_tags\.media/],
      [{ content: 'x', mediaItems: image, platforms: on({ platformSpecificData: { ...story, userTags: [{ username: 'a', x: 0.5, y: 0.5 }] } }) }, /instagram\.user_tags\.media/],
      [{ content: 'x', mediaItems: image, platforms: on({ platformSpecificData: { firstComment: 'c'.repeat(2201) } }) }, /instagram\.first_comment\.max_length/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: video, instagramThumbnail: 'https://example.com/cover.png' }], platforms: on() }, /instagram\.thumbnail\.format/],
    ];
    for (const [payload, rule] of cases) {
      const res = await post({ publishNow: true, ...payload });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 200)).toBe(400);
      expect(JSON.stringify(res.json().details.fields)).toMatch(rule);
    }
    expect(platformCalls()).toBe(before);
  });

  it('refuses a thumbnail over 8 MB before creating any container', async () => {
    const before = platformCalls();
    const res = await post({ content: 'big cover', publishNow: true, mediaItems: [{ type: 'video', url: video, instagramThumbnail: `${media.url}/huge-cover.jpg` }], platforms: on() });
    expect(res.statusCode).toBe(207);
    expect(res.json().platformResults[0].error).toMatch(/instagram\.thumbnail\.max_bytes/);
    expect(platformCalls()).toBe(before);
  });
});

describe('Instagram: failure modes', () => {
  it('rate limited (code 4): the target waits and then publishes once', async () => {
    sim.addFault({ op: 'publish', kind: 'rate_limit', count: 1 });
    const id = (await post({ content: 'after the limit', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [{ type: 'image', url: img[0] }], platforms: on() })).json().post._id;
    await runDue(id);
    expect(await target(id)).toMatchObject({ status: 'pending', error_category: 'platform_rate_limit' });
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(sim.media.filter((m) => m.caption === 'after the limit')).toHaveLength(1);
  });

  it('5xx on container creation: retried, published once', async () => {
    sim.addFault({ op: 'create', kind: 'server_error', count: 1 });
    const id = (await post({ content: 'after a 500', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [{ type: 'image', url: img[0] }], platforms: on() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(sim.media.filter((m) => m.caption === 'after a 500')).toHaveLength(1);
  });

  it('processing error (ERROR status): fails with Instagram\'s status text, nothing published', async () => {
    const res = await post({ content: 'broken media', publishNow: true, mediaItems: [{ type: 'image', url: `${media.url}/missing.jpg` }], platforms: on() });
    expect(res.statusCode).toBe(207);
    expect(res.json().platformResults[0].error).toMatch(/2207052/);
    sim.addFault({ op: 'create', kind: 'processing_failed', count: 1 });
    const v = await post({ content: 'bad codec', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on() });
    expect(v.json().platformResults[0].error).toMatch(/could not process the video.*2207026/);
    expect(sim.media.filter((m) => m.caption === 'broken media' || m.caption === 'bad codec')).toHaveLength(0);
  });

  it('answer lost after media_publish: verify sees PUBLISHED and records the media, no duplicate', async () => {
    sim.addFault({ op: 'publish', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'published but unanswered', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [{ type: 'image', url: img[1] }], platforms: on() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    await runDue(id);
    const t = await target(id);
    expect(t.status).toBe('published');
    const created = sim.media.filter((m) => m.caption === 'published but unanswered');
    expect(created).toHaveLength(1);
    expect(t.platform_post_id).toBe(created[0].id);
  });

  it('publish call dropped before Instagram acted: verify sees FINISHED, the same container is published once', async () => {
    sim.addFault({ op: 'publish', kind: 'drop', count: 1 });
    const id = (await post({ content: 'dropped on the way', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [{ type: 'image', url: img[1] }], platforms: on() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    const containersBefore = sim.containers.size;
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(sim.containers.size).toBe(containersBefore);
    expect(sim.media.filter((m) => m.caption === 'dropped on the way')).toHaveLength(1);
  });

  it('answer lost, then 150 newer media: verify pages the media edge back past them and finds it, no second publish', async () => {
    sim.addFault({ op: 'publish', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'buried under a burst', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [{ type: 'image', url: img[2] }], platforms: on() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    for (let i = 0; i < 150; i++) sim.addMedia(sim.users.business.id, `burst ${i}`);
    sim.addMedia(sim.users.business.id, 'buried under a burst', { media_type: 'VIDEO', media_product_type: 'REELS' }); // same caption, another type
    const publishes = sim.calls.get('POST /v25.0/:user/media_publish');
    const lists = sim.calls.get('GET /v25.0/:user/media') ?? 0;
    await runDue(id);
    const t = await target(id);
    expect(t.status).toBe('published');
    const created = sim.media.filter((m) => m.caption === 'buried under a burst' && m.media_type === 'IMAGE');
    expect(created).toHaveLength(1);
    expect(t.platform_post_id).toBe(created[0].id);
    expect(sim.calls.get('POST /v25.0/:user/media_publish')).toBe(publishes);
    expect((sim.calls.get('GET /v25.0/:user/media') ?? 0) - lists).toBeGreaterThanOrEqual(2); // at most 100 a call
  });

  it('the media cannot be listed during verify (5xx): not published again, asked again later', async () => {
    sim.addFault({ op: 'publish', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'verify meets a 500', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [{ type: 'image', url: img[2] }], platforms: on() })).json().post._id;
    await runDue(id);
    const publishes = sim.calls.get('POST /v25.0/:user/media_publish');
    sim.addFault({ op: 'list', kind: 'server_error', count: 1 });
    await runDue(id);
    const waiting = await target(id);
    expect(waiting).toMatchObject({ status: 'pending', error_category: 'platform_error' });
    expect(sim.calls.get('POST /v25.0/:user/media_publish')).toBe(publishes);
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(sim.media.filter((m) => m.caption === 'verify meets a 500')).toHaveLength(1);
    expect(sim.calls.get('POST /v25.0/:user/media_publish')).toBe(publishes);
  });

  it('publish dropped before Instagram acted, 150 media since: the FINISHED container proves it, published once', async () => {
    sim.addFault({ op: 'publish', kind: 'drop', count: 1 });
    const id = (await post({ content: 'never arrived', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [{ type: 'image', url: img[2] }], platforms: on() })).json().post._id;
    await runDue(id);
    for (let i = 0; i < 150; i++) sim.addMedia(sim.users.business.id, `later ${i}`);
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(sim.media.filter((m) => m.caption === 'never arrived')).toHaveLength(1);
  });

  it('token about to expire: extended with ig_refresh_token before publishing', async () => {
    const old = await expireSoon(accountId);
    const before = sim.calls.get('GET /refresh_access_token') ?? 0;
    const res = await post({ content: 'after a refresh', publishNow: true, mediaItems: [{ type: 'image', url: img[0] }], platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    expect(sim.calls.get('GET /refresh_access_token')).toBe(before + 1);
    const { rows } = await ctx.db.query<{ credentials: string }>('SELECT credentials FROM accounts WHERE id = $1', [accountId]);
    expect(ctx.services.secrets.openJson<{ accessToken: string }>(rows[0].credentials).accessToken).not.toBe(old);
  });

  it('revoked authorization: the account needs reconnecting and the target says so', async () => {
    sim.revokeAll();
    const res = await post({ content: 'after revocation', publishNow: true, mediaItems: [{ type: 'image', url: img[0] }], platforms: on() });
    expect(res.statusCode).toBe(207);
    expect(res.json().platformResults[0].error).toMatch(/reconnect/i);
    const acc = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: tenant.headers })).json().accounts[0];
    expect(acc).toMatchObject({ isActive: false, needsReconnection: true });
  });
});
