/**
 * Plans and usage (docs/decisions/0003-plan-table.md).
 * - uploads: posts that counted in the current billing period (every successful
 *   non-draft creation; drafts count when they stop being drafts; a deleted post is
 *   refunded). The period starts on the latest billing anniversary (the signup date
 *   for free users).
 * - profiles: profiles currently held; never reset.
 * Limit checks run inside the creating transaction under a per-tenant advisory lock,
 * so concurrent requests cannot pass a limit together.
 */
import { AppError } from '../../core/errors.ts';
import { PLANS, limitReached } from '../../shared/plans.ts';
import { billingPeriodStart } from '../../core/time.ts';
import type { Db, Queryable } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';

type Tenant = Pick<AuthContext, 'tenantId' | 'plan' | 'billingPeriod' | 'billingAnchor'>;

/** Serialises limit checks of one tenant and resource until the transaction ends. */
export async function lockTenant(client: Queryable, tenantId: string, resource: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`herald:${resource}:${tenantId}`]);
}

export function createUsageService(db: Db, clock: () => Date) {
  const periodStart = (t: Tenant) => billingPeriodStart(t.billingAnchor, t.billingPeriod, clock());

  async function uploadsUsed(q: Queryable, t: Tenant): Promise<number> {
    const { rows } = await q.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM posts WHERE tenant_id = $1 AND usage_counted_at >= $2',
      [t.tenantId, periodStart(t)],
    );
    return rows[0].n;
  }

  async function profilesHeld(q: Queryable, tenantId: string): Promise<number> {
    const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM profiles WHERE tenant_id = $1', [tenantId]);
    return rows[0].n;
  }

  return {
    periodStart,
    uploadsUsed,
    profilesHeld,

    /** `GET /v1/usage-stats` body. */
    async stats(auth: AuthContext) {
      const plan = PLANS[auth.plan];
      const [uploads, profiles] = await Promise.all([uploadsUsed(db, auth), profilesHeld(db, auth.tenantId)]);
      return {
        planName: plan.name,
        billingPeriod: auth.billingPeriod,
        signupDate: auth.billingAnchor.toISOString(),
        limits: { uploads: plan.uploads, profiles: plan.profiles },
        usage: { uploads, profiles, lastReset: periodStart(auth).toISOString() },
        canUpload: !limitReached(plan.uploads, uploads),
        canCreateProfile: !limitReached(plan.profiles, profiles),
      };
    },

    /**
     * Within a transaction: checks that `count` more posts fit the plan's upload limit.
     * @throws AppError PLAN_LIMIT_REACHED (403) with the post-limit body (decision 0003).
     */
    async assertUploadsAvailable(client: Queryable, t: Tenant, count = 1): Promise<void> {
      const plan = PLANS[t.plan];
      if (plan.uploads === -1 || count === 0) return;
      await lockTenant(client, t.tenantId, 'uploads');
      const used = await uploadsUsed(client, t);
      if (used + count > plan.uploads) {
        const per = t.billingPeriod === 'yearly' ? 'year' : 'month';
        throw new AppError('PLAN_LIMIT_REACHED',
          `Post limit reached. Your ${plan.name} plan allows ${plan.uploads} posts per ${per}. You have used ${used}.`,
          { resource: 'uploads', plan: plan.id, currentUsage: used, limit: plan.uploads, window: t.billingPeriod },
          { planName: plan.name, limit: plan.uploads, current: used, billingPeriod: t.billingPeriod });
      }
    },

    /**
     * Within a transaction (taking the tenant's uploads lock): how many more posts fit the
     * plan in this period; `Infinity` when unlimited.
     */
    async remainingUploads(client: Queryable, t: Tenant): Promise<number> {
      const plan = PLANS[t.plan];
      if (plan.uploads === -1) return Infinity;
      await lockTenant(client, t.tenantId, 'uploads');
      return Math.max(0, plan.uploads - (await uploadsUsed(client, t)));
    },

    /**
     * Within a transaction: checks that one more profile fits the plan.
     * @throws AppError PLAN_LIMIT_REACHED (403) with the profile-limit body (decision 0003).
     */
    async assertProfileAvailable(client: Queryable, t: Tenant): Promise<void> {
      const plan = PLANS[t.plan];
      await lockTenant(client, t.tenantId, 'profiles');
      if (plan.profiles === -1) return;
      const held = await profilesHeld(client, t.tenantId);
      if (held >= plan.profiles) {
        throw new AppError('PLAN_LIMIT_REACHED',
          `Profile limit reached. Your ${plan.name} plan allows ${plan.profiles} profiles. You currently have ${held}.`,
          { resource: 'profiles', plan: plan.id, currentUsage: held, limit: plan.profiles, window: 'total', total: held },
          { planName: plan.name, limit: plan.profiles, current: held });
      }
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
