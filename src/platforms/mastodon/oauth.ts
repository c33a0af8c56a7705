/**
 * Connecting a Mastodon account (https://docs.joinmastodon.org/client/token/): the instance the
 * user names, Herald's app registered there once (`POST /api/v1/apps`,
 * https://docs.joinmastodon.org/methods/apps/#create), then OAuth 2.0 authorization code with
 * PKCE S256 (`GET /oauth/authorize`, `POST /oauth/token`, https://docs.joinmastodon.org/methods/oauth/).
 * Tokens have no refresh token and do not expire (https://docs.joinmastodon.org/api/oauth-tokens/):
 * a revoked token means reconnecting. `identify` reads the account
 * (`GET /api/v1/accounts/verify_credentials`) and the instance's limits (`GET /api/v2/instance`),
 * which are kept in the account's settings (`mastodonInstance`) for the rule table.
 */
import type { OAuthProvider, OAuthTokens, PlatformApp } from '../oauth.ts';
import type { InstanceOAuthShape } from '../connect-shape.ts';
import { AdapterError } from '../types.ts';
import type { MastodonInstanceLimits } from '../../shared/capabilities.ts';
import { MASTODON_INSTANCE_SETTING } from '../../shared/rules/mastodon.ts';
import { INSTANCE_PLATFORMS } from '../../shared/platforms.ts';
import { mastodonJson } from './http.ts';

/**
 * write:statuses and write:media to publish and delete, read:statuses to read the account's
 * statuses back (verify, metrics, private posts included), read:accounts for verify_credentials
 * (`profile` exists only from 4.3; https://docs.joinmastodon.org/api/oauth-scopes/).
 */
export const MASTODON_SCOPES = ['read:accounts', 'read:statuses', 'write:statuses', 'write:media'];
/** The app's name on the instance (shown as the status's `application.name`). */
export const MASTODON_CLIENT_NAME = 'Herald';

/** GET /api/v2/instance as far as Herald reads it (https://docs.joinmastodon.org/entities/Instance/). */
interface InstanceV2 {
  domain?: string;
  configuration?: {
    statuses?: { max_characters?: number; max_media_attachments?: number; characters_reserved_per_url?: number };
    media_attachments?: {
      supported_mime_types?: string[]; description_limit?: number; image_size_limit?: number; image_matrix_limit?: number; video_size_limit?: number;
    };
    polls?: { max_options?: number; max_characters_per_option?: number; min_expiration?: number; max_expiration?: number };
  };
}

/** What the account's settings keep of its instance: its limits, domain and when they were read. */
export type StoredInstance = Partial<MastodonInstanceLimits> & { domain?: string; readAt: string };

/**
 * Reads the instance's limits (`GET /api/v2/instance`, public). Fields the instance does not state
 * are left out (mastodon.social's values apply to them).
 * @throws AdapterError when the instance cannot be read.
 */
export async function readInstanceLimits(instanceUrl: string): Promise<StoredInstance> {
  const { body } = await mastodonJson<InstanceV2>(instanceUrl, '/api/v2/instance');
  const c = body.configuration ?? {};
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
  const out: StoredInstance = {
    ...(body.domain ? { domain: body.domain } : {}), readAt: new Date().toISOString(),
    maxCharacters: num(c.statuses?.max_characters), charactersReservedPerUrl: num(c.statuses?.characters_reserved_per_url),
    maxMediaAttachments: num(c.statuses?.max_media_attachments),
    supportedMimeTypes: Array.isArray(c.media_attachments?.supported_mime_types) ? c.media_attachments.supported_mime_types.filter((x) => typeof x === 'string') : undefined,
    imageSizeLimit: num(c.media_attachments?.image_size_limit), imageMatrixLimit: num(c.media_attachments?.image_matrix_limit),
    videoSizeLimit: num(c.media_attachments?.video_size_limit), descriptionLimit: num(c.media_attachments?.description_limit),
    pollMaxOptions: num(c.polls?.max_options), pollMaxCharactersPerOption: num(c.polls?.max_characters_per_option),
    pollMinExpiration: num(c.polls?.min_expiration), pollMaxExpiration: num(c.polls?.max_expiration),
  };
  for (const k of Object.keys(out) as Array<keyof StoredInstance>) if (out[k] === undefined) delete out[k];
  return out;
}

/** The OAuth provider; `app` is Herald's app on the account's instance (`apiBaseUrl` = `authBaseUrl` = the instance). */
export const mastodonOAuth: OAuthProvider = {
  platform: 'mastodon',
  usesPkce: true,
  scopes: MASTODON_SCOPES,
  authorizeUrl(app, p) {
    const u = new URL(`${app.authBaseUrl}/oauth/authorize`);
    u.search = new URLSearchParams({
      response_type: 'code', client_id: app.clientId, redirect_uri: p.redirectUri, scope: MASTODON_SCOPES.join(' '), state: p.state,
      ...(p.codeChallenge ? { code_challenge: p.codeChallenge, code_challenge_method: 'S256' } : {}),
      // A second account of the same instance needs the login form, not the session's account.
      force_login: 'true',
    }).toString();
    return u.toString();
  },
  async exchangeCode(app, p): Promise<OAuthTokens> {
    try {
      const { body } = await mastodonJson<{ access_token: string; scope?: string }>(app.apiBaseUrl, '/oauth/token', {
        method: 'POST', form: {
          grant_type: 'authorization_code', code: p.code, client_id: app.clientId, client_secret: app.clientSecret, redirect_uri: p.redirectUri,
          ...(p.codeVerifier ? { code_verifier: p.codeVerifier } : {}),
        },
      });
      if (!body.access_token) throw new AdapterError('rejected', 'The instance answered no access_token');
      return { accessToken: body.access_token, refreshToken: null, expiresAt: null, scope: (body.scope ?? MASTODON_SCOPES.join(' ')).split(/\s+/).filter(Boolean) };
    } catch (err) {
      if (err instanceof AdapterError && err.kind === 'rejected') throw new AdapterError('rejected', `authorization code exchange failed: ${err.message}`, err.opts);
      throw err;
    }
  },
  async identify(app: PlatformApp, tokens: OAuthTokens) {
    const { body: me } = await mastodonJson<{ id: string; username: string; acct?: string; display_name?: string; avatar?: string }>(
      app.apiBaseUrl, '/api/v1/accounts/verify_credentials', { token: tokens.accessToken });
    const instance = await readInstanceLimits(app.apiBaseUrl);
    const domain = instance.domain ?? new URL(app.apiBaseUrl).host;
    return {
      platformUserId: me.id,
      // The full handle: the same username exists on many instances.
      username: `${me.username}@${domain}`,
      displayName: me.display_name || me.username,
      ...(me.avatar ? { profilePicture: me.avatar } : {}),
      settings: { [MASTODON_INSTANCE_SETTING]: instance },
    };
  },
};

/** The instance-oauth connect shape (decision 0055). */
export const mastodonConnect: InstanceOAuthShape = {
  kind: 'instance-oauth',
  instance: { ...INSTANCE_PLATFORMS.mastodon!, autocomplete: 'url' },
  instanceDescription: 'The Mastodon server (instance) to connect, as a host name: `mastodon.social`, or a self-hosted domain. Required for Mastodon.',
  async register(instanceUrl, redirectUri) {
    const { body } = await mastodonJson<{ client_id?: string; client_secret?: string }>(instanceUrl, '/api/v1/apps', {
      method: 'POST', json: { client_name: MASTODON_CLIENT_NAME, redirect_uris: [redirectUri], scopes: MASTODON_SCOPES.join(' ') },
    });
    if (!body.client_id || !body.client_secret) throw new AdapterError('rejected', 'The Mastodon server did not register the app (no client_id or client_secret)');
    return { clientId: body.client_id, clientSecret: body.client_secret };
  },
  unknownClient: (err) => err instanceof AdapterError && err.opts.platformCode === 'invalid_client',
};
