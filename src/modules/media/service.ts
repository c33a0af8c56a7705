/**
 * Media uploads, two ways in, one way out:
 *
 * - **multipart** (POST /v1/media, field `files`, about 4 MB per file): each part is
 *   streamed to a staging file while its first bytes are kept for type sniffing;
 * - **client upload** (POST /v1/media with JSON `{ filename, contentType, size }`, up to
 *   5 GB): a short-lived token authorises resumable tus uploads of exactly `size` bytes
 *   to `/uploads/<uploadId>` (src/modules/media/upload-routes.ts), staged by
 *   `@tus/file-store` under `<dataDir>/uploads`.
 *
 * Either way the staged file's bytes are checked against the allow-list and the declared
 * type (file-type), probed with ffprobe (duration, dimensions, codecs), moved into the
 * media storage backend (local disk or S3) and recorded as a media_files row with its
 * metadata. A file whose bytes do not match is deleted and the request fails with 415.
 * Uploads are deduplicated by content: bytes the tenant already stored (same SHA-256) answer
 * the stored file (its URL, the new file name) instead of a second copy.
 *
 * The library's own operations: tags, deletion, the posts using a file, and converting an
 * image to JPEG (PNG/WebP for Instagram, which takes JPEG only) with sharp.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { Upload } from '@tus/server';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { AppError, fieldError, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Db } from '../../storage/db.ts';
import type { MediaStorage } from '../../storage/media-storage.ts';
import { isDiskFull, storageFullError, type DiskSpaceMonitor } from '../../storage/disk-space.ts';
import type { AuthContext } from '../auth/context.ts';
import { ALLOWED_CONTENT_TYPES, extensionFor, isAllowedContentType, mediaTypeOf, resolveContentType } from './content-types.ts';
import { probeMedia, type MediaMetadata } from '../../infra/probe.ts';
import { FetchBlockedError, guardedFetch } from '../../infra/ssrf.ts';
import { gifFrames } from '../../shared/media/gif.ts';
import { createMediaRepository, type MediaFileRow } from './repository.ts';

/** Largest file Herald accepts: 5 GB (5 GiB, 5,368,709,120 bytes; docs/decisions/0009). */
export const MAX_UPLOAD_BYTES = 5 * 1024 ** 3;

/** Unfinished uploads are swept (staged bytes deleted) this long after their token expired. */
export const ABANDONED_UPLOAD_GRACE_MS = 6 * 3600_000;

/** One entry of the `files` list of POST /v1/media (same shape for both flows). */
export interface UploadedFile {
  /** Internal: the media_files row and storage key (not sent to clients). */
  id?: string;
  storageKey?: string;
  type: 'image' | 'video' | 'gif' | 'document';
  url: string;
  filename: string;
  /** Bytes. */
  size: number;
  mimeType: string;
  /** Internal: the bytes were already stored; this is that file (a failed request must not discard it). */
  deduped?: boolean;
}

/** Image formats {@link MediaService.convert} reads (and writes JPEG from). */
const CONVERTIBLE = new Set(['image/png', 'image/webp', 'image/jpeg']);

/** Largest image converted, bytes (decoded in memory). */
export const MAX_CONVERT_BYTES = 50 * 1024 * 1024;

/** Status of a client upload. `pending`: no byte yet; `processing`: all bytes in, being checked and stored. */
export type ClientUploadStatus = 'pending' | 'uploading' | 'processing' | 'completed' | 'failed' | 'cancelled' | 'expired';

/** The answer to POST /v1/media with a JSON body (the upload token response). */
export interface ClientUploadTicket {
  uploadId: string;
  /** Bearer token for the upload URL only (not an API key); shown once, stored as a hash. */
  token: string;
  /** tus upload resource: HEAD for the offset, PATCH to send bytes, GET for the status, DELETE to cancel. */
  uploadUrl: string;
  /** ISO 8601 UTC; new requests with the token are refused after it. */
  expiresAt: string;
  status: ClientUploadStatus;
  protocol: 'tus';
  tusVersion: '1.0.0';
  filename: string;
  contentType: string;
  size: number;
}

/** What GET <uploadUrl> answers. `files` once completed, `error` once failed. */
export interface ClientUploadState {
  uploadId: string;
  status: ClientUploadStatus;
  filename: string;
  contentType: string;
  size: number;
  /** Bytes received so far. */
  offset: number;
  expiresAt: string;
  files?: UploadedFile[];
  error?: string;
}

/** A media_uploads row as the upload routes need it. */
export interface UploadRow {
  id: string;
  tenant_id: string;
  user_id: string;
  filename: string;
  content_type: string;
  /** Declared size, bytes. */
  size: number;
  status: ClientUploadStatus;
  error: string | null;
  media_file_id: string | null;
  expires_at: Date;
}

const SNIFF_BYTES = 4100;
const TOKEN_PREFIX = 'upl_';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** A storage-safe file name: `name` without its extension, reduced to [A-Za-z0-9._-] (80 characters), plus `.ext`. */
export function safeName(name: string, ext: string): string {
  const base = (name || 'file').replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'file';
  return `${base}.${ext}`;
}

/** "6.2GB" style size for messages: GiB rounded up to one decimal, so anything over 5 GB never reads "5GB". */
export function formatGigabytes(bytes: number): string {
  const gb = Math.ceil((bytes / 1024 ** 3) * 10) / 10;
  return `${Number.isInteger(gb) ? gb.toFixed(0) : gb.toFixed(1)}GB`;
}

/** The file-too-large error (413) above 5 GB (decision 0009): `{ error, maxSize: "5GB", code, requestId }`. */
export function fileTooLarge(filename: string, size: number): AppError {
  return new AppError('file-too-large', `File "${filename}" is too large (${formatGigabytes(size)}). Maximum supported size is 5GB.`, undefined, { maxSize: '5GB' });
}

/** 415 for a declared type outside the allow-list, naming the list. */
export function contentTypeNotAllowed(declared: string, field: string): AppError {
  const message = `Content type not allowed: ${declared || '(none)'}. Set a valid contentType: one of ${ALLOWED_CONTENT_TYPES.join(', ')}.`;
  return new AppError('UNSUPPORTED_MEDIA_TYPE', message, { fields: { [field]: [message] }, allowed: [...ALLOWED_CONTENT_TYPES] });
}

/** SHA-256 of a file's bytes, streamed. */
async function hashFile(file: string): Promise<Buffer> {
  const h = createHash('sha256');
  await pipeline(fs.createReadStream(file), h);
  return h.digest();
}

/** Reads the first bytes of a file for sniffing. */
async function readHead(file: string): Promise<Buffer> {
  const fh = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/**
 * @tus/file-store's FileStore, with one difference: a write that fails for a full disk (ENOSPC,
 * EDQUOT) rejects with that error, which the file store replaces with a generic 500; the upload
 * routes answer it 507 STORAGE_FULL. The write itself is the file store's: the request's bytes
 * appended at `offset` to the staged file `<directory>/<uploadId>` (ids are 24 hex characters).
 */
class StagingFileStore extends FileStore {
  constructor(private readonly dir: string) {
    super({ directory: dir });
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    let received = 0;
    const count = new Transform({ transform(chunk: Buffer, _encoding, done) { received += chunk.length; done(null, chunk); } });
    try {
      await pipeline(readable, count, fs.createWriteStream(path.join(this.dir, id), { flags: 'r+', start: offset }));
    } catch (err) {
      if (isDiskFull(err)) throw err;
      // What the file store raises for any failed write (tus's FILE_WRITE_ERROR).
      throw Object.assign(new Error('Something went wrong receiving the file'), { status_code: 500, body: 'Something went wrong receiving the file\n', cause: err });
    }
    return offset + received;
  }
}

export interface MediaServiceDeps {
  db: Db;
  storage: MediaStorage;
  clock: () => Date;
  /** Absolute directory for staged bytes (tus uploads and multipart parts), e.g. `<dataDir>/uploads`. */
  stagingDir: string;
  /** Base URL under which /uploads/<id> is reachable (HERALD_PUBLIC_URL or http://HOST:PORT). */
  publicUrl: string;
  /** Client-upload token lifetime, seconds. */
  uploadTokenTtlSeconds: number;
  /** ffprobe executable. */
  ffprobePath: string;
  /** Learns of staging writes that fail for a full disk (GET /health); without it they still answer 507. */
  diskSpace?: DiskSpaceMonitor;
  /** Lets POST /v1/media/from-url fetch private and loopback addresses (HERALD_ALLOW_PRIVATE_URLS; tests and local simulators only). */
  allowPrivateUrls?: boolean;
  /** Total time for downloading one file by URL, ms (default {@link FROM_URL_TIMEOUT_MS}). */
  fromUrlTimeoutMs?: number;
}

/** Total time allowed for downloading one file of POST /v1/media/from-url, redirects included: 10 minutes. */
export const FROM_URL_TIMEOUT_MS = 10 * 60_000;

/** The file name of a URL: its last path segment, decoded ('' when there is none). */
function filenameOfUrl(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
    return decodeURIComponent(last).slice(0, 255);
  } catch {
    return '';
  }
}

export function createMediaService(deps: MediaServiceDeps) {
  const { db, storage, clock } = deps;
  fs.mkdirSync(path.join(deps.stagingDir, 'multipart'), { recursive: true });
  /** The tus data store: `<stagingDir>/<uploadId>` (bytes) and `<uploadId>.json` (tus bookkeeping). */
  const datastore = new StagingFileStore(deps.stagingDir);
  const stagedPath = (uploadId: string) => path.join(deps.stagingDir, uploadId);
  const library = createMediaRepository(db);

  /**
   * Sniffs, probes and stores one staged file; records the media_files row. The staged file is consumed.
   * `key`: a storage key reserved earlier (a presigned upload, whose URL was answered before the bytes
   * came): the file is stored there even when the tenant has the same bytes already (no deduplication,
   * so that the URL answered at presign time is the file's). `existing`: the bytes are already stored
   * under `key` (an S3 presigned PUT); the staged file is a copy to sniff and probe, nothing is written.
   */
  async function adopt(args: { id: string; tenantId: string; userId: string; staged: string; filename: string; declaredType: string; field: string; key?: string; existing?: boolean }): Promise<UploadedFile> {
    const sniffed = await fileTypeFromBuffer(await readHead(args.staged));
    const decision = resolveContentType(args.declaredType, sniffed?.mime);
    if (!decision.ok) {
      await fs.promises.rm(args.staged, { force: true });
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', decision.message, { fields: { [args.field]: [decision.message] }, filename: args.filename, allowed: [...ALLOWED_CONTENT_TYPES] });
    }
    // The same bytes stored before: that file, under the name given now (no second copy).
    const contentHash = await hashFile(args.staged);
    const same = args.key ? null : await library.findByHash(args.tenantId, contentHash);
    if (same) {
      await fs.promises.rm(args.staged, { force: true });
      return { type: same.type, url: await storage.urlFor(same.storage_key), filename: args.filename || same.filename, size: Number(same.size), mimeType: same.mime_type, id: same.id, storageKey: same.storage_key, deduped: true };
    }
    const metadata = await probeMedia(args.staged, decision.mimeType, { ffprobePath: deps.ffprobePath });
    // LinkedIn takes GIFs of at most 250 frames: count them for the creation-time rule check.
    if (decision.mimeType === 'image/gif') metadata.frames = gifFrames(await fs.promises.readFile(args.staged));
    // The file name starts with 128 random bits: the media URL is public, and ids are
    // time-ordered (one id predicts the next), so the URL must not follow from the id.
    const name = safeName(args.filename, extensionFor(decision.mimeType));
    const key = args.key ?? `${args.tenantId}/${args.id}/${randomBytes(16).toString('hex')}-${name}`;
    const stored = args.existing
      ? { size: (await fs.promises.stat(args.staged)).size, url: await storage.urlFor(key) }
      : await storage.putFile(key, args.staged, decision.mimeType);
    const type = mediaTypeOf(decision.mimeType);
    const filename = args.filename || name;
    try {
      await db.query(
        `INSERT INTO media_files (id, tenant_id, user_id, storage_key, filename, mime_type, type, size, metadata, content_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [args.id, args.tenantId, args.userId, key, filename, decision.mimeType, type, stored.size, JSON.stringify(metadata), contentHash],
      );
    } catch (err) {
      if (!args.existing) await storage.delete(key).catch(() => {});
      throw err;
    }
    return { type, url: stored.url, filename, size: stored.size, mimeType: decision.mimeType, id: args.id, storageKey: key };
  }

  async function rowOf(uploadId: string): Promise<UploadRow | null> {
    const { rows } = await db.query<UploadRow>(
      `SELECT id, tenant_id, user_id, filename, content_type, size, status, error, media_file_id, expires_at FROM media_uploads WHERE id = $1`, [uploadId]);
    return rows[0] ?? null;
  }

  async function fileEntry(mediaFileId: string, tenantId: string): Promise<UploadedFile> {
    const { rows } = await db.query<{ storage_key: string; filename: string; mime_type: string; type: UploadedFile['type']; size: string }>(
      'SELECT storage_key, filename, mime_type, type, size FROM media_files WHERE id = $1 AND tenant_id = $2', [mediaFileId, tenantId]);
    const r = rows[0];
    if (!r) throw new AppError('NOT_FOUND', 'The uploaded file no longer exists');
    return { type: r.type, url: await storage.urlFor(r.storage_key), filename: r.filename, size: Number(r.size), mimeType: r.mime_type };
  }

  async function removeStaged(uploadId: string): Promise<void> {
    await fs.promises.rm(stagedPath(uploadId), { force: true });
    await datastore.configstore.delete(uploadId).catch(() => {});
  }

  /** A library file as GET /v1/media lists it. */
  async function libraryEntry(r: MediaFileRow) {
    return {
      _id: r.id, type: r.type, url: await storage.urlFor(r.storage_key), filename: r.filename, size: Number(r.size), mimeType: r.mime_type,
      ...(r.metadata.width !== undefined ? { width: r.metadata.width } : {}),
      ...(r.metadata.height !== undefined ? { height: r.metadata.height } : {}),
      ...(r.metadata.duration !== undefined ? { durationSeconds: r.metadata.duration } : {}),
      tags: r.tags ?? [],
      createdAt: r.created_at.toISOString(),
    };
  }

  /** The error to raise for a failed staging write: 507 STORAGE_FULL for a full disk (recorded), else `err`. */
  const writeFailed = (err: unknown): unknown => (deps.diskSpace ? deps.diskSpace.failed(err) : isDiskFull(err) ? storageFullError(err) : err);

  const service = {
    /** The tus data store (for the tus server in upload-routes.ts). */
    datastore,

    /** The one way a staged file becomes a library file (sniff, probe, store, record); for presign.ts. */
    adopt,

    /**
     * The error to answer for a write of upload bytes that failed (the tus PATCH's staging write):
     * 507 STORAGE_FULL for a full disk, recorded for GET /health; any other error as it is.
     */
    writeFailed,

    /**
     * The media library (GET /v1/media): the tenant's uploaded files, newest first, `limit` per
     * page (1-100), optionally one `type` and a case-insensitive search `q` in the file name.
     * Each entry carries what POST /v1/media answered plus its id, pixels, duration (seconds)
     * and upload time, so a file can be reused in a post as it is.
     */
    async list(auth: AuthContext, query: { page?: number; limit?: number; q?: string; type?: UploadedFile['type']; tag?: string }) {
      const limit = Math.min(Math.max(query.limit ?? 20, 1), 100);
      const page = Math.max(query.page ?? 1, 1);
      const { rows, total } = await library.list(auth.tenantId, { q: query.q, type: query.type, tag: query.tag, limit, offset: (page - 1) * limit });
      const used = await library.usageCounts(auth.tenantId, rows.map((r) => r.id));
      const files = await Promise.all(rows.map(async (r) => ({ ...(await libraryEntry(r)), usedInPosts: used.get(r.id) ?? 0 })));
      return { files, pagination: { page, limit, total, pages: Math.ceil(total / limit) } };
    },

    /** One library file (as GET /v1/media lists it) and the posts that use it (newest first, at most 50). @throws NOT_FOUND */
    async get(auth: AuthContext, id: string) {
      const row = await library.get(auth.tenantId, id);
      if (!row) throw notFound('Media file');
      const posts = await library.usage(auth.tenantId, id);
      return {
        file: { ...(await libraryEntry(row)), usedInPosts: posts.length },
        usedBy: posts.map((p) => ({ _id: p.id, content: p.content, status: p.status, ...(p.scheduled_for ? { scheduledFor: p.scheduled_for.toISOString() } : {}) })),
      };
    },

    /** Replaces a file's tags (trimmed, a leading # dropped, duplicates removed). @throws NOT_FOUND */
    async setTags(auth: AuthContext, id: string, tags: string[]) {
      const clean = [...new Set(tags.map((t) => t.trim().replace(/^#/, '')).filter(Boolean))];
      const row = await library.setTags(auth.tenantId, id, clean);
      if (!row) throw notFound('Media file');
      return { file: await libraryEntry(row) };
    },

    /**
     * Deletes a file: its row and its stored bytes. Posts that name its URL keep the URL (a
     * scheduled one then fails to fetch it), so a file in use is refused unless `force`.
     * @throws NOT_FOUND; CONFLICT (409, with `usedInPosts`) when posts use it and not `force`.
     */
    async remove(auth: AuthContext, id: string, opts: { force?: boolean } = {}): Promise<void> {
      const row = await library.get(auth.tenantId, id);
      if (!row) throw notFound('Media file');
      if (!opts.force) {
        const posts = await library.usage(auth.tenantId, id);
        if (posts.length) throw new AppError('CONFLICT', `The file is used by ${posts.length} post(s); delete with force=true to delete it anyway`, { usedInPosts: posts.length });
      }
      await library.remove(auth.tenantId, id);
      await storage.delete(row.storage_key).catch(() => {});
    },

    /**
     * A JPEG copy of an image (PNG, WebP or JPEG), stored as a new library file (or the file
     * already holding those bytes) named `<name>.jpg`; transparency is flattened onto white.
     * A JPEG answers itself (`converted: false`). For Instagram, which refuses other formats.
     * @throws NOT_FOUND; UNSUPPORTED_MEDIA_TYPE (415) for a file that is not a convertible image;
     *   PAYLOAD_TOO_LARGE (413) over {@link MAX_CONVERT_BYTES}.
     */
    async convert(auth: AuthContext, id: string, req: { format: 'jpeg' }): Promise<{ files: UploadedFile[]; converted: boolean; from: string }> {
      const row = await library.get(auth.tenantId, id);
      if (!row) throw notFound('Media file');
      const url = await storage.urlFor(row.storage_key);
      const entry = (f: UploadedFile) => ({ type: f.type, url: f.url, filename: f.filename, size: f.size, mimeType: f.mimeType, id: f.id });
      if (row.mime_type === 'image/jpeg' && req.format === 'jpeg') {
        return { files: [entry({ type: row.type, url, filename: row.filename, size: Number(row.size), mimeType: row.mime_type, id: row.id })], converted: false, from: row.mime_type };
      }
      if (!CONVERTIBLE.has(row.mime_type)) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Only PNG, WebP and JPEG images can be converted to JPEG, not ${row.mime_type}`, { fields: { id: [`is ${row.mime_type}`] } });
      }
      if (Number(row.size) > MAX_CONVERT_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', 'The image is too large to convert (50 MB at most)', { limitBytes: MAX_CONVERT_BYTES });
      const read = await storage.readByUrl(url, MAX_CONVERT_BYTES);
      if (!read) throw notFound('Media file');
      const newIdValue = newId();
      const staged = path.join(deps.stagingDir, 'multipart', newIdValue);
      try {
        await sharp(read.bytes).rotate().flatten({ background: '#ffffff' }).jpeg({ quality: 90, mozjpeg: true }).toFile(staged).catch((err: unknown) => { throw writeFailed(err); });
        const filename = `${row.filename.replace(/\.[^.]*$/, '') || 'image'}.jpg`;
        const file = await adopt({ id: newIdValue, tenantId: auth.tenantId, userId: auth.userId, staged, filename, declaredType: 'image/jpeg', field: 'id' });
        return { files: [entry(file)], converted: true, from: row.mime_type };
      } finally {
        await fs.promises.rm(staged, { force: true });
      }
    },

    /**
     * Stores one multipart file. `declaredType` is the part's Content-Type.
     * @throws AppError PAYLOAD_TOO_LARGE (413) when the part was cut at the multipart limit,
     *   UNSUPPORTED_MEDIA_TYPE (415) naming the allowed types when the bytes do not match,
     *   STORAGE_FULL (507) when the disk is full (the staged part is removed).
     */
    async storeUpload(auth: AuthContext, file: { filename: string; declaredType: string; stream: Readable }): Promise<UploadedFile> {
      const id = newId();
      const staged = path.join(deps.stagingDir, 'multipart', id);
      try {
        await pipeline(file.stream, fs.createWriteStream(staged, { mode: 0o600 })).catch((err: unknown) => { throw writeFailed(err); });
        // A part over the multipart size limit ends early (busboy sets `truncated`) instead of failing:
        // drop the partial file here, before it is sniffed, stored and recorded.
        if ((file.stream as Readable & { truncated?: boolean }).truncated) {
          throw new AppError('PAYLOAD_TOO_LARGE', 'The file exceeds the multipart upload size limit', { filename: file.filename });
        }
        return await adopt({ id, tenantId: auth.tenantId, userId: auth.userId, staged, filename: file.filename, declaredType: file.declaredType, field: 'files' });
      } finally {
        await fs.promises.rm(staged, { force: true });
      }
    },

    /**
     * Downloads a file by URL (POST /v1/media/from-url) through the SSRF guard (src/infra/ssrf.ts:
     * http(s) only, no private or reserved address unless `allowPrivateUrls`, every redirect
     * checked), streaming it to a staging file, then stores it as an upload is stored: the same
     * 5 GB limit as client uploads, the same allow-list checked on the bytes, the same probe.
     * The server's Content-Type counts as the declared type when it is an allowed one (else the
     * bytes decide). `filename` defaults to the URL's last path segment.
     * @throws AppError VALIDATION_ERROR (400) naming `url` when the URL is refused or cannot be
     *   downloaded (HTTP error, network error, time limit); file-too-large (413) over 5 GB;
     *   UNSUPPORTED_MEDIA_TYPE (415) when the bytes are not an allowed format; STORAGE_FULL (507).
     */
    async storeFromUrl(auth: AuthContext, req: { url: string; filename?: string }): Promise<UploadedFile> {
      const filename = req.filename || filenameOfUrl(req.url) || 'file';
      const id = newId();
      const staged = path.join(deps.stagingDir, 'multipart', id);
      const sink = fs.createWriteStream(staged, { mode: 0o600 });
      // The sink's errors (a full disk) reach us through the fetch or through finished(); never as an unhandled event.
      sink.on('error', () => {});
      try {
        let fetched: { contentType: string };
        try {
          fetched = await guardedFetch(req.url, { maxBytes: MAX_UPLOAD_BYTES, timeoutMs: deps.fromUrlTimeoutMs ?? FROM_URL_TIMEOUT_MS, allowPrivate: deps.allowPrivateUrls, sink });
          sink.end();
          await finished(sink);
        } catch (err) {
          sink.destroy();
          if (err instanceof FetchBlockedError && err.reason === 'too_large') {
            throw new AppError('file-too-large', `The file at url is too large. Maximum supported size is 5GB.`, { fields: { url: ['is larger than 5GB'] } }, { maxSize: '5GB' });
          }
          const disk = writeFailed(err);
          if (disk !== err) throw disk;
          const reason = err instanceof Error ? err.message : String(err);
          throw fieldError('url', err instanceof FetchBlockedError ? `is refused: ${reason}` : `could not be downloaded: ${reason}`);
        }
        const declared = isAllowedContentType(fetched.contentType.toLowerCase()) ? fetched.contentType : 'application/octet-stream';
        return await adopt({ id, tenantId: auth.tenantId, userId: auth.userId, staged, filename, declaredType: declared, field: 'url' });
      } finally {
        await fs.promises.rm(staged, { force: true });
      }
    },

    /** Removes files stored earlier in a request that then failed, so a failed request stores nothing. */
    async discard(auth: AuthContext, files: Array<{ id: string; storageKey: string }>): Promise<void> {
      for (const f of files) {
        await storage.delete(f.storageKey).catch(() => {});
        await db.query('DELETE FROM media_files WHERE id = $1 AND tenant_id = $2', [f.id, auth.tenantId]);
      }
    },

    /**
     * Starts a client upload: checks the declared size and type, creates the (empty) tus
     * upload of exactly `size` bytes and returns the token and URL.
     * @throws AppError file-too-large (413, with maxSize "5GB") over 5 GB;
     *   UNSUPPORTED_MEDIA_TYPE (415, naming the allowed list) for a type outside the allow-list.
     */
    async createClientUpload(auth: AuthContext, req: { filename: string; contentType: string; size: number }): Promise<ClientUploadTicket> {
      if (req.size > MAX_UPLOAD_BYTES) throw fileTooLarge(req.filename, req.size);
      const contentType = req.contentType.toLowerCase().split(';')[0].trim();
      if (!isAllowedContentType(contentType)) throw contentTypeNotAllowed(req.contentType, 'contentType');
      await service.sweepAbandonedUploads(5).catch(() => {});

      const id = newId();
      const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
      const now = clock();
      const expiresAt = new Date(now.getTime() + deps.uploadTokenTtlSeconds * 1000);
      await datastore.create(new Upload({ id, size: req.size, offset: 0, creation_date: now.toISOString() }));
      try {
        await db.query(
          `INSERT INTO media_uploads (id, tenant_id, user_id, token_hash, filename, content_type, size, expires_at, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
          [id, auth.tenantId, auth.userId, sha256(token), req.filename, contentType, req.size, expiresAt, now],
        );
      } catch (err) {
        await removeStaged(id);
        throw err;
      }
      return {
        uploadId: id, token, uploadUrl: `${deps.publicUrl}/uploads/${id}`, expiresAt: expiresAt.toISOString(),
        status: 'pending', protocol: 'tus', tusVersion: '1.0.0', filename: req.filename, contentType, size: req.size,
      };
    },

    /**
     * Checks an upload token (`Authorization: Bearer upl_...`) against one upload.
     * `allowExpired` lets a status read through after the token's expiry.
     * @throws AppError UNAUTHORIZED (401) for a missing, wrong or (for writes) expired token;
     *   an unknown upload id answers the same as a wrong token.
     */
    async authorizeUpload(uploadId: string, authorization: string | undefined, opts: { allowExpired?: boolean } = {}): Promise<UploadRow> {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
      const unauthorized = () => new AppError('UNAUTHORIZED', 'Unauthorized', { reason: 'Send the upload token from POST /v1/media as "Authorization: Bearer <token>"' });
      if (!m || !m[1].startsWith(TOKEN_PREFIX)) throw unauthorized();
      const { rows } = await db.query<UploadRow & { token_hash: Buffer }>(
        `SELECT id, tenant_id, user_id, filename, content_type, size, status, error, media_file_id, expires_at, token_hash FROM media_uploads WHERE id = $1`, [uploadId]);
      const given = sha256(m[1]);
      const found = rows[0];
      // Compare against a dummy hash for an unknown id, so both cases take the same path.
      const expected = found?.token_hash ?? Buffer.alloc(given.length);
      if (!timingSafeEqual(expected, given) || !found) throw unauthorized();
      const { token_hash: _hash, ...row } = found;
      if (!opts.allowExpired && row.expires_at.getTime() <= clock().getTime()) {
        throw new AppError('UNAUTHORIZED', 'Unauthorized', { reason: `The upload token expired at ${row.expires_at.toISOString()}; start a new upload with POST /v1/media` });
      }
      return row;
    },

    /** Marks the first write (pending -> uploading). */
    async markUploading(uploadId: string): Promise<void> {
      await db.query(`UPDATE media_uploads SET status = 'uploading', updated_at = $2 WHERE id = $1 AND status = 'pending'`, [uploadId, clock()]);
    },

    /**
     * Finishes a client upload whose bytes are all staged: checks the bytes against the
     * declared type, probes, stores, records. Idempotent: a completed upload returns its file again.
     * @throws AppError UNSUPPORTED_MEDIA_TYPE (415) when the bytes do not match (the upload is deleted),
     *   CONFLICT (409) while another request is finishing it or when it failed/was cancelled.
     */
    async completeClientUpload(uploadId: string): Promise<UploadedFile> {
      const { rows } = await db.query<UploadRow>(
        `UPDATE media_uploads SET status = 'processing', updated_at = $2 WHERE id = $1 AND status IN ('pending', 'uploading')
         RETURNING id, tenant_id, user_id, filename, content_type, size, status, error, media_file_id, expires_at`, [uploadId, clock()]);
      const row = rows[0];
      if (!row) {
        const current = await rowOf(uploadId);
        if (current?.status === 'completed' && current.media_file_id) return fileEntry(current.media_file_id, current.tenant_id);
        throw new AppError('CONFLICT', current?.status === 'processing' ? 'The upload is being processed; GET the upload URL for its status' : `The upload is ${current?.status ?? 'gone'}${current?.error ? `: ${current.error}` : ''}`);
      }
      const staged = stagedPath(uploadId);
      try {
        const { size } = await fs.promises.stat(staged);
        if (size !== Number(row.size)) throw new AppError('CONFLICT', `The upload has ${size} of ${row.size} bytes`);
        const file = await adopt({ id: row.id, tenantId: row.tenant_id, userId: row.user_id, staged, filename: row.filename, declaredType: row.content_type, field: 'contentType' });
        await db.query(`UPDATE media_uploads SET status = 'completed', media_file_id = $2, updated_at = $3 WHERE id = $1`, [uploadId, file.id ?? row.id, clock()]);
        await datastore.configstore.delete(uploadId).catch(() => {});
        return file;
      } catch (err) {
        if (err instanceof AppError && err.code === 'UNSUPPORTED_MEDIA_TYPE') {
          await removeStaged(uploadId);
          await db.query(`UPDATE media_uploads SET status = 'failed', error = $2, updated_at = $3 WHERE id = $1`, [uploadId, err.message, clock()]);
        } else {
          // Storage or database trouble: keep the staged bytes; a repeated final PATCH (offset = size, no body) retries.
          await db.query(`UPDATE media_uploads SET status = 'uploading', updated_at = $2 WHERE id = $1 AND status = 'processing'`, [uploadId, clock()]);
        }
        throw err;
      }
    },

    /** The upload's status for GET <uploadUrl>: offset from the staged bytes, `files` once completed. */
    async clientUploadState(row: UploadRow): Promise<ClientUploadState> {
      const size = Number(row.size);
      let offset = 0;
      if (row.status === 'completed' || row.status === 'processing') offset = size;
      else if (row.status === 'pending' || row.status === 'uploading') offset = (await fs.promises.stat(stagedPath(row.id)).catch(() => null))?.size ?? 0;
      const state: ClientUploadState = {
        uploadId: row.id, status: row.status, filename: row.filename, contentType: row.content_type, size, offset, expiresAt: row.expires_at.toISOString(),
      };
      if (row.status === 'completed' && row.media_file_id) state.files = [await fileEntry(row.media_file_id, row.tenant_id)];
      if (row.error) state.error = row.error;
      return state;
    },

    /** Marks an upload cancelled (tus termination) and removes its staged bytes. */
    async cancelClientUpload(uploadId: string): Promise<void> {
      await removeStaged(uploadId);
      await db.query(`UPDATE media_uploads SET status = 'cancelled', updated_at = $2 WHERE id = $1 AND status IN ('pending', 'uploading')`, [uploadId, clock()]);
    },

    /**
     * Deletes the staged bytes of uploads whose token expired more than
     * {@link ABANDONED_UPLOAD_GRACE_MS} ago without completing, and marks them expired (presigned
     * uploads too on local storage; on S3 presign.ts settles those, whose bytes may be in the bucket).
     * Runs a little on every new client upload; callable from a job. Returns how many were swept.
     */
    async sweepAbandonedUploads(limit = 100): Promise<number> {
      const { rows } = await db.query<{ id: string }>(
        `UPDATE media_uploads SET status = 'expired', updated_at = $1
          WHERE id IN (SELECT id FROM media_uploads WHERE status IN ('pending', 'uploading') AND expires_at < $2
                         AND (flow = 'tus' OR $4::boolean)
                       ORDER BY expires_at LIMIT $3 FOR UPDATE SKIP LOCKED)
          RETURNING id`, [clock(), new Date(clock().getTime() - ABANDONED_UPLOAD_GRACE_MS), limit, !storage.presignPut]);
      for (const r of rows) await removeStaged(r.id);
      return rows.length;
    },
  };
  return service;
}

export type MediaService = ReturnType<typeof createMediaService>;
export type { MediaMetadata };
