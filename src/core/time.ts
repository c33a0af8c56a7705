/**
 * Time rules: parsing `scheduledFor` + IANA `timezone` into an instant, and billing
 * periods. Uses Temporal (the @js-temporal/polyfill) so that local times in a DST gap
 * or overlap resolve with the `compatible` disambiguation: a gap shifts forward by the
 * gap's length, an overlap takes the earlier instant.
 */
import { Temporal } from '@js-temporal/polyfill';
import { LRUCache } from 'lru-cache';

const LOCAL_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;
const UTC_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?Z$/;

/** Canonical spelling per zone name as given (null: not a zone); zones are few, so the cache stays small. */
const zoneCache = new Map<string, string | null>();

function lookupZone(tz: string): string | null {
  let hit = zoneCache.get(tz);
  if (hit === undefined) {
    try {
      hit = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
      Temporal.Now.instant().toZonedDateTimeISO(hit);
    } catch {
      hit = null;
    }
    if (zoneCache.size < 2000) zoneCache.set(tz, hit);
  }
  return hit;
}

/** True when `tz` is an IANA time-zone name known to this runtime (e.g. `Europe/Paris`, `UTC`). */
export function isValidTimeZone(tz: unknown): tz is string {
  return typeof tz === 'string' && tz.length > 0 && tz.length <= 64 && lookupZone(tz) !== null;
}

/** Canonical IANA spelling of a valid zone (e.g. `europe/paris` -> `Europe/Paris`). */
export function canonicalTimeZone(tz: string): string {
  return lookupZone(tz) ?? tz;
}

export type ScheduleParse =
  | { ok: true; instant: Date; timezone: string }
  | { ok: false; field: 'scheduledFor' | 'timezone'; message: string };

/**
 * Parses the two accepted forms of `scheduledFor` (docs/decisions/0019):
 * - local `YYYY-MM-DDTHH:mm` (seconds and fractions allowed) interpreted in `timezone`
 *   (an IANA name; `UTC` when omitted);
 * - ISO 8601 UTC ending in `Z`; `timezone` is then kept for display (default `UTC`).
 * Any other form (offsets, dates without time, invalid calendar dates) is rejected.
 */
export function parseScheduledFor(value: string, timezone: string | undefined | null): ScheduleParse {
  const tz = timezone ?? 'UTC';
  if (!isValidTimeZone(tz)) {
    return { ok: false, field: 'timezone', message: 'must be a valid IANA time zone name such as "America/New_York" or "UTC"' };
  }
  const zone = canonicalTimeZone(tz);
  const utc = UTC_RE.exec(value);
  const local = utc ? null : LOCAL_RE.exec(value);
  const m = utc ?? local;
  if (!m) {
    return {
      ok: false,
      field: 'scheduledFor',
      message: 'must be local time "YYYY-MM-DDTHH:mm" with a timezone, or ISO 8601 UTC ending in "Z" (e.g. "2025-01-15T09:30:00Z")',
    };
  }
  const [, y, mo, d, h, mi, s, frac] = m;
  if (Number(y) < 1970) return { ok: false, field: 'scheduledFor', message: 'must be a date from 1970 on' };
  const fields = {
    year: Number(y), month: Number(mo), day: Number(d), hour: Number(h), minute: Number(mi), second: Number(s ?? 0),
    millisecond: frac ? Number(frac.padEnd(3, '0').slice(0, 3)) : 0,
  };
  if (!validFields(fields)) return { ok: false, field: 'scheduledFor', message: 'is not a valid calendar date and time' };
  const asUtc = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second, fields.millisecond);
  if (utc) return { ok: true, instant: new Date(asUtc), timezone: zone };
  const offsetMs = steadyOffsetMs(zone, fields.year, fields.month, fields.day);
  if (offsetMs !== null) return { ok: true, instant: new Date(asUtc - offsetMs), timezone: zone };
  // A day with a transition (DST change): Temporal resolves gaps and overlaps.
  const zoned = Temporal.PlainDateTime.from(fields, { overflow: 'reject' }).toZonedDateTime(zone, { disambiguation: 'compatible' });
  return { ok: true, instant: new Date(zoned.epochMilliseconds), timezone: zone };
}

/** The ISO calendar's rule, as Temporal's `overflow: 'reject'` applies it (no 24:00, no leap second). */
function validFields(f: { year: number; month: number; day: number; hour: number; minute: number; second: number }): boolean {
  if (f.month < 1 || f.month > 12 || f.day < 1 || f.hour > 23 || f.minute > 59 || f.second > 59) return false;
  const leap = f.year % 4 === 0 && (f.year % 100 !== 0 || f.year % 400 === 0);
  const days = f.month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(f.month) ? 30 : 31;
  return f.day <= days;
}

/** Per zone and local date: the UTC offset in ms when it holds all day, false when the day has a transition. */
const dayOffsets = new LRUCache<string, number | false>({ max: 10_000 });

/**
 * The zone's UTC offset (ms) on a local date when it is the same from 00:00 to 24:00 local
 * time, so every local time of the day is `local - offset` exactly; null when the zone changes
 * its offset during that day or the day does not start at its 00:00 (a transition at midnight, a
 * skipped day).
 * Computed once per zone and date with Temporal (its transition search), then cached.
 */
function steadyOffsetMs(zone: string, year: number, month: number, day: number): number | null {
  const key = `${zone}|${year}-${month}-${day}`;
  let hit = dayOffsets.get(key);
  if (hit === undefined) {
    const start = Temporal.PlainDate.from({ year, month, day }).toZonedDateTime(zone);
    const next = start.getTimeZoneTransition('next');
    const end = start.add({ days: 1 });
    // The day must start at its own 00:00 (a skipped day, like Apia's 2011-12-30, starts on the next one).
    const steady = start.day === day && start.hour === 0 && start.minute === 0 && start.second === 0 && start.millisecond === 0
      && (next === null || Temporal.ZonedDateTime.compare(next, end) >= 0);
    hit = steady ? start.offsetNanoseconds / 1e6 : false;
    dayOffsets.set(key, hit);
  }
  return hit === false ? null : hit;
}

/** Billing cadence of a user's plan. */
export type BillingPeriod = 'monthly' | 'yearly';

/**
 * Start of the billing period containing `now`: the latest anniversary of `anchor`
 * (monthly: same day of month, clamped to the month's last day; yearly: same date)
 * that is not after `now`. Computed in UTC.
 */
export function billingPeriodStart(anchor: Date, period: BillingPeriod, now: Date): Date {
  const a = Temporal.Instant.fromEpochMilliseconds(anchor.getTime()).toZonedDateTimeISO('UTC');
  const n = Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO('UTC');
  if (Temporal.ZonedDateTime.compare(n, a) <= 0) return anchor;
  // Count whole calendar steps from the anchor's own fields; each candidate is added to the
  // anchor (not chained), so Jan 31 gives Feb 28 and then Mar 31 again.
  let units = period === 'monthly' ? (n.year - a.year) * 12 + (n.month - a.month) : n.year - a.year;
  const at = (k: number) => a.add(period === 'monthly' ? { months: k } : { years: k });
  let start = at(units);
  while (units > 0 && Temporal.ZonedDateTime.compare(start, n) > 0) start = at(--units);
  return new Date(start.epochMilliseconds);
}
