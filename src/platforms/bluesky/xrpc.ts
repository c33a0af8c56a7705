/**
 * Minimal XRPC-over-fetch client and the mapping of XRPC failures to {@link AdapterError} kinds.
 *
 * XRPC error bodies are `{"error":"<Name>","message":"<text>"}` (the atproto XRPC convention;
 * error names in the lexicons, https://github.com/bluesky-social/atproto/tree/main/lexicons).
 * Raw fetch (rather than the `@atproto/api` agent) keeps full control over which host is called
 * (entryway for sessions, the account's PDS for data), over retries, and over the response headers
 * needed for rate limits.
 */
import { AdapterError } from '../types.ts';

/** A failed XRPC call. `status` is 0 for network failures and timeouts (`error` is then `NetworkError`/`Timeout`). */
export class XrpcRequestError extends Error {
  constructor(
    readonly nsid: string,
    readonly status: number,
    readonly error: string,
    message: string,
    readonly headers: Headers | null = null,
  ) {
    super(message);
    this.name = 'XrpcRequestError';
  }
}

export interface XrpcRequest {
  /** Defaults to POST when `json` or `bytes` is given, else GET. */
  method?: 'GET' | 'POST';
  query?: Record<string, string | string[] | undefined>;
  /** JSON body. */
  json?: unknown;
  /** Raw body (uploadBlob), sent with `contentType`. */
  bytes?: Uint8Array;
  contentType?: string;
  /** Bearer token (access JWT, or the refresh JWT for refreshSession). */
  token?: string;
  /** Per-request timeout in milliseconds (default 30,000). */
  timeoutMs?: number;
}

export type FetchFn = typeof globalThis.fetch;

/**
 * Calls `{baseUrl}/xrpc/{nsid}` and returns the parsed JSON body (or `{}` for an empty body).
 * @throws XrpcRequestError on a non-2xx answer, a network failure or a timeout.
 */
export async function xrpc<T>(fetchFn: FetchFn, baseUrl: string, nsid: string, req: XrpcRequest = {}): Promise<T> {
  const url = new URL(`/xrpc/${nsid}`, baseUrl);
  for (const [k, v] of Object.entries(req.query ?? {})) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, one);
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: RequestInit['body'];
  if (req.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(req.json);
  } else if (req.bytes !== undefined) {
    headers['content-type'] = req.contentType ?? 'application/octet-stream';
    body = req.bytes;
  }
  if (req.token) headers.authorization = `Bearer ${req.token}`;
  const method = req.method ?? (body !== undefined ? 'POST' : 'GET');
  let res: Response;
  let text: string;
  try {
    res = await fetchFn(url, { method, headers, body, signal: AbortSignal.timeout(req.timeoutMs ?? 30_000) });
    text = await res.text();
  } catch (err) {
    const e = err as Error;
    const timeout = e?.name === 'TimeoutError' || e?.name === 'AbortError';
    const cause = (e as { cause?: { code?: string; message?: string } })?.cause;
    const detail = cause?.code ?? cause?.message ?? e?.message ?? String(err);
    throw new XrpcRequestError(nsid, 0, timeout ? 'Timeout' : 'NetworkError', `${timeout ? 'timed out' : 'network error'} calling ${url.origin} (${nsid}): ${detail}`);
  }
  let parsed: unknown = {};
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = { message: text.slice(0, 300) };
    }
  }
  if (!res.ok) {
    const b = (parsed ?? {}) as { error?: unknown; message?: unknown };
    const error = typeof b.error === 'string' ? b.error : `HTTP${res.status}`;
    const message = typeof b.message === 'string' && b.message ? b.message : res.statusText || error;
    throw new XrpcRequestError(nsid, res.status, error, message, res.headers);
  }
  return parsed as T;
}

/** XRPC error names meaning the account itself is unusable until the user acts. */
const ACCOUNT_ERRORS = new Set(['AccountTakedown', 'AccountDeactivated', 'AccountSuspended', 'AuthFactorTokenRequired']);
/** XRPC error names meaning the presented token is not (or no longer) accepted. */
export const TOKEN_ERRORS = new Set(['ExpiredToken', 'InvalidToken', 'AuthenticationRequired', 'AuthMissing']);

export function isTokenError(e: unknown): e is XrpcRequestError {
  return e instanceof XrpcRequestError && (TOKEN_ERRORS.has(e.error) || e.status === 401);
}

/**
 * Milliseconds to wait after a 429: from the IETF draft `RateLimit-Reset` header (Unix seconds, as
 * the Bluesky PDS sends it), else `Retry-After` (seconds), else 60 s.
 */
export function retryAfterMs(headers: Headers | null, nowMs: number = Date.now()): number {
  const reset = Number(headers?.get('ratelimit-reset'));
  if (Number.isFinite(reset) && reset > 0) {
    // Unix seconds; tolerate a delta-seconds value too.
    const ms = reset > 1e9 ? reset * 1000 - nowMs : reset * 1000;
    return Math.max(1000, Math.ceil(ms));
  }
  const ra = Number(headers?.get('retry-after'));
  if (Number.isFinite(ra) && ra > 0) return Math.max(1000, ra * 1000);
  return 60_000;
}

/**
 * Maps any failure to an {@link AdapterError}:
 * - 429 / `RateLimitExceeded` → `rate_limited` (with `retryAfterMs`)
 * - `ExpiredToken` → `auth_expired` (callers refresh and retry once before letting it out)
 * - `InvalidToken`, `AuthenticationRequired`, 401/403, `AccountTakedown`, ... → `disconnected`
 * - network errors, timeouts, 5xx → `transient`
 * - other 4xx (`InvalidRequest`, `BlobTooLarge`, ...) → `rejected` with the platform's message
 * - anything else that is not an XRPC error (a bug, an unexpected exception) → `transient`
 */
export function toAdapterError(e: unknown, nowMs: number = Date.now()): AdapterError {
  if (e instanceof AdapterError) return e;
  if (!(e instanceof XrpcRequestError)) {
    return new AdapterError('transient', `Bluesky: ${(e as Error)?.message ?? String(e)}`);
  }
  const opts = { platformCode: e.error, status: e.status || undefined };
  if (e.status === 429 || e.error === 'RateLimitExceeded') {
    return new AdapterError('rate_limited', `Bluesky rate limit reached (${e.message})`, { ...opts, retryAfterMs: retryAfterMs(e.headers, nowMs) });
  }
  if (e.error === 'ExpiredToken') return new AdapterError('auth_expired', `Bluesky session expired: ${e.message}`, opts);
  if (TOKEN_ERRORS.has(e.error) || ACCOUNT_ERRORS.has(e.error) || e.status === 401 || e.status === 403) {
    return new AdapterError('disconnected', `Bluesky refused the account's credentials (${e.error}: ${e.message}); reconnect the account`, opts);
  }
  if (e.status === 0 || e.status >= 500) return new AdapterError('transient', `Bluesky is unavailable: ${e.message}`, opts);
  return new AdapterError('rejected', e.message, opts);
}
