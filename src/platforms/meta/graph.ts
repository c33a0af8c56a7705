/**
 * Meta Graph JSON calls shared by the Facebook (graph.facebook.com), Instagram and Threads
 * (graph.threads.net) adapters, with the Graph error envelope
 * `{error:{message, type, code, error_subcode, fbtrace_id}}` mapped to {@link AdapterError}
 * kinds (https://developers.facebook.com/docs/graph-api/guides/error-handling):
 * - code 190 (token invalid or expired) and 102 -> auth_expired (refresh, then reconnect);
 * - codes 4, 17, 32, 613, 80001, 341 -> rate_limited (no reset header: the publisher backs off);
 * - codes 1, 2 and `is_transient: true` -> transient;
 * - HTTP 401/429/5xx as in {@link httpJson}; anything else -> rejected with the platform's message.
 */
import { httpJson, type HttpRequest, type HttpResponse } from '../http.ts';
import { AdapterError } from '../types.ts';

/** The Graph error object (inside `{error: ...}`). */
export interface GraphError {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_msg?: string;
  is_transient?: boolean;
  fbtrace_id?: string;
}

export const GRAPH_THROTTLE_CODES = new Set([4, 17, 32, 613, 80001, 341]);

function graphMessage(body: unknown, status: number): string {
  const e = (body as { error?: GraphError } | null)?.error;
  if (!e) return `HTTP ${status}`;
  return e.error_user_msg ?? e.message ?? `HTTP ${status}`;
}

/** Maps a Graph error to an AdapterError (keeps the platform's message and code). */
export function mapGraphError(err: AdapterError, e: GraphError): AdapterError {
  const opts = {
    ...err.opts, platformCode: e.code !== undefined ? String(e.code) : err.opts.platformCode,
    platformSubcode: e.error_subcode !== undefined ? String(e.error_subcode) : err.opts.platformSubcode,
  };
  if (e.code === 190 || e.code === 102) return new AdapterError('auth_expired', err.message, opts);
  if (e.code !== undefined && GRAPH_THROTTLE_CODES.has(e.code)) return new AdapterError('rate_limited', err.message, opts);
  if (e.is_transient || e.code === 1 || e.code === 2) return new AdapterError('transient', err.message, opts);
  if (err.kind === 'auth_expired' || err.kind === 'rate_limited' || err.kind === 'transient') return new AdapterError(err.kind, err.message, opts);
  return new AdapterError('rejected', err.message, opts);
}

/**
 * True for the Graph answer to an object that does not exist (code 100, subcode 33: "Object with ID
 * ... does not exist, cannot be loaded due to missing permissions, or does not support this
 * operation"; https://developers.facebook.com/docs/graph-api/guides/error-handling).
 */
export const isGraphObjectMissing = (err: AdapterError) => err.opts.platformCode === '100' && err.opts.platformSubcode === '33';

/**
 * `httpJson` with the Graph error mapping.
 * @throws AdapterError (kinds as described in the module docstring).
 */
export async function graphJson<T>(baseUrl: string, path: string, req: HttpRequest = {}): Promise<HttpResponse<T>> {
  let errBody: GraphError | undefined;
  try {
    return await httpJson<T>(baseUrl, path, req, (body, status) => {
      errBody = (body as { error?: GraphError } | null)?.error;
      return graphMessage(body, status);
    });
  } catch (err) {
    if (err instanceof AdapterError && errBody) throw mapGraphError(err, errBody);
    throw err;
  }
}

/** A comment as the Graph comments edges answer it: Facebook sends `message`, Instagram `text`. */
export interface GraphComment { id: string; message?: string; text?: string; username?: string; from?: { id?: string; username?: string; name?: string } }

/**
 * The id of a comment on an object by `author` whose text is exactly `text`, or null: reads
 * every page of the object's comments (`fetch(after)`, following the `after` cursor while
 * `paging.next` is present). The first-comment step of verify uses it so that a comment
 * posted before an interrupted commit is recorded instead of posted again.
 * @throws AdapterError from `fetch`; Error when the comments run past `maxPages` pages.
 */
export async function graphFindComment(
  fetch: (after: string | undefined) => Promise<GraphListPage<GraphComment>>, author: { id: string; username?: string }, text: string, maxPages: number,
): Promise<string | null> {
  const r = await graphLookBack(fetch, () => undefined, new Date(0), maxPages);
  const mine = r.items.find((c) => (c.message ?? c.text) === text
    && (c.from?.id === author.id || (author.username !== undefined && (c.username ?? c.from?.username) === author.username)));
  if (mine) return mine.id;
  if (!r.complete) throw new Error(`the post has more than ${maxPages * 100} comments; the first comment was not checked`);
  return null;
}

/** One page of a Graph list edge (https://developers.facebook.com/docs/graph-api/results). */
export interface GraphListPage<T> {
  data?: T[];
  paging?: { cursors?: { before?: string; after?: string }; next?: string };
}

/**
 * Reads a Graph list edge (newest first) back to `since`: follows the `after` cursor while
 * `paging.next` is present (a short page does not mean the end), and stops at the first item
 * older than `since` or at the end of the list. `fetch(after)` reads one page with the
 * caller's filters. More than `maxPages` pages -> `complete: false` (the caller cannot tell).
 * @throws AdapterError from `fetch`.
 */
export async function graphLookBack<T>(
  fetch: (after: string | undefined) => Promise<GraphListPage<T>>, time: (item: T) => number | undefined, since: Date, maxPages: number,
): Promise<{ complete: true; items: T[] } | { complete: false; items: T[] }> {
  const items: T[] = [];
  // Graph times have second granularity.
  const from = Math.floor(since.getTime() / 1000) * 1000;
  let after: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const body = await fetch(after);
    const data = body.data ?? [];
    let older = false;
    for (const item of data) {
      const t = time(item);
      if (t !== undefined && t < from) { older = true; continue; }
      items.push(item);
    }
    after = body.paging?.cursors?.after;
    if (older || !body.paging?.next || !after) return { complete: true, items };
  }
  return { complete: false, items };
}

/** A Graph API insights answer (`GET /{id}/insights`): one entry per metric. */
export interface GraphInsights {
  data?: Array<{ name: string; period?: string; values?: Array<{ value: unknown }>; total_value?: { value: unknown } }>;
}

/**
 * The metrics of an insights answer by name: `total_value.value` or the latest `values[].value`;
 * a breakdown object (reactions by type) is summed. An empty answer (no data for this media) gives {}.
 * https://developers.facebook.com/docs/graph-api/reference/insights
 */
export function insightCounts(body: GraphInsights): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of body.data ?? []) {
    const v = m.total_value?.value ?? m.values?.at(-1)?.value;
    if (typeof v === 'number') out[m.name] = v;
    else if (v && typeof v === 'object') out[m.name] = Object.values(v).reduce<number>((s, x) => s + (typeof x === 'number' ? x : 0), 0);
  }
  return out;
}
