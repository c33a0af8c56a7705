/**
 * Profiles: named groups of accounts (a brand or a client). The first profile of a
 * tenant is its default. Names are unique per tenant (case-insensitive). A profile with
 * connected accounts cannot be deleted.
 */
import { AppError, fieldError, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Db, Queryable } from '../../storage/db.ts';
import { canAccessProfile, type AuthContext } from '../auth/context.ts';
import type { UsageService } from '../usage/service.ts';
import { countProfileAccounts } from '../accounts/repository.ts';
import { detachPostsFromProfile } from '../posts/repository.ts';

export interface ProfileRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  color: string | null;
  is_default: boolean;
  created_at: Date;
  updated_at: Date;
}

export function toProfileView(p: ProfileRow) {
  return {
    _id: p.id,
    userId: p.tenant_id,
    name: p.name,
    description: p.description ?? '',
    color: p.color ?? '#ffeda0',
    isDefault: p.is_default,
    createdAt: p.created_at.toISOString(),
    updatedAt: p.updated_at.toISOString(),
  };
}

const duplicateName = () => new AppError('VALIDATION_ERROR', 'A profile with this name already exists', { fields: { name: ['must be unique: a profile with this name already exists'] } });

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string }).code === '23505';
}

/** Loads a profile the caller may see, or throws 404. */
export async function getAccessibleProfile(q: Queryable, auth: AuthContext, profileId: string, lock = false): Promise<ProfileRow> {
  const row = await getTenantProfile(q, auth.tenantId, profileId, lock);
  if (!canAccessProfile(auth, row.id)) throw notFound('Profile');
  return row;
}

/**
 * The tenant's profile `profileId` (locked FOR UPDATE with `lock`), whoever asks: for work done on
 * the tenant's behalf after a caller's access was checked (an OAuth callback finishing the flow a
 * member started). @throws 404 when the tenant has no such profile.
 */
export async function getTenantProfile(q: Queryable, tenantId: string, profileId: string, lock = false): Promise<ProfileRow> {
  const { rows } = await q.query<ProfileRow>(
    `SELECT * FROM profiles WHERE id = $1 AND tenant_id = $2${lock ? ' FOR UPDATE' : ''}`, [profileId, tenantId]);
  if (!rows[0]) throw notFound('Profile');
  return rows[0];
}

/**
 * The profiles of a tenant among `ids` (id and name), in the order given; ids of other
 * tenants or unknown ids are left out (callers answer 404 for them).
 */
export async function findTenantProfiles(q: Queryable, tenantId: string, ids: readonly string[]): Promise<Array<{ _id: string; name: string }>> {
  if (ids.length === 0) return [];
  const { rows } = await q.query<{ id: string; name: string }>('SELECT id, name FROM profiles WHERE tenant_id = $1 AND id = ANY($2::char(24)[])', [tenantId, ids]);
  const byId = new Map(rows.map((r) => [r.id, r.name]));
  return ids.filter((id) => byId.has(id)).map((id) => ({ _id: id, name: byId.get(id)! }));
}

/** Creates a new tenant's first (default) profile inside the caller's transaction. */
export async function createDefaultProfile(q: Queryable, tenantId: string, name = 'Default'): Promise<string> {
  const id = newId();
  await q.query('INSERT INTO profiles (id, tenant_id, name, is_default) VALUES ($1, $2, $3, true)', [id, tenantId, name]);
  return id;
}

/**
 * Writes a profile's approval rule (decision 0059): approval off or required, the members who may
 * approve besides the owner, and whether the client may approve through a review link.
 * `approverIds` must be users of the tenant (checked by the caller). Answers false for no such profile.
 */
export async function setProfileApprovalRule(q: Queryable, tenantId: string, profileId: string,
  rule: { required: boolean; approverIds: string[]; clientApproval: boolean }): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE profiles SET approval_required = $3, approver_ids = $4, client_approval = $5, updated_at = now() WHERE id = $1 AND tenant_id = $2`,
    [profileId, tenantId, rule.required, rule.approverIds, rule.clientApproval]);
  return (rowCount ?? 0) > 0;
}

export function createProfilesService(db: Db, usage: UsageService) {
  return {
    async list(auth: AuthContext) {
      const { rows } = await db.query<ProfileRow>('SELECT * FROM profiles WHERE tenant_id = $1 ORDER BY created_at, id', [auth.tenantId]);
      return { profiles: rows.filter((p) => canAccessProfile(auth, p.id)).map(toProfileView) };
    },

    async get(auth: AuthContext, id: string) {
      return { profile: toProfileView(await getAccessibleProfile(db, auth, id)) };
    },

    /** @throws 400 duplicate name, 403 plan limit (PLAN_LIMIT_REACHED), 403 for team members. */
    async create(auth: AuthContext, input: { name: string; description?: string | null; color?: string | null }) {
      if (!auth.isRoot && auth.profileAccess !== 'all') throw new AppError('FORBIDDEN', 'Your team access does not allow creating profiles');
      const name = input.name.trim();
      if (!name) throw fieldError('name', 'must not be empty');
      return db.tx(async (client) => {
        await usage.assertProfileAvailable(client, auth);
        const { rows: existing } = await client.query('SELECT 1 FROM profiles WHERE tenant_id = $1 LIMIT 1', [auth.tenantId]);
        try {
          const { rows } = await client.query<ProfileRow>(
            `INSERT INTO profiles (id, tenant_id, name, description, color, is_default)
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
            [newId(), auth.tenantId, name, input.description ?? null, input.color ?? null, existing.length === 0],
          );
          return { message: 'Profile created successfully', profile: toProfileView(rows[0]) };
        } catch (err) {
          if (isUniqueViolation(err)) throw duplicateName();
          throw err;
        }
      });
    },

    async update(auth: AuthContext, id: string, input: { name?: string; description?: string | null; color?: string | null; isDefault?: boolean }) {
      return db.tx(async (client) => {
        const current = await getAccessibleProfile(client, auth, id, true);
        const name = input.name !== undefined ? input.name.trim() : current.name;
        if (!name) throw fieldError('name', 'must not be empty');
        if (input.isDefault === false && current.is_default) {
          throw fieldError('isDefault', 'cannot be unset directly; set another profile as default instead');
        }
        if (input.isDefault === true && !current.is_default) {
          await client.query('UPDATE profiles SET is_default = false WHERE tenant_id = $1 AND is_default', [auth.tenantId]);
        }
        try {
          const { rows } = await client.query<ProfileRow>(
            `UPDATE profiles SET name = $2, description = $3, color = $4, is_default = $5, updated_at = now()
              WHERE id = $1 RETURNING *`,
            [id, name,
              input.description !== undefined ? input.description : current.description,
              input.color !== undefined ? input.color : current.color,
              input.isDefault === true ? true : current.is_default],
          );
          return { message: 'Profile updated successfully', profile: toProfileView(rows[0]) };
        } catch (err) {
          if (isUniqueViolation(err)) throw duplicateName();
          throw err;
        }
      });
    },

    /** @throws 409 PROFILE_HAS_ACCOUNTS-style INVALID_STATE while accounts are connected. */
    async remove(auth: AuthContext, id: string) {
      return db.tx(async (client) => {
        const current = await getAccessibleProfile(client, auth, id, true);
        const connected = await countProfileAccounts(client, id);
        if (connected > 0) {
          throw new AppError('INVALID_STATE',
            `This profile has ${connected} connected account(s); disconnect them before deleting the profile`,
            { connectedAccounts: connected });
        }
        await detachPostsFromProfile(client, auth.tenantId, id);
        await client.query('DELETE FROM profiles WHERE id = $1', [id]);
        if (current.is_default) {
          await client.query(
            `UPDATE profiles SET is_default = true WHERE id = (
               SELECT id FROM profiles WHERE tenant_id = $1 ORDER BY created_at, id LIMIT 1)`, [auth.tenantId]);
        }
        return { message: 'Profile deleted successfully' };
      });
    },
  };
}
