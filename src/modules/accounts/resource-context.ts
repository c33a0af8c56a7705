/**
 * The {@link ResourceContext} a platform's account resources run with
 * (docs/decisions/0053-account-resources-contract.md): the stored account with its credentials
 * opened, platform calls with a valid access token (refreshed and stored when needed, as the
 * publisher does), and the account's changes written through the accounts repository.
 *
 * Platform failures become API errors (./platform-errors.ts): a revoked authorization marks the
 * account for reconnection and answers 400; by default the platform's rate limit answers 429 and
 * another failure 502 PLATFORM_ERROR "<Label>: <message>". With `authorization` (a list that
 * authorizes a choice: Pages, organizations) an expired authorization also needs a reconnect, a
 * refusal of the request answers 400 with the platform's message, anything else 502
 * "<Label> could not be reached".
 */
import type { OAuthPlatform } from '../../config.ts';
import { fieldError } from '../../core/errors.ts';
import type { ResourceContext } from '../../platforms/account-resources.ts';
import { withAccessToken } from '../../platforms/oauth-session.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import { PLATFORM_LABELS, type PlatformId } from '../../shared/platforms.ts';
import { canAccessProfile, type AuthContext } from '../auth/context.ts';
import { adapterContextFor } from './adapter-context.ts';
import { apiErrorFrom, needsReconnect, type AuthorizationWording } from './platform-errors.ts';
import type { AccountRow, AccountsRepository } from './repository.ts';

/** A context and the account row as it is after the context's changes. */
export interface OpenedResourceContext {
  ctx: ResourceContext;
  /** The stored row, read again after each {@link ResourceContext.update}. */
  row(): AccountRow;
}

export function createResourceContexts(deps: { accounts: AccountsRepository; adapters: AdapterRegistry }) {
  const repo = deps.accounts;

  /**
   * A context on `row` (already loaded and checked). `authorization`: failures are worded as an
   * authorization call's (see the header).
   */
  function contextFor(row: AccountRow, opts: { authorization?: boolean } = {}): OpenedResourceContext {
    const platform = row.platform as PlatformId;
    const label = PLATFORM_LABELS[platform];
    const wording: AuthorizationWording | undefined = opts.authorization
      ? { platform, refused: (msg) => `${label} refused the account's authorization (${msg}); reconnect the account` }
      : undefined;
    let current = row;
    const { account, ctx: adapterCtx } = adapterContextFor(repo, row);
    // The platform app, read when first needed (a platform without OAuth has none).
    let oauth: ReturnType<AdapterRegistry['oauth']> | undefined;
    const oauthOf = () => (oauth ??= deps.adapters.oauth(platform as OAuthPlatform));

    async function guard<T>(fn: () => Promise<T>): Promise<T> {
      try {
        return await fn();
      } catch (err) {
        if (needsReconnect(err, wording)) await repo.markNeedsReconnect(row.id, wording ? `${(err as Error).message}; reconnect the account` : (err as Error).message);
        throw apiErrorFrom(err, label, wording);
      }
    }

    const ctx: ResourceContext = {
      account: {
        id: row.id, profileId: row.profile_id, platformUserId: row.platform_user_id, username: row.username,
        isActive: row.is_active, settings: { ...(row.settings ?? {}) }, credentials: account.credentials,
      },
      get app() { return oauthOf().app; },
      call: (fn) => guard(() => {
        const { provider, app } = oauthOf();
        return withAccessToken(adapterCtx, account, provider, app, (token) => fn(token, app));
      }),
      guard,
      isTaken: (platformUserId) => repo.platformAccountTaken(row.profile_id, platform, platformUserId, row.id),
      async update(change) {
        if (change.dropSettings?.length) current = await repo.replaceSettings(row.id, change.dropSettings, change.moveTo ? {} : change.settings ?? {});
        if (change.moveTo) current = await repo.moveTo(row.id, { ...change.moveTo, settings: change.settings ?? {} });
        else if (change.settings && !change.dropSettings?.length) current = await repo.mergeSettings(row.id, change.settings);
      },
    };
    return { ctx, row: () => current };
  }

  return {
    contextFor,

    /**
     * Opens a context on the caller's account `accountId`, which must be a `platform` account.
     * @throws 404 NOT_FOUND for an account the caller cannot see; 400 naming `field` for another
     *   platform's account, or (unless `inactiveAllowed`) one that needs reconnecting; 400 naming
     *   the missing settings when the platform app is not configured (at the first platform call).
     */
    async open(auth: AuthContext, accountId: string | undefined, platform: PlatformId, opts: { field?: string; inactiveAllowed?: boolean; authorization?: boolean } = {}): Promise<OpenedResourceContext> {
      const field = opts.field ?? 'accountId';
      const label = PLATFORM_LABELS[platform];
      if (accountId === undefined) {
        // No account named (an operation whose account is optional): the caller's oldest connected account of the platform.
        const first = (await repo.listForTenant(auth.tenantId, null))
          .find((a) => a.platform === platform && a.is_active && canAccessProfile(auth, a.profile_id.trim()));
        if (!first) throw fieldError(field, `is required: you have no connected ${label} account to read ${label} with`);
        return contextFor(first, opts);
      }
      const row = await repo.accessible(auth, accountId);
      if (row.platform !== platform) throw fieldError(field, `is a ${row.platform} account, not a ${label} account`);
      if (!row.is_active && !opts.inactiveAllowed) throw fieldError(field, `the ${label} account @${row.username} needs to be reconnected (${row.inactive_reason ?? 'inactive'})`);
      return contextFor(row, opts);
    },
  };
}

export type ResourceContexts = ReturnType<typeof createResourceContexts>;
