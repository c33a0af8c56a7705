/**
 * Presigned uploads and temporary files (docs/decisions/0066-presigned-uploads.md), beside the
 * media service's two flows (service.ts) and through its one way in (`adopt`: sniff, probe,
 * store, record):
 *
 * - **presign** (POST /v1/media/presign `{ filename, contentType, size? }`): reserves the storage
 *   key, so the public URL is known before the bytes come, and answers a URL for one PUT of the
 *   whole file, valid one hour. On local storage Herald serves that PUT (`/uploads/presigned/<id>`,
 *   authorised by the single-use token in its query, see {@link PresignedUploads.receivePut}); on S3
 *   it is a SigV4 presigned PutObject URL with the content type (and length) signed in, and the
 *   library row is made once the object is there ({@link PresignedUploads.confirmS3}).
 * - **upload-direct** (POST /v1/media/upload-direct, multipart `file`, 25 MB): a temporary file
 *   outside the library, deleted 7 days later by the worker's hourly cleanup
 *   ({@link PresignedUploads.maintenance}).
 *
 * Both flows are recorded in tables of this module: `media_uploads` (flow `presign`) and
 * `media_temp_files` (migration 0036).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Db } from '../../storage/db.ts';
import type { MediaStorage } from '../../storage/media-storage.ts';
import type { AuthContext } from '../auth/context.ts';
import { ALLOWED_CONTENT_TYPES, extensionFor, isAllowedContentType, mediaTypeOf, resolveContentType } from './content-types.ts';
import { ABANDONED_UPLOAD_GRACE_MS, MAX_UPLOAD_BYTES, contentTypeNotAllowed, fileTooLarge, safeName, type MediaService, type UploadedFile } from './service.ts';

/** Lifetime of a presigned upload URL: one hour, as Late's (`expiresIn` is always 3600). */
export const PRESIGN_EXPIRES_SECONDS = 3600;
/** Largest file of POST /v1/media/upload-direct: 25 MB (26,214,400 bytes), as Late's. */
export const DIRECT_UPLOAD_MAX_BYTES = 25 * 1024 * 1024;
/** Temporary files of POST /v1/media/upload-direct are deleted this long after the upload: 7 days. */
export const TEMP_FILE_TTL_MS = 7 * 24 * 3600_000;

const TOKEN_PREFIX = 'ups_';
const SNIFF_BYTES = 4100;

/** The answer to POST /v1/media/presign (the official client's GetMediaPresignedUrlResponse, plus `type`). */
export interface PresignTicket {
  /** PUT the whole file here, with `Content-Type: <contentType>`, within `expiresIn` seconds. */
  uploadUrl: string;
  /** The file's URL once uploaded (use it in `mediaItems[].url`). */
  publicUrl: string;
  /** Storage key `<tenantId>/<uploadId>/<random>-<name>.<ext>`. */
  key: string;
  /** Seconds: always {@link PRESIGN_EXPIRES_SECONDS}. */
  expiresIn: number;
  type: UploadedFile['type'];
}

/** The answer to POST /v1/media/upload-direct (the official client's UploadMediaDirectResponse). */
export interface TempFile {
  url: string;
  /** The generated unique name (last segment of the URL). */
  filename: string;
  contentType: string;
  /** Bytes. */
  size: number;
}

/** One multipart part as @fastify/multipart gives it (only what {@link PresignedUploads.storeTemporary} reads). */
export type MultipartPart =
  | { type: 'field'; fieldname: string; value: unknown }
  | { type: 'file'; fieldname: string; filename: string; mimetype: string; file: Readable & { truncated?: boolean } };

interface PresignRow {
  id: string;
  tenant_id: string;
  user_id: string;
  token_hash: Buffer;
  filename: string;
  content_type: string;
  /** Largest size the PUT may have, bytes. */
  size: string;
  status: string;
  storage_key: string;
  expires_at: Date;
}

export interface PresignDeps {
  db: Db;
  storage: MediaStorage;
  clock: () => Date;
  /** Staging directory of the media service (`<dataDir>/uploads`); files go to its `multipart/` folder. */
  stagingDir: string;
  /** Base URL of Herald (HERALD_PUBLIC_URL), for the local PUT URL. */
  publicUrl: string;
  media: Pick<MediaService, 'adopt' | 'writeFailed' | 'sweepAbandonedUploads'>;
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();
const bareType = (t: string | undefined) => (t ?? '').toLowerCase().split(';')[0].trim();
/** The stored name of a declared type (image/jpg is stored as image/jpeg, video/avi as video/x-msvideo). */
const canonicalType = (t: string) => (t === 'image/jpg' ? 'image/jpeg' : t === 'video/avi' ? 'video/x-msvideo' : t);

/** Streams `body` to `file`, failing with 413 once more than `maxBytes` arrived (nothing is kept then). */
async function stage(body: Readable, file: string, maxBytes: number, writeFailed: (err: unknown) => unknown): Promise<number> {
  let received = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      if (received > maxBytes) done(new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the ${maxBytes} bytes this upload URL allows`, { limitBytes: maxBytes }));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(body, limit, fs.createWriteStream(file, { mode: 0o600 }));
  } catch (err) {
    await fs.promises.rm(file, { force: true });
    throw err instanceof AppError ? err : writeFailed(err);
  }
  return received;
}

/**
 * The presigned-upload and temporary-file service (wired once in src/services.ts): `presign`,
 * `receivePut` (local storage), `confirmS3` / `recheckS3` (S3), `storeTemporary`, `sweepTemporary`
 * and `maintenance` (the worker's hourly cleanup).
 */
export function createPresignedUploads(deps: PresignDeps) {
  const { db, storage, clock, media } = deps;
  const stagingDir = path.join(deps.stagingDir, 'multipart');
  fs.mkdirSync(stagingDir, { recursive: true });

  const unauthorized = (reason: string) => new AppError('UNAUTHORIZED', 'Unauthorized', { reason });

  async function setStatus(id: string, status: string, from: string, error: string | null = null, mediaFileId: string | null = null): Promise<void> {
    await db.query(`UPDATE media_uploads SET status = $2, error = $4, media_file_id = COALESCE($5, media_file_id), updated_at = $6 WHERE id = $1 AND status = $3`,
      [id, status, from, error, mediaFileId, clock()]);
  }

  /** Claims a pending presigned upload for this request (pending -> processing); false when another took it or it was used. */
  async function claim(id: string): Promise<boolean> {
    const { rowCount } = await db.query(`UPDATE media_uploads SET status = 'processing', updated_at = $2 WHERE id = $1 AND flow = 'presign' AND status = 'pending'`, [id, clock()]);
    return rowCount === 1;
  }

  /** Reads an S3 object of a presigned upload and records it; 'missing' while nothing was PUT. */
  async function settleS3(row: PresignRow): Promise<'completed' | 'missing' | 'failed'> {
    if (!(await claim(row.id))) return 'missing';
    const staged = path.join(stagingDir, `${row.id}-s3`);
    try {
      const got = await storage.fetchToFile!(row.storage_key, staged, Number(row.size)).catch(async (err: unknown) => {
        if (err instanceof Error && err.name === 'MediaReadError') {
          await storage.delete(row.storage_key).catch(() => {});
          throw new AppError('PAYLOAD_TOO_LARGE', err.message);
        }
        throw err;
      });
      if (!got) {
        await setStatus(row.id, row.expires_at.getTime() + ABANDONED_UPLOAD_GRACE_MS < clock().getTime() ? 'expired' : 'pending', 'processing');
        return 'missing';
      }
      const file = await media.adopt({ id: row.id, tenantId: row.tenant_id, userId: row.user_id, staged, filename: row.filename, declaredType: row.content_type, field: 'contentType', key: row.storage_key, existing: true });
      await setStatus(row.id, 'completed', 'processing', null, file.id ?? row.id);
      await db.query('UPDATE media_uploads SET object_etag = $2 WHERE id = $1', [row.id, got.etag]);
      return 'completed';
    } catch (err) {
      if (err instanceof AppError && (err.code === 'UNSUPPORTED_MEDIA_TYPE' || err.code === 'PAYLOAD_TOO_LARGE')) {
        // Not the declared file: it is removed, and its URL answers nothing.
        await storage.delete(row.storage_key).catch(() => {});
        await setStatus(row.id, 'failed', 'processing', err.message);
        return 'failed';
      }
      await setStatus(row.id, 'pending', 'processing');
      throw err;
    } finally {
      await fs.promises.rm(staged, { force: true });
    }
  }

  const uploads = {
    /**
     * Starts a presigned upload: checks the declared type (the allow-list) and size (at most 5 GB),
     * reserves the storage key and answers the PUT URL, valid {@link PRESIGN_EXPIRES_SECONDS}.
     * @throws AppError file-too-large (413) over 5 GB; UNSUPPORTED_MEDIA_TYPE (415, naming
     *   `contentType` and the allowed list) for a type outside the allow-list.
     */
    async presign(auth: AuthContext, req: { filename: string; contentType: string; size?: number }): Promise<PresignTicket> {
      if (req.size !== undefined && req.size > MAX_UPLOAD_BYTES) throw fileTooLarge(req.filename, req.size);
      const contentType = bareType(req.contentType);
      if (!isAllowedContentType(contentType)) throw contentTypeNotAllowed(req.contentType, 'contentType');
      const id = newId();
      const key = `${auth.tenantId}/${id}/${randomBytes(16).toString('hex')}-${safeName(req.filename, extensionFor(canonicalType(contentType)))}`;
      const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
      const now = clock();
      const expiresAt = new Date(now.getTime() + PRESIGN_EXPIRES_SECONDS * 1000);
      const uploadUrl = storage.presignPut
        ? await storage.presignPut(key, { contentType, contentLength: req.size, expiresInSeconds: PRESIGN_EXPIRES_SECONDS })
        : `${deps.publicUrl}/uploads/presigned/${id}?token=${token}`;
      await db.query(
        `INSERT INTO media_uploads (id, tenant_id, user_id, token_hash, filename, content_type, size, expires_at, created_at, updated_at, flow, storage_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, 'presign', $10)`,
        [id, auth.tenantId, auth.userId, sha256(token), req.filename, contentType, req.size ?? MAX_UPLOAD_BYTES, expiresAt, now, key],
      );
      return { uploadUrl, publicUrl: await storage.urlFor(key), key, expiresIn: PRESIGN_EXPIRES_SECONDS, type: mediaTypeOf(canonicalType(contentType)) };
    },

    /**
     * The PUT of a presigned upload on local storage: checks the URL's token (single use, one hour),
     * the `Content-Type` header (exactly the declared type), the size (at most the declared `size`,
     * else 5 GB; `Content-Length` before a byte is read, the bytes as they come) and the bytes' type,
     * then stores the file under the reserved key as a library file. A refused PUT stores nothing
     * and leaves the URL usable until it expires.
     * @throws AppError UNAUTHORIZED (401) for a wrong token or an expired URL; CONFLICT (409) once
     *   the URL was used; UNSUPPORTED_MEDIA_TYPE (415) for another Content-Type or other bytes;
     *   PAYLOAD_TOO_LARGE (413) over the size; STORAGE_FULL (507).
     */
    async receivePut(uploadId: string, token: string | undefined, req: { contentType?: string; contentLength?: number; body: Readable }): Promise<UploadedFile> {
      const { rows } = await db.query<PresignRow>(
        `SELECT id, tenant_id, user_id, token_hash, filename, content_type, size, status, storage_key, expires_at FROM media_uploads WHERE id = $1 AND flow = 'presign'`, [uploadId]);
      const row = rows[0];
      const given = sha256(token ?? '');
      // Compare against a dummy hash for an unknown id, so both cases take the same path.
      if (!timingSafeEqual(row?.token_hash ?? Buffer.alloc(given.length), given) || !row || !token?.startsWith(TOKEN_PREFIX)) {
        throw unauthorized('The upload URL is not valid: use the uploadUrl from POST /v1/media/presign as it is');
      }
      if (row.status === 'completed' || row.status === 'processing') {
        throw new AppError('CONFLICT', row.status === 'completed' ? 'This upload URL was used already (each URL takes one file); the file is at the publicUrl from POST /v1/media/presign' : 'This upload URL is in use by another request');
      }
      if (row.status !== 'pending') throw new AppError('GONE', `The upload is ${row.status}; request a new URL with POST /v1/media/presign`);
      if (row.expires_at.getTime() <= clock().getTime()) throw unauthorized(`The upload URL expired at ${row.expires_at.toISOString()}; request a new one with POST /v1/media/presign`);
      const sent = bareType(req.contentType);
      if (sent !== row.content_type) {
        const message = `Content-Type must be ${row.content_type}, the contentType given to POST /v1/media/presign (got ${sent || 'none'})`;
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', message, { fields: { 'Content-Type': [message] }, allowed: [row.content_type] });
      }
      const max = Number(row.size);
      if (req.contentLength !== undefined && req.contentLength > max) throw new AppError('PAYLOAD_TOO_LARGE', `The file is ${req.contentLength} bytes; this upload URL allows at most ${max}`, { limitBytes: max });
      if (!(await claim(uploadId))) throw new AppError('CONFLICT', 'This upload URL was used already (each URL takes one file)');
      const staged = path.join(stagingDir, `${uploadId}-put`);
      try {
        await stage(req.body, staged, max, media.writeFailed);
        const file = await media.adopt({ id: row.id, tenantId: row.tenant_id, userId: row.user_id, staged, filename: row.filename, declaredType: row.content_type, field: 'Content-Type', key: row.storage_key });
        await setStatus(uploadId, 'completed', 'processing', null, file.id ?? row.id);
        return file;
      } catch (err) {
        // Nothing is stored for a refused PUT: the URL may be used again until it expires.
        await setStatus(uploadId, 'pending', 'processing');
        throw err;
      } finally {
        await fs.promises.rm(staged, { force: true });
      }
    },

    /**
     * S3 only: records the presigned uploads of a tenant whose objects arrived (a HEAD, then the
     * bytes are read once to check their type and probe them) as library files under their key.
     * Run before the library is listed and by the worker's cleanup. Returns how many were recorded.
     */
    async confirmS3(tenantId?: string, limit = 20): Promise<number> {
      if (!storage.fetchToFile || !storage.presignPut) return 0;
      // A tenant's open ones, newest first (before its library is listed); for the cleanup, those whose URL expired.
      const { rows } = await db.query<PresignRow>(
        `SELECT id, tenant_id, user_id, token_hash, filename, content_type, size, status, storage_key, expires_at FROM media_uploads
          WHERE flow = 'presign' AND status = 'pending' AND ${tenantId ? 'tenant_id = $1 AND expires_at > $3' : '$1::text IS NULL AND expires_at <= $3'}
          ORDER BY expires_at DESC LIMIT $2`, [tenantId ?? null, limit, new Date(clock().getTime() - (tenantId ? ABANDONED_UPLOAD_GRACE_MS : 0))]);
      let done = 0;
      for (const row of rows) if ((await settleS3(row)) === 'completed') done += 1;
      return done;
    },

    /**
     * S3 only: the completed presigned uploads whose URL expired more than
     * {@link ABANDONED_UPLOAD_GRACE_MS} ago are looked at once more (a HEAD): an S3 presigned URL
     * may PUT again within its hour, so an object whose ETag changed since Herald checked it loses
     * its library file and is checked again as a new arrival (deleted when it is not the declared
     * type); a deleted object's upload is marked failed. Returns how many had changed.
     */
    async recheckS3(limit = 100): Promise<number> {
      if (!storage.statKey || !storage.presignPut) return 0;
      const { rows } = await db.query<PresignRow & { object_etag: string | null }>(
        `SELECT id, tenant_id, user_id, token_hash, filename, content_type, size, status, storage_key, expires_at, object_etag FROM media_uploads
          WHERE flow = 'presign' AND status = 'completed' AND rechecked_at IS NULL AND expires_at < $1 ORDER BY expires_at LIMIT $2`,
        [new Date(clock().getTime() - ABANDONED_UPLOAD_GRACE_MS), limit]);
      let changed = 0;
      for (const row of rows) {
        const stat = await storage.statKey(row.storage_key);
        if (!stat || stat.etag !== row.object_etag) {
          changed += 1;
          await db.query('DELETE FROM media_files WHERE id = $1 AND tenant_id = $2', [row.id, row.tenant_id]);
          await db.query(`UPDATE media_uploads SET status = $2, media_file_id = NULL, error = $3, updated_at = $4 WHERE id = $1`,
            [row.id, stat ? 'pending' : 'failed', stat ? null : 'The object was deleted from the bucket', clock()]);
          if (stat) await settleS3({ ...row, status: 'pending' });
        }
        await db.query('UPDATE media_uploads SET rechecked_at = $2 WHERE id = $1', [row.id, clock()]);
      }
      return changed;
    },

    /**
     * Stores a temporary file (POST /v1/media/upload-direct) from the multipart parts: the file
     * part `file` (at most {@link DIRECT_UPLOAD_MAX_BYTES}) and an optional field `contentType`
     * (either order; else the part's type, which may be application/octet-stream). The type is one
     * of the allowed ones, checked on the bytes. The file is not listed in the library and is
     * deleted after 7 days.
     * @throws AppError VALIDATION_ERROR (400) naming `file` (missing, empty, another file field) or
     *   `contentType`; PAYLOAD_TOO_LARGE (413) over 25 MB; UNSUPPORTED_MEDIA_TYPE (415) naming `file`.
     */
    async storeTemporary(auth: AuthContext, parts: AsyncIterable<MultipartPart>): Promise<TempFile> {
      const id = newId();
      const staged = path.join(stagingDir, `${id}-tmp`);
      try {
        let got: { filename: string; partType: string; size: number } | null = null;
        let override: string | undefined;
        for await (const part of parts) {
          if (part.type === 'field') {
            if (part.fieldname === 'contentType') override = String(part.value ?? '');
            continue;
          }
          if (part.fieldname !== 'file' || got) {
            part.file.resume();
            const why = got ? 'only one file per request' : 'is not a file field; send the file in the field "file"';
            throw new AppError('VALIDATION_ERROR', `Unexpected file field "${part.fieldname}": ${why}`, { fields: { [part.fieldname]: [why] } });
          }
          const size = await stage(part.file, staged, DIRECT_UPLOAD_MAX_BYTES, media.writeFailed);
          if (part.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', 'The file is larger than 25 MB', { limitBytes: DIRECT_UPLOAD_MAX_BYTES });
          got = { filename: part.filename, partType: part.mimetype, size };
        }
        if (!got) throw new AppError('VALIDATION_ERROR', 'No file received in the multipart field "file"', { fields: { file: ['is required'] } });
        if (got.size === 0) throw new AppError('VALIDATION_ERROR', 'The file is empty', { fields: { file: ['must not be empty'] } });
        if (override !== undefined && !isAllowedContentType(bareType(override))) throw contentTypeNotAllowed(override, 'contentType');
        const fh = await fs.promises.open(staged, 'r');
        const head = Buffer.alloc(SNIFF_BYTES);
        const { bytesRead } = await fh.read(head, 0, SNIFF_BYTES, 0).finally(() => fh.close());
        const decision = resolveContentType(override ?? got.partType, (await fileTypeFromBuffer(head.subarray(0, bytesRead)))?.mime);
        if (!decision.ok) throw new AppError('UNSUPPORTED_MEDIA_TYPE', decision.message, { fields: { file: [decision.message] }, allowed: [...ALLOWED_CONTENT_TYPES] });
        const name = `${randomBytes(16).toString('hex')}-${safeName(got.filename, extensionFor(decision.mimeType))}`;
        const key = `tmp/${auth.tenantId}/${id}/${name}`;
        const stored = await storage.putFile(key, staged, decision.mimeType);
        try {
          const now = clock(); // one instant: the file lives exactly TEMP_FILE_TTL_MS
          await db.query(`INSERT INTO media_temp_files (id, tenant_id, user_id, storage_key, filename, mime_type, size, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
            [id, auth.tenantId, auth.userId, key, name, decision.mimeType, stored.size, new Date(now.getTime() + TEMP_FILE_TTL_MS), now]);
        } catch (err) {
          await storage.delete(key).catch(() => {});
          throw err;
        }
        return { url: stored.url, filename: name, contentType: decision.mimeType, size: stored.size };
      } finally {
        await fs.promises.rm(staged, { force: true });
      }
    },

    /** Deletes temporary files whose 7 days are over (the stored bytes, then the row). Returns how many. */
    async sweepTemporary(limit = 500): Promise<number> {
      const { rows } = await db.query<{ id: string; storage_key: string }>(
        'SELECT id, storage_key FROM media_temp_files WHERE expires_at < $1 ORDER BY expires_at LIMIT $2', [clock(), limit]);
      for (const r of rows) {
        await storage.delete(r.storage_key);
        await db.query('DELETE FROM media_temp_files WHERE id = $1', [r.id]);
      }
      return rows.length;
    },

    /**
     * The worker's hourly media cleanup: temporary files past their 7 days, presigned S3 uploads
     * that arrived (or expired unused) or changed after their check, abandoned client uploads.
     * Returns how many of each.
     */
    async maintenance(): Promise<{ tempFiles: number; presigned: number; presignedChanged: number; abandonedUploads: number }> {
      return {
        tempFiles: await uploads.sweepTemporary(), presigned: await uploads.confirmS3(undefined, 100),
        presignedChanged: await uploads.recheckS3(), abandonedUploads: await media.sweepAbandonedUploads(),
      };
    },
  };
  return uploads;
}

export type PresignedUploads = ReturnType<typeof createPresignedUploads>;
