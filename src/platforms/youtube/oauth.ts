/**
 * YouTube (Google OAuth 2.0, web-server flow;
 * https://developers.google.com/identity/protocols/oauth2/web-server):
 * - authorize at `<auth>/o/oauth2/v2/auth` with `access_type=offline` and `prompt=consent`,
 *   so that Google issues a refresh token on every consent (without `prompt=consent` a
 *   re-consent gets no refresh token; Herald keeps the stored one anyway);
 * - PKCE S256 is sent: Google accepts it for web clients (whether it is required there is
 *   UNCONFIRMED; it is harmless either way);
 * - tokens at `https://oauth2.googleapis.com/token` (client_secret_basic, which Google
 *   supports). With a non-default `HERALD_YOUTUBE_AUTH_URL` (a simulator or proxy) the token
 *   endpoint is `<auth>/token`;
 * - access tokens live about an hour; refresh tokens live until revoked (**but** 7 days when
 *   the app's consent screen is External and in Testing). `invalid_grant` on refresh means the
 *   account must reconnect (AdapterError disconnected);
 * - the account is the user's channel: `channels.list?part=snippet,contentDetails&mine=true`
 *   (channel id, title, handle, thumbnail). A Google account without a channel cannot connect.
 * Sources: https://developers.google.com/identity/protocols/oauth2/web-server,
 * https://developers.google.com/youtube/v3/docs/channels/list.
 */
import { authorizationServer, standardExchange, standardRefresh, type OAuthProvider, type PlatformApp } from '../oauth.ts';
import { AdapterError } from '../types.ts';
import { googleAuthorizeUrl } from '../google/google.ts';
import { googleJson } from './google.ts';
import { PLAIN_OAUTH, type ConnectShape } from '../connect-shape.ts';

export const YOUTUBE_DEFAULTS = { apiBaseUrl: 'https://www.googleapis.com', authBaseUrl: 'https://accounts.google.com' };
/** Upload, read (channel, verify), and comments (force-ssl is needed for commentThreads.insert). */
export const YOUTUBE_SCOPES = [
  'https://www.googleapis.com/auth/youtube.upload',
  'https://www.googleapis.com/auth/youtube.readonly',
  'https://www.googleapis.com/auth/youtube.force-ssl',
];

/** The token endpoint: Google's, or `<auth>/token` on a configured host. */
export function googleTokenEndpoint(app: PlatformApp): string {
  return app.authBaseUrl === YOUTUBE_DEFAULTS.authBaseUrl ? 'https://oauth2.googleapis.com/token' : `${app.authBaseUrl}/token`;
}

const as = (app: PlatformApp) => authorizationServer(app.authBaseUrl, googleTokenEndpoint(app), `${app.authBaseUrl}/o/oauth2/v2/auth`);

export interface YouTubeChannel {
  id: string;
  snippet?: { title?: string; customUrl?: string; thumbnails?: { default?: { url?: string } } };
  contentDetails?: { relatedPlaylists?: { uploads?: string } };
}

export const youtubeOAuth: OAuthProvider = {
  platform: 'youtube',
  usesPkce: true,
  scopes: YOUTUBE_SCOPES,
  authorizeUrl: (app, p) => googleAuthorizeUrl(app, YOUTUBE_SCOPES, p),
  exchangeCode: (app, p) => standardExchange(as(app), app, p),
  refresh: (app, tokens) => standardRefresh(as(app), app, tokens),
  /** @throws AdapterError rejected when the Google account has no YouTube channel. */
  async identify(app, tokens) {
    const { body } = await googleJson<{ items?: YouTubeChannel[] }>(app.apiBaseUrl, '/youtube/v3/channels', {
      token: tokens.accessToken, query: { part: 'snippet,contentDetails', mine: 'true' },
    });
    const ch = body.items?.[0];
    if (!ch) throw new AdapterError('rejected', 'This Google account has no YouTube channel; create one on youtube.com, then connect again');
    const title = ch.snippet?.title ?? ch.id;
    return {
      platformUserId: ch.id,
      username: ch.snippet?.customUrl?.replace(/^@/, '') || title,
      displayName: title,
      profilePicture: ch.snippet?.thumbnails?.default?.url,
      permissions: ['posts:write', 'posts:read'],
      settings: { channelTitle: title, ...(ch.contentDetails?.relatedPlaylists?.uploads ? { uploadsPlaylistId: ch.contentDetails.relatedPlaylists.uploads } : {}) },
    };
  },
};

/** How YouTube connects: plain OAuth 2.0 (the account is stored when the code is exchanged; decision 0051). */
export const youtubeConnect: ConnectShape = PLAIN_OAUTH;
