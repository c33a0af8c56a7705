/**
 * Pinterest routes: the board picker and default board
 * (GET/PUT /v1/accounts/{accountId}/pinterest-boards). See ./service.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors } from '../../http/schemas.ts';
import type { Services } from '../../services.ts';
import { AccountSchema } from '../accounts/schemas.ts';

export const pinterestRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { pinterest } = services;

  app.get('/accounts/:accountId/pinterest-boards', {
    config: { permission: 'accounts:read' },
    schema: {
      tags: ['Pinterest'], summary: 'List the boards of a Pinterest account, and its default board',
      params: Type.Object({ accountId: Id() }),
      response: {
        200: Type.Object({
          boards: Type.Array(Type.Object({
            id: Type.String({ description: 'Numeric board id' }), name: Type.String(), description: Type.String(),
            privacy: Type.String({ description: 'PUBLIC, PROTECTED or SECRET' }),
          })),
          defaultBoardId: Type.Union([Type.String(), Type.Null()]),
          defaultBoardName: Type.Union([Type.String(), Type.Null()]),
        }),
        ...errors(429, 502),
      },
    },
  }, async (req) => pinterest.listBoards(req.auth, req.params.accountId));

  app.put('/accounts/:accountId/pinterest-boards', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Pinterest'], summary: 'Set the default board of a Pinterest account',
      description: 'Used when a post names no platformSpecificData.boardId. The board must be one of the account\'s boards.',
      params: Type.Object({ accountId: Id() }),
      body: Type.Object({
        defaultBoardId: Type.String({ pattern: '^[0-9]{1,24}$', maxLength: 24, description: 'A board id from GET .../pinterest-boards' }),
        defaultBoardName: Type.Optional(Type.String({ maxLength: 200 })),
      }),
      response: { 200: Type.Object({ message: Type.String(), account: AccountSchema }), ...errors(429, 502) },
    },
  }, async (req) => pinterest.setDefaultBoard(req.auth, req.params.accountId, req.body));
};
