/**
 * Media uploads (small files, multipart): each file is streamed to storage while its
 * first bytes are kept for type sniffing (file-type); a file whose bytes do not match an
 * allowed type is deleted again and the request fails naming the rule.
 */
import { PassThrough, Transform, type Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Db } from '../../storage/db.ts';
import type { MediaStorage } from '../../storage/media-storage.ts';
import type { AuthContext } from '../auth/context.ts';
import { extensionFor, mediaTypeOf, resolveContentType } from './content-types.ts';

export interface UploadedFile {
  /** Internal: the media_files row and storage key (not sent to clients). */
  id?: string;
  storageKey?: string;
  type: 'image' | 'video' | 'gif' | 'document';
  url: string;
  filename: string;
  size: number;
  mimeType: string;
}

const SNIFF_BYTES = 4100;

function safeName(name: string, ext: string): string {
  const base = (name || 'file').replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'file';
  return `${base}.${ext}`;
}

export function createMediaService(deps: { db: Db; storage: MediaStorage; clock: () => Date }) {
  const { db, storage } = deps;
  return {
    /**
     * Stores one uploaded file. `declaredType` is the part's Content-Type.
     * @throws AppError UNSUPPORTED_MEDIA_TYPE (415) naming the allowed types.
     */
    async storeUpload(auth: AuthContext, file: { filename: string; declaredType: string; stream: Readable }): Promise<UploadedFile> {
      const id = newId();
      const head: Buffer[] = [];
      let headLen = 0;
      const tap = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          if (headLen < SNIFF_BYTES) {
            head.push(chunk.subarray(0, SNIFF_BYTES - headLen));
            headLen += Math.min(chunk.length, SNIFF_BYTES - headLen);
          }
          cb(null, chunk);
        },
      });
      const tmpKey = `${auth.tenantId}/${id}/upload.part`;
      const stored = await storage.put(tmpKey, file.stream.pipe(tap).pipe(new PassThrough()), file.declaredType);
      // A part over the multipart size limit ends early (busboy sets `truncated`) instead of failing:
      // drop the partial file here, before it is sniffed, moved and recorded.
      if ((file.stream as Readable & { truncated?: boolean }).truncated) {
        await storage.delete(tmpKey);
        throw new AppError('PAYLOAD_TOO_LARGE', 'The file exceeds the multipart upload size limit', { filename: file.filename });
      }
      const sniffed = await fileTypeFromBuffer(Buffer.concat(head));
      const decision = resolveContentType(file.declaredType, sniffed?.mime);
      if (!decision.ok) {
        await storage.delete(tmpKey);
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', decision.message, { fields: { files: [decision.message] }, filename: file.filename });
      }
      const filename = safeName(file.filename, extensionFor(decision.mimeType));
      const key = `${auth.tenantId}/${id}/${filename}`;
      const final = await storage.move(tmpKey, key);
      const type = mediaTypeOf(decision.mimeType);
      await db.query(
        `INSERT INTO media_files (id, tenant_id, user_id, storage_key, filename, mime_type, type, size) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [id, auth.tenantId, auth.userId, key, file.filename || filename, decision.mimeType, type, stored.size],
      );
      return { type, url: final.url, filename: file.filename || filename, size: stored.size, mimeType: decision.mimeType, id, storageKey: key };
    },

    /** Removes files stored earlier in a request that then failed, so a failed request stores nothing. */
    async discard(auth: AuthContext, files: Array<{ id: string; storageKey: string }>): Promise<void> {
      for (const f of files) {
        await storage.delete(f.storageKey).catch(() => {});
        await db.query('DELETE FROM media_files WHERE id = $1 AND tenant_id = $2', [f.id, auth.tenantId]);
      }
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
