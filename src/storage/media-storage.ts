/**
 * Media storage behind one interface, so that local disk (default) and S3-compatible
 * object storage (src/storage/s3-storage.ts) are interchangeable. Files are written
 * from a stream or moved in from a staged local file; nothing here buffers a whole
 * upload in memory (`readByUrl`, for adapters, reads one file up to a size cap).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Config } from '../config.ts';
import type { S3StorageConfig } from './s3-storage.ts';
import { MediaReadError, mimeTypeOfKey, type MediaStorage, type StoredObject } from './media-object.ts';
import { isDiskFull, storageFullError, type DiskSpaceMonitor } from './disk-space.ts';

export { MediaReadError, mimeTypeOfKey, type MediaStorage, type StoredObject } from './media-object.ts';

/**
 * The storage key in the path part of one of our media URLs (after `/media/`), each segment
 * percent-decoded. @throws MediaReadError when a segment is empty, `.` or `..`, or decodes to
 * a path separator or NUL: such a URL would point outside the media folder.
 */
export function keyFromMediaPath(urlPath: string): string {
  const segments = urlPath.split(/[?#]/)[0].split('/');
  const decoded = segments.map((segment) => {
    let d: string;
    try {
      d = decodeURIComponent(segment);
    } catch {
      throw new MediaReadError('media URL is not a valid path');
    }
    if (d === '' || d === '.' || d === '..' || /[/\\\0]/.test(d)) throw new MediaReadError('media URL points outside the media folder; use the URL returned by POST /v1/media');
    return d;
  });
  return decoded.join('/');
}

/** A file-system error while reading stored media, as a message without the path. */
function readFailure(err: unknown): MediaReadError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return new MediaReadError('media file not found; it may have been deleted, upload it again');
  return new MediaReadError(`media file could not be read${code ? ` (${code})` : ''}`);
}

/** Media served inline (shown by the browser); every other type is served as a download. */
const INLINE_MEDIA = /^(image|video)\//;

/**
 * Builds the backend chosen by configuration (HERALD_STORAGE): local disk under `dataDir/media`, or S3.
 * `disk` learns of local writes that fail for a full disk (GET /health).
 */
export function createMediaStorage(config: Config, publicUrl: string, disk?: DiskSpaceMonitor): MediaStorage {
  if (config.storage.kind === 's3') return lazyS3(config.storage);
  return new LocalDiskStorage(path.join(config.dataDir, 'media'), publicUrl, disk);
}

/**
 * The S3 backend, its module (and the AWS SDK, a tenth of a second to load) loaded on first use,
 * so that a server storing on local disk (the default) never loads it and one on S3 starts
 * without waiting for it.
 */
function lazyS3(cfg: S3StorageConfig): MediaStorage {
  let loaded: Promise<MediaStorage> | null = null;
  const s3 = () => (loaded ??= import('./s3-storage.ts').then((m) => new m.S3Storage(cfg)));
  return {
    kind: 's3',
    put: async (key, body, contentType) => (await s3()).put(key, body, contentType),
    putFile: async (key, file, contentType) => (await s3()).putFile(key, file, contentType),
    delete: async (key) => (await s3()).delete(key),
    urlFor: async (key) => (await s3()).urlFor(key),
    readByUrl: async (url, maxBytes) => (await s3()).readByUrl(url, maxBytes),
    presignPut: async (key, opts) => (await s3()).presignPut!(key, opts),
    fetchToFile: async (key, file, maxBytes) => (await s3()).fetchToFile!(key, file, maxBytes),
    statKey: async (key) => (await s3()).statKey!(key),
  };
}

/**
 * URL prefixes under which Herald's stored media is fetched (the sandbox simulators' allow-list):
 * `<publicUrl>/media/` on local disk; with S3 the bucket's public URL, or on a custom endpoint
 * (MinIO, R2, ...) the bucket's presigned URLs, path-style or virtual-hosted. AWS S3's own
 * endpoints are public addresses and need no entry.
 */
export function mediaUrlPrefixes(config: Config, publicUrl: string): string[] {
  const s = config.storage;
  if (s.kind !== 's3') return [`${publicUrl}/media/`];
  if (s.publicUrl) return [`${s.publicUrl}/`];
  if (!s.endpoint) return [];
  const e = new URL(s.endpoint);
  return [`${e.origin}${e.pathname.replace(/\/+$/, '')}/${s.bucket}/`, `${e.protocol}//${s.bucket}.${e.host}/`];
}

/**
 * Files under `<dataDir>/media`, served at `<publicUrl>/media/<key>`. A write that fails for a
 * full disk leaves no partial file and raises 507 STORAGE_FULL (recorded in `disk` when given).
 */
export class LocalDiskStorage implements MediaStorage {
  readonly kind = 'local' as const;

  constructor(private readonly root: string, private readonly publicUrl: string, private readonly disk?: DiskSpaceMonitor) {
    fs.mkdirSync(root, { recursive: true });
  }

  /** The error to raise for a failed write: STORAGE_FULL for a full disk, else `err` itself. */
  private failed(err: unknown): unknown {
    if (this.disk) return this.disk.failed(err);
    return isDiskFull(err) ? storageFullError(err) : err;
  }

  private pathOf(key: string): string {
    const p = path.resolve(this.root, key);
    if (!p.startsWith(this.root + path.sep)) throw new Error(`invalid storage key ${key}`);
    return p;
  }

  async put(key: string, body: Readable, _contentType: string): Promise<StoredObject> {
    const file = this.pathOf(key);
    const tmp = `${file}.part`;
    try {
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      await pipeline(body, fs.createWriteStream(tmp, { mode: 0o644 }));
      await fs.promises.rename(tmp, file);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw this.failed(err);
    }
    this.disk?.wrote();
    const { size } = await fs.promises.stat(file);
    return { key, size, url: this.url(key) };
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async putFile(key: string, file: string, _contentType: string): Promise<StoredObject> {
    const to = this.pathOf(key);
    try {
      await fs.promises.mkdir(path.dirname(to), { recursive: true });
      await fs.promises.rename(file, to);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw this.failed(err);
      // Staging on another file system: copy through a temporary name, then drop the source.
      const tmp = `${to}.part`;
      try {
        await pipeline(fs.createReadStream(file), fs.createWriteStream(tmp, { mode: 0o644 }));
        await fs.promises.rename(tmp, to);
      } catch (copyErr) {
        await fs.promises.rm(tmp, { force: true });
        throw this.failed(copyErr);
      }
      await fs.promises.rm(file, { force: true });
    }
    this.disk?.wrote();
    await fs.promises.chmod(to, 0o644).catch(() => {});
    const { size } = await fs.promises.stat(to);
    return { key, size, url: this.url(key) };
  }

  private url(key: string): string {
    return `${this.publicUrl}/media/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  async urlFor(key: string): Promise<string> {
    return this.url(key);
  }

  async readByUrl(url: string, maxBytes: number): Promise<{ bytes: Buffer; mimeType: string } | null> {
    const prefix = `${this.publicUrl}/media/`;
    if (!url.startsWith(prefix)) return null;
    const key = keyFromMediaPath(url.slice(prefix.length));
    let file: string;
    try {
      file = this.pathOf(key);
    } catch {
      throw new MediaReadError('media URL points outside the media folder; use the URL returned by POST /v1/media');
    }
    // File-system errors name the server's path: they are replaced by messages without it.
    const stat = await fs.promises.stat(file).catch((err: unknown) => { throw readFailure(err); });
    if (!stat.isFile()) throw readFailure(Object.assign(new Error('not a file'), { code: 'EISDIR' }));
    if (stat.size > maxBytes) throw new MediaReadError(`media file is ${stat.size} bytes; the platform allows at most ${maxBytes}`);
    const bytes = await fs.promises.readFile(file).catch((err: unknown) => { throw readFailure(err); });
    return { bytes, mimeType: mimeTypeOfKey(file) };
  }

  async registerRoutes(app: FastifyInstance): Promise<void> {
    await app.register(fastifyStatic, {
      root: this.root, prefix: '/media/', decorateReply: false, index: false, list: false, dotfiles: 'deny',
      // Uploaded files are untrusted content on Herald's origin: never sniffed, sandboxed (no
      // script, no same-origin access) if opened as a page, and anything but images and videos
      // (e.g. a PDF with JavaScript) is downloaded, not rendered inline
      // (https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Headers/Content-Security-Policy/sandbox).
      setHeaders: (reply, file) => {
        reply.header('cache-control', 'public, max-age=31536000, immutable');
        reply.header('x-content-type-options', 'nosniff');
        reply.header('content-security-policy', 'sandbox');
        if (!INLINE_MEDIA.test(mimeTypeOfKey(file))) reply.header('content-disposition', 'attachment');
      },
    });
  }
}
