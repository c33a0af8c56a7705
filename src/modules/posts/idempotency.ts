/**
 * Idempotency keys on POST /v1/posts (`Idempotency-Key`, or `x-request-id` when no
 * key is given). A repeat with the same key and body within 24 hours returns the first
 * response and creates nothing; the same key with another body is a 422; a repeat
 * while the first is still running is a 409. The key row is written in the post's own
 * transaction (posts/service.ts), so a crash can never leave a post without its key.
 */
import { createHash } from 'node:crypto';
import { AppError } from '../../core/errors.ts';
import type { Db, Queryable } from '../../storage/db.ts';

export type IdempotencyLookup =
  | { kind: 'new' }
  | { kind: 'replay'; statusCode: number; body: unknown }
  | { kind: 'pending'; postId: string | null };

/** Stable hash of a JSON body (keys sorted). */
export function requestHash(body: unknown): string {
  const canon = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canon)
      : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, canon((v as Record<string, unknown>)[k])]))
        : v;
  return createHash('sha256').update(JSON.stringify(canon(body ?? null))).digest('hex');
}

export function createIdempotencyService(db: Db, clock: () => Date) {
  return {
    /** @throws AppError IDEMPOTENCY_KEY_REUSED (422) when the key was used with another body. */
    async lookup(tenantId: string, key: string, hash: string): Promise<IdempotencyLookup> {
      const { rows } = await db.query<{ request_hash: string; status_code: number | null; response_body: unknown; post_id: string | null; created_at: Date }>(
        'SELECT request_hash, status_code, response_body, post_id, created_at FROM idempotency_keys WHERE tenant_id = $1 AND key = $2',
        [tenantId, key],
      );
      const row = rows[0];
      if (!row || clock().getTime() - row.created_at.getTime() > 24 * 3600_000) return { kind: 'new' };
      if (row.request_hash !== hash) {
        throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request body', { idempotencyKey: key });
      }
      if (row.status_code !== null) return { kind: 'replay', statusCode: row.status_code, body: row.response_body };
      return { kind: 'pending', postId: row.post_id };
    },

    /**
     * Reserves `key` for a request that is not a post creation (an edit of a published post): in its
     * own statement, before the platform is called. @throws AppError IDEMPOTENCY_KEY_IN_USE.
     */
    async reserve(tenantId: string, key: string, hash: string, postId: string | null): Promise<void> {
      await reserveIdempotencyKey(db, tenantId, key, hash, postId);
    },

    /** Frees a key whose request failed, so that the same key may try again (a failed request keeps nothing). */
    async release(tenantId: string, key: string): Promise<void> {
      await db.query('DELETE FROM idempotency_keys WHERE tenant_id = $1 AND key = $2 AND status_code IS NULL', [tenantId, key]);
    },

    async complete(tenantId: string, key: string, statusCode: number, body: unknown): Promise<void> {
      await db.query('UPDATE idempotency_keys SET status_code = $3, response_body = $4 WHERE tenant_id = $1 AND key = $2',
        [tenantId, key, statusCode, JSON.stringify(body)]);
    },

  };
}

/**
 * Reserves `key` for the post being created, in the caller's transaction (a key older than
 * 24 hours is taken over). @throws AppError IDEMPOTENCY_KEY_IN_USE while another request holds it.
 */
export async function reserveIdempotencyKey(client: Queryable, tenantId: string, key: string, hash: string, postId: string | null): Promise<void> {
  const { rowCount } = await client.query(
    `INSERT INTO idempotency_keys (tenant_id, key, request_hash, post_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (tenant_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, post_id = EXCLUDED.post_id,
       status_code = NULL, response_body = NULL, created_at = now()
     WHERE idempotency_keys.created_at < now() - interval '24 hours'`,
    [tenantId, key, hash, postId],
  );
  if (!rowCount) throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is already being processed');
}

/** Deletes idempotency keys older than their 24-hour life. */
export async function pruneIdempotencyKeys(q: Queryable): Promise<number> {
  const { rowCount } = await q.query(`DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours'`);
  return rowCount ?? 0;
}
