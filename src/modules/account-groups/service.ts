/**
 * Account groups: named sets of a tenant's connected accounts, across profiles, so that a post can
 * be addressed to all of them at once (the composer adds a group's accounts as targets). The
 * Late-compatible `/v1/account-groups` (list, create, update, delete; the client's `profileId` is
 * accepted and ignored, as groups are not scoped to one profile).
 *
 * Scoped team members (access to some profiles) see a group with only the accounts they may see,
 * and no group where they see none; they may change or delete only groups whose accounts are all
 * theirs to see (403 otherwise), and every account they add must be.
 *
 * Errors: 400 naming `name` (empty, over 100 characters) or `accountIds` / `accountIds.N` (empty,
 * over 100, a repeated id, an account that is not one of the caller's connected accounts); 404 for
 * a group of another tenant or one the caller cannot see; 409 for a name the tenant already uses.
 */
import { AppError, FieldErrorCollector, notFound } from '../../core/errors.ts';
import type { AuthContext } from '../auth/context.ts';
import { canAccessProfile } from '../auth/context.ts';
import type { AccountsRepository } from '../accounts/repository.ts';
import type { AccountGroupRow, AccountGroupsRepository } from './repository.ts';

/** Longest group name (characters). */
export const GROUP_NAME_MAX = 100;
/** Most accounts in a group. */
export const GROUP_ACCOUNTS_MAX = 100;

/** A group as the API shows it. */
export interface AccountGroupView {
  _id: string;
  name: string;
  accountIds: string[];
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export function createAccountGroupsService(deps: { groups: AccountGroupsRepository; accounts: AccountsRepository }) {
  const { groups } = deps;

  /** Account id -> its profile, for the tenant's accounts. */
  async function accountProfiles(tenantId: string): Promise<Map<string, string>> {
    return new Map((await deps.accounts.listForTenant(tenantId, null)).map((a) => [a.id, a.profile_id]));
  }

  /** The group as `auth` may see it (only the accounts of its profiles), or null when it sees none of them. */
  function visible(auth: AuthContext, g: AccountGroupRow, profiles: Map<string, string>): AccountGroupView | null {
    const ids = g.account_ids.filter((id) => profiles.has(id) && canAccessProfile(auth, profiles.get(id)!));
    if (auth.profileAccess !== 'all' && ids.length === 0) return null;
    return { _id: g.id, name: g.name, accountIds: ids, createdBy: g.created_by, createdAt: g.created_at.toISOString(), updatedAt: g.updated_at.toISOString() };
  }

  /** Checks a name and a list of accounts (either may be absent on update). @throws 400 with every bad field. */
  async function checked(auth: AuthContext, input: { name?: string; accountIds?: string[] }): Promise<{ name?: string; accountIds?: string[] }> {
    const errors = new FieldErrorCollector();
    const name = input.name?.trim();
    if (input.name !== undefined) {
      if (!name) errors.add('name', 'must not be empty');
      else if ([...name].length > GROUP_NAME_MAX) errors.add('name', `must be at most ${GROUP_NAME_MAX} characters`);
    }
    if (input.accountIds !== undefined) {
      const ids = input.accountIds;
      if (ids.length === 0) errors.add('accountIds', 'must name at least one account');
      if (ids.length > GROUP_ACCOUNTS_MAX) errors.add('accountIds', `must name at most ${GROUP_ACCOUNTS_MAX} accounts`);
      const profiles = await accountProfiles(auth.tenantId);
      const seen = new Set<string>();
      ids.forEach((id, i) => {
        if (seen.has(id)) errors.add(`accountIds.${i}`, `repeats ${id}`);
        else if (!profiles.has(id) || !canAccessProfile(auth, profiles.get(id)!)) errors.add(`accountIds.${i}`, `${id} is not one of your connected accounts`);
        seen.add(id);
      });
    }
    errors.throwIfAny();
    return { ...(name !== undefined ? { name } : {}), ...(input.accountIds ? { accountIds: input.accountIds } : {}) };
  }

  /** @throws 409 when another group of the tenant has this name. */
  async function assertNameFree(auth: AuthContext, name: string, exceptId?: string): Promise<void> {
    const taken = (await groups.list(auth.tenantId)).some((g) => g.id !== exceptId && g.name.toLowerCase() === name.toLowerCase());
    if (taken) throw new AppError('CONFLICT', `An account group named "${name}" exists already`, { field: 'name' });
  }

  /** The group, when the caller may change it. @throws 404 (not the tenant's, or none of its accounts visible), 403 (some accounts outside the caller's profiles). */
  async function changeable(auth: AuthContext, id: string): Promise<AccountGroupRow> {
    const g = await groups.get(auth.tenantId, id);
    const profiles = await accountProfiles(auth.tenantId);
    const view = g && visible(auth, g, profiles);
    if (!g || !view) throw notFound('Account group');
    if (view.accountIds.length !== g.account_ids.length) {
      throw new AppError('FORBIDDEN', 'This account group includes accounts of profiles your team access does not cover', { reason: 'profile_scope' });
    }
    return g;
  }

  return {
    /** `{ groups }`: the tenant's groups as the caller may see them, oldest first. */
    async list(auth: AuthContext): Promise<{ groups: AccountGroupView[] }> {
      const profiles = await accountProfiles(auth.tenantId);
      return { groups: (await groups.list(auth.tenantId)).map((g) => visible(auth, g, profiles)).filter((g): g is AccountGroupView => g !== null) };
    },

    /** Creates a group: `{ message, group }`. */
    async create(auth: AuthContext, input: { name: string; accountIds: string[] }) {
      const c = await checked(auth, input);
      await assertNameFree(auth, c.name!);
      const g = await groups.insert(auth.tenantId, auth.userId, c.name!, c.accountIds!);
      return { message: 'Account group created', group: visible(auth, g, await accountProfiles(auth.tenantId))! };
    },

    /** Renames a group and/or replaces its accounts: `{ message, group }`. */
    async update(auth: AuthContext, id: string, input: { name?: string; accountIds?: string[] }) {
      await changeable(auth, id);
      const c = await checked(auth, input);
      if (c.name) await assertNameFree(auth, c.name, id);
      const g = await groups.update(auth.tenantId, id, c);
      if (!g) throw notFound('Account group');
      return { message: 'Account group updated', group: visible(auth, g, await accountProfiles(auth.tenantId))! };
    },

    /** Deletes a group (its accounts stay connected): `{ message }`. */
    async remove(auth: AuthContext, id: string) {
      await changeable(auth, id);
      if (!(await groups.remove(auth.tenantId, id))) throw notFound('Account group');
      return { message: 'Account group deleted' };
    },
  };
}

export type AccountGroupsService = ReturnType<typeof createAccountGroupsService>;
