/**
 * Pinterest adapter against the Pinterest simulator, through the real app: OAuth connect
 * (Basic client auth, refresh), the board picker and default board, publishing each pin
 * kind (image, carousel, video with each cover rule), each rule violation, and each
 * failure mode (429, 5xx, expired token, revoked authorization, processing failure, an
 * answer lost after the pin was created).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPinterestSimulator, type PinterestSimulator } from '../../sim/pinterest/server.ts';
import type { Publisher } from '../../src/publishing/publisher.ts';
import { pinterestOAuth, PINTEREST_DEFAULTS } from '../../src/platforms/pinterest/oauth.ts';
import { AdapterError } from '../../src/platforms/types.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../helpers.ts';
import { runDue as runDueTargets, startTestPublisher } from '../support/publishing.ts';
import { oauthConnect } from '../support/oauth.ts';

let sim: PinterestSimulator;
let ctx: TestContext;
let tenant: Tenant;
let profileId: string;
let accountId: string;
let worker: Publisher;
let boardId: string;

async function connect(t: Tenant, profile: string, redirectUrl?: string) {
  const c = await oauthConnect(ctx, t, 'pinterest', profile, redirectUrl);
  return { ...c, authUrl: new URL(c.authUrl) };
}

const post = (payload: object) => ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: tenant.headers, payload });
const get = (url: string, t: Tenant = tenant) => ctx.app.inject({ method: 'GET', url, headers: t.headers });
const put = (url: string, payload: object, t: Tenant = tenant) => ctx.app.inject({ method: 'PUT', url, headers: t.headers, payload });
const target1 = (psd: Record<string, unknown> = {}) => [{ platform: 'pinterest', accountId, platformSpecificData: psd }];
const img = (n: number) => ({ type: 'image', url: `https://cdn.example.com/pin-${n}.jpg` });
const video = () => ({ type: 'video', url: `${sim.url}/__sim/files/clip.mp4`, mimeType: 'video/mp4' });

const runDue = (postId: string) => runDueTargets(ctx, worker, postId);

async function target(postId: string) {
  const { rows } = await ctx.db.query<{ status: string; error_message: string | null; platform_post_id: string | null; run_at: Date | null; error_category: string | null }>(
    'SELECT status, error_message, platform_post_id, run_at, error_category FROM post_targets WHERE post_id = $1', [postId]);
  return rows[0];
}

const pinsTitled = (title: string) => sim.pins.filter((p) => p.title === title);

beforeAll(async () => {
  sim = await startPinterestSimulator({ processingPolls: 2 });
  ctx = await createTestApp({
    env: { HERALD_PINTEREST_CLIENT_ID: sim.clientId, HERALD_PINTEREST_CLIENT_SECRET: sim.clientSecret, HERALD_PINTEREST_API_URL: sim.url, HERALD_PINTEREST_AUTH_URL: sim.url },
  });
  tenant = await createTenant(ctx);
  profileId = await createProfile(ctx, tenant);
  boardId = sim.boards[0].id;
  worker = await startTestPublisher(ctx, 'pin');
});
afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

describe('Pinterest: connecting with OAuth 2.0', () => {
  it('names the missing settings when the Pinterest app is not configured', async () => {
    const bare = await createTestApp();
    try {
      const t = await createTenant(bare);
      const p = await createProfile(bare, t);
      const res = await bare.app.inject({ method: 'GET', url: `/v1/connect/pinterest?profileId=${p}`, headers: t.headers });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/HERALD_PINTEREST_CLIENT_ID and HERALD_PINTEREST_CLIENT_SECRET/);
    } finally {
      await bare.close();
    }
  });

  it('connects: comma-separated scopes; the callback stores the account with its 30-day token and redirects', async () => {
    const { done, authUrl } = await connect(tenant, profileId);
    expect(authUrl.pathname).toBe('/oauth/');
    expect(authUrl.searchParams.get('scope')!.split(',')).toEqual(expect.arrayContaining(['boards:read', 'pins:write', 'user_accounts:read']));
    expect(done.statusCode).toBe(302);
    const to = new URL(done.headers.location as string);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({ connected: 'pinterest', profileId, username: 'herald_sim' });
    const accounts = (await get(`/v1/accounts?profileId=${profileId}`)).json().accounts;
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ platform: 'pinterest', username: 'herald_sim', displayName: 'Herald Simulator', isActive: true });
    expect(new Date(accounts[0].tokenExpiresAt).getTime() - Date.now()).toBeGreaterThan(29 * 86400_000);
    accountId = accounts[0]._id;
    const { rows } = await ctx.db.query<{ credentials: string; platform_user_id: string }>('SELECT credentials, platform_user_id FROM accounts WHERE id = $1', [accountId]);
    expect(rows[0].platform_user_id).toBe(sim.user.id);
    expect(ctx.services.secrets.openJson<{ refreshToken?: string }>(rows[0].credentials).refreshToken).toBeTruthy();
  });

  it('refuses a replayed state; completes through POST /v1/connect/pinterest and keeps one account', async () => {
    const p2 = await createProfile(ctx, tenant);
    const { callbackPath } = await connect(tenant, p2, 'https://client.example/x');
    const replay = await ctx.app.inject({ method: 'GET', url: callbackPath });
    expect(Object.fromEntries(new URL(replay.headers.location as string).searchParams)).toMatchObject({ error: 'connection_failed', platform: 'pinterest' });
    const start = (await get(`/v1/connect/pinterest?profileId=${profileId}`)).json();
    const consent = await fetch(start.authUrl, { redirect: 'manual' });
    const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/connect/pinterest', headers: tenant.headers, payload: { code, state: start.state, profileId } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().account._id).toBe(accountId);
  });
});

describe('Pinterest: boards', () => {
  it('lists every board (following the bookmark past one page), with no default yet', async () => {
    const res = await get(`/v1/accounts/${accountId}/pinterest-boards`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ defaultBoardId: null, defaultBoardName: null });
    expect(body.boards).toHaveLength(30);
    expect(body.boards[0]).toEqual({ id: boardId, name: 'Recipes', description: '', privacy: 'PUBLIC' });
    expect(body.boards.some((b: { name: string }) => b.name === 'Someone else\'s board')).toBe(false);
  });

  it('sets the default board (name from Pinterest), shown on the account; an unknown board is a 400', async () => {
    const res = await put(`/v1/accounts/${accountId}/pinterest-boards`, { defaultBoardId: boardId, defaultBoardName: 'whatever' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().account).toMatchObject({ defaultBoardId: boardId, defaultBoardName: 'Recipes' });
    expect((await get(`/v1/accounts/${accountId}/pinterest-boards`)).json()).toMatchObject({ defaultBoardId: boardId, defaultBoardName: 'Recipes' });
    const foreign = sim.boards.find((b) => b.owner !== 'herald_sim')!.id;
    const bad = await put(`/v1/accounts/${accountId}/pinterest-boards`, { defaultBoardId: foreign });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.fields.defaultBoardId).toBeTruthy();
    expect((await put(`/v1/accounts/${accountId}/pinterest-boards`, { defaultBoardId: 'abc' })).statusCode).toBe(400);
  });

  it('another tenant\'s account is a 404; a non-Pinterest account is a 400', async () => {
    const other = await createTenant(ctx);
    expect((await get(`/v1/accounts/${accountId}/pinterest-boards`, other)).statusCode).toBe(404);
    expect((await put(`/v1/accounts/${accountId}/pinterest-boards`, { defaultBoardId: boardId }, other)).statusCode).toBe(404);
    const bsky = await insertAccount(ctx, tenant, profileId, 'bluesky');
    const res = await get(`/v1/accounts/${bsky}/pinterest-boards`);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields.accountId[0]).toMatch(/not a Pinterest account/);
  });
});

describe('Pinterest: publishing', () => {
  it('publishes an image pin to the default board: title from the first line, content as description, link', async () => {
    const res = await post({ content: 'Lemon tart\nThe best recipe.', publishNow: true, mediaItems: [{ ...img(1), altText: 'a tart' }], platforms: target1({ link: 'https://example.com/tart' }) });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostId).toMatch(/^\d+$/);
    expect(t.platformPostUrl).toBe(`https://www.pinterest.com/pin/${t.platformPostId}/`);
    const pin = sim.pins.find((p) => p.id === t.platformPostId)!;
    expect(pin).toMatchObject({ board_id: boardId, title: 'Lemon tart', description: 'Lemon tart\nThe best recipe.', link: 'https://example.com/tart', alt_text: 'a tart', media_type: 'image' });
    expect(pin.media_source).toEqual({ source_type: 'image_url', url: 'https://cdn.example.com/pin-1.jpg' });
  });

  it('publishes a carousel (2-5 images) to platformSpecificData.boardId', async () => {
    const other = sim.boards[1].id;
    const res = await post({ content: 'Trip photos', publishNow: true, mediaItems: [img(1), img(2), img(3)], platforms: target1({ boardId: other }) });
    expect(res.statusCode, res.body).toBe(201);
    const pin = sim.pins.find((p) => p.id === res.json().post.platforms[0].platformPostId)!;
    expect(pin).toMatchObject({ board_id: other, media_type: 'multiple_images' });
    expect((pin.media_source.items as unknown[]).length).toBe(3);
  });

  it('publishes a video pin: registered, uploaded, processed, then the pin with a key frame 0 cover by default', async () => {
    const res = await post({ content: 'A short clip', publishNow: true, mediaItems: [video()], platforms: target1() });
    expect(res.statusCode, res.body).toBe(201);
    const pin = sim.pins.find((p) => p.id === res.json().post.platforms[0].platformPostId)!;
    expect(pin.media_type).toBe('video');
    expect(pin.media_source).toMatchObject({ source_type: 'video_id', media_id: expect.stringMatching(/^\d+$/), cover_image_key_frame_time: 0 });
    expect(sim.calls.get('POST /__s3/pinterest-media-upload')).toBeGreaterThanOrEqual(1);
    expect(sim.calls.get('GET /v5/media/:id')).toBeGreaterThanOrEqual(2);
  });

  it('video cover: coverImageUrl, else an image among mediaItems, else coverImageKeyFrameTime seconds', async () => {
    const a = await post({ content: 'cover url', publishNow: true, mediaItems: [video()], platforms: target1({ coverImageUrl: 'https://cdn.example.com/cover.jpg' }) });
    expect(sim.pins.find((p) => p.id === a.json().post.platforms[0].platformPostId)!.media_source).toMatchObject({ cover_image_url: 'https://cdn.example.com/cover.jpg' });
    const b = await post({ content: 'cover image', publishNow: true, mediaItems: [video(), img(9)], platforms: target1() });
    expect(b.statusCode, b.body).toBe(201);
    expect(sim.pins.find((p) => p.id === b.json().post.platforms[0].platformPostId)!.media_source).toMatchObject({ cover_image_url: 'https://cdn.example.com/pin-9.jpg' });
    const c = await post({ content: 'key frame', publishNow: true, mediaItems: [video()], platforms: target1({ coverImageKeyFrameTime: 2.5 }) });
    expect(sim.pins.find((p) => p.id === c.json().post.platforms[0].platformPostId)!.media_source).toMatchObject({ cover_image_key_frame_time: 2.5 });
  });

  it('refuses rule violations before any platform call, naming the rule', async () => {
    const before = (sim.calls.get('POST /v5/pins') ?? 0) + (sim.calls.get('POST /v5/media') ?? 0);
    const fields = async (payload: object) => {
      const res = await post(payload);
      expect(res.statusCode, res.body).toBe(400);
      return JSON.stringify(res.json().details.fields);
    };
    expect(await fields({ content: 'no media', publishNow: true, platforms: target1() })).toMatch(/pinterest\.media\.required/);
    expect(await fields({ content: 'six', publishNow: true, mediaItems: [1, 2, 3, 4, 5, 6].map(img), platforms: target1() })).toMatch(/pinterest\.media\.carousel_max/);
    expect(await fields({ content: 'two videos', publishNow: true, mediaItems: [video(), video()], platforms: target1() })).toMatch(/pinterest\.media\.one_video/);
    expect(await fields({ content: 'video+2', publishNow: true, mediaItems: [video(), img(1), img(2)], platforms: target1() })).toMatch(/pinterest\.media\.video_with_images/);
    expect(await fields({ content: 'd'.repeat(801), publishNow: true, mediaItems: [img(1)], platforms: target1() })).toMatch(/pinterest\.description\.max_length/);
    expect(await fields({ content: 'x', publishNow: true, mediaItems: [img(1)], platforms: target1({ title: 't'.repeat(101) }) })).toMatch(/pinterest\.title\.max_length/);
    expect(await fields({ content: 'x', publishNow: true, mediaItems: [img(1)], platforms: target1({ link: 'javascript:alert(1)' }) })).toMatch(/pinterest\.link\.url/);
    expect(await fields({ content: 'x', publishNow: true, mediaItems: [img(1)], platforms: target1({ boardId: 'my-board' }) })).toMatch(/pinterest\.board\.id/);
    expect(await fields({ content: 'x', publishNow: true, mediaItems: [video()], platforms: target1({ coverImageKeyFrameTime: -1 }) })).toMatch(/pinterest\.cover\.key_frame_time/);
    expect(await fields({ content: 'x', publishNow: true, mediaItems: [{ type: 'document', url: 'https://cdn.example.com/a.pdf' }], platforms: target1() })).toMatch(/pinterest\.media\.type/);
    expect((sim.calls.get('POST /v5/pins') ?? 0) + (sim.calls.get('POST /v5/media') ?? 0)).toBe(before);
  });

  it('a long first line is cut to the 100-character title', async () => {
    const line = 'L'.repeat(150);
    const res = await post({ content: line, publishNow: true, mediaItems: [img(1)], platforms: target1() });
    expect(res.statusCode, res.body).toBe(201);
    expect(sim.pins.find((p) => p.id === res.json().post.platforms[0].platformPostId)!.title).toBe('L'.repeat(100));
  });

  it('no board (none given, no default) is refused when the post is created, naming the rule', async () => {
    const p = await createProfile(ctx, tenant);
    const { done } = await connect(tenant, p);
    const id = new URL(done.headers.location as string).searchParams.get('accountId')!;
    const before = sim.calls.get('POST /v5/pins') ?? 0;
    const res = await post({ content: 'no board', publishNow: true, mediaItems: [img(1)], platforms: [{ platform: 'pinterest', accountId: id }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields['platforms.0.platformSpecificData.boardId'].join()).toMatch(/pinterest\.board\.required/);
    expect(sim.calls.get('POST /v5/pins') ?? 0).toBe(before);
  });

  it('Pinterest\'s refusal (a board that is not the user\'s) fails the target with Pinterest\'s message', async () => {
    const foreign = sim.boards.find((b) => b.owner !== 'herald_sim')!.id;
    const res = await post({ content: 'foreign board', publishNow: true, mediaItems: [img(1)], platforms: target1({ boardId: foreign }) });
    expect(res.statusCode).toBe(207);
    expect(res.json().platformResults[0].error).toMatch(/Board not found/);
  });
});

describe('Pinterest: failure modes', () => {
  it('429: the target waits (a minute when Pinterest names no delay) and then publishes', async () => {
    sim.addFault({ op: 'pin', kind: 'rate_limit', count: 1 });
    const id = (await post({ content: 'after the limit', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [img(1)], platforms: target1() })).json().post._id;
    await runDue(id);
    const waiting = await target(id);
    expect(waiting).toMatchObject({ status: 'pending', error_category: 'platform_rate_limit' });
    expect(waiting.run_at!.getTime()).toBeGreaterThan(Date.now() + 50_000);
    await runDue(id);
    expect((await target(id)).status).toBe('published');
  });

  it('5xx: retried with backoff, published once', async () => {
    sim.addFault({ op: 'pin', kind: 'server_error', count: 1 });
    const id = (await post({ content: 'after a 503', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [img(1)], platforms: target1() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(pinsTitled('after a 503')).toHaveLength(1);
  });

  it('video processing failure fails the target with the reason, and no pin is made', async () => {
    sim.addFault({ op: 'media', kind: 'processing_failed', count: 1 });
    const res = await post({ content: 'broken video', publishNow: true, mediaItems: [video()], platforms: target1() });
    expect(res.statusCode).toBe(207);
    expect(res.json().platformResults[0].error).toMatch(/could not process the video/);
    expect(pinsTitled('broken video')).toHaveLength(0);
  });

  it('expired access token: refreshed and published', async () => {
    sim.expireAccessTokens();
    expect((await post({ content: 'after a refresh', publishNow: true, mediaItems: [img(1)], platforms: target1() })).statusCode).toBe(201);
    sim.expireAccessTokens();
    expect((await post({ content: 'after a second refresh', publishNow: true, mediaItems: [img(1)], platforms: target1() })).statusCode).toBe(201);
  });

  it('answer lost after Pinterest created the pin: verify finds it on the board, no duplicate', async () => {
    sim.addFault({ op: 'pin', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'created but unanswered', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [img(1)], platforms: target1() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    await runDue(id);
    const t = await target(id);
    expect(t.status).toBe('published');
    const created = pinsTitled('created but unanswered');
    expect(created).toHaveLength(1);
    expect(t.platform_post_id).toBe(created[0].id);
  });

  it('connection dropped before the pin was made: verify says not published, pinned once', async () => {
    sim.addFault({ op: 'pin', kind: 'drop', count: 1 });
    const id = (await post({ content: 'dropped before create', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [img(1)], platforms: target1() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(pinsTitled('dropped before create')).toHaveLength(1);
  });

  it('answer lost, then 300 newer pins on the board: verify reads the board past them (bookmark) and finds it, no second create', async () => {
    sim.addFault({ op: 'pin', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'buried under a burst', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [img(1)], platforms: target1({ boardId }) })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    for (let i = 0; i < 300; i++) sim.addPin(boardId, `burst ${i}`);
    const creates = sim.calls.get('POST /v5/pins');
    const lists = sim.calls.get('GET /v5/boards/:id/pins') ?? 0;
    await runDue(id);
    const t = await target(id);
    expect(t.status).toBe('published');
    const created = pinsTitled('buried under a burst');
    expect(created).toHaveLength(1);
    expect(t.platform_post_id).toBe(created[0].id);
    expect(sim.calls.get('POST /v5/pins')).toBe(creates);
    expect((sim.calls.get('GET /v5/boards/:id/pins') ?? 0) - lists).toBeGreaterThanOrEqual(2); // at most 250 a page
  });

  it('the board cannot be read during verify (5xx): not pinned again, asked again later', async () => {
    sim.addFault({ op: 'pin', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'verify meets a 503', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [img(1)], platforms: target1({ boardId }) })).json().post._id;
    await runDue(id);
    const creates = sim.calls.get('POST /v5/pins');
    sim.addFault({ op: 'read', kind: 'server_error', count: 1 });
    await runDue(id);
    expect(await target(id)).toMatchObject({ status: 'pending', error_category: 'platform_error' });
    expect(sim.calls.get('POST /v5/pins')).toBe(creates);
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(pinsTitled('verify meets a 503')).toHaveLength(1);
    expect(sim.calls.get('POST /v5/pins')).toBe(creates);
  });

  it('connection dropped before the pin was made, 300 pins since: the whole board is read, nothing matches, pinned once', async () => {
    sim.addFault({ op: 'pin', kind: 'drop', count: 1 });
    const id = (await post({ content: 'never arrived', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [img(1)], platforms: target1({ boardId }) })).json().post._id;
    await runDue(id);
    for (let i = 0; i < 300; i++) sim.addPin(boardId, `later ${i}`);
    const lists = sim.calls.get('GET /v5/boards/:id/pins') ?? 0;
    await runDue(id);
    expect((await target(id)).status).toBe('published');
    expect(pinsTitled('never arrived')).toHaveLength(1);
    expect((sim.calls.get('GET /v5/boards/:id/pins') ?? 0) - lists).toBeGreaterThanOrEqual(2);
  });

  it('revoked authorization: the account needs reconnecting and the target says so', async () => {
    sim.revokeAll();
    const res = await post({ content: 'after revocation', publishNow: true, mediaItems: [img(1)], platforms: target1() });
    expect(res.statusCode).toBe(207);
    expect(res.json().platformResults[0].error).toMatch(/reconnect/i);
    const acc = (await get(`/v1/accounts?profileId=${profileId}`)).json().accounts.find((a: { _id: string }) => a._id === accountId);
    expect(acc).toMatchObject({ isActive: false, needsReconnection: true });
  });
});

describe('Pinterest: token refresh job', () => {
  it('refreshes tokens that expire soon (keeping the refresh token), and marks an account whose refresh is refused', async () => {
    const { refreshExpiringTokens } = await import('../../src/publishing/token-refresh.ts');
    const p = await createProfile(ctx, tenant);
    const { done } = await connect(tenant, p);
    const id = new URL(done.headers.location as string).searchParams.get('accountId')!;
    await ctx.db.query(`UPDATE accounts SET token_expires_at = now() + interval '1 minute' WHERE id = $1`, [id]);
    const deps = { db: ctx.db, adapters: ctx.services.adapters, secrets: ctx.services.secrets };
    expect((await refreshExpiringTokens(deps)).refreshed).toBeGreaterThanOrEqual(1);
    const { rows } = await ctx.db.query<{ token_expires_at: Date; credentials: string }>('SELECT token_expires_at, credentials FROM accounts WHERE id = $1', [id]);
    expect(rows[0].token_expires_at.getTime()).toBeGreaterThan(Date.now() + 29 * 86400_000);
    expect(ctx.services.secrets.openJson<{ refreshToken?: string }>(rows[0].credentials).refreshToken).toBeTruthy();
    sim.revokeAll();
    await ctx.db.query(`UPDATE accounts SET token_expires_at = now() + interval '1 minute' WHERE id = $1`, [id]);
    expect((await refreshExpiringTokens(deps)).deactivated).toBeGreaterThanOrEqual(1);
    const { rows: after } = await ctx.db.query<{ is_active: boolean; inactive_reason: string }>('SELECT is_active, inactive_reason FROM accounts WHERE id = $1', [id]);
    expect(after[0]).toMatchObject({ is_active: false, inactive_reason: expect.stringMatching(/reconnect/) });
  });
});

describe('Pinterest: continuous refresh (rotating refresh tokens)', () => {
  it('stores the new refresh token of each refresh; the spent one is refused as a revocation', async () => {
    const rot = await startPinterestSimulator({ continuousRefresh: true });
    try {
      const app = { clientId: rot.clientId, clientSecret: rot.clientSecret, apiBaseUrl: rot.url, authBaseUrl: rot.url };
      expect(PINTEREST_DEFAULTS.apiBaseUrl).toBe('https://api.pinterest.com');
      const consent = await fetch(pinterestOAuth.authorizeUrl(app, { state: 's', redirectUri: 'https://herald.example/cb' }), { redirect: 'manual' });
      const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
      const first = await pinterestOAuth.exchangeCode(app, { code, redirectUri: 'https://herald.example/cb' });
      expect(first.scope).toEqual(expect.arrayContaining(['pins:write', 'boards:read']));
      const second = await pinterestOAuth.refresh!(app, first);
      expect(second.refreshToken).toBeTruthy();
      expect(second.refreshToken).not.toBe(first.refreshToken);
      expect((await pinterestOAuth.identify(app, second)).username).toBe('herald_sim');
      await expect(pinterestOAuth.refresh!(app, first)).rejects.toSatisfy((e: unknown) => e instanceof AdapterError && e.kind === 'disconnected');
    } finally {
      await rot.close();
    }
  });
});
