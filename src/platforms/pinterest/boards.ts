/**
 * The boards of the token's Pinterest user, one page at a time: `GET /v5/boards` with
 * page_size 250 and the `bookmark` of the previous page (null on the last page;
 * https://developers.pinterest.com/docs/api/v5/boards-list/).
 */
import type { PlatformApp } from '../oauth.ts';
import { pinterestJson } from './http.ts';

/** A board as `GET /v5/boards` lists it. */
export interface PinterestBoard { id: string; name: string; description?: string | null; privacy?: string }

/** One page of boards. @throws AdapterError */
export async function pinterestBoardsPage(app: PlatformApp, token: string, bookmark: string | null): Promise<{ items: PinterestBoard[]; bookmark: string | null }> {
  return (await pinterestJson<{ items: PinterestBoard[]; bookmark: string | null }>(
    app.apiBaseUrl, '/v5/boards', { token, query: { page_size: 250, bookmark: bookmark ?? undefined } })).body;
}
