/**
 * Pinterest's account resources (docs/decisions/0053-account-resources-contract.md): the boards of
 * the account and its default board (`GET|PUT /v1/accounts/{accountId}/pinterest-boards`). Boards
 * come from `GET /v5/boards`, followed through `bookmark` until it is null
 * (https://developers.pinterest.com/docs/api/v5/boards-list/). The default board is stored in the
 * account's settings (`defaultBoardId`, `defaultBoardName`) and used when a post names no
 * `platformSpecificData.boardId`.
 */
import { Type } from 'typebox';
import { fieldError } from '../../core/errors.ts';
import type { AccountResources, ResourceContext } from '../account-resources.ts';
import { pinterestBoardsPage } from './boards.ts';

/** A board as Herald answers it. `privacy`: PUBLIC | PROTECTED | SECRET. */
export interface BoardView { id: string; name: string; description: string; privacy: string }

/** Pages of 250 boards, at most this many pages. */
const MAX_BOARD_PAGES = 20;

async function allBoards(ctx: ResourceContext): Promise<BoardView[]> {
  const out: BoardView[] = [];
  let bookmark: string | null = null;
  for (let i = 0; i < MAX_BOARD_PAGES; i++) {
    const page = await ctx.call((token, app) => pinterestBoardsPage(app, token, bookmark));
    for (const b of page.items ?? []) out.push({ id: b.id, name: b.name, description: b.description ?? '', privacy: b.privacy ?? 'PUBLIC' });
    bookmark = page.bookmark ?? null;
    if (!bookmark) break;
  }
  return out;
}

export const pinterestResources: AccountResources = {
  operations: [
    {
      method: 'GET', path: '/accounts/:accountId/pinterest-boards', permission: 'accounts:read', tag: 'Pinterest',
      summary: 'List the boards of a Pinterest account, and its default board',
      response: Type.Object({
        boards: Type.Array(Type.Object({
          id: Type.String({ description: 'Numeric board id' }), name: Type.String(), description: Type.String(),
          privacy: Type.String({ description: 'PUBLIC, PROTECTED or SECRET' }),
        })),
        defaultBoardId: Type.Union([Type.String(), Type.Null()]),
        defaultBoardName: Type.Union([Type.String(), Type.Null()]),
      }),
      errors: [429, 502],
      async run(ctx) {
        const st = ctx.account.settings;
        return {
          boards: await allBoards(ctx),
          defaultBoardId: typeof st.defaultBoardId === 'string' ? st.defaultBoardId : null,
          defaultBoardName: typeof st.defaultBoardName === 'string' ? st.defaultBoardName : null,
        };
      },
    },
    {
      method: 'PUT', path: '/accounts/:accountId/pinterest-boards', permission: 'accounts:write', tag: 'Pinterest',
      summary: 'Set the default board of a Pinterest account',
      description: 'Used when a post names no platformSpecificData.boardId. The board must be one of the account\'s boards.',
      body: Type.Object({
        defaultBoardId: Type.String({ pattern: '^[0-9]{1,24}$', maxLength: 24, description: 'A board id from GET .../pinterest-boards' }),
        defaultBoardName: Type.Optional(Type.String({ maxLength: 200 })),
      }),
      response: Type.Object({ message: Type.String() }),
      answersAccount: true, errors: [429, 502],
      /** The board's name is taken from Pinterest (a given defaultBoardName only if Pinterest sends none). */
      async run(ctx, { body }) {
        const board = (await allBoards(ctx)).find((b) => b.id === body.defaultBoardId);
        if (!board) throw fieldError('defaultBoardId', `is not one of @${ctx.account.username}'s boards (see GET /v1/accounts/${ctx.account.id}/pinterest-boards)`);
        const name = board.name || (body.defaultBoardName as string | undefined) || board.id;
        await ctx.update({ settings: { defaultBoardId: board.id, defaultBoardName: name } });
        return { message: `Default board set to ${name}` };
      },
    },
  ],
};
