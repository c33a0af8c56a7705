import { AppError } from '../../core/errors.ts';
import type { PlanId } from '../../shared/plans.ts';
import type { BillingPeriod } from '../../core/time.ts';
import type { Permission } from '../../shared/permissions.ts';

/**
 * Who is calling, resolved from the API key on every /v1 request. Every repository
 * query is scoped by `tenantId` and, for team members, by `profileIds`.
 */
export interface AuthContext {
  tenantId: string;
  userId: string;
  isRoot: boolean;
  keyId: string;
  permissions: ReadonlySet<Permission>;
  /** When the API key expires (null: never). Absent for a dashboard session, which is not a key. */
  keyExpiresAt?: Date | null;
  /** 'all' or only the listed profiles (team members invited with scope profiles, profile-scoped API keys, OAuth grants). */
  profileAccess: 'all' | 'profiles';
  profileIds: readonly string[];
  /**
   * Set when the caller is an OAuth grant's access token (an AI assistant on /mcp): it sees its
   * granted profiles only, not the user's own posts elsewhere (docs/decisions/0049-oauth-for-mcp.md).
   */
  grantId?: string;
  /**
   * Set when the caller is a profile-scoped API key (docs/decisions/0063-validation-error-categories-scoped-keys.md):
   * the profiles the key was limited to at creation, and whether its user is the account owner (such
   * a key may manage keys within its own scope, and nothing else an owner alone may do). The key's
   * `profileAccess` is then 'profiles' and `profileIds` these profiles (for a team member's key, only
   * those of them the member may see); like an OAuth grant it sees no post beyond them.
   */
  keyScope?: { profileIds: readonly string[]; ownerIsRoot: boolean };
  /** The tenant's (root user's) plan and billing data. */
  plan: PlanId;
  billingPeriod: BillingPeriod;
  billingAnchor: Date;
}

/** True when the caller may see the profile. */
export function canAccessProfile(auth: AuthContext, profileId: string): boolean {
  return auth.profileAccess === 'all' || auth.profileIds.includes(profileId);
}

/**
 * The user whose own posts a caller limited to some profiles still sees beyond them: a team member
 * sees the posts they created; an OAuth grant (decision 0049) none beyond its profiles ('' matches no post).
 */
export function postCreatorScope(auth: AuthContext): string {
  return auth.grantId || auth.keyScope ? '' : auth.userId;
}

/** True when the caller may manage API keys: the account owner, or a profile-scoped key of the owner's (within its scope). */
export function canManageApiKeys(auth: AuthContext): boolean {
  return auth.isRoot || auth.keyScope?.ownerIsRoot === true;
}

/**
 * For data that spans every profile (webhooks: their events, logs and secrets cover all of them):
 * a team member limited to some profiles is refused (docs/decisions/0043-webhooks-and-scoped-members.md).
 * @throws AppError FORBIDDEN for a member whose access is limited to some profiles.
 */
export function assertAllProfiles(auth: AuthContext, what: string): void {
  if (auth.profileAccess === 'all') return;
  const limited = auth.keyScope ? 'this API key is limited to some profiles' : 'your team access is limited to some profiles';
  throw new AppError('FORBIDDEN', `${what} cover every profile; ${limited}`, { reason: 'profile_scope' });
}
