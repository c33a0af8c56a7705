/**
 * X adapter against the X simulator, through the real app: OAuth connect (PKCE, single-use
 * state, redirect parameters), publishing each post kind, each rule violation, and each
 * failure mode (rate limit, 5xx, expired token, revoked authorization, a post created but
 * its answer lost).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXSimulator, type XSimulator } from '../../sim/twitter/server.ts';
import type { Publisher } from '../../src/publishing/publisher.ts';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from '../helpers.ts';
import { makePng, multipart } from '../support/png.ts';
import { runDue as runDueTargets, startTestPublisher } from '../support/publishing.ts';
import { oauthConnect } from '../support/oauth.ts';

let sim: XSimulator;
let ctx: TestContext;
let tenant: Tenant;
let profileId: string;
let accountId: string;
let worker: Publisher;

const connect = (t: Tenant, profile: string, redirectUrl?: string) => oauthConnect(ctx, t, 'twitter', profile, redirectUrl);

const post = (payload: object) => ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: tenant.headers, payload });

const runDue = (postId: string) => runDueTargets(ctx, worker, postId);

async function target(postId: string) {
  const { rows } = await ctx.db.query<{ status: string; error_message: string | null; platform_post_id: string | null; run_at: Date | null; error_category: string | null }>(
    'SELECT status, error_message, platform_post_id, run_at, error_category FROM post_targets WHERE post_id = $1', [postId]);
  return rows[0];
}

beforeAll(async () => {
  sim = await startXSimulator({ processingPolls: 2 });
  ctx = await createTestApp({
    env: { HERALD_TWITTER_CLIENT_ID: sim.clientId, HERALD_TWITTER_CLIENT_SECRET: sim.clientSecret, HERALD_TWITTER_API_URL: sim.url, HERALD_TWITTER_AUTH_URL: sim.url },
  });
  tenant = await createTenant(ctx);
  profileId = await createProfile(ctx, tenant);
  worker = await startTestPublisher(ctx, 'x');
});
afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

describe('X: connecting with OAuth 2.0 + PKCE', () => {
  it('names the missing settings when the X app is not configured', async () => {
    const bare = await createTestApp();
    try {
      const t = await createTenant(bare);
      const p = await createProfile(bare, t);
      const res = await bare.app.inject({ method: 'GET', url: `/v1/connect/twitter?profileId=${p}`, headers: t.headers });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/HERALD_TWITTER_CLIENT_ID and HERALD_TWITTER_CLIENT_SECRET/);
    } finally {
      await bare.close();
    }
  });

  it('connects: authUrl with S256 challenge, callback stores the account and redirects with connected, profileId, username', async () => {
    const { done } = await connect(tenant, profileId);
    expect(done.statusCode).toBe(302);
    const to = new URL(done.headers.location as string);
    expect(to.origin + to.pathname).toBe('https://client.example/done');
    expect(Object.fromEntries(to.searchParams)).toMatchObject({ connected: 'twitter', profileId, username: sim.user.username });
    const accounts = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: tenant.headers })).json().accounts;
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ platform: 'twitter', username: 'herald_sim', displayName: 'Herald Simulator', isActive: true, permissions: ['posts:write', 'posts:read'] });
    expect(new Date(accounts[0].tokenExpiresAt).getTime() - Date.now()).toBeGreaterThan(3600_000);
    accountId = accounts[0]._id;
    const { rows } = await ctx.db.query<{ credentials: string }>('SELECT credentials FROM accounts WHERE id = $1', [accountId]);
    expect(rows[0].credentials).toMatch(/^v1:/);
    expect(rows[0].credentials).not.toMatch(/refreshToken|accessToken/);
  });

  it('refuses a replayed, forged or expired state with an error redirect and stores nothing more', async () => {
    const p2 = await createProfile(ctx, tenant);
    const { callbackPath } = await connect(tenant, p2, 'https://client.example/x');
    const replay = await ctx.app.inject({ method: 'GET', url: callbackPath });
    const to = new URL(replay.headers.location as string);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({ error: 'connection_failed', platform: 'twitter' });
    const forged = await ctx.app.inject({ method: 'GET', url: callbackPath.replace(/state=([^&.]+)\.[^&]+/, 'state=$1.AAAA') });
    expect(new URL(forged.headers.location as string).searchParams.get('error')).toBe('connection_failed');
    const api = await ctx.app.inject({ method: 'POST', url: '/v1/connect/twitter', headers: tenant.headers, payload: { code: 'x', state: 'nope.nope', profileId } });
    expect(api.statusCode).toBe(400);
    expect(api.json().details.fields.state).toBeTruthy();
    const denied = await ctx.app.inject({ method: 'GET', url: '/v1/connect/twitter/callback?error=access_denied' });
    expect(new URL(denied.headers.location as string).searchParams.get('error')).toBe('access_denied');
  });

  it('completes through POST /v1/connect/twitter for API callers; reconnecting keeps one account', async () => {
    const start = (await ctx.app.inject({ method: 'GET', url: `/v1/connect/twitter?profileId=${profileId}`, headers: tenant.headers })).json();
    const consent = await fetch(start.authUrl, { redirect: 'manual' });
    const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/connect/twitter', headers: tenant.headers, payload: { code, state: start.state, profileId } });
    expect(res.statusCode).toBe(200);
    expect(res.json().account._id).toBe(accountId);
  });
});

describe('X: publishing', () => {
  it('publishes a text post and returns the x.com URL', async () => {
    const res = await post({ content: 'Hello X from Herald', publishNow: true, platforms: [{ platform: 'twitter', accountId }] });
    expect(res.statusCode).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostId).toMatch(/^\d+$/);
    expect(t.platformPostUrl).toBe(`https://x.com/herald_sim/status/${t.platformPostId}`);
    expect(sim.tweets.find((x) => x.id === t.platformPostId)?.text).toBe('Hello X from Herald');
  });

  it('publishes images uploaded through /v1/media', async () => {
    const mp = multipart('files', [1, 2].map((i) => ({ filename: `p${i}.png`, contentType: 'image/png', data: makePng(3, i) })));
    const files = (await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...tenant.headers, 'content-type': mp.contentType }, payload: mp.payload })).json().files;
    const res = await post({ content: 'two pictures', publishNow: true, mediaItems: files, platforms: [{ platform: 'twitter', accountId }] });
    expect(res.statusCode).toBe(201);
    const tw = sim.tweets.find((x) => x.id === res.json().post.platforms[0].platformPostId)!;
    expect(tw.media_ids).toHaveLength(2);
  });

  it('publishes a thread as replies, one URL per item', async () => {
    const res = await post({
      content: 'thread 1/3', publishNow: true,
      platforms: [{ platform: 'twitter', accountId, platformSpecificData: { threadItems: [{ content: 'thread 1/3' }, { content: 'thread 2/3' }, { content: 'thread 3/3' }] } }],
    });
    expect(res.statusCode).toBe(201);
    const items = res.json().post.thread[0].items;
    expect(items).toHaveLength(3);
    const [a, b, c] = items.map((i: { platformPostId: string }) => sim.tweets.find((x) => x.id === i.platformPostId)!);
    expect([b.in_reply_to, c.in_reply_to]).toEqual([a.id, b.id]);
  });

  it('refuses rule violations before any platform call, naming the rule', async () => {
    const before = sim.calls.get('POST /2/tweets') ?? 0;
    const long = await post({ content: `${'a'.repeat(250)} https://example.com/long/path ${'👍'.repeat(5)}`, publishNow: true, platforms: [{ platform: 'twitter', accountId }] });
    expect(long.statusCode).toBe(400);
    expect(long.json().details.fields.content[0]).toMatch(/twitter\.text\.max_weighted_length/);
    const five = await post({ content: 'x', publishNow: true, mediaItems: Array.from({ length: 5 }, (_, i) => ({ type: 'image', url: `https://example.com/${i}.png` })), platforms: [{ platform: 'twitter', accountId }] });
    expect(five.json().details.fields.mediaItems.join()).toMatch(/twitter\.media\.max_images/);
    const mixed = await post({ content: 'x', publishNow: true, mediaItems: [{ type: 'video', url: 'https://example.com/a.mp4' }, { type: 'image', url: 'https://example.com/b.png' }], platforms: [{ platform: 'twitter', accountId }] });
    expect(mixed.json().details.fields.mediaItems.join()).toMatch(/twitter\.media\.one_gif_or_video/);
    expect(sim.calls.get('POST /2/tweets') ?? 0).toBe(before);
  });
});

describe('X: failure modes', () => {
  it('rate limited: the target waits for the reset and then publishes', async () => {
    sim.addFault({ op: 'tweet', kind: 'rate_limit', count: 1 });
    const id = (await post({ content: 'after the limit', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'twitter', accountId }] })).json().post._id;
    await runDue(id);
    const waiting = await target(id);
    expect(waiting).toMatchObject({ status: 'pending', error_category: 'platform_rate_limit' });
    expect(waiting.run_at!.getTime()).toBeGreaterThan(Date.now() + 30_000);
    await runDue(id);
    expect((await target(id)).status).toBe('published');
  });

  it('5xx: retried with backoff, published once', async () => {
    sim.addFault({ op: 'tweet', kind: 'server_error', count: 1 });
    const id = (await post({ content: 'after a 503', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'twitter', accountId }] })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(sim.tweets.filter((t) => t.text === 'after a 503')).toHaveLength(1);
  });

  it('expired access token: refreshed (rotating refresh token stored) and published', async () => {
    const { rows: before } = await ctx.db.query<{ token_expires_at: Date }>('SELECT token_expires_at FROM accounts WHERE id = $1', [accountId]);
    sim.expireAccessTokens();
    const res = await post({ content: 'after a refresh', publishNow: true, platforms: [{ platform: 'twitter', accountId }] });
    expect(res.statusCode).toBe(201);
    const { rows: after } = await ctx.db.query<{ token_expires_at: Date; credentials: string }>('SELECT token_expires_at, credentials FROM accounts WHERE id = $1', [accountId]);
    expect(after[0].token_expires_at.getTime()).toBeGreaterThanOrEqual(before[0].token_expires_at.getTime());
    // the new refresh token works again (the old one was spent by rotation)
    sim.expireAccessTokens();
    expect((await post({ content: 'after a second refresh', publishNow: true, platforms: [{ platform: 'twitter', accountId }] })).statusCode).toBe(201);
  });

  it('answer lost after X created the post: verify finds it, no duplicate', async () => {
    sim.addFault({ op: 'tweet', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'created but unanswered', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'twitter', accountId }] })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    await runDue(id);
    const t = await target(id);
    expect(t.status).toBe('published');
    const created = sim.tweets.filter((x) => x.text === 'created but unanswered');
    expect(created).toHaveLength(1);
    expect(t.platform_post_id).toBe(created[0].id);
  });

  it('answer lost, then 150 newer posts: verify pages back to the attempt and finds it, no second create', async () => {
    sim.addFault({ op: 'tweet', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'buried under a burst', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'twitter', accountId }] })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    for (let i = 0; i < 150; i++) sim.addTweet(`burst post ${i}`);
    const creates = sim.calls.get('POST /2/tweets') ?? 0;
    const reads = sim.calls.get('GET /2/users/:id/tweets') ?? 0;
    await runDue(id);
    const t = await target(id);
    expect(t.status).toBe('published');
    expect(sim.calls.get('POST /2/tweets') ?? 0).toBe(creates);
    expect((sim.calls.get('GET /2/users/:id/tweets') ?? 0) - reads).toBeGreaterThanOrEqual(2); // 151 posts: two pages of 100
    const created = sim.tweets.filter((x) => x.sent === 'buried under a burst');
    expect(created).toHaveLength(1);
    expect(t.platform_post_id).toBe(created[0].id);
  });

  it('answer lost for a post with a link: X shows it as t.co, verify matches the link as sent', async () => {
    sim.addFault({ op: 'tweet', kind: 'drop_after_create', count: 1 });
    const text = 'read https://example.com/a-long-article?x=1 today';
    const id = (await post({ content: text, scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'twitter', accountId }] })).json().post._id;
    await runDue(id);
    const shown = sim.tweets.find((x) => x.sent === text)!;
    expect(shown.text).toMatch(/^read https:\/\/t\.co\/\w+ today$/);
    await runDue(id);
    const t = await target(id);
    expect(t.status).toBe('published');
    expect(t.platform_post_id).toBe(shown.id);
    expect(sim.tweets.filter((x) => x.sent === text)).toHaveLength(1);
  });

  it('answer lost for the second post of a thread: verify finds the first two, the commit posts only the third', async () => {
    sim.addFault({ op: 'tweet', kind: 'drop_after_create', count: 1, after: 1 });
    const items = ['resume 1/3', 'resume 2/3', 'resume 3/3'];
    const id = (await post({
      content: items[0], scheduledFor: '2030-01-01T00:00:00Z',
      platforms: [{ platform: 'twitter', accountId, platformSpecificData: { threadItems: items.map((content) => ({ content })) } }],
    })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    expect(sim.tweets.filter((x) => items.includes(x.sent))).toHaveLength(2);
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    const live = items.map((text) => sim.tweets.filter((x) => x.sent === text));
    expect(live.map((l) => l.length)).toEqual([1, 1, 1]);
    expect([live[1][0].in_reply_to, live[2][0].in_reply_to]).toEqual([live[0][0].id, live[1][0].id]);
    const res = await ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: tenant.headers });
    expect(res.json().post.thread[0].items.map((i: { platformPostId: string }) => i.platformPostId)).toEqual(live.map((l) => l[0].id));
  });

  it('timeline unreadable during verify (429): not committed again, asked again later', async () => {
    sim.addFault({ op: 'tweet', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'verify meets a rate limit', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'twitter', accountId }] })).json().post._id;
    await runDue(id);
    sim.addFault({ op: 'timeline', kind: 'rate_limit', count: 1 });
    const creates = sim.calls.get('POST /2/tweets') ?? 0;
    await runDue(id);
    let t = await target(id);
    expect(t.status).toBe('pending');
    expect(t.error_message).toMatch(/Checking whether the interrupted publish went through/);
    expect(sim.calls.get('POST /2/tweets') ?? 0).toBe(creates);
    await runDue(id);
    t = await target(id);
    expect(t.status).toBe('published');
    expect(sim.tweets.filter((x) => x.sent === 'verify meets a rate limit')).toHaveLength(1);
  });

  it('connection dropped before X saw the post: a complete look-back finds nothing, published once', async () => {
    sim.addFault({ op: 'tweet', kind: 'drop', count: 1 });
    const id = (await post({ content: 'never reached X', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'twitter', accountId }] })).json().post._id;
    await runDue(id);
    expect(sim.tweets.filter((x) => x.sent === 'never reached X')).toHaveLength(0);
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(sim.tweets.filter((x) => x.sent === 'never reached X')).toHaveLength(1);
  });

  it('duplicate content is rejected with X\'s message and not retried', async () => {
    await post({ content: 'say it once', publishNow: true, platforms: [{ platform: 'twitter', accountId }] });
    const res = await post({ content: 'say it once', publishNow: true, platforms: [{ platform: 'twitter', accountId }] });
    expect(res.statusCode).toBe(207);
    expect(res.json().platformResults[0].error).toMatch(/duplicate content/);
  });

  it('revoked authorization: the account needs reconnecting and the target says so', async () => {
    sim.revokeAll();
    const res = await post({ content: 'after revocation', publishNow: true, platforms: [{ platform: 'twitter', accountId }] });
    expect(res.statusCode).toBe(207);
    expect(res.json().platformResults[0].error).toMatch(/reconnect/i);
    const acc = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: tenant.headers })).json().accounts[0];
    expect(acc).toMatchObject({ isActive: false, needsReconnection: true });
  });
});

describe('X: token refresh job', () => {
  it('refreshes tokens that expire soon, and marks an account whose refresh is refused', async () => {
    const { refreshExpiringTokens } = await import('../../src/publishing/token-refresh.ts');
    const p = await createProfile(ctx, tenant);
    const { done } = await connect(tenant, p);
    const id = new URL(done.headers.location as string).searchParams.get('accountId')!;
    await ctx.db.query(`UPDATE accounts SET token_expires_at = now() + interval '1 minute' WHERE id = $1`, [id]);
    const deps = { db: ctx.db, adapters: ctx.services.adapters, secrets: ctx.services.secrets };
    const first = await refreshExpiringTokens(deps);
    expect(first.refreshed).toBeGreaterThanOrEqual(1);
    const { rows } = await ctx.db.query<{ token_expires_at: Date; is_active: boolean }>('SELECT token_expires_at, is_active FROM accounts WHERE id = $1', [id]);
    expect(rows[0].token_expires_at.getTime()).toBeGreaterThan(Date.now() + 3600_000);
    sim.revokeAll();
    await ctx.db.query(`UPDATE accounts SET token_expires_at = now() + interval '1 minute' WHERE id = $1`, [id]);
    const second = await refreshExpiringTokens(deps);
    expect(second.deactivated).toBeGreaterThanOrEqual(1);
    const { rows: after } = await ctx.db.query<{ is_active: boolean; inactive_reason: string }>('SELECT is_active, inactive_reason FROM accounts WHERE id = $1', [id]);
    expect(after[0]).toMatchObject({ is_active: false, inactive_reason: expect.stringMatching(/reconnect/) });
  });
});
