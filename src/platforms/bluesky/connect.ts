/**
 * Connecting a Bluesky account with an app password: login, refusal of the main account
 * password, and the profile (display name, avatar) read for the account list.
 */
import { AdapterError, type AppPasswordShape, type ConnectedAccount } from '../types.ts';
import type { BlobRefJson } from './records.ts';
import { type HttpOptions, jwtClaims, jwtExpiry, loginWithAppPassword } from './session.ts';
import { type FetchFn, xrpc } from './xrpc.ts';

/** Default service (entryway) for app-password logins. */
export const DEFAULT_BLUESKY_SERVICE = 'https://bsky.social';

/** Options for {@link connectBluesky}. */
export interface ConnectBlueskyOptions {
  fetch?: FetchFn;
  /** Per-request timeout in ms (default 30,000). */
  timeoutMs?: number;
}

/**
 * Connects a Bluesky account with an app password.
 *
 * Calls `com.atproto.server.createSession` at `serviceUrl` (`https://bsky.social` for bsky.social
 * accounts, or a self-hosted PDS), takes the account's PDS from the session's didDoc, and reads the
 * profile with `app.bsky.actor.getProfile` (falling back to the `app.bsky.actor.profile/self` record,
 * then to the handle, since a PDS without an AppView cannot serve it).
 *
 * @param serviceUrl http(s) base URL of the entryway/PDS.
 * @param identifier handle (a leading `@` is ignored), email or DID.
 * @param appPassword an app password (`xxxx-xxxx-xxxx-xxxx`). The account's main password is refused.
 * @returns platformUserId = DID, username = handle, credentials = {@link BlueskyCredentials},
 *   tokenExpiresAt = refresh JWT expiry (or null), settings `{ pdsUrl, did, serviceUrl }`.
 * @throws AdapterError('disconnected') wrong identifier/password, main password, 2FA, takedown;
 *   'rejected' invalid service URL; 'rate_limited'; 'transient' (service unreachable).
 */
export async function connectBluesky(serviceUrl: string, identifier: string, appPassword: string, opts: ConnectBlueskyOptions = {}): Promise<ConnectedAccount> {
  const http: HttpOptions = {
    fetch: opts.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs: opts.timeoutMs ?? 30_000,
    now: Date.now,
  };
  let service: string;
  try {
    const u = new URL((serviceUrl || DEFAULT_BLUESKY_SERVICE).trim());
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('not http(s)');
    service = u.origin;
  } catch {
    throw new AdapterError('rejected', `Invalid Bluesky service URL: ${serviceUrl}`);
  }
  const id = (identifier ?? '').trim().replace(/^@/, '');
  const password = (appPassword ?? '').trim();
  if (!id || !password) throw new AdapterError('disconnected', 'A Bluesky handle (or email/DID) and an app password are required');

  const creds = await loginWithAppPassword(http, { identifier: id, appPassword: password, serviceUrl: service }, 'connect');
  if (jwtClaims(creds.accessJwt)?.scope === 'com.atproto.access') {
    // Full-access session: the user typed the account password. Don't store it; end that session.
    await xrpc(http.fetch, service, 'com.atproto.server.deleteSession', { method: 'POST', token: creds.refreshJwt, timeoutMs: http.timeoutMs }).catch(() => undefined);
    throw new AdapterError(
      'disconnected',
      'That is the Bluesky account password; create an app password instead (Bluesky settings → Privacy and security → App passwords)',
      { platformCode: 'MainPasswordRefused' },
    );
  }

  let displayName: string | undefined;
  let profilePicture: string | undefined;
  try {
    const p = await xrpc<{ displayName?: string; avatar?: string }>(http.fetch, creds.pdsUrl, 'app.bsky.actor.getProfile', {
      query: { actor: creds.did },
      token: creds.accessJwt,
      timeoutMs: Math.min(http.timeoutMs, 10_000),
    });
    displayName = p.displayName || undefined;
    profilePicture = p.avatar || undefined;
  } catch {
    try {
      const r = await xrpc<{ value?: { displayName?: string; avatar?: BlobRefJson } }>(http.fetch, creds.pdsUrl, 'com.atproto.repo.getRecord', {
        query: { repo: creds.did, collection: 'app.bsky.actor.profile', rkey: 'self' },
        timeoutMs: Math.min(http.timeoutMs, 10_000),
      });
      displayName = r.value?.displayName || undefined;
      const cid = r.value?.avatar?.ref?.$link;
      if (cid) profilePicture = `${creds.pdsUrl}/xrpc/com.atproto.sync.getBlob?did=${encodeURIComponent(creds.did)}&cid=${encodeURIComponent(cid)}`;
    } catch {
      /* no profile record: fall back to the handle */
    }
  }

  return {
    platformUserId: creds.did,
    username: creds.handle,
    displayName: displayName ?? creds.handle,
    ...(profilePicture ? { profilePicture } : {}),
    credentials: { ...creds },
    tokenExpiresAt: jwtExpiry(creds.refreshJwt),
    settings: { pdsUrl: creds.pdsUrl, did: creds.did, serviceUrl: service },
    permissions: ['posts:write', 'posts:read'],
  };
}

/**
 * Bluesky's connect shape: an identifier and an app password, logged in at `serviceUrl` (the
 * configured entryway or PDS) with {@link connectBluesky}. App passwords:
 * https://bsky.app/settings/app-passwords (Bluesky settings → Privacy and security → App passwords).
 */
export function blueskyConnectShape(serviceUrl: string): AppPasswordShape {
  return {
    kind: 'app-password',
    api: {
      summary: 'Connect a Bluesky account with an app password',
      description: 'Logs in to the account\'s PDS with the app password (never the main password) and stores the session encrypted.',
      identifier: 'Handle (alice.bsky.social), email or DID',
      secret: 'App password, xxxx-xxxx-xxxx-xxxx',
    },
    form: {
      identifier: { label: 'Bluesky handle or email', placeholder: 'you.bsky.social', autocomplete: 'username' },
      secret: { label: 'App password', hint: '(Bluesky settings → App passwords; never your main password)', placeholder: 'xxxx-xxxx-xxxx-xxxx', autocomplete: 'off' },
      missing: 'Enter your Bluesky handle and an app password.',
      refused: 'Bluesky did not accept this handle and app password. Check them and try again.',
    },
    refusedField: 'was not accepted by the Bluesky server for this identifier; create an app password in Bluesky settings',
    login: (identifier, secret) => connectBluesky(serviceUrl, identifier, secret),
  };
}
