/**
 * The `users` table's writes that other modules need (docs/architecture.md, "Who writes each
 * table"; decision 0054): sessions set a password and record a sign-in here. The users'
 * own lifecycle (sign-up, team members, plans) is in ./service.ts.
 */
import type { Queryable } from '../../storage/db.ts';

/**
 * Stores a new password hash for the user found `by` id or by email (case-insensitive), with
 * `now` as its change time. Answers the user's id, or null when no user matches (nothing written).
 */
export async function setPasswordHash(q: Queryable, by: 'id' | 'email', key: string, hash: string, now: Date): Promise<string | null> {
  const where = by === 'id' ? 'id = $1' : 'lower(email) = lower($1)';
  const { rows } = await q.query<{ id: string }>(`UPDATE users SET password_hash = $2, password_changed_at = $3 WHERE ${where} RETURNING id`, [key, hash, now]);
  return rows[0]?.id ?? null;
}

/** Records a sign-in of the user at `now` (`last_login_at`). */
export async function recordLogin(q: Queryable, userId: string, now: Date): Promise<void> {
  await q.query('UPDATE users SET last_login_at = $2 WHERE id = $1', [userId, now]);
}
