/**
 * Pinterest adapter against the Pinterest simulator, through the real app: OAuth connect
 * (Basic client auth, refresh), the board picker and default board, publishing each pin
 * kind (image, carousel, video with each cover rule), each rule violation, and each
 * failure mode (429, 5xx, expired token, revoked authorization, processing failure, an
 * answer lost after the pin was created).
 */
import { describe, expect, it } from 'vitest';
import { startPinterestSimulator, type PinterestSimulator } from '../../sim/pinterest/server.ts';
import { pinterestOAuth, PINTEREST_DEFAULTS } from '../../src/platforms/pinterest/oauth.ts';
import { AdapterError } from '../../src/platforms/types.ts';
import { createTenant, insertAccount, type Tenant } from '../support/app.ts';
import { platformEnv, platformHarness } from '../support/harness.ts';
import { makeImage, makeVideo } from '../support/media.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { cases, CASE_BOARD } from '../rules/pinterest.cases.ts';
import { harnessPublisher, simulatorRuleCases } from './rule-cases.ts';
import { platformContract, type Case } from './suite.ts';

let sim: PinterestSimulator;
let media: MediaServer;
let boardId: string;
const h = platformHarness({
  platform: 'pinterest', tag: 'pin',
  async setup() {
    sim = await startPinterestSimulator({ processingPolls: 2, mediaFetch: { allowPrivate: true } }); // media is on a loopback server
    media = await startMediaServer();
    // Pinterest fetches the images itself and checks uploaded videos: real files.
    for (let i = 0; i < 10; i++) media.put(`/pin-${i}.jpg`, makeImage({ format: 'jpeg', width: 64 + i, height: 64 }), 'image/jpeg');
    media.put('/clip.mp4', makeVideo({ seconds: 5, width: 320, height: 240 }), 'video/mp4');
    boardId = sim.boards[0].id;
    return { env: platformEnv('pinterest', sim) };
  },
  teardown: async () => { await sim?.close(); await media?.close(); },
});

const post = (payload: object) => h.post(payload);
const get = (url: string, t: Tenant = h.tenant) => h.ctx.app.inject({ method: 'GET', url, headers: t.headers });
const put = (url: string, payload: object, t: Tenant = h.tenant) => h.ctx.app.inject({ method: 'PUT', url, headers: t.headers, payload });
const target1 = (psd: Record<string, unknown> = {}) => [{ platform: 'pinterest', accountId: h.accountId, platformSpecificData: psd }];
const img = (n: number) => ({ type: 'image', url: `${media.url}/pin-${n}.jpg` });
const video = () => ({ type: 'video', url: `${media.url}/clip.mp4`, mimeType: 'video/mp4' });
const pinsTitled = (title: string) => sim.pins.filter((p) => p.title === title);
/** The cases that read the board name it (the others go to the default board). */
const onBoard = new Set<Case>(['lostAnswerBurst', 'verifyUnreadable', 'lookBack', 'metrics']);

const contract = platformContract({
  platform: 'pinterest', name: 'Pinterest', h,
  payload: (content, c) => ({ content, mediaItems: [img(1)], platforms: target1(onBoard.has(c) ? { boardId } : {}) }),
  fault: (kind) => sim.addFault(kind === 'list_unreadable' ? { op: 'read', kind: 'server_error', count: 1 } : { op: 'pin', kind, count: 1 }),
  created: pinsTitled,
  creates: () => sim.calls.get('POST /v5/pins') ?? 0,
  lists: () => sim.calls.get('GET /v5/boards/:id/pins') ?? 0,
  bury: (n, prefix) => { for (let i = 0; i < n; i++) sim.addPin(boardId, `${prefix} ${i}`); },
});

contract.connect({
  title: 'comma-separated scopes; the callback stores the account with its 30-day token and redirects',
  username: () => 'herald_sim',
  account: { username: 'herald_sim', displayName: 'Herald Simulator' },
  minTtlMs: 29 * 86400_000,
  platformUserId: () => sim.user.id,
  authUrl(au) {
    expect(au.pathname).toBe('/oauth/');
    expect(au.searchParams.get('scope')!.split(',')).toEqual(expect.arrayContaining(['boards:read', 'pins:write', 'user_accounts:read']));
  },
  stored: (_row, creds) => expect(creds.refreshToken).toBeTruthy(),
  singleUse: true,
  api: { title: 'completes through POST /v1/connect/pinterest and keeps one account' },
});

describe('Pinterest: boards', () => {
  it('lists every board (following the bookmark past one page), with no default yet', async () => {
    const res = await get(`/v1/accounts/${h.accountId}/pinterest-boards`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ defaultBoardId: null, defaultBoardName: null });
    expect(body.boards).toHaveLength(30);
    expect(body.boards[0]).toEqual({ id: boardId, name: 'Recipes', description: '', privacy: 'PUBLIC' });
    expect(body.boards.some((b: { name: string }) => b.name === 'Someone else\'s board')).toBe(false);
  });

  it('sets the default board (name from Pinterest), shown on the account; an unknown board is a 400', async () => {
    const res = await put(`/v1/accounts/${h.accountId}/pinterest-boards`, { defaultBoardId: boardId, defaultBoardName: 'whatever' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().account).toMatchObject({ defaultBoardId: boardId, defaultBoardName: 'Recipes' });
    expect((await get(`/v1/accounts/${h.accountId}/pinterest-boards`)).json()).toMatchObject({ defaultBoardId: boardId, defaultBoardName: 'Recipes' });
    const foreign = sim.boards.find((b) => b.owner !== 'herald_sim')!.id;
    const bad = await put(`/v1/accounts/${h.accountId}/pinterest-boards`, { defaultBoardId: foreign });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.fields.defaultBoardId).toBeTruthy();
    expect((await put(`/v1/accounts/${h.accountId}/pinterest-boards`, { defaultBoardId: 'abc' })).statusCode).toBe(400);
  });

  it('another tenant\'s account is a 404; a non-Pinterest account is a 400', async () => {
    const other = await createTenant(h.ctx);
    expect((await get(`/v1/accounts/${h.accountId}/pinterest-boards`, other)).statusCode).toBe(404);
    expect((await put(`/v1/accounts/${h.accountId}/pinterest-boards`, { defaultBoardId: boardId }, other)).statusCode).toBe(404);
    const bsky = await insertAccount(h.ctx, h.tenant, h.profileId, 'bluesky');
    const res = await get(`/v1/accounts/${bsky}/pinterest-boards`);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields.accountId[0]).toMatch(/not a Pinterest account/);
  });
});

describe('Pinterest: publishing', () => {
  contract.unpublish({
    title: 'unpublishes a pin: DELETE /v5/pins/{pin_id} removes it (a read answers 404); again changes nothing; one already gone counts as deleted',
    publish: (content) => post({ content, publishNow: true, mediaItems: [img(2)], platforms: target1() }),
    onPlatform: (id) => sim.pins.some((p) => p.id === id),
    removeOnPlatform: (id) => { sim.pins.splice(sim.pins.findIndex((p) => p.id === id), 1); },
    after: async (id) => {
      const tok = (await h.credentials()).accessToken as string;
      expect((await fetch(`${sim.url}/v5/pins/${id}`, { headers: { authorization: `Bearer ${tok}` } })).status).toBe(404);
    },
  });

  it('the simulator\'s DELETE /v5/pins/{pin_id}: pins:write scope, only the user\'s own pin, 404 code 50 for a missing one, 204 and gone', async () => {
    const token = async (scope: string) => {
      const au = await fetch(`${sim.url}/oauth/?${new URLSearchParams({ client_id: sim.clientId, redirect_uri: 'https://h.example/cb', response_type: 'code', scope, state: 's' })}`, { redirect: 'manual' });
      const code = new URL(au.headers.get('location')!).searchParams.get('code')!;
      const t = await fetch(`${sim.url}/v5/oauth/token`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${sim.clientId}:${sim.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: 'https://h.example/cb' }) });
      return ((await t.json()) as { access_token: string }).access_token;
    };
    const del = (tok: string, id: string) => fetch(`${sim.url}/v5/pins/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${tok}` } });
    const mine = sim.addPin(boardId, 'mine');
    const theirs = sim.addPin(sim.boards.find((b) => b.owner !== 'herald_sim')!.id, 'theirs');
    expect((await del(await token('pins:read,boards:read'), mine.id)).status).toBe(403);
    const tok = await token('pins:read,pins:write');
    expect((await del(tok, theirs.id)).status).toBe(403);
    expect(sim.pins.some((p) => p.id === theirs.id)).toBe(true);
    expect((await del(tok, mine.id)).status).toBe(204);
    const again = await del(tok, mine.id);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ code: 50, message: 'Pin not found.' });
  });

  it('publishes an image pin to the default board: title from the first line, content as description, link', async () => {
    const res = await post({ content: 'Lemon tart\nThe best recipe.', publishNow: true, mediaItems: [{ ...img(1), altText: 'a tart' }], platforms: target1({ link: 'https://example.com/tart' }) });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostId).toMatch(/^\d+$/);
    expect(t.platformPostUrl).toBe(`https://www.pinterest.com/pin/${t.platformPostId}/`);
    const pin = sim.pins.find((p) => p.id === t.platformPostId)!;
    expect(pin).toMatchObject({ board_id: boardId, title: 'Lemon tart', description: 'Lemon tart\nThe best recipe.', link: 'https://example.com/tart', alt_text: 'a tart', media_type: 'image' });
    expect(pin.media_source).toEqual({ source_type: 'image_url', url: `${media.url}/pin-1.jpg` });
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
    expect(sim.pins.find((p) => p.id === b.json().post.platforms[0].platformPostId)!.media_source).toMatchObject({ cover_image_url: `${media.url}/pin-9.jpg` });
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
    const id = await h.connectNew();
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

describe('Pinterest: the rule table against the simulator', () => {
  simulatorRuleCases({
    cases,
    publisher: harnessPublisher(h, 'pinterest'),
    media: () => media,
    complete: (p) => {
      const given = p.platformSpecificData.boardId;
      return { ...p, platformSpecificData: { ...p.platformSpecificData, boardId: given === undefined || given === CASE_BOARD ? boardId : given } };
    },
  });

  it('an image format Pinterest does not take is refused when the post is created, not at publish time', async () => {
    const before = sim.calls.get('POST /v5/pins') ?? 0;
    const res = await post({ content: 'svg', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [{ type: 'image', url: `${media.url}/a.svg`, mimeType: 'image/svg+xml' }], platforms: target1() });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details.fields['mediaItems.0'].join(' ')).toMatch(/\[rule pinterest\.image\.format\]/);
    expect(sim.calls.get('POST /v5/pins') ?? 0).toBe(before);
  });

  it('the description may be 800 characters and a video may take one image as its cover, through the API', async () => {
    const res = await post({ content: 'd'.repeat(800), publishNow: true, mediaItems: [video(), img(3)], platforms: target1() });
    expect(res.statusCode, res.body).toBe(201);
    expect(sim.pins.find((p) => p.id === res.json().post.platforms[0].platformPostId)!.media_source).toMatchObject({ source_type: 'video_id', cover_image_url: `${media.url}/pin-3.jpg` });
  });
});

contract.failures({
  rateLimit: { title: '429: the target waits (a minute when Pinterest names no delay) and then publishes', waiting: (t) => expect(t.run_at!.getTime()).toBeGreaterThan(Date.now() + 50_000) },
  serverError: {},
  expired: { title: 'expired access token: refreshed and published', expire: () => sim.expireAccessTokens(), twice: true },
  lostAnswer: { title: 'answer lost after Pinterest created the pin: verify finds it on the board, no duplicate' },
  dropped: { title: 'connection dropped before the pin was made: verify says not published, pinned once' },
  lostAnswerBurst: { title: 'answer lost, then 300 newer pins on the board: verify reads the board past them (bookmark) and finds it, no second create', n: 300, minLists: 2 }, // at most 250 a page
  verifyUnreadable: { title: 'the board cannot be read during verify (5xx): not pinned again, asked again later' },
  lookBack: { title: 'connection dropped before the pin was made, 300 pins since: the whole board is read, nothing matches, pinned once', n: 300, minLists: 2 },
  more() {
    it('video processing failure fails the target with the reason, and no pin is made', async () => {
      sim.addFault({ op: 'media', kind: 'processing_failed', count: 1 });
      const res = await post({ content: 'broken video', publishNow: true, mediaItems: [video()], platforms: target1() });
      expect(res.statusCode).toBe(207);
      expect(res.json().platformResults[0].error).toMatch(/could not process the video/);
      expect(pinsTitled('broken video')).toHaveLength(0);
    });
  },
});

contract.revoked({ revoke: () => sim.revokeAll() });

contract.refreshJob({
  title: 'refreshes tokens that expire soon (keeping the refresh token), and marks an account whose refresh is refused',
  expire: (id) => h.dueForRefresh(id),
  minTtlMs: 29 * 86400_000,
  check: (_row, creds) => expect(creds.refreshToken).toBeTruthy(),
  refuse: () => sim.revokeAll(),
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

contract.metrics({
  expected: (id) => {
    const c = sim.metrics.last(id)!;
    return { impressions: c.impressions, reach: null, views: null, likes: c.likes, comments: c.comments, shares: null, saves: c.saves, clicks: c.clicks + c.outboundClicks };
  },
  rateLimit: () => sim.addFault({ op: 'metrics', kind: 'rate_limit', count: 1 }),
  revoke: () => sim.revokeAll(),
});
