/**
 * Discord OAuth2 for adding Herald's bot to a server
 * (https://discord.com/developers/docs/topics/oauth2#advanced-bot-authorization): the authorize URL
 * asks for the `identify bot` scopes with `permissions` ({@link DISCORD_BOT_PERMISSIONS}),
 * `response_type=code` and Herald's `redirect_uri`, so the user picks a server and the bot joins
 * it; the code exchange (`POST /api/v10/oauth2/token`, client id and secret in the form) answers
 * the user's token and the `guild` the bot was added to ("Extended Bot Authorization Access Token
 * Example"), kept in `OAuthTokens.grant` for the channel choice (./connect.ts).
 *
 * Herald does not keep the user's token: it publishes as the bot (HERALD_DISCORD_BOT_TOKEN), so
 * nothing expires and there is no refresh. The user token serves once, to name who connected
 * (`GET /users/@me`, scope `identify`).
 */
import type { OAuthProvider, OAuthTokens } from '../oauth.ts';
import { AdapterError } from '../types.ts';
import { DISCORD_BOT_PERMISSIONS, discordCall } from './api.ts';

/** API host (the adapter adds /api/v10) and the authorize page host. */
export const DISCORD_DEFAULTS = { apiBaseUrl: 'https://discord.com', authBaseUrl: 'https://discord.com' };
/** `bot` adds the bot to the chosen server; `identify` reads who connected. */
export const DISCORD_SCOPES = ['identify', 'bot'];

interface TokenResponse { access_token: string; token_type?: string; expires_in?: number; refresh_token?: string; scope?: string; guild?: { id: string; name?: string; icon?: string | null } }

export const discordOAuth: OAuthProvider = {
  platform: 'discord',
  usesPkce: false,
  scopes: DISCORD_SCOPES,
  authorizeUrl(app, p) {
    const u = new URL(`${app.authBaseUrl}/oauth2/authorize`);
    u.search = new URLSearchParams({
      client_id: app.clientId, scope: DISCORD_SCOPES.join(' '), permissions: DISCORD_BOT_PERMISSIONS.toString(),
      response_type: 'code', redirect_uri: p.redirectUri, state: p.state, integration_type: '0',
    }).toString();
    return u.toString();
  },
  /** @throws AdapterError rejected (a refused code, invalid_grant) or transient. */
  async exchangeCode(app, p) {
    const form = new URLSearchParams({ grant_type: 'authorization_code', code: p.code, redirect_uri: p.redirectUri, client_id: app.clientId, client_secret: app.clientSecret });
    let res: Response;
    try {
      res = await fetch(`${app.apiBaseUrl.replace(/\/+$/, '')}/api/v10/oauth2/token`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: form, signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      throw new AdapterError('transient', `authorization code exchange failed: ${(err as Error).message}`);
    }
    const body = (await res.json().catch(() => ({}))) as TokenResponse & { error?: string; error_description?: string };
    if (!res.ok || !body.access_token) {
      throw new AdapterError(res.status >= 500 ? 'transient' : 'rejected', `authorization code exchange failed: ${body.error ?? `HTTP ${res.status}`}${body.error_description ? ` (${body.error_description})` : ''}`,
        { status: res.status, platformCode: body.error });
    }
    const tokens: OAuthTokens = {
      accessToken: body.access_token, refreshToken: body.refresh_token ?? null, scope: body.scope?.split(' ').filter(Boolean),
      expiresAt: typeof body.expires_in === 'number' ? new Date(Date.now() + body.expires_in * 1000).toISOString() : null,
      ...(body.guild ? { grant: { guild: body.guild } } : {}),
    };
    return tokens;
  },
  /** `GET /users/@me` with the user's token. */
  async identify(app, tokens) {
    const me = await discordCall<{ id: string; username: string; global_name?: string | null; avatar?: string | null }>(app, '/users/@me', { authorization: `Bearer ${tokens.accessToken}` });
    return {
      platformUserId: me.id, username: me.username, displayName: me.global_name ?? me.username,
      profilePicture: me.avatar ? `https://cdn.discordapp.com/avatars/${me.id}/${me.avatar}.png` : undefined,
      permissions: ['posts:write', 'posts:read'],
    };
  },
};
