/** The `team_invites` table (owner: this module). Tokens are stored as their SHA-256 only. */
import type { Queryable } from '../../storage/db.ts';

export interface TeamInviteRow {
  id: string;
  tenant_id: string;
  created_by: string;
  token_hash: Buffer;
  scope: 'all' | 'profiles';
  profile_ids: string[];
  expires_at: Date;
  used_at: Date | null;
  used_by: string | null;
  created_at: Date;
}

/** Inserts an invite. */
export async function insertInvite(q: Queryable, row: Omit<TeamInviteRow, 'used_at' | 'used_by'>): Promise<void> {
  await q.query(
    `INSERT INTO team_invites (id, tenant_id, created_by, token_hash, scope, profile_ids, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [row.id, row.tenant_id, row.created_by, row.token_hash, row.scope, row.profile_ids, row.expires_at, row.created_at]);
}

/** The invite with this token hash; `lock` takes it FOR UPDATE (accepting it). */
export async function findByTokenHash(q: Queryable, tokenHash: Buffer, lock = false): Promise<TeamInviteRow | null> {
  const { rows } = await q.query<TeamInviteRow>(`SELECT * FROM team_invites WHERE token_hash = $1${lock ? ' FOR UPDATE' : ''}`, [tokenHash]);
  return rows[0] ? { ...rows[0], profile_ids: rows[0].profile_ids.map((p) => p.trim()) } : null;
}

/** Marks an invite used by `userId`. */
export async function markUsed(q: Queryable, id: string, userId: string, at: Date): Promise<void> {
  await q.query('UPDATE team_invites SET used_at = $2, used_by = $3 WHERE id = $1', [id, at, userId]);
}

/** The tenant's unused, unexpired invites, newest first. */
export async function listPending(q: Queryable, tenantId: string, now: Date): Promise<TeamInviteRow[]> {
  const { rows } = await q.query<TeamInviteRow>(
    'SELECT * FROM team_invites WHERE tenant_id = $1 AND used_at IS NULL AND expires_at > $2 ORDER BY created_at DESC, id DESC LIMIT 200',
    [tenantId, now]);
  return rows.map((r) => ({ ...r, profile_ids: r.profile_ids.map((p) => p.trim()) }));
}

/** Deletes an unused invite of the tenant; true when one was deleted. */
export async function deleteUnused(q: Queryable, tenantId: string, id: string): Promise<boolean> {
  const { rowCount } = await q.query('DELETE FROM team_invites WHERE id = $1 AND tenant_id = $2 AND used_at IS NULL', [id, tenantId]);
  return (rowCount ?? 0) > 0;
}
