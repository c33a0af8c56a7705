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
  /** 'all' or only the listed profiles (team members invited with scope profiles). */
  profileAccess: 'all' | 'profiles';
  profileIds: readonly string[];
  /** The tenant's (root user's) plan and billing data. */
  plan: PlanId;
  billingPeriod: BillingPeriod;
  billingAnchor: Date;
}

/** True when the caller may see the profile. */
export function canAccessProfile(auth: AuthContext, profileId: string): boolean {
  return auth.profileAccess === 'all' || auth.profileIds.includes(profileId);
}
