/**
 * YouTube adapter against the YouTube simulator, through the real app: Google OAuth connect
 * (offline access, consent, PKCE, refresh until revoked), Shorts (3 minutes or less) and
 * regular videos uploaded with the resumable protocol in chunks, thumbnails and first comments
 * (their failures recorded without failing the post), tag rules, scheduled posts uploaded at once
 * as private with publishAt, every rule violation refused before any platform call, and the
 * failure modes (quota, rate limit, 5xx, a dropped chunk resumed, a lost answer to the last
 * chunk with no duplicate, expired and revoked tokens). Test videos are made with ffmpeg.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startYouTubeSimulator, type YouTubeSimulator } from '../../sim/youtube/server.ts';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { YouTubeAdapter } from '../../src/platforms/youtube/adapter.ts';
import { youtubeOAuth } from '../../src/platforms/youtube/oauth.ts';
import { mapGoogleError, msUntilPacificMidnight } from '../../src/platforms/youtube/google.ts';
import { insertAccount } from '../support/app.ts';
import { platformHarness } from '../support/harness.ts';
import { makePng } from '../support/png.ts';
import { makeImage, makeVideo } from '../support/media.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import type { AdapterContext, PlatformAdapter, PublishRequest } from '../../src/platforms/types.ts';
import { cases as ruleCases } from '../rules/youtube.cases.ts';
import { resolveMedia, harnessPublisher, simulatorRuleCases } from './rule-cases.ts';
import { platformContract } from './suite.ts';

const CHUNK = 256 * 1024;
/** Google's error envelope. */
type G = { error: { code: number; message: string; errors: Array<{ reason: string; domain: string }> } };
let sim: YouTubeSimulator;
let media: MediaServer;
let shortVideo: Buffer;
let longVideo: Buffer;
let shortUrl: string;
let longUrl: string;
let thumbUrl: string;
const h = platformHarness({
  platform: 'youtube', tag: 'yt', setupTimeoutMs: 120_000,
  async setup() {
    sim = await startYouTubeSimulator({ dailyUnits: 1_000_000 }); // the real 10,000 units allow only 6 uploads a day
    media = await startMediaServer();
    shortVideo = makeVideo({ seconds: 2, width: 120, height: 160, rate: 5, audio: false });
    longVideo = makeVideo({ seconds: 190, width: 160, height: 120, rate: 5, audio: false });
    shortUrl = media.put('/short.mp4', shortVideo, 'video/mp4');
    longUrl = media.put('/long.mp4', longVideo, 'video/mp4');
    thumbUrl = media.put('/thumb.png', makePng(64, 36), 'image/png');
    const app = { clientId: sim.clientId, clientSecret: sim.clientSecret, apiBaseUrl: sim.url, authBaseUrl: sim.url };
    // 256 KiB chunks (the protocol's granularity) so that the 190-second video goes in several PUTs.
    const adapter = new YouTubeAdapter(youtubeOAuth, () => app, { chunkBytes: CHUNK });
    return { deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9', platformApps: { youtube: app } }, { youtube: adapter as never }) } };
  },
  teardown: async () => { await sim?.close(); await media?.close(); },
});

const post = (payload: object) => h.post(payload);
const on = (extra: object = {}, id = h.accountId) => [{ platform: 'youtube', accountId: id, ...extra }];
const video = (url: string, extra: object = {}) => [{ type: 'video', url, ...extra }];
const byId = (id: string) => sim.videos.find((v) => v.id === id)!;
const sessionsStarted = () => sim.calls.get('POST /upload/youtube/v3/videos') ?? 0;
const count = (title: string) => sim.videos.filter((v) => v.title === title).length;
const runDue = (postId: string) => h.runDue(postId);
const target = (postId: string) => h.target(postId);

// A YouTube post is uploaded as soon as it is created (scheduled ones as private with publishAt),
// so its failure modes are its own below; the shared cases here are connect, refresh and revocation.
const contract = platformContract({
  platform: 'youtube', name: 'YouTube', h,
  payload: (content) => ({ content, mediaItems: video(shortUrl), platforms: on() }),
  fault: () => { throw new Error('YouTube adds its faults in its own cases'); },
  created: (content) => sim.videos.filter((v) => v.title === content),
  creates: sessionsStarted,
});

contract.connect({
  title: 'the channel: offline access with consent, PKCE, refresh token stored, 1-hour access token',
  username: () => 'heraldsim',
  account: { displayName: 'Herald YouTube Sim' },
  minTtlMs: 50 * 60_000,
  maxTtlMs: 61 * 60_000,
  platformUserId: () => sim.channel.id,
  authUrl(au) {
    expect(au.pathname).toBe('/o/oauth2/v2/auth');
    expect(Object.fromEntries(au.searchParams)).toMatchObject({ access_type: 'offline', prompt: 'consent', response_type: 'code', code_challenge_method: 'S256' });
    expect(au.searchParams.get('scope')!.split(' ')).toEqual(expect.arrayContaining([
      'https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.force-ssl']));
  },
  stored(row, creds) {
    expect(row.platform_user_id).toMatch(/^UC[\w-]{22}$/);
    expect(creds.refreshToken).toMatch(/^1\/\//);
  },
  singleUse: true,
});

describe('YouTube: publishing', () => {
  contract.unpublish({
    title: 'unpublishes a video: DELETE /youtube/v3/videos?id= removes it (a read no longer finds it); again changes nothing; one already gone counts as deleted',
    publish: (content) => post({ content, publishNow: true, mediaItems: video(shortUrl), platforms: on() }),
    onPlatform: (id) => sim.videos.some((v) => v.id === id),
    removeOnPlatform: (id) => { sim.videos.splice(sim.videos.findIndex((v) => v.id === id), 1); },
    after: async (id) => {
      const tok = (await h.credentials()).accessToken as string;
      const read = await fetch(`${sim.url}/youtube/v3/videos?part=status&id=${id}`, { headers: { authorization: `Bearer ${tok}` } });
      expect(((await read.json()) as { items: unknown[] }).items).toEqual([]);
    },
  });

  it('a 2-second video is a Short: title from platformSpecificData, description from content, tags deduplicated and long ones dropped', async () => {
    const res = await post({
      content: 'Line one of the description\nand more <3', publishNow: true, mediaItems: video(shortUrl),
      platforms: on({ platformSpecificData: { title: 'My first short', tags: ['cats', 'Cats', ' dogs ', 'y'.repeat(101)], containsSyntheticMedia: true } }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostId).toMatch(/^[\w-]{11}$/);
    expect(t.platformPostUrl).toBe(`https://www.youtube.com/shorts/${t.platformPostId}`);
    const v = byId(t.platformPostId);
    expect(v).toMatchObject({
      title: 'My first short', description: 'Line one of the description\nand more \uFF1C3', tags: ['cats', 'dogs'],
      privacyStatus: 'public', publishAt: null, isShort: true, containsSyntheticMedia: true, categoryId: '22', bytes: shortVideo.length,
    });
    expect(v.durationSeconds).toBeCloseTo(2, 0);
    expect((await target(res.json().post._id)).result?.extra).toMatchObject({ isShort: true, privacyStatus: 'public' });
  });

  it('tags over the limits are dropped, not refused: the response warns, YouTube gets the tags that fit its own count (docs/decisions/0023)', async () => {
    const res = await post({
      content: 'Tagged short', publishNow: true, mediaItems: video(shortUrl),
      platforms: on({ platformSpecificData: { tags: ['z'.repeat(101), ...Array.from({ length: 6 }, (_, i) => `${i}`.repeat(100))] } }),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().warnings).toEqual([
      expect.stringMatching(/^platforms\.0\.platformSpecificData\.tags: dropped 1 tag\(s\) over 100 characters/),
      expect.stringMatching(/^platforms\.0\.platformSpecificData\.tags: dropped 1 tag\(s\) past the 500-character total/),
      expect.stringMatching(/^platforms\.0\.platformSpecificData\.tags: YouTube counts .* the last 1 tag\(s\) are not sent to YouTube: "4{100}"$/),
    ]);
    const t = res.json().post.platforms[0];
    expect(t.platformSpecificData.tags).toEqual(Array.from({ length: 5 }, (_, i) => `${i}`.repeat(100)));
    expect(byId(t.platformPostId).tags).toEqual(Array.from({ length: 4 }, (_, i) => `${i}`.repeat(100)));
  });

  it('a 190-second video is a regular video: uploaded in 256 KiB chunks, thumbnail set, first comment posted; title from the first line', async () => {
    const before = sim.puts.length;
    const res = await post({
      content: 'A long video title line\n\nThe description goes on.', publishNow: true, visibility: 'unlisted',
      mediaItems: video(longUrl, { thumbnail: thumbUrl }), tags: ['news', 'NEWS', 'tech'],
      platforms: on({ platformSpecificData: { firstComment: 'Chapters: 0:00 intro' } }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostUrl).toBe(`https://www.youtube.com/watch?v=${t.platformPostId}`);
    const v = byId(t.platformPostId);
    expect(v).toMatchObject({ title: 'A long video title line', tags: ['news', 'tech'], privacyStatus: 'unlisted', isShort: false, bytes: longVideo.length, thumbnail: { type: 'image/png' } });
    const ranges = sim.puts.slice(before);
    expect(ranges.length).toBe(Math.ceil(longVideo.length / CHUNK));
    expect(ranges[0]).toBe(`bytes 0-${CHUNK - 1}/${longVideo.length}`);
    expect(sim.comments.filter((c) => c.videoId === v.id).map((c) => c.text)).toEqual(['Chapters: 0:00 intro']);
    const extra = (await target(res.json().post._id)).result?.extra;
    expect(extra).toMatchObject({ isShort: false, thumbnail: { status: 'published' }, firstComment: { status: 'published', id: expect.any(String) } });
  });

  it('a post scheduled for later is uploaded at once as private with publishAt = scheduledFor', async () => {
    const when = new Date(Date.now() + 26 * 3600_000);
    when.setUTCSeconds(0, 0);
    const res = await post({ content: 'Premieres tomorrow', scheduledFor: when.toISOString(), mediaItems: video(longUrl), platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe('Post scheduled successfully. YouTube video uploaded immediately for processing time.');
    const id = res.json().post._id;
    const pending = await target(id);
    expect(pending.run_at!.getTime()).toBeLessThanOrEqual(Date.now());
    // The worker finds it due now (no forcing of run_at).
    const claimed = (await h.worker.claimDue(50)).filter((x) => x.post_id === id);
    expect(claimed).toHaveLength(1);
    await h.worker.runTarget(claimed[0]);
    const uploaded = await target(id);
    // On YouTube, private until its time: the post stays scheduled, with the video's URL, and its
    // target waits for publishAt to confirm it (it is never uploaded again).
    expect(uploaded.status, uploaded.error_message ?? '').toBe('pending');
    expect(uploaded.run_at!.getTime()).toBe(when.getTime());
    expect(byId(uploaded.platform_post_id!)).toMatchObject({ privacyStatus: 'private', publishAt: when.toISOString(), title: 'Premieres tomorrow' });
    expect(uploaded.result?.extra).toMatchObject({ privacyStatus: 'private', publishAt: when.toISOString() });
    let view = (await h.ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: h.tenant.headers })).json().post;
    expect(view.scheduledFor).toBe(when.toISOString());
    expect(view.status).toBe('scheduled');
    expect(view.platforms[0]).toMatchObject({ status: 'pending', platformPostId: uploaded.platform_post_id, goesLiveAt: when.toISOString(),
      platformPostUrl: `https://www.youtube.com/watch?v=${uploaded.platform_post_id}` });
    // Its time comes (publishAt moved into the past on YouTube and the target due): confirmed public, then published.
    const sessions = sessionsStarted();
    const onYouTube = byId(uploaded.platform_post_id!);
    onYouTube.publishAt = new Date(Date.now() - 1_000).toISOString();
    await runDue(id);
    const live = await target(id);
    expect(live.status, live.error_message ?? '').toBe('published');
    expect(live.platform_post_id).toBe(uploaded.platform_post_id);
    expect(live.result?.extra).toMatchObject({ privacyStatus: 'public' });
    expect(onYouTube.privacyStatus).toBe('public');
    expect(sessionsStarted()).toBe(sessions);
    view = (await h.ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: h.tenant.headers })).json().post;
    expect(view.status).toBe('published');
    expect(view.platforms[0].goesLiveAt).toBeUndefined();
  });

  it('a video uploaded ahead: confirmed only at its time, kept by an edit, and failed when deleted on YouTube before it', async () => {
    const when = new Date(Date.now() + 30 * 3600_000);
    when.setUTCSeconds(0, 0);
    const res = await post({ content: 'Deleted before its premiere', scheduledFor: when.toISOString(), mediaItems: video(longUrl), platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().post._id;
    await runDue(id);
    const uploaded = await target(id);
    expect(uploaded.status).toBe('pending');
    // Asked early (a queue reshuffle made it due): YouTube still holds it, so it waits for publishAt.
    await runDue(id);
    const early = await target(id);
    expect(early.status).toBe('pending');
    expect(early.run_at!.getTime()).toBe(when.getTime());
    // An edit of the post keeps the uploaded video's target (nothing is uploaded again).
    const sessions = sessionsStarted();
    const edit = await h.ctx.app.inject({ method: 'PUT', url: `/v1/posts/${id}`, headers: h.tenant.headers, payload: { content: 'Deleted before its premiere (edited)' } });
    expect(edit.statusCode, edit.body).toBe(200);
    const kept = await target(id);
    expect(kept).toMatchObject({ platform_post_id: uploaded.platform_post_id, status: 'pending', run_at: when });
    // Deleted on YouTube before its time: the confirmation finds no video.
    sim.videos.splice(sim.videos.findIndex((v) => v.id === uploaded.platform_post_id), 1);
    await runDue(id);
    const gone = await target(id);
    expect(gone.status).toBe('failed');
    expect(gone.error_message).toMatch(/no longer on the channel/);
    expect(sessionsStarted()).toBe(sessions);
  });

  it('a failed first comment or thumbnail does not fail the post; each failure is recorded on the target', async () => {
    sim.addFault({ op: 'comment', kind: 'server_error', count: 1 });
    sim.addFault({ op: 'thumbnail', kind: 'server_error', count: 1 });
    const res = await post({ content: 'comment and thumbnail fail', publishNow: true, mediaItems: video(longUrl, { thumbnail: thumbUrl }), platforms: on({ platformSpecificData: { firstComment: 'hello' } }) });
    expect(res.statusCode, res.body).toBe(201);
    const t = await target(res.json().post._id);
    expect(t.status).toBe('published');
    expect(t.result?.extra).toMatchObject({
      firstComment: { status: 'failed', error: expect.stringMatching(/Backend Error/) },
      thumbnail: { status: 'failed', error: expect.stringMatching(/Backend Error/) },
    });
  });
});

describe('YouTube: rules, refused before any platform call', () => {
  it('refuses each violation with 400 naming the rule', async () => {
    const before = sessionsStarted();
    const tomorrow = new Date(Date.now() + 86400_000).toISOString();
    const cases: Array<[object, RegExp]> = [
      [{ content: 'no video' }, /youtube\.media\.one_video/],
      [{ content: 'x', mediaItems: [...video(shortUrl), ...video(longUrl)] }, /youtube\.media\.one_video/],
      [{ content: 'x', mediaItems: [{ type: 'image', url: thumbUrl }] }, /youtube\.media\.one_video/],
      [{ content: 'x', mediaItems: video(longUrl), platforms: on({ platformSpecificData: { title: 't'.repeat(101) } }) }, /platformSpecificData\.title.*youtube\.title\.max_length/],
      [{ content: 'x', mediaItems: video(longUrl), platforms: on({ platformSpecificData: { title: 'a <b> title' } }) }, /youtube\.title\.angle_brackets/],
      [{ content: '\u00e9'.repeat(2501), mediaItems: video(longUrl) }, /content.*youtube\.description\.max_bytes/],
      [{ content: 'x', mediaItems: video(longUrl), platforms: on({ platformSpecificData: { firstComment: 'c'.repeat(10_001) } }) }, /platformSpecificData\.firstComment.*youtube\.first_comment\.max_length/],
      [{ content: 'x', mediaItems: video(longUrl, { thumbnail: 'https://example.com/t.webp' }) }, /mediaItems\.0\.thumbnail.*youtube\.thumbnail\.type/],
      [{ content: 'x', mediaItems: video(longUrl), visibility: 'unlisted', scheduledFor: tomorrow }, /youtube\.schedule\.public_only/],
    ];
    for (const [payload, rule] of cases) {
      const res = await post({ publishNow: true, platforms: on(), ...payload, ...('scheduledFor' in payload ? { publishNow: undefined } : {}) });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 100)).toBe(400);
      expect(JSON.stringify(res.json().details.fields)).toMatch(rule);
    }
    expect(sessionsStarted()).toBe(before);
  });

  it('a thumbnail on a Short uploaded to Herald (ffprobe metadata) is refused when the post is created', async () => {
    const [uploaded] = await h.upload([{ filename: 'short.mp4', contentType: 'video/mp4', data: shortVideo }]);
    const url = uploaded.url;
    const before = sessionsStarted();
    const res = await post({ content: 'short with thumbnail', publishNow: true, mediaItems: video(url, { thumbnail: thumbUrl }), platforms: on() });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json().details.fields)).toMatch(/mediaItems\.0\.thumbnail.*Short.*youtube\.short\.no_custom_thumbnail/);
    expect(sessionsStarted()).toBe(before);
  });

  it('without metadata, the duration is read with ffprobe at publish time: a Short with a thumbnail fails before any upload', async () => {
    const before = sessionsStarted();
    const res = await post({ content: 'foreign short with thumbnail', publishNow: true, mediaItems: video(shortUrl, { thumbnail: thumbUrl }), platforms: on() });
    expect(res.statusCode).toBe(207);
    expect(res.json().platformResults[0].error).toMatch(/Shorts cannot have a custom thumbnail \[rule youtube\.short\.no_custom_thumbnail\]/);
    expect(sessionsStarted()).toBe(before);
  });

  it('a thumbnail over 2 MB, or not a JPEG/PNG, fails before any upload', async () => {
    const big = Buffer.concat([makePng(2, 2), Buffer.alloc(2 * 1024 * 1024)]);
    const bigUrl = media.put('/big.png', big, 'image/png');
    const fakeUrl = media.put('/fake.jpg', Buffer.from('not an image at all'), 'image/jpeg');
    const before = sessionsStarted();
    const a = await post({ content: 'big thumbnail', publishNow: true, mediaItems: video(longUrl, { thumbnail: bigUrl }), platforms: on() });
    expect(a.statusCode).toBe(207);
    expect(a.json().platformResults[0].error).toMatch(/youtube\.thumbnail\.max_bytes/);
    const b = await post({ content: 'fake thumbnail', publishNow: true, mediaItems: video(longUrl, { thumbnail: fakeUrl }), platforms: on() });
    expect(b.json().platformResults[0].error).toMatch(/not a JPEG or PNG.*youtube\.thumbnail\.type/);
    expect(sessionsStarted()).toBe(before);
  });
});

describe('YouTube: Shorts are vertical or square AND at most 3 minutes (docs/decisions/0027-youtube-shorts.md)', () => {
  it('a horizontal 2-minute video is a regular video: published with its custom thumbnail (refused as a "Short" before 0027)', async () => {
    const wide = media.put('/wide-2min.mp4', makeVideo({ seconds: 120, width: 160, height: 120, rate: 5, audio: false }), 'video/mp4');
    const res = await post({ content: 'two minutes, landscape', publishNow: true, mediaItems: video(wide, { thumbnail: thumbUrl }), platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostUrl).toBe(`https://www.youtube.com/watch?v=${t.platformPostId}`);
    expect(byId(t.platformPostId)).toMatchObject({ isShort: false, thumbnail: { type: 'image/png' } });
    expect((await target(res.json().post._id)).result?.extra).toMatchObject({ isShort: false, thumbnail: { status: 'published' } });
  });

  it('a square video uploaded to Herald (ffprobe metadata) with a thumbnail is refused when the post is created', async () => {
    const [uploaded] = await h.upload([{ filename: 'square.mp4', contentType: 'video/mp4', data: makeVideo({ seconds: 2, width: 160, height: 160, rate: 5, audio: false }) }]);
    const before = sessionsStarted();
    const res = await post({ content: 'square with thumbnail', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: video(uploaded.url, { thumbnail: thumbUrl }), platforms: on() });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details.fields['mediaItems.0.thumbnail'].join(' ')).toContain('[rule youtube.short.no_custom_thumbnail]');
    expect(sessionsStarted()).toBe(before);
  });

  it('a GIF thumbnail (thumbnails.set takes JPEG or PNG) is refused when the post is created, not at publish time', async () => {
    const gif = media.put('/thumb.gif', makeImage({ format: 'gif', width: 64, height: 36, frames: 2 }), 'image/gif');
    const before = sessionsStarted();
    const res = await post({ content: 'gif thumbnail', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: video(longUrl, { thumbnail: gif }), platforms: on() });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details.fields['mediaItems.0.thumbnail'].join(' ')).toContain('[rule youtube.thumbnail.type]');
    expect(sessionsStarted()).toBe(before);
  });
});

describe('YouTube: the platform\'s own rules', () => {
  const publisher = harnessPublisher(h, 'youtube');
  /**
   * Publishes past Herald's checks and answers YouTube's refusal: of the upload, of the first
   * comment (which the adapter records on the result instead of failing the post), or of the
   * thumbnail, which goes to thumbnails.set directly (the adapter re-checks a thumbnail's bytes
   * and the Short rule before any call).
   */
  async function send(req: PublishRequest): Promise<Error | null> {
    const { adapter, account } = await publisher();
    const unchecked: PlatformAdapter = Object.create(adapter, { validate: { value: () => [] } });
    const ctx: AdapterContext = {
      async saveCredentials(credentials) { account.credentials = credentials; },
      async fetchMedia(item) {
        const res = await fetch(item.url);
        return { bytes: Buffer.from(await res.arrayBuffer()), mimeType: res.headers.get('content-type') ?? 'application/octet-stream' };
      },
      log() {},
    };
    const thumbnail = req.mediaItems[0]?.thumbnail;
    const bare = { ...req, mediaItems: req.mediaItems.map(({ thumbnail: _t, ...m }) => m) };
    let result;
    try {
      result = await unchecked.commit(ctx, account, bare, await unchecked.prepare(ctx, account, bare));
    } catch (e) {
      return e as Error;
    }
    const comment = result.extra?.firstComment as { status?: string; error?: string } | undefined;
    if (comment?.status === 'failed') return new Error(comment.error);
    if (!thumbnail) return null;
    const ext = thumbnail.split('?')[0].split('.').pop()!;
    const served = resolveMedia(media, { type: 'image', url: thumbnail, mimeType: ext === 'jpg' ? 'image/jpeg' : `image/${ext}` });
    const bytes = Buffer.from(await (await fetch(served.url)).arrayBuffer());
    const token = (account.credentials as { accessToken: string }).accessToken;
    const res = await fetch(`${sim.url}/upload/youtube/v3/thumbnails/set?videoId=${result.platformPostId}&uploadType=media`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': served.mimeType! }, body: bytes,
    });
    return res.ok ? null : mapGoogleError(res.status, await res.json(), res.headers, 'YouTube thumbnails.set');
  }
  simulatorRuleCases({ cases: ruleCases, publisher, send, media: () => media });
});

contract.failures({
  expired: {
    title: 'an expired access token is refreshed once (the refresh token is kept) and the upload proceeds',
    async expire() {
      const first = await h.credentials();
      sim.expireAccessTokens();
      const tokenCalls = sim.calls.get('POST /token') ?? 0;
      return (after) => {
        expect(sim.calls.get('POST /token')).toBe(tokenCalls + 1);
        expect(after.accessToken).not.toBe(first.accessToken);
        expect(after.refreshToken).toBe(first.refreshToken);
      };
    },
  },
  more() {
    it('quotaExceeded (403): the target waits until midnight Pacific, then publishes once', async () => {
      sim.addFault({ op: 'session', kind: 'quota', count: 1 });
      const id = (await post({ content: 'after the quota', publishNow: true, mediaItems: video(shortUrl), platforms: on() })).json().post._id;
      const waiting = await target(id);
      expect(waiting).toMatchObject({ status: 'pending', error_category: 'platform_rate_limit' });
      expect(waiting.error_message).toMatch(/quotaExceeded.*midnight Pacific/);
      expect(Math.abs(waiting.run_at!.getTime() - (Date.now() + msUntilPacificMidnight()))).toBeLessThan(60_000);
      await runDue(id);
      expect((await target(id)).status).toBe('published');
      expect(count('after the quota')).toBe(1);
    });
    it('rateLimitExceeded and 5xx: retried, published once', async () => {
      sim.addFault({ op: 'session', kind: 'rate_limit', count: 1 });
      const a = (await post({ content: 'after a rate limit', publishNow: true, mediaItems: video(shortUrl), platforms: on() })).json().post._id;
      expect(await target(a)).toMatchObject({ status: 'pending', error_category: 'platform_rate_limit' });
      await runDue(a);
      expect((await target(a)).status).toBe('published');
      sim.addFault({ op: 'session', kind: 'server_error', count: 1 });
      const b = (await post({ content: 'after a 503', publishNow: true, mediaItems: video(shortUrl), platforms: on() })).json().post._id;
      expect((await target(b)).status).toBe('pending');
      await runDue(b);
      expect((await target(b)).status).toBe('published');
      expect(count('after a rate limit') + count('after a 503')).toBe(2);
    });
    it('the channel\'s daily upload limit (400 uploadLimitExceeded) waits a day', async () => {
      sim.addFault({ op: 'session', kind: 'upload_limit', count: 1 });
      const id = (await post({ content: 'over the upload limit', publishNow: true, mediaItems: video(shortUrl), platforms: on() })).json().post._id;
      const t = await target(id);
      expect(t).toMatchObject({ status: 'pending', error_category: 'platform_rate_limit' });
      expect(t.run_at!.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    });
    it('a dropped chunk is resumed from the last byte the session holds (one video, intact bytes)', async () => {
      sim.addFault({ op: 'chunk', kind: 'drop', count: 1 });
      const before = sim.puts.length;
      const res = await post({ content: 'resumed upload', publishNow: true, mediaItems: video(longUrl), platforms: on() });
      expect(res.statusCode, res.body).toBe(201);
      expect(sim.puts.slice(before)).toContain(`bytes */${longVideo.length}`);
      const v = sim.videos.filter((x) => x.title === 'resumed upload');
      expect(v).toHaveLength(1);
      expect(v[0].bytes).toBe(longVideo.length);
      expect(v[0].sha256).toBe((await import('node:crypto')).createHash('sha256').update(longVideo).digest('hex'));
    });
    it('a chunk that keeps failing (5xx) gives up after the bounded resumes; the next run uploads afresh, one video', async () => {
      sim.addFault({ op: 'chunk', kind: 'server_error', count: 6 });
      const id = (await post({ content: 'chunks keep failing', publishNow: true, mediaItems: video(longUrl), platforms: on() })).json().post._id;
      const t = await target(id);
      expect(t).toMatchObject({ status: 'pending', error_category: 'platform_error' });
      expect(t.error_message).toMatch(/Backend Error/);
      await runDue(id);
      expect((await target(id)).status).toBe('published');
      expect(count('chunks keep failing')).toBe(1);
    });
    it('the answer to the last chunk is lost: commit asks the session and records the video, no duplicate', async () => {
      sim.addFault({ op: 'final', kind: 'drop_after_create', count: 1 });
      const res = await post({ content: 'lost final answer', publishNow: true, mediaItems: video(shortUrl), platforms: on() });
      expect(res.statusCode, res.body).toBe(201);
      expect(count('lost final answer')).toBe(1);
      expect(res.json().post.platforms[0].platformPostId).toBe(sim.videos.find((v) => v.title === 'lost final answer')!.id);
    });
    it('lost answer and the session unreachable: the next run verifies through the session and posts the first comment once', async () => {
      sim.addFault({ op: 'final', kind: 'drop_after_create', count: 1 });
      sim.addFault({ op: 'probe', kind: 'drop', count: 5 });
      const id = (await post({ content: 'verify after loss', publishNow: true, mediaItems: video(shortUrl), platforms: on({ platformSpecificData: { firstComment: 'first!' } }) })).json().post._id;
      expect((await target(id)).status).toBe('pending');
      const sessions = sessionsStarted();
      await runDue(id);
      const t = await target(id);
      expect(t.status, t.error_message ?? '').toBe('published');
      expect(sessionsStarted()).toBe(sessions); // verify answered: no new upload
      const v = sim.videos.filter((x) => x.title === 'verify after loss');
      expect(v).toHaveLength(1);
      expect(t.platform_post_id).toBe(v[0].id);
      expect(sim.comments.filter((c) => c.videoId === v[0].id)).toHaveLength(1);
      // A second verify (e.g. after another crash) finds the comment and posts none.
      await h.forgetOutcome(id);
      await runDue(id);
      expect((await target(id)).status).toBe('published');
      expect(sim.comments.filter((c) => c.videoId === v[0].id)).toHaveLength(1);
    });
    it('lost answer and the session expired by the next run: verify finds the video in the channel\'s uploads playlist', async () => {
      sim.addFault({ op: 'final', kind: 'drop_after_create', count: 1 });
      sim.addFault({ op: 'probe', kind: 'drop', count: 5 });
      const id = (await post({ content: 'found in uploads', publishNow: true, mediaItems: video(shortUrl), platforms: on() })).json().post._id;
      expect((await target(id)).status).toBe('pending');
      sim.expireSessions();
      const lists = sim.calls.get('GET /youtube/v3/playlistItems') ?? 0;
      await runDue(id);
      const t = await target(id);
      expect(t.status, t.error_message ?? '').toBe('published');
      expect(sim.calls.get('GET /youtube/v3/playlistItems')).toBe(lists + 1);
      const v = sim.videos.filter((x) => x.title === 'found in uploads');
      expect(v).toHaveLength(1);
      expect(t.platform_post_id).toBe(v[0].id);
    });
    it('lost answer, session expired, then 150 newer uploads: verify pages the uploads playlist (pageToken) past them and finds it, no new upload', async () => {
      sim.addFault({ op: 'final', kind: 'drop_after_create', count: 1 });
      sim.addFault({ op: 'probe', kind: 'drop', count: 5 });
      const id = (await post({ content: 'buried under a burst', publishNow: true, mediaItems: video(shortUrl), platforms: on() })).json().post._id;
      expect((await target(id)).status).toBe('pending');
      sim.expireSessions();
      for (let i = 0; i < 150; i++) sim.addVideo(`burst ${i}`);
      const sessions = sessionsStarted();
      const lists = sim.calls.get('GET /youtube/v3/playlistItems') ?? 0;
      await runDue(id);
      const t = await target(id);
      expect(t.status, t.error_message ?? '').toBe('published');
      const v = sim.videos.filter((x) => x.title === 'buried under a burst');
      expect(v).toHaveLength(1);
      expect(t.platform_post_id).toBe(v[0].id);
      expect(sessionsStarted()).toBe(sessions);
      expect((sim.calls.get('GET /youtube/v3/playlistItems') ?? 0) - lists).toBeGreaterThanOrEqual(4); // 50 a call
    });
    it('lost answer, session expired, and the playlist fails during verify (5xx): no new upload, asked again later', async () => {
      sim.addFault({ op: 'final', kind: 'drop_after_create', count: 1 });
      sim.addFault({ op: 'probe', kind: 'drop', count: 5 });
      const id = (await post({ content: 'verify meets a 500', publishNow: true, mediaItems: video(shortUrl), platforms: on() })).json().post._id;
      expect((await target(id)).status).toBe('pending');
      sim.expireSessions();
      const sessions = sessionsStarted();
      sim.addFault({ op: 'list', kind: 'server_error', count: 1 });
      await runDue(id);
      expect(await target(id)).toMatchObject({ status: 'pending', error_category: 'platform_error' });
      expect(sessionsStarted()).toBe(sessions);
      await runDue(id);
      expect((await target(id)).status).toBe('published');
      expect(count('verify meets a 500')).toBe(1);
      expect(sessionsStarted()).toBe(sessions);
    });
    it('last chunk dropped before YouTube got it: the open session (308) proves it absent, the same session completes one video', async () => {
      sim.addFault({ op: 'final', kind: 'drop', count: 1 });
      sim.addFault({ op: 'probe', kind: 'drop', count: 5 });
      const id = (await post({ content: 'session still open', publishNow: true, mediaItems: video(shortUrl), platforms: on() })).json().post._id;
      expect((await target(id)).status).toBe('pending');
      const sessions = sessionsStarted();
      await runDue(id);
      const t = await target(id);
      expect(t.status, t.error_message ?? '').toBe('published');
      expect(count('session still open')).toBe(1);
      expect(sessionsStarted()).toBe(sessions);
    });
    it('an upload session that expired before the video was complete fails the target with a clear message, nothing published', async () => {
      sim.addFault({ op: 'final', kind: 'drop', count: 1 });
      sim.addFault({ op: 'probe', kind: 'drop', count: 5 });
      const id = (await post({ content: 'session gone', publishNow: true, mediaItems: video(shortUrl), platforms: on() })).json().post._id;
      expect((await target(id)).status).toBe('pending');
      sim.expireSessions();
      for (let i = 0; i < 120; i++) sim.addVideo(`later ${i}`);
      const lists = sim.calls.get('GET /youtube/v3/playlistItems') ?? 0;
      await runDue(id);
      expect((sim.calls.get('GET /youtube/v3/playlistItems') ?? 0) - lists).toBeGreaterThanOrEqual(3); // the whole window was read: not published
      const t = await target(id);
      expect(t.status).toBe('failed');
      expect(t.error_message).toMatch(/upload session expired.*retry the post/);
      expect(count('session gone')).toBe(0);
    });
  },
});

contract.revoked({
  title: 'revoked access (invalid_grant on refresh): the account needs reconnecting',
  revoke: () => { sim.revokeAll(); return () => expect(count('after revocation')).toBe(0); },
  error: /revoked.*reconnect/i,
});

describe('YouTube: scheduling and editing', () => {
  beforeAll(async () => {
    // The revocation test above disconnected the account: connect it again (same account).
    const { done } = await h.connect(h.profileId);
    expect(new URL(done.headers.location as string).searchParams.get('accountId')).toBe(h.accountId);
  });

  it('a future private post is uploaded private without publishAt; a draft turned scheduled runs at once', async () => {
    const when = new Date(Date.now() + 5 * 3600_000);
    when.setUTCSeconds(0, 0);
    const a = await post({ content: 'private later', scheduledFor: when.toISOString(), visibility: 'private', mediaItems: video(shortUrl), platforms: on() });
    expect(a.statusCode, a.body).toBe(201);
    const draft = await post({ content: 'draft first', isDraft: true, mediaItems: video(shortUrl), platforms: on() });
    const d = draft.json().post._id;
    const upd = await h.ctx.app.inject({ method: 'PUT', url: `/v1/posts/${d}`, headers: h.tenant.headers, payload: { scheduledFor: when.toISOString() } });
    expect(upd.statusCode, upd.body).toBe(200);
    expect((await target(d)).run_at!.getTime()).toBeLessThanOrEqual(Date.now());
    const ids = [a.json().post._id, d];
    const claimed = (await h.worker.claimDue(50)).filter((x) => ids.includes(x.post_id));
    expect(claimed).toHaveLength(2);
    await Promise.all(claimed.map((x) => h.worker.runTarget(x)));
    expect(byId((await target(ids[0])).platform_post_id!)).toMatchObject({ privacyStatus: 'private', publishAt: null });
    expect(byId((await target(d)).platform_post_id!)).toMatchObject({ privacyStatus: 'private', publishAt: when.toISOString() });
  });

  it('other platforms keep run_at = scheduledFor next to a YouTube target', async () => {
    const x = await insertAccount(h.ctx, h.tenant, h.profileId, 'twitter');
    const when = new Date(Date.now() + 3 * 3600_000);
    when.setUTCSeconds(0, 0);
    const res = await post({ content: 'two platforms', scheduledFor: when.toISOString(), mediaItems: video(shortUrl),
      platforms: [...on(), { platform: 'twitter', accountId: x }] });
    expect(res.statusCode, res.body).toBe(201);
    const { rows } = await h.ctx.db.query<{ platform: string; run_at: Date }>('SELECT platform, run_at FROM post_targets WHERE post_id = $1', [res.json().post._id]);
    expect(rows.find((r) => r.platform === 'twitter')!.run_at.getTime()).toBe(when.getTime());
    expect(rows.find((r) => r.platform === 'youtube')!.run_at.getTime()).toBeLessThanOrEqual(Date.now());
    // Within a minute, a YouTube target simply runs at its time (then published directly, no publishAt).
    const soon = new Date(Date.now() + 30_000);
    const near = await post({ content: 'in half a minute', scheduledFor: soon.toISOString(), mediaItems: video(shortUrl), platforms: on() });
    expect(near.json().message).toBe('Post scheduled successfully');
    expect((await target(near.json().post._id)).run_at!.getTime()).toBeGreaterThan(Date.now() + 15_000);
  });
});

describe('YouTube: simulator fidelity', () => {
  async function token(s: YouTubeSimulator, scope = 'https://www.googleapis.com/auth/youtube.upload'): Promise<string> {
    const consent = await fetch(`${s.url}/o/oauth2/v2/auth?${new URLSearchParams({ client_id: s.clientId, redirect_uri: 'https://h.example/cb', response_type: 'code', scope, access_type: 'offline' })}`, { redirect: 'manual' });
    const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
    const t = await fetch(`${s.url}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: 'https://h.example/cb', client_id: s.clientId, client_secret: s.clientSecret }) });
    return ((await t.json()) as { access_token: string }).access_token;
  }
  const start = (s: YouTubeSimulator, tok: string, status: object = {}) => fetch(`${s.url}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
    method: 'POST', headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json', 'x-upload-content-length': '10', 'x-upload-content-type': 'video/mp4' },
    body: JSON.stringify({ snippet: { title: 't' }, status }),
  });

  it('videos.delete: needs the youtube or youtube.force-ssl scope, only the channel\'s own video, 404 videoNotFound for a missing one, 204 and gone', async () => {
    const s = await startYouTubeSimulator();
    try {
      const del = (tok: string, id: string) => fetch(`${s.url}/youtube/v3/videos?id=${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${tok}` } });
      const mine = s.addVideo('mine');
      const upload = await token(s);
      const narrow = await del(upload, mine.id);
      expect(narrow.status).toBe(403);
      expect(((await narrow.json()) as G).error.errors[0].reason).toBe('insufficientPermissions');
      expect((await del('nope', mine.id)).status).toBe(401);
      const tok = await token(s, 'https://www.googleapis.com/auth/youtube.force-ssl');
      const theirs = s.addVideo('theirs');
      theirs.channelId = 'UCsomeoneelse0000000000';
      const forbidden = await del(tok, theirs.id);
      expect(forbidden.status).toBe(403);
      expect(((await forbidden.json()) as G).error.errors[0].reason).toBe('forbidden');
      expect((await del(tok, mine.id)).status).toBe(204);
      expect(s.videos.map((v) => v.id)).toEqual([theirs.id]);
      const again = await del(tok, mine.id);
      expect(again.status).toBe(404);
      expect(((await again.json()) as G).error.errors[0]).toMatchObject({ reason: 'videoNotFound', domain: 'youtube.video' });
    } finally {
      await s.close();
    }
  });

  it('quota is configurable (CONFLICT): 1,600 units per insert of 10,000 a day, or a separate bucket of inserts', async () => {
    const units = await startYouTubeSimulator();
    const buckets = await startYouTubeSimulator({ quotaModel: 'buckets', dailyInserts: 2 });
    try {
      const tu = await token(units);
      for (let i = 0; i < 6; i++) expect((await start(units, tu)).status).toBe(200);
      const over = await start(units, tu);
      expect(over.status).toBe(403);
      expect(((await over.json()) as G).error.errors[0]).toMatchObject({ reason: 'quotaExceeded', domain: 'youtube.quota' });
      const tb = await token(buckets);
      expect((await start(buckets, tb)).status).toBe(200);
      expect((await start(buckets, tb)).status).toBe(200);
      expect((await start(buckets, tb)).status).toBe(403);
      expect(buckets.quotaUsed()).toEqual({ units: 0, inserts: 2 });
    } finally {
      await units.close();
      await buckets.close();
    }
  });

  it('refuses publishAt unless private, and a custom thumbnail on a Short (vertical, at most 3 minutes: read from the uploaded bytes)', async () => {
    const s = await startYouTubeSimulator();
    try {
      const tok = await token(s);
      const bad = await start(s, tok, { privacyStatus: 'public', publishAt: new Date(Date.now() + 3600_000).toISOString() });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as G).error.errors[0].reason).toBe('invalidPublishAt');
      const upload = async (bytes: Buffer, status: object = {}) => {
        const ok = await fetch(`${s.url}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
          method: 'POST', headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json', 'x-upload-content-length': String(bytes.length), 'x-upload-content-type': 'video/mp4' },
          body: JSON.stringify({ snippet: { title: 't' }, status }),
        });
        const put = await fetch(ok.headers.get('location')!, { method: 'PUT', headers: { authorization: `Bearer ${tok}`, 'content-range': `bytes 0-${bytes.length - 1}/${bytes.length}`, 'content-type': 'video/mp4' }, body: bytes });
        expect(put.status).toBe(201);
        return (await put.json()) as { id: string; status: Record<string, unknown> };
      };
      const v = await upload(shortVideo, { privacyStatus: 'private', publishAt: new Date(Date.now() + 3600_000).toISOString() });
      expect(v.id).toMatch(/^[\w-]{11}$/);
      expect(v.status).toMatchObject({ privacyStatus: 'private', uploadStatus: 'uploaded' });
      const setThumb = (id: string, body: Buffer, type = 'image/png') => fetch(`${s.url}/upload/youtube/v3/thumbnails/set?videoId=${id}`, { method: 'POST', headers: { authorization: `Bearer ${tok}`, 'content-type': type }, body });
      const thumb = await setThumb(v.id, makePng(4, 4));
      expect(thumb.status).toBe(400);
      expect(((await thumb.json()) as G).error.message).toMatch(/Shorts/);
      // A horizontal video of the same length is a regular video: JPEG and PNG thumbnails up to 2 MB, not GIF, not more.
      const wide = await upload(makeVideo({ seconds: 2, width: 160, height: 120, rate: 5, audio: false }));
      expect((await setThumb(wide.id, makePng(4, 4))).status).toBe(200);
      expect((await setThumb(wide.id, makeImage({ format: 'jpeg', width: 64, height: 36, minBytes: 2 * 1024 * 1024 }), 'image/jpeg')).status).toBe(200);
      const gif = await setThumb(wide.id, makeImage({ format: 'gif', width: 64, height: 36 }), 'image/gif');
      expect(gif.status).toBe(400);
      expect(((await gif.json()) as G).error.errors[0]).toMatchObject({ reason: 'invalidImage', domain: 'youtube.thumbnail' });
      const big = await setThumb(wide.id, makeImage({ format: 'jpeg', width: 64, height: 36, minBytes: 2 * 1024 * 1024 + 1 }), 'image/jpeg');
      expect(big.status).toBe(400);
      expect(((await big.json()) as G).error.errors[0].reason).toBe('failedPrecondition');
    } finally {
      await s.close();
    }
  });

  it('answers Google\'s error envelope and OAuth errors', async () => {
    const t = await fetch(`${sim.url}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'nope', client_id: sim.clientId, client_secret: sim.clientSecret }) });
    expect(t.status).toBe(400);
    expect(await t.json()).toEqual({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
    const r = await fetch(`${sim.url}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, { method: 'POST', headers: { authorization: 'Bearer bad', 'content-type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(401);
    expect(((await r.json()) as G).error).toMatchObject({ code: 401, errors: [{ reason: 'authError', domain: 'global' }] });
  });
});

contract.metrics({
  expected: (id) => {
    const c = sim.metrics.last(id)!;
    return { impressions: null, reach: null, views: c.views, likes: c.likes, comments: c.comments, shares: null, saves: null, clicks: null };
  },
  rateLimit: () => sim.addFault({ op: 'metrics', kind: 'rate_limit', count: 1 }),
  revoke: () => sim.revokeAll(),
});
