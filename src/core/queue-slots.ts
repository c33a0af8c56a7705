/**
 * Weekly queue slots (docs/decisions/0007-queue.md): `dayOfWeek` 0 (Sunday) to 6
 * (Saturday) and a 24-hour `HH:mm` time, interpreted in the queue's IANA time zone, so
 * a 09:00 slot stays 09:00 local across DST changes. A slot time that falls in a DST
 * gap shifts forward (e.g. 02:30 -> 03:30 on the spring-forward day); one that happens
 * twice takes the earlier instant (Temporal's `compatible` disambiguation).
 */
import { Temporal } from '@js-temporal/polyfill';

export interface QueueSlot {
  /** 0 = Sunday .. 6 = Saturday. */
  dayOfWeek: number;
  /** 24-hour `HH:mm`. */
  time: string;
}

export const SLOT_TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

/** Sorted, de-duplicated copy of the slots (by day, then time). */
export function normalizeSlots(slots: QueueSlot[]): QueueSlot[] {
  const seen = new Set<string>();
  return slots
    .filter((s) => { const k = `${s.dayOfWeek}|${s.time}`; if (seen.has(k)) return false; seen.add(k); return true; })
    .sort((a, b) => a.dayOfWeek - b.dayOfWeek || a.time.localeCompare(b.time));
}

/**
 * Yields the slot instants strictly after `after`, in order, for at most `maxWeeks` weeks.
 * Two local slot times that resolve to the same instant (possible around DST) yield once.
 */
export function* upcomingSlots(slots: QueueSlot[], timeZone: string, after: Date, maxWeeks = 520): Generator<Date> {
  if (slots.length === 0) return;
  const byDay = new Map<number, string[]>();
  for (const s of normalizeSlots(slots)) byDay.set(s.dayOfWeek, [...(byDay.get(s.dayOfWeek) ?? []), s.time]);
  const start = Temporal.Instant.fromEpochMilliseconds(after.getTime()).toZonedDateTimeISO(timeZone).toPlainDate();
  let last = -Infinity;
  for (let d = 0; d < maxWeeks * 7; d++) {
    const date = start.add({ days: d });
    const times = byDay.get(date.dayOfWeek % 7); // Temporal: Monday = 1 .. Sunday = 7
    if (!times) continue;
    for (const time of times) {
      const [hour, minute] = time.split(':').map(Number);
      const instant = date.toPlainDateTime({ hour, minute }).toZonedDateTime(timeZone, { disambiguation: 'compatible' }).epochMilliseconds;
      if (instant <= after.getTime() || instant <= last) continue;
      last = instant;
      yield new Date(instant);
    }
  }
}

/** The next `count` slot instants after `after` (ignoring occupancy). */
export function nextSlots(slots: QueueSlot[], timeZone: string, after: Date, count: number): Date[] {
  const out: Date[] = [];
  for (const at of upcomingSlots(slots, timeZone, after)) {
    out.push(at);
    if (out.length >= count) break;
  }
  return out;
}

/** True when `at` is exactly one of the queue's slot instants. */
export function isSlotInstant(slots: QueueSlot[], timeZone: string, at: Date): boolean {
  const [first] = nextSlots(slots, timeZone, new Date(at.getTime() - 1), 1);
  return first?.getTime() === at.getTime();
}
