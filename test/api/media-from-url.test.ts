/**
 * POST /v1/media/from-url: Herald downloads the file through the SSRF guard and stores it like an
 * upload (same allow-list on the bytes, same answer as a multipart upload); refused or unreachable
 * URLs answer 400 naming `url`, a file over 5 GB 413, bytes outside the allow-list 415; private
 * addresses are fetched only with HERALD_ALLOW_PRIVATE_URLS; media:write is required.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { makePng } from '../support/png.ts';

let ctx: TestContext;
let strict: TestContext;
let media: MediaServer;
/** Declares a 6 GB body and sends nothing (the size check must refuse it before reading). */
let huge: http.Server;
let hugeUrl: string;

beforeAll(async () => {
  ctx = await createTestApp();
  strict = await createTestApp({ env: { HERALD_ALLOW_PRIVATE_URLS: 'false' } });
  media = await startMediaServer();
  huge = http.createServer((_req, res) => { res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(6 * 1024 ** 3) }); res.flushHeaders(); });
  await new Promise<void>((r) => huge.listen(0, '127.0.0.1', r));
  hugeUrl = `http://127.0.0.1:${(huge.address() as AddressInfo).port}/big.mp4`;
});
afterAll(async () => {
  huge.closeAllConnections();
  await new Promise((r) => huge.close(r));
  await media.close();
  await ctx.close();
  await strict.close();
});

const fromUrl = (c: TestContext, t: Tenant, payload: object) =>
  c.app.inject({ method: 'POST', url: '/v1/media/from-url', headers: t.headers, payload });
const library = async (t: Tenant) => (await ctx.app.inject({ method: 'GET', url: '/v1/media', headers: t.headers })).json().files as Array<{ url: string; filename: string }>;

describe('POST /v1/media/from-url', () => {
  it('downloads a PNG and answers what a multipart upload answers; the file is in the library and serves the same bytes', async () => {
    const t = await createTenant(ctx);
    const bytes = makePng(3, 2);
    const res = await fromUrl(ctx, t, { url: media.put('/pics/red%20dot.png', bytes, 'image/png') });
    expect(res.statusCode, res.body).toBe(200);
    const { files } = res.json();
    expect(files).toEqual([{ type: 'image', url: expect.any(String), filename: 'red dot.png', size: bytes.length, mimeType: 'image/png' }]);
    expect((await library(t)).map((f) => f.url)).toEqual([files[0].url]);
    const served = await ctx.app.inject({ method: 'GET', url: new URL(files[0].url).pathname });
    expect(served.statusCode).toBe(200);
    expect(Buffer.from(served.rawPayload).equals(bytes)).toBe(true);
  });

  it('keeps the given filename, and lets the bytes decide when the server declares no allowed type', async () => {
    const t = await createTenant(ctx);
    const bytes = makePng();
    const res = await fromUrl(ctx, t, { url: `${media.put('/download', bytes, 'application/octet-stream')}?id=1`, filename: 'banner.png' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().files[0]).toMatchObject({ filename: 'banner.png', mimeType: 'image/png', type: 'image' });
  });

  it('refuses bytes outside the allow-list with 415 (nothing stored), and a declared type the bytes contradict', async () => {
    const t = await createTenant(ctx);
    const text = await fromUrl(ctx, t, { url: media.put('/notes.txt', Buffer.from('just some text, not media'), 'text/plain') });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', details: { fields: { url: [expect.any(String)] } } });
    const liar = await fromUrl(ctx, t, { url: media.put('/fake.mp4', makePng(), 'video/mp4') });
    expect(liar.statusCode).toBe(415);
    expect(await library(t)).toEqual([]);
  });

  it('answers 400 naming url for an unreachable or refused URL, and 413 for a file over 5GB', async () => {
    const t = await createTenant(ctx);
    const missing = await fromUrl(ctx, t, { url: `${media.url}/nothing-here.png` });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { url: [expect.stringMatching(/could not be downloaded.*HTTP 404/)] } } });
    const ftp = await fromUrl(ctx, t, { url: 'ftp://example.com/a.png' });
    expect(ftp.statusCode).toBe(400);
    expect(ftp.json().details.fields.url[0]).toMatch(/refused.*http and https/);
    const big = await fromUrl(ctx, t, { url: hugeUrl });
    expect(big.statusCode, big.body).toBe(413);
    expect(big.json()).toMatchObject({ code: 'file-too-large', maxSize: '5GB' });
    expect((await fromUrl(ctx, t, { url: '' })).statusCode).toBe(400);
    expect((await fromUrl(ctx, t, { url: `${media.url}/x.png`, extra: true })).statusCode).toBe(400);
    expect(await library(t)).toEqual([]);
  });

  it('refuses private and loopback addresses unless HERALD_ALLOW_PRIVATE_URLS', async () => {
    const t = await createTenant(strict);
    const res = await fromUrl(strict, t, { url: media.put('/local.png', makePng(), 'image/png') });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields.url[0]).toMatch(/refused.*private or reserved/);
  });

  it('needs media:write', async () => {
    const t = await createTenant(ctx, { permissions: ['media:read'] });
    expect((await fromUrl(ctx, t, { url: media.put('/p.png', makePng(), 'image/png') })).statusCode).toBe(403);
  });
});
