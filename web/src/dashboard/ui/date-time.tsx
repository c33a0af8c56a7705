/**
 * Where a page picks a date or a time: the fields of ./date-time-picker.tsx, loaded on demand (the
 * library stays out of the page's own chunk, as the time-zone picker's does: decision 0052), with
 * read-only fields until it arrives.
 */
import { lazy, Suspense } from 'react';
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

/** A labelled time field, the value `HH:MM` (24-hour) or '' (./date-time-picker.tsx). */
export function TimeOfDayField(props: TimeFieldProps) {
  const fallback = (
    <div className={props.className ?? 'field'}>
      <label htmlFor={props.id} className={props.hideLabel ? 'sr-only' : undefined}>{props.label}</label><input id={props.id} value={props.value} readOnly disabled />
    </div>
  );
  return <Suspense fallback={fallback}><TimeInputField {...props} /></Suspense>;
}
