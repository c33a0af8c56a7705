/**
 * JSON calls to the TikTok Open API (open.tiktokapis.com), with TikTok's envelope
 * `{data:{...}, error:{code, message, log_id}}` (success is `error.code == "ok"`) mapped to
 * {@link AdapterError} kinds (error codes from
 * https://developers.tiktok.com/doc/content-posting-api-reference-direct-post):
 * - `access_token_invalid` -> auth_expired (refresh, then reconnect);
 * - `scope_not_authorized`, `scope_permission_missed` -> disconnected (reconnect granting the scopes);
 * - `rate_limit_exceeded` -> rate_limited (TikTok documents no reset header: the per-minute
 *   windows mean one minute by default);
 * - `internal` and HTTP 5xx -> transient;
 * - everything else (`spam_risk_too_many_posts`, `privacy_level_option_mismatch`,
 *   `unaudited_client_can_only_post_to_private_accounts`, `url_ownership_unverified`,
 *   `invalid_params`, ...) -> rejected with TikTok's message and code.
 */
import { retryAfterFrom, type HttpRequest } from '../http.ts';
import { AdapterError, type AdapterErrorKind } from '../types.ts';
import { guardVisibleCall } from '../call-guard.ts';

export interface TikTokError { code?: string; message?: string; log_id?: string }

const KIND_BY_CODE: Record<string, AdapterErrorKind> = {
  access_token_invalid: 'auth_expired',
  scope_not_authorized: 'disconnected',
  scope_permission_missed: 'disconnected',
  rate_limit_exceeded: 'rate_limited',
  internal: 'transient',
};

/** Wait after `rate_limit_exceeded` when no header says more: TikTok's limits are per minute. */
export const TIKTOK_RATE_LIMIT_WAIT_MS = 60_000;

function describe(e: TikTokError | undefined, status: number): string {
  if (!e?.code) return `TikTok answered HTTP ${status}`;
  return `TikTok: ${e.message || e.code} (${e.code})`;
}

/** Maps a TikTok error object and HTTP status to an AdapterError. */
export function mapTikTokError(e: TikTokError | undefined, status: number, headers?: Headers): AdapterError {
  const message = describe(e, status);
  const opts = { status, platformCode: e?.code };
  const byCode = e?.code ? KIND_BY_CODE[e.code] : undefined;
  if (byCode === 'disconnected') return new AdapterError('disconnected', `${message}: reconnect the TikTok account and grant the requested scopes`, opts);
  if (byCode === 'rate_limited' || status === 429) {
    return new AdapterError('rate_limited', message, { ...opts, retryAfterMs: (headers && retryAfterFrom(headers)) ?? TIKTOK_RATE_LIMIT_WAIT_MS });
  }
  if (byCode) return new AdapterError(byCode, message, opts);
  if (status === 401) return new AdapterError('auth_expired', message, opts);
  if (status >= 500) return new AdapterError('transient', message, opts);
  return new AdapterError('rejected', message, opts);
}

/**
 * JSON with integers beyond 2^53 kept exact: TikTok ids (e.g. `publicaly_available_post_id`,
 * video ids) are 19-digit integers, which JSON.parse would round; they become strings.
 */
export function parseTikTokJson(text: string): unknown {
  return JSON.parse(text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"$2"'));
}

/**
 * Calls the TikTok API and returns `data`.
 * @throws AdapterError (kinds as described in the module docstring; network failures and timeouts are transient).
 */
export async function tiktokJson<T>(baseUrl: string, path: string, req: HttpRequest = {}): Promise<T> {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json', ...(req.headers ?? {}) };
  if (req.token) headers.authorization = `Bearer ${req.token}`;
  let body: string | undefined;
  if (req.json !== undefined) { headers['content-type'] = 'application/json; charset=UTF-8'; body = JSON.stringify(req.json); }
  let res: Response;
  let text: string;
  const fence = await guardVisibleCall(req.method ?? (body ? 'POST' : 'GET'), req.timeoutMs ?? 30_000);
  try {
    res = await fetch(url, { ...fence, method: req.method ?? (body ? 'POST' : 'GET'), headers, body, signal: AbortSignal.timeout(req.timeoutMs ?? 30_000) });
    text = await res.text();
  } catch (err) {
    throw new AdapterError('transient', `${url.host}: ${(err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message}`);
  }
  let parsed: { data?: T; error?: TikTokError } = {};
  if (text) {
    try { parsed = parseTikTokJson(text) as typeof parsed; } catch { parsed = { error: { message: text.slice(0, 300) } }; }
  }
  const e = parsed.error && typeof parsed.error === 'object' ? parsed.error : undefined;
  if (!res.ok || (e?.code && e.code !== 'ok')) throw mapTikTokError(e, res.ok ? 400 : res.status, res.headers);
  return (parsed.data ?? {}) as T;
}
