/**
 * Which stored media files posts use, for owners of files with a lifetime (AI clips expire
 * after 3 days unless a post uses them). A post uses a file when one of its media items' URLs
 * (`posts.media_items`) or its targets' platform-specific media name the file's storage key;
 * the key is the tail of every URL form the storage backends give out (local, S3 public or
 * presigned), so matching the key finds the file whatever URL the post was given.
 */
import type { Queryable } from '../../storage/db.ts';

/** The subset of `keys` (storage keys of `tenantId`'s files) that some post of the tenant uses. */
export async function storageKeysInUse(q: Queryable, tenantId: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { rows } = await q.query<{ key: string }>(
    `SELECT k.key FROM unnest($2::text[]) AS k(key)
      WHERE EXISTS (SELECT 1 FROM posts p WHERE p.tenant_id = $1 AND strpos(p.media_items::text, k.key) > 0)
         OR EXISTS (SELECT 1 FROM post_targets t WHERE t.tenant_id = $1 AND strpos(t.platform_specific_data::text, k.key) > 0)`,
    [tenantId, keys]);
  return new Set(rows.map((r) => r.key));
}
