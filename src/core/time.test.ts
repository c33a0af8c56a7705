import { describe, expect, it } from 'vitest';
import { billingPeriodStart, isValidTimeZone, parseScheduledFor } from './time.ts';

describe('parseScheduledFor', () => {
  it('interprets local time in the zone, with seconds and fractions allowed', () => {
    expect(parseScheduledFor('2030-07-01T12:00', 'America/Los_Angeles')).toEqual({ ok: true, instant: new Date('2030-07-01T19:00:00Z'), timezone: 'America/Los_Angeles' });
    expect(parseScheduledFor('2030-07-01T12:00:30.250', 'UTC')).toMatchObject({ ok: true, instant: new Date('2030-07-01T12:00:30.250Z') });
  });
  it('canonicalises the zone spelling', () => {
    expect(parseScheduledFor('2030-07-01T12:00', 'europe/paris')).toMatchObject({ ok: true, timezone: 'Europe/Paris' });
  });
  it('keeps the zone of a Z time for display, the instant is absolute', () => {
    expect(parseScheduledFor('2030-07-01T12:00:00Z', 'Asia/Tokyo')).toEqual({ ok: true, instant: new Date('2030-07-01T12:00:00Z'), timezone: 'Asia/Tokyo' });
  });
  it('resolves DST gaps forward and overlaps to the earlier instant (Europe/Berlin)', () => {
    // 2030-03-31 02:30 does not exist in Berlin (02:00 CET -> 03:00 CEST): 03:30 CEST = 01:30Z
    expect(parseScheduledFor('2030-03-31T02:30', 'Europe/Berlin')).toMatchObject({ instant: new Date('2030-03-31T01:30:00Z') });
    // 2030-10-27 02:30 happens twice: the earlier is CEST = 00:30Z
    expect(parseScheduledFor('2030-10-27T02:30', 'Europe/Berlin')).toMatchObject({ instant: new Date('2030-10-27T00:30:00Z') });
  });
  it('rejects everything else with the field named', () => {
    for (const v of ['2030-07-01', '2030-07-01T12', '2030-07-01T25:00', '2030-07-01T12:00:00+01:00', 'tomorrow', '2030-7-1T12:00']) {
      expect(parseScheduledFor(v, 'UTC')).toMatchObject({ ok: false, field: 'scheduledFor' });
    }
    expect(parseScheduledFor('2030-07-01T12:00', 'Nowhere/City')).toMatchObject({ ok: false, field: 'timezone' });
    expect(isValidTimeZone('')).toBe(false);
  });
});

describe('billingPeriodStart', () => {
  it('monthly: the latest anniversary, clamped to short months', () => {
    const anchor = new Date('2026-01-31T10:00:00Z');
    expect(billingPeriodStart(anchor, 'monthly', new Date('2026-01-31T09:00:00Z'))).toEqual(anchor);
    expect(billingPeriodStart(anchor, 'monthly', new Date('2026-02-15T00:00:00Z'))).toEqual(anchor);
    expect(billingPeriodStart(anchor, 'monthly', new Date('2026-03-01T00:00:00Z'))).toEqual(new Date('2026-02-28T10:00:00Z'));
    expect(billingPeriodStart(anchor, 'monthly', new Date('2026-03-31T10:00:00Z'))).toEqual(new Date('2026-03-31T10:00:00Z'));
    expect(billingPeriodStart(anchor, 'monthly', new Date('2026-03-31T09:59:59Z'))).toEqual(new Date('2026-02-28T10:00:00Z'));
  });
  it('yearly: the latest anniversary date', () => {
    const anchor = new Date('2024-02-29T00:00:00Z');
    expect(billingPeriodStart(anchor, 'yearly', new Date('2025-06-01T00:00:00Z'))).toEqual(new Date('2025-02-28T00:00:00Z'));
    expect(billingPeriodStart(anchor, 'yearly', new Date('2025-01-01T00:00:00Z'))).toEqual(anchor);
  });
});
