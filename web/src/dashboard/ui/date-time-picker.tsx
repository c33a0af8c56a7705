/**
 * The dashboard's dates and times (the composer's, the posts filters and bulk reschedule,
 * analytics' range, queue slots, recycling's end, review-link weeks): React Aria Components'
 * DatePicker (typed segments in the browser's locale, and a calendar to pick from:
 * https://react-spectrum.adobe.com/react-aria/DatePicker.html) and TimeField (https://react-spectrum.adobe.com/react-aria/TimeField.html), the same library as
 * the time-zone combobox. Values cross this boundary as plain strings: the date as `YYYY-MM-DD`,
 * the time as `HH:MM` (24-hour), both wall-clock times in the zone the page shows beside them
 * (the strings the browser's native date and time inputs gave before, so each page sends
 * the API what it sent then); an incomplete entry is ''. Loaded on demand through ./date-time.tsx.
 */
import { parseDate, parseTime, type CalendarDate, type Time } from '@internationalized/date';
import { Button, Calendar, CalendarCell, CalendarGrid, DateInput, DatePicker, DateSegment, Group, Label, Popover } from 'react-aria-components/DatePicker';
import { Dialog, Heading } from 'react-aria-components/Dialog';
import { TimeField } from 'react-aria-components/TimeField';
import './ui.css';

/** `YYYY-MM-DD` as a calendar date, or null when empty or not a date. */
function toDate(s: string): CalendarDate | null {
  try { return s ? parseDate(s) : null; } catch { return null; }
}

/** `HH:MM` as a time of day, or null when empty or not a time. */
function toTime(s: string): Time | null {
  try { return s ? parseTime(s) : null; } catch { return null; }
}

const two = (n: number) => String(n).padStart(2, '0');

export interface DateTimeProps {
  /** `YYYY-MM-DD` or ''. */
  date: string;
  /** `HH:MM` (24-hour) or ''. */
  time: string;
  onDate: (date: string) => void;
  onTime: (time: string) => void;
  /** Marks the date invalid (the server refused the time, say). */
  dateInvalid?: boolean;
  /** Prefix of the fields' ids (`<idPrefix>-date`, `<idPrefix>-time`). */
  idPrefix: string;
}

/** One labelled date, its value `YYYY-MM-DD` or '' (see DateFieldProps). */
export interface DateFieldProps {
  /** The field's id (on its group); its label's text. */
  id: string;
  label: string;
  /** `YYYY-MM-DD` or '' (nothing, or an incomplete entry). */
  value: string;
  onChange: (date: string) => void;
  /** Earliest and latest day offered (`YYYY-MM-DD`, '' or absent: none). */
  min?: string;
  max?: string;
  isRequired?: boolean;
  isInvalid?: boolean;
  /** Classes of the field's box (default `field dp`). */
  className?: string;
}

/** A labelled date picker: typed segments and a calendar in a popover. */
export function DatePickerField({ id, label, value, onChange, min, max, isRequired = false, isInvalid = false, className = 'field dp' }: DateFieldProps) {
  return (
    <DatePicker id={id} className={className} value={toDate(value)} onChange={(v) => onChange(v ? v.toString() : '')}
      minValue={toDate(min ?? '')} maxValue={toDate(max ?? '')} isRequired={isRequired} isInvalid={isInvalid}>
      <Label className="dp-label">{label}</Label>
      <Group className="dp-group">
        <DateInput className="dp-input">{(segment) => <DateSegment segment={segment} className="dp-segment" />}</DateInput>
        <Button className="dp-button" aria-label={label === 'Date' ? 'Choose the date on a calendar' : `Choose “${label}” on a calendar`}>
          <svg aria-hidden="true" width="16" height="16" viewBox="0 0 16 16"><rect x="1.5" y="3" width="13" height="11.5" rx="2" fill="none" stroke="currentColor" /><path d="M1.5 6.5h13M5 1.5v3M11 1.5v3" stroke="currentColor" /></svg>
        </Button>
      </Group>
      <Popover className="dp-popover" placement="bottom end">
        <Dialog className="dp-dialog" aria-label="Calendar">
          <Calendar className="dp-calendar">
            <header className="dp-head">
              <Button slot="previous" className="dp-nav" aria-label="Previous month">‹</Button>
              <Heading className="dp-heading" />
              <Button slot="next" className="dp-nav" aria-label="Next month">›</Button>
            </header>
            <CalendarGrid className="dp-grid">{(day) => <CalendarCell date={day} className="dp-cell" />}</CalendarGrid>
          </Calendar>
        </Dialog>
      </Popover>
    </DatePicker>
  );
}

/** One labelled time of day, its value `HH:MM` (24-hour) or ''. */
export interface TimeFieldProps {
  id: string;
  label: string;
  /** `HH:MM` (24-hour) or '' (nothing, or an incomplete entry). */
  value: string;
  onChange: (time: string) => void;
  isRequired?: boolean;
  /** Shows the label to screen readers only (the row says what it is). */
  hideLabel?: boolean;
  /** Classes of the field's box (default `field dp`). */
  className?: string;
}

/** A labelled time field: typed segments (hour, minute, AM/PM in a 12-hour locale). */
export function TimeInputField({ id, label, value, onChange, isRequired = false, hideLabel = false, className = 'field dp' }: TimeFieldProps) {
  return (
    <TimeField id={id} className={className} value={toTime(value)} onChange={(t) => onChange(t ? `${two(t.hour)}:${two(t.minute)}` : '')} isRequired={isRequired}>
      <Label className={hideLabel ? 'sr-only' : 'dp-label'}>{label}</Label>
      <DateInput className="dp-group dp-input">{(segment) => <DateSegment segment={segment} className="dp-segment" />}</DateInput>
    </TimeField>
  );
}

/** A labelled date picker ("Date") and time field ("Time"), side by side in `.when-row`. */
export default function DateTimeFields({ date, time, onDate, onTime, dateInvalid = false, idPrefix }: DateTimeProps) {
  return (
    <div className="when-row">
      <DatePickerField id={`${idPrefix}-date`} label="Date" value={date} onChange={onDate} isRequired isInvalid={dateInvalid} />
      <TimeInputField id={`${idPrefix}-time`} label="Time" value={time} onChange={onTime} isRequired />
    </div>
  );
}
