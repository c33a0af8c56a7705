/**
 * The media library's reads of media_files (the uploads module writes the rows, ./service.ts):
 * a tenant's files, newest first, paged, optionally by type and by a search in the file name.
 */
import type { Db } from '../../storage/db.ts';
import type { MediaMetadata } from '../../shared/media/ffprobe.ts';

export interface MediaFileRow {
  id: string;
  storage_key: string;
  filename: string;
  mime_type: string;
  type: 'image' | 'video' | 'gif' | 'document';
  size: string;
  metadata: MediaMetadata;
  created_at: Date;
}

export interface MediaListQuery {
  /** Case-insensitive substring of the file name. */
  q?: string;
  type?: MediaFileRow['type'];
  limit: number;
  offset: number;
}

/** `%` and `_` in a search are literal characters, not LIKE wildcards. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createMediaRepository(db: Db) {
  return {
    /** One page of the tenant's files (newest first) and the number of files matching. */
    async list(tenantId: string, query: MediaListQuery): Promise<{ rows: MediaFileRow[]; total: number }> {
      const params: unknown[] = [tenantId];
      let where = 'tenant_id = $1';
      if (query.type) { params.push(query.type); where += ` AND type = $${params.length}`; }
      if (query.q?.trim()) { params.push(likePattern(query.q.trim())); where += ` AND filename ILIKE $${params.length}`; }
      const count = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM media_files WHERE ${where}`, params);
      params.push(query.limit, query.offset);
      const { rows } = await db.query<MediaFileRow>(
        `SELECT id, storage_key, filename, mime_type, type, size, metadata, created_at FROM media_files WHERE ${where}
          ORDER BY created_at DESC, id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`, params);
      return { rows, total: count.rows[0]?.n ?? 0 };
    },
  };
}

export type MediaRepository = ReturnType<typeof createMediaRepository>;
