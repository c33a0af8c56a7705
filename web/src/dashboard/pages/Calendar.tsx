import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap, type PostView } from '../api.ts';
import { ErrorBox, PageTitle, StatusBadge } from '../components.tsx';
import { PLATFORM_RULES, type PlatformName } from '../../lib/platforms.ts';
import { addDays, allTimeZones, browserTimeZone, dateKey, instantOf, pad, timeInZone, wallTime, weekdayMon } from '../time.ts';

type YMD = { year: number; month: number; day: number };
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const LOOK_BACK_MS = 31 * 86_400_000;

/** When a post shows on the calendar: when it was published, else when it is scheduled. */
export function placedAt(p: PostView): string | null {
  return p.publishedAt ?? p.scheduledFor;
}

/** Every post scheduled in [from, to), all pages. */
export async function fetchPostsBetween(from: Date, to: Date): Promise<PostView[]> {
  const out: PostView[] = [];
  for (let page = 1; page <= 50; page++) {
    const r = await unwrap(api.GET('/v1/posts', { params: { query: { dateFrom: from.toISOString(), dateTo: new Date(to.getTime() - 1).toISOString(), limit: 100, page } } }));
    out.push(...r.posts);
    if (page >= r.pagination.pages) break;
  }
  return out;
}

function usePostsBetween(from: Date, to: Date) {
  // Published posts sit on the day they were published, which is later than their scheduled time
  // when that was in the past: look back a month for them.
  return useQuery({ queryKey: ['posts', 'range', from.toISOString(), to.toISOString()], queryFn: () => fetchPostsBetween(new Date(from.getTime() - LOOK_BACK_MS), to), refetchInterval: 15_000 });
}

function PostChip({ post, tz }: { post: PostView; tz: string }) {
  const platforms = [...new Set(post.platforms.map((t) => t.platform))];
  return (
    <Link href={`/posts/${post._id}`} className={`post-chip chip-${post.status}`} title={post.content}>
      <span className="chip-time">{placedAt(post) ? timeInZone(placedAt(post)!, tz) : ''}</span>
      <span className="chip-dots" aria-hidden="true">{platforms.map((p) => <span key={p} className="pdot" style={{ background: PLATFORM_RULES[p as PlatformName]?.brand ?? '#888' }} />)}</span>
      <span className="chip-text">{post.content || '(no text)'}</span>
      <span className="sr-only">, {post.status}, on {platforms.join(', ')}</span>
    </Link>
  );
}

export default function CalendarPage() {
  const [tz, setTz] = useState(() => localStorage.getItem('herald.tz') ?? browserTimeZone());
  const today = wallTime(new Date(), tz);
  const [view, setView] = useState<'month' | 'week'>(() => (localStorage.getItem('herald.calendarView') === 'week' ? 'week' : 'month'));
  const [anchor, setAnchor] = useState<YMD>({ year: today.year, month: today.month, day: today.day });

  const range = useMemo(() => {
    if (view === 'month') {
      const first = { year: anchor.year, month: anchor.month, day: 1 };
      const start = addDays(first, -weekdayMon(first));
      return { start, days: 42 };
    }
    return { start: addDays(anchor, -weekdayMon(anchor)), days: 7 };
  }, [view, anchor]);
  const days = useMemo(() => Array.from({ length: range.days }, (_, i) => addDays(range.start, i)), [range]);
  const from = useMemo(() => instantOf({ ...range.start, hour: 0, minute: 0 }, tz), [range, tz]);
  const to = useMemo(() => instantOf({ ...addDays(range.start, range.days), hour: 0, minute: 0 }, tz), [range, tz]);
  const posts = usePostsBetween(from, to);

  const byDay = useMemo(() => {
    const m = new Map<string, PostView[]>();
    for (const p of posts.data ?? []) {
      const at = placedAt(p);
      if (!at) continue;
      const k = dateKey(wallTime(new Date(at), tz));
      m.set(k, [...(m.get(k) ?? []), p]);
    }
    for (const list of m.values()) list.sort((a, b) => placedAt(a)!.localeCompare(placedAt(b)!));
    return m;
  }, [posts.data, tz]);

  const title = view === 'month'
    ? new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(anchor.year, anchor.month - 1, 1)))
    : `Week of ${new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(Date.UTC(range.start.year, range.start.month - 1, range.start.day)))}`;

  function move(n: number) {
    if (view === 'month') {
      const d = new Date(Date.UTC(anchor.year, anchor.month - 1 + n, 1));
      setAnchor({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: 1 });
    } else setAnchor(addDays(anchor, 7 * n));
  }
  const setViewSaved = (v: 'month' | 'week') => { setView(v); localStorage.setItem('herald.calendarView', v); };
  const todayKey = dateKey(today);

  return (
    <>
      <PageTitle title="Calendar">
        <Link href="/compose" className="btn btn-primary">New post</Link>
      </PageTitle>
      <div className="cal-toolbar">
        <div className="button-row" role="group" aria-label="Navigate">
          <button type="button" className="btn btn-sm" onClick={() => move(-1)} aria-label={`Previous ${view}`}>‹</button>
          <button type="button" className="btn btn-sm" onClick={() => setAnchor({ year: today.year, month: today.month, day: today.day })}>Today</button>
          <button type="button" className="btn btn-sm" onClick={() => move(1)} aria-label={`Next ${view}`}>›</button>
        </div>
        <h2 className="cal-title" aria-live="polite">{title}</h2>
        <div className="seg" role="radiogroup" aria-label="Calendar view">
          <button type="button" role="radio" aria-checked={view === 'month'} className={view === 'month' ? 'on' : ''} onClick={() => setViewSaved('month')}>Month</button>
          <button type="button" role="radio" aria-checked={view === 'week'} className={view === 'week' ? 'on' : ''} onClick={() => setViewSaved('week')}>Week</button>
        </div>
        <label className="tz-pick">
          <span>Time zone</span>
          <select value={tz} onChange={(e) => { setTz(e.target.value); localStorage.setItem('herald.tz', e.target.value); }}>
            {allTimeZones().map((z) => <option key={z}>{z}</option>)}
          </select>
        </label>
      </div>
      <ErrorBox error={posts.error} title="Could not load posts" />
      {view === 'month' ? (
        <div className="cal-month" role="grid" aria-label={title} aria-busy={posts.isLoading}>
          <div className="cal-row cal-head" role="row">{WEEKDAYS.map((d) => <div key={d} role="columnheader">{d}</div>)}</div>
          {Array.from({ length: 6 }, (_, w) => (
            <div className="cal-row" role="row" key={w}>
              {days.slice(w * 7, w * 7 + 7).map((d) => {
                const k = dateKey(d);
                const list = byDay.get(k) ?? [];
                return (
                  <div key={k} role="gridcell" className={`cal-cell${d.month !== anchor.month ? ' other' : ''}${k === todayKey ? ' today' : ''}${k < todayKey ? ' past' : ''}`} data-date={k}>
                    <div className="cal-day">
                      <span className="day-num">{d.day}</span>
                      {k >= todayKey && <Link href={`/compose?date=${k}`} className="add-link" aria-label={`New post on ${k}`}>+</Link>}
                    </div>
                    {list.slice(0, 4).map((p) => <PostChip key={p._id} post={p} tz={tz} />)}
                    {list.length > 4 && <button type="button" className="more-link" onClick={() => { setAnchor(d); setViewSaved('week'); }}>+{list.length - 4} more</button>}
                  </div>
                );
              })}
            </div>
          ))}
        </div>
      ) : (
        <div className="cal-week" role="grid" aria-label={title} aria-busy={posts.isLoading}>
          {days.map((d, i) => {
            const k = dateKey(d);
            const list = byDay.get(k) ?? [];
            return (
              <div key={k} role="gridcell" className={`week-col${k === todayKey ? ' today' : ''}${k < todayKey ? ' past' : ''}`} data-date={k}>
                <div className="week-head"><span>{WEEKDAYS[i]}</span> <strong>{d.day}</strong> {k >= todayKey && <Link href={`/compose?date=${k}`} className="add-link" aria-label={`New post on ${k}`}>+</Link>}</div>
                {list.length === 0 && <p className="muted small">No posts</p>}
                {list.map((p) => (
                  <div key={p._id} className="week-item">
                    <PostChip post={p} tz={tz} />
                    <StatusBadge status={p.status} />
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      )}
      <p className="muted small">Times in {tz} ({pad(today.hour)}:{pad(today.minute)} now). Drafts without a date are in the <Link href="/posts?status=draft">post list</Link>.</p>
    </>
  );
}
