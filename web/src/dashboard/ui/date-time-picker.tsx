/**
 * The composer's date and time: React Aria Components' DatePicker (typed segments in the browser's
 * locale, and a calendar to pick from: https://react-spectrum.adobe.com/react-aria/DatePicker.html)
 * and TimeField (https://react-spectrum.adobe.com/react-aria/TimeField.html), the same library as
 * the time-zone combobox. Values cross this boundary as plain strings: the date as `YYYY-MM-DD`,
 * the time as `HH:MM` (24-hour), both wall-clock times in the zone the page shows beside them;
 * an incomplete entry is ''. Loaded on demand through ./date-time.tsx.
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

/** A labelled date picker ("Date") and time field ("Time"), side by side in `.when-row`. */
export default function DateTimeFields({ date, time, onDate, onTime, dateInvalid = false, idPrefix }: DateTimeProps) {
  return (
    <div className="when-row">
      <DatePicker id={`${idPrefix}-date`} className="field dp" value={toDate(date)} onChange={(v) => onDate(v ? v.toString() : '')} isRequired isInvalid={dateInvalid}>
        <Label className="dp-label">Date</Label>
        <Group className="dp-group">
          <DateInput className="dp-input">{(segment) => <DateSegment segment={segment} className="dp-segment" />}</DateInput>
          <Button className="dp-button" aria-label="Choose the date on a calendar">
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
      <TimeField id={`${idPrefix}-time`} className="field dp" value={toTime(time)} onChange={(t) => onTime(t ? `${two(t.hour)}:${two(t.minute)}` : '')} isRequired>
        <Label className="dp-label">Time</Label>
        <DateInput className="dp-group dp-input">{(segment) => <DateSegment segment={segment} className="dp-segment" />}</DateInput>
      </TimeField>
    </div>
  );
}
