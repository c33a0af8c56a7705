/**
 * Calls to LinkedIn's versioned REST API (`/rest/*`) with the headers every call needs
 * (`LinkedIn-Version: YYYYMM`, `X-Restli-Protocol-Version: 2.0.0`, bearer token), and
 * LinkedIn's error body `{status, serviceErrorCode, code, message}` mapped to
 * {@link AdapterError} (limits: https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/rate-limits;
 * tokens: https://learn.microsoft.com/en-us/linkedin/shared/authentication/programmatic-refresh-tokens):
 * - 401 with serviceErrorCode 65601 / code REVOKED_ACCESS_TOKEN -> disconnected (reconnect);
 * - other 401 (e.g. EXPIRED_ACCESS_TOKEN) -> auth_expired (refresh, else reconnect);
 * - 429 -> rate_limited; LinkedIn's daily limits reset at midnight UTC and no reset header
 *   is documented, so without `Retry-After` the retry waits until the next UTC midnight;
 * - 422 "Content is a duplicate of urn:li:share:NNN" -> rejected with platformCode DUPLICATE_POST;
 * - other 4xx -> rejected with LinkedIn's message; 5xx and network failures -> transient.
 * Source: https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/error-handling.
 */
import { httpJson, type HttpRequest, type HttpResponse } from '../http.ts';
import { AdapterError } from '../types.ts';

/**
 * The `LinkedIn-Version` sent by default. Versions are retired about a year after release,
 * so this must be moved forward periodically (LinkedInOptions.apiVersion overrides it).
 */
export const LINKEDIN_API_VERSION = '202601';

export interface LinkedInErrorBody { status?: number; serviceErrorCode?: number; code?: string; message?: string }

/** Milliseconds until the next midnight UTC. */
export function msUntilUtcMidnight(now = Date.now()): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) - now;
}

/** The urn named by a DUPLICATE_POST message ("Content is a duplicate of urn:li:share:123"). */
export function duplicateOf(message: string): string | null {
  return /duplicate of (urn:li:(?:share|ugcPost):\d+)/i.exec(message)?.[1] ?? null;
}

/**
 * Calls the LinkedIn API. `rest` (default true) adds the versioning headers.
 * @throws AdapterError as described in the module docstring.
 */
export async function linkedinJson<T>(baseUrl: string, path: string, req: HttpRequest & { version?: string; rest?: boolean } = {}): Promise<HttpResponse<T>> {
  const { version, rest = true, ...r } = req;
  const headers = { ...(rest ? { 'LinkedIn-Version': version ?? LINKEDIN_API_VERSION, 'X-Restli-Protocol-Version': '2.0.0' } : {}), ...(r.headers ?? {}) };
  let err: LinkedInErrorBody | undefined;
  try {
    return await httpJson<T>(baseUrl, path, { ...r, headers }, (body, status) => {
      err = body as LinkedInErrorBody;
      return err?.message ?? `HTTP ${status}`;
    });
  } catch (e) {
    if (!(e instanceof AdapterError)) throw e;
    const opts = { ...e.opts, platformCode: err?.code ?? (err?.serviceErrorCode !== undefined ? String(err.serviceErrorCode) : undefined) };
    if (e.opts.status === 401 && (err?.serviceErrorCode === 65601 || err?.code === 'REVOKED_ACCESS_TOKEN')) {
      throw new AdapterError('disconnected', `LinkedIn: ${e.message}`, opts);
    }
    if (e.kind === 'rate_limited') throw new AdapterError('rate_limited', `LinkedIn: ${e.message}`, { ...opts, retryAfterMs: e.opts.retryAfterMs ?? msUntilUtcMidnight() });
    if (e.opts.status === 422 && duplicateOf(e.message)) throw new AdapterError('rejected', `LinkedIn: ${e.message}`, { ...opts, platformCode: 'DUPLICATE_POST' });
    throw new AdapterError(e.kind, `LinkedIn: ${e.message}`, opts);
  }
}
