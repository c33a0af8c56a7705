/**
 * POST /v1/media (multipart field "files", about 4 MB per file): content types are
 * checked against the allow-list AND the file's magic bytes; stored files are served
 * back at their URL over real HTTP, byte for byte; refused uploads leave nothing on disk.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchGuarded } from '../../src/publishing/fetch-media.ts';
import { AdapterError } from '../../src/platforms/types.ts';
import { createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';
import { freePort } from '../support/net.ts';
import { encodePng, makePng } from '../support/png.ts';
import { makeImage } from '../support/media.ts';
import { mediaMetadataByUrl } from '../../src/modules/media/lookup.ts';

let ctx: TestContext;
let baseUrl: string;

beforeAll(async () => {
  // Media URLs are built from the configured address, so listen on a known port.
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  ctx = await createTestApp({ listen: true, env: { PORT: String(port) } });
});
afterAll(async () => { await ctx.close(); });

// ---- file fixtures built in code -------------------------------------------------

/** A valid 2x2 RGB PNG (red, green / blue, white). */
function png2x2(): Buffer {
  return encodePng(2, 2, Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255])); // filter byte + 2 pixels per row
}
const JPEG = Buffer.from('FFD8FFE000104A46494600010100000100010000FFDB004300' + '01'.repeat(64) + 'FFD9', 'hex');
/** An ISO BMFF header: a 24-byte ftyp box (major brand mp42) and an empty free box. */
const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.from([0, 0, 0, 0]), Buffer.from('mp42isom'),
  Buffer.from([0, 0, 0, 8]), Buffer.from('free'),
]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"><script>alert(1)</script></svg>');

interface Part { name?: string; filename?: string; contentType?: string; data: Buffer | string }

/** A multipart/form-data body built by hand (RFC 7578). */
function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----herald-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name ?? 'files'}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.contentType ? `Content-Type: ${p.contentType}\r\n` : ''}\r\n`));
    chunks.push(Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (t: Tenant, parts: Part[]) => {
  const { payload, headers } = multipart(parts);
  return ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, ...headers }, payload });
};

/** Regular files under the data dir's media/ for a tenant (directories do not count). */
function filesOnDisk(tenantId?: string): string[] {
  const root = path.join(ctx.dataDir, 'media', tenantId ?? '');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(root, f)).isFile());
}

describe('POST /v1/media: accepted files', () => {
  it('stores a real PNG and serves the exact bytes at the returned URL over HTTP', async () => {
    const t = await createTenant(ctx);
    const bytes = png2x2();
    const res = await upload(t, [{ filename: 'pixel.png', contentType: 'image/png', data: bytes }]);
    expect(res.statusCode, res.body).toBe(200);
    const { files } = res.json();
    expect(files).toEqual([{ type: 'image', url: expect.any(String), filename: 'pixel.png', size: bytes.length, mimeType: 'image/png' }]);
    expect(files[0].url.startsWith(`${baseUrl}/media/`)).toBe(true);

    const served = await fetch(files[0].url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    expect(filesOnDisk(t.userId)).toHaveLength(1);
    const { rows } = await ctx.db.query('SELECT mime_type, type, size, tenant_id FROM media_files WHERE tenant_id = $1', [t.userId]);
    expect(rows).toEqual([{ mime_type: 'image/png', type: 'image', size: bytes.length, tenant_id: t.userId }]);
  });

  it('records an animated GIF\'s frame count and pixels (LinkedIn takes at most 250 frames: checked when a post is created)', async () => {
    const t = await createTenant(ctx);
    const res = await upload(t, [{ filename: 'spin.gif', contentType: 'image/gif', data: makeImage({ format: 'gif', width: 40, height: 30, frames: 7 }) }]);
    expect(res.statusCode, res.body).toBe(200);
    const file = res.json().files[0];
    expect(file).toMatchObject({ type: 'gif', mimeType: 'image/gif' });
    expect((await mediaMetadataByUrl(ctx.db, t.userId, file.url))?.metadata).toMatchObject({ frames: 7, width: 40, height: 30 });
  });

  it('accepts several files in one request, in order, each with its own type', async () => {
    const t = await createTenant(ctx);
    const res = await upload(t, [
      { filename: 'a.png', contentType: 'image/png', data: png2x2() },
      { filename: 'b.jpg', contentType: 'image/jpeg', data: JPEG },
      { filename: 'c.mp4', contentType: 'video/mp4', data: MP4 },
      { name: 'caption', data: 'a text field is ignored' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const { files } = res.json();
    expect(files.map((f: { filename: string; type: string; mimeType: string }) => [f.filename, f.type, f.mimeType])).toEqual([
      ['a.png', 'image', 'image/png'], ['b.jpg', 'image', 'image/jpeg'], ['c.mp4', 'video', 'video/mp4'],
    ]);
    expect(new Set(files.map((f: { url: string }) => f.url)).size).toBe(3);
    for (const [f, bytes] of [[files[1], JPEG], [files[2], MP4]] as const) {
      const served = await fetch(f.url);
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    }
  });

  it('sniffs an MP4 from its ftyp box: declared video/mp4 -> type video', async () => {
    const t = await createTenant(ctx);
    const res = await upload(t, [{ filename: 'clip.mp4', contentType: 'video/mp4', data: MP4 }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().files[0]).toMatchObject({ type: 'video', mimeType: 'video/mp4', size: MP4.length });
  });

  it('takes the type from the bytes when the part says application/octet-stream', async () => {
    const t = await createTenant(ctx);
    const res = await upload(t, [{ filename: 'noext', contentType: 'application/octet-stream', data: png2x2() }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().files[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(res.json().files[0].url).toMatch(/\.png$/);
  });

  it('never lets a filename escape the tenant\'s media directory', async () => {
    const t = await createTenant(ctx);
    const res = await upload(t, [{ filename: '../../../../etc/evil name.png', contentType: 'image/png', data: png2x2() }]);
    expect(res.statusCode, res.body).toBe(200);
    const url = new URL(res.json().files[0].url);
    expect(url.pathname).not.toContain('..');
    expect(url.pathname.startsWith(`/media/${t.userId}/`)).toBe(true);
    expect(filesOnDisk(t.userId)).toHaveLength(1);
    const served = await fetch(url);
    expect(served.status).toBe(200);
  });

  it('accepts a file just under the 4 MB limit', async () => {
    const t = await createTenant(ctx);
    const bytes = Buffer.concat([png2x2(), Buffer.alloc(4 * 1024 * 1024 - 1024)]);
    const res = await upload(t, [{ filename: 'big.png', contentType: 'image/png', data: bytes }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().files[0].size).toBe(bytes.length);
  });
});

describe('POST /v1/media: refused files', () => {
  it('refuses a JPEG declared as image/png with 415 naming the mismatch, and keeps nothing', async () => {
    const t = await createTenant(ctx);
    const res = await upload(t, [{ filename: 'photo.png', contentType: 'image/png', data: JPEG }]);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(res.json().error).toMatch(/image\/jpeg/);
    expect(res.json().error).toMatch(/declared image\/png/);
    expect(filesOnDisk(t.userId)).toEqual([]);
  });

  it('refuses a text file declared as image/png with 415', async () => {
    const t = await createTenant(ctx);
    const res = await upload(t, [{ filename: 'notes.png', contentType: 'image/png', data: 'just some text, not an image\n'.repeat(20) }]);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', error: expect.stringMatching(/Content type not allowed/) });
    expect(filesOnDisk(t.userId)).toEqual([]);
  });

  it('refuses a declared type outside the allow-list (image/svg+xml) with 415 "Content type not allowed"', async () => {
    const t = await createTenant(ctx);
    const svg = await upload(t, [{ filename: 'logo.svg', contentType: 'image/svg+xml', data: SVG }]);
    expect(svg.statusCode).toBe(415);
    expect(svg.json().error).toMatch(/Content type not allowed/);
    // Even when the bytes are an allowed format, the declared type must be on the list.
    const disguised = await upload(t, [{ filename: 'logo.svg', contentType: 'image/svg+xml', data: png2x2() }]);
    expect(disguised.statusCode).toBe(415);
    expect(disguised.json().error).toMatch(/Content type not allowed: image\/svg\+xml/);
    expect(filesOnDisk(t.userId)).toEqual([]);
  });

  it('refuses a 4.5 MB file with 413 pointing to the client-upload flow; nothing stays on disk', async () => {
    const t = await createTenant(ctx);
    const big = Buffer.concat([png2x2(), Buffer.alloc(4.5 * 1024 * 1024)]);
    const res = await upload(t, [{ filename: 'huge.png', contentType: 'image/png', data: big }]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', error: expect.stringMatching(/client-upload flow/) });
    expect(filesOnDisk(t.userId)).toEqual([]);
    const { rows } = await ctx.db.query('SELECT 1 FROM media_files WHERE tenant_id = $1', [t.userId]);
    expect(rows).toEqual([]);
  });

  it('refuses a request when one of several files is bad, naming that file; no file of the request is kept', async () => {
    const t = await createTenant(ctx);
    const res = await upload(t, [
      { filename: 'ok.png', contentType: 'image/png', data: png2x2() },
      { filename: 'bad.png', contentType: 'image/png', data: JPEG },
    ]);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', details: { filename: 'bad.png', fields: { files: expect.any(Array) } } });
    // All or nothing: ok.png, stored before bad.png was read, is removed again.
    expect(filesOnDisk(t.userId)).toEqual([]);
    const { rows } = await ctx.db.query('SELECT filename FROM media_files WHERE tenant_id = $1', [t.userId]);
    expect(rows).toEqual([]);
  });

  it('answers 400 for a multipart request without files, with an empty form, or with another file field', async () => {
    const t = await createTenant(ctx);
    const noFiles = await upload(t, [{ name: 'caption', data: 'hello' }]);
    expect(noFiles.statusCode).toBe(400);
    expect(noFiles.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { files: expect.any(Array) } } });
    const empty = await upload(t, []);
    expect(empty.statusCode).toBe(400);
    const other = await upload(t, [{ name: 'avatar', filename: 'a.png', contentType: 'image/png', data: png2x2() }]);
    expect(other.statusCode).toBe(400);
    expect(Object.keys(other.json().details.fields)).toEqual(['avatar']);
    expect(filesOnDisk(t.userId)).toEqual([]);
  });

  it('answers 400 naming (body) for a multipart body without a boundary or cut short; a good file before the cut is not kept', async () => {
    const t = await createTenant(ctx);
    const { payload, headers } = multipart([{ filename: 'ok.png', contentType: 'image/png', data: png2x2() }, { filename: 'b.png', contentType: 'image/png', data: png2x2() }]);
    const send = (contentType: string, body: Buffer) => ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, 'content-type': contentType }, payload: body });
    const cases: Array<[string, Awaited<ReturnType<typeof send>>]> = [
      ['no boundary', await send('multipart/form-data', payload)],
      ['truncated', await send(headers['content-type'], payload.subarray(0, payload.length - 40))],
    ];
    for (const [what, res] of cases) {
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(res.json(), what).toMatchObject({ code: 'BAD_REQUEST', error: expect.stringMatching(/multipart/), details: { fields: { '(body)': [expect.any(String)] } }, requestId: expect.any(String) });
    }
    expect(filesOnDisk(t.userId)).toEqual([]);
    const { rows } = await ctx.db.query('SELECT filename FROM media_files WHERE tenant_id = $1', [t.userId]);
    expect(rows).toEqual([]);
  });

  it('answers 400 for more than 10 files', async () => {
    const t = await createTenant(ctx);
    const res = await upload(t, Array.from({ length: 11 }, (_, i) => ({ filename: `${i}.png`, contentType: 'image/png', data: png2x2() })));
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields.files[0]).toMatch(/10 files/);
  });

  it('answers 400 for a JSON body that is not a client-upload request (and for malformed JSON)', async () => {
    const t = await createTenant(ctx);
    const json = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: t.headers, payload: { files: [{ url: 'https://example.com/a.png' }] } });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { files: ['is not an allowed field'], filename: ['is required'], contentType: ['is required'], size: ['is required'] } } });
    const bad = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, 'content-type': 'application/json' }, payload: '{"files":' });
    expect(bad.statusCode).toBe(400);
    const text = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, 'content-type': 'text/plain' }, payload: 'hello' });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { '(body)': expect.any(Array) } } });
  });

  it('answers 403 for a key without media:write', async () => {
    const t = await createTenant(ctx, { permissions: ['posts:read'] });
    const res = await upload(t, [{ filename: 'a.png', contentType: 'image/png', data: png2x2() }]);
    expect(res.statusCode).toBe(403);
    expect(filesOnDisk(t.userId)).toEqual([]);
  });
});

/** A small PDF whose document-open action runs JavaScript (a viewer rendering it inline would run it). */
const PDF_WITH_JS = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n'
  + '2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe('media files: unguessable, safely served, safely read', () => {
  it('stores each file under 128 random bits: the URL does not follow from the tenant and media ids', async () => {
    const t = await createTenant(ctx);
    const urls: URL[] = [];
    for (let i = 0; i < 2; i++) {
      // Different bytes under the same name (identical bytes would be the same file: uploads are deduplicated).
      const res = await upload(t, [{ filename: 'same.png', contentType: 'image/png', data: makePng(2, 2, 'noise') }]);
      expect(res.statusCode, res.body).toBe(200);
      urls.push(new URL(res.json().files[0].url));
    }
    const names = urls.map((u) => u.pathname.split('/').pop()!);
    for (const name of names) expect(name).toMatch(/^[0-9a-f]{32}-same\.png$/);
    expect(names[0]).not.toBe(names[1]);
    // The file is not at the path that tenant and media id alone would give.
    const [, , tenant, id] = urls[0].pathname.split('/');
    expect(tenant).toBe(t.userId);
    expect((await fetch(`${baseUrl}/media/${tenant}/${id}/same.png`)).status).toBe(404);
    expect((await fetch(urls[0])).status).toBe(200);
  });

  it('serves images inline and anything else (a PDF with JavaScript) as a download, all sandboxed and nosniff', async () => {
    const t = await createTenant(ctx);
    const res = await upload(t, [
      { filename: 'pixel.png', contentType: 'image/png', data: png2x2() },
      { filename: 'doc.pdf', contentType: 'application/pdf', data: PDF_WITH_JS },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const [image, pdf] = await Promise.all(res.json().files.map((f: { url: string }) => fetch(f.url)));
    for (const r of [image, pdf]) {
      expect(r.status).toBe(200);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('content-security-policy')).toBe('sandbox');
    }
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('content-disposition')).toBeNull();
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe('attachment');
  });

  it('reads media for publishing without ever showing a server path, and refuses URLs that leave the media folder', async () => {
    const t = await createTenant(ctx);
    const res = await upload(t, [{ filename: 'pixel.png', contentType: 'image/png', data: png2x2() }]);
    const url = new URL(res.json().files[0].url);
    const [, , tenant, id] = url.pathname.split('/');
    const read = (u: string) => fetchGuarded(ctx.services.mediaStorage, { url: u, type: 'image' }, 1024 * 1024, { allowPrivate: true });
    expect((await read(url.toString())).mimeType).toBe('image/png');

    const failures: Array<[string, RegExp]> = [
      [`${baseUrl}/media/${tenant}/${id}/..%252f..`, /not found/],
      [`${baseUrl}/media/${tenant}/${id}/missing.png`, /not found/],
      [`${baseUrl}/media/${tenant}/${id}`, /not found/],
      [`${baseUrl}/media/..%2f..%2f..%2fetc%2fpasswd`, /outside the media folder/],
      [`${baseUrl}/media/${tenant}/../../../etc/passwd`, /outside the media folder/],
      [`${baseUrl}/media/${tenant}/%2e%2e/%2e%2e/secret`, /outside the media folder/],
      [`${baseUrl}/media/${tenant}/%E0%A4%A`, /not a valid path/],
    ];
    for (const [u, why] of failures) {
      const err = await read(u).then(() => null, (e: unknown) => e);
      expect(err, u).toBeInstanceOf(AdapterError);
      expect((err as AdapterError).kind).toBe('rejected');
      expect((err as AdapterError).message).toMatch(why);
      expect((err as AdapterError).message).not.toContain(ctx.dataDir);
      expect((err as AdapterError).message).not.toMatch(/ENOENT|stat '|\/tmp\//);
    }
    // Too large for the platform: the size, not the path.
    const big = await fetchGuarded(ctx.services.mediaStorage, { url: url.toString(), type: 'image' }, 10, { allowPrivate: true }).catch((e: Error) => e);
    expect((big as Error).message).toMatch(/allows at most 10/);
    expect((big as Error).message).not.toContain(ctx.dataDir);
  });
});
