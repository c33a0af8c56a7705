/**
 * Reddit adapter against the Reddit simulator, through the real app: OAuth connect
 * (Basic client auth, duration=permanent, callback and API completion), the subreddit
 * picker and default subreddit, publishing each post kind (text, link, image), each rule
 * violation, each failure mode (429 with x-ratelimit-reset, RATELIMIT error arrays, 5xx,
 * expired token, revoked authorization, an answer lost after the post was created), and
 * the feed and search routes with their validation and tenancy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedditSimulator, type RedditSimulator } from '../../sim/reddit/server.ts';
import type { Publisher } from '../../src/publishing/publisher.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../helpers.ts';
import { makePng, multipart } from '../support/png.ts';
import { runDue as runDueTargets, startTestPublisher } from '../support/publishing.ts';
import { oauthConnect } from '../support/oauth.ts';

let sim: RedditSimulator;
let ctx: TestContext;
let tenant: Tenant;
let profileId: string;
let accountId: string;
let worker: Publisher;

async function connect(t: Tenant, profile: string, redirectUrl?: string) {
  const c = await oauthConnect(ctx, t, 'reddit', profile, redirectUrl);
  return { ...c, authUrl: new URL(c.authUrl) };
}

const post = (payload: object) => ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: tenant.headers, payload });
const get = (url: string, t: Tenant = tenant) => ctx.app.inject({ method: 'GET', url, headers: t.headers });
const target1 = (psd: Record<string, unknown> = {}) => [{ platform: 'reddit', accountId, platformSpecificData: psd }];

const runDue = (postId: string) => runDueTargets(ctx, worker, postId);

async function target(postId: string) {
  const { rows } = await ctx.db.query<{ status: string; error_message: string | null; platform_post_id: string | null; platform_post_url: string | null; run_at: Date | null; error_category: string | null }>(
    'SELECT status, error_message, platform_post_id, platform_post_url, run_at, error_category FROM post_targets WHERE post_id = $1', [postId]);
  return rows[0];
}

const mine = (title: string) => sim.posts.filter((p) => p.author === sim.user.name && p.title === title);

beforeAll(async () => {
  sim = await startRedditSimulator({ imageDelayMs: 300 });
  ctx = await createTestApp({
    env: { HERALD_REDDIT_CLIENT_ID: sim.clientId, HERALD_REDDIT_CLIENT_SECRET: sim.clientSecret, HERALD_REDDIT_API_URL: sim.url, HERALD_REDDIT_AUTH_URL: sim.url },
  });
  tenant = await createTenant(ctx);
  profileId = await createProfile(ctx, tenant);
  worker = await startTestPublisher(ctx, 'rd');
});
afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

describe('Reddit: connecting with OAuth 2.0', () => {
  it('names the missing settings when the Reddit app is not configured', async () => {
    const bare = await createTestApp();
    try {
      const t = await createTenant(bare);
      const p = await createProfile(bare, t);
      const res = await bare.app.inject({ method: 'GET', url: `/v1/connect/reddit?profileId=${p}`, headers: t.headers });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/HERALD_REDDIT_CLIENT_ID and HERALD_REDDIT_CLIENT_SECRET/);
    } finally {
      await bare.close();
    }
  });

  it('connects: authUrl asks for a permanent grant; the callback stores the account and redirects with connected, profileId, username', async () => {
    const { done, authUrl } = await connect(tenant, profileId);
    expect(authUrl.pathname).toBe('/api/v1/authorize');
    expect(Object.fromEntries(authUrl.searchParams)).toMatchObject({ response_type: 'code', duration: 'permanent', client_id: sim.clientId });
    expect(authUrl.searchParams.get('scope')!.split(' ')).toEqual(expect.arrayContaining(['identity', 'submit', 'read', 'mysubreddits']));
    expect(done.statusCode).toBe(302);
    const to = new URL(done.headers.location as string);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({ connected: 'reddit', profileId, username: 'herald_sim' });
    const accounts = (await get(`/v1/accounts?profileId=${profileId}`)).json().accounts;
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ platform: 'reddit', username: 'herald_sim', displayName: 'Herald Simulator', isActive: true });
    expect(new Date(accounts[0].tokenExpiresAt).getTime() - Date.now()).toBeGreaterThan(50 * 60_000);
    accountId = accounts[0]._id;
    const { rows } = await ctx.db.query<{ credentials: string; platform_user_id: string }>('SELECT credentials, platform_user_id FROM accounts WHERE id = $1', [accountId]);
    expect(rows[0].credentials).toMatch(/^v1:/);
    expect(rows[0].platform_user_id).toBe(sim.user.id);
    const creds = ctx.services.secrets.openJson<{ refreshToken?: string }>(rows[0].credentials);
    expect(creds.refreshToken).toBeTruthy();
    // Reddit asks for a descriptive User-Agent, never a generic one.
    expect(sim.lastUserAgent()).toMatch(/^server:herald\.sim-reddit-client:/);
    // ... and the simulator refuses a generic one, as Reddit throttles or bans them.
    expect((await fetch(`${sim.url}/api/v1/me`, { headers: { 'user-agent': 'node' } })).status).toBe(403);
  });

  it('refuses a replayed state; completes through POST /v1/connect/reddit and keeps one account', async () => {
    const p2 = await createProfile(ctx, tenant);
    const { callbackPath } = await connect(tenant, p2, 'https://client.example/x');
    const replay = await ctx.app.inject({ method: 'GET', url: callbackPath });
    expect(Object.fromEntries(new URL(replay.headers.location as string).searchParams)).toMatchObject({ error: 'connection_failed', platform: 'reddit' });
    const start = (await get(`/v1/connect/reddit?profileId=${profileId}`)).json();
    const consent = await fetch(start.authUrl, { redirect: 'manual' });
    const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/connect/reddit', headers: tenant.headers, payload: { code, state: start.state, profileId } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().account._id).toBe(accountId);
  });
});

describe('Reddit: subreddits of the account', () => {
  it('lists the subscribed subreddits with name and display_name_prefixed, and no default yet', async () => {
    const res = await get(`/v1/accounts/${accountId}/reddit-subreddits`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.defaultSubreddit).toBeNull();
    expect(body.subreddits.map((s: { name: string }) => s.name).sort()).toEqual(['herald', 'selfonly', 'test']);
    expect(body.subreddits[0]).toMatchObject({ name: expect.any(String), display_name_prefixed: expect.stringMatching(/^r\//), title: expect.any(String) });
  });

  it('sets the default subreddit (r/ prefix accepted), shown on the account; an unknown subreddit is a 400 naming defaultSubreddit', async () => {
    const res = await ctx.app.inject({ method: 'PUT', url: `/v1/accounts/${accountId}/reddit-subreddits`, headers: tenant.headers, payload: { defaultSubreddit: 'r/test' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().account.defaultSubreddit).toBe('test');
    expect((await get(`/v1/accounts/${accountId}/reddit-subreddits`)).json().defaultSubreddit).toBe('test');
    const bad = await ctx.app.inject({ method: 'PUT', url: `/v1/accounts/${accountId}/reddit-subreddits`, headers: tenant.headers, payload: { defaultSubreddit: 'doesnotexist' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.fields.defaultSubreddit).toBeTruthy();
    const malformed = await ctx.app.inject({ method: 'PUT', url: `/v1/accounts/${accountId}/reddit-subreddits`, headers: tenant.headers, payload: { defaultSubreddit: 'no spaces!' } });
    expect(malformed.statusCode).toBe(400);
  });

  it('another tenant\'s account is a 404; a non-Reddit account is a 400', async () => {
    const other = await createTenant(ctx);
    expect((await get(`/v1/accounts/${accountId}/reddit-subreddits`, other)).statusCode).toBe(404);
    const put = await ctx.app.inject({ method: 'PUT', url: `/v1/accounts/${accountId}/reddit-subreddits`, headers: other.headers, payload: { defaultSubreddit: 'herald' } });
    expect(put.statusCode).toBe(404);
    const bsky = await insertAccount(ctx, tenant, profileId, 'bluesky');
    const res = await get(`/v1/accounts/${bsky}/reddit-subreddits`);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields.accountId[0]).toMatch(/not a Reddit account/);
  });
});

describe('Reddit: publishing', () => {
  it('publishes a text post: title from the first line, the rest as the body, to the default subreddit', async () => {
    const res = await post({ content: 'Hello Reddit from Herald\nThis is the **body**.', publishNow: true, platforms: target1() });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostId).toMatch(/^[0-9a-z]+$/);
    expect(t.platformPostUrl).toBe(`https://www.reddit.com/r/test/comments/${t.platformPostId}/`);
    const p = sim.posts.find((x) => x.id === t.platformPostId)!;
    expect(p).toMatchObject({ subreddit: 'test', title: 'Hello Reddit from Herald', selftext: 'This is the **body**.', kind: 'self' });
  });

  it('publishes a link post to platformSpecificData.subreddit with platformSpecificData.title, nsfw and flair', async () => {
    const res = await post({ content: 'ignored for links', publishNow: true, platforms: target1({ subreddit: 'herald', title: 'A link worth reading', url: 'https://example.com/article', nsfw: true, flairText: 'News' }) });
    expect(res.statusCode, res.body).toBe(201);
    const p = sim.posts.find((x) => x.id === res.json().post.platforms[0].platformPostId)!;
    expect(p).toMatchObject({ subreddit: 'herald', title: 'A link worth reading', kind: 'link', url: 'https://example.com/article', over_18: true, link_flair_text: 'News' });
  });

  it('publishes an image post: lease, S3 upload, submit, then found in the submitted listing', async () => {
    const mp = multipart('files', [{ filename: 'cat.png', contentType: 'image/png', data: makePng(4, 4) }]);
    const files = (await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...tenant.headers, 'content-type': mp.contentType }, payload: mp.payload })).json().files;
    const res = await post({ content: 'A picture of a cat', publishNow: true, mediaItems: files, platforms: target1({ subreddit: 'herald' }) });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    const p = mine('A picture of a cat');
    expect(p).toHaveLength(1);
    expect(p[0]).toMatchObject({ kind: 'image', subreddit: 'herald' });
    expect(p[0].url).toContain('/__s3/reddit-uploaded-media/');
    expect(t.platformPostId).toBe(p[0].id);
    expect(t.platformPostUrl).toMatch(new RegExp(`^https://www\\.reddit\\.com/r/herald/comments/${p[0].id}/`));
  });

  it('publishes a gallery (2-20 images): each uploaded, then submit_gallery_post with the asset ids', async () => {
    const mp = multipart('files', [1, 2, 3].map((i) => ({ filename: `g${i}.png`, contentType: 'image/png', data: makePng(3, i) })));
    const files = (await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...tenant.headers, 'content-type': mp.contentType }, payload: mp.payload })).json().files;
    const res = await post({ content: 'Three pictures', publishNow: true, mediaItems: files, platforms: target1() });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostUrl).toBe(`https://www.reddit.com/gallery/${t.platformPostId}`);
    expect(mine('Three pictures')).toEqual([expect.objectContaining({ kind: 'gallery', subreddit: 'test', id: t.platformPostId })]);
  });

  it('image post whose submit answer was lost: verify waits until Reddit shows it, no duplicate', async () => {
    sim.addFault({ op: 'submit', kind: 'drop_after_create', count: 1 });
    const mp = multipart('files', [{ filename: 'late.png', contentType: 'image/png', data: makePng(5, 5) }]);
    const files = (await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...tenant.headers, 'content-type': mp.contentType }, payload: mp.payload })).json().files;
    const id = (await post({ content: 'late picture', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: files, platforms: target1() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    for (let i = 0; i < 3 && (await target(id)).status !== 'published'; i++) {
      await new Promise((r) => setTimeout(r, 350));
      await runDue(id);
    }
    const t = await target(id);
    expect(t.status).toBe('published');
    expect(mine('late picture')).toHaveLength(1);
    expect(t.platform_post_id).toBe(mine('late picture')[0].id);
  });

  it('refuses rule violations before any platform call, naming the rule', async () => {
    const before = sim.calls.get('POST /api/submit') ?? 0;
    const long = await post({ content: 'x'.repeat(301), publishNow: true, platforms: target1() });
    expect(long.statusCode).toBe(400);
    expect(long.json().details.fields.content.join()).toMatch(/reddit\.title\.max_length/);
    const noTitle = await post({ content: 'x', publishNow: true, mediaItems: [{ type: 'image', url: 'https://example.com/a.png' }], platforms: [{ platform: 'reddit', accountId, customContent: '   ' }] });
    expect(noTitle.statusCode).toBe(400);
    expect(JSON.stringify(noTitle.json().details.fields)).toMatch(/reddit\.title\.required/);
    const many = await post({ content: 'many', publishNow: true, mediaItems: Array.from({ length: 21 }, (_, i) => ({ type: 'image', url: `https://example.com/${i}.png` })), platforms: target1() });
    expect(many.json().details.fields.mediaItems.join()).toMatch(/reddit\.media\.gallery_max/);
    const video = await post({ content: 'vid', publishNow: true, mediaItems: [{ type: 'video', url: 'https://example.com/a.mp4' }], platforms: target1() });
    expect(video.json().details.fields['mediaItems.0'].join()).toMatch(/reddit\.media\.video_unsupported/);
    const both = await post({ content: 'both', publishNow: true, mediaItems: [{ type: 'image', url: 'https://example.com/a.png' }], platforms: target1({ url: 'https://example.com' }) });
    expect(both.json().details.fields['platforms.0.platformSpecificData.url'].join()).toMatch(/reddit\.post\.link_or_image/);
    const badUrl = await post({ content: 'bad url', publishNow: true, platforms: target1({ url: 'ftp://example.com' }) });
    expect(badUrl.json().details.fields['platforms.0.platformSpecificData.url'].join()).toMatch(/reddit\.link\.url/);
    const badSr = await post({ content: 'bad sr', publishNow: true, platforms: target1({ subreddit: 'no spaces here' }) });
    expect(badSr.json().details.fields['platforms.0.platformSpecificData.subreddit'].join()).toMatch(/reddit\.subreddit\.name/);
    const flair = await post({ content: 'flair', publishNow: true, platforms: target1({ flairText: 'f'.repeat(65) }) });
    expect(flair.json().details.fields['platforms.0.platformSpecificData.flairText'].join()).toMatch(/reddit\.flair\.text/);
    const body = await post({ content: `title\n${'b'.repeat(40_001)}`, publishNow: true, platforms: target1() });
    expect(body.json().details.fields.content.join()).toMatch(/reddit\.text\.max_length/);
    expect(sim.calls.get('POST /api/submit') ?? 0).toBe(before);
  });

  it('no subreddit (none given, no default) is refused when the post is created, naming the rule', async () => {
    const p = await createProfile(ctx, tenant);
    const { done } = await connect(tenant, p);
    const id = new URL(done.headers.location as string).searchParams.get('accountId')!;
    const before = sim.calls.get('POST /api/submit') ?? 0;
    const res = await post({ content: 'nowhere to go', publishNow: true, platforms: [{ platform: 'reddit', accountId: id }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields['platforms.0.platformSpecificData.subreddit'].join()).toMatch(/reddit\.subreddit\.required/);
    expect(sim.calls.get('POST /api/submit') ?? 0).toBe(before);
  });

  it('Reddit\'s own refusals (json.errors) fail the target with Reddit\'s code and text, not retried', async () => {
    const res = await post({ content: 'a text post', publishNow: true, platforms: target1({ subreddit: 'linksonly' }) });
    expect(res.statusCode).toBe(207);
    expect(res.json().platformResults[0].error).toMatch(/NO_SELFS/);
    const gone = await post({ content: 'to a missing sub', publishNow: true, platforms: target1({ subreddit: 'nosuchsub' }) });
    expect(gone.json().platformResults[0].error).toMatch(/SUBREDDIT_NOEXIST/);
  });
});

describe('Reddit: failure modes', () => {
  it('HTTP 429: the target waits for x-ratelimit-reset (seconds from now) and then publishes', async () => {
    sim.addFault({ op: 'submit', kind: 'rate_limit', count: 1 });
    const id = (await post({ content: 'after the limit', scheduledFor: '2030-01-01T00:00:00Z', platforms: target1() })).json().post._id;
    await runDue(id);
    const waiting = await target(id);
    expect(waiting).toMatchObject({ status: 'pending', error_category: 'platform_rate_limit' });
    expect(waiting.run_at!.getTime()).toBeGreaterThan(Date.now() + 80_000);
    expect(waiting.run_at!.getTime()).toBeLessThan(Date.now() + 100_000);
    await runDue(id);
    expect((await target(id)).status).toBe('published');
  });

  it('RATELIMIT in json.errors: waits the minutes Reddit names', async () => {
    sim.addFault({ op: 'submit', kind: 'ratelimit_error', count: 1 });
    const id = (await post({ content: 'doing that a lot', scheduledFor: '2030-01-01T00:00:00Z', platforms: target1() })).json().post._id;
    await runDue(id);
    const waiting = await target(id);
    expect(waiting).toMatchObject({ status: 'pending', error_category: 'platform_rate_limit' });
    expect(waiting.error_message).toMatch(/RATELIMIT/);
    expect(waiting.run_at!.getTime()).toBeGreaterThan(Date.now() + 110_000);
    await runDue(id);
    expect((await target(id)).status).toBe('published');
  });

  it('5xx: retried with backoff, published once', async () => {
    sim.addFault({ op: 'submit', kind: 'server_error', count: 1 });
    const id = (await post({ content: 'after a 503', scheduledFor: '2030-01-01T00:00:00Z', platforms: target1() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(mine('after a 503')).toHaveLength(1);
  });

  it('expired access token: refreshed with the same (non-rotating) refresh token and published, twice', async () => {
    sim.expireAccessTokens();
    expect((await post({ content: 'after a refresh', publishNow: true, platforms: target1() })).statusCode).toBe(201);
    sim.expireAccessTokens();
    expect((await post({ content: 'after a second refresh', publishNow: true, platforms: target1() })).statusCode).toBe(201);
    const { rows } = await ctx.db.query<{ credentials: string }>('SELECT credentials FROM accounts WHERE id = $1', [accountId]);
    expect(ctx.services.secrets.openJson<{ refreshToken?: string }>(rows[0].credentials).refreshToken).toBeTruthy();
  });

  it('answer lost after Reddit created the post: verify finds it in the submitted listing, no duplicate', async () => {
    sim.addFault({ op: 'submit', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'created but unanswered', scheduledFor: '2030-01-01T00:00:00Z', platforms: target1() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    await runDue(id);
    const t = await target(id);
    expect(t.status).toBe('published');
    const created = mine('created but unanswered');
    expect(created).toHaveLength(1);
    expect(t.platform_post_id).toBe(created[0].id);
  });

  it('answer lost, then 150 newer posts: verify pages the submitted listing (after) past them and finds it, no second submit', async () => {
    sim.addFault({ op: 'submit', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'buried under a burst', scheduledFor: '2030-01-01T00:00:00Z', platforms: target1() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    for (let i = 0; i < 150; i++) sim.addPost('test', `burst ${i}`);
    const submits = sim.calls.get('POST /api/submit');
    const lists = sim.calls.get('GET /user/:name/submitted') ?? 0;
    await runDue(id);
    const t = await target(id);
    expect(t.status).toBe('published');
    const created = mine('buried under a burst');
    expect(created).toHaveLength(1);
    expect(t.platform_post_id).toBe(created[0].id);
    expect(sim.calls.get('POST /api/submit')).toBe(submits);
    expect((sim.calls.get('GET /user/:name/submitted') ?? 0) - lists).toBeGreaterThanOrEqual(2); // at most 100 a call
  });

  it('the submitted listing fails during verify (429): not submitted again, asked again later', async () => {
    sim.addFault({ op: 'submit', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'verify meets a limit', scheduledFor: '2030-01-01T00:00:00Z', platforms: target1() })).json().post._id;
    await runDue(id);
    const submits = sim.calls.get('POST /api/submit');
    sim.addFault({ op: 'read', kind: 'rate_limit', count: 1 });
    await runDue(id);
    expect(await target(id)).toMatchObject({ status: 'pending' });
    expect((await target(id)).error_message).toMatch(/Checking whether the interrupted publish went through/);
    expect(sim.calls.get('POST /api/submit')).toBe(submits);
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(mine('verify meets a limit')).toHaveLength(1);
    expect(sim.calls.get('POST /api/submit')).toBe(submits);
  });

  it('connection dropped before Reddit created anything, 150 posts since: the complete look-back finds nothing, submitted once', async () => {
    sim.addFault({ op: 'submit', kind: 'drop', count: 1 });
    const id = (await post({ content: 'never arrived', scheduledFor: '2030-01-01T00:00:00Z', platforms: target1() })).json().post._id;
    await runDue(id);
    for (let i = 0; i < 150; i++) sim.addPost('test', `later ${i}`);
    const lists = sim.calls.get('GET /user/:name/submitted') ?? 0;
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(mine('never arrived')).toHaveLength(1);
    expect((sim.calls.get('GET /user/:name/submitted') ?? 0) - lists).toBeGreaterThanOrEqual(2);
  });

  it('connection dropped before Reddit created anything: verify says not published, committed once', async () => {
    sim.addFault({ op: 'submit', kind: 'drop', count: 1 });
    const id = (await post({ content: 'dropped before create', scheduledFor: '2030-01-01T00:00:00Z', platforms: target1() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(mine('dropped before create')).toHaveLength(1);
  });
});

describe('Reddit: feed and search', () => {
  it('reads a subreddit feed with Herald\'s item fields and after/before cursors', async () => {
    const res = await get(`/v1/reddit/feed?accountId=${accountId}&subreddit=herald&limit=5`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.items).toHaveLength(5);
    expect(body.items[0]).toEqual({
      id: expect.any(String), fullname: expect.stringMatching(/^t3_/), title: expect.any(String), author: expect.any(String), subreddit: 'herald',
      url: expect.any(String), permalink: expect.stringMatching(/^https:\/\/www\.reddit\.com\/r\/herald\/comments\//), selftext: expect.any(String),
      createdUtc: expect.any(Number), score: expect.any(Number), numComments: expect.any(Number), over18: expect.any(Boolean), stickied: expect.any(Boolean),
      flairText: expect.toSatisfy((v: unknown) => v === null || typeof v === 'string'),
    });
    expect(body.after).toBe(body.items[4].fullname);
    expect(body.before).toBeNull();
    const next = (await get(`/v1/reddit/feed?accountId=${accountId}&subreddit=herald&limit=5&after=${body.after}`)).json();
    expect(next.items[0].id).not.toBe(body.items[0].id);
    expect(next.before).toBe(next.items[0].fullname);
    const top = await get(`/v1/reddit/feed?accountId=${accountId}&sort=top&t=all&limit=100`);
    expect(top.statusCode).toBe(200);
    const scores = top.json().items.map((i: { score: number }) => i.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('searches, by default sorted by new, optionally within a subreddit', async () => {
    const all = await get(`/v1/reddit/search?accountId=${accountId}&q=cats`);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().items.length).toBeGreaterThan(0);
    const created = all.json().items.map((i: { createdUtc: number }) => i.createdUtc);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    for (const i of all.json().items) expect(i.title.toLowerCase()).toContain('cats');
    const inSub = (await get(`/v1/reddit/search?accountId=${accountId}&q=cats&subreddit=test`)).json();
    for (const i of inSub.items) expect(i.subreddit).toBe('test');
  });

  it('validates: accountId required, q required for search, limit 1-100, sort values, t only with top', async () => {
    const field = async (url: string) => {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      return Object.keys(res.json().details.fields);
    };
    expect(await field('/v1/reddit/feed')).toContain('accountId');
    expect(await field(`/v1/reddit/search?accountId=${accountId}`)).toContain('q');
    expect(await field(`/v1/reddit/feed?accountId=${accountId}&limit=0`)).toContain('limit');
    expect(await field(`/v1/reddit/feed?accountId=${accountId}&limit=101`)).toContain('limit');
    expect(await field(`/v1/reddit/feed?accountId=${accountId}&sort=best`)).toContain('sort');
    expect(await field(`/v1/reddit/search?accountId=${accountId}&q=x&sort=rising`)).toContain('sort');
    expect(await field(`/v1/reddit/feed?accountId=${accountId}&t=week`)).toContain('t');
    expect(await field(`/v1/reddit/feed?accountId=${accountId}&sort=top&t=decade`)).toContain('t');
    const other = await createTenant(ctx);
    expect((await get(`/v1/reddit/feed?accountId=${accountId}`, other)).statusCode).toBe(404);
    expect((await get(`/v1/reddit/search?accountId=${accountId}&q=x`, other)).statusCode).toBe(404);
  });

  it('Reddit\'s rate limit on a read answers 429', async () => {
    sim.addFault({ op: 'read', kind: 'rate_limit', count: 1 });
    const res = await get(`/v1/reddit/feed?accountId=${accountId}`);
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('RATE_LIMITED');
  });
});

describe('Reddit: revoked authorization', () => {
  it('marks the account for reconnection; the target says so', async () => {
    sim.revokeAll();
    const res = await post({ content: 'after revocation', publishNow: true, platforms: target1() });
    expect(res.statusCode).toBe(207);
    expect(res.json().platformResults[0].error).toMatch(/reconnect/i);
    const acc = (await get(`/v1/accounts?profileId=${profileId}`)).json().accounts.find((a: { _id: string }) => a._id === accountId);
    expect(acc).toMatchObject({ isActive: false, needsReconnection: true });
    // The pickers say so too instead of calling Reddit.
    const subs = await get(`/v1/accounts/${accountId}/reddit-subreddits`);
    expect(subs.statusCode).toBe(400);
    expect(subs.json().error).toMatch(/reconnect/);
  });
});

describe('Reddit: token refresh job', () => {
  it('refreshes tokens that expire soon (keeping the refresh token), and marks an account whose refresh is refused', async () => {
    const { refreshExpiringTokens } = await import('../../src/publishing/token-refresh.ts');
    const p = await createProfile(ctx, tenant);
    const { done } = await connect(tenant, p);
    const id = new URL(done.headers.location as string).searchParams.get('accountId')!;
    await ctx.db.query(`UPDATE accounts SET token_expires_at = now() + interval '1 minute' WHERE id = $1`, [id]);
    const deps = { db: ctx.db, adapters: ctx.services.adapters, secrets: ctx.services.secrets };
    expect((await refreshExpiringTokens(deps)).refreshed).toBeGreaterThanOrEqual(1);
    const { rows } = await ctx.db.query<{ token_expires_at: Date; credentials: string }>('SELECT token_expires_at, credentials FROM accounts WHERE id = $1', [id]);
    expect(rows[0].token_expires_at.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(ctx.services.secrets.openJson<{ refreshToken?: string }>(rows[0].credentials).refreshToken).toBeTruthy();
    sim.revokeAll();
    await ctx.db.query(`UPDATE accounts SET token_expires_at = now() + interval '1 minute' WHERE id = $1`, [id]);
    expect((await refreshExpiringTokens(deps)).deactivated).toBeGreaterThanOrEqual(1);
    const { rows: after } = await ctx.db.query<{ is_active: boolean; inactive_reason: string }>('SELECT is_active, inactive_reason FROM accounts WHERE id = $1', [id]);
    expect(after[0]).toMatchObject({ is_active: false, inactive_reason: expect.stringMatching(/reconnect/) });
  });
});
