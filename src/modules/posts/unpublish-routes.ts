import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { PLATFORMS, UNPUBLISH } from '../../platforms/types.ts';
import { PostView } from './schemas.ts';

const supported = PLATFORMS.filter((p) => UNPUBLISH[p].supported);

export const unpublishRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'unpublish'> }> = async (app, { services }) => {
  app.post('/posts/:postId/unpublish', {
    config: { permission: 'posts:write' },
    // The body is optional: a call without one unpublishes from every platform.
    preValidation: async (req) => { if (req.body === undefined) req.body = {}; },
    schema: {
      tags: ['Posts'], summary: 'Unpublish a post (delete it from the platforms)',
      description: `Deletes the post from each platform that allows it (${supported.join(', ')}), cancels targets not published yet, and `
        + 'says which platforms cannot delete (`outcome: not_supported`: delete it there yourself). The post becomes `cancelled` when nothing '
        + 'of it is left live, else `partial`. Safe to repeat: a target already taken back is not sent again. `platform` limits it to one platform.',
      params: Type.Object({ postId: Id() }),
      body: Type.Object({ platform: Type.Optional(Type.Unsafe<(typeof PLATFORMS)[number]>(Type.String({ enum: [...PLATFORMS] }))) }),
      response: {
        200: Type.Object({
          success: Type.Boolean({ description: 'True when nothing of the post is left live' }),
          message: Type.String(),
          post: PostView,
          results: Type.Array(Type.Object({
            platform: Type.String(), accountId: Type.String(), targetId: Type.String(),
            outcome: Type.String({ enum: ['deleted', 'already_removed', 'cancelled', 'not_supported', 'failed'] }),
            error: Type.Optional(Type.String()),
          })),
        }),
        ...errors(409),
      },
    },
  }, async (req) => services.unpublish.unpublish(req.auth, req.params.postId, req.body.platform, req.id));
};
