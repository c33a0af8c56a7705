/**
 * The `accounts` table: every read and write of connected accounts outside the posts/bulk
 * listings goes through here, with credentials sealed and opened in one place
 * (AES-256-GCM, src/core/crypto.ts). Services call it; routes never do.
 */
import { notFound } from '../../core/errors.ts';
import type { SecretBox } from '../../core/crypto.ts';
import { newId } from '../../core/ids.ts';
import { prepared, type Queryable } from '../../storage/db.ts';
import type { ConnectedAccount, PlatformId } from '../../platforms/types.ts';
import { canAccessProfile, type AuthContext } from '../auth/context.ts';

export interface AccountRow {
  id: string;
  tenant_id: string;
  profile_id: string;
  platform: PlatformId;
  platform_user_id: string;
  username: string;
  display_name: string | null;
  profile_picture: string | null;
  is_active: boolean;
  inactive_reason: string | null;
  credentials: string;
  token_expires_at: Date | null;
  permissions: string[];
  settings: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** The columns of AccountRow, for prepared statements (which must not return `*`). */
const ACCOUNT_COLUMNS = ['id', 'tenant_id', 'profile_id', 'platform', 'platform_user_id', 'username', 'display_name', 'profile_picture',
  'is_active', 'inactive_reason', 'credentials', 'token_expires_at', 'permissions', 'settings', 'created_at', 'updated_at',
] as const satisfies ReadonlyArray<keyof AccountRow>;

/** Run on every post created or edited: prepared (src/storage/db.ts PreparedStatement). */
const FIND_TENANT_ACCOUNTS = prepared('accounts.find-tenant-accounts',
  `SELECT ${ACCOUNT_COLUMNS.join(', ')} FROM accounts WHERE tenant_id = $1 AND id = ANY($2::char(24)[])`);

/** Loads an account the caller may see (tenant and profile scope), or throws 404. */
export async function getAccessibleAccount(q: Queryable, auth: AuthContext, accountId: string): Promise<AccountRow> {
  const { rows } = await q.query<AccountRow>('SELECT * FROM accounts WHERE id = $1 AND tenant_id = $2', [accountId, auth.tenantId]);
  if (!rows[0] || !canAccessProfile(auth, rows[0].profile_id)) throw notFound('Account');
  return rows[0];
}

/** The tenant's accounts with these ids (any order). */
export async function findTenantAccounts(q: Queryable, tenantId: string, ids: string[]): Promise<AccountRow[]> {
  return (await q.query<AccountRow>(FIND_TENANT_ACCOUNTS, [tenantId, ids])).rows;
}

/** Every account of the tenant, oldest first. */
export async function listTenantAccounts(q: Queryable, tenantId: string): Promise<AccountRow[]> {
  return (await q.query<AccountRow>('SELECT * FROM accounts WHERE tenant_id = $1 ORDER BY created_at, id', [tenantId])).rows;
}

/** How many accounts a profile holds. */
export async function countProfileAccounts(q: Queryable, profileId: string): Promise<number> {
  return (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts WHERE profile_id = $1', [profileId])).rows[0].n;
}

export function createAccountsRepository(db: Queryable, secrets: SecretBox) {
  const one = async (sql: string, params: unknown[], q: Queryable = db) => (await q.query<AccountRow>(sql, params)).rows[0];

  return {
    /** @throws 404 for an account outside the caller's tenant or profiles. */
    accessible: (auth: AuthContext, accountId: string, q: Queryable = db) => getAccessibleAccount(q, auth, accountId),

    async listForTenant(tenantId: string, profileId: string | null): Promise<AccountRow[]> {
      return (await db.query<AccountRow>(
        `SELECT * FROM accounts WHERE tenant_id = $1 AND ($2::char(24) IS NULL OR profile_id = $2) ORDER BY created_at, id`, [tenantId, profileId])).rows;
    },

    /** The account's decrypted credentials. */
    credentialsOf: <C = Record<string, unknown>>(row: Pick<AccountRow, 'credentials'>): C => secrets.openJson<C>(row.credentials),

    /**
     * Stores refreshed credentials. `tokenExpiresAt` null keeps the stored expiry unless
     * `replaceExpiry` (the token refresh job stores what the refresh answered, null included).
     */
    async saveCredentials(accountId: string, credentials: Record<string, unknown>, tokenExpiresAt: Date | null | undefined, opts: { replaceExpiry?: boolean } = {}): Promise<void> {
      await db.query(
        opts.replaceExpiry
          ? 'UPDATE accounts SET credentials = $2, token_expires_at = $3, updated_at = now() WHERE id = $1'
          : 'UPDATE accounts SET credentials = $2, token_expires_at = COALESCE($3, token_expires_at), updated_at = now() WHERE id = $1',
        [accountId, secrets.sealJson(credentials), tokenExpiresAt ?? null]);
    },

    /** Marks the account for reconnection (is_active false) with the reason shown to users. */
    async markNeedsReconnect(accountId: string, reason: string): Promise<void> {
      await db.query('UPDATE accounts SET is_active = false, inactive_reason = $2, updated_at = now() WHERE id = $1', [accountId, reason]);
    },

    /**
     * Active accounts whose access token expires within `marginMs` (soonest first, 200 at most):
     * the sandbox's simulator accounts when `sandbox`, the real ones otherwise.
     */
    async dueForRefresh(q: Queryable, marginMs: number, sandbox: boolean): Promise<Array<Pick<AccountRow, 'id' | 'platform' | 'platform_user_id' | 'username' | 'credentials' | 'settings'>>> {
      return (await q.query<Pick<AccountRow, 'id' | 'platform' | 'platform_user_id' | 'username' | 'credentials' | 'settings'>>(
        `SELECT id, platform, platform_user_id, username, credentials, settings FROM accounts
          WHERE is_active AND token_expires_at IS NOT NULL AND token_expires_at < now() + make_interval(secs => $1)
            AND coalesce(settings->>'sandbox' = 'true', false) = $2
          ORDER BY token_expires_at LIMIT 200`, [marginMs / 1000, sandbox])).rows;
    },

    /** Merges `patch` into the account's settings. */
    mergeSettings: (accountId: string, patch: Record<string, unknown>) =>
      one('UPDATE accounts SET settings = settings || $2::jsonb, updated_at = now() WHERE id = $1 RETURNING *', [accountId, JSON.stringify(patch)]),

    /** Removes settings keys, then merges `patch`. `touch` false leaves updated_at as it was. */
    replaceSettings: (accountId: string, remove: string[], patch: Record<string, unknown>, opts: { touch?: boolean } = {}) =>
      one(`UPDATE accounts SET settings = (settings - $2::text[]) || $3::jsonb${opts.touch === false ? '' : ', updated_at = now()'} WHERE id = $1 RETURNING *`,
        [accountId, remove, JSON.stringify(patch)]),

    async rename(accountId: string, username: string, displayName: string | null): Promise<AccountRow> {
      return one('UPDATE accounts SET username = $2, display_name = $3, updated_at = now() WHERE id = $1 RETURNING *', [accountId, username, displayName]);
    },

    async remove(accountId: string): Promise<void> {
      await db.query('DELETE FROM accounts WHERE id = $1', [accountId]);
    },

    /** True when another account of the profile already is this platform account. */
    async platformAccountTaken(profileId: string, platform: PlatformId, platformUserId: string, exceptId: string): Promise<boolean> {
      const { rows } = await db.query('SELECT 1 FROM accounts WHERE profile_id = $1 AND platform = $2 AND platform_user_id = $3 AND id <> $4', [profileId, platform, platformUserId, exceptId]);
      return rows.length > 0;
    },

    /** Points the account at another platform account of the same login (a Facebook Page switch) and reactivates it. */
    moveTo: (accountId: string, to: { platformUserId: string; name: string; profilePicture: string | null; credentials: Record<string, unknown>; settings: Record<string, unknown> }) =>
      one(`UPDATE accounts SET platform_user_id = $2, username = $3, display_name = $3, profile_picture = $6, credentials = $4, is_active = true, inactive_reason = NULL,
                  settings = settings || $5::jsonb, updated_at = now() WHERE id = $1 RETURNING *`,
        [accountId, to.platformUserId, to.name, secrets.sealJson(to.credentials), JSON.stringify(to.settings), to.profilePicture]),

    /** The account of `profileId` for this platform account, locked for update (inside a transaction). */
    lockConnected: (q: Queryable, profileId: string, platform: PlatformId, platformUserId: string) =>
      one('SELECT * FROM accounts WHERE profile_id = $1 AND platform = $2 AND platform_user_id = $3 FOR UPDATE', [profileId, platform, platformUserId], q),

    /** Reconnects an existing row: identity, credentials and settings (its sandbox mark replaced), active again. */
    reconnect: (q: Queryable, accountId: string, c: ConnectedAccount, settings: Record<string, unknown>) =>
      one(`UPDATE accounts SET username = $2, display_name = $3, profile_picture = $4, is_active = true, inactive_reason = NULL,
                  credentials = $5, token_expires_at = $6, permissions = $7, settings = (settings - 'sandbox') || $8::jsonb, updated_at = now()
            WHERE id = $1 RETURNING *`,
        [accountId, c.username, c.displayName ?? null, c.profilePicture ?? null, secrets.sealJson(c.credentials),
          c.tokenExpiresAt ?? null, c.permissions ?? ['posts:write', 'posts:read'], JSON.stringify(settings)], q),

    insert: (q: Queryable, tenantId: string, profileId: string, platform: PlatformId, c: ConnectedAccount, settings: Record<string, unknown>) =>
      one(`INSERT INTO accounts (id, tenant_id, profile_id, platform, platform_user_id, username, display_name, profile_picture,
                                 credentials, token_expires_at, permissions, settings)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *`,
        [newId(), tenantId, profileId, platform, c.platformUserId, c.username, c.displayName ?? null, c.profilePicture ?? null,
          secrets.sealJson(c.credentials), c.tokenExpiresAt ?? null, c.permissions ?? ['posts:write', 'posts:read'], JSON.stringify(settings)], q),
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
