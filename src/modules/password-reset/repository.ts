/**
 * The password_resets table (migration 0022): one row per reset link sent, keyed by the SHA-256
 * of its token. This module is its only owner.
 */
import type { Db, Queryable } from '../../storage/db.ts';

/** A reset link's row as the service reads it. */
export interface ResetRow {
  user_id: string;
  expires_at: Date;
  used_at: Date | null;
}

export function createPasswordResetRepository(db: Db) {
  return {
    /** Stores a new link's token hash for `userId`, valid until `expiresAt`. */
    async insert(tokenHash: Buffer, userId: string, now: Date, expiresAt: Date, ip: string | null): Promise<void> {
      await db.query('INSERT INTO password_resets (token_hash, user_id, created_at, expires_at, ip) VALUES ($1, $2, $3, $4, $5)', [tokenHash, userId, now, expiresAt, ip]);
    },

    /** The link with this token hash, or null. */
    async find(tokenHash: Buffer): Promise<ResetRow | null> {
      const { rows } = await db.query<ResetRow>('SELECT user_id, expires_at, used_at FROM password_resets WHERE token_hash = $1', [tokenHash]);
      return rows[0] ?? null;
    },

    /**
     * Uses the link up, in `q`'s transaction: only an unused, unexpired one (so of two
     * concurrent uses exactly one succeeds). Every other open link of the same user is closed
     * too. Answers the user's id, or null when the link cannot be used.
     */
    async consume(q: Queryable, tokenHash: Buffer, now: Date): Promise<string | null> {
      const { rows } = await q.query<{ user_id: string }>(
        'UPDATE password_resets SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id', [tokenHash, now]);
      const userId = rows[0]?.user_id ?? null;
      if (userId) await q.query('UPDATE password_resets SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL', [userId, now]);
      return userId;
    },

    /** Deletes links that expired more than a day before `now`. */
    async prune(now: Date): Promise<number> {
      const { rowCount } = await db.query(`DELETE FROM password_resets WHERE expires_at < $1::timestamptz - interval '1 day'`, [now]);
      return rowCount ?? 0;
    },
  };
}

export type PasswordResetRepository = ReturnType<typeof createPasswordResetRepository>;
