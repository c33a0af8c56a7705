/**
 * Threads adapter against the Threads simulator, through the real app: OAuth connect
 * (code -> long-lived token), each post kind (text, image, video, carousel, thread as
 * replies, reply to an existing post), each rule violation refused before any platform
 * call, and each failure mode (rate limit, 5xx, processing error, token refresh, revoked
 * authorization, an answer lost after publishing, a publish call that never arrived).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThreadsSimulator, type ThreadsSimulator } from '../../sim/threads/server.ts';
import type { Publisher } from '../../src/publishing/publisher.ts';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from '../helpers.ts';
import { makePng } from '../support/png.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { runDue as runDueTargets, startTestPublisher } from '../support/publishing.ts';
import { oauthConnect } from '../support/oauth.ts';

let sim: ThreadsSimulator;
let media: MediaServer;
let ctx: TestContext;
let tenant: Tenant;
let profileId: string;
let accountId: string;
let worker: Publisher;
let img: string[];
let video: string;

const connect = (t: Tenant, profile: string, redirectUrl?: string) => oauthConnect(ctx, t, 'threads', profile, redirectUrl);

const post = (payload: object) => ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: tenant.headers, payload });
const on = (extra: object = {}) => [{ platform: 'threads', accountId, ...extra }];

const runDue = (postId: string) => runDueTargets(ctx, worker, postId);

async function target(postId: string) {
  const { rows } = await ctx.db.query<{ status: string; error_message: string | null; platform_post_id: string | null; error_category: string | null }>(
    'SELECT status, error_message, platform_post_id, error_category FROM post_targets WHERE post_id = $1', [postId]);
  return rows[0];
}

/** Moves the stored access token's expiry close to now (so the next use refreshes it). */
async function expireSoon(id: string) {
  const { rows } = await ctx.db.query<{ credentials: string }>('SELECT credentials FROM accounts WHERE id = $1', [id]);
  const creds = ctx.services.secrets.openJson<Record<string, unknown>>(rows[0].credentials);
  creds.expiresAt = new Date(Date.now() + 30_000).toISOString();
  await ctx.db.query(`UPDATE accounts SET credentials = $2, token_expires_at = now() + interval '30 seconds' WHERE id = $1`, [id, ctx.services.secrets.sealJson(creds)]);
  return creds.accessToken as string;
}

beforeAll(async () => {
  sim = await startThreadsSimulator({ processingPolls: 1, minRefreshAgeSeconds: 0, mediaFetch: { allowPrivate: true } }); // media is on a loopback server
  media = await startMediaServer();
  img = [1, 2, 3].map((i) => media.put(`/img${i}.png`, makePng(4, i + 1), 'image/png'));
  video = media.put('/clip.mp4', Buffer.alloc(4096, 7), 'video/mp4');
  ctx = await createTestApp({
    env: { HERALD_THREADS_CLIENT_ID: sim.clientId, HERALD_THREADS_CLIENT_SECRET: sim.clientSecret, HERALD_THREADS_API_URL: sim.url, HERALD_THREADS_AUTH_URL: sim.url },
  });
  tenant = await createTenant(ctx);
  profileId = await createProfile(ctx, tenant);
  worker = await startTestPublisher(ctx, 'th');
});
afterAll(async () => {
  await ctx?.close();
  await sim?.close();
  await media?.close();
});

describe('Threads: connecting with OAuth 2.0', () => {
  it('names the missing settings when the Threads app is not configured', async () => {
    const bare = await createTestApp();
    try {
      const t = await createTenant(bare);
      const p = await createProfile(bare, t);
      const res = await bare.app.inject({ method: 'GET', url: `/v1/connect/threads?profileId=${p}`, headers: t.headers });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/HERALD_THREADS_CLIENT_ID and HERALD_THREADS_CLIENT_SECRET/);
    } finally {
      await bare.close();
    }
  });

  it('connects: comma-separated scopes, no PKCE, long-lived (60-day) token stored sealed', async () => {
    const { done, authUrl } = await connect(tenant, profileId);
    const au = new URL(authUrl);
    expect(au.pathname).toBe('/oauth/authorize');
    expect(au.searchParams.get('scope')).toBe('threads_basic,threads_content_publish,threads_manage_replies,threads_read_replies');
    expect(au.searchParams.has('code_challenge')).toBe(false);
    expect(done.statusCode).toBe(302);
    const to = new URL(done.headers.location as string);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({ connected: 'threads', profileId, username: sim.user.username });
    const accounts = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: tenant.headers })).json().accounts;
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ platform: 'threads', username: 'herald_threads', displayName: 'Herald Threads Sim', isActive: true });
    expect(new Date(accounts[0].tokenExpiresAt).getTime() - Date.now()).toBeGreaterThan(50 * 86400_000);
    accountId = accounts[0]._id;
    const { rows } = await ctx.db.query<{ credentials: string; platform_user_id: string }>('SELECT credentials, platform_user_id FROM accounts WHERE id = $1', [accountId]);
    expect(rows[0].credentials).toMatch(/^v1:/);
    expect(rows[0].platform_user_id).toBe(sim.user.id);
  });

  it('completes through POST /v1/connect/threads; a reused code is refused', async () => {
    const start = (await ctx.app.inject({ method: 'GET', url: `/v1/connect/threads?profileId=${profileId}`, headers: tenant.headers })).json();
    const consent = await fetch(start.authUrl, { redirect: 'manual' });
    const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/connect/threads', headers: tenant.headers, payload: { code, state: start.state, profileId } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().account._id).toBe(accountId);
    const again = (await ctx.app.inject({ method: 'GET', url: `/v1/connect/threads?profileId=${profileId}`, headers: tenant.headers })).json();
    const reuse = await ctx.app.inject({ method: 'POST', url: '/v1/connect/threads', headers: tenant.headers, payload: { code, state: again.state, profileId } });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error).toMatch(/Invalid verification code/);
  });
});

describe('Threads: publishing', () => {
  it('publishes a text post (container then threads_publish) with its permalink', async () => {
    const res = await post({ content: 'Hello Threads from Herald 👋', publishNow: true, platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostId).toMatch(/^\d+$/);
    expect(t.platformPostUrl).toMatch(/^https:\/\/www\.threads\.net\/@herald_threads\/post\//);
    const p = sim.posts.find((x) => x.id === t.platformPostId)!;
    expect(p).toMatchObject({ media_type: 'TEXT', text: 'Hello Threads from Herald 👋' });
  });

  it('publishes one image and one video (status polled until FINISHED)', async () => {
    const a = await post({ content: 'a picture', publishNow: true, mediaItems: [{ type: 'image', url: img[0] }], platforms: on() });
    expect(a.statusCode, a.body).toBe(201);
    expect(sim.posts.find((x) => x.id === a.json().post.platforms[0].platformPostId)?.media_type).toBe('IMAGE');
    const v = await post({ content: 'a clip', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on() });
    expect(v.statusCode, v.body).toBe(201);
    expect(sim.posts.find((x) => x.id === v.json().post.platforms[0].platformPostId)?.media_type).toBe('VIDEO');
  });

  it('publishes a carousel (children, then the parent) as one post', async () => {
    const res = await post({ content: 'three pictures', publishNow: true, mediaItems: [...img.map((url) => ({ type: 'image', url })), { type: 'video', url: video }], platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    const p = sim.posts.find((x) => x.id === res.json().post.platforms[0].platformPostId)!;
    expect(p.media_type).toBe('CAROUSEL');
    expect(p.children).toHaveLength(4);
    expect(p.children.every((c) => sim.containers.get(c)?.is_carousel_item)).toBe(true);
  });

  it('publishes a thread as a chain of replies, one URL per item', async () => {
    const res = await post({ content: 'x', publishNow: true, platforms: on({ platformSpecificData: { threadItems: [{ content: 'thread 1/3' }, { content: 'thread 2/3' }, { content: 'thread 3/3' }] } }) });
    expect(res.statusCode, res.body).toBe(201);
    const items = res.json().post.thread[0].items as Array<{ platformPostId: string }>;
    expect(items).toHaveLength(3);
    const [a, b, c] = items.map((i) => sim.posts.find((x) => x.id === i.platformPostId)!);
    expect([a.reply_to_id, b.reply_to_id, c.reply_to_id]).toEqual([undefined, a.id, b.id]);
  });

  it('replies to an existing Threads post with replyToId', async () => {
    const root = sim.posts.find((x) => x.text === 'Hello Threads from Herald 👋')!;
    const res = await post({ content: 'a reply', publishNow: true, platforms: on({ platformSpecificData: { replyToId: root.id } }) });
    expect(res.statusCode, res.body).toBe(201);
    expect(sim.posts.find((x) => x.id === res.json().post.platforms[0].platformPostId)?.reply_to_id).toBe(root.id);
  });

  it('refuses rule violations before any platform call, naming the rule', async () => {
    const before = (sim.calls.get('POST /v1.0/:userId/threads') ?? 0) + (sim.calls.get('POST /v1.0/:userId/threads_publish') ?? 0);
    // 490 letters + 3 emoji of 4 UTF-8 bytes = 502 > 500, although only 493 characters.
    const long = await post({ content: `${'a'.repeat(490)}${'👍'.repeat(3)}`, publishNow: true, platforms: on() });
    expect(long.statusCode).toBe(400);
    expect(long.json().details.fields.content[0]).toMatch(/threads\.text\.max_length/);
    const ok = `${'a'.repeat(488)}${'👍'.repeat(3)}`;
    expect((await post({ content: ok, isDraft: true, platforms: on() })).statusCode).toBe(201);
    const many = await post({ content: 'x', publishNow: true, mediaItems: Array.from({ length: 21 }, (_, i) => ({ type: 'image', url: `https://example.com/${i}.png` })), platforms: on() });
    expect(many.json().details.fields.mediaItems.join()).toMatch(/threads\.carousel\.max_items/);
    const doc = await post({ content: 'x', publishNow: true, mediaItems: [{ type: 'document', url: 'https://example.com/a.pdf' }], platforms: on() });
    expect(JSON.stringify(doc.json().details.fields)).toMatch(/threads\.media\.type/);
    const thread = await post({ content: 'x', publishNow: true, platforms: on({ platformSpecificData: { threadItems: [{ content: 'ok' }, { content: 'b'.repeat(501) }] } }) });
    expect(JSON.stringify(thread.json().details.fields)).toMatch(/threadItems\.1\.content.*threads\.text\.max_length/);
    const reply = await post({ content: 'x', publishNow: true, platforms: on({ platformSpecificData: { replyToId: 'not-an-id' } }) });
    expect(JSON.stringify(reply.json().details.fields)).toMatch(/threads\.reply_to\.id/);
    expect((sim.calls.get('POST /v1.0/:userId/threads') ?? 0) + (sim.calls.get('POST /v1.0/:userId/threads_publish') ?? 0)).toBe(before);
  });
});

describe('Threads: failure modes', () => {
  it('rate limited (Graph code 4): the target waits and then publishes once', async () => {
    sim.addFault({ op: 'publish', kind: 'rate_limit', count: 1 });
    const id = (await post({ content: 'after the limit', scheduledFor: '2030-01-01T00:00:00Z', platforms: on() })).json().post._id;
    await runDue(id);
    expect(await target(id)).toMatchObject({ status: 'pending', error_category: 'platform_rate_limit' });
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(sim.posts.filter((p) => p.text === 'after the limit')).toHaveLength(1);
  });

  it('5xx on container creation: retried, published once', async () => {
    sim.addFault({ op: 'create', kind: 'server_error', count: 1 });
    const id = (await post({ content: 'after a 500', scheduledFor: '2030-01-01T00:00:00Z', platforms: on() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(sim.posts.filter((p) => p.text === 'after a 500')).toHaveLength(1);
  });

  it('processing error (media not fetchable): fails with Threads\' message, nothing published', async () => {
    const res = await post({ content: 'broken media', publishNow: true, mediaItems: [{ type: 'image', url: `${media.url}/missing.png` }], platforms: on() });
    expect(res.statusCode).toBe(207);
    expect(res.json().platformResults[0].error).toMatch(/could not be fetched from this URI/);
    sim.addFault({ op: 'create', kind: 'processing_failed', count: 1 });
    const v = await post({ content: 'bad codec', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on() });
    expect(v.json().platformResults[0].error).toMatch(/could not process the video/);
    expect(sim.posts.filter((p) => p.text === 'broken media' || p.text === 'bad codec')).toHaveLength(0);
  });

  it('answer lost after threads_publish: verify sees the container PUBLISHED and records the post, no duplicate', async () => {
    sim.addFault({ op: 'publish', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'published but unanswered', scheduledFor: '2030-01-01T00:00:00Z', platforms: on() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    await runDue(id);
    const t = await target(id);
    expect(t.status).toBe('published');
    const created = sim.posts.filter((x) => x.text === 'published but unanswered');
    expect(created).toHaveLength(1);
    expect(t.platform_post_id).toBe(created[0].id);
  });

  it('publish call dropped before Threads acted: verify sees FINISHED, the same container is published once', async () => {
    sim.addFault({ op: 'publish', kind: 'drop', count: 1 });
    const id = (await post({ content: 'dropped on the way', scheduledFor: '2030-01-01T00:00:00Z', platforms: on() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    const containersBefore = sim.containers.size;
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(sim.containers.size).toBe(containersBefore);
    expect(sim.posts.filter((x) => x.text === 'dropped on the way')).toHaveLength(1);
  });

  it('answer lost, then 150 newer posts: verify pages the user\'s threads back past them and finds it, no second publish', async () => {
    sim.addFault({ op: 'publish', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'buried under a burst', scheduledFor: '2030-01-01T00:00:00Z', platforms: on() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    for (let i = 0; i < 150; i++) sim.addPost(`burst ${i}`);
    const publishes = sim.calls.get('POST /v1.0/:userId/threads_publish');
    const lists = sim.calls.get('GET /v1.0/:userId/threads') ?? 0;
    await runDue(id);
    const t = await target(id);
    expect(t.status).toBe('published');
    const created = sim.posts.filter((x) => x.text === 'buried under a burst');
    expect(created).toHaveLength(1);
    expect(t.platform_post_id).toBe(created[0].id);
    expect(sim.calls.get('POST /v1.0/:userId/threads_publish')).toBe(publishes);
    expect((sim.calls.get('GET /v1.0/:userId/threads') ?? 0) - lists).toBeGreaterThanOrEqual(2); // at most 100 a call
  });

  it('the threads cannot be listed during verify (rate limited): not published again, asked again later', async () => {
    sim.addFault({ op: 'publish', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'verify meets a limit', scheduledFor: '2030-01-01T00:00:00Z', platforms: on() })).json().post._id;
    await runDue(id);
    const publishes = sim.calls.get('POST /v1.0/:userId/threads_publish');
    sim.addFault({ op: 'list', kind: 'rate_limit', count: 1 });
    await runDue(id);
    expect(await target(id)).toMatchObject({ status: 'pending', error_category: 'platform_error' });
    expect(sim.calls.get('POST /v1.0/:userId/threads_publish')).toBe(publishes);
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(sim.posts.filter((x) => x.text === 'verify meets a limit')).toHaveLength(1);
    expect(sim.calls.get('POST /v1.0/:userId/threads_publish')).toBe(publishes);
  });

  it('publish dropped before Threads acted, 150 posts since: the FINISHED container proves it, published once', async () => {
    sim.addFault({ op: 'publish', kind: 'drop', count: 1 });
    const id = (await post({ content: 'never arrived', scheduledFor: '2030-01-01T00:00:00Z', platforms: on() })).json().post._id;
    await runDue(id);
    for (let i = 0; i < 150; i++) sim.addPost(`later ${i}`);
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(sim.posts.filter((x) => x.text === 'never arrived')).toHaveLength(1);
  });

  it('a thread whose second post went live without an answer: verify finds the live chain and the rest is posted once', async () => {
    sim.addFault({ op: 'publish', kind: 'drop_after_create', count: 1, after: 1 }); // the root's publish passes, the first reply's answer is lost
    const items = [{ content: 'resume 1/3' }, { content: 'resume 2/3' }, { content: 'resume 3/3' }];
    const id = (await post({ content: 'x', scheduledFor: '2030-01-01T00:00:00Z', platforms: on({ platformSpecificData: { threadItems: items } }) })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    for (let i = 0; i < 120; i++) sim.addPost(`noise ${i}`, { replyToId: sim.posts.find((x) => x.text === 'resume 1/3')!.id }); // other replies to the root
    await runDue(id);
    const t = await target(id);
    expect(t.status).toBe('published');
    const [a, b, c] = items.map((it) => sim.posts.filter((x) => x.text === it.content));
    expect([a.length, b.length, c.length]).toEqual([1, 1, 1]);
    expect([b[0].reply_to_id, c[0].reply_to_id]).toEqual([a[0].id, b[0].id]);
    expect(t.platform_post_id).toBe(a[0].id);
  });

  it('token about to expire: extended with th_refresh_token before publishing', async () => {
    const old = await expireSoon(accountId);
    const before = sim.calls.get('GET /refresh_access_token') ?? 0;
    const res = await post({ content: 'after a refresh', publishNow: true, platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    expect(sim.calls.get('GET /refresh_access_token')).toBe(before + 1);
    const { rows } = await ctx.db.query<{ credentials: string; token_expires_at: Date }>('SELECT credentials, token_expires_at FROM accounts WHERE id = $1', [accountId]);
    expect(ctx.services.secrets.openJson<{ accessToken: string }>(rows[0].credentials).accessToken).not.toBe(old);
    expect(rows[0].token_expires_at.getTime()).toBeGreaterThan(Date.now() + 50 * 86400_000);
  });

  it('revoked authorization: the account needs reconnecting and the target says so', async () => {
    sim.revokeAll();
    const res = await post({ content: 'after revocation', publishNow: true, platforms: on() });
    expect(res.statusCode).toBe(207);
    expect(res.json().platformResults[0].error).toMatch(/reconnect/i);
    const acc = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: tenant.headers })).json().accounts[0];
    expect(acc).toMatchObject({ isActive: false, needsReconnection: true });
  });
});

describe('Threads: token refresh job', () => {
  it('extends tokens that expire soon, and marks an account whose token Threads refuses', async () => {
    const { refreshExpiringTokens } = await import('../../src/publishing/token-refresh.ts');
    const p = await createProfile(ctx, tenant);
    const { done } = await connect(tenant, p);
    const id = new URL(done.headers.location as string).searchParams.get('accountId')!;
    await expireSoon(id);
    const deps = { db: ctx.db, adapters: ctx.services.adapters, secrets: ctx.services.secrets };
    expect((await refreshExpiringTokens(deps)).refreshed).toBeGreaterThanOrEqual(1);
    const { rows } = await ctx.db.query<{ token_expires_at: Date }>('SELECT token_expires_at FROM accounts WHERE id = $1', [id]);
    expect(rows[0].token_expires_at.getTime()).toBeGreaterThan(Date.now() + 50 * 86400_000);
    sim.expireAccessTokens();
    await expireSoon(id);
    expect((await refreshExpiringTokens(deps)).deactivated).toBeGreaterThanOrEqual(1);
    const { rows: after } = await ctx.db.query<{ is_active: boolean; inactive_reason: string }>('SELECT is_active, inactive_reason FROM accounts WHERE id = $1', [id]);
    expect(after[0]).toMatchObject({ is_active: false, inactive_reason: expect.stringMatching(/reconnect/) });
  });
});
