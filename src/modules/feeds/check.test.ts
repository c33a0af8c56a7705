import { describe, expect, it } from 'vitest';
import { MAX_BACKOFF_MS, nextCheckAt } from './check.ts';

describe('nextCheckAt', () => {
  const now = new Date('2026-06-01T10:00:00Z');
  const wait = (interval: number, failures: number) => nextCheckAt(now, interval, failures).getTime() - now.getTime();

  it('waits the interval after a success and after the first failure, then twice as long after each failure in a row', () => {
    expect(wait(30, 0)).toBe(30 * 60_000);
    expect(wait(30, 1)).toBe(30 * 60_000);
    expect(wait(30, 2)).toBe(60 * 60_000);
    expect(wait(30, 3)).toBe(120 * 60_000);
  });

  it('waits at most 24 hours (the longest interval too)', () => {
    expect(wait(30, 20)).toBe(MAX_BACKOFF_MS);
    expect(wait(1440, 5)).toBe(MAX_BACKOFF_MS);
  });
});
