/**
 * Pinterest account extras: the board picker and the default board. Boards come from
 * `GET /v5/boards` (platforms/pinterest/boards.ts, followed through `bookmark` until it is
 * null; https://developers.pinterest.com/docs/api/v5/boards-list/). The
 * default board is stored in `accounts.settings.defaultBoardId` / `defaultBoardName`
 * and used when a post names no `platformSpecificData.boardId`.
 */
import { fieldError } from '../../core/errors.ts';
import { pinterestBoardsPage } from '../../platforms/pinterest/boards.ts';
import type { AuthContext } from '../auth/context.ts';
import { toAccountView } from '../accounts/service.ts';
import type { AccountsRepository } from '../accounts/repository.ts';
import type { PlatformSession, PlatformSessions } from '../accounts/platform-session.ts';

/** A board as Herald answers it. `privacy`: PUBLIC | PROTECTED | SECRET. */
export interface BoardView { id: string; name: string; description: string; privacy: string }

/** Pages of 250 boards, at most this many pages. */
const MAX_BOARD_PAGES = 20;

async function allBoards(s: PlatformSession): Promise<BoardView[]> {
  const out: BoardView[] = [];
  let bookmark: string | null = null;
  for (let i = 0; i < MAX_BOARD_PAGES; i++) {
    const page = await s.call((token, app) => pinterestBoardsPage(app, token, bookmark));
    for (const b of page.items ?? []) out.push({ id: b.id, name: b.name, description: b.description ?? '', privacy: b.privacy ?? 'PUBLIC' });
    bookmark = page.bookmark ?? null;
    if (!bookmark) break;
  }
  return out;
}

export function createPinterestService(deps: { accounts: AccountsRepository; sessions: PlatformSessions }) {
  const open = (auth: AuthContext, accountId: string) => deps.sessions.open(auth, accountId, 'pinterest', 'Pinterest');
  return {
    /** `{ boards: [{id, name, description, privacy}], defaultBoardId, defaultBoardName }`. */
    async listBoards(auth: AuthContext, accountId: string) {
      const s = await open(auth, accountId);
      const st = s.row.settings ?? {};
      return {
        boards: await allBoards(s),
        defaultBoardId: typeof st.defaultBoardId === 'string' ? st.defaultBoardId : null,
        defaultBoardName: typeof st.defaultBoardName === 'string' ? st.defaultBoardName : null,
      };
    },

    /**
     * Sets the default board. The board must be one of the account's boards; its name is
     * taken from Pinterest (a given defaultBoardName is used only if Pinterest sends none).
     * @throws 400 naming defaultBoardId when the account has no such board.
     */
    async setDefaultBoard(auth: AuthContext, accountId: string, input: { defaultBoardId: string; defaultBoardName?: string }) {
      const s = await open(auth, accountId);
      const board = (await allBoards(s)).find((b) => b.id === input.defaultBoardId);
      if (!board) throw fieldError('defaultBoardId', `is not one of @${s.row.username}'s boards (see GET /v1/accounts/${accountId}/pinterest-boards)`);
      const name = board.name || input.defaultBoardName || board.id;
      const row = await deps.accounts.mergeSettings(s.row.id, { defaultBoardId: board.id, defaultBoardName: name });
      return { message: `Default board set to ${name}`, account: toAccountView(row) };
    },
  };
}
