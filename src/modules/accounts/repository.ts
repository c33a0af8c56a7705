/**
 * The `accounts` table: every read and write of connected accounts outside the posts/bulk
 * listings goes through here, with credentials sealed and opened in one place
 * (AES-256-GCM, src/core/crypto.ts). Services call it; routes never do.
 *
 * Clones (POST /v1/profiles/{id}/clone-connection) share one stored credential
 * (docs/decisions/0037-platform-invites-and-shared-credentials.md): a clone's `credential_owner`
 * names the row holding it. Reads here return the owner's credential in `credentials`; credential
 * writes go to the owner, and the account state (active, reason, token expiry) to the owner and
 * every clone at once.
 */
import { LRUCache } from 'lru-cache';
import { notFound } from '../../core/errors.ts';
import type { SecretBox } from '../../core/crypto.ts';
import { newId } from '../../core/ids.ts';
import { prepared, type Db, type Queryable } from '../../storage/db.ts';
import type { ConnectedAccount, PlatformId } from '../../platforms/types.ts';
import { canAccessProfile, type AuthContext } from '../auth/context.ts';
import { accountsDisconnectedOutboxSql } from '../webhooks/outbox.ts';

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
  /** The account whose stored credential this clone uses; null: the row holds its own. */
  credential_owner: string | null;
}

/** The columns of AccountRow, for prepared statements (which must not return `*`). */
const ACCOUNT_COLUMNS = ['id', 'tenant_id', 'profile_id', 'platform', 'platform_user_id', 'username', 'display_name', 'profile_picture',
  'is_active', 'inactive_reason', 'credentials', 'token_expires_at', 'permissions', 'settings', 'created_at', 'updated_at', 'credential_owner',
] as const satisfies ReadonlyArray<keyof AccountRow>;

/**
 * The columns of AccountRow over `accounts a`, with a clone's `credentials` read from its owner
 * (the subquery runs only for clones).
 */
const RESOLVED_COLUMNS = ACCOUNT_COLUMNS.map((c) => c === 'credentials'
  ? `CASE WHEN a.credential_owner IS NULL THEN a.credentials ELSE (SELECT o.credentials FROM accounts o WHERE o.id = a.credential_owner) END AS credentials`
  : `a.${c}`).join(', ');
const SELECT_ACCOUNTS = `SELECT ${RESOLVED_COLUMNS} FROM accounts a`;

/** Run on every post created or edited: prepared (src/storage/db.ts PreparedStatement). */
const FIND_TENANT_ACCOUNTS = prepared('accounts.find-tenant-accounts',
  `${SELECT_ACCOUNTS} WHERE a.tenant_id = $1 AND a.id = ANY($2::char(24)[])`);

/** Loads an account the caller may see (tenant and profile scope), or throws 404. */
export async function getAccessibleAccount(q: Queryable, auth: AuthContext, accountId: string): Promise<AccountRow> {
  const { rows } = await q.query<AccountRow>(`${SELECT_ACCOUNTS} WHERE a.id = $1 AND a.tenant_id = $2`, [accountId, auth.tenantId]);
  if (!rows[0] || !canAccessProfile(auth, rows[0].profile_id)) throw notFound('Account');
  return rows[0];
}

/** The tenant's accounts with these ids (any order). */
export async function findTenantAccounts(q: Queryable, tenantId: string, ids: string[]): Promise<AccountRow[]> {
  return (await q.query<AccountRow>(FIND_TENANT_ACCOUNTS, [tenantId, ids])).rows;
}

/**
 * An account row with its row version: PostgreSQL's `xmin` of the row (as text), which every
 * UPDATE of the row changes (each update writes a new row version) and nothing else does.
 */
export type VersionedAccountRow = AccountRow & { row_version: string };

const FIND_TENANT_ACCOUNTS_VERSIONED = prepared('accounts.find-tenant-accounts-versioned',
  `SELECT ${RESOLVED_COLUMNS}, a.xmin::text AS row_version FROM accounts a WHERE a.tenant_id = $1 AND a.id = ANY($2::char(24)[])`);

/**
 * SQL condition, for a statement that writes something validated against account rows read
 * earlier: every account in `ids` (an SQL char(24)[] expression) is still the tenant's and still
 * at the row version in `versions` (a text[] of the same length). False when one was changed,
 * moved or removed since; true for empty arrays.
 */
export const accountsUnchangedSql = (tenant: string, ids: string, versions: string) =>
  `(SELECT count(*) FROM accounts a0 JOIN unnest(${ids}::char(24)[], ${versions}::text[]) AS v(id, version)
      ON a0.id = v.id AND a0.xmin = v.version::xid WHERE a0.tenant_id = ${tenant}) = cardinality(${ids}::char(24)[])`;

/**
 * The accounts sharing the stored credential of account `$1` (docs/decisions/0037): the row that
 * holds it (the account itself, or the clone's owner) and every clone of that row, as the CTE
 * `sharing (id, holds)`, `holds` true for the holder. The one statement of who shares a credential.
 */
const SHARING_CREDENTIAL = `sharing AS (
  SELECT a.id, a.id = o.id AS holds
    FROM accounts a, (SELECT coalesce(credential_owner, id) AS id FROM accounts WHERE id = $1) o
   WHERE a.id = o.id OR a.credential_owner = o.id)`;

/**
 * The account rows creates validate against, kept per process for `ttlMs` (10 s by default).
 * A hit is exact only together with {@link accountsUnchangedSql} in the writing statement: the
 * caller passes each used row's `row_version`, and the statement writes nothing when one changed
 * (then {@link AccountRowCache.forget} and read again). This saves the create route its accounts
 * round trip: a create is one statement.
 */
export interface AccountRowCache {
  /** The tenant's accounts with these ids, from the cache when every one is there, else read (and kept). */
  byIds(q: Queryable, tenantId: string, ids: string[]): Promise<VersionedAccountRow[]>;
  /** Drops the tenant's rows (after a write found one of them changed). */
  forget(tenantId: string): void;
}

export function createAccountRowCache(opts: { ttlMs?: number; max?: number } = {}): AccountRowCache {
  const rows = new LRUCache<string, VersionedAccountRow>({ max: opts.max ?? 10_000, ttl: opts.ttlMs ?? 10_000 });
  return {
    async byIds(q, tenantId, ids) {
      const hit = ids.map((id) => rows.get(id));
      if (hit.every((r) => r !== undefined && r.tenant_id === tenantId)) return hit as VersionedAccountRow[];
      const read = (await q.query<VersionedAccountRow>(FIND_TENANT_ACCOUNTS_VERSIONED, [tenantId, ids])).rows;
      for (const r of read) rows.set(r.id, r);
      return read;
    },
    forget(tenantId) {
      for (const [id, r] of rows.entries()) if (r.tenant_id === tenantId) rows.delete(id);
    },
  };
}

/** Every account of the tenant, oldest first. */
export async function listTenantAccounts(q: Queryable, tenantId: string): Promise<AccountRow[]> {
  return (await q.query<AccountRow>(`${SELECT_ACCOUNTS} WHERE a.tenant_id = $1 ORDER BY a.created_at, a.id`, [tenantId])).rows;
}

/** How many accounts a profile holds. */
export async function countProfileAccounts(q: Queryable, profileId: string): Promise<number> {
  return (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts WHERE profile_id = $1', [profileId])).rows[0].n;
}

/**
 * Before `accountId` stops holding a credential (deleted, or moved to another Page's token): when
 * clones use its credential, the oldest clone takes it over and the others point at that one; when
 * it is a clone itself, nothing is needed. Runs in the caller's transaction.
 */
async function handOver(q: Queryable, accountId: string): Promise<void> {
  const { rows } = await q.query<{ id: string }>(
    'SELECT id FROM accounts WHERE credential_owner = $1 ORDER BY created_at, id LIMIT 1 FOR UPDATE', [accountId]);
  if (!rows[0]) return;
  const heir = rows[0].id;
  await q.query(`UPDATE accounts SET credentials = (SELECT credentials FROM accounts WHERE id = $1), credential_owner = NULL WHERE id = $2`, [accountId, heir]);
  await q.query('UPDATE accounts SET credential_owner = $2 WHERE credential_owner = $1', [accountId, heir]);
}

export function createAccountsRepository(db: Db, secrets: SecretBox) {
  const one = async (sql: string, params: unknown[], q: Queryable = db) => (await q.query<AccountRow>(sql, params)).rows[0];

  return {
    /** @throws 404 for an account outside the caller's tenant or profiles. */
    accessible: (auth: AuthContext, accountId: string, q: Queryable = db) => getAccessibleAccount(q, auth, accountId),

    async listForTenant(tenantId: string, profileId: string | null): Promise<AccountRow[]> {
      return (await db.query<AccountRow>(
        `${SELECT_ACCOUNTS} WHERE a.tenant_id = $1 AND ($2::char(24) IS NULL OR a.profile_id = $2) ORDER BY a.created_at, a.id`, [tenantId, profileId])).rows;
    },

    /** The account's decrypted credentials. */
    credentialsOf: <C = Record<string, unknown>>(row: Pick<AccountRow, 'credentials'>): C => secrets.openJson<C>(row.credentials),

    /**
     * Stores refreshed credentials. `tokenExpiresAt` null keeps the stored expiry unless
     * `replaceExpiry` (the token refresh job stores what the refresh answered, null included).
     */
    async saveCredentials(accountId: string, credentials: Record<string, unknown>, tokenExpiresAt: Date | null | undefined, opts: { replaceExpiry?: boolean } = {}): Promise<void> {
      // The credential goes to the row holding it (the account itself, or a clone's owner); the expiry to every account sharing it.
      await db.query(
        `WITH ${SHARING_CREDENTIAL}
         UPDATE accounts a SET credentials = CASE WHEN s.holds THEN $2 ELSE a.credentials END,
                token_expires_at = ${opts.replaceExpiry ? '$3' : 'COALESCE($3, a.token_expires_at)'}, updated_at = now()
           FROM sharing s WHERE a.id = s.id`,
        [accountId, secrets.sealJson(credentials), tokenExpiresAt ?? null]);
    },

    /** Marks the account, and every account sharing its credential, for reconnection (is_active false) with the reason shown to users. */
    async markNeedsReconnect(accountId: string, reason: string): Promise<void> {
      await db.query(
        `WITH ${SHARING_CREDENTIAL},
         upd AS (
           UPDATE accounts a SET is_active = false, inactive_reason = $2, updated_at = now() FROM sharing s, accounts prev
            WHERE a.id = s.id AND prev.id = a.id
           RETURNING a.id, a.tenant_id, a.profile_id, a.platform, a.username, a.display_name, prev.is_active AS was_active)
         -- account.disconnected webhook events for the accounts that were active (outbox, decision 0038).
         ${accountsDisconnectedOutboxSql('upd', '$2::text')}`,
        [accountId, reason]);
    },

    /**
     * Active accounts whose access token expires within `marginMs` (soonest first, 200 at most):
     * the sandbox's simulator accounts when `sandbox`, the real ones otherwise. Clones are left
     * out: refreshing their credential's owner renews theirs.
     */
    async dueForRefresh(q: Queryable, marginMs: number, sandbox: boolean): Promise<Array<Pick<AccountRow, 'id' | 'platform' | 'platform_user_id' | 'username' | 'credentials' | 'settings'>>> {
      return (await q.query<Pick<AccountRow, 'id' | 'platform' | 'platform_user_id' | 'username' | 'credentials' | 'settings'>>(
        `SELECT id, platform, platform_user_id, username, credentials, settings FROM accounts
          WHERE is_active AND credential_owner IS NULL AND token_expires_at IS NOT NULL AND token_expires_at < now() + make_interval(secs => $1)
            AND coalesce(settings->>'sandbox' = 'true', false) = $2
          ORDER BY token_expires_at LIMIT 200`, [marginMs / 1000, sandbox])).rows;
    },

    /** Puts the account under another profile of its tenant. @throws the unique violation (23505) when that profile has this platform account. */
    async moveToProfile(accountId: string, profileId: string): Promise<void> {
      await db.query('UPDATE accounts SET profile_id = $2, updated_at = now() WHERE id = $1', [accountId, profileId]);
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

    /**
     * Deletes the account; a credential it holds for clones is handed to the oldest clone first, so they
     * keep working. `within` runs in the same transaction after the delete.
     */
    async remove(accountId: string, within?: (q: Queryable) => Promise<unknown>): Promise<void> {
      await db.tx(async (q) => {
        await handOver(q, accountId);
        await q.query('DELETE FROM accounts WHERE id = $1', [accountId]);
        await within?.(q);
      });
    },

    /**
     * Stores a clone of `source` under `profileId`. `own` given: the clone holds that credential
     * itself (a Facebook clone for another page); otherwise it shares the source's stored one.
     */
    insertClone: (source: AccountRow, profileId: string, c: { platformUserId: string; username: string; displayName: string | null; profilePicture: string | null; settings: Record<string, unknown>; own?: Record<string, unknown> }) =>
      one(`INSERT INTO accounts (id, tenant_id, profile_id, platform, platform_user_id, username, display_name, profile_picture, is_active, inactive_reason,
                                 credentials, token_expires_at, permissions, settings, credential_owner)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING *`,
        [newId(), source.tenant_id, profileId, source.platform, c.platformUserId, c.username, c.displayName, c.profilePicture, source.is_active, source.inactive_reason,
          c.own ? secrets.sealJson(c.own) : '', c.own ? null : source.token_expires_at, source.permissions, JSON.stringify(c.settings),
          c.own ? null : (source.credential_owner ?? source.id)]),

    /** True when another account of the profile already is this platform account. */
    async platformAccountTaken(profileId: string, platform: PlatformId, platformUserId: string, exceptId: string): Promise<boolean> {
      const { rows } = await db.query('SELECT 1 FROM accounts WHERE profile_id = $1 AND platform = $2 AND platform_user_id = $3 AND id <> $4', [profileId, platform, platformUserId, exceptId]);
      return rows.length > 0;
    },

    /**
     * Points the account at another platform account of the same login (a Facebook Page switch) and
     * reactivates it. It then holds its own credential (another Page's token): clones of it keep theirs.
     */
    moveTo: (accountId: string, to: { platformUserId: string; name: string; profilePicture: string | null; credentials: Record<string, unknown>; settings: Record<string, unknown> }) =>
      db.tx(async (q) => {
        await handOver(q, accountId);
        return one(`UPDATE accounts SET platform_user_id = $2, username = $3, display_name = $3, profile_picture = $6, credentials = $4, credential_owner = NULL,
                    is_active = true, inactive_reason = NULL, settings = settings || $5::jsonb, updated_at = now() WHERE id = $1 RETURNING *`,
          [accountId, to.platformUserId, to.name, secrets.sealJson(to.credentials), JSON.stringify(to.settings), to.profilePicture], q);
      }),

    /** The account of `profileId` for this platform account, locked for update (inside a transaction). */
    lockConnected: (q: Queryable, profileId: string, platform: PlatformId, platformUserId: string) =>
      one(`${SELECT_ACCOUNTS} WHERE a.profile_id = $1 AND a.platform = $2 AND a.platform_user_id = $3 FOR UPDATE OF a`, [profileId, platform, platformUserId], q),

    /**
     * Reconnects an existing row: identity, credentials and settings (its sandbox mark replaced), active
     * again. A clone's new credential is stored on its owner, and every account sharing it is active again.
     */
    async reconnect(q: Queryable, accountId: string, c: ConnectedAccount, settings: Record<string, unknown>): Promise<AccountRow> {
      const sealed = secrets.sealJson(c.credentials);
      const row = await one(`UPDATE accounts SET username = $2, display_name = $3, profile_picture = $4, is_active = true, inactive_reason = NULL,
                  credentials = CASE WHEN credential_owner IS NULL THEN $5 ELSE '' END, token_expires_at = $6, permissions = $7,
                  settings = (settings - 'sandbox') || $8::jsonb, updated_at = now()
            WHERE id = $1 RETURNING *`,
        [accountId, c.username, c.displayName ?? null, c.profilePicture ?? null, sealed,
          c.tokenExpiresAt ?? null, c.permissions ?? ['posts:write', 'posts:read'], JSON.stringify(settings)], q);
      await q.query(
        `WITH ${SHARING_CREDENTIAL}
         UPDATE accounts a SET credentials = CASE WHEN s.holds THEN $2 ELSE a.credentials END, token_expires_at = $3, is_active = true, inactive_reason = NULL, updated_at = now()
           FROM sharing s WHERE a.id = s.id AND a.id <> $1`, [row.id, sealed, c.tokenExpiresAt ?? null]);
      return { ...row, credentials: sealed };
    },

    insert: (q: Queryable, tenantId: string, profileId: string, platform: PlatformId, c: ConnectedAccount, settings: Record<string, unknown>) =>
      one(`INSERT INTO accounts (id, tenant_id, profile_id, platform, platform_user_id, username, display_name, profile_picture,
                                 credentials, token_expires_at, permissions, settings)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *`,
        [newId(), tenantId, profileId, platform, c.platformUserId, c.username, c.displayName ?? null, c.profilePicture ?? null,
          secrets.sealJson(c.credentials), c.tokenExpiresAt ?? null, c.permissions ?? ['posts:write', 'posts:read'], JSON.stringify(settings)], q),
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
