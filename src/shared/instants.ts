/**
 * Instants in text written for people. The API writes an instant in its messages as an RFC 3339 UTC
 * time ("2026-11-30T08:00:00.000Z", as `Date.prototype.toISOString` does); an email to a person, or a
 * dashboard notice, shows it as the wall clock of a time zone instead.
 */

/** An RFC 3339 instant in UTC ("Z"), with optional seconds and milliseconds. */
const UTC_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?Z\b/g;

/**
 * `at` in IANA time zone `timeZone`, with the zone's name: "Mon, Nov 30, 2026, 09:00 (Europe/Berlin)"
 * (en-US, 24-hour clock).
 * @throws RangeError for a time zone the runtime does not know.
 */
export function formatInstantIn(at: Date, timeZone: string): string {
  const text = new Intl.DateTimeFormat('en-US', {
    timeZone, weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  }).format(at);
  return `${text} (${timeZone})`;
}

/**
 * `text` with each RFC 3339 UTC instant in it replaced by `format(instant)` (for a mail, {@link formatInstantIn}
 * in the post's time zone; on the dashboard, its own time format). Other text is left as it is.
 */
export function localizeInstants(text: string, format: (at: Date) => string): string {
  return text.replace(UTC_INSTANT, (iso) => {
    const at = new Date(iso);
    return Number.isNaN(at.getTime()) ? iso : format(at);
  });
}
