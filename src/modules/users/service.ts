/**
 * Users of a tenant. The root user owns the tenant (plan, billing, API keys); team
 * members join through a team invite (src/modules/invites) and see all profiles or a
 * listed subset. Members use the dashboard only: they hold no API keys.
 */
import { AppError, notFound, fieldError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { hashPassword } from '../../core/password.ts';
import type { BillingPeriod } from '../../core/time.ts';
import type { AddonId, PlanId } from '../../shared/plans.ts';
import type { Db, Queryable } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { createDefaultProfile } from '../profiles/service.ts';

/** Team access of a member: every profile, or only the listed ones. */
export interface ProfileScope {
  scope: 'all' | 'profiles';
  profileIds: string[];
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Only the root user manages the team. @throws AppError FORBIDDEN for team members. */
export function assertRoot(auth: AuthContext, what: string): void {
  if (!auth.isRoot) throw new AppError('FORBIDDEN', `Only the account owner can ${what}`);
}

interface UserRow {
  id: string;
  tenant_id: string;
  email: string;
  name: string | null;
  role: string;
  is_root: boolean;
  profile_access: 'all' | 'profiles';
  profile_ids: string[];
  created_at: Date;
  last_login_at: Date | null;
}

/** A user as the API shows it (`GET /v1/users`). `profileAccess` is `["all"]` or profile ids. */
export function toUserView(u: UserRow) {
  return {
    _id: u.id,
    name: u.name ?? '',
    email: u.email,
    role: u.role,
    isRoot: u.is_root,
    profileAccess: u.profile_access === 'all' ? ['all'] : u.profile_ids,
    createdAt: u.created_at.toISOString(),
    lastLoginAt: u.last_login_at ? u.last_login_at.toISOString() : null,
  };
}

export function createUsersService(db: Db) {
  const service = {
    async list(auth: AuthContext) {
      const { rows } = await db.query<UserRow>('SELECT * FROM users WHERE tenant_id = $1 ORDER BY created_at, id', [auth.tenantId]);
      return { currentUserId: auth.userId, users: rows.map(toUserView) };
    },

    async get(auth: AuthContext, userId: string) {
      const { rows } = await db.query<UserRow>('SELECT * FROM users WHERE id = $1 AND tenant_id = $2', [userId, auth.tenantId]);
      if (!rows[0]) throw notFound('User');
      return { user: toUserView(rows[0]) };
    },

    /**
     * Creates a root user (a new tenant). Used by the CLI and first start.
     * @throws AppError VALIDATION_ERROR on a bad or already used email.
     */
    async createRootUser(input: { email: string; name?: string; password?: string; plan?: PlanId; addons?: AddonId[] }, q: Queryable = db): Promise<{ userId: string }> {
      const email = input.email.trim();
      if (!EMAIL_RE.test(email)) throw fieldError('email', 'must be a valid email address');
      if (input.password !== undefined && input.password.length < 8) throw fieldError('password', 'must be at least 8 characters');
      const id = newId();
      const passwordHash = input.password ? await hashPassword(input.password) : null;
      try {
        await q.query(
          `INSERT INTO users (id, tenant_id, email, name, password_hash, role, is_root, plan, addons)
           VALUES ($1, $1, $2, $3, $4, 'owner', true, $5, $6)`,
          [id, email, input.name ?? null, passwordHash, input.plan ?? 'free', input.addons ?? []],
        );
      } catch (err) {
        if ((err as { code?: string }).code === '23505') throw fieldError('email', 'is already used by another user');
        throw err;
      }
      return { userId: id };
    },

    /**
     * Creates a team member of a tenant (an accepted team invite), inside the caller's transaction.
     * @throws AppError VALIDATION_ERROR on a bad or already used email, a password under 8 characters, an empty name.
     */
    async createMember(q: Queryable, input: { tenantId: string; invitedBy: string; email: string; name: string; password: string } & ProfileScope): Promise<{ userId: string }> {
      const email = input.email.trim();
      const name = input.name.trim();
      if (!name) throw fieldError('name', 'must not be empty');
      if (!EMAIL_RE.test(email)) throw fieldError('email', 'must be a valid email address');
      if (input.password.length < 8) throw fieldError('password', 'must be at least 8 characters');
      const id = newId();
      const passwordHash = await hashPassword(input.password);
      try {
        await q.query(
          `INSERT INTO users (id, tenant_id, email, name, password_hash, role, is_root, profile_access, profile_ids, invited_by)
           VALUES ($1, $2, $3, $4, $5, 'member', false, $6, $7, $8)`,
          [id, input.tenantId, email, name, passwordHash, input.scope, input.scope === 'all' ? [] : input.profileIds, input.invitedBy],
        );
      } catch (err) {
        if ((err as { code?: string }).code === '23505') throw fieldError('email', 'is already used by another user');
        throw err;
      }
      return { userId: id };
    },

    /**
     * Removes a team member (root only). Their sessions end at once (the session rows go with
     * the user); the posts they created stay, with `createdBy` still naming them.
     * @throws AppError FORBIDDEN for members, NOT_FOUND for another tenant's user, VALIDATION_ERROR for the root user.
     */
    async removeMember(auth: AuthContext, userId: string): Promise<{ message: string }> {
      assertRoot(auth, 'remove team members');
      const { rows } = await db.query<{ is_root: boolean }>('SELECT is_root FROM users WHERE id = $1 AND tenant_id = $2', [userId, auth.tenantId]);
      if (!rows[0]) throw notFound('User');
      if (rows[0].is_root) throw fieldError('userId', 'is the account owner, who cannot be removed');
      await db.query('DELETE FROM users WHERE id = $1 AND tenant_id = $2 AND NOT is_root', [userId, auth.tenantId]);
      return { message: 'Team member removed' };
    },

    /**
     * Changes a member's profile scope (root only); takes effect on the member's next request.
     * The caller checks that the profiles belong to the tenant.
     * @throws AppError FORBIDDEN for members, NOT_FOUND for another tenant's user, VALIDATION_ERROR for the root user.
     */
    async setScope(auth: AuthContext, userId: string, access: ProfileScope) {
      assertRoot(auth, 'change team access');
      const { rows } = await db.query<UserRow>(
        `UPDATE users SET profile_access = $3, profile_ids = $4 WHERE id = $1 AND tenant_id = $2 AND NOT is_root RETURNING *`,
        [userId, auth.tenantId, access.scope, access.scope === 'all' ? [] : access.profileIds]);
      if (!rows[0]) {
        const { rowCount } = await db.query('SELECT 1 FROM users WHERE id = $1 AND tenant_id = $2', [userId, auth.tenantId]);
        if (rowCount) throw fieldError('userId', 'is the account owner, whose access cannot be limited');
        throw notFound('User');
      }
      return { message: 'Team access updated', user: toUserView(rows[0]) };
    },

    /**
     * Sets a tenant's plan, billing period and add-ons (CLI, Stripe webhooks). `billingAnchor`
     * restarts the usage period (a paid invoice); omitted, the anchor stays.
     * @returns false when no root user has this id.
     */
    async setPlan(tenantId: string, change: { plan?: PlanId; billingPeriod?: BillingPeriod; addons?: AddonId[]; billingAnchor?: Date }, q: Queryable = db): Promise<boolean> {
      const { rowCount } = await q.query(
        `UPDATE users SET plan = COALESCE($2, plan), billing_period = COALESCE($3, billing_period),
                addons = COALESCE($4, addons), billing_anchor = COALESCE($5, billing_anchor)
          WHERE id = $1 AND is_root`,
        [tenantId, change.plan ?? null, change.billingPeriod ?? null, change.addons ?? null, change.billingAnchor ?? null]);
      return (rowCount ?? 0) > 0;
    },

    /** The user with this email (case-insensitive) and their tenant (root user id), or null. */
    async byEmail(email: string): Promise<{ userId: string; tenantId: string; isRoot: boolean } | null> {
      const { rows } = await db.query<{ id: string; tenant_id: string; is_root: boolean }>('SELECT id, tenant_id, is_root FROM users WHERE lower(email) = lower($1)', [email.trim()]);
      return rows[0] ? { userId: rows[0].id, tenantId: rows[0].tenant_id, isRoot: rows[0].is_root } : null;
    },

    /** The root user's name (or email) and plan data, for invite pages and billing. */
    async owner(tenantId: string): Promise<{ name: string; email: string; plan: PlanId; billingPeriod: BillingPeriod; addons: AddonId[] } | null> {
      const { rows } = await db.query<{ name: string | null; email: string; plan: PlanId; billing_period: BillingPeriod; addons: AddonId[] }>(
        'SELECT name, email, plan, billing_period, addons FROM users WHERE id = $1 AND is_root', [tenantId]);
      const r = rows[0];
      return r ? { name: r.name || r.email, email: r.email, plan: r.plan, billingPeriod: r.billing_period, addons: r.addons } : null;
    },

    /**
     * Self-service sign-up (HERALD_SIGNUP=open): a new tenant on the Free plan with a default
     * profile, in one transaction.
     * @throws AppError VALIDATION_ERROR on a bad or already used email, a short password, an empty name.
     */
    async signUp(input: { email: string; name: string; password: string }): Promise<{ userId: string }> {
      if (!input.name.trim()) throw fieldError('name', 'must not be empty');
      if (input.password.length < 8) throw fieldError('password', 'must be at least 8 characters');
      return db.tx(async (client) => {
        const created = await service.createRootUser({ email: input.email, name: input.name.trim(), password: input.password, plan: 'free' }, client);
        await createDefaultProfile(client, created.userId);
        return created;
      });
    },

    /** The tenant's Stripe customer and subscription ids and owner email (billing), or null for an unknown tenant. */
    async stripeAccount(tenantId: string): Promise<{ customerId: string | null; subscriptionId: string | null; email: string } | null> {
      const { rows } = await db.query<{ stripe_customer_id: string | null; stripe_subscription_id: string | null; email: string }>(
        'SELECT stripe_customer_id, stripe_subscription_id, email FROM users WHERE id = $1 AND is_root', [tenantId]);
      return rows[0] ? { customerId: rows[0].stripe_customer_id, subscriptionId: rows[0].stripe_subscription_id, email: rows[0].email } : null;
    },

    /**
     * Within a transaction: the tenant a Stripe object belongs to, locked FOR UPDATE (so events
     * of one tenant apply one at a time): the `tenantId` Herald put in its metadata when that
     * names a root user, else the owner of the Stripe customer id. Null when neither matches.
     */
    async lockStripeTenant(q: Queryable, ref: { tenantId?: string | null; customerId?: string | null }): Promise<{ tenantId: string; customerId: string | null; subscriptionId: string | null; syncedAt: Date | null; billingAnchor: Date } | null> {
      const { rows } = await q.query<{ id: string; stripe_customer_id: string | null; stripe_subscription_id: string | null; stripe_synced_at: Date | null; billing_anchor: Date }>(
        `SELECT id, stripe_customer_id, stripe_subscription_id, stripe_synced_at, billing_anchor FROM users
          WHERE is_root AND (id = $1 OR stripe_customer_id = $2) ORDER BY (id = $1) IS TRUE DESC LIMIT 1 FOR UPDATE`,
        [ref.tenantId && /^[0-9a-f]{24}$/.test(ref.tenantId) ? ref.tenantId : null, ref.customerId ?? null]);
      const r = rows[0];
      return r ? { tenantId: r.id, customerId: r.stripe_customer_id, subscriptionId: r.stripe_subscription_id, syncedAt: r.stripe_synced_at, billingAnchor: r.billing_anchor } : null;
    },

    /** Within a transaction: records the tenant's Stripe customer, subscription and the time of the latest subscription event applied. */
    async setStripeState(q: Queryable, tenantId: string, state: { customerId?: string | null; subscriptionId?: string | null; syncedAt?: Date }): Promise<void> {
      await q.query(
        `UPDATE users SET stripe_customer_id = CASE WHEN $2 THEN $3 ELSE stripe_customer_id END,
                stripe_subscription_id = CASE WHEN $4 THEN $5 ELSE stripe_subscription_id END,
                stripe_synced_at = COALESCE($6, stripe_synced_at)
          WHERE id = $1 AND is_root`,
        [tenantId, state.customerId !== undefined, state.customerId ?? null, state.subscriptionId !== undefined, state.subscriptionId ?? null, state.syncedAt ?? null]);
    },

    /** The add-ons the tenant holds (on its root user). An unknown tenant holds none. */
    async addons(tenantId: string): Promise<AddonId[]> {
      const { rows } = await db.query<{ addons: AddonId[] }>('SELECT addons FROM users WHERE tenant_id = $1 AND is_root', [tenantId]);
      return rows[0]?.addons ?? [];
    },

    /** The tenants (root user ids) holding an add-on. */
    async tenantsWithAddon(addon: AddonId): Promise<string[]> {
      const { rows } = await db.query<{ tenant_id: string }>('SELECT tenant_id FROM users WHERE is_root AND $1 = ANY(addons)', [addon]);
      return rows.map((r) => r.tenant_id);
    },

    /** Grants or removes an add-on on the tenant's root user (CLI, tests; billing later). */
    async setAddon(tenantId: string, addon: AddonId, on: boolean): Promise<void> {
      await db.query(
        on
          ? 'UPDATE users SET addons = array_append(addons, $2) WHERE tenant_id = $1 AND is_root AND NOT ($2 = ANY(addons))'
          : 'UPDATE users SET addons = array_remove(addons, $2) WHERE tenant_id = $1 AND is_root',
        [tenantId, addon],
      );
    },

    async exists(userId: string): Promise<boolean> {
      const { rowCount } = await db.query('SELECT 1 FROM users WHERE id = $1', [userId]);
      return (rowCount ?? 0) > 0;
    },

    async count(): Promise<number> {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
      return rows[0].n;
    },
  };
  return service;
}

export type UsersService = ReturnType<typeof createUsersService>;
export { AppError };
