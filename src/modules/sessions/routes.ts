/**
 * Dashboard sign-in routes, outside /v1 (they are not part of the public API):
 *   GET  /auth/session   the signed-in user and the CSRF token, or 401
 *   POST /auth/login     email + password -> session cookie (httpOnly, SameSite=Strict), and the
 *                        known-browser cookie that lets this browser past a lockout of the email
 *   POST /auth/logout    signs the session out (CSRF-checked) and clears the cookie
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../core/errors.ts';
import { errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { assertCsrf, assertSameOrigin, browserToken, clearSessionCookie, sessionToken, setBrowserCookie, setSessionCookie } from './http.ts';
import type { SessionInfo } from './service.ts';

/** The signed-in user as the dashboard reads it (sign-in, session and sign-up answers). */
export const SessionUserView = Type.Object({
  _id: Type.String(), email: Type.String(), name: Type.String(), isRoot: Type.Boolean(), role: Type.String(),
  profileAccess: Type.Union([Type.Literal('all'), Type.Literal('profiles')], { description: 'profiles: a team member who sees only some profiles (and cannot create profiles)' }),
});

const SessionView = Type.Object({
  user: SessionUserView,
  csrfToken: Type.String({ description: 'Send it as X-CSRF-Token on every POST, PUT, PATCH and DELETE made with the session cookie' }),
  expiresAt: Type.String({ format: 'date-time' }),
});

const view = (s: SessionInfo) => ({ user: s.user, csrfToken: s.csrfToken, expiresAt: s.expiresAt.toISOString() });

export const sessionsRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'sessions' | 'config'> }> = async (app, { services }) => {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get('/auth/session', {
    schema: { hide: true, response: { 200: SessionView, ...errors() } },
  }, async (request) => {
    const token = sessionToken(request);
    if (!token) throw new AppError('UNAUTHORIZED', 'Unauthorized', { reason: 'Not signed in' });
    return view((await services.sessions.authenticate(token)).session);
  });

  app.post('/auth/login', {
    schema: {
      hide: true,
      body: Type.Object({ email: Type.String({ minLength: 1, maxLength: 320 }), password: Type.String({ minLength: 1, maxLength: 1000 }) }),
      response: { 200: SessionView, ...errors(403, 429) },
    },
  }, async (request, reply) => {
    // Login CSRF: another site must not be able to sign the browser in to its own account.
    assertSameOrigin(request, services);
    const s = await services.sessions.login({
      email: request.body.email, password: request.body.password,
      userAgent: request.headers['user-agent'], ip: request.ip, browserToken: browserToken(request),
    });
    setSessionCookie(reply, services, s.token);
    setBrowserCookie(reply, services, s.browserToken);
    return view(s);
  });

  app.post('/auth/logout', {
    schema: { hide: true, response: { 200: Type.Object({ message: Type.String() }), ...errors(403) } },
  }, async (request, reply) => {
    const token = sessionToken(request);
    if (token) {
      let session: SessionInfo | null = null;
      try {
        session = (await services.sessions.authenticate(token)).session;
      } catch {
        // Already expired or signed out: just clear the cookie.
      }
      if (session) {
        assertCsrf(request, services, session);
        await services.sessions.logout(session.sessionId);
      }
    }
    clearSessionCookie(reply, services);
    return { message: 'Signed out' };
  });
};
