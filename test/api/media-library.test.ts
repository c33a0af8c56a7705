/**
 * GET /v1/media, the media library: a tenant's uploads only, newest first, paged, searchable by
 * file name (a `%` is a character, not a wildcard), filtered by type; each entry reusable as a
 * post's media item (its URL serves the bytes); media:read is required; bad paging is a 400.
 * (Each upload is different noise: identical bytes would be deduplicated, test/api/media-workspace.test.ts.)
 */
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

async function upload(t: Tenant, filename: string, w = 4, h = 3) {
  const body = multipart('files', [{ filename, contentType: 'image/png', data: makePng(w, h, 'noise') }]);
  const res = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, 'content-type': body.contentType }, payload: body.payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().files[0] as { url: string; filename: string };
}

const list = (t: Tenant, query = '') => ctx.app.inject({ method: 'GET', url: `/v1/media${query}`, headers: t.headers });

describe('GET /v1/media', () => {
  it('lists the tenant\'s uploads newest first, paged, with pixels and upload time', async () => {
    const first = await upload(a, 'croissant.png', 8, 6);
    await upload(a, 'baguette.png');
    await upload(a, '100%_rye.png');
    await upload(b, 'other-tenant-croissant.png');
    const res = await list(a, '?limit=2');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.pagination).toEqual({ page: 1, limit: 2, total: 3, pages: 2 });
    expect(body.files.map((f: { filename: string }) => f.filename)).toEqual(['100%_rye.png', 'baguette.png']);
    const page2 = (await list(a, '?limit=2&page=2')).json();
    expect(page2.files).toHaveLength(1);
    expect(page2.files[0]).toMatchObject({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/), type: 'image', url: first.url, filename: 'croissant.png', mimeType: 'image/png', width: 8, height: 6,
      size: expect.any(Number), createdAt: expect.stringMatching(/Z$/),
    });
    // The other tenant sees only its own file.
    expect((await list(b)).json().files.map((f: { filename: string }) => f.filename)).toEqual(['other-tenant-croissant.png']);
  });

  it('searches the file names (case-insensitive, % and _ literal) and filters by type', async () => {
    expect((await list(a, '?q=CROISS')).json().files.map((f: { filename: string }) => f.filename)).toEqual(['croissant.png']);
    expect((await list(a, `?q=${encodeURIComponent('%')}`)).json().files.map((f: { filename: string }) => f.filename)).toEqual(['100%_rye.png']);
    expect((await list(a, '?q=zzz')).json()).toMatchObject({ files: [], pagination: { total: 0, pages: 0 } });
    expect((await list(a, '?type=video')).json().files).toEqual([]);
    expect((await list(a, '?type=image')).json().pagination.total).toBe(3);
  });

  it('refuses bad paging with 400 naming the field, and keys without media:read with 403', async () => {
    const bad = await list(a, '?limit=500');
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().details)).toContain('limit');
    const noRead = await createTenant(ctx, { permissions: ['posts:read'] });
    expect((await list(noRead)).statusCode).toBe(403);
  });
});
