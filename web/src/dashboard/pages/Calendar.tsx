import { lazy, Suspense, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap, type PostView } from '../api.ts';
import { ErrorBox, PageTitle } from '../components.tsx';
import { addDays, browserTimeZone, dateKey, instantOf, pad, timeFormat, wallTime, weekdayMon } from '../time.ts';
import { packColumns } from '../calendar/layout.ts';
import { PostChip, placedAt } from '../calendar/PostChip.tsx';
import './calendar.css';
import { TimeZoneField } from '../ui/time-zone.tsx';
import { useAccounts } from '../queries/accounts.ts';

/** A day's full list, in an in-app dialog: loaded when first opened (its dialog library stays out of the calendar's chunk). */
const DayDialog = lazy(() => import('../calendar/DayDialog.tsx'));
/** A post waiting for approval, with approve / request changes (decision 0064): loaded when first opened. */
const ReviewDialog = lazy(() => import('../calendar/ReviewDialog.tsx'));

type YMD = { year: number; month: number; day: number };
/** A day in words (“Tuesday, March 10”). */
const longDate = (d: YMD) => new Intl.DateTimeFormat(undefined, { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(d.year, d.month - 1, d.day)));
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const LOOK_BACK_MS = 31 * 86_400_000;

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

/** Pixels per hour in the week view's hour grid. */
const HOUR_PX = 48;
/** Height of a week card: cards closer in time than this overlap, and are laid side by side. */
const WEEK_CARD_PX = 60;
/** Chips a month day shows; the rest are behind "+N more" (the day's list). */
const MONTH_CHIPS = 3;

/** What an empty calendar says: the first steps, from where the user is. */
function FirstSteps() {
  const accounts = useAccounts();
  const has = (accounts.data?.length ?? 0) > 0;
  return (
    <section className="card first-steps" aria-labelledby="first-steps">
      <h2 id="first-steps" className="small-title">Nothing scheduled here yet</h2>
      <ol>
        <li className={has ? 'done' : ''}>{has ? 'Accounts connected.' : <><Link href="/profiles">Connect an account</Link> to a profile (X, Bluesky, LinkedIn and seven more).</>}</li>
        <li><Link href="/compose">Write a post</Link> and pick when it goes out; it appears here.</li>
        <li>Optional: set <Link href="/queue">weekly queue slots</Link> and “Add to queue” fills them in order.</li>
      </ol>
    </section>
  );
}

export default function CalendarPage() {
  const qc = useQueryClient();
  const [tz, setTz] = useState(() => localStorage.getItem('herald.tz') ?? browserTimeZone());
  const today = wallTime(new Date(), tz);
  const [view, setView] = useState<'month' | 'week'>(() => (localStorage.getItem('herald.calendarView') === 'week' ? 'week' : 'month'));
  const [anchor, setAnchor] = useState<YMD>({ year: today.year, month: today.month, day: today.day });
  const [moved, setMoved] = useState<string | null>(null);
  /** The day whose full list is open ("+N more"), as Y-M-D. */
  const [openDay, setOpenDay] = useState<YMD | null>(null);
  /** The post waiting for approval whose review dialog is open. */
  const [reviewing, setReviewing] = useState<PostView | null>(null);
  const review = (p: PostView) => { setOpenDay(null); setReviewing(p); };
  const hoursRef = useRef<HTMLDivElement>(null);

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
  const shown = days.reduce((n, d) => n + (byDay.get(dateKey(d))?.length ?? 0), 0);

  // The week's hour grid opens at 7:00, or an hour before the week's earliest post when that is
  // earlier (a post at 5:00 is not hidden above the fold). Once per week shown, not on every refetch.
  const firstHour = view === 'week'
    ? Math.min(7, ...days.flatMap((d) => (byDay.get(dateKey(d)) ?? []).map((p) => Math.max(0, wallTime(new Date(placedAt(p)!), tz).hour - 1))))
    : 7;
  const scrolledFor = useRef<string | null>(null);
  useEffect(() => {
    if (view !== 'week') { scrolledFor.current = null; return; }
    const key = `${dateKey(range.start)}:${tz}`;
    if (!hoursRef.current || !posts.data || scrolledFor.current === key) return;
    scrolledFor.current = key;
    hoursRef.current.scrollTop = firstHour * HOUR_PX;
  }, [view, range, tz, posts.data, firstHour]);

  /** Reschedules a post to a wall-clock time in the calendar's zone (PUT /v1/posts/{id}); the API refuses published posts. */
  const reschedule = useMutation({
    mutationFn: async ({ post, day, hour, minute }: { post: PostView; day: YMD; hour: number; minute: number }) => {
      const at = `${day.year}-${pad(day.month)}-${pad(day.day)}T${pad(hour)}:${pad(minute)}`;
      const r = await unwrap(api.PUT('/v1/posts/{postId}', { params: { path: { postId: post._id } }, body: { scheduledFor: at, timezone: tz } }));
      return r.post;
    },
    onSuccess: (p) => {
      setMoved(`Moved to ${timeFormat.dateTime(p.scheduledFor!, tz)}.`);
      // The moved post at once (a second move starts from its new time), then a fresh list.
      qc.setQueriesData<PostView[]>({ queryKey: ['posts', 'range'] }, (old) => old?.map((x) => (x._id === p._id ? p : x)));
      void qc.invalidateQueries({ queryKey: ['posts'] });
      void qc.invalidateQueries({ queryKey: ['post', p._id] });
    },
    onError: () => setMoved(null),
  });

  function moveTo(postId: string, day: YMD, hour?: number) {
    const post = posts.data?.find((p) => p._id === postId);
    if (!post) return;
    const w = wallTime(new Date(placedAt(post) ?? Date.now()), tz);
    reschedule.mutate({ post, day, hour: hour ?? w.hour, minute: w.minute });
  }
  function keyMove(post: PostView, dDays: number, dHours: number) {
    const w = wallTime(new Date(placedAt(post)!), tz);
    const shifted = new Date(Date.UTC(w.year, w.month - 1, w.day + dDays, w.hour + dHours, w.minute));
    reschedule.mutate({ post, day: { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() }, hour: shifted.getUTCHours(), minute: shifted.getUTCMinutes() });
  }
  const dropProps = (day: YMD, hour?: number) => ({
    onDragOver: (e: DragEvent) => { if (e.dataTransfer.types.includes('text/x-herald-post')) { e.preventDefault(); e.dataTransfer.dropEffect = 'move'; } },
    onDrop: (e: DragEvent) => { const id = e.dataTransfer.getData('text/x-herald-post'); if (id) { e.preventDefault(); moveTo(id, day, hour); } },
  });

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
  const hourLabel = (h: number) => timeFormat.wall(`${pad(h)}:00`);

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
        <TimeZoneField id="cal-tz" className="tz-pick" value={tz} onChange={(z) => { setTz(z); localStorage.setItem('herald.tz', z); }} />
      </div>
      <p id="cal-move-help" className="sr-only">Drag to another day or hour to reschedule, or press Alt with the arrow keys: left and right move a day, up and down an hour.</p>
      <ErrorBox error={posts.error} title="Could not load posts" />
      <ErrorBox error={reschedule.error} title="The post was not moved" />
      {moved && <p className="alert alert-ok" role="status">{moved}</p>}
      {posts.data && shown === 0 && <FirstSteps />}
      {view === 'month' ? (
        <div className="cal-month" role="grid" aria-label={title} aria-busy={posts.isLoading}>
          <div className="cal-row cal-head" role="row">{WEEKDAYS.map((d) => <div key={d} role="columnheader">{d}</div>)}</div>
          {Array.from({ length: 6 }, (_, w) => (
            <div className="cal-row" role="row" key={w}>
              {days.slice(w * 7, w * 7 + 7).map((d, i) => {
                const k = dateKey(d);
                const list = byDay.get(k) ?? [];
                return (
                  <div key={k} role="gridcell" className={`cal-cell${d.month !== anchor.month ? ' other' : ''}${k === todayKey ? ' today' : ''}${k < todayKey ? ' past' : ''}${list.length === 0 ? ' empty' : ''}`} data-date={k}
                    {...(k >= todayKey ? dropProps(d) : {})}>
                    <div className="cal-day">
                      <span className="day-num"><span className="day-name">{WEEKDAYS[i]} </span>{d.day}</span>
                      {k >= todayKey && <Link href={`/compose?date=${k}`} className="add-link" aria-label={`New post on ${k}`}>+</Link>}
                    </div>
                    {list.slice(0, list.length > MONTH_CHIPS ? MONTH_CHIPS - 1 : MONTH_CHIPS).map((p) => <PostChip key={p._id} post={p} tz={tz} onKeyMove={keyMove} onReview={review} />)}
                    {list.length > MONTH_CHIPS && (
                      <button type="button" className="more-link" aria-haspopup="dialog" onClick={() => setOpenDay(d)}>
                        +{list.length - MONTH_CHIPS + 1} more<span className="sr-only"> on {longDate(d)}</span>
                      </button>
                    )}
                  </div>
                );
              })}
            </div>
          ))}
        </div>
      ) : (
        <div className="cal-week-grid" role="region" aria-label={title} aria-busy={posts.isLoading}>
          <div className="wk-head" aria-hidden="true">
            <div className="wk-corner" />
            {days.map((d, i) => {
              const k = dateKey(d);
              return (
                <div key={k} className={`wk-day${k === todayKey ? ' today' : ''}`}>
                  <span>{WEEKDAYS[i]}</span> <strong>{d.day}</strong>
                  {k >= todayKey && <Link href={`/compose?date=${k}`} className="add-link" tabIndex={-1}>+</Link>}
                </div>
              );
            })}
          </div>
          {/* The scroll box takes the focus (keyboard scrolling); the row inside holds the day columns. */}
          <div className="wk-body" ref={hoursRef} tabIndex={0}>
          <div className="wk-rows">
            <div className="wk-hours" aria-hidden="true">{Array.from({ length: 24 }, (_, h) => <div key={h} className="wk-hour" style={{ height: HOUR_PX }}>{hourLabel(h)}</div>)}</div>
            {days.map((d) => {
              const k = dateKey(d);
              const list = byDay.get(k) ?? [];
              return (
                <div key={k} role="group" aria-label={longDate(d)}
                  className={`week-col${k === todayKey ? ' today' : ''}${k < todayKey ? ' past' : ''}`} data-date={k} style={{ height: 24 * HOUR_PX }}>
                  {k >= todayKey && <Link href={`/compose?date=${k}`} className="sr-only sr-focusable" aria-label={`New post on ${k}`}>New post on this day</Link>}
                  {Array.from({ length: 24 }, (_, h) => (
                    <div key={h} className="wk-slot" style={{ top: h * HOUR_PX, height: HOUR_PX }} data-hour={h} {...(k >= todayKey ? dropProps(d, h) : {})} />
                  ))}
                  {(() => {
                    // Cards closer in time than a card's height overlap: side by side in columns.
                    const startOf = (p: PostView) => { const w = wallTime(new Date(placedAt(p)!), tz); return w.hour * 60 + w.minute; };
                    const cardMinutes = (WEEK_CARD_PX / HOUR_PX) * 60;
                    const places = packColumns(list.map((p) => ({ id: p._id, start: startOf(p), end: startOf(p) + cardMinutes })));
                    return list.map((p) => {
                    const place = places.get(p._id) ?? { col: 0, cols: 1 };
                    return (
                      <div key={p._id} className={`week-item${place.cols > 1 ? ' packed' : ''}`} data-col={place.col} data-cols={place.cols}
                        style={{ top: (startOf(p) / 60) * HOUR_PX, height: WEEK_CARD_PX, left: `calc(${(place.col / place.cols) * 100}% + 2px)`, width: `calc(${100 / place.cols}% - 4px)`, right: 'auto' }}>
                        <PostChip post={p} tz={tz} onKeyMove={keyMove} onReview={review} card />
                      </div>
                    );
                  });
                  })()}
                </div>
              );
            })}
          </div>
          </div>
        </div>
      )}
      {openDay && (
        <Suspense fallback={null}>
          <DayDialog title={longDate(openDay)} posts={byDay.get(dateKey(openDay)) ?? []} tz={tz} onClose={() => setOpenDay(null)}
            newPostHref={dateKey(openDay) >= todayKey ? `/compose?date=${dateKey(openDay)}` : null} onReview={review} />
        </Suspense>
      )}
      {reviewing && (
        <Suspense fallback={null}>
          <ReviewDialog post={reviewing} tz={tz} onClose={() => setReviewing(null)} />
        </Suspense>
      )}
      <p className="muted small">Times in {tz} ({timeFormat.time(new Date(), tz)} now). Drafts without a date are in the <Link href="/posts?status=draft">post list</Link>. Posts marked “Review” wait for approval: click one to approve it or request changes.</p>
    </>
  );
}
