/**
 * Where a page picks a time zone: the combobox of ./time-zone-picker.tsx, loaded on demand (its
 * library stays out of the page's own chunk, see decision 0052), with a read-only field until it arrives.
 */
import { lazy, Suspense } from 'react';

const TimeZonePicker = lazy(() => import('./time-zone-picker.tsx'));

/** A labelled time-zone picker for `value` (an IANA zone id); see ./time-zone-picker.tsx. */
export function TimeZoneField(props: { value: string; onChange: (tz: string) => void; label?: string; className?: string; id?: string }) {
  const { value, label = 'Time zone', className = '', id } = props;
  return (
    <Suspense fallback={<div className={`tz-combo ${className}`}><label htmlFor={id}>{label}</label><input id={id} value={value} readOnly disabled /></div>}>
      <TimeZonePicker {...props} />
    </Suspense>
  );
}
