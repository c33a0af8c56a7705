/**
 * Identifiers: 24-character lowercase hex, time-ordered, in the MongoDB ObjectId
 * layout (4-byte Unix seconds, 5 random bytes per process, 3-byte counter), because
 * clients of the Late API store `_id` values in that format.
 */
import { randomBytes } from 'node:crypto';

const processRandom = randomBytes(5).toString('hex');
let counter = randomBytes(3).readUIntBE(0, 3);

/** Returns a new 24-hex-character id, e.g. `6740f1c2a3b4c5d6e7f80912`. */
export function newId(now: number = Date.now()): string {
  counter = (counter + 1) % 0xffffff;
  const seconds = Math.floor(now / 1000).toString(16).padStart(8, '0');
  return seconds + processRandom + counter.toString(16).padStart(6, '0');
}

/** True when `value` has the id format (24 lowercase or uppercase hex characters). */
export function isId(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-fA-F]{24}$/.test(value);
}

/** Regular-expression source for an id, for route schemas. */
export const ID_PATTERN = '^[0-9a-fA-F]{24}$';
