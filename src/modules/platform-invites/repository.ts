/**
 * The `platform_invites` table (docs/decisions/0037-platform-invites-and-shared-credentials.md):
 * every read and write of platform invites goes through here. Tokens are looked up by their
 * SHA-256 and kept sealed (AES-256-GCM, src/core/crypto.ts) so the inviter's list can show them.
 */
import { createHash } from 'node:crypto';
import type { SecretBox } from '../../core/crypto.ts';
import { newId } from '../../core/ids.ts';
import type { PlatformId } from '../../shared/platforms.ts';
import type { Queryable } from '../../storage/db.ts';

export interface PlatformInviteRow {
  id: string;
  tenant_id: string;
  user_id: string;
  profile_id: string;
  platform: PlatformId;
  token_hash: Buffer;
  token_sealed: string;
  expires_at: Date;
  used_at: Date | null;
  account_id: string | null;
  created_at: Date;
}

/** SHA-256 of an invite token: the only form it is looked up by. */
export const hashInviteToken = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

export function createPlatformInvitesRepository(db: Queryable, secrets: SecretBox) {
  return {
    /** The invite's token in clear (opened from its sealed copy). */
    tokenOf: (row: Pick<PlatformInviteRow, 'token_sealed'>): string => secrets.open(row.token_sealed),

    async insert(i: { tenantId: string; userId: string; profileId: string; platform: PlatformId; token: string; createdAt: Date; expiresAt: Date }): Promise<PlatformInviteRow> {
      const { rows } = await db.query<PlatformInviteRow>(
        `INSERT INTO platform_invites (id, tenant_id, user_id, profile_id, platform, token_hash, token_sealed, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
        [newId(), i.tenantId, i.userId, i.profileId, i.platform, hashInviteToken(i.token), secrets.seal(i.token), i.createdAt, i.expiresAt]);
      return rows[0];
    },

    /** The tenant's invites, newest first; `profileIds` null: of every profile. */
    async list(tenantId: string, profileIds: readonly string[] | null): Promise<PlatformInviteRow[]> {
      return (await db.query<PlatformInviteRow>(
        `SELECT * FROM platform_invites WHERE tenant_id = $1 AND ($2::char(24)[] IS NULL OR profile_id = ANY($2::char(24)[]))
          ORDER BY created_at DESC, id DESC LIMIT 500`, [tenantId, profileIds])).rows;
    },

    async get(tenantId: string, id: string): Promise<PlatformInviteRow | undefined> {
      return (await db.query<PlatformInviteRow>('SELECT * FROM platform_invites WHERE id = $1 AND tenant_id = $2', [id, tenantId])).rows[0];
    },

    async byToken(token: string): Promise<PlatformInviteRow | undefined> {
      return (await db.query<PlatformInviteRow>('SELECT * FROM platform_invites WHERE token_hash = $1', [hashInviteToken(token)])).rows[0];
    },

    async byId(id: string): Promise<PlatformInviteRow | undefined> {
      return (await db.query<PlatformInviteRow>('SELECT * FROM platform_invites WHERE id = $1', [id])).rows[0];
    },

    /** Deletes an unused invite; false when it was used (or is gone) meanwhile. */
    async removeUnused(tenantId: string, id: string): Promise<boolean> {
      const { rowCount } = await db.query('DELETE FROM platform_invites WHERE id = $1 AND tenant_id = $2 AND used_at IS NULL', [id, tenantId]);
      return (rowCount ?? 0) > 0;
    },

    /**
     * Uses the invite up for `accountId`, in the caller's transaction `q` (the one storing the
     * account): true for the one caller that found it unused and unexpired at `now`.
     */
    async use(q: Queryable, id: string, accountId: string, now: Date): Promise<boolean> {
      const { rowCount } = await q.query(
        'UPDATE platform_invites SET used_at = $3, account_id = $2 WHERE id = $1 AND used_at IS NULL AND expires_at > $3', [id, accountId, now]);
      return (rowCount ?? 0) > 0;
    },
  };
}

export type PlatformInvitesRepository = ReturnType<typeof createPlatformInvitesRepository>;
