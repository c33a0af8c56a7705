import { describe, expect, it } from 'vitest';
import { formatInstantIn, localizeInstants } from './instants.ts';

describe('instants written for people', () => {
  it('shows an instant as the wall clock of a zone, across a DST change, with the zone named', () => {
    expect(formatInstantIn(new Date('2026-11-30T08:00:00.000Z'), 'Europe/Berlin')).toBe('Mon, Nov 30, 2026, 09:00 (Europe/Berlin)');
    expect(formatInstantIn(new Date('2026-07-01T08:00:00Z'), 'Europe/Berlin')).toBe('Wed, Jul 1, 2026, 10:00 (Europe/Berlin)');
    expect(formatInstantIn(new Date('2026-03-08T10:30:00Z'), 'America/New_York')).toBe('Sun, Mar 8, 2026, 06:30 (America/New_York)');
  });

  it('replaces every UTC instant in a message and leaves the rest, including times that are not UTC instants', () => {
    const note = 'The queue slot 2026-12-01T09:00:00.000Z is no longer free: the post takes the next free slot, 2026-12-02T09:00:00.000Z';
    expect(localizeInstants(note, (at) => formatInstantIn(at, 'Asia/Tokyo'))).toBe(
      'The queue slot Tue, Dec 1, 2026, 18:00 (Asia/Tokyo) is no longer free: the post takes the next free slot, Wed, Dec 2, 2026, 18:00 (Asia/Tokyo)');
    expect(localizeInstants('at 2026-12-01T09:00 local, or 2026-12-01T09:00:00+01:00', (at) => formatInstantIn(at, 'UTC'))).toBe('at 2026-12-01T09:00 local, or 2026-12-01T09:00:00+01:00');
    expect(localizeInstants('at 2026-12-01T09:00:00Z', (at) => String(at.getTime()))).toBe(`at ${Date.UTC(2026, 11, 1, 9)}`);
  });
});
