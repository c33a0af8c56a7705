/**
 * Presigned uploads (POST /v1/media/presign, then one PUT to uploadUrl) and temporary files
 * (POST /v1/media/upload-direct) on local storage, through the real app over real HTTP
 * (docs/decisions/0066-presigned-uploads.md): the PUT's token is single use and expires, the
 * Content-Type header and the bytes must be the declared type, the size at most the declared one;
 * a refused PUT stores nothing; the publicUrl answered at presign time is the file's URL, even for
 * bytes already in the library. Temporary files stay out of the library and go after 7 days.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/http/log-redaction.ts';
import { createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';
import { makePng, multipart } from '../support/png.ts';
import { makeVideo } from '../support/media.ts';
import { freePort } from '../support/net.ts';

let ctx: TestContext;
let baseUrl: string;

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  ctx = await createTestApp({ listen: true, env: { PORT: String(port), HERALD_PUBLIC_URL: baseUrl } });
});
afterAll(async () => { await ctx?.close(); });

interface Ticket { uploadUrl: string; publicUrl: string; key: string; expiresIn: number; type: string }

async function presign(t: Tenant, body: Record<string, unknown>) {
  return ctx.app.inject({ method: 'POST', url: '/v1/media/presign', headers: t.headers, payload: body });
}
async function ticket(t: Tenant, body: Record<string, unknown>): Promise<Ticket> {
  const res = await presign(t, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const put = (url: string, body: Buffer | ReadableStream, contentType?: string, extra: RequestInit = {}) =>
  fetch(url, { method: 'PUT', body, headers: contentType ? { 'content-type': contentType } : {}, ...extra } as RequestInit);
const json = async (r: Response): Promise<any> => r.json();
const mediaRows = async (tenantId: string) => (await ctx.db.query('SELECT id, storage_key, filename, mime_type, size FROM media_files WHERE tenant_id = $1 ORDER BY created_at', [tenantId])).rows;
const stored = (key: string) => fs.existsSync(path.join(ctx.dataDir, 'media', key));

describe('POST /v1/media/presign then PUT uploadUrl (local storage)', () => {
  it('answers the PUT URL and the public URL; the PUT stores the file there, in the library; the URL takes one file', async () => {
    const t = await createTenant(ctx);
    const png = makePng(16, 16, 'noise');
    const tk = await ticket(t, { filename: 'Photo One.png', contentType: 'image/png', size: png.length });
    expect(tk).toMatchObject({ expiresIn: 3600, type: 'image' });
    expect(tk.key).toMatch(new RegExp(`^${t.userId}/[0-9a-f]{24}/[0-9a-f]{32}-Photo-One\\.png$`));
    expect(tk.publicUrl).toBe(`${baseUrl}/media/${tk.key}`);
    const u = new URL(tk.uploadUrl);
    expect(`${u.origin}${u.pathname}`).toMatch(new RegExp(`^${baseUrl}/uploads/presigned/[0-9a-f]{24}$`));
    expect(u.searchParams.get('token')).toMatch(/^ups_[A-Za-z0-9_-]{43}$/);
    expect(tk.uploadUrl).not.toContain(t.apiKey);
    // The request log never shows the token.
    expect(redactUrl(`${u.pathname}${u.search}`)).toBe(`${u.pathname}?token=[redacted]`);
    expect(await (await fetch(tk.publicUrl)).status).toBe(404);

    const res = await put(tk.uploadUrl, png, 'image/png');
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.files).toEqual([{ type: 'image', url: tk.publicUrl, filename: 'Photo One.png', size: png.length, mimeType: 'image/png' }]);
    const served = await fetch(tk.publicUrl);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);

    const library = (await ctx.app.inject({ method: 'GET', url: '/v1/media', headers: t.headers })).json().files;
    expect(library).toEqual([expect.objectContaining({ url: tk.publicUrl, filename: 'Photo One.png', width: 16, height: 16 })]);
    // The file is the presigning tenant's: another tenant neither lists nor reads it.
    const other = await createTenant(ctx);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/media', headers: other.headers })).json().files).toEqual([]);
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/media/${library[0]._id}`, headers: other.headers })).statusCode).toBe(404);

    const again = await put(tk.uploadUrl, makePng(4, 4), 'image/png');
    expect(again.status).toBe(409);
    expect(await json(again)).toMatchObject({ code: 'CONFLICT', error: expect.stringContaining('used already'), requestId: expect.any(String) });
    expect(await mediaRows(t.userId)).toHaveLength(1);
  });

  it('a PUT while another is still sending to the same URL is refused (409); the first one stores its file', async () => {
    const t = await createTenant(ctx);
    const tk = await ticket(t, { filename: 'race.png', contentType: 'image/png' });
    const png = makePng(64, 64, 'noise');
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    async function* slow() { yield png.subarray(0, 1000); await held; yield png.subarray(1000); }
    const first = put(tk.uploadUrl, Readable.toWeb(Readable.from(slow())) as ReadableStream, 'image/png', { duplex: 'half' } as RequestInit);
    // The first PUT has claimed the URL once its row says so.
    for (let i = 0; i < 100 && (await ctx.db.query(`SELECT status FROM media_uploads WHERE storage_key = $1`, [tk.key])).rows[0].status !== 'processing'; i++) await new Promise((r) => setTimeout(r, 20));
    const second = await put(tk.uploadUrl, makePng(4, 4), 'image/png');
    expect(second.status).toBe(409);
    expect((await json(second)).error).toMatch(/in use by another request/);
    release();
    expect((await first).status).toBe(200);
    expect((await mediaRows(t.userId)).map((r) => Number(r.size))).toEqual([png.length]);
  });

  it('bytes already in the library are stored again under the reserved key: publicUrl is the file\'s URL', async () => {
    const t = await createTenant(ctx);
    const png = makePng(8, 8, 'noise');
    const mp = multipart('files', [{ filename: 'first.png', contentType: 'image/png', data: png }]);
    const first = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, 'content-type': mp.contentType }, payload: mp.payload });
    expect(first.statusCode, first.body).toBe(200);
    const tk = await ticket(t, { filename: 'second.png', contentType: 'image/png' });
    const res = await put(tk.uploadUrl, png, 'image/png');
    expect(res.status).toBe(200);
    expect((await json(res)).files[0]).toMatchObject({ url: tk.publicUrl, filename: 'second.png' });
    expect(first.json().files[0].url).not.toBe(tk.publicUrl);
    expect((await fetch(tk.publicUrl)).status).toBe(200);
    expect(await mediaRows(t.userId)).toHaveLength(2);
  });

  it('refuses another Content-Type and bytes of another type with 415, storing nothing; the URL stays usable', async () => {
    const t = await createTenant(ctx);
    const png = makePng(8, 8);
    const tk = await ticket(t, { filename: 'p.png', contentType: 'image/png' });

    const wrongHeader = await put(tk.uploadUrl, png, 'image/jpeg');
    expect(wrongHeader.status).toBe(415);
    expect(await json(wrongHeader)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', details: { fields: { 'Content-Type': [expect.stringContaining('image/png')] } } });
    const noHeader = await put(tk.uploadUrl, png);
    expect(noHeader.status).toBe(415);

    const notPng = await put(tk.uploadUrl, Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1'), 'image/png');
    expect(notPng.status).toBe(415);
    expect(await json(notPng)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', details: { fields: { 'Content-Type': [expect.stringContaining('not the declared image/png')] } } });
    expect(await mediaRows(t.userId)).toEqual([]);
    expect(stored(tk.key)).toBe(false);
    expect(fs.readdirSync(path.join(ctx.dataDir, 'uploads', 'multipart'))).toEqual([]);

    expect((await put(tk.uploadUrl, png, 'image/png')).status).toBe(200);
    expect(stored(tk.key)).toBe(true);
  });

  it('refuses more bytes than the declared size (by Content-Length, and while streaming without it) with 413', async () => {
    const t = await createTenant(ctx);
    const png = makePng(32, 32, 'noise');
    const tk = await ticket(t, { filename: 'p.png', contentType: 'image/png', size: png.length - 1 });
    const byLength = await put(tk.uploadUrl, png, 'image/png');
    expect(byLength.status).toBe(413);
    expect(await json(byLength)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { limitBytes: png.length - 1 } });
    // Refused before the body was read: the connection closes instead of reading the rest.
    expect(byLength.headers.get('connection')).toBe('close');
    // Chunked (no Content-Length): the count while the bytes come decides.
    const chunked = await put(tk.uploadUrl, Readable.toWeb(Readable.from([png.subarray(0, 100), png.subarray(100)])) as ReadableStream, 'image/png', { duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await mediaRows(t.userId)).toEqual([]);
    expect(stored(tk.key)).toBe(false);
  });

  it('refuses a wrong or missing token (401), an expired URL (401), and names the rules of the presign body', async () => {
    const t = await createTenant(ctx);
    const tk = await ticket(t, { filename: 'p.png', contentType: 'image/png' });
    const png = makePng(4, 4);
    const u = new URL(tk.uploadUrl);
    u.searchParams.set('token', `ups_${'A'.repeat(43)}`);
    expect((await put(u.toString(), png, 'image/png')).status).toBe(401);
    u.searchParams.delete('token');
    const missing = await put(u.toString(), png, 'image/png');
    expect(missing.status).toBe(401);
    expect(await json(missing)).toMatchObject({ code: 'UNAUTHORIZED', requestId: expect.any(String) });
    // Another tenant's API key is no credential here.
    expect((await fetch(u.toString(), { method: 'PUT', body: png, headers: { 'content-type': 'image/png', ...t.headers } })).status).toBe(401);

    await ctx.db.query(`UPDATE media_uploads SET expires_at = now() - interval '1 second' WHERE storage_key = $1`, [tk.key]);
    const expired = await put(tk.uploadUrl, png, 'image/png');
    expect(expired.status).toBe(401);
    expect((await json(expired)).details.reason).toMatch(/expired/);
    expect(stored(tk.key)).toBe(false);

    const notAllowed = await presign(t, { filename: 'a.mp3', contentType: 'audio/mpeg' });
    expect(notAllowed.statusCode).toBe(415);
    expect(notAllowed.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', details: { fields: { contentType: [expect.any(String)] } } });
    const huge = await presign(t, { filename: 'big.mp4', contentType: 'video/mp4', size: 5 * 1024 ** 3 + 1 });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ code: 'file-too-large', maxSize: '5GB' });
    for (const [body, field] of [[{ filename: 'a.png', contentType: 'image/png', size: 0 }, 'size'], [{ contentType: 'image/png' }, 'filename'], [{ filename: 'a.png' }, 'contentType'], [{ filename: 'a.png', contentType: 'image/png', extra: 1 }, 'extra']] as const) {
      const res = await presign(t, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json().details.fields)).toContain(field);
    }
    expect((await ctx.db.query(`SELECT count(*)::int AS n FROM media_uploads WHERE tenant_id = $1`, [t.userId])).rows[0].n).toBe(1);
  });

  it('needs media:write', async () => {
    const t = await createTenant(ctx, { permissions: ['media:read'] });
    expect((await presign(t, { filename: 'p.png', contentType: 'image/png' })).statusCode).toBe(403);
    const mp = multipart('file', [{ filename: 'p.png', contentType: 'image/png', data: makePng(2, 2) }]);
    expect((await ctx.app.inject({ method: 'POST', url: '/v1/media/upload-direct', headers: { ...t.headers, 'content-type': mp.contentType }, payload: mp.payload })).statusCode).toBe(403);
  });

  it('a video is probed like any upload', async () => {
    const t = await createTenant(ctx);
    const video = makeVideo({ seconds: 1, width: 160, height: 120, rate: 10 });
    const tk = await ticket(t, { filename: 'clip.mp4', contentType: 'video/mp4', size: video.length });
    expect(tk.type).toBe('video');
    expect((await put(tk.uploadUrl, video, 'video/mp4')).status).toBe(200);
    const file = (await ctx.app.inject({ method: 'GET', url: '/v1/media', headers: t.headers })).json().files[0];
    expect(file).toMatchObject({ url: tk.publicUrl, type: 'video', width: 160, height: 120 });
  });
});

describe('POST /v1/media/upload-direct', () => {
  const direct = (t: Tenant, mp: { payload: Buffer; contentType: string }) =>
    ctx.app.inject({ method: 'POST', url: '/v1/media/upload-direct', headers: { ...t.headers, 'content-type': mp.contentType }, payload: mp.payload });
  /** A multipart body with the file in `file` and, after it (as the official client sends it), the field contentType. */
  function withField(file: { filename: string; contentType: string; data: Buffer }, contentType: string) {
    const mp = multipart('file', [file]);
    const boundary = mp.contentType.split('boundary=')[1];
    const payload = Buffer.concat([mp.payload.subarray(0, mp.payload.length - `--${boundary}--\r\n`.length),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="contentType"\r\n\r\n${contentType}\r\n--${boundary}--\r\n`)]);
    return { payload, contentType: mp.contentType };
  }

  it('stores a temporary file outside the library, served at its URL, deleted by the cleanup after 7 days', async () => {
    const t = await createTenant(ctx);
    const png = makePng(6, 6, 'noise');
    const res = await direct(t, multipart('file', [{ filename: 'tmp shot.png', contentType: 'application/octet-stream', data: png }]));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({ url: expect.stringMatching(new RegExp(`^${baseUrl}/media/tmp/${t.userId}/[0-9a-f]{24}/[0-9a-f]{32}-tmp-shot\\.png$`)), filename: expect.stringMatching(/^[0-9a-f]{32}-tmp-shot\.png$/), contentType: 'image/png', size: png.length });
    expect(body.url.endsWith(`/${body.filename}`)).toBe(true);
    expect((await fetch(body.url)).status).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/media', headers: t.headers })).json().files).toEqual([]);
    const { rows: [row] } = await ctx.db.query(`SELECT expires_at - created_at AS ttl FROM media_temp_files WHERE tenant_id = $1`, [t.userId]);
    expect(row.ttl).toMatchObject({ days: 7 });

    expect(await ctx.services.presign.maintenance()).toMatchObject({ tempFiles: 0 });
    await ctx.db.query(`UPDATE media_temp_files SET expires_at = now() - interval '1 second' WHERE tenant_id = $1`, [t.userId]);
    expect(await ctx.services.presign.maintenance()).toMatchObject({ tempFiles: 1 });
    expect((await fetch(body.url)).status).toBe(404);
    expect((await ctx.db.query(`SELECT 1 FROM media_temp_files WHERE tenant_id = $1`, [t.userId])).rowCount).toBe(0);
  });

  it('checks the type on the bytes (the contentType field overrides the part\'s), 25 MB at most, one file in "file"', async () => {
    const t = await createTenant(ctx);
    const png = makePng(4, 4);
    const asJpeg = await direct(t, withField({ filename: 'p.png', contentType: 'image/png', data: png }, 'image/jpeg'));
    expect(asJpeg.statusCode).toBe(415);
    expect(asJpeg.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', details: { fields: { file: [expect.stringContaining('image/jpeg')] } } });
    const asPng = await direct(t, withField({ filename: 'p.bin', contentType: 'application/octet-stream', data: png }, 'image/png'));
    expect(asPng.statusCode, asPng.body).toBe(200);
    expect(asPng.json()).toMatchObject({ contentType: 'image/png', filename: expect.stringMatching(/-p\.png$/) });

    const text = await direct(t, multipart('file', [{ filename: 'a.txt', contentType: 'text/plain', data: Buffer.from('hello') }]));
    expect(text.statusCode).toBe(415);
    const big = Buffer.concat([png, Buffer.alloc(25 * 1024 * 1024)]);
    const tooBig = await direct(t, multipart('file', [{ filename: 'big.png', contentType: 'image/png', data: big }]));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { limitBytes: 25 * 1024 * 1024 } });
    const wrongField = await direct(t, multipart('files', [{ filename: 'p.png', contentType: 'image/png', data: png }]));
    expect(wrongField.statusCode).toBe(400);
    expect(Object.keys(wrongField.json().details.fields)).toEqual(['files']);
    const json = await ctx.app.inject({ method: 'POST', url: '/v1/media/upload-direct', headers: t.headers, payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(Object.keys(json.json().details.fields)).toEqual(['(body)']);
    expect((await ctx.db.query(`SELECT count(*)::int AS n FROM media_temp_files WHERE tenant_id = $1`, [t.userId])).rows[0].n).toBe(1);
    expect(fs.readdirSync(path.join(ctx.dataDir, 'uploads', 'multipart'))).toEqual([]);
  });
});
