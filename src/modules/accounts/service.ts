/**
 * Connected social accounts. Credentials are sealed with AES-256-GCM before they are
 * stored; they are opened only by the publisher and the connect flows. Reconnecting
 * the same platform account into the same profile updates it in place and keeps a
 * refresh token the platform did not send again.
 */
import { fieldError, notFound } from '../../core/errors.ts';
import type { SecretBox } from '../../core/crypto.ts';
import { newId } from '../../core/ids.ts';
import type { Config } from '../../config.ts';
import type { Db, Queryable } from '../../storage/db.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import type { ConnectedAccount, PlatformId } from '../../platforms/types.ts';
import { canAccessProfile, type AuthContext } from '../auth/context.ts';
import { getAccessibleProfile } from '../profiles/service.ts';

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

/** Public URL of an account's profile page, where the platform has one. */
function profileUrl(a: AccountRow): string | undefined {
  if (a.platform === 'bluesky') return `https://bsky.app/profile/${a.username}`;
  return undefined;
}

/** The account as the API shows it (spec.md section 3 plus the SDK's fields). Never includes credentials. */
export function toAccountView(a: AccountRow) {
  const s = a.settings ?? {};
  return {
    _id: a.id,
    profileId: a.profile_id,
    platform: a.platform,
    username: a.username,
    displayName: a.display_name ?? a.username,
    profilePicture: a.profile_picture ?? null,
    profileUrl: profileUrl(a),
    isActive: a.is_active,
    needsReconnection: !a.is_active,
    inactiveReason: a.inactive_reason,
    tokenExpiresAt: a.token_expires_at ? a.token_expires_at.toISOString() : null,
    permissions: a.permissions,
    sandbox: s.sandbox === true ? true : undefined,
    selectedPageName: typeof s.selectedPageName === 'string' ? s.selectedPageName : undefined,
    accountType: typeof s.accountType === 'string' ? s.accountType : a.platform === 'linkedin' ? 'personal' : undefined,
    selectedOrganization: s.selectedOrganization ?? undefined,
    defaultSubreddit: typeof s.defaultSubreddit === 'string' ? s.defaultSubreddit : undefined,
    defaultBoardId: typeof s.defaultBoardId === 'string' ? s.defaultBoardId : undefined,
    defaultBoardName: typeof s.defaultBoardName === 'string' ? s.defaultBoardName : undefined,
    createdAt: a.created_at.toISOString(),
    updatedAt: a.updated_at.toISOString(),
  };
}

export type AccountView = ReturnType<typeof toAccountView>;

/** Loads an account the caller may see (tenant and profile scope), or throws 404. */
export async function getAccessibleAccount(q: Queryable, auth: AuthContext, accountId: string): Promise<AccountRow> {
  const { rows } = await q.query<AccountRow>('SELECT * FROM accounts WHERE id = $1 AND tenant_id = $2', [accountId, auth.tenantId]);
  if (!rows[0] || !canAccessProfile(auth, rows[0].profile_id)) throw notFound('Account');
  return rows[0];
}

export function createAccountsService(deps: { db: Db; secrets: SecretBox; adapters: AdapterRegistry; config: Config }) {
  const { db, secrets } = deps;

  /**
   * Stores a newly connected account under a profile, or refreshes the existing row for
   * the same platform account (keeping a refresh token the platform did not resend).
   */
  async function upsertConnected(auth: AuthContext, profileId: string, platform: PlatformId, c: ConnectedAccount): Promise<AccountRow> {
    return db.tx(async (client) => {
      await getAccessibleProfile(client, auth, profileId, true);
      const { rows: existing } = await client.query<AccountRow>(
        'SELECT * FROM accounts WHERE profile_id = $1 AND platform = $2 AND platform_user_id = $3 FOR UPDATE',
        [profileId, platform, c.platformUserId],
      );
      let creds = c.credentials;
      // Sandbox mode marks what it connects (simulator accounts); a reconnect outside it clears the mark.
      const settings = { ...(c.settings ?? {}), ...(deps.adapters.sandbox ? { sandbox: true } : {}) };
      if (existing[0]) {
        const old = secrets.openJson<Record<string, unknown>>(existing[0].credentials);
        creds = { ...old, ...Object.fromEntries(Object.entries(c.credentials).filter(([, v]) => v !== undefined && v !== null)) };
        const { rows } = await client.query<AccountRow>(
          `UPDATE accounts SET username = $2, display_name = $3, profile_picture = $4, is_active = true, inactive_reason = NULL,
                  credentials = $5, token_expires_at = $6, permissions = $7, settings = (settings - 'sandbox') || $8::jsonb, updated_at = now()
            WHERE id = $1 RETURNING *`,
          [existing[0].id, c.username, c.displayName ?? null, c.profilePicture ?? null, secrets.sealJson(creds),
            c.tokenExpiresAt ?? null, c.permissions ?? ['posts:write', 'posts:read'], JSON.stringify(settings)],
        );
        return rows[0];
      }
      const { rows } = await client.query<AccountRow>(
        `INSERT INTO accounts (id, tenant_id, profile_id, platform, platform_user_id, username, display_name, profile_picture,
                               credentials, token_expires_at, permissions, settings)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *`,
        [newId(), auth.tenantId, profileId, platform, c.platformUserId, c.username, c.displayName ?? null, c.profilePicture ?? null,
          secrets.sealJson(creds), c.tokenExpiresAt ?? null, c.permissions ?? ['posts:write', 'posts:read'], JSON.stringify(settings)],
      );
      return rows[0];
    });
  }

  return {
    upsertConnected,

    async list(auth: AuthContext, profileId?: string) {
      if (profileId) await getAccessibleProfile(db, auth, profileId);
      const { rows } = await db.query<AccountRow>(
        `SELECT * FROM accounts WHERE tenant_id = $1 AND ($2::char(24) IS NULL OR profile_id = $2) ORDER BY created_at, id`,
        [auth.tenantId, profileId ?? null],
      );
      return { accounts: rows.filter((a) => canAccessProfile(auth, a.profile_id)).map(toAccountView), hasAnalyticsAccess: false };
    },

    async get(auth: AuthContext, accountId: string) {
      return toAccountView(await getAccessibleAccount(db, auth, accountId));
    },

    async update(auth: AuthContext, accountId: string, input: { username?: string; displayName?: string }) {
      const a = await getAccessibleAccount(db, auth, accountId);
      if (input.username !== undefined && !input.username.trim()) throw fieldError('username', 'must not be empty');
      const { rows } = await db.query<AccountRow>(
        'UPDATE accounts SET username = $2, display_name = $3, updated_at = now() WHERE id = $1 RETURNING *',
        [a.id, input.username?.trim() ?? a.username, input.displayName ?? a.display_name],
      );
      return { message: 'Account updated successfully', username: rows[0].username, displayName: rows[0].display_name ?? rows[0].username, account: toAccountView(rows[0]) };
    },

    /** Disconnects: removes the account and its credentials. Pending targets then fail with a reconnect message. */
    async disconnect(auth: AuthContext, accountId: string) {
      const a = await getAccessibleAccount(db, auth, accountId);
      await db.query('DELETE FROM accounts WHERE id = $1', [a.id]);
      return { message: 'Account disconnected successfully' };
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
