/**
 * Time-zone arithmetic for the calendar and the composer with Intl only (no library): the
 * wall-clock parts of an instant in a zone, and the instant of a wall-clock time in a zone
 * (gap: shifted forward; overlap: the earlier instant, as the server resolves them).
 */

/** The browser's time zone (IANA id as the browser names it), UTC when it says none. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Every zone the browser knows (Intl.supportedValuesOf), UTC included. */
export function allTimeZones(): string[] {
  const f = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf;
  const list = f ? f('timeZone') : [];
  return list.includes('UTC') ? list : ['UTC', ...list];
}

/** The UTC offset of `tz` at `at`, e.g. "UTC+05:30", "UTC−03:00" or "UTC" (from Intl's longOffset name). */
export function utcOffsetLabel(tz: string, at: Date = new Date()): string {
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? '';
    return name === 'GMT' || name === '' ? 'UTC' : name.replace('GMT', 'UTC').replace('-', '−');
  } catch {
    return '';
  }
}

export interface WallTime { year: number; month: number; day: number; hour: number; minute: number }

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(tz, f);
  }
  return f;
}

/** Wall-clock time of `instant` in `tz`. */
export function wallTime(instant: Date, tz: string): WallTime & { second: number } {
  const p: Record<string, number> = {};
  for (const part of partsFormatter(tz).formatToParts(instant)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { year: p.year, month: p.month, day: p.day, hour: p.hour === 24 ? 0 : p.hour, minute: p.minute, second: p.second };
}

function offsetMs(instant: Date, tz: string): number {
  const w = wallTime(instant, tz);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant at which the wall clock in `tz` shows `w`. */
export function instantOf(w: WallTime, tz: string): Date {
  const naive = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  const before = offsetMs(new Date(naive - 86_400_000 / 2), tz);
  const after = offsetMs(new Date(naive + 86_400_000 / 2), tz);
  // Try both offsets around the date; keep the candidates that really show `w` (earliest first).
  const candidates = [...new Set([before, after])].map((o) => naive - o).sort((a, b) => a - b);
  for (const c of candidates) {
    const back = wallTime(new Date(c), tz);
    if (back.year === w.year && back.month === w.month && back.day === w.day && back.hour === w.hour && back.minute === w.minute) return new Date(c);
  }
  // In a DST gap: shift forward by the gap (the later offset applied to the naive time).
  return new Date(naive - Math.min(before, after));
}

export const pad = (n: number) => String(n).padStart(2, '0');
export const dateKey = (w: { year: number; month: number; day: number }) => `${w.year}-${pad(w.month)}-${pad(w.day)}`;

/** Calendar arithmetic on plain dates (no zone): add days to a Y-M-D. */
export function addDays(d: { year: number; month: number; day: number }, n: number): { year: number; month: number; day: number } {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + n));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** 0 = Monday .. 6 = Sunday. */
export function weekdayMon(d: { year: number; month: number; day: number }): number {
  return (new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay() + 6) % 7;
}

export function formatInZone(iso: string | Date, tz: string, opts: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string {
  return new Intl.DateTimeFormat(undefined, { ...opts, timeZone: tz }).format(typeof iso === 'string' ? new Date(iso) : iso);
}

export function timeInZone(iso: string, tz: string): string {
  const w = wallTime(new Date(iso), tz);
  return `${pad(w.hour)}:${pad(w.minute)}`;
}

/** Whether the browser's locale writes times with AM/PM (12 h) or not (24 h). Every time on every page follows it. */
export function uses12Hour(): boolean {
  return new Intl.DateTimeFormat(undefined, { hour: 'numeric' }).resolvedOptions().hour12 === true;
}

/**
 * The one time format of the dashboard: the browser locale's 12 or 24 hour clock, for instants
 * (in a zone) and for wall-clock "HH:mm" strings such as queue slots.
 */
export const timeFormat = {
  /** A time of day, e.g. "9:30 AM" or "09:30". */
  time(at: string | Date, tz = browserTimeZone()): string {
    return new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', hour12: uses12Hour(), timeZone: tz }).format(typeof at === 'string' ? new Date(at) : at);
  },
  /** A date and time, e.g. "Nov 24, 2026, 9:30 AM". */
  dateTime(at: string | Date, tz = browserTimeZone()): string {
    return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', hour12: uses12Hour(), timeZone: tz }).format(typeof at === 'string' ? new Date(at) : at);
  },
  /** A weekday, date and time, e.g. "Tuesday, Nov 24, 11:30 PM". */
  slot(at: string | Date, tz = browserTimeZone()): string {
    return new Intl.DateTimeFormat(undefined, { weekday: 'long', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', hour12: uses12Hour(), timeZone: tz }).format(typeof at === 'string' ? new Date(at) : at);
  },
  /** A wall-clock "HH:mm" (24 h, as the API writes queue slots) in the same clock. */
  wall(hhmm: string): string {
    const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm);
    if (!m) return hhmm;
    return new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', hour12: uses12Hour(), timeZone: 'UTC' }).format(new Date(Date.UTC(2000, 0, 1, Number(m[1]), Number(m[2]))));
  },
};

/** The dashboard's time format (see {@link timeFormat}). */
export function useTimeFormat(): typeof timeFormat {
  return timeFormat;
}
