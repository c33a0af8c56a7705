/**
 * The server's word before the composer says "fits": once the composer's own checks (the shared
 * rule table, ../../../../src/shared/post-rules.ts) find nothing, the post as it would be sent is
 * checked by `POST /v1/tools/validate/post`, which runs every check of `POST /v1/posts` and saves
 * nothing (what only the server knows: the accounts as stored, the media it can fetch, a
 * subreddit's rules, duplicate content). Asked after a pause in typing; "fits" waits for it.
 */
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type CreatePostBody } from '../api.ts';

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

/** One problem the server found: `platform` when it belongs to one, `field` as in a 400's details.fields. */
export interface ServerProblem { platform?: string; field: string; message: string; rule?: string }

/** What the server said of the post: still asking, fine, or its problems. `unknown` when it could not be asked (the save will still check). */
export type ServerCheck = { state: 'idle' | 'checking' | 'ok' | 'unknown' } | { state: 'problems'; problems: ServerProblem[] };

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
  if (!enabled) return { state: 'idle' };
  if (settled !== key || q.isPending) return { state: 'checking' };
  if (q.isError || !q.data) return { state: 'unknown' };
  const r = q.data;
  // The post being edited is no duplicate of itself (the server answers that duplicate alone).
  if (r.valid || (editing && r.duplicateOf?.existingPostId === editing)) return { state: 'ok' };
  // The rule id is part of each message ("... [rule x.y]"), as in every 400 of the API.
  const problems = r.errors.map((e) => {
    const rule = /\[rule ([\w.]+)\]/.exec(e.error)?.[1];
    return { ...(e.platform ? { platform: e.platform } : {}), field: e.field, message: e.error.replace(/\s*\[rule [\w.]+\]/, ''), ...(rule ? { rule } : {}) };
  });
  return { state: 'problems', problems };
}
