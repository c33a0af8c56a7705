/**
 * The rate-limit fields of a limited answer, in both forms (docs/decisions/0006-rate-limit-headers.md
 * and 0063-validation-error-categories-scoped-keys.md):
 *   - `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (Unix seconds), which the
 *     official client reads;
 *   - `RateLimit-Policy` and `RateLimit`, the structured fields of the IETF draft "RateLimit header
 *     fields for HTTP" (https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/,
 *     revisions 08 to 11): a policy item `"name";q=<quota>;w=<window seconds>` and the service limit
 *     `"name";r=<remaining>;t=<seconds until the window resets>`, the policy named by the same
 *     String in both;
 *   - `Retry-After` (seconds, RFC 9110 section 10.2.3) on a 429.
 * A 429 raised anywhere else gets its Retry-After in src/http/errors.ts from {@link retryAfterOf}.
 */
import type { FastifyReply } from 'fastify';

/** One limit's state for an answer: its policy name, quota per window, window length, what is left and when it resets. */
export interface RateLimitState {
  /** The policy's name (an sf-string: letters, digits, '-' and '_' here). */
  policy: string;
  /** Requests allowed per window. */
  limit: number;
  /** The window's length, seconds. */
  windowSeconds: number;
  /** Requests left in this window (0 when over). */
  remaining: number;
  /** When the window ends, Unix seconds. */
  resetAt: number;
  /** Now, ms since the epoch. */
  nowMs: number;
}

/** Seconds from `nowMs` until `resetAt` (Unix seconds), at least 1. */
export function secondsUntil(resetAt: number, nowMs: number): number {
  return Math.max(1, resetAt - Math.floor(nowMs / 1000));
}

/** `RateLimit-Policy` of a state: `"api";q=60;w=60`. */
export function rateLimitPolicyField(s: Pick<RateLimitState, 'policy' | 'limit' | 'windowSeconds'>): string {
  return `"${s.policy}";q=${s.limit};w=${s.windowSeconds}`;
}

/** `RateLimit` of a state: `"api";r=12;t=37`. */
export function rateLimitField(s: RateLimitState): string {
  return `"${s.policy}";r=${Math.max(0, s.remaining)};t=${Math.max(0, s.resetAt - Math.floor(s.nowMs / 1000))}`;
}

/**
 * Sets every rate-limit field of a limited answer (replacing those an earlier limit set: a route's
 * own limit after the general one), and `Retry-After` when `over`.
 */
export function sendRateLimitHeaders(reply: FastifyReply, s: RateLimitState, over = false): void {
  reply.header('X-RateLimit-Limit', s.limit);
  reply.header('X-RateLimit-Remaining', Math.max(0, s.remaining));
  reply.header('X-RateLimit-Reset', s.resetAt);
  reply.header('RateLimit-Policy', rateLimitPolicyField(s));
  reply.header('RateLimit', rateLimitField(s));
  if (over) reply.header('Retry-After', secondsUntil(s.resetAt, s.nowMs));
}

const WINDOW_SECONDS: Record<string, number> = { minute: 60, '1 minute': 60, hour: 3600, '1 hour': 3600, '15 minutes': 900 };

/**
 * The Retry-After (seconds, at least 1) of a RATE_LIMITED error from its details: `retryAt` or
 * `resetAt` (ISO time), `retryAfterMs`, else its `window` ('1 minute', '1 hour', ...), else 60.
 */
export function retryAfterOf(details: Record<string, unknown> | undefined, nowMs: number): number {
  const at = details?.retryAt ?? details?.resetAt;
  if (typeof at === 'string' && !Number.isNaN(Date.parse(at))) return Math.max(1, Math.ceil((Date.parse(at) - nowMs) / 1000));
  if (typeof details?.retryAfterMs === 'number') return Math.max(1, Math.ceil(details.retryAfterMs / 1000));
  if (typeof details?.window === 'string' && WINDOW_SECONDS[details.window]) return WINDOW_SECONDS[details.window];
  return 60;
}
