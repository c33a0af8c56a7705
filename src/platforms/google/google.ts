/**
 * What every Google API Herald calls shares (YouTube Data API v3, the Business Profile APIs), as
 * the Meta platforms share ../meta/graph.ts: the OAuth 2.0 authorization URL of a web server app
 * (https://developers.google.com/identity/protocols/oauth2/web-server) and the reading of Google's
 * error bodies, both the v3 envelope `{error:{code, message, errors:[{reason}]}}`
 * (https://developers.google.com/youtube/v3/docs/errors) and the newer one
 * `{error:{code, message, status, details:[{reason, fieldViolations}]}}`
 * (https://cloud.google.com/apis/design/errors), and the OAuth endpoint's `{error, error_description}`.
 */
import { httpJson, type HttpRequest, type HttpResponse } from '../http.ts';
import type { AuthorizeParams, PlatformApp } from '../oauth.ts';
import { AdapterError } from '../types.ts';

interface GoogleErrorBody {
  error?: {
    code?: number; message?: string; status?: string;
    errors?: Array<{ message?: string; domain?: string; reason?: string }>;
    details?: Array<{ '@type'?: string; reason?: string; fieldViolations?: Array<{ field?: string; description?: string }> }>;
  } | string;
  error_description?: string;
}

/**
 * Google's `status` (e.g. PERMISSION_DENIED), first `reason` (e.g. quotaExceeded) and message (with
 * the request's field violations, "field: description") from an error body.
 */
export function googleError(body: unknown, status: number): { status?: string; reason?: string; message: string } {
  const b = body as GoogleErrorBody | null;
  if (b && typeof b.error === 'object' && b.error) {
    const details = b.error.details ?? [];
    const violations = details.flatMap((d) => d.fieldViolations ?? []).map((v) => `${v.field ?? '?'}: ${v.description ?? ''}`);
    const message = `${b.error.message ?? b.error.errors?.[0]?.message ?? `HTTP ${status}`}${violations.length ? ` (${violations.join('; ')})` : ''}`;
    return { status: b.error.status, reason: b.error.errors?.[0]?.reason ?? details.find((d) => d.reason)?.reason, message };
  }
  if (b && typeof b.error === 'string') return { status: b.error, reason: b.error, message: b.error_description ? `${b.error} (${b.error_description})` : b.error };
  return { message: `HTTP ${status}` };
}

/**
 * The authorization URL for `scopes`: offline access (a refresh token), the consent screen every
 * time (so a refresh token is sent again on a reconnect), incremental scopes, PKCE S256 when given.
 */
export function googleAuthorizeUrl(app: PlatformApp, scopes: readonly string[], p: AuthorizeParams): string {
  const u = new URL(`${app.authBaseUrl}/o/oauth2/v2/auth`);
  u.search = new URLSearchParams({
    client_id: app.clientId, redirect_uri: p.redirectUri, response_type: 'code', scope: scopes.join(' '),
    access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true', state: p.state,
    ...(p.codeChallenge ? { code_challenge: p.codeChallenge, code_challenge_method: 'S256' } : {}),
  }).toString();
  return u.toString();
}

/**
 * JSON call to a Google API: a failed answer (an AdapterError from httpJson carrying its HTTP status)
 * is handed to the platform's `mapError` with Google's error body and the generic error (its
 * Retry-After, endpoint and excerpt), and what it answers is thrown.
 * @throws AdapterError from `mapError`, or httpJson's own for network failures.
 */
export async function googleJsonCall<T>(baseUrl: string, path: string, req: HttpRequest,
  mapError: (status: number, body: unknown, generic: AdapterError) => AdapterError): Promise<HttpResponse<T>> {
  let errBody: unknown;
  try {
    return await httpJson<T>(baseUrl, path, req, (body, status) => {
      errBody = body;
      return googleError(body, status).message;
    });
  } catch (e) {
    if (!(e instanceof AdapterError) || e.opts.status === undefined) throw e;
    throw mapError(e.opts.status, errBody, e);
  }
}
