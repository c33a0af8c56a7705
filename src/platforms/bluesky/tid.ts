/**
 * Record keys for Bluesky posts: TIDs ("timestamp identifiers", https://atproto.com/specs/tid).
 *
 * A TID is 13 characters of base32-sortable (`234567abcdefghijklmnopqrstuvwxyz`): 53 bits of
 * microseconds since the Unix epoch followed by a 10-bit clock id. Same algorithm as
 * `TID.nextStr()` in `@atproto/common-web` (not a direct dependency of Herald, so re-implemented
 * here in a few lines). Values from one process are strictly increasing.
 */
const S32 = '234567abcdefghijklmnopqrstuvwxyz';

let lastMicros = 0;
const clockId = Math.floor(Math.random() * 1024);

function s32encode(n: number, len: number): string {
  let out = '';
  let v = n;
  while (v > 0) {
    out = S32[v % 32] + out;
    v = Math.floor(v / 32);
  }
  return out.padStart(len, '2');
}

/** A new TID string, e.g. `3lbq6jzdrpk2a`; strictly greater than the previous one from this process. */
export function nextTid(nowMs: number = Date.now()): string {
  let micros = nowMs * 1000;
  if (micros <= lastMicros) micros = lastMicros + 1;
  lastMicros = micros;
  return s32encode(micros, 11) + s32encode(clockId, 2);
}

/** True for a syntactically valid TID (the atproto spec's regex). */
export function isTid(s: string): boolean {
  return /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/.test(s);
}
