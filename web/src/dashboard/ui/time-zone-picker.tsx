/**
 * The dashboard's one time-zone picker: a searchable combobox (React Aria Components' ComboBox,
 * https://react-spectrum.adobe.com/react-aria/ComboBox.html) listing the browser's own zone and the
 * recently used ones first, then every zone the browser knows, each with its current UTC offset.
 * Loaded on demand through ./time-zone.tsx, so it stays out of the pages' first load.
 */
import { useMemo } from 'react';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, ListBoxSection, Popover } from 'react-aria-components/ComboBox';
import { Header } from 'react-aria-components/ListBox';
import { allTimeZones, browserTimeZone, utcOffsetLabel } from '../time.ts';
import './ui.css';

const RECENT_KEY = 'herald.recentTimeZones';
const RECENT_MAX = 5;

/** The zones picked last in this browser (most recent first), from localStorage. */
export function recentTimeZones(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((z): z is string => typeof z === 'string').slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

/** Records `tz` as the most recently used zone in this browser. */
export function rememberTimeZone(tz: string): void {
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify([tz, ...recentTimeZones().filter((z) => z !== tz)].slice(0, RECENT_MAX)));
  } catch { /* storage full or disabled: nothing to remember */ }
}

/** "America/New_York" and "new york" alike: lower case, with "_" and "/" as spaces. */
const normalise = (s: string) => s.toLowerCase().replace(/[_/]+/g, ' ').replace(/\s+/g, ' ').trim();

interface Zone { id: string; offset: string; mine: boolean }

/**
 * A labelled, searchable time-zone combobox. `value` is an IANA zone id; `onChange` receives the
 * picked one (and the zone is remembered as recently used). `className` is the root's extra class
 * (for the page's layout), `id` the text input's id.
 */
export default function TimeZonePicker({ value, onChange, label = 'Time zone', className = '', id }: {
  value: string; onChange: (tz: string) => void; label?: string; className?: string; id?: string;
}) {
  const { suggested, others } = useMemo(() => {
    const mine = browserTimeZone();
    const firsts = [...new Set([mine, ...recentTimeZones(), value])];
    const now = new Date();
    const zone = (z: string): Zone => ({ id: z, offset: utcOffsetLabel(z, now), mine: z === mine });
    return { suggested: firsts.map(zone), others: allTimeZones().filter((z) => !firsts.includes(z)).map(zone) };
  }, []); // On mount only: the list must not reorder while the user picks.
  // A zone the browser does not list (an alias a saved post carries) still shows as picked.
  const listed = suggested.some((z) => z.id === value) || others.some((z) => z.id === value);
  const firsts = listed ? suggested : [...suggested, { id: value, offset: utcOffsetLabel(value), mine: false }];
  const option = (z: Zone) => (
    <ListBoxItem key={z.id} id={z.id} textValue={z.id} className="tz-option">
      <span className="tz-name">{z.id.replace(/_/g, ' ')}{z.mine && <span className="tz-mine"> (your time zone)</span>}</span>
      <span className="tz-offset">{z.offset}</span>
    </ListBoxItem>
  );
  return (
    <ComboBox
      className={`tz-combo ${className}`}
      selectedKey={value}
      onSelectionChange={(key) => { if (key !== null && String(key) !== value) { rememberTimeZone(String(key)); onChange(String(key)); } }}
      defaultFilter={(text, input) => normalise(text).includes(normalise(input))}
      menuTrigger="focus"
    >
      <Label className="tz-label">{label}</Label>
      <div className="tz-control">
        <Input id={id} className="tz-input" />
        <Button className="tz-button" aria-label="Show time zones">▾</Button>
      </div>
      <Popover className="tz-popover" placement="bottom start" maxHeight={360}>
        <ListBox className="tz-list" renderEmptyState={() => <p className="tz-empty">No time zone matches.</p>}>
          <ListBoxSection id="suggested" className="tz-section">
            <Header className="tz-header">Yours and recent</Header>
            {firsts.map(option)}
          </ListBoxSection>
          <ListBoxSection id="all" className="tz-section">
            <Header className="tz-header">All time zones</Header>
            {others.map(option)}
          </ListBoxSection>
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
