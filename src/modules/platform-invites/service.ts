/**
 * Platform invites: client onboarding (docs/decisions/0037-platform-invites-and-shared-credentials.md).
 *
 * A user creates an invite for one profile and one platform (`POST /v1/platform-invites`); the
 * answer's `inviteUrl` (`<public URL>/v1/platform-invites/<token>/connect`) is a page that needs
 * no login (./connect-page.ts). Whoever opens it runs that platform's connect flow, and the
 * account is stored under the invite's profile; storing it uses the invite up in the same
 * transaction, so two tabs cannot both use one invite. Tokens are 32 random bytes
 * (base64url), looked up by SHA-256, single use, valid for 7 days. Unused invites can be
 * revoked (deleted); a used one answers 400.
 */
import { randomBytes } from 'node:crypto';
import { AppError, fieldError, notFound } from '../../core/errors.ts';
import type { Queryable } from '../../storage/db.ts';
import { PLATFORM_LABELS, type PlatformId } from '../../shared/platforms.ts';
import { canAccessProfile, type AuthContext } from '../auth/context.ts';
import type { PlatformInviteRow, PlatformInvitesRepository } from './repository.ts';

/** How long an invite stays valid: 7 days, as the Late API documents for platform invites. */
export const PLATFORM_INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** What the invite page needs to know about an invite, whatever its state. */
export interface InviteForPage {
  row: PlatformInviteRow;
  /** open: can be used now; used: an account was connected with it; expired: 7 days passed. */
  state: 'open' | 'used' | 'expired';
  inviterName: string;
  inviterEmail: string;
  profileName: string;
}

export interface PlatformInvitesDeps {
  repository: PlatformInvitesRepository;
  /** Throws (an AppError naming the missing settings) when `platform` cannot be connected on this server. */
  connectable(platform: PlatformId): void;
  clock: () => Date;
  publicUrl: string;
  users: { get(auth: AuthContext, userId: string): Promise<{ user: { name: string; email: string } }> };
  profiles: {
    get(auth: AuthContext, id: string): Promise<{ profile: { _id: string; name: string } }>;
    list(auth: AuthContext): Promise<{ profiles: Array<{ _id: string; name: string }> }>;
  };
}

export function createPlatformInvitesService(deps: PlatformInvitesDeps) {
  const { repository: repo, clock } = deps;
  const inviteUrl = (token: string) => `${deps.publicUrl}/v1/platform-invites/${encodeURIComponent(token)}/connect`;

  /**
   * The identity the invite's connect flow acts as: the inviter's tenant, limited to the
   * invite's profile, with no API permissions. Only the connect flow sees it; the recipient
   * gets no session and no key.
   */
  function actingFor(row: PlatformInviteRow): AuthContext {
    return {
      tenantId: row.tenant_id, userId: row.user_id, isRoot: false, keyId: '', permissions: new Set(), profileAccess: 'profiles', profileIds: [row.profile_id],
      plan: 'free', billingPeriod: 'monthly', billingAnchor: new Date(0),
    };
  }

  async function inviter(auth: AuthContext, userId: string): Promise<{ name: string; email: string }> {
    try {
      const { user } = await deps.users.get({ ...auth, profileAccess: 'all' }, userId);
      return { name: user.name || user.email, email: user.email };
    } catch {
      return { name: '', email: '' }; // the inviter was removed from the team
    }
  }

  const view = (r: PlatformInviteRow, who: { name: string; email: string }) => ({
    _id: r.id, token: repo.tokenOf(r), userId: r.user_id, platform: r.platform, inviterName: who.name, inviterEmail: who.email,
    expiresAt: r.expires_at.toISOString(), isUsed: r.used_at !== null, createdAt: r.created_at.toISOString(),
  });

  return {
    inviteUrl,
    actingFor,

    /**
     * Creates an invite. @throws 404 for a profile the caller cannot see; 400 naming `platform`
     * when this server cannot connect that platform (its app is not configured), so no link is
     * sent that could only fail.
     */
    async create(auth: AuthContext, input: { profileId: string; platform: PlatformId }) {
      const { profile } = await deps.profiles.get(auth, input.profileId);
      try {
        deps.connectable(input.platform);
      } catch (err) {
        throw fieldError('platform', `${PLATFORM_LABELS[input.platform]} cannot be connected on this server${err instanceof Error ? `: ${err.message}` : ''}`);
      }
      const token = randomBytes(32).toString('base64url');
      const now = clock();
      const row = await repo.insert({
        tenantId: auth.tenantId, userId: auth.userId, profileId: profile._id, platform: input.platform, token,
        createdAt: now, expiresAt: new Date(now.getTime() + PLATFORM_INVITE_TTL_MS),
      });
      return { invite: { ...view(row, await inviter(auth, auth.userId)), profileId: profile._id, inviteUrl: inviteUrl(token) } };
    },

    /**
     * The caller's invites, newest first (of `profileId` when given), with `profileId` as
     * `{ _id, name }`. @throws 404 for a profile the caller cannot see.
     */
    async list(auth: AuthContext, profileId?: string) {
      if (profileId) await deps.profiles.get(auth, profileId);
      const { profiles } = await deps.profiles.list(auth);
      const names = new Map(profiles.map((p) => [p._id, p.name]));
      const rows = (await repo.list(auth.tenantId, profileId ? [profileId] : auth.profileAccess === 'all' ? null : auth.profileIds))
        .filter((r) => canAccessProfile(auth, r.profile_id));
      const who = new Map<string, { name: string; email: string }>();
      for (const r of rows) if (!who.has(r.user_id)) who.set(r.user_id, await inviter(auth, r.user_id));
      return {
        invites: rows.map((r) => ({ ...view(r, who.get(r.user_id)!), profileId: { _id: r.profile_id, name: names.get(r.profile_id) ?? '' } })),
      };
    },

    /** Revokes an unused invite. @throws 404 unknown or foreign; 400 when it was used. */
    async revoke(auth: AuthContext, id: string) {
      const row = await repo.get(auth.tenantId, id);
      if (!row || !canAccessProfile(auth, row.profile_id)) throw notFound('Invite');
      if (row.used_at || !(await repo.removeUnused(auth.tenantId, id))) {
        throw new AppError('BAD_REQUEST', 'This invite was already used to connect an account and cannot be revoked; disconnect the account instead', { reason: 'invite_used' });
      }
      return { message: 'Invite revoked successfully' };
    },

    /** The invite behind a token, for its page; undefined for an unknown (or revoked) token. */
    async forPage(token: string): Promise<InviteForPage | undefined> {
      const row = token ? await repo.byToken(token) : undefined;
      if (!row) return undefined;
      const auth = actingFor(row);
      let profileName: string;
      try {
        profileName = (await deps.profiles.get(auth, row.profile_id)).profile.name;
      } catch {
        return undefined; // the profile was deleted
      }
      const who = await inviter(auth, row.user_id);
      const state = row.used_at ? 'used' : row.expires_at.getTime() <= clock().getTime() ? 'expired' : 'open';
      return { row, state, inviterName: who.name, inviterEmail: who.email, profileName };
    },

    /** The invite a connect flow was started from (by id), for its page. */
    async byId(id: string): Promise<PlatformInviteRow | undefined> {
      return repo.byId(id);
    },

    /**
     * The hook that uses the invite up inside the transaction storing the account.
     * @throws 400 (reason invite_unavailable) when it was used or expired meanwhile; the account is then not stored.
     */
    useWithin(inviteId: string) {
      return async (q: Queryable, account: { id: string }) => {
        if (!(await repo.use(q, inviteId, account.id, clock()))) {
          throw new AppError('BAD_REQUEST', 'This invite was already used or has expired; ask for a new invite', { reason: 'invite_unavailable' });
        }
      };
    },
  };
}

export type PlatformInvitesService = ReturnType<typeof createPlatformInvitesService>;
