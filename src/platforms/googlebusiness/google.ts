/**
 * Calls to the Google Business Profile APIs with Google's error model
 * `{error: {code, message, status, details}}` (https://cloud.google.com/apis/design/errors)
 * mapped to {@link AdapterError} kinds, the `status` kept as `platformCode`:
 * - 401 UNAUTHENTICATED: `auth_expired` (the caller refreshes once; a refused fresh token is
 *   `disconnected`, see the adapter's `call`);
 * - 403 PERMISSION_DENIED: `disconnected` (the user lost access to the location, or Business
 *   Profile is disabled for the Google Workspace organization: https://developers.google.com/my-business/content/basic-setup);
 * - 429 RESOURCE_EXHAUSTED: `rate_limited` (Retry-After when sent; a project whose quota is 0
 *   has not been approved for the API yet: https://developers.google.com/my-business/content/limits);
 * - other 4xx (400 INVALID_ARGUMENT, 404 NOT_FOUND): `rejected` with Google's message and the
 *   `google.rpc.BadRequest` field violations ("field: description");
 * - 5xx and network failures: `transient`.
 *
 * The four hosts (v4 posts, Account Management, Business Information, Performance) are separate
 * on Google; a configured `apiBaseUrl` other than the default (a simulator or proxy) serves them all.
 */
import type { HttpRequest, HttpResponse } from '../http.ts';
import type { PlatformApp } from '../oauth.ts';
import { AdapterError } from '../types.ts';
import { googleError, googleJsonCall } from '../google/google.ts';

/** The default hosts (https://developers.google.com/my-business/content/basic-setup). */
export const GBP_HOSTS = {
  posts: 'https://mybusiness.googleapis.com',
  accounts: 'https://mybusinessaccountmanagement.googleapis.com',
  locations: 'https://mybusinessbusinessinformation.googleapis.com',
} as const;

/** The base URL of one API: Google's own host, or the configured one for all of them. */
export function gbpHost(app: PlatformApp, api: keyof typeof GBP_HOSTS): string {
  return app.apiBaseUrl === GBP_HOSTS.posts ? GBP_HOSTS[api] : app.apiBaseUrl;
}

/** Maps a Google error answer to an AdapterError (see the module docstring). */
export function mapGoogleError(status: number, body: unknown, retryAfterMs: number | undefined, log: { endpoint?: string; excerpt?: string }): AdapterError {
  const g = googleError(body, status);
  const text = `Google Business Profile: ${g.message}`;
  const opts = { status, platformCode: g.status, platformSubcode: g.reason, ...log };
  if (status === 429 || g.status === 'RESOURCE_EXHAUSTED') return new AdapterError('rate_limited', text, { ...opts, retryAfterMs });
  if (status === 401) return new AdapterError('auth_expired', text, opts);
  if (status === 403) return new AdapterError('disconnected', `${text}; the connected Google account can no longer manage this location: reconnect the account`, opts);
  if (status >= 500) return new AdapterError('transient', text, opts);
  return new AdapterError('rejected', text, opts);
}

/**
 * JSON call to a Google Business Profile API.
 * @throws AdapterError as described in the module docstring.
 */
export function gbpJson<T>(baseUrl: string, path: string, req: HttpRequest = {}): Promise<HttpResponse<T>> {
  return googleJsonCall<T>(baseUrl, path, req, (status, body, e) => mapGoogleError(status, body, e.opts.retryAfterMs, { endpoint: e.opts.endpoint, excerpt: e.opts.excerpt }));
}
