/**
 * The client-upload flow (POST /v1/media with JSON, then tus at /uploads/<id>) through
 * the real app over real HTTP, with local disk storage: a real tus client (tus-js-client)
 * and raw tus requests; resuming after a cut connection; 413 above 5 GB and 415 for a content
 * type not accepted (decision 0009); the
 * content type checked against the bytes after the upload (mismatch deletes the upload);
 * ffprobe metadata stored for both flows and found by URL.
 */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Upload as TusUpload } from 'tus-js-client';
import { mediaMetadataByUrl } from '../../src/modules/media/lookup.ts';
import { MAX_UPLOAD_BYTES } from '../../src/modules/media/service.ts';
import { createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';
import { makePng } from '../support/png.ts';
import { fakeMp4, makeVideo, tusHeaders, tusPatch } from '../support/media.ts';
import { freePort } from '../support/net.ts';

let ctx: TestContext;
let baseUrl: string;
let video: Buffer;

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  ctx = await createTestApp({ listen: true, env: { PORT: String(port) } });
  video = makeVideo({ seconds: 2, width: 320, height: 240, rate: 25 });
});
afterAll(async () => { await ctx.close(); });

interface Ticket { uploadId: string; token: string; uploadUrl: string; expiresAt: string; status: string; protocol: string; filename: string; contentType: string; size: number }

async function start(t: Tenant, body: Record<string, unknown>) {
  return ctx.app.inject({ method: 'POST', url: '/v1/media', headers: t.headers, payload: body });
}
async function ticket(t: Tenant, filename: string, contentType: string, size: number): Promise<Ticket> {
  const res = await start(t, { filename, contentType, size });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
/** A fetch response's JSON body (untyped, as in the assertions). */
const json = async (r: Response): Promise<any> => r.json();
const staged = (id: string) => path.join(ctx.dataDir, 'uploads', id);
const mediaFiles = async (tenantId: string) => (await ctx.db.query('SELECT id, filename, mime_type, type, size, metadata FROM media_files WHERE tenant_id = $1', [tenantId])).rows;

/** Uploads with tus-js-client (the reference tus client), in chunks; resolves with the final response's JSON. */
function tusClientUpload(tk: Ticket, bytes: Buffer, chunkSize: number): Promise<{ body: unknown; status: number; patches: number }> {
  let patches = 0;
  return new Promise((resolve, reject) => {
    const upload = new TusUpload(bytes, {
      uploadUrl: tk.uploadUrl,
      headers: { Authorization: `Bearer ${tk.token}` },
      chunkSize,
      retryDelays: [],
      onBeforeRequest: (req) => { if (req.getMethod() === 'PATCH') patches++; },
      onError: reject,
      onSuccess: (payload) => {
        const res = payload.lastResponse;
        resolve({ status: res.getStatus(), body: JSON.parse(res.getBody()), patches });
      },
    });
    upload.start();
  });
}

describe('POST /v1/media (JSON): starting a client upload', () => {
  it('answers 201 with token, uploadUrl, expiresAt and status, and creates the empty upload of the declared size', async () => {
    const t = await createTenant(ctx);
    const before = Date.now();
    const res = await start(t, { filename: 'clip.mp4', contentType: 'video/mp4', size: video.length });
    expect(res.statusCode, res.body).toBe(201);
    const tk = res.json();
    expect(tk).toEqual({
      uploadId: expect.stringMatching(/^[0-9a-f]{24}$/), token: expect.stringMatching(/^upl_[A-Za-z0-9_-]{43}$/),
      uploadUrl: `${baseUrl}/uploads/${tk.uploadId}`, expiresAt: expect.any(String), status: 'pending',
      protocol: 'tus', tusVersion: '1.0.0', filename: 'clip.mp4', contentType: 'video/mp4', size: video.length,
    });
    expect(res.headers.location).toBe(tk.uploadUrl);
    const ttl = Date.parse(tk.expiresAt) - before;
    expect(ttl).toBeGreaterThan(3590_000);
    expect(ttl).toBeLessThan(3610_000);
    expect(fs.statSync(staged(tk.uploadId)).size).toBe(0);
    const { rows } = await ctx.db.query('SELECT status, tenant_id, size, token_hash FROM media_uploads WHERE id = $1', [tk.uploadId]);
    expect(rows[0]).toMatchObject({ status: 'pending', tenant_id: t.userId, size: video.length });
    expect(rows[0].token_hash.toString('hex')).not.toContain(Buffer.from(tk.token).toString('hex')); // stored as a hash

    // tus HEAD: nothing received yet.
    const head = await fetch(tk.uploadUrl, { method: 'HEAD', headers: tusHeaders(tk.token) });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe('0');
    expect(head.headers.get('upload-length')).toBe(String(video.length));
    expect(head.headers.get('tus-resumable')).toBe('1.0.0');
  });

  it('accepts exactly 5GB and answers the file-too-large error above it (decision 0009)', async () => {
    const t = await createTenant(ctx);
    const ok = await start(t, { filename: 'max.mp4', contentType: 'video/mp4', size: MAX_UPLOAD_BYTES });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(fs.statSync(staged(ok.json().uploadId)).size).toBe(0); // nothing is allocated up front

    const huge = await start(t, { filename: 'huge-video.mp4', contentType: 'video/mp4', size: 6_657_199_308 });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({
      error: 'File "huge-video.mp4" is too large (6.2GB). Maximum supported size is 5GB.', maxSize: '5GB',
      code: 'file-too-large', requestId: expect.any(String),
    });
    const justOver = await start(t, { filename: 'a.mp4', contentType: 'video/mp4', size: MAX_UPLOAD_BYTES + 1 });
    expect(justOver.statusCode).toBe(413);
    expect(justOver.json().error).toBe('File "a.mp4" is too large (5.1GB). Maximum supported size is 5GB.');
    const { rows } = await ctx.db.query('SELECT count(*)::int AS n FROM media_uploads WHERE tenant_id = $1', [t.userId]);
    expect(rows[0].n).toBe(1);
  });

  it('refuses a content type outside the allow-list with 415 telling to set a valid contentType (naming the list)', async () => {
    const t = await createTenant(ctx);
    for (const contentType of ['image/svg+xml', 'application/octet-stream', 'text/html', 'video/x-flv']) {
      const res = await start(t, { filename: 'x.bin', contentType, size: 100 });
      expect(res.statusCode, contentType).toBe(415);
      expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', details: { fields: { contentType: expect.any(Array) }, allowed: expect.arrayContaining(['video/mp4', 'image/png']) } });
      expect(res.json().error).toContain(`Content type not allowed: ${contentType}. Set a valid contentType: one of image/jpeg,`);
      expect(res.json().error).toContain('application/pdf');
    }
    // Parameters and case do not matter for an allowed type.
    expect((await start(t, { filename: 'a.png', contentType: 'IMAGE/PNG; charset=binary', size: 10 })).json().contentType).toBe('image/png');
  });

  it('names each invalid field with 400', async () => {
    const t = await createTenant(ctx);
    const empty = await start(t, {});
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json().details.fields).sort()).toEqual(['contentType', 'filename', 'size']);
    for (const [body, field] of [
      [{ filename: 'a.mp4', contentType: 'video/mp4', size: 0 }, 'size'],
      [{ filename: 'a.mp4', contentType: 'video/mp4', size: 1.5 }, 'size'],
      [{ filename: '', contentType: 'video/mp4', size: 10 }, 'filename'],
      [{ filename: 'a.mp4', contentType: 'video/mp4', size: 10, url: 'http://x' }, 'url'],
    ] as const) {
      const res = await start(t, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().details.fields)).toContain(field);
    }
  });

  it('needs media:write', async () => {
    const t = await createTenant(ctx, { permissions: ['media:read'] });
    expect((await start(t, { filename: 'a.mp4', contentType: 'video/mp4', size: 10 })).statusCode).toBe(403);
  });
});

describe('sending the bytes (tus) and completing', () => {
  it('a real tus client uploads a video in chunks; the final response carries the files entry; metadata is stored and found by URL', async () => {
    const t = await createTenant(ctx);
    const tk = await ticket(t, 'My Clip.mp4', 'video/mp4', video.length);
    const result = await tusClientUpload(tk, video, 8 * 1024);
    expect(result.patches).toBe(Math.ceil(video.length / (8 * 1024)));
    expect(result.status).toBe(200);
    const files = (result.body as { files: Array<Record<string, unknown>> }).files;
    expect(files).toEqual([{ type: 'video', url: expect.stringMatching(new RegExp(`^${baseUrl}/media/${t.userId}/${tk.uploadId}/[0-9a-f]{32}-My-Clip\\.mp4$`)), filename: 'My Clip.mp4', size: video.length, mimeType: 'video/mp4' }]);

    // The same bytes are served at the URL; nothing stays staged.
    const served = await fetch(files[0].url as string);
    expect(served.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await served.arrayBuffer()).equals(video)).toBe(true);
    expect(fs.existsSync(staged(tk.uploadId))).toBe(false);
    expect(fs.existsSync(`${staged(tk.uploadId)}.json`)).toBe(false);

    // GET on the upload URL: completed, with the same entry.
    const status = await fetch(tk.uploadUrl, { headers: { authorization: `Bearer ${tk.token}` } });
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ uploadId: tk.uploadId, status: 'completed', offset: video.length, size: video.length, files });

    const [row] = await mediaFiles(t.userId);
    expect(row).toMatchObject({ id: tk.uploadId, filename: 'My Clip.mp4', mime_type: 'video/mp4', type: 'video', size: video.length });
    expect(row.metadata).toMatchObject({ width: 320, height: 240, videoCodec: 'h264', audioCodec: 'aac', frameRate: 25 });
    expect(row.metadata.duration).toBeGreaterThan(1.9);
    expect(row.metadata.duration).toBeLessThan(2.2);

    const info = await mediaMetadataByUrl(ctx.db, t.userId, files[0].url as string);
    expect(info).toMatchObject({ id: tk.uploadId, type: 'video', mimeType: 'video/mp4', size: video.length, metadata: { width: 320, height: 240, videoCodec: 'h264' } });
    const other = await createTenant(ctx);
    expect(await mediaMetadataByUrl(ctx.db, other.userId, files[0].url as string)).toBeNull();
    expect(await mediaMetadataByUrl(ctx.db, t.userId, 'https://example.com/a.mp4')).toBeNull();

    // A repeated final PATCH (lost answer) gets the same answer; HEAD reports the whole size.
    const again = await tusPatch(tk.uploadUrl, tk.token, video.length, Buffer.alloc(0));
    expect(again.status).toBe(200);
    expect((await json(again)).files).toEqual(files);
    const head = await fetch(tk.uploadUrl, { method: 'HEAD', headers: tusHeaders(tk.token) });
    expect(head.headers.get('upload-offset')).toBe(String(video.length));
  });

  it('resumes after a connection cut mid-PATCH: HEAD tells the offset, the rest completes the file byte for byte', async () => {
    const t = await createTenant(ctx);
    const bytes = Buffer.concat([video, Buffer.alloc(0)]);
    const tk = await ticket(t, 'resume.mp4', 'video/mp4', bytes.length);
    const first = Math.floor(bytes.length / 3);

    // A PATCH that announces the whole body but sends only a third, then the socket dies.
    await new Promise<void>((resolve) => {
      const u = new URL(tk.uploadUrl);
      const req = http.request({
        host: u.hostname, port: u.port, path: u.pathname, method: 'PATCH',
        headers: { ...tusHeaders(tk.token, { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }), 'content-length': String(bytes.length) },
      });
      req.on('error', () => resolve());
      req.on('response', (r) => { r.resume(); resolve(); });
      req.write(bytes.subarray(0, first), () => setTimeout(() => { req.destroy(); resolve(); }, 200));
    });

    let offset = -1;
    for (let i = 0; i < 50 && offset !== first; i++) {
      const head = await fetch(tk.uploadUrl, { method: 'HEAD', headers: tusHeaders(tk.token) });
      expect(head.status).toBe(200);
      offset = Number(head.headers.get('upload-offset'));
      if (offset !== first) await new Promise((r) => setTimeout(r, 100));
    }
    expect(offset).toBe(first);
    expect((await ctx.db.query('SELECT status FROM media_uploads WHERE id = $1', [tk.uploadId])).rows[0].status).toBe('uploading');

    // A wrong offset is refused without touching the upload (tus: 409).
    const wrong = await tusPatch(tk.uploadUrl, tk.token, 0, bytes.subarray(0, 10));
    expect(wrong.status).toBe(409);
    expect(await json(wrong)).toMatchObject({ code: 'CONFLICT', requestId: expect.any(String) });

    const rest = await tusPatch(tk.uploadUrl, tk.token, offset, bytes.subarray(offset));
    expect(rest.status).toBe(200);
    const { files } = await json(rest);
    expect(files[0]).toMatchObject({ type: 'video', size: bytes.length, mimeType: 'video/mp4' });
    const served = Buffer.from(await (await fetch(files[0].url)).arrayBuffer());
    expect(served.equals(bytes)).toBe(true);
  });

  it('deletes the upload when the bytes are not the declared type (415), and says so on GET and HEAD', async () => {
    const t = await createTenant(ctx);
    const png = makePng(4, 4);
    const tk = await ticket(t, 'not-a-video.mp4', 'video/mp4', png.length);
    const res = await tusPatch(tk.uploadUrl, tk.token, 0, png);
    expect(res.status).toBe(415);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = await json(res);
    expect(body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', requestId: expect.any(String), details: { fields: { contentType: expect.any(Array) } } });
    expect(body.error).toMatch(/image\/png, not the declared video\/mp4/);
    expect(fs.existsSync(staged(tk.uploadId))).toBe(false);
    expect(await mediaFiles(t.userId)).toEqual([]);
    expect(fs.existsSync(path.join(ctx.dataDir, 'media', t.userId))).toBe(false);

    const state = await json((await fetch(tk.uploadUrl, { headers: { authorization: `Bearer ${tk.token}` } })));
    expect(state).toMatchObject({ status: 'failed', error: expect.stringMatching(/not the declared video\/mp4/) });
    const head = await fetch(tk.uploadUrl, { method: 'HEAD', headers: tusHeaders(tk.token) });
    expect(head.status).toBe(410);
    const patch = await tusPatch(tk.uploadUrl, tk.token, 0, png);
    expect(patch.status).toBe(410);
    expect(await json(patch)).toMatchObject({ code: 'GONE' });
  });

  it('refuses bytes beyond the declared size and files that are not an allowed format at all', async () => {
    const t = await createTenant(ctx);
    const tk = await ticket(t, 'small.png', 'image/png', 100);
    const over = await tusPatch(tk.uploadUrl, tk.token, 0, Buffer.alloc(150, 1));
    expect(over.status).toBe(413);
    expect(await json(over)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await mediaFiles(t.userId)).toEqual([]);

    const text = Buffer.from('just text, pretending to be a PDF\n'.repeat(10));
    const tk2 = await ticket(t, 'doc.pdf', 'application/pdf', text.length);
    const res = await tusPatch(tk2.uploadUrl, tk2.token, 0, text);
    expect(res.status).toBe(415);
    expect((await json(res)).error).toMatch(/Content type not allowed/);
  });

  it('stores images and PDFs through the flow too (the bytes decide, the declared alias is kept)', async () => {
    const t = await createTenant(ctx);
    const png = makePng(16, 9);
    const tk = await ticket(t, 'wide.png', 'image/png', png.length);
    const res = await tusPatch(tk.uploadUrl, tk.token, 0, png);
    expect(res.status).toBe(200);
    expect((await json(res)).files[0]).toMatchObject({ type: 'image', mimeType: 'image/png', size: png.length });
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
    const tk2 = await ticket(t, 'deck.pdf', 'application/pdf', pdf.length);
    const r2 = await tusPatch(tk2.uploadUrl, tk2.token, 0, pdf);
    expect(r2.status).toBe(200);
    expect((await json(r2)).files[0]).toMatchObject({ type: 'document', mimeType: 'application/pdf' });
    const rows = await mediaFiles(t.userId);
    expect(rows.find((r) => r.filename === 'wide.png')!.metadata).toMatchObject({ width: 16, height: 9, videoCodec: 'png' });
    expect(rows.find((r) => r.filename === 'wide.png')!.metadata.duration).toBeUndefined();
    expect(rows.find((r) => r.filename === 'deck.pdf')!.metadata).toEqual({});
  });
});

describe('the upload token', () => {
  it('is required, is not an API key, is bound to its upload, and expires', async () => {
    const t = await createTenant(ctx);
    const a = await ticket(t, 'a.png', 'image/png', 50);
    const b = await ticket(t, 'b.png', 'image/png', 50);
    const png = makePng(2, 2);
    for (const [what, headers] of [
      ['no token', { 'tus-resumable': '1.0.0' }],
      ['the API key', { ...t.headers, 'tus-resumable': '1.0.0' }],
      ['another upload\'s token', tusHeaders(b.token)],
      ['a made-up token', tusHeaders(`upl_${'A'.repeat(43)}`)],
    ] as const) {
      for (const method of ['HEAD', 'PATCH', 'GET', 'DELETE']) {
        const res = await fetch(a.uploadUrl, {
          method, headers: { ...headers, ...(method === 'PATCH' ? { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' } : {}) },
          ...(method === 'PATCH' ? { body: png } : {}),
        });
        expect(res.status, `${method} with ${what}`).toBe(401);
        if (method !== 'HEAD') expect(await json(res), `${method} with ${what}`).toMatchObject({ error: 'Unauthorized', code: 'UNAUTHORIZED' });
      }
    }
    // An unknown upload id answers exactly like a wrong token.
    const unknown = await fetch(`${baseUrl}/uploads/${'0'.repeat(24)}`, { headers: { authorization: `Bearer ${a.token}` } });
    expect(unknown.status).toBe(401);
    // The upload token is no API key.
    const asKey = await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: { authorization: `Bearer ${a.token}` } });
    expect(asKey.statusCode).toBe(401);

    // Expired: writes are refused, the status can still be read.
    await ctx.db.query(`UPDATE media_uploads SET expires_at = now() - interval '1 second' WHERE id = $1`, [a.uploadId]);
    const late = await tusPatch(a.uploadUrl, a.token, 0, png);
    expect(late.status).toBe(401);
    expect((await json(late)).details.reason).toMatch(/expired/);
    const state = await fetch(a.uploadUrl, { headers: { authorization: `Bearer ${a.token}` } });
    expect(state.status).toBe(200);
    expect((await json(state)).status).toBe('pending');
  });

  it('answers CORS preflight and tus discovery (OPTIONS) without a token', async () => {
    const t = await createTenant(ctx);
    const tk = await ticket(t, 'a.png', 'image/png', 50);
    const res = await fetch(tk.uploadUrl, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'PATCH' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('tus-version')).toContain('1.0.0');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect(res.headers.get('access-control-allow-methods')).toMatch(/PATCH/);
  });
});

describe('cancelling and sweeping', () => {
  it('DELETE cancels an upload and removes its bytes', async () => {
    const t = await createTenant(ctx);
    const tk = await ticket(t, 'a.mp4', 'video/mp4', 1000);
    expect((await tusPatch(tk.uploadUrl, tk.token, 0, fakeMp4(1000).subarray(0, 400))).status).toBe(204);
    const del = await fetch(tk.uploadUrl, { method: 'DELETE', headers: tusHeaders(tk.token) });
    expect(del.status).toBe(204);
    expect(fs.existsSync(staged(tk.uploadId))).toBe(false);
    const state = await json((await fetch(tk.uploadUrl, { headers: { authorization: `Bearer ${tk.token}` } })));
    expect(state).toMatchObject({ status: 'cancelled' });
    expect((await fetch(tk.uploadUrl, { method: 'HEAD', headers: tusHeaders(tk.token) })).status).toBe(410);
  });

  it('sweeps uploads abandoned long after their token expired', async () => {
    const t = await createTenant(ctx);
    const old = await ticket(t, 'old.mp4', 'video/mp4', 1000);
    const fresh = await ticket(t, 'fresh.mp4', 'video/mp4', 1000);
    await ctx.db.query(`UPDATE media_uploads SET expires_at = now() - interval '7 hours' WHERE id = $1`, [old.uploadId]);
    expect(await ctx.services.media.sweepAbandonedUploads()).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(staged(old.uploadId))).toBe(false);
    expect(fs.existsSync(staged(fresh.uploadId))).toBe(true);
    const { rows } = await ctx.db.query('SELECT id, status FROM media_uploads WHERE id = ANY($1) ORDER BY id', [[old.uploadId, fresh.uploadId]]);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({ [old.uploadId]: 'expired', [fresh.uploadId]: 'pending' });
  });
});

describe('metadata for multipart uploads', () => {
  it('probes a multipart video and image the same way', async () => {
    const t = await createTenant(ctx);
    const webm = makeVideo({ seconds: 1, width: 180, height: 320, rate: 30, format: 'webm' });
    const boundary = '----herald-test';
    const part = (name: string, type: string, data: Buffer) => Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`), data, Buffer.from('\r\n'),
    ]);
    const payload = Buffer.concat([part('story.webm', 'video/webm', webm), part('pic.png', 'image/png', makePng(3, 5)), Buffer.from(`--${boundary}--\r\n`)]);
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(res.statusCode, res.body).toBe(200);
    const [vid, pic] = res.json().files;
    const v = await mediaMetadataByUrl(ctx.db, t.userId, vid.url);
    expect(v!.metadata).toMatchObject({ width: 180, height: 320, videoCodec: 'vp9', audioCodec: 'opus' });
    expect(v!.metadata.duration).toBeGreaterThan(0.9);
    const p = await mediaMetadataByUrl(ctx.db, t.userId, pic.url);
    expect(p!.metadata).toMatchObject({ width: 3, height: 5, videoCodec: 'png' });
  });
});

describe('OpenAPI', () => {
  it('documents both bodies of POST /v1/media and the flow, and the upload URL\'s methods', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const op = doc.paths['/v1/media'].post;
    expect(Object.keys(op.requestBody.content).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(op.requestBody.content['application/json'].schema.required.sort()).toEqual(['contentType', 'filename', 'size']);
    expect(op.description).toMatch(/tus/);
    expect(op.description).toMatch(/Upload-Offset/);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '201', '413', '415']));
    expect(Object.keys(doc.paths['/uploads/{uploadId}'])).toEqual(expect.arrayContaining(['patch', 'get', 'delete']));
  });
});
