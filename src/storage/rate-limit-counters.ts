/**
 * Fixed-window counters in the `rate_limit_counters` table (UNLOGGED), shared by every
 * API process: the per-user API limit, sign-up and analytics limits and Docs AI questions.
 * Sign-in throttling counts in a sliding window instead: one row per attempt in
 * `rate_limit_events` (UNLOGGED), see {@link recordAttempt}.
 *
 * A hit is counted atomically (one INSERT ... ON CONFLICT DO UPDATE ... RETURNING), so
 * concurrent requests each see their own count and a limit holds under parallel load.
 * Each row stores its window length, and {@link pruneRateLimitCounters} removes a row
 * only once its own window has ended.
 */
import type { Queryable } from './db.ts';

/** Kept this long after a window ends before the row is pruned (API and database clocks may differ a little). */
export const PRUNE_GRACE_MS = 5 * 60_000;

/** One counted hit: the count in the current window including this hit, and that window. */
export interface CounterHit {
  key: string;
  count: number;
  windowStart: Date;
}

/** The start of the fixed window of length `windowMs` that contains `nowMs`. */
export function windowStartOf(nowMs: number, windowMs: number): Date {
  return new Date(nowMs - (nowMs % windowMs));
}

/** Counts one hit for `key` in the window containing `nowMs` and returns the new count (atomic). */
export async function countHit(db: Queryable, key: string, windowMs: number, nowMs: number): Promise<CounterHit> {
  const windowStart = windowStartOf(nowMs, windowMs);
  const { rows } = await db.query<{ count: number }>(
    `INSERT INTO rate_limit_counters AS c (key, window_start, count, window_ms) VALUES ($1, $2, 1, $3)
     ON CONFLICT (key) DO UPDATE
       SET count = CASE WHEN c.window_start = EXCLUDED.window_start THEN c.count + 1 ELSE 1 END,
           window_start = EXCLUDED.window_start,
           window_ms = EXCLUDED.window_ms
     RETURNING count`,
    [key, windowStart, windowMs],
  );
  return { key, count: rows[0].count, windowStart };
}

/** Takes back one counted hit (e.g. a sign-in that succeeded), if its window is still the current one. */
export async function forgiveHit(db: Queryable, hit: CounterHit): Promise<void> {
  await db.query(
    'UPDATE rate_limit_counters SET count = GREATEST(count - 1, 0) WHERE key = $1 AND window_start = $2',
    [hit.key, hit.windowStart],
  );
}

/**
 * Deletes counters whose window ended more than {@link PRUNE_GRACE_MS} ago (each by its own window
 * length), and sliding-window attempts older than their window by as much.
 */
export async function pruneRateLimitCounters(db: Queryable): Promise<void> {
  await db.query(
    `DELETE FROM rate_limit_counters
      WHERE window_start < now() - make_interval(secs => (window_ms + $1) / 1000.0)`,
    [PRUNE_GRACE_MS],
  );
  await db.query(
    `DELETE FROM rate_limit_events
      WHERE at < now() - make_interval(secs => (window_ms + $1) / 1000.0)`,
    [PRUNE_GRACE_MS],
  );
}

/** One attempt counted in a sliding window: its row, and the key's attempts in the window ending now (itself included). */
export interface WindowAttempt {
  key: string;
  id: string;
  count: number;
  /** The oldest attempt in the window: one more fits once it is `windowMs` old (if the caller takes back refused attempts). */
  oldestAt: Date;
}

/**
 * Sliding-window counting, exact: writes one attempt for `key` at `nowMs`, then counts the key's
 * attempts in the `windowMs` before it. Two statements, not one: the count runs after the insert
 * committed, so of parallel attempts the k-th to commit counts at least k and a limit holds under
 * parallel load (a single statement's snapshot could miss a concurrent insert).
 */
export async function recordAttempt(db: Queryable, key: string, windowMs: number, nowMs: number): Promise<WindowAttempt> {
  const { rows: [row] } = await db.query<{ id: string }>(
    'INSERT INTO rate_limit_events (key, at, window_ms) VALUES ($1, $2, $3) RETURNING id::text', [key, new Date(nowMs), windowMs]);
  const { rows: [c] } = await db.query<{ n: number; oldest: Date | null }>(
    'SELECT count(*)::int AS n, min(at) AS oldest FROM rate_limit_events WHERE key = $1 AND at > $2', [key, new Date(nowMs - windowMs)]);
  return { key, id: row.id, count: c.n, oldestAt: c.oldest ?? new Date(nowMs) };
}

/** Takes back counted attempts (a sign-in that succeeded, or one refused before it was checked). */
export async function forgetAttempts(db: Queryable, attempts: readonly WindowAttempt[]): Promise<void> {
  if (attempts.length === 0) return;
  await db.query('DELETE FROM rate_limit_events WHERE id = ANY($1::bigint[])', [attempts.map((a) => a.id)]);
}
