/**
 * The server's word before the composer says "fits": once the composer's own checks (the shared
 * rule table, ../../../../src/shared/post-rules.ts) find nothing, the post as it would be sent is
 * checked by `POST /v1/tools/validate/post`, which runs every check of `POST /v1/posts` and saves
 * nothing (what only the server knows: the accounts as stored, the media it can fetch, a
 * subreddit's rules, duplicate content). Asked after a pause in typing; "fits" waits for it, and
 * when Herald cannot be asked the composer says so instead, with its own checks' result
 * (./server-verdict.ts).
 */
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type CreatePostBody } from '../api.ts';
import { serverCheckOf, type ServerCheck } from './server-verdict.ts';

/** Wait after the last change before the server is asked (ms). */
const CHANGE_PAUSE_MS = 500;

/** `value`, once it has not changed for `ms` milliseconds. */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

export type { ServerCheck, ServerProblem } from './server-verdict.ts';

/**
 * Asks the server about `body` when `enabled` (the composer's own checks pass), after a pause.
 * `editing`: the post being edited, whose own content is not a duplicate of itself.
 */
export function useServerCheck(body: CreatePostBody, enabled: boolean, editing?: string): ServerCheck {
  const key = JSON.stringify(body);
  const settled = useSettled(key, CHANGE_PAUSE_MS);
  const q = useQuery({
    queryKey: ['validate-post', settled],
    enabled: enabled && settled === key,
    staleTime: 30_000,
    retry: false,
    queryFn: () => unwrap(api.POST('/v1/tools/validate/post', { body: JSON.parse(settled) as CreatePostBody })),
  });
  return serverCheckOf({
    enabled, current: settled === key, pending: q.isPending, error: q.isError ? q.error : null, data: q.data,
    retry: () => { void q.refetch(); },
  }, editing);
}
