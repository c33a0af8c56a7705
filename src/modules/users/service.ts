/**
 * Users of a tenant. The root user owns the tenant (plan, billing, API keys); team
 * members (later: invites) see all profiles or a listed subset.
 */
import { AppError, notFound, fieldError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { hashPassword } from '../../core/password.ts';
import type { AddonId, PlanId } from '../../shared/plans.ts';
import type { Db } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';

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
  return {
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
    async createRootUser(input: { email: string; name?: string; password?: string; plan?: PlanId; addons?: AddonId[] }): Promise<{ userId: string }> {
      const email = input.email.trim();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw fieldError('email', 'must be a valid email address');
      if (input.password !== undefined && input.password.length < 8) throw fieldError('password', 'must be at least 8 characters');
      const id = newId();
      const passwordHash = input.password ? await hashPassword(input.password) : null;
      try {
        await db.query(
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
}

export type UsersService = ReturnType<typeof createUsersService>;
export { AppError };
