/**
 * Connected social accounts. Credentials are sealed with AES-256-GCM before they are
 * stored; they are opened only by the publisher and the connect flows. Reconnecting
 * the same platform account into the same profile updates it in place and keeps a
 * refresh token the platform did not send again.
 */
import { AppError, fieldError } from '../../core/errors.ts';
import type { Db, Queryable } from '../../storage/db.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import { ACCOUNT_VIEW_DATA, type ConnectedAccount, type PlatformId } from '../../platforms/types.ts';
import { RULE_SETS } from '../../shared/rules/index.ts';
import { canAccessProfile, type AuthContext } from '../auth/context.ts';
import { getAccessibleProfile, getTenantProfile } from '../profiles/service.ts';
import type { AccountRow, AccountsRepository } from './repository.ts';
import { enqueueAccountEvent } from '../webhooks/outbox.ts';

export { getAccessibleAccount, type AccountRow } from './repository.ts';

/**
 * Runs inside the transaction that stores a connected account, after the row is written (e.g.
 * using up the platform invite the connection came from); throwing rolls the account back.
 */
export type StoredHook = (q: Queryable, account: AccountRow) => Promise<void>;

/** Public URL of an account's profile page, where the platform has one (its {@link ACCOUNT_VIEW_DATA}). */
function profileUrl(a: AccountRow): string | undefined {
  return ACCOUNT_VIEW_DATA[a.platform]?.profileUrl?.(a.username);
}

/** The settings the platform's rule table reads that the platform stated about the account (`accountSettingKeys`), or undefined. */
function ruleSettingsOf(platform: PlatformId, s: Record<string, unknown>): Record<string, unknown> | undefined {
  const keys = RULE_SETS[platform]?.accountSettingKeys ?? [];
  const out = Object.fromEntries(keys.filter((k) => s[k] !== undefined).map((k) => [k, s[k]]));
  return Object.keys(out).length ? out : undefined;
}

/** The account as the API shows it (the fields the official client reads). Never includes credentials. */
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
    accountType: typeof s.accountType === 'string' ? s.accountType : ACCOUNT_VIEW_DATA[a.platform]?.accountType,
    selectedOrganization: s.selectedOrganization ?? undefined,
    defaultSubreddit: typeof s.defaultSubreddit === 'string' ? s.defaultSubreddit : undefined,
    defaultBoardId: typeof s.defaultBoardId === 'string' ? s.defaultBoardId : undefined,
    defaultBoardName: typeof s.defaultBoardName === 'string' ? s.defaultBoardName : undefined,
    // The platform's own fields (TikTok's privacy levels): its ACCOUNT_VIEW_DATA.
    ...ACCOUNT_VIEW_DATA[a.platform]?.fields?.(s),
    ruleSettings: ruleSettingsOf(a.platform, s),
    createdAt: a.created_at.toISOString(),
    updatedAt: a.updated_at.toISOString(),
  };
}

export type AccountView = ReturnType<typeof toAccountView>;

export function createAccountsService(deps: { db: Db; accounts: AccountsRepository; adapters: AdapterRegistry; users: { addons(tenantId: string): Promise<readonly string[]> } }) {
  const { db, accounts: repo } = deps;

  /**
   * Stores a newly connected account under a profile, or refreshes the existing row for
   * the same platform account (keeping a refresh token the platform did not resend). `by`: the
   * caller (its profile access applies), or `{ tenantId }` for the tenant whose flow a caller
   * started and whose access was checked then (the OAuth callback, which has no caller).
   * @throws 404 for a profile the caller (or tenant) does not have.
   */
  async function upsertConnected(by: AuthContext | { tenantId: string }, profileId: string, platform: PlatformId, c: ConnectedAccount, within?: StoredHook): Promise<AccountRow> {
    return db.tx(async (client) => {
      if ('permissions' in by) await getAccessibleProfile(client, by, profileId, true);
      else await getTenantProfile(client, by.tenantId, profileId, true);
      const existing = await repo.lockConnected(client, profileId, platform, c.platformUserId);
      // Sandbox mode marks what it connects (simulator accounts); a reconnect outside it clears the mark.
      const settings = { ...(c.settings ?? {}), ...(deps.adapters.sandbox ? { sandbox: true } : {}) };
      let row: AccountRow;
      if (existing) {
        const old = repo.credentialsOf(existing);
        const credentials = { ...old, ...Object.fromEntries(Object.entries(c.credentials).filter(([, v]) => v !== undefined && v !== null)) };
        row = await repo.reconnect(client, existing.id, { ...c, credentials }, settings);
      } else {
        row = await repo.insert(client, by.tenantId, profileId, platform, c, settings);
      }
      if (within) await within(client, row);
      // The account.connected webhook event, in the same transaction (outbox, decision 0038).
      await enqueueAccountEvent(client, row, 'account.connected');
      return row;
    });
  }

  return {
    upsertConnected,

    async list(auth: AuthContext, profileId?: string) {
      if (profileId) await getAccessibleProfile(db, auth, profileId);
      const rows = await repo.listForTenant(auth.tenantId, profileId ?? null);
      return { accounts: rows.filter((a) => canAccessProfile(auth, a.profile_id)).map(toAccountView), hasAnalyticsAccess: (await deps.users.addons(auth.tenantId)).includes('analytics') };
    },

    async get(auth: AuthContext, accountId: string) {
      return toAccountView(await repo.accessible(auth, accountId));
    },

    async update(auth: AuthContext, accountId: string, input: { username?: string; displayName?: string }) {
      const a = await repo.accessible(auth, accountId);
      if (input.username !== undefined && !input.username.trim()) throw fieldError('username', 'must not be empty');
      const row = await repo.rename(a.id, input.username?.trim() ?? a.username, input.displayName ?? a.display_name);
      return { message: 'Account updated successfully', username: row.username, displayName: row.display_name ?? row.username, account: toAccountView(row) };
    },

    /**
     * Moves the account to another profile of the tenant (Late's `moveAccountToProfile`): `{ message, profileId }`.
     * Posts already created keep their targets on the account; new posts on the target profile may use it.
     * Clones keep sharing its credential.
     * @throws 404 for an account or profile the caller cannot see; 409 when the profile already has
     *   this platform account.
     */
    async moveToProfile(auth: AuthContext, accountId: string, profileId: string) {
      const a = await repo.accessible(auth, accountId);
      const profile = await getAccessibleProfile(db, auth, profileId);
      if (a.profile_id === profile.id) return { message: `The account is already in the profile ${profile.name}`, profileId: profile.id };
      try {
        await repo.moveToProfile(a.id, profile.id);
      } catch (err) {
        if ((err as { code?: string }).code === '23505') {
          throw new AppError('CONFLICT', `The profile ${profile.name} already has this ${a.platform} account`, { platform: a.platform, field: 'profileId' });
        }
        throw err;
      }
      return { message: `Account moved to the profile ${profile.name}`, profileId: profile.id };
    },

    /**
     * `PATCH /v1/accounts/{accountId}`: moves the account to `profileId` ({@link moveToProfile}) and/or
     * changes its display settings (`username`, `displayName`, as {@link update}); at least one of them.
     * Answers `{ message, profileId, username, displayName, account }`.
     * @throws 400 naming the field (nothing to change, an empty username), before anything is
     *   written; then as {@link moveToProfile} (404, 409).
     */
    async patch(auth: AuthContext, accountId: string, input: { profileId?: string; username?: string; displayName?: string }) {
      if (input.profileId === undefined && input.username === undefined && input.displayName === undefined) {
        throw fieldError('profileId', 'give profileId (to move the account), username or displayName');
      }
      if (input.username !== undefined && !input.username.trim()) throw fieldError('username', 'must not be empty');
      const moved = input.profileId !== undefined ? await this.moveToProfile(auth, accountId, input.profileId) : null;
      const renamed = input.username !== undefined || input.displayName !== undefined;
      const row = renamed ? (await this.update(auth, accountId, input)).account : toAccountView(await repo.accessible(auth, accountId));
      const message = moved && renamed ? `${moved.message}; its names were updated` : moved ? moved.message : 'Account updated successfully';
      return { message, profileId: row.profileId, username: row.username, displayName: row.displayName, account: row };
    },

    /** Disconnects: removes the account and its credentials. Pending targets then fail with a reconnect message. */
    async disconnect(auth: AuthContext, accountId: string) {
      const a = await repo.accessible(auth, accountId);
      // The account.disconnected webhook event is written in the delete's transaction (outbox, decision 0038).
      await repo.remove(a.id, (q) => enqueueAccountEvent(q, a, 'account.disconnected', { type: 'intentional', reason: 'Disconnected by the user' }));
      return { message: 'Account disconnected successfully' };
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
