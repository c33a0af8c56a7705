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
import { S3Storage } from './s3-storage.ts';

/** A stored file: its storage key, size in bytes and the URL clients use. */
export interface StoredObject {
  key: string;
  size: number;
  url: string;
}

/**
 * One media storage backend. Keys look like `<tenantId>/<mediaId>/<128 random bits, hex>-<name>.<ext>`
 * (no `..`, no leading slash; the random part keeps public media URLs unguessable).
 */
export interface MediaStorage {
  /** `local` or `s3`, for logs and health output. */
  readonly kind: 'local' | 's3';
  /** Writes `body` under `key`, streaming. @throws when the stream fails; nothing partial stays stored. */
  put(key: string, body: Readable, contentType: string): Promise<StoredObject>;
  /**
   * Moves a local file (a staged upload, any size) into storage under `key` and removes
   * the local file: a rename on local disk, a streamed multipart upload on S3.
   * @throws when the transfer fails (the local file is then left in place for the caller to remove).
   */
  putFile(key: string, file: string, contentType: string): Promise<StoredObject>;
  /** Removes a stored key; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** URL of a stored key for clients and platforms: a Herald URL, the bucket's public URL, or a presigned GET URL. */
  urlFor(key: string): Promise<string>;
  /** Reads a file by its URL when the URL is one of ours; null for foreign URLs. @throws when larger than maxBytes. */
  readByUrl(url: string, maxBytes: number): Promise<{ bytes: Buffer; mimeType: string } | null>;
  /** Registers routes that serve the files, when the backend serves them itself. */
  registerRoutes?(app: FastifyInstance): Promise<void>;
}

/**
 * A media file Herald stores could not be read for publishing. The message is safe to show
 * to users (post target errors): it never names a server path.
 */
export class MediaReadError extends Error {
  override readonly name = 'MediaReadError';
}

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

/** Builds the backend chosen by configuration (HERALD_STORAGE): local disk under `dataDir/media`, or S3. */
export function createMediaStorage(config: Config, publicUrl: string): MediaStorage {
  if (config.storage.kind === 's3') return new S3Storage(config.storage);
  return new LocalDiskStorage(path.join(config.dataDir, 'media'), publicUrl);
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

const MIME_BY_EXT: Record<string, string> = {
  '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp', '.gif': 'image/gif',
  '.mp4': 'video/mp4', '.m4v': 'video/x-m4v', '.mov': 'video/quicktime', '.mpeg': 'video/mpeg', '.mpg': 'video/mpeg',
  '.avi': 'video/x-msvideo', '.webm': 'video/webm', '.pdf': 'application/pdf',
};

/** The media type implied by a storage key's extension (keys carry the checked type's extension). */
export function mimeTypeOfKey(key: string): string {
  return MIME_BY_EXT[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
}

/** Files under `<dataDir>/media`, served at `<publicUrl>/media/<key>`. */
export class LocalDiskStorage implements MediaStorage {
  readonly kind = 'local' as const;

  constructor(private readonly root: string, private readonly publicUrl: string) {
    fs.mkdirSync(root, { recursive: true });
  }

  private pathOf(key: string): string {
    const p = path.resolve(this.root, key);
    if (!p.startsWith(this.root + path.sep)) throw new Error(`invalid storage key ${key}`);
    return p;
  }

  async put(key: string, body: Readable, _contentType: string): Promise<StoredObject> {
    const file = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.part`;
    try {
      await pipeline(body, fs.createWriteStream(tmp, { mode: 0o644 }));
      await fs.promises.rename(tmp, file);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
    const { size } = await fs.promises.stat(file);
    return { key, size, url: this.url(key) };
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async putFile(key: string, file: string, _contentType: string): Promise<StoredObject> {
    const to = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(to), { recursive: true });
    try {
      await fs.promises.rename(file, to);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      // Staging on another file system: copy through a temporary name, then drop the source.
      const tmp = `${to}.part`;
      try {
        await pipeline(fs.createReadStream(file), fs.createWriteStream(tmp, { mode: 0o644 }));
        await fs.promises.rename(tmp, to);
      } catch (copyErr) {
        await fs.promises.rm(tmp, { force: true });
        throw copyErr;
      }
      await fs.promises.rm(file, { force: true });
    }
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
