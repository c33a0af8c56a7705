/**
 * TikTok adapter against the TikTok simulator, through the real app: Login Kit v2 connect
 * (client_key, form token exchange, refresh with rotation), every post kind (video by
 * FILE_UPLOAD in one chunk and in several, video by PULL_FROM_URL, photos, inbox draft),
 * the settings (privacy level chosen from the creator's options, cover defaults, flags
 * passed through, nested snake_case and flat camelCase), each rule violation refused before
 * any platform call, and each failure mode (rate limit, 5xx, expired token, processing
 * failure, daily cap, an answer lost after the post was accepted), with no duplicate.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTikTokSimulator, type TikTokSimulator } from '../../sim/tiktok/server.ts';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { TikTokAdapter, chunkPlan, tiktokSettingsOf } from '../../src/platforms/tiktok/adapter.ts';
import { mapTikTokError, parseTikTokJson } from '../../src/platforms/tiktok/api.ts';
import type { PublishRequest } from '../../src/platforms/types.ts';
import { tiktokOAuth } from '../../src/platforms/tiktok/oauth.ts';
import { platformEnv, platformHarness } from '../support/harness.ts';
import { makeVideo } from '../support/media.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { makePng } from '../support/png.ts';
import { cases as ruleCases, TIKTOK_CASE_CREATOR } from '../rules/tiktok.cases.ts';
import { sendPastHerald, harnessPublisher, simulatorRuleCases } from './rule-cases.ts';
import { platformContract } from './suite.ts';

const KB = 1024;
let sim: TikTokSimulator;
let media: MediaServer;
let video: string;
let bigVideo: string;
let jpg: string[];
let png: string;

function makeJpeg(seed: number): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-jpg-'));
  const out = path.join(dir, 'a.jpg');
  try {
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=64x48:rate=1:duration=${seed}`, '-frames:v', '1', out], { stdio: ['ignore', 'ignore', 'pipe'] });
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const h = platformHarness({
  platform: 'tiktok', tag: 'tt', setupTimeoutMs: 60_000,
  async setup() {
    // TikTok's own chunk rules (5-64 MB chunks), so the adapter's chunk plan is held to them.
    // Creators may post up to 60 s here, so the duration rule's cases stay short (test/rules/tiktok.cases.ts).
    sim = await startTikTokSimulator({ limits: { creatorInfo: 10_000, init: 10_000, status: 10_000 }, mediaFetch: { allowPrivate: true }, creator: { maxVideoPostDurationSec: TIKTOK_CASE_CREATOR.maxVideoPostDurationSec } }); // media is on a loopback server
    media = await startMediaServer();
    const small = makeVideo({ seconds: 2 });
    video = media.put('/clip.mp4', small, 'video/mp4');
    const big = makeVideo({ seconds: 4, width: 640, height: 480, rate: 30 });
    bigVideo = media.put('/big.mp4', big, 'video/mp4');
    jpg = [1, 2, 3].map((i) => media.put(`/photo${i}.jpg`, makeJpeg(i), 'image/jpeg'));
    png = media.put('/pic.png', makePng(4, 4), 'image/png');
    const env = platformEnv('tiktok', { clientId: sim.clientKey, clientSecret: sim.clientSecret, url: sim.url });
    const app = { clientId: sim.clientKey, clientSecret: sim.clientSecret, apiBaseUrl: sim.url, authBaseUrl: sim.url };
    // The default chunk plan (10 MB chunks): the simulator enforces TikTok's chunk rules on it.
    const adapter = new TikTokAdapter(tiktokOAuth, () => app, { pollIntervalMs: 10, pollMaxIntervalMs: 40, pollTimeoutMs: 3000, postIdPolls: 3 });
    const adapters = createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9', platformApps: { tiktok: { clientId: sim.clientKey, clientSecret: sim.clientSecret, apiBaseUrl: sim.url, authBaseUrl: sim.url } } },
      { tiktok: adapter as never });
    return { env, deps: { adapters } };
  },
  teardown: async () => { await sim?.close(); await media?.close(); },
});

const post = (payload: object) => h.post(payload);
const on = (extra: object = {}) => [{ platform: 'tiktok', accountId: h.accountId, ...extra }];
const settings = (s: object) => on({ platformSpecificData: { tiktokSettings: s } });
const publishCalls = () => ['POST /v2/post/publish/video/init/', 'POST /v2/post/publish/content/init/', 'POST /v2/post/publish/inbox/video/init/', 'PUT /upload/']
  .reduce((n, k) => n + (sim.calls.get(k) ?? 0), 0);
const anyCalls = () => [...sim.calls.entries()].filter(([k]) => k.startsWith('POST /v2/post')).reduce((n, [, v]) => n + v, 0);
const byTitle = (title: string) => sim.posts.filter((p) => p.title === title || p.description === title);
const inits = () => sim.calls.get('POST /v2/post/publish/video/init/') ?? 0;
const runDue = (postId: string) => h.runDue(postId);
const target = (postId: string) => h.target(postId);

const contract = platformContract({
  platform: 'tiktok', name: 'TikTok', h,
  // The answer lost on a pull (its init) is verified from the video list; on an upload, from the publish_id status.
  payload: (content, c) => ({ content, mediaItems: [{ type: 'video', url: video }],
    platforms: on(c === 'lostAnswerBurst' || c === 'verifyUnreadable' ? { platformSpecificData: { videoSource: 'PULL_FROM_URL' } } : {}) }),
  fault: (kind, c) => sim.addFault(kind === 'list_unreadable' ? { op: 'list', kind: 'rate_limit', count: 1 }
    : { op: kind === 'drop' || (kind === 'drop_after_create' && c === 'lostAnswer') ? 'upload' : 'init', kind, count: 1 }),
  created: byTitle,
  creates: inits,
  lists: () => sim.calls.get('POST /v2/video/list/') ?? 0,
  bury(n, prefix) {
    const start = Date.now() + 1000;
    for (let i = 0; i < n; i++) {
      if (prefix === 'burst') sim.addVideo(`${prefix} ${i}`, new Date(start + i));
      else sim.addVideo(`${prefix} ${i}`);
    }
  },
});

describe('TikTok: units', () => {
  it('plans chunks as the media transfer guide says', () => {
    const MB = 1024 * KB;
    // Under 5 MB: one chunk of the file's own size.
    expect(chunkPlan(3 * MB, 10 * MB)).toEqual({ chunkSize: 3 * MB, chunkCount: 1 });
    expect(chunkPlan(5 * MB - 1, 10 * MB)).toEqual({ chunkSize: 5 * MB - 1, chunkCount: 1 });
    // 5 MB up to the preferred chunk: whole, in one chunk of its size (10 MB chunks would make floor(size / chunk) = 0).
    expect(chunkPlan(5 * MB, 10 * MB)).toEqual({ chunkSize: 5 * MB, chunkCount: 1 });
    expect(chunkPlan(9 * MB, 10 * MB)).toEqual({ chunkSize: 9 * MB, chunkCount: 1 });
    // Larger: floor(size / chunk) chunks, the last taking the remainder.
    expect(chunkPlan(20 * MB, 10 * MB)).toEqual({ chunkSize: 10 * MB, chunkCount: 2 });
    expect(chunkPlan(25 * MB, 10 * MB)).toEqual({ chunkSize: 10 * MB, chunkCount: 2 });
    // The preferred size is clamped to 5-64 MB; over 64 MB always at least 2 chunks; never over 1,000.
    expect(chunkPlan(30 * MB, 1 * MB)).toEqual({ chunkSize: 5 * MB, chunkCount: 6 });
    expect(chunkPlan(100 * MB, 128 * MB)).toEqual({ chunkSize: 50 * MB, chunkCount: 2 });
    expect(chunkPlan(64 * MB, 128 * MB)).toEqual({ chunkSize: 64 * MB, chunkCount: 1 });
    const huge = chunkPlan(20_000 * MB, 10 * MB);
    expect(huge.chunkCount).toBeLessThanOrEqual(1000);
    expect(huge.chunkSize).toBeLessThanOrEqual(64 * MB);
    expect(20_000 * MB - huge.chunkSize * (huge.chunkCount - 1)).toBeLessThanOrEqual(128 * MB);
  });
  it('maps TikTok error codes to adapter error kinds and keeps 64-bit ids exact', () => {
    const kind = (code: string, status = 400) => mapTikTokError({ code, message: code }, status).kind;
    expect(kind('access_token_invalid', 401)).toBe('auth_expired');
    expect(kind('scope_not_authorized', 401)).toBe('disconnected');
    expect(kind('rate_limit_exceeded', 429)).toBe('rate_limited');
    expect(mapTikTokError({ code: 'rate_limit_exceeded' }, 429).opts.retryAfterMs).toBe(60_000);
    expect(kind('internal', 500)).toBe('transient');
    for (const c of ['spam_risk_too_many_posts', 'privacy_level_option_mismatch', 'unaudited_client_can_only_post_to_private_accounts', 'url_ownership_unverified', 'invalid_params']) {
      expect(kind(c, 403)).toBe('rejected');
    }
    expect(mapTikTokError({ code: 'privacy_level_option_mismatch', message: 'no' }, 400).message).toMatch(/privacy_level_option_mismatch/);
    expect(parseTikTokJson('{"data":{"publicaly_available_post_id":[7300000000600422018],"uploaded_bytes":12}}'))
      .toEqual({ data: { publicaly_available_post_id: ['7300000000600422018'], uploaded_bytes: 12 } });
  });
  it('reads nested snake_case and flat camelCase settings (nested wins), ignores title', () => {
    expect(tiktokSettingsOf({ privacyLevel: 'SELF_ONLY', allowDuet: false, title: 'x', videoMadeWithAi: true })).toEqual({ privacy_level: 'SELF_ONLY', allow_duet: false, video_made_with_ai: true });
    expect(tiktokSettingsOf({ privacyLevel: 'SELF_ONLY', tiktokSettings: { privacy_level: 'FRIENDS', photo_cover_index: 1 } })).toEqual({ privacy_level: 'MUTUAL_FOLLOW_FRIENDS', photo_cover_index: 1 });
  });
});

contract.connect({
  title: 'client_key, comma-separated scopes, form token exchange, tokens sealed, creator info kept',
  username: () => sim.user.username,
  // The creator's privacy options are shown to the composer (GET /v1/accounts).
  account: { username: 'herald.tiktok', displayName: 'Herald TikTok Sim', tiktokPrivacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'] },
  minTtlMs: 23 * 3600_000,
  platformUserId: () => sim.user.openId,
  authUrl(au) {
    expect(au.pathname).toBe('/v2/auth/authorize/');
    expect(au.searchParams.get('client_key')).toBe(sim.clientKey);
    expect(au.searchParams.has('client_id')).toBe(false);
    expect(au.searchParams.get('scope')).toBe('user.info.basic,user.info.profile,video.publish,video.upload,video.list');
  },
  stored(row, creds) {
    expect(row.settings.tiktokCreator.privacyLevelOptions).toEqual(['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY']);
    expect(creds.refreshToken).toMatch(/^rft\./);
    expect(new Date(creds.refreshExpiresAt).getTime()).toBeGreaterThan(Date.now() + 300 * 86400_000);
  },
  singleUse: true,
  api: { title: 'completes through POST /v1/connect/tiktok; a reused code is refused', reusedCode: /invalid_grant/ },
});

describe('TikTok: publishing', () => {
  it('publishes a video by FILE_UPLOAD (one chunk): creator info first, PUBLIC_TO_EVERYONE chosen, cover at 1,000 ms, title ignored', async () => {
    const before = sim.calls.get('POST /v2/post/publish/creator_info/query/') ?? 0;
    const res = await post({ content: 'Hello TikTok from Herald #fyp', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on({ platformSpecificData: { title: 'ignored title' } }) });
    expect(res.statusCode, res.body).toBe(201);
    expect(sim.calls.get('POST /v2/post/publish/creator_info/query/')).toBe(before + 1);
    const t = res.json().post.platforms[0];
    const p = sim.posts.find((x) => x.id === t.platformPostId)!;
    expect(p).toBeDefined();
    expect(t.platformPostUrl).toBe(`https://www.tiktok.com/@herald.tiktok/video/${p.id}`);
    expect(p.title).toBe('Hello TikTok from Herald #fyp');
    expect(p.postInfo).toMatchObject({ privacy_level: 'PUBLIC_TO_EVERYONE', video_cover_timestamp_ms: 1000, disable_comment: false, disable_duet: false, disable_stitch: false, brand_content_toggle: false, brand_organic_toggle: false, is_aigc: false });
    expect(p.sourceInfo).toMatchObject({ source: 'FILE_UPLOAD', total_chunk_count: 1 });
  });

  // Sizes around every boundary of the media transfer guide, uploaded to the simulator (which
  // enforces its chunk rules at init and the byte-exact Content-Range of each chunk).
  const MB = 1024 * KB;
  it.each([
    ['under 5 MB: whole', 5 * MB - 1, 5 * MB - 1, 1],
    ['exactly 5 MB: one 5 MB chunk', 5 * MB, 5 * MB, 1],
    ['between 5 and 10 MB: whole, in one chunk of its size', 7 * MB + 3, 7 * MB + 3, 1],
    ['just under two chunks: one 10 MB chunk plus the remainder in it', 20 * MB - 1, 10 * MB, 1],
    ['an exact multiple of the chunk size', 20 * MB, 10 * MB, 2],
    ['a last partial chunk (it takes the remainder)', 25 * MB + 5, 10 * MB, 2],
  ] as const)('uploads a video of %s by FILE_UPLOAD as the media transfer guide says', async (name, size, chunkSize, chunkCount) => {
    const url = media.put(`/sized-${size}.mp4`, makeVideo({ seconds: 2, minBytes: size }), 'video/mp4');
    const content = `sized upload ${name}`;
    const res = await post({ content, publishNow: true, mediaItems: [{ type: 'video', url }], platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    const p = byTitle(content)[0];
    expect(p.sourceInfo).toEqual({ source: 'FILE_UPLOAD', video_size: size, chunk_size: chunkSize, total_chunk_count: chunkCount });
    expect(p.bytes).toBe(size);
  }, 60_000);

  it('the simulator refuses every chunk plan the media transfer guide forbids (invalid_params)', async () => {
    const token = (await h.credentials<{ accessToken: string }>()).accessToken;
    const init = async (video_size: number, chunk_size: number, total_chunk_count: number) => {
      const res = await fetch(`${sim.url}/v2/post/publish/video/init/`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' },
        body: JSON.stringify({ post_info: { title: 'plan', privacy_level: 'SELF_ONLY' }, source_info: { source: 'FILE_UPLOAD', video_size, chunk_size, total_chunk_count } }) });
      return ((await res.json()) as { error: { code: string } }).error.code;
    };
    expect(await init(7 * MB, 10 * MB, 1)).toBe('invalid_params'); // the old plan: chunk larger than the file, floor = 0
    expect(await init(7 * MB, 10 * MB, 0)).toBe('invalid_params');
    expect(await init(4 * MB, 1 * MB, 4)).toBe('invalid_params'); // under 5 MB: whole
    expect(await init(30 * MB, 4 * MB, 7)).toBe('invalid_params'); // chunks under 5 MB
    expect(await init(130 * MB, 65 * MB, 2)).toBe('invalid_params'); // chunks over 64 MB
    expect(await init(25 * MB, 10 * MB, 3)).toBe('invalid_params'); // not floor(size / chunk)
    expect(await init(65 * MB, 65 * MB, 1)).toBe('invalid_params'); // over 64 MB in one chunk
    expect(await init(6000 * MB, 5 * MB, 1200)).toBe('invalid_params'); // over 1,000 chunks
    for (const [size, chunk, count] of [[4 * MB, 4 * MB, 1], [5 * MB, 5 * MB, 1], [7 * MB, 7 * MB, 1], [64 * MB, 64 * MB, 1], [20 * MB, 10 * MB, 2], [25 * MB, 10 * MB, 2], [65 * MB, 10 * MB, 6]]) {
      expect(await init(size, chunk, count), `${size}/${chunk}/${count}`).toBe('ok');
    }
  });

  it('passes every tiktokSettings flag through (nested snake_case) and picks the given privacy level', async () => {
    const res = await post({ content: 'all the flags', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: settings({
      privacy_level: 'MUTUAL_FOLLOW_FRIENDS', allow_comment: false, allow_duet: false, allow_stitch: true, video_made_with_ai: true,
      video_cover_timestamp_ms: 500, commercial_content_type: 'brand_organic', is_brand_organic_post: true,
      content_preview_confirmed: true, express_consent_given: true,
    }) });
    expect(res.statusCode, res.body).toBe(201);
    expect(byTitle('all the flags')[0].postInfo).toEqual({
      title: 'all the flags', privacy_level: 'MUTUAL_FOLLOW_FRIENDS', disable_comment: true, disable_duet: true, disable_stitch: false,
      video_cover_timestamp_ms: 500, brand_content_toggle: false, brand_organic_toggle: true, is_aigc: true,
      content_preview_confirmed: true, express_consent_given: true,
    });
  });

  it('accepts flat camelCase settings (the newer format): brand content, SELF_ONLY from a private post', async () => {
    const res = await post({ content: 'paid partnership', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on({ platformSpecificData: {
      commercialContentType: 'brand_content', brandPartnerPromote: true, allowDuet: false, videoCoverTimestampMs: 0,
    } }) });
    expect(res.statusCode, res.body).toBe(201);
    expect(byTitle('paid partnership')[0].postInfo).toMatchObject({ privacy_level: 'PUBLIC_TO_EVERYONE', brand_content_toggle: true, disable_duet: true, video_cover_timestamp_ms: 0 });
    const priv = await post({ content: 'just for me', visibility: 'private', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on() });
    expect(priv.statusCode, priv.body).toBe(201);
    const p = byTitle('just for me')[0];
    expect(p.privacyLevel).toBe('SELF_ONLY');
    // A SELF_ONLY post never gets a public id: the publish id and the profile URL are recorded.
    expect(priv.json().post.platforms[0]).toMatchObject({ platformPostId: expect.stringMatching(/^v_pub_file~/), platformPostUrl: 'https://www.tiktok.com/@herald.tiktok' });
  });

  it('publishes a video by PULL_FROM_URL', async () => {
    const res = await post({ content: 'pulled video', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on({ platformSpecificData: { videoSource: 'PULL_FROM_URL' } }) });
    expect(res.statusCode, res.body).toBe(201);
    expect(byTitle('pulled video')[0].sourceInfo).toEqual({ source: 'PULL_FROM_URL', video_url: video });
  });

  it('publishes photos (pull, cover index 0 by default, or as given) with the content as description', async () => {
    const res = await post({ content: 'three photos', publishNow: true, mediaItems: jpg.map((url) => ({ type: 'image', url })), platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    const p = byTitle('three photos')[0];
    expect(p.kind).toBe('photo');
    expect(p.sourceInfo).toEqual({ source: 'PULL_FROM_URL', photo_cover_index: 0, photo_images: jpg });
    expect(p.postInfo).toMatchObject({ description: 'three photos', privacy_level: 'PUBLIC_TO_EVERYONE', disable_comment: false });
    const two = await post({ content: 'cover two', publishNow: true, mediaItems: jpg.map((url) => ({ type: 'image', url })), platforms: on({ platformSpecificData: { photoCoverIndex: 2, autoAddMusic: true } }) });
    expect(two.statusCode, two.body).toBe(201);
    expect(byTitle('cover two')[0]).toMatchObject({ sourceInfo: { photo_cover_index: 2 }, postInfo: { auto_add_music: true } });
  });

  it('sends a draft to the creator\'s inbox (SEND_TO_USER_INBOX), nothing posted publicly', async () => {
    const res = await post({ content: 'draft for the app', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: settings({ draft: true }) });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostId).toMatch(/^v_pub_file~/);
    expect(sim.publishes.get(t.platformPostId)).toMatchObject({ mode: 'inbox', status: 'SEND_TO_USER_INBOX' });
    expect(byTitle('draft for the app')).toHaveLength(0);
    const photos = await post({ content: 'photo draft', publishNow: true, mediaItems: jpg.map((url) => ({ type: 'image', url })), platforms: on({ platformSpecificData: { draft: true } }) });
    expect(photos.statusCode, photos.body).toBe(201);
    expect(sim.publishes.get(photos.json().post.platforms[0].platformPostId)).toMatchObject({ kind: 'photo', mode: 'inbox', status: 'SEND_TO_USER_INBOX' });
  });

  it('a publish that FAILED after its answer was lost is reported with TikTok\'s reason, not posted', async () => {
    sim.addFault({ op: 'init', kind: 'processing_failed', count: 1 });
    sim.addFault({ op: 'upload', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'failed unanswered', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [{ type: 'video', url: video }], platforms: on() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    await runDue(id);
    const t = await target(id);
    expect(t).toMatchObject({ status: 'failed', error_message: expect.stringMatching(/file_format_check_failed/) });
    expect(byTitle('failed unanswered')).toHaveLength(0);
  });

  it('refuses rule violations before any platform call, naming the rule', async () => {
    const before = anyCalls();
    const cases: Array<[object, RegExp]> = [
      [{ content: 'no media', platforms: on() }, /tiktok\.media\.required/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: video }, { type: 'image', url: jpg[0] }], platforms: on() }, /tiktok\.media\.mixed/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: video }, { type: 'video', url: bigVideo }], platforms: on() }, /tiktok\.video\.max_items/],
      [{ content: 'x', mediaItems: [{ type: 'image', url: png }], platforms: on() }, /tiktok\.photo\.format/],
      [{ content: 'x'.repeat(2201), mediaItems: [{ type: 'video', url: video }], platforms: on() }, /tiktok\.text\.max_length/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: video }], platforms: settings({ privacy_level: 'EVERYONE' }) }, /tiktok\.privacy_level\.value/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: video }], platforms: settings({ privacy_level: 'FOLLOWER_OF_CREATOR' }) }, /tiktok\.privacy_level\.option/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: video }], platforms: settings({ commercial_content_type: 'ads' }) }, /tiktok\.commercial_content_type\.value/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: video }], platforms: settings({ commercial_content_type: 'brand_organic' }) }, /tiktok\.commercial\.brand_organic_requires_flag/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: video }], platforms: settings({ commercial_content_type: 'brand_content' }) }, /tiktok\.commercial\.brand_content_requires_flag/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: video }], platforms: settings({ commercial_content_type: 'brand_content', brand_partner_promote: true, privacy_level: 'SELF_ONLY' }) }, /tiktok\.commercial\.brand_content_not_private/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: video }], platforms: settings({ video_cover_timestamp_ms: -5 }) }, /tiktok\.video_cover_timestamp_ms\.value/],
      [{ content: 'x', mediaItems: jpg.map((url) => ({ type: 'image', url })), platforms: settings({ photo_cover_index: 3 }) }, /tiktok\.photo_cover_index\.range/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: video }], platforms: settings({ allow_comment: 'yes' }) }, /tiktok\.settings\.boolean/],
      [{ content: 'x', mediaItems: [{ type: 'document', url: 'https://example.com/a.pdf' }], platforms: on() }, /tiktok\.media\.type/],
    ];
    for (const [body, rule] of cases) {
      const res = await post({ ...body, publishNow: true });
      expect(res.statusCode, `${rule} ${res.body}`).toBe(400);
      expect(JSON.stringify(res.json().details.fields), String(rule)).toMatch(rule);
    }
    expect(anyCalls()).toBe(before);
  });

  it('counts captions in UTF-16 units as TikTok does: 1,101 emoji (2,202 units) are refused when the post is scheduled, not at publish time', async () => {
    const before = anyCalls();
    const res = await post({ content: '😀'.repeat(1101), scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [{ type: 'video', url: video }], platforms: on() });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details.fields.content.join(' ')).toContain('[rule tiktok.text.max_length]');
    const photos = await post({ content: `a${'😀'.repeat(2000)}`, scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [{ type: 'image', url: jpg[0] }], platforms: on() });
    expect(photos.statusCode, photos.body).toBe(400);
    expect(photos.json().details.fields.content.join(' ')).toContain('[rule tiktok.text.max_length]');
    expect(anyCalls()).toBe(before);
    const fits = await post({ content: '😀'.repeat(1100), publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on() });
    expect(fits.statusCode, fits.body).toBe(201);
    expect(byTitle('😀'.repeat(1100))).toHaveLength(1);
  });

  it('re-checks the creator\'s options before publishing: a level no longer allowed is refused before the init call', async () => {
    const saved = [...sim.creator.privacyLevelOptions];
    sim.creator.privacyLevelOptions.splice(0, sim.creator.privacyLevelOptions.length, 'SELF_ONLY');
    try {
      const initBefore = publishCalls();
      const res = await post({ content: 'now public?', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: settings({ privacy_level: 'PUBLIC_TO_EVERYONE' }) });
      expect(res.statusCode).toBe(207);
      expect(res.json().platformResults[0].error).toMatch(/allows privacy_level SELF_ONLY.*\[rule tiktok\.privacy_level\.option\]/);
      const brand = await post({ content: 'brand, private only', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: settings({ commercial_content_type: 'brand_content', brand_partner_promote: true }) });
      expect(brand.json().platformResults[0].error).toMatch(/tiktok\.commercial\.brand_content_not_private/);
      expect(publishCalls()).toBe(initBefore);
      // Absent privacy level: the only allowed one is chosen.
      const auto = await post({ content: 'auto private', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on() });
      expect(auto.statusCode, auto.body).toBe(201);
      expect(byTitle('auto private')[0].privacyLevel).toBe('SELF_ONLY');
    } finally {
      sim.creator.privacyLevelOptions.splice(0, sim.creator.privacyLevelOptions.length, ...saved);
    }
  });

  it('forces interactions off when the creator disabled them', async () => {
    sim.creator.commentDisabled = true;
    try {
      const res = await post({ content: 'creator without comments', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: settings({ allow_comment: true }) });
      expect(res.statusCode, res.body).toBe(201);
      expect(byTitle('creator without comments')[0].postInfo.disable_comment).toBe(true);
    } finally {
      sim.creator.commentDisabled = false;
    }
  });
});

describe('TikTok: the platform\'s own rules', () => {
  const publisher = harnessPublisher(h, 'tiktok');
  /**
   * A privacy level the creator does not offer is refused by the adapter's own re-check before
   * any call (privacyFor), so it goes straight to TikTok's video init here, as the adapter
   * would send it, to show TikTok's own answer.
   */
  const initDirectly = async (req: PublishRequest, privacy: unknown): Promise<Error | null> => {
    const token = (await h.credentials<{ accessToken: string }>()).accessToken;
    const res = await fetch(`${sim.url}/v2/post/publish/video/init/`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' },
      body: JSON.stringify({ post_info: { title: req.text, privacy_level: privacy, disable_comment: false, disable_duet: false, disable_stitch: false }, source_info: { source: 'PULL_FROM_URL', video_url: req.mediaItems[0].url } }),
    });
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    return body.error?.code === 'ok' ? null : mapTikTokError(body.error, res.status);
  };
  simulatorRuleCases({
    cases: ruleCases,
    publisher,
    async send(req) {
      const privacy = tiktokSettingsOf(req.platformSpecificData).privacy_level;
      if (privacy !== undefined && !sim.creator.privacyLevelOptions.includes(String(privacy))) return initDirectly(req, privacy);
      const { adapter, account } = await publisher();
      // The adapter re-checks the probed duration against the creator's limit before any call;
      // without that metadata the video goes to TikTok, whose own check reads the bytes.
      return sendPastHerald(adapter, account, { ...req, mediaItems: req.mediaItems.map(({ durationSeconds: _d, ...m }) => m) });
    },
    media: () => media,
  });
});

contract.failures({
  rateLimit: { title: 'rate limited (rate_limit_exceeded, 429): the target waits and then publishes once' },
  serverError: { title: '5xx (internal) on init: retried, published once' },
  expired: {
    title: 'token about to expire: refreshed before publishing',
    async expire() {
      const old = await h.expireSoon();
      const before = sim.calls.get('POST /v2/oauth/token/') ?? 0;
      return async (after) => {
        expect(sim.calls.get('POST /v2/oauth/token/')).toBe(before + 1);
        expect(after.refreshToken).not.toBe(old.refreshToken);
        expect((await h.account()).token_expires_at!.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
      };
    },
  },
  lostAnswer: { title: 'answer lost after the last chunk: verify reads the publish_id status and records the post, no duplicate' },
  dropped: {
    title: 'last chunk dropped before TikTok got it: verify sees the upload incomplete, the chunk is sent again, published once',
    retry: () => { const n = sim.publishes.size; return () => expect(sim.publishes.size).toBe(n); },
  },
  lostAnswerBurst: { title: 'answer lost after a pull init, then 150 newer videos: verify pages the video list (cursor) past them and finds it, no second init', n: 150, minLists: 8 }, // 20 a call
  verifyUnreadable: { title: 'answer lost after a pull init and the video list is rate limited during verify: not posted again, asked again later' },
  lookBack: {
    title: 'last chunk dropped before TikTok got it, 150 videos since: the open upload (status) proves it absent, published once', n: 150,
    retry: () => { const n = inits(); return () => expect(inits()).toBe(n); },
  },
  more() {
    it('enforces the per-token per-minute init limit (6/min) of the real API', async () => {
      const strict = await startTikTokSimulator();
      try {
        const tok = await fetch(`${strict.url}/v2/auth/authorize/?client_key=${strict.clientKey}&redirect_uri=https://x.example/cb&scope=user.info.basic,video.publish&response_type=code&state=s`, { redirect: 'manual' });
        const code = new URL(tok.headers.get('location')!).searchParams.get('code')!;
        const t = await (await fetch(`${strict.url}/v2/oauth/token/`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ client_key: strict.clientKey, client_secret: strict.clientSecret, code, grant_type: 'authorization_code', redirect_uri: 'https://x.example/cb' }) })).json() as { access_token: string };
        const init = () => fetch(`${strict.url}/v2/post/publish/video/init/`, { method: 'POST', headers: { authorization: `Bearer ${t.access_token}`, 'content-type': 'application/json; charset=UTF-8' },
          body: JSON.stringify({ post_info: { privacy_level: 'SELF_ONLY' }, source_info: { source: 'FILE_UPLOAD', video_size: 1000, chunk_size: 1000, total_chunk_count: 1 } }) });
        const statuses = [];
        for (let i = 0; i < 7; i++) statuses.push((await init()).status);
        expect(statuses.slice(0, 6).every((s) => s === 200)).toBe(true);
        const last = await init();
        expect(last.status).toBe(429);
        expect(((await last.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
      } finally {
        await strict.close();
      }
    });
    it('an unaudited app may only post SELF_ONLY (the simulator offers only that level and refuses others)', async () => {
      const strict = await startTikTokSimulator({ unaudited: true });
      try {
        const tok = await fetch(`${strict.url}/v2/auth/authorize/?client_key=${strict.clientKey}&redirect_uri=https://x.example/cb&scope=user.info.basic,video.publish&response_type=code&state=s`, { redirect: 'manual' });
        const code = new URL(tok.headers.get('location')!).searchParams.get('code')!;
        const t = await (await fetch(`${strict.url}/v2/oauth/token/`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ client_key: strict.clientKey, client_secret: strict.clientSecret, code, grant_type: 'authorization_code', redirect_uri: 'https://x.example/cb' }) })).json() as { access_token: string };
        const h = { authorization: `Bearer ${t.access_token}`, 'content-type': 'application/json; charset=UTF-8' };
        const info = await (await fetch(`${strict.url}/v2/post/publish/creator_info/query/`, { method: 'POST', headers: h, body: '{}' })).json() as { data: { privacy_level_options: string[] } };
        expect(info.data.privacy_level_options).toEqual(['SELF_ONLY']);
        const res = await fetch(`${strict.url}/v2/post/publish/video/init/`, { method: 'POST', headers: h,
          body: JSON.stringify({ post_info: { privacy_level: 'PUBLIC_TO_EVERYONE' }, source_info: { source: 'FILE_UPLOAD', video_size: 1000, chunk_size: 1000, total_chunk_count: 1 } }) });
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unaudited_client_can_only_post_to_private_accounts');
      } finally {
        await strict.close();
      }
    });
    it('expired access token (access_token_invalid): refreshed with rotation, then published', async () => {
      sim.addFault({ op: 'creator_info', kind: 'expired_token', count: 1 });
      const old = await h.credentials<{ accessToken: string; refreshToken: string }>();
      const res = await post({ content: 'after a 401', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on() });
      expect(res.statusCode, res.body).toBe(201);
      const now = await h.credentials<{ accessToken: string; refreshToken: string }>();
      expect(now.accessToken).not.toBe(old.accessToken);
      expect(now.refreshToken).not.toBe(old.refreshToken);
    });
    it('processing failure (FAILED with fail_reason): the target fails with TikTok\'s reason, nothing posted', async () => {
      sim.addFault({ op: 'init', kind: 'processing_failed', count: 1 });
      const res = await post({ content: 'bad codec', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on() });
      expect(res.statusCode).toBe(207);
      expect(res.json().platformResults[0].error).toMatch(/could not publish the video: file_format_check_failed/);
      const pulled = await post({ content: 'missing photo', publishNow: true, mediaItems: [{ type: 'image', url: `${media.url}/missing.jpg` }], platforms: on() });
      expect(pulled.json().platformResults[0].error).toMatch(/photo_pull_failed/);
      expect(byTitle('bad codec').length + byTitle('missing photo').length).toBe(0);
    });
    it('a video longer than the creator may post fails duration_check_failed', async () => {
      const saved = sim.creator.maxVideoPostDurationSec;
      sim.creator.maxVideoPostDurationSec = 3;
      try {
        const res = await post({ content: 'too long', publishNow: true, mediaItems: [{ type: 'video', url: bigVideo }], platforms: on() });
        expect(res.json().platformResults[0].error).toMatch(/duration_check_failed/);
      } finally {
        sim.creator.maxVideoPostDurationSec = saved;
      }
    });
    it('daily cap (spam_risk_too_many_posts): fails with TikTok\'s message, not retried', async () => {
      sim.addFault({ op: 'init', kind: 'too_many_posts', count: 1 });
      const res = await post({ content: 'one too many', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on() });
      expect(res.statusCode).toBe(207);
      expect(res.json().platformResults[0].error).toMatch(/spam_risk_too_many_posts/);
      const t = await target(res.json().post._id);
      expect(t).toMatchObject({ status: 'failed', error_category: 'platform_rejected' });
    });
    it('answer lost after a pull init: verify finds the post among the recent videos, no duplicate', async () => {
      sim.addFault({ op: 'init', kind: 'drop_after_create', count: 1 });
      const id = (await post({ content: 'pulled but unanswered', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: jpg.slice(0, 2).map((url) => ({ type: 'image', url })), platforms: on() })).json().post._id;
      await runDue(id);
      expect((await target(id)).status).toBe('pending');
      await runDue(id);
      const t = await target(id);
      expect(t.status).toBe('published');
      const created = byTitle('pulled but unanswered');
      expect(created).toHaveLength(1);
      expect(t.platform_post_id).toBe(created[0].id);
    });
    it('status polling throttled after the upload: waited out, never posted twice', async () => {
      sim.addFault({ op: 'status', kind: 'rate_limit', count: 2 });
      const res = await post({ content: 'slow status', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on() });
      expect(res.statusCode, res.body).toBe(201);
      expect(byTitle('slow status')).toHaveLength(1);
    });
  },
});

contract.revoked({ revoke: () => sim.revokeAll() });

contract.refreshJob({
  title: 'refreshes tokens that expire soon (rotating the refresh token), and marks an account whose refresh TikTok refuses',
  expire: (id) => h.expireSoon(id),
  minTtlMs: 23 * 3600_000,
  check: (_row, creds, old) => expect(creds.refreshToken).not.toBe(old.refreshToken),
  refuse: () => sim.revokeAll(),
});

contract.metrics({
  expected: (id) => {
    const c = sim.metrics.last(id)!;
    return { impressions: null, reach: null, views: c.views, likes: c.likes, comments: c.comments, shares: c.shares, saves: null, clicks: null };
  },
  rateLimit: () => sim.addFault({ op: 'metrics', kind: 'rate_limit', count: 1 }),
  revoke: () => sim.revokeAll(),
});
