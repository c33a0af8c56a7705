/**
 * Presigned uploads on S3-compatible storage (HERALD_STORAGE=s3; docs/decisions/0066-presigned-uploads.md)
 * against a local s3rver (which stores objects but does not verify signatures: the signatures are
 * verified here with the independent SigV4 implementation, test/support/sigv4.ts): the uploadUrl is
 * a SigV4 presigned PutObject URL valid one hour with Content-Type (and Content-Length when the size
 * is given) signed in; the client PUTs to the bucket, and the upload becomes a library file under the
 * reserved key when Herald finds the object (before GET /v1/media lists the library, and in the
 * worker's cleanup), after checking its bytes; an object of another type is deleted.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import S3rver from 's3rver';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createTenant, createTestApp, type TestContext } from '../support/app.ts';
import { makePng } from '../support/png.ts';
import { verifyPresignedUrl } from '../support/sigv4.ts';

const BUCKET = 'herald-media';
let s3rver: S3rver;
let s3dir: string;
let s3endpoint: string;
let s3: S3Client;
let ctx: TestContext;

beforeAll(async () => {
  s3dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-s3rver-'));
  s3rver = new S3rver({ port: 0, address: '127.0.0.1', directory: s3dir, silent: true, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = await s3rver.run();
  s3endpoint = `http://127.0.0.1:${port}`;
  s3 = new S3Client({ endpoint: s3endpoint, region: 'eu-west-3', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  ctx = await createTestApp({ env: {
    HERALD_STORAGE: 's3', HERALD_S3_BUCKET: BUCKET, HERALD_S3_ENDPOINT: s3endpoint, HERALD_S3_REGION: 'eu-west-3',
    HERALD_S3_ACCESS_KEY_ID: 'S3RVER', HERALD_S3_SECRET_ACCESS_KEY: 'S3RVER', HERALD_S3_FORCE_PATH_STYLE: 'true',
  } });
});
afterAll(async () => {
  await ctx?.close();
  s3?.destroy();
  await s3rver?.close();
  fs.rmSync(s3dir, { recursive: true, force: true });
});

const keysUnder = async (prefix: string) => ((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }))).Contents ?? []).map((o) => o.Key!);
const uploadRow = async (key: string) => (await ctx.db.query('SELECT status, error, media_file_id FROM media_uploads WHERE storage_key = $1', [key])).rows[0];

describe('POST /v1/media/presign with HERALD_STORAGE=s3', () => {
  it('answers a presigned PutObject URL (1 hour, Content-Type and Content-Length signed); the object becomes a library file at publicUrl\'s key', async () => {
    const t = await createTenant(ctx);
    const png = makePng(12, 12, 'noise');
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/media/presign', headers: t.headers, payload: { filename: 'shot.png', contentType: 'image/png', size: png.length } });
    expect(res.statusCode, res.body).toBe(200);
    const tk = res.json();
    expect(tk).toMatchObject({ expiresIn: 3600, type: 'image', key: expect.stringMatching(new RegExp(`^${t.userId}/[0-9a-f]{24}/[0-9a-f]{32}-shot\\.png$`)) });
    const u = new URL(tk.uploadUrl);
    expect(`${u.origin}${u.pathname}`).toBe(`${s3endpoint}/${BUCKET}/${tk.key}`);
    const headers = { 'content-type': 'image/png', 'content-length': String(png.length) };
    expect(verifyPresignedUrl(tk.uploadUrl, 'S3RVER', { method: 'PUT', headers })).toMatchObject({
      valid: true, accessKeyId: 'S3RVER', region: 'eu-west-3', service: 's3', expires: 3600, signedHeaders: ['content-length', 'content-type', 'host'],
    });
    // Another type or length would not match the signature (S3 answers 403 SignatureDoesNotMatch).
    expect(verifyPresignedUrl(tk.uploadUrl, 'S3RVER', { method: 'PUT', headers: { ...headers, 'content-type': 'image/jpeg' } }).valid).toBe(false);
    expect(verifyPresignedUrl(tk.uploadUrl, 'S3RVER', { method: 'PUT', headers: { ...headers, 'content-length': String(png.length + 1) } }).valid).toBe(false);
    // publicUrl: the presigned GET URL of the same key.
    const pu = new URL(tk.publicUrl);
    expect(`${pu.origin}${pu.pathname}`).toBe(`${s3endpoint}/${BUCKET}/${tk.key}`);
    expect(verifyPresignedUrl(tk.publicUrl, 'S3RVER').valid).toBe(true);

    // Not there yet: the library is empty and the upload stays open.
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/media', headers: t.headers })).json().files).toEqual([]);
    expect(await uploadRow(tk.key)).toMatchObject({ status: 'pending' });

    const put = await fetch(tk.uploadUrl, { method: 'PUT', body: png, headers: { 'content-type': 'image/png' } });
    expect(put.status).toBe(200);
    expect((await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: tk.key }))).ContentType).toBe('image/png');

    const files = (await ctx.app.inject({ method: 'GET', url: '/v1/media', headers: t.headers })).json().files;
    expect(files).toEqual([expect.objectContaining({ filename: 'shot.png', type: 'image', mimeType: 'image/png', size: png.length, width: 12, height: 12 })]);
    const fu = new URL(files[0].url);
    expect(`${fu.origin}${fu.pathname}`).toBe(`${pu.origin}${pu.pathname}`);
    expect(await uploadRow(tk.key)).toMatchObject({ status: 'completed', media_file_id: files[0]._id });
    expect(await keysUnder(`${t.userId}/`)).toEqual([tk.key]);
    expect(fs.readdirSync(path.join(ctx.dataDir, 'uploads', 'multipart'))).toEqual([]);
  });

  it('an object that is not the declared type is deleted when Herald finds it; an unused URL expires', async () => {
    const t = await createTenant(ctx);
    const bad = await ctx.app.inject({ method: 'POST', url: '/v1/media/presign', headers: t.headers, payload: { filename: 'x.png', contentType: 'image/png' } });
    const tk = bad.json();
    const put = await fetch(tk.uploadUrl, { method: 'PUT', body: Buffer.from('%PDF-1.4\n%%EOF\n'), headers: { 'content-type': 'image/png' } });
    expect(put.status).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/media', headers: t.headers })).json().files).toEqual([]);
    expect(await uploadRow(tk.key)).toMatchObject({ status: 'failed', error: expect.stringContaining('not the declared image/png') });
    expect(await keysUnder(`${t.userId}/`)).toEqual([]);

    const unused = (await ctx.app.inject({ method: 'POST', url: '/v1/media/presign', headers: t.headers, payload: { filename: 'y.png', contentType: 'image/png' } })).json();
    await ctx.db.query(`UPDATE media_uploads SET expires_at = now() - interval '7 hours' WHERE storage_key = $1`, [unused.key]);
    expect(await ctx.services.presign.maintenance()).toMatchObject({ presigned: 0 });
    expect(await uploadRow(unused.key)).toMatchObject({ status: 'expired' });
  });

  it('after the URL expired the cleanup looks again: an object replaced after the check is checked again (deleted when not the declared type); an unchanged one stays', async () => {
    const t = await createTenant(ctx);
    const presign = async (filename: string) => (await ctx.app.inject({ method: 'POST', url: '/v1/media/presign', headers: t.headers, payload: { filename, contentType: 'image/png' } })).json();
    const kept = await presign('kept.png');
    const swapped = await presign('swapped.png');
    for (const tk of [kept, swapped]) expect((await fetch(tk.uploadUrl, { method: 'PUT', body: makePng(5, 5, 'noise'), headers: { 'content-type': 'image/png' } })).status).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/media', headers: t.headers })).json().files).toHaveLength(2);
    // The same URL PUTs again within its hour (S3 replaces the object): a PDF declared as PNG.
    expect((await fetch(swapped.uploadUrl, { method: 'PUT', body: Buffer.from('%PDF-1.4\n%%EOF\n'), headers: { 'content-type': 'image/png' } })).status).toBe(200);
    await ctx.db.query(`UPDATE media_uploads SET expires_at = now() - interval '7 hours' WHERE storage_key = ANY($1)`, [[kept.key, swapped.key]]);

    expect(await ctx.services.presign.maintenance()).toMatchObject({ presignedChanged: 1 });
    const files = (await ctx.app.inject({ method: 'GET', url: '/v1/media', headers: t.headers })).json().files;
    expect(files.map((f: { filename: string }) => f.filename)).toEqual(['kept.png']);
    expect(await uploadRow(swapped.key)).toMatchObject({ status: 'failed', error: expect.stringContaining('not the declared image/png') });
    expect(await uploadRow(kept.key)).toMatchObject({ status: 'completed' });
    expect(await keysUnder(`${t.userId}/`)).toEqual([kept.key]);
    // Seen once: the next cleanup does not look again.
    expect(await ctx.services.presign.maintenance()).toMatchObject({ presignedChanged: 0 });
  });
});
