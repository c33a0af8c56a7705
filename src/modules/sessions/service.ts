/**
 * Dashboard sessions (docs/decisions/0010-dashboard-sessions.md): sign-in with email and password, a random token in an
 * httpOnly SameSite=Strict cookie, the session row in PostgreSQL (only the token's
 * SHA-256 is stored), and a per-session CSRF token that every state-changing request
 * made with the cookie must echo in `X-CSRF-Token`.
 *
 * A session authenticates /v1 exactly like an API key with every permission: the
 * dashboard uses the public API only. Team-member scoping and root-only rules still
 * apply because they are checked on the {@link AuthContext}, not on the key.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { hashPassword, verifyPassword } from '../../core/password.ts';
import type { PlanId } from '../../shared/plans.ts';
import type { BillingPeriod } from '../../core/time.ts';
import type { Db, Queryable } from '../../storage/db.ts';
import { forgetAttempts, recordAttempt } from '../../storage/rate-limit-counters.ts';
import type { AuthContext } from '../auth/context.ts';
import { recordLogin, setPasswordHash } from '../users/repository.ts';
import { ALL_PERMISSIONS } from '../../shared/permissions.ts';

/** Idle lifetime: a session unused this long expires. */
export const SESSION_IDLE_MS = 7 * 86_400_000;
/** Absolute lifetime: sign in again after this, however active. */
export const SESSION_ABSOLUTE_MS = 30 * 86_400_000;
/** Failed sign-ins allowed per email (and per known browser) in any {@link LOGIN_WINDOW_MS}. */
export const LOGIN_MAX_FAILURES = 10;
/** Failed sign-ins allowed per client address (several people may share one) in any {@link LOGIN_WINDOW_MS}. */
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 100;
/** The sliding window of the sign-in limits: failures count for this long after they happened. */
export const LOGIN_WINDOW_MS = 15 * 60_000;
/** A browser a user signed in from stays known this long after its last sign-in. */
export const KNOWN_BROWSER_TTL_MS = 180 * 86_400_000;
/** Known browsers kept per user (the ones signed in from least recently go first). */
const KNOWN_BROWSERS_PER_USER = 20;

export interface SessionUser {
  _id: string;
  email: string;
  name: string;
  isRoot: boolean;
  role: string;
  /** `profiles`: a team member who sees only some profiles (and may not create one). */
  profileAccess: 'all' | 'profiles';
}

export interface SessionInfo {
  sessionId: string;
  csrfToken: string;
  expiresAt: Date;
  user: SessionUser;
}

interface SessionRow {
  id: string;
  csrf_token: string;
  expires_at: Date;
  absolute_expires_at: Date;
  revoked_at: Date | null;
  last_seen_at: Date;
  user_id: string;
  email: string;
  name: string | null;
  role: string;
  tenant_id: string;
  is_root: boolean;
  profile_access: 'all' | 'profiles';
  profile_ids: string[];
  plan: PlanId;
  billing_period: BillingPeriod;
  billing_anchor: Date;
}

/** The user columns a session needs. */
interface UserRow {
  id: string;
  tenant_id: string;
  email: string;
  name: string | null;
  role: string;
  is_root: boolean;
  profile_access: 'all' | 'profiles';
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Constant-time string comparison (false on different lengths). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A known-browser cookie value as Herald sets it (32 random bytes, base64url). */
const BROWSER_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const invalidCredentials = () => new AppError('UNAUTHORIZED', 'Invalid email or password', { reason: 'invalid_credentials' });
const sessionExpired = () => new AppError('UNAUTHORIZED', 'Unauthorized', { reason: 'Your session has expired or was signed out; sign in again' });

/** A scrypt hash of a random password: verified against when the email is unknown, so timing does not tell. */
let dummyHash: Promise<string> | null = null;

export function createSessionsService(db: Db, clock: () => Date = () => new Date()) {
  /** The stored hash of `token` when it is a browser the user with this email signed in from and it has not expired; else null. */
  async function knownBrowser(email: string, token: string | undefined, now: Date): Promise<Buffer | null> {
    if (!token || !BROWSER_TOKEN.test(token)) return null;
    const { rows } = await db.query<{ token_hash: Buffer }>(
      `SELECT b.token_hash FROM known_browsers b JOIN users u ON u.id = b.user_id
        WHERE b.token_hash = $1 AND lower(u.email) = $2 AND b.expires_at > $3`, [sha256(token), email, now]);
    return rows[0]?.token_hash ?? null;
  }

  const service = {
    /**
     * Checks email and password and opens a session.
     *
     * Throttling (docs/decisions/0010-dashboard-sessions.md): failed sign-ins are counted in a
     * sliding window of {@link LOGIN_WINDOW_MS}, at most {@link LOGIN_MAX_FAILURES} per email and
     * {@link LOGIN_MAX_FAILURES_PER_ADDRESS} per client address. A browser that signed in to this
     * user before (`browserToken`, the herald_browser cookie) is not held by those two: it has its
     * own limit of {@link LOGIN_MAX_FAILURES}, so a stranger guessing the password cannot lock the
     * user out of their own browser. Every attempt is counted before the password is checked
     * (parallel attempts cannot all pass a stale count); a refused attempt and a successful
     * sign-in are taken back, so the limits count failed password checks only.
     * @returns the cookie token (shown only here), the browser token to keep in the browser's
     *   cookie (the one sent when it is known, else a new one), and the session.
     * @throws AppError UNAUTHORIZED on a wrong email or password (the same answer for both),
     *   RATE_LIMITED after too many failures for the email or the client address (or the known browser).
     */
    async login(input: { email: string; password: string; userAgent?: string; ip?: string; browserToken?: string }): Promise<{ token: string; browserToken: string } & SessionInfo> {
      const email = input.email.trim().toLowerCase();
      const attemptAt = clock();
      const browser = await knownBrowser(email, input.browserToken, attemptAt);
      const limits: Array<{ key: string; max: number }> = browser
        ? [{ key: `login:browser:${browser.toString('hex')}`, max: LOGIN_MAX_FAILURES }]
        : [{ key: `login:email:${email}`, max: LOGIN_MAX_FAILURES }, ...(input.ip ? [{ key: `login:ip:${input.ip}`, max: LOGIN_MAX_FAILURES_PER_ADDRESS }] : [])];
      const attempts = await Promise.all(limits.map((l) => recordAttempt(db, l.key, LOGIN_WINDOW_MS, attemptAt.getTime())));
      const over = attempts.filter((a, i) => a.count > limits[i].max);
      if (over.length > 0) {
        await forgetAttempts(db, attempts);
        // The window slides: one more attempt fits once the oldest counted failure is a window old.
        const retryAt = new Date(Math.max(...over.map((a) => a.oldestAt.getTime() + LOGIN_WINDOW_MS)));
        const minutes = Math.max(1, Math.ceil((retryAt.getTime() - attemptAt.getTime()) / 60_000));
        throw new AppError('RATE_LIMITED', `Too many failed sign-in attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
          { window: '15 minutes', limit: LOGIN_MAX_FAILURES, retryAt: retryAt.toISOString() });
      }
      const { rows } = await db.query<UserRow & { password_hash: string | null }>(
        'SELECT id, tenant_id, email, name, role, is_root, profile_access, password_hash FROM users WHERE lower(email) = $1', [email]);
      const user = rows[0];
      dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
      const ok = await verifyPassword(input.password, user?.password_hash ?? await dummyHash);
      if (!user || !user.password_hash || !ok) throw invalidCredentials();
      await forgetAttempts(db, attempts);
      return open(user, browser, input);
    },

    /**
     * Opens a session for a user whose identity was proven another way (a password reset link):
     * no password check and no sign-in limit. Remembers the browser like a sign-in.
     * @throws AppError NOT_FOUND for an unknown user.
     */
    async openFor(userId: string, input: { userAgent?: string; ip?: string; browserToken?: string } = {}): Promise<{ token: string; browserToken: string } & SessionInfo> {
      const { rows } = await db.query<UserRow>('SELECT id, tenant_id, email, name, role, is_root, profile_access FROM users WHERE id = $1', [userId]);
      if (!rows[0]) throw new AppError('NOT_FOUND', 'User not found');
      const browser = await knownBrowser(rows[0].email.toLowerCase(), input.browserToken, clock());
      return open(rows[0], browser, input);
    },

    /**
     * Resolves a cookie token to the session and an {@link AuthContext} with every permission.
     * Extends the idle expiry (at most one write a minute).
     * @throws AppError UNAUTHORIZED when the session is unknown, expired or signed out.
     */
    async authenticate(token: string): Promise<{ auth: AuthContext; session: SessionInfo }> {
      if (!token || token.length > 200) throw sessionExpired();
      const { rows } = await db.query<SessionRow>(
        `SELECT s.id, s.csrf_token, s.expires_at, s.absolute_expires_at, s.revoked_at, s.last_seen_at,
                u.id AS user_id, u.email, u.name, u.role, u.tenant_id, u.is_root, u.profile_access, u.profile_ids,
                r.plan, r.billing_period, r.billing_anchor
           FROM sessions s
           JOIN users u ON u.id = s.user_id
           JOIN users r ON r.id = u.tenant_id
          WHERE s.token_hash = $1`, [sha256(token)]);
      const s = rows[0];
      const now = clock();
      if (!s || s.revoked_at || s.expires_at <= now || s.absolute_expires_at <= now) throw sessionExpired();
      let expiresAt = s.expires_at;
      if (now.getTime() - s.last_seen_at.getTime() > 60_000) {
        expiresAt = new Date(Math.min(now.getTime() + SESSION_IDLE_MS, s.absolute_expires_at.getTime()));
        db.query('UPDATE sessions SET last_seen_at = $2, expires_at = $3 WHERE id = $1', [s.id, now, expiresAt]).catch(() => {});
      }
      const auth: AuthContext = {
        tenantId: s.tenant_id,
        userId: s.user_id,
        isRoot: s.is_root,
        keyId: `session:${s.id}`,
        permissions: new Set(ALL_PERMISSIONS),
        profileAccess: s.profile_access,
        profileIds: s.profile_ids.map((p) => p.trim()),
        plan: s.plan,
        billingPeriod: s.billing_period,
        billingAnchor: s.billing_anchor,
      };
      return {
        auth,
        session: {
          sessionId: s.id, csrfToken: s.csrf_token, expiresAt,
          user: { _id: s.user_id, email: s.email, name: s.name ?? '', isRoot: s.is_root, role: s.role, profileAccess: s.profile_access },
        },
      };
    },

    /** Signs a session out (idempotent). */
    async logout(sessionId: string): Promise<void> {
      await db.query('UPDATE sessions SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1', [sessionId, clock()]);
    },

    /**
     * Sets (or replaces) a user's password and signs out every session of that user.
     * @throws AppError VALIDATION_ERROR for a password under 8 characters, NOT_FOUND for an unknown email.
     */
    async setPassword(email: string, password: string): Promise<{ userId: string }> {
      return setPasswordBy('email', email.trim(), password, `No user with the email ${email.trim()}`);
    },

    /**
     * Sets a user's password (by id) and signs out every session of that user, in `client`'s
     * transaction when one is given (a password reset consumes its link in the same transaction).
     * @throws AppError VALIDATION_ERROR for a password under 8 characters, NOT_FOUND for an unknown user.
     */
    async setPasswordById(userId: string, password: string, client?: Queryable): Promise<void> {
      await setPasswordBy('id', userId, password, 'User not found', client);
    },
  };

  /** Checks a new password's length. @throws AppError VALIDATION_ERROR naming the field. */
  function checkPassword(password: string): void {
    if (password.length < 8) throw new AppError('VALIDATION_ERROR', 'Invalid password: must be at least 8 characters', { fields: { password: ['must be at least 8 characters'] } });
  }

  async function setPasswordBy(by: 'id' | 'email', key: string, password: string, missing: string, client?: Queryable): Promise<{ userId: string }> {
    checkPassword(password);
    const hash = await hashPassword(password);
    const run = async (q: Queryable) => {
      const now = clock();
      const userId = await setPasswordHash(q, by, key, hash, now);
      if (!userId) throw new AppError('NOT_FOUND', missing);
      await q.query('UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, now]);
      return { userId };
    };
    return client ? run(client) : db.tx(run);
  }

  /** Opens a session for `user` (checked by the caller), remembering the browser. */
  async function open(user: UserRow, browser: Buffer | null, input: { userAgent?: string; ip?: string; browserToken?: string }): Promise<{ token: string; browserToken: string } & SessionInfo> {
    const newBrowserToken = browser ? null : randomBytes(32).toString('base64url');
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    const id = newId();
    const now = clock();
    const expiresAt = new Date(now.getTime() + SESSION_IDLE_MS);
    await db.tx(async (client) => {
      await client.query(
        `INSERT INTO sessions (id, token_hash, user_id, tenant_id, csrf_token, user_agent, ip, created_at, last_seen_at, expires_at, absolute_expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10)`,
        [id, sha256(token), user.id, user.tenant_id, csrfToken, input.userAgent?.slice(0, 500) ?? null, input.ip ?? null, now, expiresAt, new Date(now.getTime() + SESSION_ABSOLUTE_MS)],
      );
      await recordLogin(client, user.id, now);
      // Expired sessions of this user are cleaned up on each sign-in.
      await client.query('DELETE FROM sessions WHERE user_id = $1 AND (expires_at < $2 OR absolute_expires_at < $2 OR revoked_at IS NOT NULL)', [user.id, now]);
      // This browser is known (again) for KNOWN_BROWSER_TTL_MS; expired ones and those past the per-user cap go.
      const browserExpiresAt = new Date(now.getTime() + KNOWN_BROWSER_TTL_MS);
      if (browser) {
        await client.query('UPDATE known_browsers SET last_used_at = $2, expires_at = $3 WHERE token_hash = $1', [browser, now, browserExpiresAt]);
      } else {
        await client.query('INSERT INTO known_browsers (token_hash, user_id, created_at, last_used_at, expires_at) VALUES ($1, $2, $3, $3, $4)',
          [sha256(newBrowserToken!), user.id, now, browserExpiresAt]);
      }
      await client.query(
        `DELETE FROM known_browsers WHERE user_id = $1
            AND (expires_at <= $2 OR token_hash NOT IN (SELECT token_hash FROM known_browsers WHERE user_id = $1 ORDER BY last_used_at DESC LIMIT $3))`,
        [user.id, now, KNOWN_BROWSERS_PER_USER]);
    });
    return {
      token, browserToken: newBrowserToken ?? input.browserToken!, sessionId: id, csrfToken, expiresAt,
      user: { _id: user.id, email: user.email, name: user.name ?? '', isRoot: user.is_root, role: user.role, profileAccess: user.profile_access },
    };
  }

  return service;
}

export type SessionsService = ReturnType<typeof createSessionsService>;
