/** The recycling series (src/shared/recycling.ts): calendar months, weeks, and the first due time after a moment. */
import { describe, expect, it } from 'vitest';
import { addRecycleUnits, nextRecycleTime } from './recycling.ts';

const d = (iso: string) => new Date(iso);

describe('addRecycleUnits', () => {
  it('keeps the day of the month, or takes the last day of a shorter month', () => {
    expect(addRecycleUnits(d('2031-01-31T09:00:00Z'), 1, 'month').toISOString()).toBe('2031-02-28T09:00:00.000Z');
    expect(addRecycleUnits(d('2032-01-31T09:00:00Z'), 1, 'month').toISOString()).toBe('2032-02-29T09:00:00.000Z');
    expect(addRecycleUnits(d('2031-01-31T09:00:00Z'), 3, 'month').toISOString()).toBe('2031-04-30T09:00:00.000Z');
    expect(addRecycleUnits(d('2031-11-15T09:00:00Z'), 14, 'month').toISOString()).toBe('2033-01-15T09:00:00.000Z');
  });
  it('counts a week as 7 days', () => {
    expect(addRecycleUnits(d('2031-03-01T10:00:00Z'), 2, 'week').toISOString()).toBe('2031-03-15T10:00:00.000Z');
  });
});

describe('nextRecycleTime', () => {
  const start = d('2031-01-31T09:00:00Z');
  it('is one interval after the start when asked before it', () => {
    expect(nextRecycleTime(start, 1, 'month', d('2030-01-01T00:00:00Z')).toISOString()).toBe('2031-02-28T09:00:00.000Z');
  });
  it('is the first due time strictly after the moment (missed ones skipped), counted from the start, not from the last copy', () => {
    expect(nextRecycleTime(start, 1, 'month', d('2031-02-28T09:00:00Z')).toISOString()).toBe('2031-03-31T09:00:00.000Z');
    expect(nextRecycleTime(start, 2, 'month', d('2033-06-01T00:00:00Z')).toISOString()).toBe('2033-07-31T09:00:00.000Z');
    expect(nextRecycleTime(d('2031-01-05T10:00:00Z'), 3, 'week', d('2031-06-01T00:00:00Z')).toISOString()).toBe('2031-06-01T10:00:00.000Z');
  });
});
