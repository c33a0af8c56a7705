/**
 * Small JSON-over-fetch helper shared by the OAuth platform adapters, with a timeout and
 * the mapping of HTTP failures to {@link AdapterError} kinds: 401 -> auth_expired,
 * 429 -> rate_limited (retry after the platform's reset header), other 4xx -> rejected
 * (the platform's message), 5xx and network failures -> transient.
 */
import { AdapterError, responseExcerpt } from './types.ts';
import { guardVisibleCall } from './call-guard.ts';

export interface HttpRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  form?: Record<string, string>;
  body?: Uint8Array | FormData;
  headers?: Record<string, string>;
  token?: string;
  timeoutMs?: number;
}

export interface HttpResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

/** Reads a retry delay (ms) from `retry-after` or an `x-rate-limit-reset`-style Unix-seconds header. */
export function retryAfterFrom(headers: Headers, resetHeader = 'x-rate-limit-reset', now = Date.now()): number | undefined {
  const ra = headers.get('retry-after');
  if (ra && /^\d+$/.test(ra)) return Number(ra) * 1000;
  const reset = headers.get(resetHeader);
  if (reset && /^\d+$/.test(reset)) return Math.max(1000, Number(reset) * 1000 - now);
  return undefined;
}

/**
 * Calls `baseUrl + path` and parses JSON. `describeError` turns an error body into the
 * platform's message.
 * @throws AdapterError on non-2xx, network failure or timeout.
 */
export async function httpJson<T>(baseUrl: string, path: string, req: HttpRequest = {}, describeError: (body: unknown, status: number) => string = defaultMessage): Promise<HttpResponse<T>> {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json', ...(req.headers ?? {}) };
  if (req.token) headers.authorization = `Bearer ${req.token}`;
  let body: RequestInit['body'];
  if (req.json !== undefined) { headers['content-type'] = 'application/json'; body = JSON.stringify(req.json); }
  else if (req.form) { headers['content-type'] = 'application/x-www-form-urlencoded'; body = new URLSearchParams(req.form).toString(); }
  else if (req.body) body = req.body as RequestInit['body'];
  let res: Response;
  const method = req.method ?? (body ? 'POST' : 'GET');
  const fence = await guardVisibleCall(method, req.timeoutMs ?? 30_000);
  try {
    res = await fetch(url, { ...fence, method, headers, body, signal: AbortSignal.timeout(req.timeoutMs ?? 30_000) });
  } catch (err) {
    throw new AdapterError('transient', `${url.host}: ${(err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message}`, { endpoint: `${method} ${url.pathname}` });
  }
  const text = await res.text();
  let parsed: unknown = {};
  if (text) {
    try { parsed = JSON.parse(text); } catch { parsed = { message: text.slice(0, 500) }; }
  }
  if (res.ok) return { status: res.status, headers: res.headers, body: parsed as T };
  const message = describeError(parsed, res.status);
  // For the publishing log: what was called and what the platform answered (secret-free, capped).
  const log = { status: res.status, endpoint: `${method} ${url.pathname}`, excerpt: responseExcerpt(text) };
  if (res.status === 401) throw new AdapterError('auth_expired', message, log);
  if (res.status === 429) throw new AdapterError('rate_limited', message, { ...log, retryAfterMs: retryAfterFrom(res.headers) });
  if (res.status >= 500) throw new AdapterError('transient', message, log);
  throw new AdapterError('rejected', message, log);
}

function defaultMessage(body: unknown, status: number): string {
  const b = body as Record<string, unknown> | null;
  const m = b && (b.detail ?? b.message ?? b.error_description ?? b.error ?? b.title);
  return typeof m === 'string' ? m : `HTTP ${status}`;
}
