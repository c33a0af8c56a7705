/**
 * Where a page picks a date and a time: the fields of ./date-time-picker.tsx, loaded on demand (the
 * library stays out of the page's own chunk, as the time-zone picker's does: decision 0052), with
 * read-only fields until it arrives.
 */
import { lazy, Suspense } from 'react';
import type { DateTimeProps } from './date-time-picker.tsx';

const DateTimeFields = lazy(() => import('./date-time-picker.tsx'));

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
