/**
 * Where a page picks a date or a time: the fields of ./date-time-picker.tsx, loaded on demand (the
 * library stays out of the page's own chunk, as the time-zone picker's does: decision 0052), with
 * read-only fields until it arrives.
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { DateFieldProps, DateTimeProps, TimeFieldProps } from './date-time-picker.tsx';

const DateTimeFields = lazy(() => import('./date-time-picker.tsx'));
const DatePickerField = lazy(() => import('./date-time-picker.tsx').then((m) => ({ default: m.DatePickerField })));
const TimeInputField = lazy(() => import('./date-time-picker.tsx').then((m) => ({ default: m.TimeInputField })));

/** A labelled date picker and time field; see ./date-time-picker.tsx for the value formats. */
export function DateTimeField(props: DateTimeProps) {
  const fallback = (
    <div className="when-row">
      <div className="field"><label htmlFor={`${props.idPrefix}-date`}>Date</label><input id={`${props.idPrefix}-date`} value={props.date} readOnly disabled /></div>
      <div className="field"><label htmlFor={`${props.idPrefix}-time`}>Time</label><input id={`${props.idPrefix}-time`} value={props.time} readOnly disabled /></div>
    </div>
  );
  return <Suspense fallback={fallback}><DateTimeFields {...props} /></Suspense>;
}

/** A labelled date picker, the value `YYYY-MM-DD` or '' (./date-time-picker.tsx). */
export function DateField(props: DateFieldProps) {
  const fallback = <div className={props.className ?? 'field'}><label htmlFor={props.id}>{props.label}</label><input id={props.id} value={props.value} readOnly disabled /></div>;
  return <Suspense fallback={fallback}><DatePickerField {...props} /></Suspense>;
}

/**
 * A date field of a page's filters (the value kept in the URL, which the page's queries read): it
 * shows what is typed at once and passes it on once typing pauses for `pauseMs` (default 400 ms).
 * So a year typed digit by digit (0002, 0020, 0202, 2026) asks the server once, not four times, and
 * a keystroke never meets a render still carrying the URL's previous value (on a busy machine the
 * second digit of a month was lost that way). The value coming from the URL shows again once passed on.
 */
export function FilterDateField({ pauseMs = 400, ...props }: DateFieldProps & { pauseMs?: number }) {
  const [typed, setTyped] = useState<string | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  useEffect(() => {
    if (typed === null) return undefined;
    const timer = setTimeout(() => { onChange.current(typed); setTyped(null); }, pauseMs);
    return () => clearTimeout(timer);
  }, [typed, pauseMs]);
  return <DateField {...props} value={typed ?? props.value} onChange={setTyped} />;
}

/** A labelled time field, the value `HH:MM` (24-hour) or '' (./date-time-picker.tsx). */
export function TimeOfDayField(props: TimeFieldProps) {
  const fallback = (
    <div className={props.className ?? 'field'}>
      <label htmlFor={props.id} className={props.hideLabel ? 'sr-only' : undefined}>{props.label}</label><input id={props.id} value={props.value} readOnly disabled />
    </div>
  );
  return <Suspense fallback={fallback}><TimeInputField {...props} /></Suspense>;
}
