/**
 * Team invites (docs/decisions/0036-teams-plans-billing.md): the root user invites a team member with access to every
 * profile or a listed subset. The token is 32 random bytes (base64url), shown once in the
 * create response and in `inviteUrl` (`<public URL>/signup?inviteToken=<token>`); only its
 * SHA-256 is stored. Single use; expires after {@link INVITE_TTL_MS} (7 days).
 */
import { createHash, randomBytes } from 'node:crypto';
import { AppError, fieldError, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Db } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { findTenantProfiles } from '../profiles/service.ts';
import { assertRoot, type ProfileScope, type UsersService } from '../users/service.ts';
import { deleteUnused, findByTokenHash, insertInvite, listPending, markUsed, type TeamInviteRow } from './repository.ts';

/** Team invites expire after 7 days (decision 0036). */
export const INVITE_TTL_MS = 7 * 86_400_000;

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/** Why an invite token cannot be used: shown on the sign-up page. */
export type InviteProblem = 'unknown' | 'expired' | 'used';

const PROBLEM_TEXT: Record<InviteProblem, string> = {
  unknown: 'This invite link is not valid. Check that you copied the whole link, or ask for a new invite.',
  expired: 'This invite link has expired (invites last 7 days). Ask the account owner for a new invite.',
  used: 'This invite link has already been used. Sign in instead, or ask for a new invite.',
};

/** 404 (unknown) or 410 (expired, used) with `details.reason` for the sign-up page. */
export function inviteProblem(reason: InviteProblem): AppError {
  return new AppError(reason === 'unknown' ? 'NOT_FOUND' : 'GONE', PROBLEM_TEXT[reason], { reason });
}

export function createInvitesService(deps: { db: Db; clock: () => Date; users: UsersService; publicUrl: string }) {
  const { db, clock, users } = deps;
  const inviteUrl = (token: string) => `${deps.publicUrl}/signup?inviteToken=${encodeURIComponent(token)}`;

  /**
   * Checks a requested scope: `profileIds` is required (non-empty) for scope `profiles`,
   * and every id must be one of the tenant's profiles (404 otherwise, as elsewhere).
   * @throws AppError VALIDATION_ERROR, NOT_FOUND.
   */
  async function checkScope(auth: AuthContext, scope: 'all' | 'profiles', profileIds: readonly string[] | undefined): Promise<ProfileScope & { profiles: Array<{ _id: string; name: string }> }> {
    if (scope === 'all') return { scope, profileIds: [], profiles: [] };
    const ids = [...new Set((profileIds ?? []).map((id) => id.toLowerCase()))];
    if (ids.length === 0) throw fieldError('profileIds', 'is required (at least one profile id) when scope is "profiles"');
    const profiles = await findTenantProfiles(db, auth.tenantId, ids);
    if (profiles.length !== ids.length) throw notFound('Profile');
    return { scope, profileIds: ids, profiles };
  }

  function check(row: TeamInviteRow | null): TeamInviteRow {
    if (!row) throw inviteProblem('unknown');
    if (row.used_at) throw inviteProblem('used');
    if (row.expires_at.getTime() <= clock().getTime()) throw inviteProblem('expired');
    return row;
  }

  const view = (r: TeamInviteRow) => ({
    _id: r.id, scope: r.scope, invitedProfileIds: r.profile_ids, expiresAt: r.expires_at.toISOString(), createdAt: r.created_at.toISOString(),
  });

  return {
    checkScope,

    /**
     * `POST /v1/invite/tokens`: a single-use invite, valid 7 days. Root user only.
     * @returns `{ token, scope, invitedProfileIds, expiresAt, inviteUrl }` (the token only here).
     * @throws AppError FORBIDDEN (members), VALIDATION_ERROR (profileIds missing), NOT_FOUND (a profile not the caller's).
     */
    async create(auth: AuthContext, input: { scope: 'all' | 'profiles'; profileIds?: string[]; role?: string; readOnly?: boolean }) {
      assertRoot(auth, 'invite team members');
      // Restrictions Herald cannot enforce are refused rather than ignored (the invitee would get more access than asked).
      if (input.role !== undefined && input.role !== 'member') throw fieldError('role', 'only "member" is supported: members see their profiles and use the dashboard, without API keys or billing');
      if (input.readOnly === true) throw fieldError('readOnly', 'read-only members are not supported; invite a member');
      const access = await checkScope(auth, input.scope, input.profileIds);
      const token = randomBytes(32).toString('base64url');
      const now = clock();
      const expiresAt = new Date(now.getTime() + INVITE_TTL_MS);
      await insertInvite(db, {
        id: newId(now.getTime()), tenant_id: auth.tenantId, created_by: auth.userId, token_hash: hashToken(token),
        scope: access.scope, profile_ids: access.profileIds, expires_at: expiresAt, created_at: now,
      });
      return { token, scope: access.scope, invitedProfileIds: access.profileIds, expiresAt: expiresAt.toISOString(), inviteUrl: inviteUrl(token) };
    },

    /** The tenant's pending (unused, unexpired) invites, without tokens. Root user only. */
    async list(auth: AuthContext) {
      assertRoot(auth, 'see team invites');
      return { invites: (await listPending(db, auth.tenantId, clock())).map(view) };
    },

    /** Revokes an unused invite. Root user only. @throws AppError NOT_FOUND (unknown, used, another tenant's). */
    async revoke(auth: AuthContext, id: string) {
      assertRoot(auth, 'revoke team invites');
      if (!(await deleteUnused(db, auth.tenantId, id))) throw notFound('Invite');
      return { message: 'Invite revoked' };
    },

    /**
     * What the sign-up page shows for a token: who invites, to what.
     * @throws AppError NOT_FOUND (unknown token) or GONE (expired, used), with `details.reason`.
     */
    async preview(token: string) {
      const row = check(token.length > 200 ? null : await findByTokenHash(db, hashToken(token)));
      const owner = await users.owner(row.tenant_id);
      if (!owner) throw inviteProblem('unknown');
      const profiles = row.scope === 'profiles' ? await findTenantProfiles(db, row.tenant_id, row.profile_ids) : [];
      return { inviterName: owner.name, scope: row.scope, profiles, expiresAt: row.expires_at.toISOString() };
    },

    /**
     * Accepts an invite: creates the team member with the invite's scope and marks the invite
     * used, in one transaction (two concurrent sign-ups with one token: one wins, the other
     * gets `used`). Profiles deleted since the invite was made are dropped from the scope.
     * @throws AppError NOT_FOUND/GONE for a bad token, VALIDATION_ERROR for name, email or password.
     */
    async accept(token: string, input: { name: string; email: string; password: string }): Promise<{ userId: string; tenantId: string }> {
      if (token.length > 200) throw inviteProblem('unknown');
      return db.tx(async (client) => {
        const row = check(await findByTokenHash(client, hashToken(token), true));
        const profileIds = row.scope === 'profiles' ? (await findTenantProfiles(client, row.tenant_id, row.profile_ids)).map((p) => p._id) : [];
        const { userId } = await users.createMember(client, {
          tenantId: row.tenant_id, invitedBy: row.created_by, email: input.email, name: input.name, password: input.password,
          scope: row.scope, profileIds,
        });
        await markUsed(client, row.id, userId, clock());
        return { userId, tenantId: row.tenant_id };
      });
    },
  };
}

export type InvitesService = ReturnType<typeof createInvitesService>;
