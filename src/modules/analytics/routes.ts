/**
 * GET /v1/analytics (decision 0030: single-post view with postId, list view without) and
 * GET /v1/analytics/daily (the dashboard's chart). Both need the Analytics add-on (402
 * analytics_addon_required) and share their own limit: `analyticsRateLimit` requests per user
 * and hour (30 by default, decision 0030), counted in PostgreSQL so every API process shares it; a request refused
 * with 402 is not counted. Every answer
 * carries X-RateLimit-Limit/-Remaining/-Reset (Unix seconds) for this limit; over it, 429
 * RATE_LIMITED with the reset time and Retry-After.
 */
import { rateLimitPolicyField, sendRateLimitHeaders } from '../../route-kit/rate-limit-headers.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../core/errors.ts';
import { errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { countHit } from '../../storage/rate-limit-counters.ts';
import { AnalyticsDaily, AnalyticsFilters, AnalyticsList, AnalyticsQuery, SinglePostAnalytics } from './schemas.ts';

const HOUR_MS = 3_600_000;

export const analyticsRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'analytics' | 'clock' | 'config' | 'db'> }> = async (app, { services }) => {
  /**
   * The analytics limit, as a preHandler of these routes: after the general limit (whose headers
   * it replaces) and after validation, so a request refused as malformed does not spend it; and
   * after the add-on check, so a request the plan refuses (402) does not spend it either.
   */
  const limit = async (req: FastifyRequest, reply: FastifyReply) => {
    const auth = req.auth;
    if (!auth) return;
    const max = services.config.analyticsRateLimit;
    reply.header('X-RateLimit-Limit', max);
    reply.header('RateLimit-Policy', rateLimitPolicyField({ policy: 'analytics', limit: max, windowSeconds: HOUR_MS / 1000 }));
    reply.removeHeader('RateLimit');
    // Not counted: a 402 carries the limit only (no Remaining/Reset: nothing was spent).
    await services.analytics.requireAddon(auth);
    const now = services.clock().getTime();
    const { count, windowStart } = await countHit(services.db, `analytics:${auth.userId}`, HOUR_MS, now);
    const reset = Math.ceil((windowStart.getTime() + HOUR_MS) / 1000);
    sendRateLimitHeaders(reply, { policy: 'analytics', limit: max, windowSeconds: HOUR_MS / 1000, remaining: max - count, resetAt: reset, nowMs: now }, count > max);
    if (count > max) {
      const resetAt = new Date(reset * 1000).toISOString();
      throw new AppError('RATE_LIMITED', `Analytics rate limit exceeded: ${max} requests per hour; try again after ${resetAt}`, { limit: max, window: 'hour', resetAt }, { resetAt });
    }
  };

  app.get('/analytics', {
    config: { permission: 'analytics:read' },
    preHandler: limit,
    schema: {
      tags: ['Analytics'], summary: 'Post analytics: one post (postId) or the list of published posts',
      description: 'Needs the Analytics add-on (402 analytics_addon_required). Limited to 30 requests per user and hour (X-RateLimit-* headers; 429 past it). ' +
        'Metrics a platform does not have are null.',
      querystring: AnalyticsQuery,
      response: { 200: Type.Union([SinglePostAnalytics, AnalyticsList]), ...errors(402, 403, 429) },
    },
  }, async (req) => services.analytics.get(req.auth, req.query));

  app.get('/analytics/daily', {
    config: { permission: 'analytics:read' },
    preHandler: limit,
    schema: {
      tags: ['Analytics'], summary: 'Daily gains of the selected posts\' metrics (from the stored snapshots)',
      description: 'Herald\'s own view for charts: for each UTC day, what the posts published in the range gained that day. Same add-on and limit as GET /v1/analytics.',
      querystring: Type.Object(AnalyticsFilters),
      response: { 200: AnalyticsDaily, ...errors(402, 403, 429) },
    },
  }, async (req) => services.analytics.daily(req.auth, req.query));
};
