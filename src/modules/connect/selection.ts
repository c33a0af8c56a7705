/**
 * Selection steps after OAuth (docs/decisions/0016): Facebook connects a **Page** the user
 * picks, LinkedIn a personal profile or an organization. The OAuth callback does not store
 * an account for these; it stores the user's platform tokens sealed in `connect_selections`
 * under a random `tempToken` (1 hour, single use) and the caller finishes with the
 * platform's selection call (POST /v1/connect/facebook/select-page,
 * POST /v1/connect/linkedin/select-organization).
 *
 * - `create`: a new tempToken for (tenant, user, profile, platform) holding `payload`.
 * - `peek`: reads an unused, unexpired selection for the caller (tenant and profile must
 *   match); used by listing calls, does not consume it.
 * - `consume`: marks it used (once); a second use answers 400.
 */
import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../../core/crypto.ts';
import { fieldError } from '../../core/errors.ts';
import type { Db } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { getAccessibleProfile } from '../profiles/service.ts';

export const SELECTION_TTL_MS = 60 * 60 * 1000;

export interface SelectionRow {
  token: string;
  tenant_id: string;
  user_id: string;
  profile_id: string;
  platform: string;
  payload: string;
  redirect_url: string | null;
  expires_at: Date;
  used_at: Date | null;
  platform_invite_id: string | null;
}

/** `inviteId`: the platform invite the connection was started from (finishing it uses the invite up). */
export interface Selection<P> { token: string; tenantId: string; userId: string; profileId: string; platform: string; payload: P; redirectUrl: string | null; inviteId: string | null }

export function createSelectionStore(deps: { db: Db; secrets: SecretBox; clock: () => Date }) {
  const { db, secrets, clock } = deps;
  const toSelection = <P>(r: SelectionRow): Selection<P> => ({
    token: r.token, tenantId: r.tenant_id, userId: r.user_id, profileId: r.profile_id, platform: r.platform,
    payload: secrets.openJson<P>(r.payload), redirectUrl: r.redirect_url, inviteId: r.platform_invite_id,
  });

  return {
    async create(owner: { tenantId: string; userId: string; profileId: string }, platform: string, payload: unknown, redirectUrl: string | null, inviteId: string | null = null): Promise<string> {
      const token = randomBytes(24).toString('base64url');
      await db.query(
        `INSERT INTO connect_selections (token, tenant_id, user_id, profile_id, platform, payload, redirect_url, expires_at, platform_invite_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [token, owner.tenantId, owner.userId, owner.profileId, platform, secrets.sealJson(payload), redirectUrl, new Date(clock().getTime() + SELECTION_TTL_MS), inviteId],
      );
      return token;
    },

    /** @throws 404 for a profile the caller cannot see; 400 (field tempToken) for an unknown, used, expired or foreign token. */
    async peek<P>(auth: AuthContext, platform: string, profileId: string, tempToken: string): Promise<Selection<P>> {
      await getAccessibleProfile(db, auth, profileId.toLowerCase());
      const { rows } = await db.query<SelectionRow>('SELECT * FROM connect_selections WHERE token = $1', [tempToken]);
      const r = rows[0];
      if (!r || r.tenant_id !== auth.tenantId || r.platform !== platform) throw fieldError('tempToken', `is not a ${platform} selection token issued to you; connect ${platform} again`);
      if (r.used_at) throw fieldError('tempToken', 'was already used; connect again');
      if (r.expires_at.getTime() <= clock().getTime()) throw fieldError('tempToken', 'has expired (1 hour); connect again');
      if (r.profile_id !== profileId.toLowerCase()) throw fieldError('profileId', 'does not match the profile the connection was started for');
      return toSelection<P>(r);
    },

    /** Marks the token used. @throws 400 when it was used meanwhile. */
    async consume(token: string): Promise<void> {
      const { rowCount } = await db.query('UPDATE connect_selections SET used_at = now() WHERE token = $1 AND used_at IS NULL', [token]);
      if (!rowCount) throw fieldError('tempToken', 'was already used; connect again');
    },

    async purge(): Promise<void> {
      await db.query(`DELETE FROM connect_selections WHERE expires_at < now() - interval '1 day'`);
    },
  };
}

export type SelectionStore = ReturnType<typeof createSelectionStore>;
