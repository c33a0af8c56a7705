/**
 * Calls to the YouTube Data API v3 with Google's error envelope
 * `{error:{code, message, errors:[{message, domain, reason}]}}` mapped to {@link AdapterError}
 * kinds (reasons from https://developers.google.com/youtube/v3/docs/errors), the Google
 * `reason` kept as `platformCode`:
 * - `quotaExceeded` (403): rate_limited until the quota resets at midnight Pacific time;
 * - `uploadLimitExceeded` (400): rate_limited for 24 hours (the channel's daily upload cap);
 * - `rateLimitExceeded`, `userRateLimitExceeded` (403 or 429): rate_limited (Retry-After, else backoff);
 * - `youtubeSignupRequired`: disconnected (the Google account has no channel);
 * - other 401: auth_expired (refresh, then once more);
 * - other 4xx: rejected with Google's message; 5xx and network failures: transient.
 * Source: https://developers.google.com/youtube/v3/docs/errors.
 */
import { retryAfterFrom, type HttpRequest, type HttpResponse } from '../http.ts';
import { AdapterError } from '../types.ts';
import { googleError, googleJsonCall } from '../google/google.ts';

/** Milliseconds until the next midnight in America/Los_Angeles (when YouTube quotas reset). */
export function msUntilPacificMidnight(now = Date.now()): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', hour12: false, hour: '2-digit', minute: '2-digit', second: '2-digit' })
    .formatToParts(new Date(now));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  // en-US with hour12 false writes midnight as "24".
  const elapsed = (((get('hour') % 24) * 60 + get('minute')) * 60 + get('second')) * 1000 + (now % 1000);
  return Math.max(1000, 24 * 3600_000 - elapsed);
}

/**
 * Maps a Google error response to an AdapterError (see the module docstring).
 * @param headers the response headers (Retry-After)
 */
export function mapGoogleError(status: number, body: unknown, headers: Headers | null, what = 'YouTube'): AdapterError {
  const { reason, message } = googleError(body, status);
  const text = `${what}: ${message}${reason ? ` (${reason})` : ''}`;
  const opts = { status, platformCode: reason };
  if (reason === 'quotaExceeded' || reason === 'dailyLimitExceeded') {
    return new AdapterError('rate_limited', `${text}; the YouTube API quota resets at midnight Pacific time`, { ...opts, retryAfterMs: msUntilPacificMidnight() });
  }
  if (reason === 'uploadLimitExceeded') return new AdapterError('rate_limited', `${text}; the channel reached its daily upload limit`, { ...opts, retryAfterMs: 24 * 3600_000 });
  if (reason === 'rateLimitExceeded' || reason === 'userRateLimitExceeded' || status === 429) {
    return new AdapterError('rate_limited', text, { ...opts, retryAfterMs: headers ? retryAfterFrom(headers) : undefined });
  }
  if (reason === 'youtubeSignupRequired') return new AdapterError('disconnected', `${text}: the Google account has no YouTube channel`, opts);
  if (status === 401) return new AdapterError('auth_expired', text, opts);
  if (status >= 500) return new AdapterError('transient', text, opts);
  return new AdapterError('rejected', text, opts);
}

/**
 * JSON call to a Google API.
 * @throws AdapterError as described in the module docstring.
 */
export function googleJson<T>(baseUrl: string, path: string, req: HttpRequest = {}): Promise<HttpResponse<T>> {
  return googleJsonCall<T>(baseUrl, path, req, (status, body, e) => {
    const mapped = mapGoogleError(status, body, null);
    // A rate limit without a reset time of its own waits for the answer's Retry-After.
    return mapped.kind === 'rate_limited' && mapped.opts.retryAfterMs === undefined && e.opts.retryAfterMs !== undefined
      ? new AdapterError('rate_limited', mapped.message, { ...mapped.opts, retryAfterMs: e.opts.retryAfterMs })
      : mapped;
  });
}
