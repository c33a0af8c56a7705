/**
 * Bluesky app-password sessions: login, reuse, refresh.
 *
 * Sources: https://docs.bsky.app/docs/get-started (sessions), lexicons
 * `com.atproto.server.createSession` / `refreshSession`, and
 * https://docs.bsky.app/docs/advanced-guides/rate-limits (createSession: 30 per 5 min, 300 per day
 * per account, so sessions MUST be reused).
 *
 * Rules implemented here:
 * - Session calls (createSession, refreshSession) go to the service URL the account was connected
 *   with (`https://bsky.social`, the entryway, by default); all other calls go to the account's own
 *   PDS, read from the session's `didDoc` (`#atproto_pds` service endpoint).
 * - The access JWT is reused until its `exp` claim is within 60 s, or the server answers
 *   `ExpiredToken`/`InvalidToken`; then `refreshSession` (Bearer refresh JWT) is called. Only if the
 *   refresh fails with an auth error, the adapter logs in again with the app password.
 * - After every refresh or login `ctx.saveCredentials(newCredentials, refreshJwtExpiry)` is called.
 */
import { AdapterError, type AccountContext, type AdapterContext } from '../types.ts';
import { type FetchFn, type XrpcRequest, XrpcRequestError, isTokenError, toAdapterError, xrpc } from './xrpc.ts';

/**
 * The decrypted credentials of a Bluesky account, as stored (encrypted) by Herald.
 * - `identifier`: what the user typed at connect (handle, email or DID).
 * - `appPassword`: the app password (`xxxx-xxxx-xxxx-xxxx`), used only when the refresh JWT fails.
 * - `did`, `handle`: the account.
 * - `pdsUrl`: the account's PDS (from the didDoc), base URL for repo calls.
 * - `accessJwt` (short-lived, ~2 h on bsky PDSes) and `refreshJwt` (~90 days; rotated on use).
 * - `serviceUrl`: where sessions are created/refreshed (the entryway, e.g. `https://bsky.social`).
 *   Optional for compatibility; when absent `pdsUrl` is used.
 */
export interface BlueskyCredentials {
  identifier: string;
  appPassword: string;
  did: string;
  handle: string;
  pdsUrl: string;
  accessJwt: string;
  refreshJwt: string;
  serviceUrl?: string;
}

/** `com.atproto.server.createSession` / `refreshSession` output (the fields Herald uses). */
export interface SessionOutput {
  accessJwt: string;
  refreshJwt: string;
  did: string;
  handle: string;
  didDoc?: unknown;
  active?: boolean;
  status?: string;
}

/** Claims of a session JWT (decoded without verifying the signature; only used for timing). */
export interface JwtClaims {
  exp?: number;
  iat?: number;
  scope?: string;
  sub?: string;
}

/** Decodes a JWT's payload; `null` when it is not a well-formed JWT. */
export function jwtClaims(token: string | undefined): JwtClaims | null {
  if (typeof token !== 'string') return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as unknown;
    return claims && typeof claims === 'object' ? (claims as JwtClaims) : null;
  } catch {
    return null;
  }
}

/** The JWT's `exp` as a Date; `null` when absent or unreadable. */
export function jwtExpiry(token: string | undefined): Date | null {
  const exp = jwtClaims(token)?.exp;
  return typeof exp === 'number' && Number.isFinite(exp) ? new Date(exp * 1000) : null;
}

/** The `#atproto_pds` service endpoint of a DID document, if any (http/https only). */
export function pdsFromDidDoc(didDoc: unknown): string | null {
  const services = (didDoc as { service?: unknown } | null | undefined)?.service;
  if (!Array.isArray(services)) return null;
  for (const s of services as Array<{ id?: unknown; type?: unknown; serviceEndpoint?: unknown }>) {
    const id = typeof s?.id === 'string' ? s.id : '';
    if ((id === '#atproto_pds' || id.endsWith('#atproto_pds')) && typeof s.serviceEndpoint === 'string') {
      try {
        const u = new URL(s.serviceEndpoint);
        if (u.protocol === 'https:' || u.protocol === 'http:') return u.origin;
      } catch {
        /* ignore malformed endpoint */
      }
    }
  }
  return null;
}

/** Builds stored credentials from a session answer; the PDS comes from the didDoc, else stays as before. */
export function credentialsFromSession(
  base: { identifier: string; appPassword: string; serviceUrl: string; pdsUrl?: string },
  s: SessionOutput,
): BlueskyCredentials {
  return {
    identifier: base.identifier,
    appPassword: base.appPassword,
    did: s.did,
    handle: s.handle,
    pdsUrl: pdsFromDidDoc(s.didDoc) ?? base.pdsUrl ?? base.serviceUrl,
    accessJwt: s.accessJwt,
    refreshJwt: s.refreshJwt,
    serviceUrl: base.serviceUrl,
  };
}

/**
 * Checks the stored credentials' shape.
 * @throws AdapterError('disconnected') when fields needed to publish are missing.
 */
export function parseCredentials(raw: unknown): BlueskyCredentials {
  const c = (raw ?? {}) as Partial<Record<keyof BlueskyCredentials, unknown>>;
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);
  const did = str(c.did);
  const pdsUrl = str(c.pdsUrl) ?? str(c.serviceUrl);
  const identifier = str(c.identifier) ?? did;
  if (!did || !pdsUrl || !identifier) {
    throw new AdapterError('disconnected', 'Stored Bluesky credentials are incomplete; reconnect the account');
  }
  return {
    identifier,
    appPassword: str(c.appPassword) ?? '',
    did,
    handle: str(c.handle) ?? did,
    pdsUrl,
    accessJwt: str(c.accessJwt) ?? '',
    refreshJwt: str(c.refreshJwt) ?? '',
    serviceUrl: str(c.serviceUrl),
  };
}

/** Options shared by the session code and the adapter. */
export interface HttpOptions {
  fetch: FetchFn;
  /** Per-request timeout (ms). */
  timeoutMs: number;
  /** Clock (ms since epoch); injectable for tests. */
  now: () => number;
}

/** Refresh the access JWT when it expires within this margin (ms). */
const EXPIRY_MARGIN_MS = 60_000;

/** Whether `creds`' access JWT is missing, unreadable, or expires within EXPIRY_MARGIN_MS of `now` (ms since the epoch). */
function accessExpiredAt(creds: BlueskyCredentials, now: number): boolean {
  const exp = jwtExpiry(creds.accessJwt);
  return !exp || exp.getTime() - EXPIRY_MARGIN_MS <= now;
}

/**
 * Per-adapter session cache. Keeps, per DID, the newest credentials this process obtained, so a
 * caller that passes credentials made stale by a refresh in an earlier phase (prepare → commit)
 * still uses the rotated session instead of logging in again; and serialises concurrent refreshes
 * of one account.
 */
export class SessionStore {
  private readonly latest = new Map<string, BlueskyCredentials>();
  private readonly inflight = new Map<string, Promise<BlueskyCredentials>>();

  constructor(readonly http: HttpOptions) {}

  /** A session for one adapter call. @throws AdapterError('disconnected') for unusable credentials. */
  open(ctx: AdapterContext, account: AccountContext<BlueskyCredentials>): BlueskySession {
    const given = parseCredentials(account.credentials);
    return new BlueskySession(this, ctx, this.freshest(given));
  }

  /**
   * Whether a call for this account would first renew its session (its newest access JWT known here is
   * missing, unreadable or about to expire), without making any request. Unreadable credentials: true.
   */
  needsRenewal(account: AccountContext<BlueskyCredentials>): boolean {
    try {
      return accessExpiredAt(this.freshest(parseCredentials(account.credentials)), this.http.now());
    } catch {
      return true;
    }
  }

  /** The given credentials, or the cached ones when they are a newer session of the same login. */
  freshest(given: BlueskyCredentials): BlueskyCredentials {
    const cached = this.latest.get(given.did);
    if (!cached || cached.appPassword !== given.appPassword || cached.accessJwt === given.accessJwt) return given;
    const iat = (c: BlueskyCredentials) => jwtClaims(c.accessJwt)?.iat ?? 0;
    return iat(cached) > iat(given) ? { ...cached, identifier: given.identifier } : given;
  }

  remember(c: BlueskyCredentials): void {
    this.latest.set(c.did, c);
    if (this.latest.size > 10_000) this.latest.delete(this.latest.keys().next().value as string);
  }

  /** Refresh (or re-login) once per DID at a time; concurrent callers share the result. */
  renew(ctx: AdapterContext, current: BlueskyCredentials): Promise<BlueskyCredentials> {
    const running = this.inflight.get(current.did);
    if (running) return running;
    const p = this.doRenew(ctx, current).finally(() => this.inflight.delete(current.did));
    this.inflight.set(current.did, p);
    return p;
  }

  private async doRenew(ctx: AdapterContext, cur: BlueskyCredentials): Promise<BlueskyCredentials> {
    const serviceUrl = cur.serviceUrl ?? cur.pdsUrl;
    const base = { identifier: cur.identifier, appPassword: cur.appPassword, serviceUrl, pdsUrl: cur.pdsUrl };
    let next: BlueskyCredentials | undefined;
    let via: 'refresh' | 'login' = 'refresh';
    const refreshExp = jwtExpiry(cur.refreshJwt);
    if (cur.refreshJwt && (!refreshExp || refreshExp.getTime() > this.http.now())) {
      try {
        const s = await xrpc<SessionOutput>(this.http.fetch, serviceUrl, 'com.atproto.server.refreshSession', {
          method: 'POST',
          token: cur.refreshJwt,
          timeoutMs: this.http.timeoutMs,
        });
        next = credentialsFromSession(base, s);
      } catch (e) {
        // Network trouble, 5xx or rate limits: logging in would not help (and costs createSession quota).
        if (!(e instanceof XrpcRequestError) || e.status === 0 || e.status >= 500 || e.status === 429) throw toAdapterError(e, this.http.now());
        if (e.error === 'AccountTakedown' || e.error === 'AccountDeactivated') throw toAdapterError(e, this.http.now());
        ctx.log('bluesky: refresh failed, logging in with the app password', { did: cur.did, error: e.error });
      }
    }
    if (!next) {
      via = 'login';
      next = await loginWithAppPassword(this.http, base, 'publish');
    }
    this.remember(next);
    try {
      await ctx.saveCredentials({ ...next }, jwtExpiry(next.refreshJwt));
    } catch (e) {
      // The new session works; failing the publish over persistence would be worse than a later re-login.
      ctx.log('bluesky: saveCredentials failed', { did: next.did, error: (e as Error)?.message });
    }
    ctx.log(`bluesky: session ${via === 'refresh' ? 'refreshed' : 'recreated with the app password'}`, { did: next.did, via });
    return next;
  }
}

/**
 * `com.atproto.server.createSession` with the app password (the DID as identifier when known, so a
 * handle change does not break it).
 * @param phase 'connect' (user typing a password) or 'publish' (stored password) for the messages.
 * @throws AdapterError('disconnected') wrong password / 2FA / takedown; 'rate_limited'; 'transient'.
 */
export async function loginWithAppPassword(
  http: HttpOptions,
  base: { identifier: string; appPassword: string; serviceUrl: string; pdsUrl?: string; did?: string },
  phase: 'connect' | 'publish',
): Promise<BlueskyCredentials> {
  const identifier = phase === 'publish' && base.did ? base.did : base.identifier;
  if (!base.appPassword) {
    throw new AdapterError('disconnected', 'No Bluesky app password is stored for this account; reconnect the account');
  }
  try {
    const s = await xrpc<SessionOutput>(http.fetch, base.serviceUrl, 'com.atproto.server.createSession', {
      json: { identifier, password: base.appPassword },
      timeoutMs: http.timeoutMs,
    });
    return credentialsFromSession(base, s);
  } catch (e) {
    if (!(e instanceof XrpcRequestError)) throw toAdapterError(e, http.now());
    const opts = { platformCode: e.error, status: e.status || undefined };
    if (e.error === 'AuthFactorTokenRequired') {
      throw new AdapterError('disconnected', 'Bluesky asks for an email sign-in code for this login; use an app password (Bluesky settings → Privacy and security → App passwords)', opts);
    }
    if (e.error === 'AccountTakedown' || e.error === 'AccountDeactivated' || e.error === 'AccountSuspended') {
      throw new AdapterError('disconnected', `Bluesky refused the login: ${e.message} (${e.error})`, opts);
    }
    if (e.status === 401 || e.error === 'AuthenticationRequired' || (e.status === 400 && e.error === 'InvalidRequest')) {
      throw new AdapterError(
        'disconnected',
        phase === 'connect'
          ? `Bluesky rejected the identifier or app password for "${base.identifier}" (${e.message})`
          : 'Bluesky rejected the app password; reconnect the account',
        opts,
      );
    }
    throw toAdapterError(e, http.now());
  }
}

/**
 * One adapter call's view of an account session: authenticated XRPC calls against the account's
 * PDS, refreshing the session proactively (JWT `exp`) and reactively (token errors, once).
 */
export class BlueskySession {
  constructor(
    private readonly store: SessionStore,
    private readonly ctx: AdapterContext,
    public creds: BlueskyCredentials,
  ) {}

  /** True when the access JWT is missing, unreadable, or expires within 60 s. */
  accessExpired(): boolean {
    return accessExpiredAt(this.creds, this.store.http.now());
  }

  /** Makes sure the access JWT is usable, refreshing (or logging in) when needed. */
  async ensureFresh(): Promise<void> {
    if (this.accessExpired()) await this.renew();
  }

  private async renew(): Promise<void> {
    this.creds = await this.store.renew(this.ctx, this.creds);
  }

  /**
   * Authenticated call to `{pdsUrl}/xrpc/{nsid}`. On `ExpiredToken`/`InvalidToken`/401 the session
   * is renewed and the call retried once.
   * @throws AdapterError (see {@link toAdapterError}); after the retry an expired token is
   *   `auth_expired`, any other token error `disconnected`.
   */
  async call<T>(nsid: string, req: Omit<XrpcRequest, 'token'> = {}): Promise<T> {
    await this.ensureFresh();
    const http = this.store.http;
    const send = () => xrpc<T>(http.fetch, this.creds.pdsUrl, nsid, { timeoutMs: http.timeoutMs, ...req, token: this.creds.accessJwt });
    try {
      return await send();
    } catch (e) {
      if (!isTokenError(e)) throw toAdapterError(e, http.now());
      this.ctx.log('bluesky: token refused, renewing the session', { did: this.creds.did, nsid, error: e.error });
    }
    await this.renew();
    try {
      return await send();
    } catch (e) {
      if (isTokenError(e) && e.error === 'ExpiredToken') {
        throw new AdapterError('auth_expired', `Bluesky still reports the session as expired after a refresh (${e.message})`, { platformCode: e.error, status: e.status });
      }
      throw toAdapterError(e, http.now());
    }
  }
}
