/**
 * Calls to a Mastodon instance (https://docs.joinmastodon.org/api/guidelines/): JSON over fetch
 * with the instance's error shape `{"error": "..."}` (https://docs.joinmastodon.org/entities/Error/).
 * Mastodon tokens never expire (https://docs.joinmastodon.org/api/oauth-tokens/), so a 401 means
 * the token was revoked: `disconnected` (reconnect). A 429's wait comes from `X-RateLimit-Reset`
 * (an ISO 8601 time, https://docs.joinmastodon.org/api/rate-limits/).
 */
import { guardVisibleCall } from '../call-guard.ts';
import { AdapterError, responseExcerpt } from '../types.ts';

export interface MastodonRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  form?: Record<string, string>;
  body?: FormData;
  token?: string;
  /** The `Idempotency-Key` header (POST /api/v1/statuses keeps it for an hour). */
  idempotencyKey?: string;
  timeoutMs?: number;
}

export interface MastodonResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

/** `{"error": ...}` as the message (OAuth errors add `error_description`). */
function describe(body: unknown, status: number): string {
  const b = body as { error?: unknown; error_description?: unknown } | null;
  const e = typeof b?.error === 'string' ? b.error : `HTTP ${status}`;
  return typeof b?.error_description === 'string' ? `${e}: ${b.error_description}` : e;
}

/** Milliseconds until `X-RateLimit-Reset` (ISO 8601), at least 1 s; 5 minutes (the API window) when absent. */
export function mastodonRetryAfter(headers: Headers, now = Date.now()): number {
  const reset = headers.get('x-ratelimit-reset');
  const at = reset ? Date.parse(reset) : NaN;
  return Number.isFinite(at) ? Math.max(1000, at - now) : 5 * 60_000;
}

/**
 * Calls `instanceUrl + path` (or an absolute URL, for `Link` header pages).
 * @throws AdapterError: `disconnected` (401: the token was revoked), `rate_limited` (429, with
 *   the wait from X-RateLimit-Reset), `rejected` (other 4xx, the instance's message, with
 *   `platformCode` the OAuth `error` where there is one), `transient` (5xx, network, timeout).
 */
export async function mastodonJson<T>(instanceUrl: string, path: string, req: MastodonRequest = {}): Promise<MastodonResponse<T>> {
  const url = new URL(/^https?:\/\//.test(path) ? path : instanceUrl.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json' };
  if (req.token) headers.authorization = `Bearer ${req.token}`;
  if (req.idempotencyKey) headers['idempotency-key'] = req.idempotencyKey;
  let body: RequestInit['body'];
  if (req.json !== undefined) { headers['content-type'] = 'application/json'; body = JSON.stringify(req.json); }
  else if (req.form) { headers['content-type'] = 'application/x-www-form-urlencoded'; body = new URLSearchParams(req.form).toString(); }
  else if (req.body) body = req.body;
  const method = req.method ?? (body ? 'POST' : 'GET');
  const endpoint = `${method} ${url.pathname}`;
  const timeoutMs = req.timeoutMs ?? 30_000;
  const fence = await guardVisibleCall(method, timeoutMs);
  let res: Response;
  try {
    res = await fetch(url, { ...fence, method, headers, body, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new AdapterError('transient', `${url.host}: ${(err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message}`, { endpoint });
  }
  const text = await res.text();
  let parsed: unknown = {};
  if (text) {
    try { parsed = JSON.parse(text); } catch { parsed = { error: text.slice(0, 300) }; }
  }
  if (res.ok) return { status: res.status, headers: res.headers, body: parsed as T };
  const message = describe(parsed, res.status);
  const oauthError = (parsed as { error?: unknown }).error;
  const log = { status: res.status, endpoint, excerpt: responseExcerpt(text), ...(typeof oauthError === 'string' && /^[a-z_]+$/.test(oauthError) ? { platformCode: oauthError } : {}) };
  if (res.status === 401 && url.pathname !== '/oauth/token') throw new AdapterError('disconnected', `Mastodon refused the access token (${message}); reconnect the account`, log);
  if (res.status === 429) throw new AdapterError('rate_limited', message, { ...log, retryAfterMs: mastodonRetryAfter(res.headers) });
  if (res.status >= 500) throw new AdapterError('transient', message, log);
  throw new AdapterError('rejected', message, log);
}
