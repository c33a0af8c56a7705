/**
 * Calls to Reddit's OAuth API host (`https://oauth.reddit.com`), with what Reddit needs
 * beyond plain JSON (https://github.com/reddit-archive/reddit/wiki/API,
 * https://www.reddit.com/dev/api):
 * - a descriptive User-Agent on every call (Reddit throttles or bans generic ones);
 * - `Authorization: bearer <token>`;
 * - form endpoints answer HTTP 200 with `{"json":{"errors":[["CODE","message","field"],...]}}`
 *   on failure: those are mapped to {@link AdapterError} (RATELIMIT -> rate_limited with the
 *   wait from "try again in N minutes", every other code -> rejected with Reddit's text);
 * - `X-Ratelimit-Reset` counts SECONDS UNTIL the window ends (not a Unix time), so a 429
 *   waits that long.
 * HTTP 401 -> auth_expired, 429 -> rate_limited, 5xx and network failures -> transient,
 * other 4xx (403 banned or missing scope, 404 private or banned subreddit) -> rejected.
 * Docs: https://www.reddit.com/dev/api (mirrored in Pyprohly/reddit-api-doc-notes),
 * https://github.com/reddit-archive/reddit/wiki/API (User-Agent, rate-limit headers).
 */
import type { PlatformApp } from '../oauth.ts';
import { AdapterError } from '../types.ts';
import { guardVisibleCall } from '../call-guard.ts';

/** Herald's version in the User-Agent. */
export const HERALD_VERSION = '1.0';

/**
 * The User-Agent Reddit asks for: `<platform>:<app id>:<version> (by /u/<username>)`.
 * `contact` is the Reddit user responsible for the app, when known.
 */
export function redditUserAgent(clientId: string, contact?: string): string {
  return `server:herald.${clientId}:${HERALD_VERSION} (self-hosted scheduler${contact ? `; by /u/${contact}` : ''})`;
}

export interface RedditRequest {
  method?: 'GET' | 'POST';
  query?: Record<string, string | number | boolean | undefined>;
  form?: Record<string, string | undefined>;
  /** A JSON body (e.g. `/api/submit_gallery_post.json`). */
  json?: unknown;
  body?: FormData;
  token?: string;
  timeoutMs?: number;
}

/** One `[code, message, field]` entry of a Reddit `json.errors` array. */
export type RedditErrorTriple = [string, string, string?];

/** Parses the wait out of Reddit's RATELIMIT text ("try again in 7 minutes" / "in 30 seconds"). ms; default 10 minutes. */
export function redditRateLimitWait(message: string): number {
  const m = /(\d+)\s*(millisecond|second|minute|hour)/i.exec(message);
  if (!m) return 10 * 60_000;
  const n = Number(m[1]);
  const unit = m[2].toLowerCase();
  return n * (unit === 'millisecond' ? 1 : unit === 'second' ? 1000 : unit === 'minute' ? 60_000 : 3_600_000);
}

/** Maps a non-empty `json.errors` array. RATELIMIT -> rate_limited; everything else -> rejected. */
export function redditErrors(errors: RedditErrorTriple[]): AdapterError {
  const text = errors.map(([code, msg, field]) => `${code}: ${msg}${field ? ` (${field})` : ''}`).join('; ');
  const rl = errors.find(([code]) => code === 'RATELIMIT');
  if (rl) return new AdapterError('rate_limited', `Reddit: ${text}`, { retryAfterMs: redditRateLimitWait(rl[1]), platformCode: 'RATELIMIT' });
  return new AdapterError('rejected', `Reddit refused it: ${text}`, { platformCode: errors[0][0] });
}

function describe(body: unknown, status: number): string {
  const b = body as { message?: string; reason?: string; explanation?: string; error?: unknown } | null;
  const msg = b?.explanation ?? b?.reason ?? b?.message;
  return `Reddit answered HTTP ${status}${typeof msg === 'string' ? `: ${msg}` : ''}`;
}

/**
 * Calls `app.apiBaseUrl + path` (absolute URLs are used as given).
 * @returns the parsed JSON and headers.
 * @throws AdapterError as described in the module comment.
 */
export async function redditJson<T>(app: PlatformApp, path: string, req: RedditRequest = {}): Promise<{ status: number; headers: Headers; body: T }> {
  const url = new URL(/^https?:/.test(path) ? path : app.apiBaseUrl.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': redditUserAgent(app.clientId) };
  if (req.token) headers.authorization = `bearer ${req.token}`;
  let body: RequestInit['body'];
  if (req.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(req.json);
  } else if (req.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(Object.entries(req.form).filter((e): e is [string, string] => e[1] !== undefined)).toString();
  } else if (req.body) body = req.body;
  let res: Response;
  const fence = await guardVisibleCall(req.method ?? (body ? 'POST' : 'GET'), req.timeoutMs ?? 30_000);
  try {
    res = await fetch(url, { ...fence, method: req.method ?? (body ? 'POST' : 'GET'), headers, body, signal: AbortSignal.timeout(req.timeoutMs ?? 30_000) });
  } catch (err) {
    throw new AdapterError('transient', `${url.host}: ${(err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message}`);
  }
  const text = await res.text();
  let parsed: unknown = {};
  if (text) {
    try { parsed = JSON.parse(text); } catch { parsed = { message: text.slice(0, 500) }; }
  }
  if (res.status === 401) throw new AdapterError('auth_expired', describe(parsed, 401), { status: 401 });
  if (res.status === 429) {
    const reset = res.headers.get('x-ratelimit-reset') ?? res.headers.get('retry-after');
    const wait = reset && /^\d+(\.\d+)?$/.test(reset) ? Math.max(1000, Math.ceil(Number(reset)) * 1000) : 60_000;
    throw new AdapterError('rate_limited', describe(parsed, 429), { status: 429, retryAfterMs: wait });
  }
  if (res.status >= 500) throw new AdapterError('transient', describe(parsed, res.status), { status: res.status });
  if (!res.ok) throw new AdapterError('rejected', describe(parsed, res.status), { status: res.status });
  const errors = (parsed as { json?: { errors?: RedditErrorTriple[] } }).json?.errors;
  if (Array.isArray(errors) && errors.length > 0) throw redditErrors(errors);
  return { status: res.status, headers: res.headers, body: parsed as T };
}
