/**
 * Connecting accounts with OAuth 2.0 (docs/decisions/0008-oauth-connect.md).
 *
 * 1. `start`: GET /v1/connect/{platform}?profileId&redirect_url creates a single-use state
 *    (row in oauth_states, 1 hour) and answers `{ authUrl, state }`. The `state` sent to
 *    the platform is `<id>.<HMAC-SHA256(id)>`, so a forged or altered state is refused
 *    before any database lookup. PKCE (S256) verifiers stay on the server, sealed.
 *    `redirect_url` must be on Herald's origin or a registered one ({@link createRedirectPolicy},
 *    docs/decisions/0046-connect-redirect-origins.md).
 * 2. The platform redirects the browser to GET /v1/connect/{platform}/callback?code&state
 *    (public: the state identifies the user), or an API caller posts the code to
 *    POST /v1/connect/{platform} `{ code, state, profileId }`.
 * 3. `complete` (`take` then `finish`): consumes the state once, exchanges the code, reads the
 *    user, and stores the account with sealed tokens, tokenExpiresAt and the granted permissions.
 *    A platform whose connect shape has a choose step (docs/decisions/0051-platform-connect-contract.md:
 *    a Facebook Page, a LinkedIn author) goes through the choice instead when its `begin` answers
 *    one: the step's payload is kept sealed under a tempToken (./selection.ts) and the result
 *    carries `selection { tempToken, step, list }`; the account is stored by the step's
 *    POST /v1/connect/{platform}/select-{noun} (./choose-service.ts).
 *
 * A platform whose connect shape is `instance-oauth` (decision 0055, Mastodon) is started with the
 * `instance` the user names: checked as a host name and, outside sandbox mode and unless
 * HERALD_ALLOW_PRIVATE_URLS, refused when it is or resolves to a private address (./instance.ts);
 * Herald's app on that instance is registered once through the shape and kept (`instance_apps`);
 * the flow's row keeps the instance's base URL, the finish uses that app and stores the base URL
 * in the account's credentials (`instanceUrl`). An `invalid_client` at the code exchange drops the
 * kept app, so connecting again registers a new one.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config, OAuthPlatform } from '../../config.ts';
import { fieldError } from '../../core/errors.ts';
import type { Db } from '../../storage/db.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import { pkcePair } from '../../platforms/oauth.ts';
import type { AuthContext } from '../auth/context.ts';
import { getAccessibleProfile } from '../profiles/service.ts';
import { toAccountView, type AccountsService, type StoredHook } from '../accounts/service.ts';
import { connectErrorFrom } from '../accounts/platform-errors.ts';
import type { SecretBox } from '../../core/crypto.ts';
import { AdapterError, type ChooseBegin, type ChooseStep, type InstanceOAuthShape, type PlatformApp } from '../../platforms/types.ts';
import type { OAuthProvider } from '../../platforms/oauth.ts';
import { checkInstanceAddress, createInstanceApps, instanceBaseUrl } from './instance.ts';
import type { SelectionStore } from './selection.ts';
import { createRedirectPolicy, redirectWith } from './redirect.ts';

/** How long a started connect flow stays valid. */
export const STATE_TTL_MS = 60 * 60 * 1000;

/** A started flow (a row of oauth_states). */
export interface StateRow {
  id: string;
  tenant_id: string;
  user_id: string;
  profile_id: string;
  platform: OAuthPlatform;
  redirect_uri: string;
  redirect_url: string | null;
  code_verifier: string | null;
  expires_at: Date;
  used_at: Date | null;
  platform_invite_id: string | null;
  /** The instance's base URL (connect shape instance-oauth), else null. */
  instance_url: string | null;
}

export { redirectWith } from './redirect.ts';

/**
 * What finishing a flow answers: the stored `account`, or the `selection` to finish with the
 * platform's choose step (its tempToken, the step, and the choices as the API answers them).
 * `redirectUrl`: the flow's allowed redirect_url; `inviteId`: the platform invite it was started from.
 */
export type FinishResult =
  | { account: ReturnType<typeof toAccountView>; selection: undefined; profileId: string; redirectUrl: string | null; inviteId: string | null }
  | { account?: undefined; selection: { tempToken: string; step: ChooseStep; list: unknown[] }; profileId: string; redirectUrl: string | null; inviteId: string | null };

export function createOAuthConnectService(deps: {
  db: Db; config: Config; adapters: AdapterRegistry; accounts: AccountsService; selections: SelectionStore; secrets: SecretBox; publicUrl: string; clock: () => Date;
  /** Platform invites: the hook that uses an invite up inside the transaction storing its account. */
  inviteUse?: (inviteId: string) => StoredHook;
}) {
  const { db, adapters, clock } = deps;
  const hmacKey = deps.secrets.subkey('herald:oauth-state');
  const sign = (id: string) => createHmac('sha256', hmacKey).update(id).digest('base64url');
  const { secrets } = deps;
  const { selections } = deps;
  const redirects = createRedirectPolicy(deps.publicUrl, deps.config.connectRedirectOrigins ?? []);
  const instanceApps = createInstanceApps(db, secrets);
  /**
   * The PKCE verifier is stored sealed, like every credential; rows written before it was
   * sealed hold it in plain text (a verifier never contains ':', so never starts with `v1:`).
   */
  const openVerifier = (stored: string | null): string | undefined => (stored === null ? undefined : stored.startsWith('v1:') ? secrets.open(stored) : stored);

  function verifyState(state: string): string {
    const [id, mac] = state.split('.');
    if (!id || !mac) throw fieldError('state', 'is not a state issued by this server');
    const expected = Buffer.from(sign(id));
    const got = Buffer.from(mac);
    if (expected.length !== got.length || !timingSafeEqual(expected, got)) throw fieldError('state', 'is not a state issued by this server');
    return id;
  }

  /** The redirect_uri registered with the platform app: Herald's callback for the platform. */
  const callbackUrl = (platform: string) => `${deps.publicUrl}/v1/connect/${platform}/callback`;

  /**
   * Uses the state up (once): the flow's row, or null when the state is well formed and signed
   * but already used, expired or gone. `expect` (API completion) must match its tenant and profile.
   * @throws 400 (field state) for a forged state, a state of another platform, or a foreign one.
   */
  async function take(platform: OAuthPlatform, state: string, expect?: { auth: AuthContext; profileId: string }): Promise<StateRow | null> {
    const id = verifyState(state);
    const { rows } = await db.query<StateRow>(
      `UPDATE oauth_states SET used_at = now() WHERE id = $1 AND used_at IS NULL AND expires_at > $2 RETURNING *`, [id, clock()]);
    const row = rows[0];
    if (!row) return null;
    if (row.platform !== platform) throw fieldError('state', `was issued for ${row.platform}, not ${platform}`);
    if (expect && (expect.auth.tenantId !== row.tenant_id || expect.profileId !== row.profile_id)) {
      throw fieldError('state', 'was issued for another user or profile');
    }
    return row;
  }

  /** The flow's redirect_url when it is still allowed (checked again at the callback), else null. */
  function redirectTarget(row: StateRow): string | null {
    return row.redirect_url && redirects.allows(row.redirect_url) ? row.redirect_url : null;
  }

  /** The provider and Herald's app on the flow's instance (instance-oauth). @throws 400 when the app is gone. */
  async function instanceOAuth(platform: OAuthPlatform, row: StateRow): Promise<{ provider: OAuthProvider; app: PlatformApp }> {
    const provider = adapters.oauthProvider(platform);
    const kept = row.instance_url ? await instanceApps.get(platform, row.instance_url, row.redirect_uri) : null;
    if (!provider || !kept || !row.instance_url) throw fieldError('state', 'belongs to a connection whose server app is gone; start the connection again');
    return { provider, app: { ...kept, apiBaseUrl: row.instance_url, authBaseUrl: row.instance_url } };
  }

  /**
   * The instance the caller named as a base URL (or the shape's fixed one in sandbox mode), and
   * Herald's app there (registered now when there is none).
   * @throws 400 naming `instance` (not a host name, a private address, registration refused); 502 when it cannot be reached.
   */
  async function instanceApp(platform: OAuthPlatform, shape: InstanceOAuthShape, instance: string | undefined, redirectUri: string): Promise<{ provider: OAuthProvider; app: PlatformApp }> {
    const provider = adapters.oauthProvider(platform);
    if (!provider) throw fieldError('instance', `${platform} cannot be connected on this server`);
    const allowPrivate = deps.config.allowPrivateUrls === true;
    const named = instanceBaseUrl(instance ?? '', { allowHttp: allowPrivate || !!shape.fixedInstanceUrl });
    let base = named;
    if (shape.fixedInstanceUrl) base = shape.fixedInstanceUrl.replace(/\/+$/, '');
    else await checkInstanceAddress(base, { allowPrivate });
    let kept = await instanceApps.get(platform, base, redirectUri);
    if (!kept) {
      try {
        kept = await shape.register(base, redirectUri);
      } catch (err) {
        // Unreachable or failing (5xx): 502; a refusal: 400 naming the field.
        if (!(err instanceof AdapterError) || err.kind === 'transient') throw connectErrorFrom(err, platform);
        throw fieldError('instance', `${new URL(base).host} did not register Herald's app: ${err.message}`);
      }
      await instanceApps.save(platform, base, redirectUri, kept);
    }
    return { provider, app: { ...kept, apiBaseUrl: base, authBaseUrl: base } };
  }

  /**
   * The rest of a flow whose state {@link take} used up: exchanges the code, reads the user, and
   * stores the account, or, when the platform's choose step has a choice to offer, seals its
   * payload under a tempToken and answers `selection { tempToken, step, list }` (the account is
   * stored when the choice is posted). `redirectUrl` is the allowed target only.
   * @throws 400 for a code the platform refuses; 502 when it cannot be reached.
   */
  async function finish(row: StateRow, code: string): Promise<FinishResult> {
    const platform = row.platform;
    const redirectUrl = redirectTarget(row);
    const shape = adapters.connectShape(platform);
    const { provider, app } = shape.kind === 'instance-oauth' ? await instanceOAuth(platform, row) : adapters.oauth(platform);
    const step = shape.kind === 'oauth' ? shape.choose : undefined;
    let tokens;
    let identity;
    let begun: ChooseBegin<unknown> | null = null;
    try {
      try {
        tokens = await provider.exchangeCode(app, { code, redirectUri: row.redirect_uri, codeVerifier: openVerifier(row.code_verifier) });
      } catch (err) {
        // The instance no longer knows Herald's app: forget it, so the next connect registers again.
        if (shape.kind === 'instance-oauth' && shape.unknownClient(err)) await instanceApps.drop(platform, app.apiBaseUrl, app.clientId);
        throw err;
      }
      identity = await provider.identify(app, tokens);
      if (step) begun = await step.begin(app, tokens, identity);
    } catch (err) {
      throw connectErrorFrom(err, platform);
    }
    if (step && begun) {
      const tempToken = await selections.create({ tenantId: row.tenant_id, userId: row.user_id, profileId: row.profile_id }, platform, begun.payload, redirectUrl, row.platform_invite_id);
      return { selection: { tempToken, step, list: begun.list }, profileId: row.profile_id, redirectUrl, inviteId: row.platform_invite_id };
    }
    // No caller here: the member's access to the profile was checked when the flow started.
    const account = await deps.accounts.upsertConnected({ tenantId: row.tenant_id }, row.profile_id, platform, {
      ...identity,
      credentials: { ...tokens, ...(shape.kind === 'instance-oauth' ? { instanceUrl: app.apiBaseUrl } : {}) },
      tokenExpiresAt: tokens.expiresAt ? new Date(tokens.expiresAt) : null,
      permissions: identity.permissions ?? ['posts:write', 'posts:read'],
    }, row.platform_invite_id && deps.inviteUse ? deps.inviteUse(row.platform_invite_id) : undefined);
    return { account: toAccountView(account), selection: undefined, profileId: row.profile_id, redirectUrl, inviteId: row.platform_invite_id };
  }

  return {
    callbackUrl,

    /**
     * Starts a flow. @throws 400 naming the missing HERALD_<PLATFORM>_* settings when the
     * platform app is not configured; 404 for a profile the caller cannot see.
     * `opts.inviteId`: the flow was started from that platform invite (finishing it uses the invite up).
     */
    async start(auth: AuthContext, platform: OAuthPlatform, profileId: string, redirectUrl?: string, opts: { inviteId?: string; instance?: string } = {}) {
      await getAccessibleProfile(db, auth, profileId);
      if (redirectUrl && !redirectWith(redirectUrl, {})) throw fieldError('redirect_url', 'must be an absolute http(s) URL');
      if (redirectUrl && !redirects.allows(redirectUrl)) throw fieldError('redirect_url', redirects.describe());
      const redirectUri = callbackUrl(platform);
      const shape = adapters.connectShape(platform);
      const { provider, app } = shape.kind === 'instance-oauth' ? await instanceApp(platform, shape, opts.instance, redirectUri) : adapters.oauth(platform);
      const id = randomBytes(18).toString('base64url');
      const pkce = provider.usesPkce ? await pkcePair() : null;
      await db.query(
        `INSERT INTO oauth_states (id, tenant_id, user_id, profile_id, platform, redirect_uri, redirect_url, code_verifier, expires_at, platform_invite_id, instance_url)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [id, auth.tenantId, auth.userId, profileId, platform, redirectUri, redirectUrl ?? null, pkce ? secrets.seal(pkce.verifier) : null, new Date(clock().getTime() + STATE_TTL_MS),
          opts.inviteId ?? null, shape.kind === 'instance-oauth' ? app.apiBaseUrl : null],
      );
      const state = `${id}.${sign(id)}`;
      return { authUrl: provider.authorizeUrl(app, { state, redirectUri, codeChallenge: pkce?.challenge }), state };
    },

    take,
    redirectTarget,
    finish,

    /**
     * Completes a flow: consumes the state (once), exchanges the code, stores the account.
     * `expect` (API completion) must match the state's tenant and profile.
     * @throws 400 for an unknown, used, expired or foreign state, or a code the platform refuses.
     */
    async complete(platform: OAuthPlatform, state: string, code: string, expect?: { auth: AuthContext; profileId: string }) {
      const row = await take(platform, state, expect);
      if (!row) throw fieldError('state', 'has expired or was already used; start the connection again');
      return finish(row, code);
    },

    /** Removes expired states. */
    async purge(): Promise<void> {
      await db.query(`DELETE FROM oauth_states WHERE expires_at < now() - interval '1 day'`);
      await selections.purge();
    },
  };
}

export type OAuthConnectService = ReturnType<typeof createOAuthConnectService>;
