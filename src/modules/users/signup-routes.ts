/**
 * Sign-up routes, outside /v1 (the dashboard's, like /auth/login):
 *   GET  /auth/invite?token=   what a team invite is for (inviter, scope, profiles), or 404/410 with `details.reason`
 *   POST /auth/signup          name, email, password and `inviteToken` (joins that team) or, when
 *                              HERALD_SIGNUP=open, none (a new account on Free with a default profile);
 *                              signs the new user in (session cookie)
 */
import { sendRateLimitHeaders } from '../../route-kit/rate-limit-headers.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../core/errors.ts';
import { errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { countHit } from '../../storage/rate-limit-counters.ts';
import { InvitePreview } from '../invites/schemas.ts';
import { assertSameOrigin, setBrowserCookie, setSessionCookie } from '../sessions/http.ts';
import { SessionUserView } from '../sessions/routes.ts';

/** Sign-ups accepted per client address an hour (open sign-up and invites alike). */
export const SIGNUPS_PER_ADDRESS_PER_HOUR = 20;

export const signupRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'clock' | 'config' | 'db' | 'invites' | 'sessions' | 'users'> }> = async (app, { services }) => {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get('/auth/invite', {
    schema: {
      hide: true,
      querystring: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }),
      response: { 200: InvitePreview, ...errors(410) },
    },
  }, async (request) => services.invites.preview(request.query.token));

  app.post('/auth/signup', {
    schema: {
      hide: true,
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 200 }),
        email: Type.String({ minLength: 3, maxLength: 320 }),
        password: Type.String({ minLength: 8, maxLength: 1000 }),
        inviteToken: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      }),
      response: {
        201: Type.Object({ user: SessionUserView, csrfToken: Type.String(), expiresAt: Type.String({ format: 'date-time' }) }),
        ...errors(403, 410, 429),
      },
    },
  }, async (request, reply) => {
    // Another site must not be able to create an account and sign the browser in to it.
    assertSameOrigin(request, services);
    const nowMs = services.clock().getTime();
    const hit = await countHit(services.db, `signup:ip:${request.ip}`, 3_600_000, nowMs);
    sendRateLimitHeaders(reply, {
      policy: 'signup', limit: SIGNUPS_PER_ADDRESS_PER_HOUR, windowSeconds: 3600, remaining: SIGNUPS_PER_ADDRESS_PER_HOUR - hit.count,
      resetAt: Math.ceil((hit.windowStart.getTime() + 3_600_000) / 1000), nowMs,
    }, hit.count > SIGNUPS_PER_ADDRESS_PER_HOUR);
    if (hit.count > SIGNUPS_PER_ADDRESS_PER_HOUR) throw new AppError('RATE_LIMITED', 'Too many sign-ups from this address; try again in an hour', { window: '1 hour', limit: SIGNUPS_PER_ADDRESS_PER_HOUR });
    const { name, email, password, inviteToken } = request.body;
    if (inviteToken) await services.invites.accept(inviteToken, { name, email, password });
    else if (!services.config.signupOpen) throw new AppError('FORBIDDEN', 'Sign-up is closed on this server; ask its administrator for an account or a team invite', { reason: 'signup_closed' });
    else await services.users.signUp({ name, email, password });
    const s = await services.sessions.login({ email, password, userAgent: request.headers['user-agent'], ip: request.ip });
    setSessionCookie(reply, services, s.token);
    setBrowserCookie(reply, services, s.browserToken);
    return reply.status(201).send({ user: s.user, csrfToken: s.csrfToken, expiresAt: s.expiresAt.toISOString() });
  });
};
