/**
 * Queries of the accounts resource (GET /v1/accounts and an account's lists, such as its Reddit
 * subreddits and Pinterest boards). Pages read accounts through these hooks, never through
 * another page; mutations invalidate the `['accounts']` prefix (every profile's list) and an
 * account list's `[<last path segment>, id]` (`['reddit-subreddits', id]`, `['pinterest-boards', id]`).
 */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Paths } from '../api.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
/** An account group as GET /v1/account-groups answers it. */
export type AccountGroup = Json<Paths['/v1/account-groups']['get']['responses'][200]>['groups'][number];

/**
 * The connected social accounts (GET /v1/accounts), all of them or one profile's, under the key
 * `['accounts', profileId ?? 'all']`. `data` is `Account[]` (`_id`, `platform`, `profileId`,
 * `username`, `displayName`, `isActive`, `needsReconnection`, platform settings such as
 * `defaultSubreddit` or `defaultBoardId`, ...); undefined while loading.
 */
export function useAccounts(profileId?: string) {
  return useQuery({
    queryKey: ['accounts', profileId ?? 'all'],
    queryFn: () => unwrap(api.GET('/v1/accounts', { params: { query: profileId ? { profileId } : {} } })).then((r) => r.accounts),
  });
}

/**
 * The subreddits of a Reddit account (GET /v1/accounts/{id}/reddit-subreddits), under the key
 * `['reddit-subreddits', accountId]`, fresh for a minute. `data` is the API's answer as is:
 * `{ subreddits: [{ id, name (without r/), display_name_prefixed, title, url, over18, subscribers }], defaultSubreddit }`. `enabled`: false holds the request back.
 */
export function useSubreddits(accountId: string, enabled = true) {
  return useQuery({
    queryKey: ['reddit-subreddits', accountId], enabled, staleTime: 60_000,
    queryFn: () => unwrap(api.GET('/v1/accounts/{accountId}/reddit-subreddits', { params: { path: { accountId } } })),
  });
}

/**
 * The boards of a Pinterest account (GET /v1/accounts/{id}/pinterest-boards), under the key
 * `['pinterest-boards', accountId]`, fresh for a minute. `data` is the API's answer as is:
 * `{ boards: [{ id, name, description, privacy }], defaultBoardId, defaultBoardName }`. `enabled`: false holds the request back.
 */
export function usePinterestBoards(accountId: string, enabled = true) {
  return useQuery({
    queryKey: ['pinterest-boards', accountId], enabled, staleTime: 60_000,
    queryFn: () => unwrap(api.GET('/v1/accounts/{accountId}/pinterest-boards', { params: { path: { accountId } } })),
  });
}

/** A `GET /v1/accounts/{accountId}/...` path of an account's list (an account resource, decision 0053). */
export type AccountListPath = `/v1/accounts/{accountId}/${string}`;

/**
 * Any list of an account by its API path (as the shared composer options name it, e.g.
 * `/v1/accounts/{accountId}/pinterest-boards`), under the key `[<last path segment>, accountId]`
 * (the same key as {@link useSubreddits} and {@link usePinterestBoards}, so their invalidations
 * apply), fresh for a minute. `data` is the API's answer as is; `enabled`: false holds the
 * request back.
 */
export function useAccountList(path: AccountListPath, accountId: string, enabled = true) {
  return useQuery({
    queryKey: [path.slice(path.lastIndexOf('/') + 1), accountId], enabled, staleTime: 60_000,
    queryFn: () => getAccountResource(path, accountId),
  });
}

/**
 * `GET` of an account resource by its API path and query (the JSON answer, or throws
 * `ApiError`). The path comes from data (src/shared/platform-options.ts), not from the generated
 * types, so the client is called untyped here, in one place.
 */
export function getAccountResource(path: AccountListPath, accountId: string, query?: Record<string, string>): Promise<Record<string, unknown>> {
  const get = api.GET as unknown as (p: string, init: { params: { path: { accountId: string }; query?: Record<string, string> } }) => Promise<{ data?: Record<string, unknown>; error?: unknown; response: Response }>;
  return unwrap(get(path, { params: { path: { accountId }, ...(query ? { query } : {}) } }));
}

/**
 * The account groups (GET /v1/account-groups), under the key `['account-groups']`. `data` is
 * `[{ _id, name, accountIds, createdBy, createdAt, updatedAt }]` (the accounts the caller may see,
 * across profiles); undefined while loading. Mutations (pages/AccountGroups.tsx) invalidate the key.
 */
export function useAccountGroups() {
  return useQuery({
    queryKey: ['account-groups'],
    queryFn: () => unwrap(api.GET('/v1/account-groups')).then((r) => r.groups),
  });
}
