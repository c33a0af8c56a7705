import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';

const UsageStats = Type.Object({
  planName: Type.String(),
  billingPeriod: Type.Union([Type.Literal('monthly'), Type.Literal('yearly')]),
  signupDate: Type.String({ format: 'date-time' }),
  limits: Type.Object({ uploads: Type.Integer({ description: '-1 = unlimited' }), profiles: Type.Integer({ description: '-1 = unlimited' }) }),
  usage: Type.Object({ uploads: Type.Integer(), profiles: Type.Integer(), lastReset: Type.String({ format: 'date-time' }) }),
  canUpload: Type.Boolean(),
  canCreateProfile: Type.Boolean(),
});

export const usageRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'usage'> }> = async (app, { services }) => {
  app.get('/usage-stats', {
    config: { permission: 'usage:read' },
    schema: { tags: ['Usage'], summary: 'Plan, limits and usage in the current billing period', response: { 200: UsageStats, ...errors() } },
  }, async (req) => services.usage.stats(req.auth));
};
