/**
 * A full disk under the uploads (docs/decisions/0044-database-failures.md): a write
 * refused with ENOSPC answers 507 STORAGE_FULL in the error shape, leaves no partial file, and
 * GET /health says so (storage.ok false, 503) until a write succeeds again.
 *
 * The ENOSPC is always a real one from the kernel: writes through a symlink to /dev/full (which
 * refuses every write with ENOSPC, any user, on Linux), and, where this process may mount one (root),
 * a real 1 MB tmpfs under the data directory for the multipart flow, whose staging file name is
 * not known in advance. Without /dev/full (not Linux) or the right to mount, those cases are skipped.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskStorage } from '../../src/storage/media-storage.ts';
import { createDiskSpaceMonitor, FULL_DISK_MEMORY_MS } from '../../src/storage/disk-space.ts';
import { AppError } from '../../src/core/errors.ts';
import { createTenant, createTestApp, type TestContext } from '../support/app.ts';
import { makePng, multipart } from '../support/png.ts';

const HAS_DEV_FULL = fs.existsSync('/dev/full');

function expectStorageFull(res: { statusCode: number; json(): Record<string, unknown> }) {
  expect(res.statusCode).toBe(507);
  const body = res.json();
  expect(body).toMatchObject({ code: 'STORAGE_FULL', requestId: expect.any(String) });
  expect(body.error).toMatch(/media storage is full/i);
  expect(Object.keys(body).sort()).toEqual(['code', 'error', 'requestId']);
}

/** Mounts a tmpfs of `size` at `dir`; false when this process may not (not root, no mount). */
function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!HAS_DEV_FULL)('local media storage on a full disk', () => {
  it('put: 507 STORAGE_FULL from a real ENOSPC, no .part file left, the monitor remembers until a write succeeds', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-full-'));
    try {
      let now = 1_000_000;
      const disk = createDiskSpaceMonitor({ dirs: [root], minFreeBytes: 0, now: () => now });
      const storage = new LocalDiskStorage(root, 'http://127.0.0.1:1', disk);
      const key = 'tenant/media/abc-photo.png';
      fs.mkdirSync(path.join(root, 'tenant/media'), { recursive: true });
      fs.symlinkSync('/dev/full', path.join(root, `${key}.part`));
      const err = await storage.put(key, Readable.from([makePng(64, 64, 'noise')]), 'image/png').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ code: 'STORAGE_FULL', status: 507, cause: { code: 'ENOSPC' } });
      expect(fs.readdirSync(path.join(root, 'tenant/media'))).toEqual([]);
      expect(await disk.check()).toMatchObject({ ok: false, lastFullAt: new Date(now).toISOString(), error: 'a write failed for a full disk' });

      now += FULL_DISK_MEMORY_MS - 1;
      expect((await disk.check()).ok).toBe(false);
      await storage.put(key, Readable.from([makePng()]), 'image/png');
      expect(await disk.check()).toMatchObject({ ok: true, lastFullAt: null, freeBytes: expect.any(Number) });
      // Without a successful write, the failure stops counting after FULL_DISK_MEMORY_MS.
      disk.failed(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
      now += FULL_DISK_MEMORY_MS + 1;
      expect((await disk.check()).ok).toBe(true);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!HAS_DEV_FULL)('a client upload (tus PATCH) on a full disk', () => {
  let ctx: TestContext;
  beforeAll(async () => { ctx = await createTestApp({ env: { HERALD_MEDIA_MIN_FREE_MB: '0' } }); });
  afterAll(async () => { await ctx.close(); });

  it('answers 507 STORAGE_FULL, /health reports the storage full (503) until an upload is stored', async () => {
    const t = await createTenant(ctx);
    const png = makePng(32, 32, 'noise');
    expect((await ctx.app.inject({ method: 'GET', url: '/health' })).json().storage).toMatchObject({ ok: true, kind: 'local', lastFullAt: null });
    const ticket = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: t.headers, payload: { filename: 'full.png', contentType: 'image/png', size: png.length } });
    expect(ticket.statusCode).toBe(201);
    const { uploadId, token } = ticket.json();
    // The staged file of this upload refuses every write with ENOSPC.
    const staged = path.join(ctx.dataDir, 'uploads', uploadId);
    fs.rmSync(staged);
    fs.symlinkSync('/dev/full', staged);
    const patch = () => ctx.app.inject({
      method: 'PATCH', url: `/uploads/${uploadId}`, payload: png,
      headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    });
    expectStorageFull(await patch());
    const health = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ status: 'degraded', database: { ok: true }, storage: { ok: false, kind: 'local', lastFullAt: expect.any(String) } });

    // Space again: the same upload resumes from its offset (0) and is stored; /health clears.
    fs.rmSync(staged);
    fs.writeFileSync(staged, '');
    const done = await patch();
    expect(done.statusCode).toBe(200);
    expect(done.json().files[0]).toMatchObject({ type: 'image', size: png.length });
    expect((await ctx.app.inject({ method: 'GET', url: '/health' })).json().storage).toMatchObject({ ok: true, lastFullAt: null });
  });
});

describe('GET /health and the free-space floor', () => {
  let ctx: TestContext;
  beforeAll(async () => { ctx = await createTestApp({ env: { HERALD_MEDIA_MIN_FREE_MB: '10000000' } }); });
  afterAll(async () => { await ctx.close(); });

  it('reports the storage full (503) while the upload disk has less free space than HERALD_MEDIA_MIN_FREE_MB', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json().storage).toMatchObject({ ok: false, freeBytes: expect.any(Number), minFreeBytes: 10_000_000 * 1024 * 1024, error: expect.stringMatching(/HERALD_MEDIA_MIN_FREE_MB/) });
    expect(res.json().storage.freeBytes).toBeLessThan(res.json().storage.minFreeBytes);
  });
});

describe('a multipart upload on a real full file system (tmpfs; needs the right to mount)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-tmpfs-'));
  const mounted = mountTmpfs(dataDir, '1m');
  let ctx: TestContext;
  beforeAll(async () => {
    if (mounted) ctx = await createTestApp({ env: { HERALD_DATA_DIR: dataDir, HERALD_MEDIA_MIN_FREE_MB: '0' } });
  });
  afterAll(async () => {
    await ctx?.close();
    if (mounted) execFileSync('umount', [dataDir]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.skipIf(!mounted)('answers 507 STORAGE_FULL for a file larger than the free space, keeps no staged or stored bytes, and /health says so', async () => {
    const t = await createTenant(ctx);
    const big = makePng(700, 700, 'noise'); // about 1.5 MB: more than the 1 MB file system holds
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const { payload, contentType } = multipart('files', [{ filename: 'big.png', contentType: 'image/png', data: big }]);
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, 'content-type': contentType }, payload });
    expectStorageFull(res);
    const files = (dir: string) => (fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile()) : []);
    expect(files(path.join(dataDir, 'uploads', 'multipart'))).toEqual([]);
    expect(files(path.join(dataDir, 'media'))).toEqual([]);
    const health = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json().storage).toMatchObject({ ok: false, lastFullAt: expect.any(String), freeBytes: expect.any(Number) });

    // A small file fits: it is stored, and /health no longer reports the disk full.
    const small = multipart('files', [{ filename: 'small.png', contentType: 'image/png', data: makePng() }]);
    const ok = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, 'content-type': small.contentType }, payload: small.payload });
    expect(ok.statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/health' })).json().storage).toMatchObject({ ok: true, lastFullAt: null });
  });
});
