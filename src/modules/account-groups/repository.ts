/**
 * The `account_groups` table (its one writer): named sets of a tenant's connected accounts.
 * `accountIds` are read back without the accounts that no longer exist.
 */
import { newId } from '../../core/ids.ts';
import type { Db } from '../../storage/db.ts';

/** A group as stored, with the accounts that still exist (in the stored order). */
export interface AccountGroupRow {
  id: string;
  tenant_id: string;
  name: string;
  account_ids: string[];
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** The stored ids, without the accounts of the tenant that no longer exist (kept in order). */
const LIVE_IDS = `ARRAY(SELECT x.id FROM unnest(g.account_ids) WITH ORDINALITY AS x(id, n)
                          JOIN accounts a ON a.id = x.id AND a.tenant_id = g.tenant_id ORDER BY x.n)`;
const SELECT_GROUPS = `SELECT g.id, g.tenant_id, g.name, ${LIVE_IDS} AS account_ids, g.created_by, g.created_at, g.updated_at FROM account_groups g`;

export function createAccountGroupsRepository(db: Db) {
  return {
    /** The tenant's groups, oldest first. */
    async list(tenantId: string): Promise<AccountGroupRow[]> {
      return (await db.query<AccountGroupRow>(`${SELECT_GROUPS} WHERE g.tenant_id = $1 ORDER BY g.created_at, g.id`, [tenantId])).rows;
    },

    /** The tenant's group `id`, or null. */
    async get(tenantId: string, id: string): Promise<AccountGroupRow | null> {
      return (await db.query<AccountGroupRow>(`${SELECT_GROUPS} WHERE g.tenant_id = $1 AND g.id = $2`, [tenantId, id])).rows[0] ?? null;
    },

    /** Stores a new group. */
    async insert(tenantId: string, createdBy: string, name: string, accountIds: string[]): Promise<AccountGroupRow> {
      const id = newId();
      await db.query('INSERT INTO account_groups (id, tenant_id, name, account_ids, created_by) VALUES ($1, $2, $3, $4, $5)', [id, tenantId, name, accountIds, createdBy]);
      return (await this.get(tenantId, id))!;
    },

    /** Changes the name and/or the accounts; null when the tenant has no such group. */
    async update(tenantId: string, id: string, change: { name?: string; accountIds?: string[] }): Promise<AccountGroupRow | null> {
      const { rowCount } = await db.query(
        `UPDATE account_groups SET name = coalesce($3, name), account_ids = coalesce($4, account_ids), updated_at = now()
          WHERE tenant_id = $1 AND id = $2`, [tenantId, id, change.name ?? null, change.accountIds ?? null]);
      return rowCount ? this.get(tenantId, id) : null;
    },

    /** Deletes the group; false when the tenant has no such group. */
    async remove(tenantId: string, id: string): Promise<boolean> {
      const { rowCount } = await db.query('DELETE FROM account_groups WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
      return (rowCount ?? 0) > 0;
    },
  };
}

export type AccountGroupsRepository = ReturnType<typeof createAccountGroupsRepository>;
