/**
 * AI video clipping through the real app: the four routes, the pipeline on videos made with
 * ffmpeg (a loud, busy stretch between still, silent ones must be the clip), the output format
 * (9:16 H.264/AAC, fast start), the watermark only on free-tier clips, monthly limits, expiry
 * and cleanup, failures with their reasons, and SSRF refusals.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { freePort, waitFor } from '../support/net.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { startClipWorker, type ClipWorker } from '../../src/clips/worker.ts';
import { bandPsnr, isFastStart, makeVideo, probeClip } from './support.ts';

let ctx: TestContext;
let media: MediaServer;
let dir: string;
let worker: ClipWorker | null = null;
let sourceUrl: string;
let sourceBytes: Buffer;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-clips-'));
  const port = await freePort();
  ctx = await createTestApp({ listen: true, env: { PORT: String(port), HERALD_CLIPS_PRESET: 'ultrafast', HERALD_CLIPS_OUTPUT_HEIGHT: '640' } });
  media = await startMediaServer();
  // 100 s: 40 s still and silent, 30 s loud and busy (40-70 s), 30 s still and silent.
  await makeVideo(path.join(dir, 'source.mp4'), [{ kind: 'still', seconds: 40 }, { kind: 'busy', seconds: 30 }, { kind: 'still', seconds: 30, colour: 'gray' }]);
  sourceBytes = fs.readFileSync(path.join(dir, 'source.mp4'));
  sourceUrl = media.put('/source.mp4', sourceBytes, 'video/mp4');
});

afterAll(async () => {
  await worker?.stop();
  await media?.close();
  await ctx?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const submit = (t: Tenant, body: Record<string, unknown>) =>
  ctx.app.inject({ method: 'POST', url: '/v1/video-clips/process', headers: t.headers, payload: body });
const status = (t: Tenant, jobId: string) => ctx.app.inject({ method: 'GET', url: `/v1/video-clips/status/${jobId}`, headers: t.headers });
const stats = async (t: Tenant) => (await ctx.app.inject({ method: 'GET', url: '/v1/video-clips/monthly-stats', headers: t.headers })).json();

function runWorker(): void {
  worker ??= startClipWorker({ clips: ctx.services.videoClips, workerId: `clips-test-${process.pid}`, concurrency: 1, staleMs: 30_000, pollMs: 100 });
}

async function finished(t: Tenant, jobId: string) {
  return waitFor(async () => {
    const body = (await status(t, jobId)).json();
    return body.status === 'processing' ? null : body;
  }, { timeoutMs: 90_000, intervalMs: 200, what: `clip job ${jobId} to finish` });
}

async function download(url: string, name: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  const file = path.join(dir, name);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

/** Uploads bytes through POST /v1/media (multipart) and returns the Herald media URL. */
async function uploadVideo(t: Tenant, bytes: Buffer): Promise<string> {
  const boundary = `----herald-${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="talk.mp4"\r\nContent-Type: video/mp4\r\n\r\n`),
    bytes, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
  expect(res.statusCode).toBe(200);
  return res.json().files[0].url;
}

describe('the clip pipeline', () => {
  let free: Tenant;
  let paid: Tenant;
  let freeJob: Record<string, any>;
  let paidJob: Record<string, any>;

  it('picks the loud, busy stretch and renders 9:16 H.264/AAC clips; the watermark only on the free tier', async () => {
    free = await createTenant(ctx, { plan: 'free' });
    paid = await createTenant(ctx, { plan: 'free', addons: ['clips'] });
    const a = await submit(free, { video_url: sourceUrl, video_file_name: 'talk.mp4' });
    expect(a.statusCode).toBe(200);
    expect(a.json()).toMatchObject({ success: true, status: 'processing', message: 'Video submitted for processing' });
    // The add-on tenant's source is its own upload (a Herald media URL).
    const b = await submit(paid, { video_url: await uploadVideo(paid, sourceBytes) });
    expect(b.statusCode).toBe(200);
    const queued = (await status(free, a.json().job_id)).json();
    expect(queued).toMatchObject({ status: 'processing', total_clips: 0, clips: [], progress: { stage: 'queued', percent: 0 } });

    runWorker();
    freeJob = await finished(free, a.json().job_id);
    paidJob = await finished(paid, b.json().job_id);
    for (const job of [freeJob, paidJob]) {
      expect(job).toMatchObject({ status: 'completed', total_clips: 1, error: null, progress: { stage: 'done', percent: 100 } });
      const clip = job.clips[0];
      expect(clip.index).toBe(1);
      expect(clip.start_time).toBeGreaterThanOrEqual(38);
      expect(clip.start_time).toBeLessThanOrEqual(42);
      expect(clip.end_time).toBeGreaterThanOrEqual(68);
      expect(clip.end_time).toBeLessThanOrEqual(72);
      expect(clip.duration).toBeCloseTo(clip.end_time - clip.start_time, 1);
      expect(new Date(clip.expiresAt).getTime() - Date.now()).toBeGreaterThan(71 * 3600_000);
    }
    expect(freeJob.watermark).toBe(true);
    expect(freeJob.clips[0].cleanUrl).toBeNull();
    expect(freeJob.clips[0].url).toBe(freeJob.clips[0].watermarkUrl);
    expect(paidJob.watermark).toBe(false);
    expect(paidJob.video_file_name).toBe('talk.mp4');
    expect(paidJob.clips[0].watermarkUrl).toBeNull();
    expect(paidJob.clips[0].url).toBe(paidJob.clips[0].cleanUrl);

    const marked = await download(freeJob.clips[0].url, 'marked.mp4');
    const clean = await download(paidJob.clips[0].url, 'clean.mp4');
    for (const [file, job] of [[marked, freeJob], [clean, paidJob]] as const) {
      const p = await probeClip(file);
      expect(p).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac', width: 360, height: 640 });
      expect(p.duration).toBeGreaterThan(job.clips[0].duration - 0.5);
      expect(p.duration).toBeLessThan(job.clips[0].duration + 0.5);
      expect(isFastStart(fs.readFileSync(file))).toBe(true);
    }
    // Same window, same pipeline: the frames differ only where the watermark is (lower part of the frame).
    expect(await bandPsnr(marked, clean, 5, [0, 0.6])).toBeGreaterThan(35);
    expect(await bandPsnr(marked, clean, 5, [0.8, 0.95])).toBeLessThan(25);
    const thumb = await fetch(freeJob.clips[0].thumbnailUrl);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
  }, 120_000);

  it('lists jobs newest first with pagination', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/video-clips/jobs', headers: free.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().pagination).toEqual({ page: 1, limit: 20, total: 1, pages: 1 });
    expect(res.json().jobs[0].job_id).toBe(freeJob.job_id);
    const big = await ctx.app.inject({ method: 'GET', url: '/v1/video-clips/jobs?limit=500&page=2', headers: free.headers });
    expect(big.json().pagination).toEqual({ page: 2, limit: 100, total: 1, pages: 1 });
    expect(big.json().jobs).toEqual([]);
  });

  it('another tenant cannot see a job (404)', async () => {
    expect((await status(paid, freeJob.job_id)).statusCode).toBe(404);
  });

  it('deletes expired clips unless a post uses them', async () => {
    const profileId = await createProfile(ctx, paid);
    const accountId = await insertAccount(ctx, paid, profileId);
    const post = await ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: paid.headers,
      payload: { content: 'highlight', isDraft: true, mediaItems: [{ type: 'video', url: paidJob.clips[0].url }], platforms: [{ platform: 'bluesky', accountId }] },
    });
    expect(post.statusCode).toBe(201);
    await ctx.db.query(`UPDATE video_clips SET expires_at = now() - interval '1 minute'`);
    const marked = path.join(ctx.dataDir, 'media', new URL(freeJob.clips[0].url).pathname.replace(/^\/media\//, ''));
    expect(fs.existsSync(marked)).toBe(true);

    expect(await ctx.services.videoClips.cleanupExpired()).toEqual({ deleted: 1, kept: 1 });
    expect(fs.existsSync(marked)).toBe(false);
    expect((await fetch(freeJob.clips[0].url)).status).toBe(404);
    expect((await status(free, freeJob.job_id)).json()).toMatchObject({ status: 'completed', total_clips: 0, clips: [] });
    const kept = (await status(paid, paidJob.job_id)).json();
    expect(kept.total_clips).toBe(1);
    expect(new Date(kept.clips[0].expiresAt).getTime()).toBeGreaterThan(Date.now());
    expect((await fetch(kept.clips[0].url)).status).toBe(200);
  });

  it('fails a job with the reason: no audio track, unreadable file', async () => {
    const t = await createTenant(ctx, { plan: 'free' });
    await makeVideo(path.join(dir, 'mute.mp4'), [{ kind: 'busy', seconds: 20 }], { audio: false });
    const mute = await submit(t, { video_url: media.put('/mute.mp4', fs.readFileSync(path.join(dir, 'mute.mp4')), 'video/mp4'), video_file_name: 'mute.mp4' });
    // Not random bytes: now and then ffmpeg reads a stream out of random data (then it says "no audio track").
    const junk = await submit(t, { video_url: media.put('/junk.mp4', Buffer.alloc(200_000, 0), 'video/mp4'), video_file_name: 'junk.mp4' });
    expect((await finished(t, mute.json().job_id))).toMatchObject({ status: 'failed', total_clips: 0, error: expect.stringMatching(/^no audio track/) });
    expect((await finished(t, junk.json().job_id))).toMatchObject({ status: 'failed', error: expect.stringMatching(/^unreadable file/) });
    // Failed jobs do not use the month's allowance.
    expect((await stats(t)).current).toBe(0);
  }, 120_000);

  it('refuses a video shorter than 15 s, a non-video and a dead link at once (400 on video_url)', async () => {
    const t = await createTenant(ctx, { plan: 'free' });
    await makeVideo(path.join(dir, 'short.mp4'), [{ kind: 'busy', seconds: 8 }]);
    const short = await submit(t, { video_url: media.put('/short.mp4', fs.readFileSync(path.join(dir, 'short.mp4')), 'video/mp4'), video_file_name: 'short.mp4' });
    expect(short.statusCode).toBe(400);
    expect(short.json().details.fields.video_url[0]).toMatch(/too short: 8\.\d s/);
    const page = await submit(t, { video_url: media.put('/page.html', Buffer.from('<html></html>'), 'text/html'), video_file_name: 'x.mp4' });
    expect(page.json().details.fields.video_url[0]).toMatch(/not a video/);
    const dead = await submit(t, { video_url: `${media.url}/missing.mp4`, video_file_name: 'x.mp4' });
    expect(dead.json().details.fields.video_url[0]).toMatch(/HTTP 404/);
    const bad = await submit(t, { video_file_name: 'x.mp4' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.fields).toHaveProperty('video_url');
  });
});

describe('monthly allowance', () => {
  it('free tier: 5 videos a month, then 403 with the numbers', async () => {
    await worker?.stop();
    worker = null;
    const t = await createTenant(ctx, { plan: 'free' });
    expect(await stats(t)).toEqual({ current: 0, limit: 5, remaining: 5, canCreate: true, hasAddon: false, message: 'Free tier (with watermark)' });
    for (let i = 0; i < 5; i++) expect((await submit(t, { video_url: sourceUrl, video_file_name: `v${i}.mp4` })).statusCode).toBe(200);
    expect(await stats(t)).toMatchObject({ current: 5, limit: 5, remaining: 0, canCreate: false, hasAddon: false });
    const over = await submit(t, { video_url: sourceUrl, video_file_name: 'v6.mp4' });
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ code: 'PLAN_LIMIT_REACHED', limit: 5, current: 5, remaining: 0, hasAddon: false, details: { resource: 'video-clips', limit: 5, currentUsage: 5, window: 'month' } });
    expect(over.json().error).toBe('Clip limit reached. The free tier allows 5 videos per month. You have used 5.');
    // Jobs of an earlier month do not count.
    await ctx.db.query(`UPDATE clip_jobs SET created_at = date_trunc('month', now()) - interval '1 day' WHERE tenant_id = $1`, [t.userId]);
    expect((await stats(t)).current).toBe(0);
  });

  it('the clips add-on: credits and no watermark', async () => {
    const t = await createTenant(ctx, { plan: 'free', addons: ['clips'] });
    expect(await stats(t)).toEqual({ current: 0, limit: 50, remaining: 50, canCreate: true, hasAddon: true, message: 'AI Clipping add-on (50 credits per month, no watermark)' });
  });
});

describe('SSRF guard on video_url', () => {
  let strict: TestContext;
  let t: Tenant;
  beforeAll(async () => {
    strict = await createTestApp({ env: { HERALD_ALLOW_PRIVATE_URLS: 'false' } });
    const { userId } = await strict.services.users.createRootUser({ email: `ssrf${Date.now()}@example.test`, plan: 'free' });
    const key = await strict.services.apiKeys.create({ tenantId: userId, userId }, { name: 't' });
    t = { userId, apiKey: key.key, headers: { authorization: `Bearer ${key.key}` } };
  });
  afterAll(async () => { await strict?.close(); });

  it.each([
    ['loopback', 'https://127.0.0.1/video.mp4', /private or reserved/],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data', /private or reserved/],
    ['a name resolving to loopback', 'https://localhost/video.mp4', /resolves to a private or reserved address/],
    ['plain http', 'http://example.com/video.mp4', /must be an https URL/],
    ['file scheme', 'file:///etc/passwd', /only http and https/],
  ])('refuses %s with 400 on video_url, queuing nothing', async (_what, url, rule) => {
    const res = await strict.app.inject({ method: 'POST', url: '/v1/video-clips/process', headers: t.headers, payload: { video_url: url, video_file_name: 'x.mp4' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields.video_url[0]).toMatch(rule);
    const { rows } = await strict.db.query('SELECT count(*)::int AS n FROM clip_jobs');
    expect(rows[0].n).toBe(0);
  });
});
