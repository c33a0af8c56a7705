/**
 * GET /v1/sandbox: what sandbox mode simulates (src/sandbox), the ready-made Bluesky account and
 * how to watch a post go through; GET /v1/sandbox/{platform}/state: what a simulator received of
 * the caller's posts.
 * Outside sandbox mode GET /v1/sandbox answers `{ enabled: false }` with how to turn it on.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notFound } from '../../core/errors.ts';
import { errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { PLATFORMS } from '../../platforms/types.ts';

const Platform = Type.Object({ platform: Type.String(), simulatorUrl: Type.String(), connect: Type.String(), stateUrl: Type.String() });
const SandboxResponse = Type.Object({
  enabled: Type.Boolean({ description: 'True when Herald runs in sandbox mode (HERALD_SANDBOX=on)' }),
  message: Type.String(),
  platforms: Type.Optional(Type.Array(Platform, { description: 'Simulated OAuth platforms' })),
  notSimulated: Type.Optional(Type.Array(Type.String(), { description: 'Platforms that cannot be connected in this sandbox' })),
  bluesky: Type.Optional(Type.Union([Type.Object({
    serviceUrl: Type.String(), identifier: Type.String({ description: 'Handle of the ready-made account' }), did: Type.String(),
    appPassword: Type.String({ description: 'App password for POST /v1/connect/bluesky/credentials' }), connect: Type.String(), stateUrl: Type.String(),
  }), Type.Null()])),
  walkthrough: Type.Optional(Type.Array(Type.String())),
});

export const sandboxRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'posts' | 'publicUrl' | 'sandbox'> }> = async (app, { services }) => {
  app.get('/sandbox', {
    config: { permission: 'accounts:read' },
    schema: {
      tags: ['Sandbox'], summary: 'Describe sandbox mode (simulated platforms, the Bluesky test account, a walk-through)',
      description: 'In sandbox mode (HERALD_SANDBOX=on) every platform is a local simulator and real platform credentials are not used; ' +
        'every /v1 response carries `X-Herald-Sandbox: true`.',
      response: { 200: SandboxResponse, ...errors(403) },
    },
  }, async () => {
    if (!services.sandbox) {
      return { enabled: false, message: 'Sandbox mode is off: platforms are the real ones. Start Herald with HERALD_SANDBOX=on to connect simulator-backed accounts without platform credentials.' };
    }
    return services.sandbox.describe(services.publicUrl);
  });

  app.get('/sandbox/:platform/state', {
    config: { permission: 'accounts:read' },
    schema: {
      tags: ['Sandbox'], summary: 'What a platform simulator holds now of your posts',
      description: 'Sandbox mode only. Every sandbox user shares the simulators\' one simulated platform user, so the simulator\'s lists are cut ' +
        'to your own posts (those Herald published for you, their thread items, comments and counters); the simulated user, pages, ' +
        'organizations, boards and subreddits are shown as they are. Lists are cut to their last 50 entries.',
      params: Type.Object({ platform: Type.Enum([...PLATFORMS]) }),
      response: { 200: Type.Object({ platform: Type.String(), state: Type.Unknown() }), ...errors(403) },
    },
  }, async (req) => {
    // Only the caller's posts: other users' content on the shared simulated account stays theirs.
    const own = services.sandbox ? new Set(await services.posts.platformPostIds(req.auth, req.params.platform)) : null;
    const state = services.sandbox && own ? await services.sandbox.state(req.params.platform, own) : null;
    if (!state) throw notFound(services.sandbox ? `Simulator for ${req.params.platform}` : 'Sandbox (sandbox mode is off)');
    return { platform: req.params.platform, state };
  });
};
