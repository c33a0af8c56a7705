/**
 * General API rate limit per user and minute, by plan (docs/decisions/0003 and 0006: Free 60,
 * Basic 120, Professional 600, Advanced 1200). Fixed one-minute windows counted in
 * PostgreSQL (an UNLOGGED table, src/storage/rate-limit-counters.ts) so that every API
 * process shares the counters.
 *
 * Every limited response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` (Unix seconds, as the official client reads it), and the IETF draft's
 * `RateLimit-Policy` and `RateLimit` (policy "api"; src/route-kit/rate-limit-headers.ts); over
 * the limit answers 429 `RATE_LIMITED` with the same headers and `Retry-After`.
 * (@fastify/rate-limit was not used: its reset header is seconds-from-now.)
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../core/errors.ts';
import { PLANS } from '../shared/plans.ts';
import type { Services } from '../services.ts';
import { countHit } from '../storage/rate-limit-counters.ts';
import { sendRateLimitHeaders } from '../route-kit/rate-limit-headers.ts';

const WINDOW_MS = 60_000;

/**
 * Adds the limit as an `onRequest` hook, so it must be registered after the hook that
 * sets `request.auth`. It runs before the body is parsed and validated: malformed and
 * invalid requests count like any other.
 */
export async function registerRateLimit(app: FastifyInstance, services: Services): Promise<void> {
  if (!services.config.rateLimit) return;
  app.addHook('onRequest', async (request, reply) => {
    const auth = request.auth;
    if (!auth) return;
    const limit = PLANS[auth.plan].requestsPerMinute;
    const now = services.clock().getTime();
    const { count, windowStart } = await countHit(services.db, `api:${auth.userId}`, WINDOW_MS, now);
    const reset = Math.ceil((windowStart.getTime() + WINDOW_MS) / 1000);
    sendRateLimitHeaders(reply, { policy: 'api', limit, windowSeconds: WINDOW_MS / 1000, remaining: limit - count, resetAt: reset, nowMs: now }, count > limit);
    if (count > limit) {
      throw new AppError('RATE_LIMITED', `Rate limit exceeded: your ${PLANS[auth.plan].name} plan allows ${limit} requests per minute`, {
        limit, window: 'minute', resetAt: new Date(reset * 1000).toISOString(),
      });
    }
  });
}
