/**
 * POST /v1/tools/validate/media and GET /v1/tools/validate/subreddit (decision 0063), through the
 * real app in sandbox mode (the Reddit simulator of sim/) on real PostgreSQL: media served by a
 * local HTTP server, checked for type, size, pixel size and duration against the platform rule
 * table; subreddits read through a connected Reddit account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { BLUESKY_MAX_IMAGE_BYTES } from '../../src/shared/capabilities.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { makeImage, makeVideo } from '../support/media.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { oauthConnect } from '../support/oauth.ts';
import { multipart } from '../support/png.ts';

let sandbox: Sandbox;
let ctx: TestContext;
let media: MediaServer;
let t: Tenant;
let reddit: string;

beforeAll(async () => {
  sandbox = await startSandbox({ bluesky: false });
  ctx = await createTestApp({ env: { HERALD_SANDBOX: 'on' }, deps: { sandbox } });
  media = await startMediaServer();
  t = await createTenant(ctx);
  const profileId = await createProfile(ctx, t);
  const { done } = await oauthConnect(ctx, t, 'reddit', profileId);
  expect(done.statusCode, done.body).toBe(302);
  reddit = new URL(done.headers.location as string).searchParams.get('accountId')!;
}, 120_000);
afterAll(async () => { await media?.close(); await ctx?.close(); await sandbox?.close(); });

const validate = (payload: object, headers: Record<string, string> = t.headers) => ctx.app.inject({ method: 'POST', url: '/v1/tools/validate/media', headers, payload });
const subreddit = (query: string, headers: Record<string, string> = t.headers) => ctx.app.inject({ method: 'GET', url: `/v1/tools/validate/subreddit?${query}`, headers });

describe('POST /v1/tools/validate/media', () => {
  it('reads an image\'s type and pixel size, and judges it per platform (a PNG is not Instagram\'s)', async () => {
    const url = media.put('/square.png', makeImage({ format: 'png', width: 1000, height: 1000 }), 'image/png');
    const res = await validate({ url });
    expect(res.statusCode, res.body).toBe(200);
    const b = res.json();
    expect(b).toMatchObject({ valid: true, url, type: 'image', mediaType: 'image', contentType: 'image/png', width: 1000, height: 1000 });
    expect(b.size).toBeGreaterThan(0);
    expect(b.platforms.bluesky).toEqual({ valid: true, errors: [] });
    expect(b.platforms.instagram.errors.map((e: { rule: string }) => e.rule)).toContain('instagram.image.format');
    expect(b.platformLimits.bluesky).toMatchObject({ limit: BLUESKY_MAX_IMAGE_BYTES, withinLimit: true });
    // Naming Instagram makes its verdict decide `valid`.
    const strict = await validate({ url, platforms: ['instagram', 'bluesky'] });
    expect(strict.json()).toMatchObject({ valid: false, error: expect.stringMatching(/^instagram: .*JPEG/) });
    expect(Object.keys(strict.json().platforms).sort()).toEqual(['bluesky', 'instagram']);
  });

  it('compares the size with each platform\'s cap (just over Bluesky\'s image limit)', async () => {
    const url = media.put('/big.jpg', makeImage({ format: 'jpeg', width: 1080, height: 1080, minBytes: BLUESKY_MAX_IMAGE_BYTES + 1 }), 'image/jpeg');
    const b = (await validate({ url, platforms: ['bluesky', 'instagram'] })).json();
    expect(b).toMatchObject({ valid: false, size: expect.any(Number), platformLimits: { bluesky: { withinLimit: false }, instagram: { withinLimit: true } } });
    expect(b.platforms.bluesky.valid).toBe(false);
    expect(b.platforms.instagram).toEqual({ valid: true, errors: [] });
  });

  it('reads a video\'s duration with ffprobe: 2 seconds is too short for an Instagram reel, fine for YouTube', async () => {
    const url = media.put('/clip.mp4', makeVideo({ seconds: 2, width: 320, height: 240 }), 'video/mp4');
    const b = (await validate({ url, platforms: ['youtube', 'instagram'] })).json();
    expect(b).toMatchObject({ valid: false, type: 'video', mediaType: 'video', width: 320, height: 240 });
    expect(b.duration).toBeCloseTo(2, 0);
    expect(b.platforms.youtube.valid).toBe(true);
    expect(b.platforms.instagram.errors.map((e: { rule: string }) => e.rule)).toContain('instagram.media.video_duration');
  });

  it('answers valid: false with the reason for a missing file and for a file that is not media', async () => {
    expect((await validate({ url: `${media.url}/nothing.png` })).json()).toMatchObject({ valid: false, type: 'unknown', size: null, error: expect.stringContaining('could not be read') });
    const text = media.put('/notes.txt', Buffer.from('just text, not media'), 'text/plain');
    expect((await validate({ url: text })).json()).toMatchObject({ valid: false, type: 'unknown', error: expect.stringContaining('not an image or video') });
  });

  it('refuses malformed input with 400 naming the field, and writes nothing', async () => {
    for (const [payload, field] of [[{ url: 'ftp://example.com/a.png' }, 'url'], [{}, 'url'], [{ url: 'https://example.com/a.png', platforms: ['myspace'] }, 'platforms.0']] as const) {
      const res = await validate(payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json().details.fields)).toContain(field);
    }
  });

  it('goes through the SSRF guard: a private address is not fetched when private URLs are not allowed', async () => {
    const strict = await createTestApp({ env: { HERALD_ALLOW_PRIVATE_URLS: 'false' } });
    try {
      const who = await createTenant(strict);
      const url = media.put('/private.png', makeImage({ format: 'png', width: 10, height: 10 }), 'image/png');
      const res = await strict.app.inject({ method: 'POST', url: '/v1/tools/validate/media', headers: who.headers, payload: { url } });
      expect(res.json()).toMatchObject({ valid: false, error: expect.stringContaining('does not fetch') });
    } finally {
      await strict.close();
    }
  });
  it('reads one of Herald\'s own media URLs from storage, even where the SSRF guard refuses its address (a local install)', async () => {
    const strict = await createTestApp({ env: { HERALD_ALLOW_PRIVATE_URLS: 'false' } });
    try {
      const owner = await createTenant(strict);
      const body = multipart('files', [{ filename: 'own.png', contentType: 'image/png', data: makeImage({ format: 'png', width: 640, height: 480 }) }]);
      const up = await strict.app.inject({ method: 'POST', url: '/v1/media', headers: { ...owner.headers, 'content-type': body.contentType }, payload: body.payload });
      expect(up.statusCode, up.body).toBe(200);
      const own = up.json().files[0].url as string;
      expect(new URL(own).hostname).toBe('127.0.0.1');
      const res = await strict.app.inject({ method: 'POST', url: '/v1/tools/validate/media', headers: owner.headers, payload: { url: own } });
      expect(res.json()).toMatchObject({ valid: true, contentType: 'image/png', width: 640, height: 480 });
      // A foreign URL on a private address is still refused.
      const foreign = await strict.app.inject({ method: 'POST', url: '/v1/tools/validate/media', headers: owner.headers, payload: { url: media.put('/other.png', makeImage({ format: 'png', width: 10, height: 10 }), 'image/png') } });
      expect(foreign.json()).toMatchObject({ valid: false, error: expect.stringMatching(/^Herald does not fetch this URL/) });
    } finally {
      await strict.close();
    }
  });
});

describe('GET /v1/tools/validate/subreddit', () => {
  it('a public subreddit: exists, takes posts, with its rules', async () => {
    const res = await subreddit(`name=r/test&accountId=${reddit}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      exists: true, acceptsPosts: true, flairRequired: false,
      subreddit: { name: 'test', title: 'Testing ground', type: 'public', isNSFW: false, allowImages: true, allowVideos: true, submissionType: 'any' },
      rules: { submissionType: 'any' },
    });
  });

  it('flair and text-only requirements come from the subreddit\'s rules', async () => {
    expect((await subreddit(`name=flairreq&accountId=${reddit}`)).json()).toMatchObject({ exists: true, acceptsPosts: true, flairRequired: true, rules: { flairRequired: true } });
    expect((await subreddit(`name=selfonly&accountId=${reddit}`)).json()).toMatchObject({ subreddit: { submissionType: 'self', allowImages: false }, rules: { submissionType: 'self' } });
  });

  it('a subreddit that does not exist, and a restricted one the account may not post to', async () => {
    expect((await subreddit(`name=nosuchplace&accountId=${reddit}`)).json()).toMatchObject({ exists: false, acceptsPosts: false, error: expect.any(String) });
    expect((await subreddit(`name=approvedonly&accountId=${reddit}`)).json()).toMatchObject({
      exists: true, acceptsPosts: false, subreddit: { type: 'restricted' }, error: expect.stringContaining('approved'),
    });
  });

  it('without accountId, reads with the caller\'s Reddit account; 400 naming accountId when there is none', async () => {
    expect((await subreddit('name=test')).json()).toMatchObject({ exists: true, subreddit: { name: 'test' } });
    const other = await createTenant(ctx);
    const res = await subreddit('name=test', other.headers);
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json().details.fields)).toEqual(['accountId']);
  });

  it('400 naming the field for a bad name; 400 for an account of another platform; 404 for another tenant\'s', async () => {
    for (const [q, field] of [[`name=no spaces&accountId=${reddit}`, 'name'], [`accountId=${reddit}`, 'name'], ['name=test&accountId=nope', 'accountId']] as const) {
      const res = await subreddit(q);
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json().details.fields)).toContain(field);
    }
    const bluesky = await insertAccount(ctx, t, await createProfile(ctx, t), 'bluesky');
    expect((await subreddit(`name=test&accountId=${bluesky}`)).statusCode).toBe(400);
    const other = await createTenant(ctx);
    expect((await subreddit(`name=test&accountId=${reddit}`, other.headers)).statusCode).toBe(404);
  });
});
