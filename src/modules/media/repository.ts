/**
 * The media library's side of media_files (the uploads module inserts the rows, ./service.ts):
 * a tenant's files, newest first, paged, optionally by type, by tag and by a search in the file
 * name and tags; one file by id or by content hash (uploads are deduplicated by it); tags; the
 * posts that use a file; deleting a file's row.
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
  tags: string[];
  created_at: Date;
}

/** A post that uses a file (its media items name the file's URL). */
export interface MediaUseRow { id: string; content: string; status: string; scheduled_for: Date | null }

const COLUMNS = 'id, storage_key, filename, mime_type, type, size, metadata, tags, created_at';

export interface MediaListQuery {
  /** Case-insensitive substring of the file name. */
  q?: string;
  type?: MediaFileRow['type'];
  /** Files carrying this tag (exact). */
  tag?: string;
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
      if (query.tag?.trim()) { params.push(query.tag.trim()); where += ` AND $${params.length} = ANY(tags)`; }
      if (query.q?.trim()) {
        params.push(likePattern(query.q.trim()));
        where += ` AND (filename ILIKE $${params.length} OR EXISTS (SELECT 1 FROM unnest(tags) t WHERE t ILIKE $${params.length}))`;
      }
      const count = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM media_files WHERE ${where}`, params);
      params.push(query.limit, query.offset);
      const { rows } = await db.query<MediaFileRow>(
        `SELECT ${COLUMNS} FROM media_files WHERE ${where}
          ORDER BY created_at DESC, id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`, params);
      return { rows, total: count.rows[0]?.n ?? 0 };
    },

    /** One of the tenant's files, or null. */
    async get(tenantId: string, id: string): Promise<MediaFileRow | null> {
      const { rows } = await db.query<MediaFileRow>(`SELECT ${COLUMNS} FROM media_files WHERE id = $1 AND tenant_id = $2`, [id, tenantId]);
      return rows[0] ?? null;
    },

    /** The tenant's file with these bytes (SHA-256 `hash`), or null (files stored before hashes were kept never match). */
    async findByHash(tenantId: string, hash: Buffer): Promise<MediaFileRow | null> {
      const { rows } = await db.query<MediaFileRow>(
        `SELECT ${COLUMNS} FROM media_files WHERE tenant_id = $1 AND content_hash = $2 ORDER BY created_at LIMIT 1`, [tenantId, hash]);
      return rows[0] ?? null;
    },

    /** Replaces a file's tags; the row, or null when the tenant has no such file. */
    async setTags(tenantId: string, id: string, tags: string[]): Promise<MediaFileRow | null> {
      const { rows } = await db.query<MediaFileRow>(`UPDATE media_files SET tags = $3 WHERE id = $1 AND tenant_id = $2 RETURNING ${COLUMNS}`, [id, tenantId, tags]);
      return rows[0] ?? null;
    },

    /** Deletes a file's row; whether it existed. */
    async remove(tenantId: string, id: string): Promise<boolean> {
      const { rowCount } = await db.query('DELETE FROM media_files WHERE id = $1 AND tenant_id = $2', [id, tenantId]);
      return (rowCount ?? 0) > 0;
    },

    /**
     * The tenant's posts whose media items (or a video's thumbnail) name the file: every storage
     * backend puts `<tenantId>/<mediaId>/` in the URL (./lookup.ts), newest first, at most `limit`.
     */
    async usage(tenantId: string, id: string, limit = 50): Promise<MediaUseRow[]> {
      const { rows } = await db.query<MediaUseRow>(
        `SELECT id, content, status, scheduled_for FROM posts
          WHERE tenant_id = $1 AND media_items::text LIKE $2
          ORDER BY created_at DESC LIMIT $3`, [tenantId, likePattern(`/${tenantId}/${id}/`), limit]);
      return rows;
    },

    /** How many of the tenant's posts use each of `ids` (see {@link usage}). */
    async usageCounts(tenantId: string, ids: string[]): Promise<Map<string, number>> {
      if (ids.length === 0) return new Map();
      const { rows } = await db.query<{ id: string; n: number }>(
        `SELECT f.id, count(p.id)::int AS n FROM unnest($2::text[]) AS f(id)
           LEFT JOIN posts p ON p.tenant_id = $1 AND p.media_items::text LIKE '%/' || $1 || '/' || f.id || '/%'
          GROUP BY f.id`, [tenantId, ids]);
      return new Map(rows.map((r) => [r.id.trim(), r.n]));
    },
  };
}

export type MediaRepository = ReturnType<typeof createMediaRepository>;
