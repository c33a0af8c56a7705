/**
 * Pinterest API v5 calls: {@link httpJson} with Pinterest's error body
 * `{"code": <int>, "message": "<text>"}` (the `Error` schema of Pinterest's OpenAPI
 * description, https://github.com/pinterest/api-description, v5/openapi.json) turned into the
 * message, and a default wait for a 429 that names none.
 * Docs: https://developers.pinterest.com/docs/reference/rate-limits/
 */
import { httpJson, type HttpRequest, type HttpResponse } from '../http.ts';
import { AdapterError } from '../types.ts';

/**
 * Wait after a 429 when the answer has no `retry-after` (ms). Pinterest's per-category
 * limits are per minute on Standard access; the reset headers are UNCONFIRMED, so this
 * is a constant: one minute.
 */
export const PINTEREST_RATE_LIMIT_WAIT_MS = 60_000;

export function pinterestMessage(body: unknown, status: number): string {
  const b = body as { code?: number; message?: string } | null;
  return b && typeof b.message === 'string' ? `Pinterest: ${b.message}${typeof b.code === 'number' ? ` (code ${b.code})` : ''}` : `Pinterest answered HTTP ${status}`;
}

/** @throws AdapterError: 401 auth_expired, 429 rate_limited, 5xx transient, other 4xx rejected (Pinterest's message). */
export async function pinterestJson<T>(baseUrl: string, path: string, req: HttpRequest = {}): Promise<HttpResponse<T>> {
  try {
    return await httpJson<T>(baseUrl, path, req, pinterestMessage);
  } catch (err) {
    if (err instanceof AdapterError && err.kind === 'rate_limited' && err.opts.retryAfterMs === undefined) {
      throw new AdapterError('rate_limited', err.message, { ...err.opts, retryAfterMs: PINTEREST_RATE_LIMIT_WAIT_MS });
    }
    throw err;
  }
}
