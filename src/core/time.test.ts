import { Temporal } from '@js-temporal/polyfill';
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
  it('gives the instant Temporal gives for any local time in zones with DST, midnight transitions, 30-minute shifts and a skipped day', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'America/Santiago', 'America/Havana', 'Asia/Beirut', 'Australia/Lord_Howe',
      'Pacific/Apia', 'America/St_Johns', 'Asia/Kolkata', 'Africa/Casablanca', 'Pacific/Kiritimati'];
    let seed = 11;
    const next = (n: number) => { seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31; return seed % n; };
    const pad = (v: number, w = 2) => String(v).padStart(w, '0');
    const days: Array<[number, number, number]> = [[2011, 12, 29], [2011, 12, 30], [2011, 12, 31]]; // Apia skipped the 30th
    for (const zone of zones) {
      // Every day around each of the zone's transitions in 2029-2031, plus random days from 1970 to 2040.
      let t: Temporal.ZonedDateTime | null = Temporal.ZonedDateTime.from({ year: 2029, month: 1, day: 1, timeZone: zone });
      for (let i = 0; i < 6 && t; i++) {
        t = t.getTimeZoneTransition('next');
        if (!t) break;
        for (const d of [-1, 0, 1]) { const p = t.toPlainDate().add({ days: d }); days.push([p.year, p.month, p.day]); }
      }
      for (let i = 0; i < 20; i++) days.push([1970 + next(71), 1 + next(12), 1 + next(28)]);
      for (const [y, m, d] of days) {
        for (const [h, min] of [[0, 0], [0, 30], [1, 0], [2, 30], [3, 0], [12, 0], [23, 59], [next(24), next(60)]]) {
          const local = `${y}-${pad(m)}-${pad(d)}T${pad(h)}:${pad(min)}`;
          const want = Temporal.PlainDateTime.from(local).toZonedDateTime(zone, { disambiguation: 'compatible' }).epochMilliseconds;
          const got = parseScheduledFor(local, zone);
          expect(got.ok && got.instant.getTime(), `${local} ${zone}`).toBe(want);
        }
      }
    }
  });

  it('rejects invalid calendar dates and times as Temporal does', () => {
    for (const v of ['2030-02-29T10:00', '2028-02-30T10:00', '2030-04-31T10:00', '2030-13-01T10:00', '2030-00-10T10:00', '2030-01-00T10:00',
      '2030-01-01T24:00', '2030-01-01T10:60', '2030-01-01T10:00:60', '2100-02-29T10:00Z']) {
      expect(parseScheduledFor(v, 'Europe/Paris'), v).toMatchObject({ ok: false, field: 'scheduledFor', message: 'is not a valid calendar date and time' });
    }
    expect(parseScheduledFor('2028-02-29T10:00', 'Europe/Paris')).toMatchObject({ ok: true, instant: new Date('2028-02-29T09:00:00Z') });
    expect(parseScheduledFor('2000-02-29T10:00Z', null)).toMatchObject({ ok: true, instant: new Date('2000-02-29T10:00:00Z') });
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
