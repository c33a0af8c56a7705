/**
 * Password reset routes, outside /v1 (the dashboard's, like /auth/login), answering only when
 * an SMTP server is configured (else 404 with `details.reason: password_reset_off`):
 *   POST /auth/password-reset          {email}: mails a reset link if the email has an account; 202 either way
 *   GET  /auth/password-reset?token=   whether the link can still be used (404 unknown, 410 used or expired)
 *   POST /auth/password-reset/confirm  {token, password}: sets the password, ends the user's other
 *                                      sessions and signs this browser in (session cookie)
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { assertSameOrigin, browserToken, setBrowserCookie, setSessionCookie } from '../sessions/http.ts';
import { SessionUserView } from '../sessions/routes.ts';

export const passwordResetRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'passwordReset' | 'config'> }> = async (app, { services }) => {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.post('/auth/password-reset', {
    schema: {
      hide: true,
      body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' }) }),
      response: { 202: Type.Object({ message: Type.String() }), ...errors(403, 429) },
    },
  }, async (request, reply) => {
    assertSameOrigin(request, services);
    await services.passwordReset.request({ email: request.body.email, ip: request.ip });
    return reply.status(202).send({ message: 'If an account uses this email, a link to choose a new password is on its way. It works once, for one hour.' });
  });

  app.get('/auth/password-reset', {
    schema: {
      hide: true,
      querystring: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }),
      response: { 200: Type.Object({ expiresAt: Type.String({ format: 'date-time' }) }), ...errors(410) },
    },
  }, async (request) => services.passwordReset.check(request.query.token));

  app.post('/auth/password-reset/confirm', {
    schema: {
      hide: true,
      body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }), password: Type.String({ minLength: 8, maxLength: 1000 }) }),
      response: {
        200: Type.Object({ user: SessionUserView, csrfToken: Type.String(), expiresAt: Type.String({ format: 'date-time' }) }),
        ...errors(403, 410),
      },
    },
  }, async (request, reply) => {
    // Another site must not be able to sign the browser in to an account it reset.
    assertSameOrigin(request, services);
    const s = await services.passwordReset.reset({
      token: request.body.token, password: request.body.password,
      userAgent: request.headers['user-agent'], ip: request.ip, browserToken: browserToken(request),
    });
    setSessionCookie(reply, services, s.token);
    setBrowserCookie(reply, services, s.browserToken);
    return { user: s.user, csrfToken: s.csrfToken, expiresAt: s.expiresAt.toISOString() };
  });
};
