/**
 * The composer's server check as a state (./server-check.ts asks, this says what the asking
 * came to), with no I/O so that it is tested on its own (test/web/composer-server-check.test.ts).
 */

/** One problem the server found: `platform` when it belongs to one, `field` as in a 400's details.fields. */
export interface ServerProblem { platform?: string; field: string; message: string; rule?: string }

/**
 * What the server said of the post: still asking, fine, or its problems. `unknown` when it could
 * not be asked (no answer, or an error answer): `reason` says which, `retry` asks again, and the
 * save will still check. Never "fine": the composer does not say a post fits on its own checks alone.
 */
export type ServerCheck =
  | { state: 'idle' | 'checking' | 'ok' }
  | { state: 'unknown'; reason: string; retry: () => void }
  | { state: 'problems'; problems: ServerProblem[] };

/** The parts of `POST /v1/tools/validate/post`'s answer the check reads. */
export interface ValidateAnswer {
  valid: boolean;
  errors: Array<{ platform?: string; field: string; error: string }>;
  duplicateOf?: { existingPostId?: string } | null;
}

/**
 * Why Herald could not be asked, in words: an error answer (the API's errors carry their HTTP
 * `status`, ../api.ts ApiError) by its status and message, else no answer at all (the network).
 */
export function couldNotCheckReason(err: unknown): string {
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status !== 'number') return 'Herald could not be reached';
  return status >= 500 ? `Herald answered with a server error (HTTP ${status})` : `Herald answered HTTP ${status}: ${(err as Error).message}`;
}

/**
 * The check's state from its query's: `enabled` once the composer's own checks pass, `current`
 * when the query is of the post as it is now (typing has paused), `editing` the post being edited
 * (its own content is no duplicate of itself).
 */
export function serverCheckOf(
  q: { enabled: boolean; current: boolean; pending: boolean; error: unknown; data: ValidateAnswer | undefined; retry: () => void },
  editing?: string,
): ServerCheck {
  if (!q.enabled) return { state: 'idle' };
  if (!q.current || q.pending) return { state: 'checking' };
  if (q.error || !q.data) return { state: 'unknown', reason: couldNotCheckReason(q.error), retry: q.retry };
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
