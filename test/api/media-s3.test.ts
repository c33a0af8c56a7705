/**
 * Media on S3-compatible storage (HERALD_STORAGE=s3) against a local s3rver (which
 * stores objects but does not verify signatures; signing is tested in
 * src/storage/s3-storage.test.ts): both upload flows land in the bucket with the right
 * content type and bytes, media URLs are presigned GET URLs (or the public base URL),
 * the publisher can read its own URLs back, refused uploads leave nothing in the bucket.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import S3rver from 's3rver';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mediaMetadataByUrl } from '../../src/modules/media/lookup.ts';
import { fetchGuarded } from '../../src/publishing/fetch-media.ts';
import { createTenant, createTestApp, type TestContext } from '../support/app.ts';
import { makePng } from '../support/png.ts';
import { makeVideo, tusPatch } from '../support/media.ts';
import { freePort } from '../support/net.ts';
import { verifyPresignedUrl } from '../support/sigv4.ts';

const BUCKET = 'herald-media';
let s3rver: S3rver;
let s3dir: string;
let s3endpoint: string;
let s3: S3Client;
let ctx: TestContext;
let pub: TestContext;

const s3env = () => ({
  HERALD_STORAGE: 's3', HERALD_S3_BUCKET: BUCKET, HERALD_S3_ENDPOINT: s3endpoint, HERALD_S3_REGION: 'eu-west-3',
  HERALD_S3_ACCESS_KEY_ID: 'S3RVER', HERALD_S3_SECRET_ACCESS_KEY: 'S3RVER', HERALD_S3_FORCE_PATH_STYLE: 'true',
});

beforeAll(async () => {
  s3dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-s3rver-'));
  s3rver = new S3rver({ port: 0, address: '127.0.0.1', directory: s3dir, silent: true, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = await s3rver.run();
  s3endpoint = `http://127.0.0.1:${port}`;
  s3 = new S3Client({ endpoint: s3endpoint, region: 'eu-west-3', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const apiPort = await freePort();
  ctx = await createTestApp({ listen: true, env: { PORT: String(apiPort), ...s3env() } });
  pub = await createTestApp({ env: { ...s3env(), HERALD_S3_PUBLIC_URL: `${s3endpoint}/${BUCKET}` } });
});
afterAll(async () => {
  await ctx?.close();
  await pub?.close();
  s3.destroy();
  await s3rver?.close();
  fs.rmSync(s3dir, { recursive: true, force: true });
});

async function keysUnder(prefix: string): Promise<string[]> {
  const res = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (res.Contents ?? []).map((o) => o.Key!).sort();
}
async function objectBytes(key: string): Promise<Buffer> {
  const res = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return Buffer.from(await res.Body!.transformToByteArray());
}
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('HERALD_STORAGE=s3', () => {
  it('multipart: the file lands in the bucket with its content type; the URL is a presigned GET URL that serves it', async () => {
    const t = await createTenant(ctx);
    const png = makePng(8, 8);
    const boundary = '----herald-s3';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="pixel.png"\r\nContent-Type: image/png\r\n\r\n`), png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(res.statusCode, res.body).toBe(200);
    const [file] = res.json().files;
    expect(file).toMatchObject({ type: 'image', filename: 'pixel.png', size: png.length, mimeType: 'image/png' });

    const u = new URL(file.url);
    expect(`${u.origin}${u.pathname}`).toMatch(new RegExp(`^${s3endpoint}/${BUCKET}/${t.userId}/[0-9a-f]{24}/[0-9a-f]{32}-pixel\\.png$`));
    expect(verifyPresignedUrl(file.url, 'S3RVER')).toMatchObject({ valid: true, accessKeyId: 'S3RVER', region: 'eu-west-3', expires: 604800 });

    const keys = await keysUnder(`${t.userId}/`);
    expect(keys).toEqual([decodeURIComponent(u.pathname.slice(`/${BUCKET}/`.length))]);
    const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: keys[0] }));
    expect(head.ContentType).toBe('image/png');
    const served = await fetch(file.url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);

    // Nothing of the upload stays on local disk.
    expect(fs.readdirSync(path.join(ctx.dataDir, 'uploads', 'multipart'))).toEqual([]);
    expect(fs.existsSync(path.join(ctx.dataDir, 'media', t.userId))).toBe(false);

    // The publisher reads its own URLs from the bucket with the configured credentials, even past the URL's expiry.
    const expired = file.url.replace(/X-Amz-Date=\d{8}T\d{6}Z/, 'X-Amz-Date=20200101T000000Z');
    const read = await fetchGuarded(ctx.services.mediaStorage, { url: expired, type: 'image' }, 1024 * 1024, { allowPrivate: false });
    expect(read).toEqual({ bytes: png, mimeType: 'image/png' });
    expect(await mediaMetadataByUrl(ctx.db, t.userId, file.url)).toMatchObject({ type: 'image', metadata: { width: 8, height: 8 } });
  });

  it('client upload (tus) of a 20 MB video: staged locally, then streamed to the bucket in parts; metadata read before', async () => {
    const t = await createTenant(ctx);
    // A real 2-second video followed by ~20 MB of padding (ignored by players and ffprobe), so S3 gets a multipart upload.
    const bytes = Buffer.concat([makeVideo({ seconds: 2, width: 240, height: 426 }), Buffer.alloc(20 * 1024 * 1024, 0)]);
    const start = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: t.headers, payload: { filename: 'story.mp4', contentType: 'video/mp4', size: bytes.length } });
    expect(start.statusCode, start.body).toBe(201);
    const tk = start.json();

    const half = Math.floor(bytes.length / 2);
    expect((await tusPatch(tk.uploadUrl, tk.token, 0, bytes.subarray(0, half))).status).toBe(204);
    const last = await tusPatch(tk.uploadUrl, tk.token, half, bytes.subarray(half));
    expect(last.status).toBe(200);
    const { files } = (await last.json()) as { files: Array<{ url: string; size: number; mimeType: string; type: string }> };
    expect(files[0]).toMatchObject({ type: 'video', size: bytes.length, mimeType: 'video/mp4', filename: 'story.mp4' });

    const keys = await keysUnder(`${t.userId}/`);
    expect(keys).toEqual([expect.stringMatching(new RegExp(`^${t.userId}/${tk.uploadId}/[0-9a-f]{32}-story\\.mp4$`))]);
    const key = keys[0];
    expect(sha(await objectBytes(key))).toBe(sha(bytes));
    expect((await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }))).ContentType).toBe('video/mp4');
    expect(fs.existsSync(path.join(ctx.dataDir, 'uploads', tk.uploadId))).toBe(false);

    const info = await mediaMetadataByUrl(ctx.db, t.userId, files[0].url);
    expect(info!.metadata).toMatchObject({ width: 240, height: 426, videoCodec: 'h264', audioCodec: 'aac' });
    expect(info!.metadata.duration).toBeGreaterThan(1.9);
  });

  it('a client upload whose bytes are not the declared type leaves nothing in the bucket', async () => {
    const t = await createTenant(ctx);
    const png = makePng(2, 2);
    const start = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: t.headers, payload: { filename: 'x.mp4', contentType: 'video/mp4', size: png.length } });
    const tk = start.json();
    const res = await tusPatch(tk.uploadUrl, tk.token, 0, png);
    expect(res.status).toBe(415);
    expect(await keysUnder(`${t.userId}/`)).toEqual([]);
  });

  it('with HERALD_S3_PUBLIC_URL, media URLs are the public base plus the key, and read back', async () => {
    const t = await createTenant(pub);
    const png = makePng(3, 3);
    const boundary = '----herald-pub';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`), png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await pub.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(res.statusCode, res.body).toBe(200);
    const { url } = res.json().files[0];
    expect(url).toMatch(new RegExp(`^${s3endpoint}/${BUCKET}/${t.userId}/[0-9a-f]{24}/[0-9a-f]{32}-p\\.png$`));
    expect(Buffer.from(await (await fetch(url)).arrayBuffer()).equals(png)).toBe(true);
    expect(await pub.services.mediaStorage.readByUrl(url, 1024)).toEqual({ bytes: png, mimeType: 'image/png' });
    await expect(pub.services.mediaStorage.readByUrl(url, 10)).rejects.toThrow(/allows at most 10/);
    expect(await pub.services.mediaStorage.readByUrl('https://example.com/x.png', 1024)).toBeNull();
  });
});
