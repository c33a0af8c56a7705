/**
 * AI clipping on S3-compatible storage (HERALD_STORAGE=s3, a local s3rver): the source is a
 * video uploaded to Herald (read back from the bucket), the clip and its thumbnail land in the
 * bucket under the job's prefix and are served by presigned URLs, and the expiry cleanup
 * deletes both objects.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import S3rver from 's3rver';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createTenant, createTestApp, type TestContext } from '../support/app.ts';
import { waitFor } from '../support/net.ts';
import { startClipWorker, type ClipWorker } from '../../src/clips/worker.ts';
import { makeVideo, probeClip } from './support.ts';

const BUCKET = 'herald-clips';
let s3rver: S3rver;
let s3dir: string;
let s3: S3Client;
let ctx: TestContext;
let worker: ClipWorker;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-clips-s3-'));
  s3dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-s3rver-'));
  s3rver = new S3rver({ port: 0, address: '127.0.0.1', directory: s3dir, silent: true, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = await s3rver.run();
  const endpoint = `http://127.0.0.1:${port}`;
  s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  ctx = await createTestApp({ env: {
    HERALD_STORAGE: 's3', HERALD_S3_BUCKET: BUCKET, HERALD_S3_ENDPOINT: endpoint, HERALD_S3_ACCESS_KEY_ID: 'S3RVER', HERALD_S3_SECRET_ACCESS_KEY: 'S3RVER',
    HERALD_S3_FORCE_PATH_STYLE: 'true', HERALD_CLIPS_PRESET: 'ultrafast', HERALD_CLIPS_OUTPUT_HEIGHT: '640',
  } });
  worker = startClipWorker({ clips: ctx.services.videoClips, workerId: `clips-s3-${process.pid}`, concurrency: 1, staleMs: 30_000, pollMs: 100 });
});

afterAll(async () => {
  await worker?.stop();
  await ctx?.close();
  s3?.destroy();
  await s3rver?.close();
  fs.rmSync(s3dir, { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
});

async function keysUnder(prefix: string): Promise<string[]> {
  const res = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (res.Contents ?? []).map((o) => o.Key!).sort();
}

describe('clips on S3', () => {
  it('reads an uploaded source from the bucket, stores clip and thumbnail there, and the cleanup deletes them', async () => {
    const t = await createTenant(ctx, { plan: 'free' });
    const file = path.join(dir, 'match.mp4');
    await makeVideo(file, [{ kind: 'still', seconds: 20 }, { kind: 'busy', seconds: 20 }, { kind: 'still', seconds: 20 }]);
    const boundary = `----herald-${randomBytes(8).toString('hex')}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="match.mp4"\r\nContent-Type: video/mp4\r\n\r\n`),
      fs.readFileSync(file), Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const up = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(up.statusCode).toBe(200);
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/video-clips/process', headers: t.headers, payload: { video_url: up.json().files[0].url } });
    expect(res.statusCode).toBe(200);
    const jobId = res.json().job_id;
    const job = await waitFor(async () => {
      const body = (await ctx.app.inject({ method: 'GET', url: `/v1/video-clips/status/${jobId}`, headers: t.headers })).json();
      return body.status === 'processing' ? null : body;
    }, { timeoutMs: 90_000, intervalMs: 200, what: 'the job' });
    expect(job).toMatchObject({ status: 'completed', total_clips: 1, video_file_name: 'match.mp4' });
    const clip = job.clips[0];
    expect(clip.start_time).toBeGreaterThanOrEqual(18);
    expect(clip.end_time).toBeLessThanOrEqual(42);
    const objects = await keysUnder(`${t.userId}/${jobId}/`);
    expect(objects).toHaveLength(2);
    expect(objects.map((k) => path.extname(k)).sort()).toEqual(['.jpg', '.mp4']);
    expect(new URL(clip.url).searchParams.get('X-Amz-Signature')).toBeTruthy();
    const local = path.join(dir, 'clip.mp4');
    fs.writeFileSync(local, Buffer.from(await (await fetch(clip.url)).arrayBuffer()));
    expect(await probeClip(local)).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac', width: 360, height: 640 });

    await ctx.db.query(`UPDATE video_clips SET expires_at = now() - interval '1 second' WHERE job_id = $1`, [jobId]);
    expect(await ctx.services.videoClips.cleanupExpired()).toEqual({ deleted: 1, kept: 0 });
    expect(await keysUnder(`${t.userId}/${jobId}/`)).toEqual([]);
  }, 120_000);
});
