/**
 * The `api_keys` table's writes that other modules need (docs/architecture.md, "Who writes each
 * table"; decision 0054). The keys' own lifecycle (create, revoke) is in ./service.ts.
 */
import type { Queryable } from '../../storage/db.ts';

/**
 * Records that key `keyId` authenticated a request at `at` (its `last_used_at`; authentication
 * writes it at most once a minute per key). No error when the key is gone.
 */
export async function touchApiKey(q: Queryable, keyId: string, at: Date): Promise<void> {
  await q.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [keyId, at]);
}
