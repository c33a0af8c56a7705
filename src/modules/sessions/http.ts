/**
 * The HTTP side of sessions: the cookie, the CSRF check, and how a /v1 request is
 * authenticated (an API key in `Authorization`, or else the session cookie).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.ts';
import type { AuthContext } from '../auth/context.ts';
import type { Services } from '../../services.ts';
import { KNOWN_BROWSER_TTL_MS, safeEqual, SESSION_ABSOLUTE_MS, type SessionInfo } from './service.ts';

export const SESSION_COOKIE = 'herald_session';
/** The known-browser cookie: set by a successful sign-in, sent back to the sign-in only (docs/decisions/0010-dashboard-sessions.md). */
export const BROWSER_COOKIE = 'herald_browser';
const BROWSER_COOKIE_PATH = '/auth/login';
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Reads one cookie from the Cookie header (RFC 6265 syntax; the value is not decoded). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      let v = part.slice(eq + 1).trim();
      if (v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
      return v;
    }
  }
  return undefined;
}

function cookieAttributes(services: Pick<Services, 'config'>, maxAgeSeconds: number, path = '/'): string {
  const secure = (services.config.publicUrl ?? '').startsWith('https:') ? '; Secure' : '';
  return `Path=${path}; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

export function setSessionCookie(reply: FastifyReply, services: Pick<Services, 'config'>, token: string): void {
  reply.header('set-cookie', `${SESSION_COOKIE}=${token}; ${cookieAttributes(services, Math.floor(SESSION_ABSOLUTE_MS / 1000))}`);
}

/** Remembers this browser for its user's next sign-ins (Path=/auth/login: no other request carries it). Call after {@link setSessionCookie}. */
export function setBrowserCookie(reply: FastifyReply, services: Pick<Services, 'config'>, token: string): void {
  reply.header('set-cookie', `${BROWSER_COOKIE}=${token}; ${cookieAttributes(services, Math.floor(KNOWN_BROWSER_TTL_MS / 1000), BROWSER_COOKIE_PATH)}`);
}

/** The known-browser token the request carries, if any. */
export function browserToken(request: FastifyRequest): string | undefined {
  return readCookie(request.headers.cookie, BROWSER_COOKIE) || undefined;
}

export function clearSessionCookie(reply: FastifyReply, services: Pick<Services, 'config'>): void {
  reply.header('set-cookie', `${SESSION_COOKIE}=; ${cookieAttributes(services, 0)}`);
}

export function sessionToken(request: FastifyRequest): string | undefined {
  return readCookie(request.headers.cookie, SESSION_COOKIE) || undefined;
}

const csrfFailed = (why: string) => new AppError('FORBIDDEN', `CSRF check failed: ${why}`, { reason: 'csrf_failed' });

/**
 * Refuses requests sent by another site: an `Origin` (or, without one, `Sec-Fetch-Site`)
 * that is not this server. Browsers send one of them on every POST.
 */
export function assertSameOrigin(request: FastifyRequest, services: Pick<Services, 'config'>): void {
  const origin = request.headers.origin;
  if (origin) {
    let host: string;
    try { host = new URL(origin).host; } catch { throw csrfFailed('bad Origin header'); }
    // Hosts compared as URLs normalise them (default ports dropped).
    const allowed = new Set<string>();
    for (const scheme of ['http', 'https']) {
      try { allowed.add(new URL(`${scheme}://${request.host}`).host); } catch { /* bad Host header */ }
    }
    if (services.config.publicUrl) allowed.add(new URL(services.config.publicUrl).host);
    if (!allowed.has(host)) throw csrfFailed(`requests from ${origin} are not accepted`);
    return;
  }
  const site = request.headers['sec-fetch-site'];
  if (site && site !== 'same-origin' && site !== 'none') throw csrfFailed('cross-site request');
}

/** State-changing requests made with the cookie must carry the session's CSRF token and come from this origin. */
export function assertCsrf(request: FastifyRequest, services: Pick<Services, 'config'>, session: SessionInfo): void {
  if (SAFE_METHODS.has(request.method)) return;
  const sent = request.headers[CSRF_HEADER];
  if (typeof sent !== 'string' || !safeEqual(sent, session.csrfToken)) throw csrfFailed(`send the session's CSRF token in the ${CSRF_HEADER} header`);
  assertSameOrigin(request, services);
}

/**
 * Authenticates a /v1 request: the API key when an Authorization header is sent (it wins),
 * else the session cookie (with the CSRF check on state-changing methods), else 401.
 */
export async function authenticateRequest(request: FastifyRequest, services: Pick<Services, 'auth' | 'sessions' | 'config'>): Promise<AuthContext> {
  const token = request.headers.authorization ? undefined : sessionToken(request);
  if (!token) return services.auth.authenticate(request.headers.authorization);
  const { auth, session } = await services.sessions.authenticate(token);
  assertCsrf(request, services, session);
  return auth;
}
