/**
 * Webhook signatures: HMAC-SHA256 with the webhook's secret over `<timestamp>.<raw body>`,
 * where the timestamp (Unix seconds, the X-Herald-Timestamp header) is the time of sending.
 * A receiver recomputes the signature over the bytes it received, compares in constant time and
 * refuses a timestamp too far from its clock (a replayed request carries an old one).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The headers of every delivery. */
export const SIGNATURE_HEADERS = {
  signature: 'X-Herald-Signature',
  timestamp: 'X-Herald-Timestamp',
  eventId: 'X-Herald-Event-Id',
  event: 'X-Herald-Event',
} as const;

/** Default window a receiver accepts around its clock, seconds. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** A new random secret: `whsec_` and 32 random bytes in hex. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`;
}

/** The X-Herald-Signature value for a body sent at `timestamp` (Unix seconds): `sha256=<hex>`. */
export function signPayload(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * Checks a delivery as a receiver would: the signature matches the raw body and timestamp,
 * and the timestamp lies within `toleranceSeconds` of `nowSeconds`.
 */
export function verifySignature(opts: {
  secret: string; body: string; timestamp: string | undefined; signature: string | undefined;
  toleranceSeconds?: number; nowSeconds?: number;
}): { ok: true } | { ok: false; reason: 'missing' | 'stale' | 'mismatch' } {
  if (!opts.timestamp || !opts.signature || !/^\d+$/.test(opts.timestamp)) return { ok: false, reason: 'missing' };
  const ts = Number(opts.timestamp);
  const now = opts.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - ts) > (opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) return { ok: false, reason: 'stale' };
  const expected = Buffer.from(signPayload(opts.secret, ts, opts.body));
  const given = Buffer.from(opts.signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? { ok: true } : { ok: false, reason: 'mismatch' };
}
