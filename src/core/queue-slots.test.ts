import { describe, expect, it } from 'vitest';
import { isSlotInstant, nextSlots } from './queue-slots.ts';

describe('queue slots', () => {
  it('lists the next slots in order, in the queue zone', () => {
    // Monday 2030-01-07 08:00Z = 09:00 Paris. Slots: Mon 10:00, Wed 09:00 Paris.
    const got = nextSlots([{ dayOfWeek: 3, time: '09:00' }, { dayOfWeek: 1, time: '10:00' }], 'Europe/Paris', new Date('2030-01-07T08:00:00Z'), 3);
    expect(got.map((d) => d.toISOString())).toEqual(['2030-01-07T09:00:00.000Z', '2030-01-09T08:00:00.000Z', '2030-01-14T09:00:00.000Z']);
  });

  it('keeps 09:00 local across the DST change', () => {
    // New York springs forward on Sunday 2030-03-10.
    const got = nextSlots([{ dayOfWeek: 1, time: '09:00' }], 'America/New_York', new Date('2030-03-01T00:00:00Z'), 2);
    expect(got.map((d) => d.toISOString())).toEqual(['2030-03-04T14:00:00.000Z', '2030-03-11T13:00:00.000Z']);
  });

  it('shifts a slot in the DST gap forward and takes the earlier instant in an overlap', () => {
    const gap = nextSlots([{ dayOfWeek: 0, time: '02:30' }], 'America/New_York', new Date('2030-03-09T12:00:00Z'), 1);
    expect(gap[0].toISOString()).toBe('2030-03-10T07:30:00.000Z'); // 03:30 EDT
    const overlap = nextSlots([{ dayOfWeek: 0, time: '01:30' }], 'America/New_York', new Date('2030-11-02T12:00:00Z'), 1);
    expect(overlap[0].toISOString()).toBe('2030-11-03T05:30:00.000Z'); // 01:30 EDT, the earlier one
  });

  it('never yields the same instant twice and skips the current instant', () => {
    const slots = [{ dayOfWeek: 0, time: '02:30' }, { dayOfWeek: 0, time: '03:30' }];
    const got = nextSlots(slots, 'America/New_York', new Date('2030-03-09T12:00:00Z'), 2);
    expect(new Set(got.map((d) => d.getTime())).size).toBe(2);
    const at = nextSlots([{ dayOfWeek: 1, time: '10:00' }], 'UTC', new Date('2030-01-07T10:00:00Z'), 1);
    expect(at[0].toISOString()).toBe('2030-01-14T10:00:00.000Z');
  });

  it('recognises slot instants', () => {
    const slots = [{ dayOfWeek: 1, time: '10:00' }];
    expect(isSlotInstant(slots, 'Europe/Paris', new Date('2030-01-07T09:00:00Z'))).toBe(true);
    expect(isSlotInstant(slots, 'Europe/Paris', new Date('2030-01-07T10:00:00Z'))).toBe(false);
  });
});
