/**
 * Paging of Graph API list edges, shared by the Facebook, Instagram and Threads simulators,
 * as documented in https://developers.facebook.com/docs/graph-api/results:
 * - cursor-based: `limit` (the edge's maximum applies), `after` / `before` cursors in
 *   `paging.cursors`, and a `paging.next` link only while more data follows (its absence,
 *   not a short page, marks the end);
 * - time-based filters: `since` / `until` as a Unix timestamp (seconds) or a date string
 *   (strtotime-like), keeping items created within the range;
 * - cursors are opaque and only valid for the same filters; an unknown cursor is refused.
 * Items are given newest first.
 */

export interface GraphPageOptions<T> {
  /** Creation time of an item, ms since the epoch. */
  time(item: T): number;
  /** A stable key of an item (its id), encoded in the cursors. */
  key(item: T): string;
  /** Default `limit` (Graph: 25). */
  defaultLimit?: number;
  /** Largest `limit` accepted. */
  maxLimit: number;
  /**
   * Answer for a `limit` above the maximum: 'clamp' (the edge returns at most `maxLimit`) or
   * 'error' (the edge refuses the call). Default 'clamp'.
   */
  overLimit?: 'clamp' | 'error';
  /** Builds the URL of another page from the request's query with the paging parameters changed. */
  link(query: Record<string, string>): string;
}

export type GraphPage<T> =
  | { ok: true; data: T[]; paging: { cursors: { before: string; after: string }; next?: string; previous?: string } }
  | { ok: false; message: string };

const encode = (key: string) => Buffer.from(`c:${key}`).toString('base64url');
const decode = (cursor: string) => {
  const s = Buffer.from(cursor, 'base64url').toString();
  return s.startsWith('c:') ? s.slice(2) : null;
};

/** A Graph time parameter: Unix seconds or a date string; ms, or null when invalid. */
export function graphTimeParam(v: string): number | null {
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t;
}

export function graphPage<T>(items: T[], query: Record<string, string | undefined>, o: GraphPageOptions<T>): GraphPage<T> {
  const q = Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === 'string'));
  let limit = q.limit === undefined ? (o.defaultLimit ?? 25) : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1) return { ok: false, message: '(#100) The parameter limit must be a positive integer' };
  if (limit > o.maxLimit) {
    if (o.overLimit === 'error') return { ok: false, message: `(#100) The limit parameter should not exceed ${o.maxLimit}` };
    limit = o.maxLimit;
  }
  let filtered = items;
  for (const name of ['since', 'until'] as const) {
    if (q[name] === undefined) continue;
    const t = graphTimeParam(q[name]);
    if (t === null) return { ok: false, message: `(#100) The parameter ${name} must be a Unix timestamp or a date` };
    // Graph compares at second granularity.
    filtered = filtered.filter((x) => { const s = Math.floor(o.time(x) / 1000) * 1000; return name === 'since' ? s >= t : s <= t; });
  }
  let start = 0;
  let end: number | null = null;
  if (q.after !== undefined) {
    const k = decode(q.after);
    const i = k === null ? -1 : filtered.findIndex((x) => o.key(x) === k);
    if (i < 0) return { ok: false, message: '(#100) The after cursor is invalid or the item it points at no longer exists' };
    start = i + 1;
  } else if (q.before !== undefined) {
    const k = decode(q.before);
    const i = k === null ? -1 : filtered.findIndex((x) => o.key(x) === k);
    if (i < 0) return { ok: false, message: '(#100) The before cursor is invalid or the item it points at no longer exists' };
    end = i;
    start = Math.max(0, i - limit);
  }
  const data = filtered.slice(start, end ?? start + limit);
  const stop = start + data.length;
  const { after: _a, before: _b, ...rest } = q;
  const cursors = { before: data.length ? encode(o.key(data[0])) : '', after: data.length ? encode(o.key(data[data.length - 1])) : '' };
  return {
    ok: true, data,
    paging: {
      cursors,
      ...(data.length && stop < filtered.length ? { next: o.link({ ...rest, limit: String(limit), after: cursors.after }) } : {}),
      ...(data.length && start > 0 ? { previous: o.link({ ...rest, limit: String(limit), before: cursors.before }) } : {}),
    },
  };
}
