/**
 * The media library as a workspace: POST /v1/media/{mediaId}/convert makes a real JPEG of a real
 * PNG or WebP (Instagram takes JPEG only), uploads are deduplicated by content, files carry tags
 * (searched by `q`, filtered by `tag`), GET /v1/media/{mediaId} says which posts use a file, and
 * DELETE refuses a file in use unless forced. Writes need media:write; another tenant's file is a 404.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';
import { makePng, multipart } from '../support/png.ts';

let ctx: TestContext;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ctx = await createTestApp();
  a = await createTenant(ctx);
  b = await createTenant(ctx);
});
afterAll(async () => { await ctx?.close(); });

interface Uploaded { url: string; filename: string; mimeType: string; size: number; deduplicated?: boolean }

async function upload(t: Tenant, filename: string, data: Buffer, contentType = 'image/png'): Promise<Uploaded> {
  const body = multipart('files', [{ filename, contentType, data }]);
  const res = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, 'content-type': body.contentType }, payload: body.payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().files[0] as Uploaded;
}

async function libraryId(t: Tenant, url: string): Promise<string> {
  const files = (await ctx.app.inject({ method: 'GET', url: '/v1/media?limit=100', headers: t.headers })).json().files as Array<{ _id: string; url: string }>;
  const f = files.find((x) => x.url === url);
  if (!f) throw new Error(`${url} is not in the library`);
  return f._id;
}

const convert = (t: Tenant, id: string, payload: Record<string, unknown> = { format: 'jpeg' }) =>
  ctx.app.inject({ method: 'POST', url: `/v1/media/${id}/convert`, headers: t.headers, payload });

/** The bytes behind one of our media URLs (served by the app). */
async function bytesOf(url: string): Promise<Buffer> {
  const res = await ctx.app.inject({ method: 'GET', url: new URL(url).pathname });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

describe('POST /v1/media/{mediaId}/convert', () => {
  it('turns a PNG with transparency into a real JPEG of the same size, stored as a new library file', async () => {
    const png = await sharp({ create: { width: 120, height: 80, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } } }).png().toBuffer();
    const up = await upload(a, 'logo.png', png);
    const id = await libraryId(a, up.url);
    const res = await convert(a, id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ converted: true, from: 'image/png', files: [{ type: 'image', mimeType: 'image/jpeg', filename: 'logo.jpg', _id: expect.stringMatching(/^[0-9a-f]{24}$/) }] });
    expect(body.files[0]._id).not.toBe(id);
    const jpeg = await bytesOf(body.files[0].url);
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const meta = await sharp(jpeg).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 120, height: 80 });
    expect(body.files[0].size).toBe(jpeg.length);
    // The library lists both; the copy has the JPEG's pixels.
    const files = (await ctx.app.inject({ method: 'GET', url: '/v1/media', headers: a.headers })).json().files as Array<{ _id: string; mimeType: string; width?: number; height?: number }>;
    expect(files.find((f) => f._id === body.files[0]._id)).toMatchObject({ mimeType: 'image/jpeg', width: 120, height: 80 });
    expect(files.some((f) => f._id === id)).toBe(true);
    // Converting again answers the same JPEG (deduplicated by content), not a third file.
    const again = (await convert(a, id)).json();
    expect(again.files[0]._id).toBe(body.files[0]._id);
  });

  it('converts a WebP; a JPEG answers itself; a PDF is refused with 415', async () => {
    const webp = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 0, g: 90, b: 200 } } }).webp().toBuffer();
    const w = await convert(a, await libraryId(a, (await upload(a, 'sky.webp', webp, 'image/webp')).url));
    expect(w.statusCode, w.body).toBe(200);
    const jpeg = await bytesOf(w.json().files[0].url);
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 64, height: 48 });

    const jpgUp = await upload(a, 'already.jpg', jpeg, 'image/jpeg');
    const same = await convert(a, await libraryId(a, jpgUp.url));
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ converted: false, from: 'image/jpeg', files: [{ url: jpgUp.url }] });

    const pdf = await upload(a, 'menu.pdf', Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'), 'application/pdf');
    const refused = await convert(a, await libraryId(a, pdf.url));
    expect(refused.statusCode, refused.body).toBe(415);
  });

  it('needs media:write, a known format and the tenant\'s own file', async () => {
    const png = makePng(6, 6, 'noise');
    const id = await libraryId(a, (await upload(a, 'private.png', png)).url);
    expect((await convert(b, id)).statusCode).toBe(404);
    const readOnly = await createTenant(ctx, { permissions: ['media:read'] });
    expect((await convert(readOnly, id)).statusCode).toBe(403);
    const bad = await convert(a, id, { format: 'gif' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().details)).toContain('format');
  });
});

describe('the library as a workspace', () => {
  it('deduplicates an upload of the same bytes: the stored file answers, the library keeps one', async () => {
    const t = await createTenant(ctx);
    const png = makePng(9, 9, 'noise');
    const first = await upload(t, 'croissant.png', png);
    const second = await upload(t, 'croissant (1).png', png);
    expect(second.url).toBe(first.url);
    expect(second.filename).toBe('croissant (1).png');
    expect(first.deduplicated).toBeUndefined();
    expect(second.deduplicated).toBe(true);
    const list = (await ctx.app.inject({ method: 'GET', url: '/v1/media', headers: t.headers })).json();
    expect(list.pagination.total).toBe(1);
    // Another tenant's identical bytes are its own file.
    const other = await upload(b, 'croissant.png', png);
    expect(other.url).not.toBe(first.url);
  });

  it('tags files (searched by q, filtered by tag), says which posts use a file, refuses deleting a used file unless forced', async () => {
    const t = await createTenant(ctx);
    const used = await upload(t, 'bread.png', makePng(5, 5, 'noise'));
    const spare = await upload(t, 'spare.png', makePng(5, 5, 'noise'));
    const usedId = await libraryId(t, used.url);
    const spareId = await libraryId(t, spare.url);
    const tagged = await ctx.app.inject({ method: 'PATCH', url: `/v1/media/${usedId}`, headers: t.headers, payload: { tags: ['Sourdough', '#bakery', 'bakery'] } });
    expect(tagged.statusCode, tagged.body).toBe(200);
    expect(tagged.json().file.tags).toEqual(['Sourdough', 'bakery']);
    const search = async (q: string) => (await ctx.app.inject({ method: 'GET', url: `/v1/media?${q}`, headers: t.headers })).json().files.map((f: { _id: string }) => f._id);
    expect(await search('q=sourd')).toEqual([usedId]);
    expect(await search('tag=bakery')).toEqual([usedId]);

    const post = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers, payload: { content: 'Fresh bread', isDraft: true, mediaItems: [{ type: 'image', url: used.url }], platforms: [] } });
    expect(post.statusCode, post.body).toBe(201);
    const one = (await ctx.app.inject({ method: 'GET', url: `/v1/media/${usedId}`, headers: t.headers })).json();
    expect(one.file).toMatchObject({ _id: usedId, usedInPosts: 1 });
    expect(one.usedBy).toEqual([expect.objectContaining({ _id: post.json().post._id, content: 'Fresh bread', status: 'draft' })]);
    const listed = (await ctx.app.inject({ method: 'GET', url: '/v1/media', headers: t.headers })).json().files as Array<{ _id: string; usedInPosts: number }>;
    expect(Object.fromEntries(listed.map((f) => [f._id, f.usedInPosts]))).toEqual({ [usedId]: 1, [spareId]: 0 });

    const refused = await ctx.app.inject({ method: 'DELETE', url: `/v1/media/${usedId}`, headers: t.headers });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().details).toMatchObject({ usedInPosts: 1 });
    expect((await ctx.app.inject({ method: 'DELETE', url: `/v1/media/${spareId}`, headers: b.headers })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/v1/media/${spareId}`, headers: t.headers })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: new URL(spare.url).pathname })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/v1/media/${usedId}?force=true`, headers: t.headers })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/media', headers: t.headers })).json().pagination.total).toBe(0);
  });
});
