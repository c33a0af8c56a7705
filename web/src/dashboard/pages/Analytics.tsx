/**
 * Analytics: totals and trends of the posts published in a chosen range, per profile and
 * platform; engagement over time (daily gains from the stored snapshots, GET /v1/analytics/daily);
 * the top posts; a sortable table of posts with their metrics; CSV export. Without the Analytics
 * add-on (402 analytics_addon_required) the page explains the add-on instead. Every load costs
 * two of the 30 analytics requests an hour, so answers are kept for five minutes.
 */
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useSearch } from 'wouter';
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ApiError, api, unwrap, type Paths } from '../api.ts';
import { ErrorBox, Loading, PageTitle, PlatformBadge } from '../components.tsx';
import { PLATFORM_IDS, PLATFORM_RULES, type PlatformName } from '../../lib/platforms.ts';
import { ADDONS } from '../../../../src/shared/plans.ts';
import { METRICS, METRIC_LABELS, engagementOf, type MetricName, type PostMetrics } from '../../../../src/shared/metrics.ts';
import { browserTimeZone, formatInZone } from '../time.ts';
import { useProfiles } from '../queries/profiles.ts';
import { FilterDateField } from '../ui/date-time.tsx';
import './metrics.css';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type AnalyticsAnswer = Json<Paths['/v1/analytics']['get']['responses'][200]>;
type ListAnswer = Extract<AnalyticsAnswer, { posts: unknown }>;
type Row = ListAnswer['posts'][number];
type SortKey = 'date' | 'engagement' | MetricName;

const RANGES = [7, 30, 90] as const;
const FIVE_MINUTES = 5 * 60_000;
const day = (d: Date) => d.toISOString().slice(0, 10);
const fmt = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n.toLocaleString('en-US'));

/** Whether an instant falls in the current year (the table then leaves the year out). */
const sameYear = (iso: string) => new Date(iso).getFullYear() === new Date().getFullYear();

function metricsOf(r: Row): PostMetrics {
  return Object.fromEntries(METRICS.map((k) => [k, r.analytics[k] ?? null])) as PostMetrics;
}

/** Sums a metric over rows; null when no row has it. */
function total(rows: PostMetrics[], k: MetricName): number | null {
  return rows.reduce<number | null>((s, m) => (m[k] === null ? s : (s ?? 0) + m[k]!), null);
}

function toCsv(rows: Row[], profileName: (id: string | null) => string): string {
  const head = ['post_id', 'published_at', 'profile', 'platforms', 'content', ...METRICS, 'engagement', 'engagement_rate'];
  const esc = (v: unknown) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = rows.map((r) => {
    const m = metricsOf(r);
    return [r._id, r.publishedAt ?? '', profileName(r.profileId), [...new Set(r.platforms.map((p) => p.platform))].join(' '), r.content,
      ...METRICS.map((k) => m[k] ?? ''), engagementOf(m), r.analytics.engagementRate ?? ''].map(esc).join(',');
  });
  return [head.join(','), ...lines].join('\r\n') + '\r\n';
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** What the add-on gives, shown instead of empty charts. */
function AddonNeeded() {
  const addon = ADDONS.analytics;
  return (
    <section className="card addon-card" aria-labelledby="a-addon">
      <h2 id="a-addon" className="small-title">Analytics is a paid add-on</h2>
      <p>{addon.description}</p>
      <ul>
        <li>Impressions, views, likes, comments, shares, saves and clicks from each platform that has them.</li>
        <li>Refreshed in the background: hourly on a post's first day, then less often as it ages.</li>
        <li>Totals per profile and platform, engagement over time, top posts and CSV export.</li>
      </ul>
      <p className="muted">Ask the operator of this Herald to grant the {addon.name} add-on to your account. <a href="/docs#analytics">How analytics works</a> · <a href="/pricing">Pricing</a></p>
    </section>
  );
}

export default function AnalyticsPage() {
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const profiles = useProfiles();
  const tz = localStorage.getItem('herald.tz') ?? browserTimeZone();
  const range = Number(search.get('range') || 30);
  const now = new Date();
  const fromDate = search.get('from') || day(new Date(now.getTime() - (range - 1) * 86_400_000));
  const toDate = search.get('to') || day(now);
  const platform = (search.get('platform') || undefined) as PlatformName | undefined;
  const profileId = search.get('profileId') || undefined;
  const filters = { fromDate, toDate, ...(platform ? { platform } : {}), ...(profileId ? { profileId } : {}) };
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: 'engagement', desc: true });

  /** Sets one parameter of the URL (from the URL as it is now: the date fields pass their values on after a pause). */
  function set(name: string, value: string) {
    const s = new URLSearchParams(window.location.search);
    if (value) s.set(name, value); else s.delete(name);
    if (name === 'range') { s.delete('from'); s.delete('to'); }
    navigate(`/analytics${s.toString() ? `?${s}` : ''}`);
  }

  const retry = (n: number, e: unknown) => !(e instanceof ApiError && [402, 403, 429].includes(e.status)) && n < 2;
  const list = useQuery({
    queryKey: ['analytics', 'list', filters],
    queryFn: () => unwrap(api.GET('/v1/analytics', { params: { query: { ...filters, limit: 100, sortBy: 'engagement', order: 'desc' } } })) as Promise<ListAnswer>,
    staleTime: FIVE_MINUTES, retry,
  });
  const daily = useQuery({
    queryKey: ['analytics', 'daily', filters],
    queryFn: () => unwrap(api.GET('/v1/analytics/daily', { params: { query: filters } })),
    staleTime: FIVE_MINUTES, retry, enabled: !(list.error instanceof ApiError && list.error.status === 402),
  });

  const rows = useMemo(() => list.data?.posts ?? [], [list.data]);
  const profileName = (id: string | null) => profiles.data?.find((p) => p._id === id)?.name ?? '—';
  const sorted = useMemo(() => {
    const val = (r: Row) => (sort.key === 'date' ? Date.parse(r.publishedAt ?? '') || 0 : sort.key === 'engagement' ? engagementOf(metricsOf(r)) : r.analytics[sort.key] ?? -1);
    return [...rows].sort((a, b) => (sort.desc ? val(b) - val(a) : val(a) - val(b)));
  }, [rows, sort]);

  const byGroup = (keyOf: (r: Row) => string[]) => {
    const groups = new Map<string, PostMetrics[]>();
    for (const r of rows) for (const k of keyOf(r)) groups.set(k, [...(groups.get(k) ?? []), metricsOf(r)]);
    return [...groups].map(([k, ms]) => ({ key: k, posts: ms.length, engagement: ms.reduce((s, m) => s + engagementOf(m), 0) }))
      .sort((a, b) => b.engagement - a.engagement);
  };
  // Per platform: each target's own metrics.
  const perPlatform = useMemo(() => {
    const groups = new Map<string, PostMetrics[]>();
    for (const r of rows) for (const t of r.platforms) if (t.analytics) groups.set(t.platform, [...(groups.get(t.platform) ?? []), t.analytics as PostMetrics]);
    return [...groups].map(([k, ms]) => ({ key: k, label: PLATFORM_RULES[k as PlatformName]?.label ?? k, posts: ms.length, engagement: ms.reduce((s, m) => s + engagementOf(m), 0) }))
      .sort((a, b) => b.engagement - a.engagement);
  }, [rows]);
  const perProfile = byGroup((r) => [r.profileId ?? '']);
  const all = rows.map(metricsOf);
  const totals = { posts: rows.length, engagement: all.reduce((s, m) => s + engagementOf(m), 0), impressions: total(all, 'impressions'), views: total(all, 'views'), likes: total(all, 'likes'), comments: total(all, 'comments'), shares: total(all, 'shares') };
  const days = daily.data?.days ?? [];
  const addonMissing = list.error instanceof ApiError && list.error.status === 402;
  const sortHeader = (key: SortKey, label: string) => (
    <th key={key} scope="col" aria-sort={sort.key === key ? (sort.desc ? 'descending' : 'ascending') : 'none'}>
      <button type="button" className="sort-btn" onClick={() => setSort({ key, desc: sort.key === key ? !sort.desc : true })}>
        {label}{sort.key === key ? (sort.desc ? ' ▼' : ' ▲') : ''}
      </button>
    </th>
  );

  return (
    <>
      <PageTitle title="Analytics">
        {rows.length > 0 && <button type="button" className="btn" onClick={() => download(`herald-analytics-${fromDate}-${toDate}.csv`, toCsv(sorted, profileName))}>Export CSV</button>}
      </PageTitle>
      {addonMissing ? <AddonNeeded /> : (
        <>
          <form className="filters" aria-label="Analytics range and filters" onSubmit={(e) => e.preventDefault()}>
            <div className="field"><label htmlFor="a-range">Range</label>
              <select id="a-range" value={search.get('from') ? '' : String(range)} onChange={(e) => set('range', e.target.value)}>
                {RANGES.map((r) => <option key={r} value={r}>Last {r} days</option>)}
                {search.get('from') && <option value="">Custom</option>}
              </select></div>
            <FilterDateField id="a-from" label="From" value={fromDate} max={toDate} onChange={(v) => set('from', v)} />
            <FilterDateField id="a-to" label="To" value={toDate} min={fromDate} onChange={(v) => set('to', v)} />
            <div className="field"><label htmlFor="a-platform">Platform</label>
              <select id="a-platform" value={platform ?? ''} onChange={(e) => set('platform', e.target.value)}>
                <option value="">All</option>{PLATFORM_IDS.map((p) => <option key={p} value={p}>{PLATFORM_RULES[p].label}</option>)}
              </select></div>
            <div className="field"><label htmlFor="a-profile">Profile</label>
              <select id="a-profile" value={profileId ?? ''} onChange={(e) => set('profileId', e.target.value)}>
                <option value="">All</option>{profiles.data?.map((p) => <option key={p._id} value={p._id}>{p.name}</option>)}
              </select></div>
          </form>
          <ErrorBox error={list.error ?? daily.error} title="Could not load analytics" />
          {list.isLoading && <Loading />}
          {list.data && (
            <>
              <section className="stat-grid" aria-label="Totals">
                {([['Posts', totals.posts], ['Engagement', totals.engagement], ['Impressions', totals.impressions], ['Views', totals.views], ['Likes', totals.likes], ['Comments', totals.comments], ['Shares', totals.shares]] as Array<[string, number | null]>)
                  .map(([label, v]) => <div key={label} className="card stat"><span className="stat-label">{label}</span><strong className="stat-value">{fmt(v)}</strong></div>)}
              </section>
              <p className="hint">Posts published {fromDate} to {toDate} (UTC days){list.data.posts.length === 100 ? ', the 100 most engaging' : ''}. Last refreshed {list.data.overview.lastSync ? formatInZone(list.data.overview.lastSync, tz) : 'not yet'}. A dash means the platform has no such metric.</p>

              <section className="card" aria-labelledby="a-trend">
                <h2 id="a-trend" className="small-title">Engagement over time</h2>
                {days.length === 0 ? <p className="muted">No readings in this range yet: metrics are read in the background after a post is published.</p> : (
                  <div className="chart" role="img" aria-label={`Daily engagement gained, ${days.length} days`}>
                    <ResponsiveContainer width="100%" height={260}>
                      <AreaChart data={days} margin={{ top: 8, right: 12, left: 0, bottom: 0 }}>
                        <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
                        <XAxis dataKey="date" tick={{ fontSize: 12 }} />
                        <YAxis allowDecimals={false} tick={{ fontSize: 12 }} width={48} />
                        <Tooltip />
                        <Legend />
                        <Area type="monotone" dataKey="likes" name="Likes" stackId="e" stroke="#4f46e5" fill="#c7d2fe" />
                        <Area type="monotone" dataKey="comments" name="Comments" stackId="e" stroke="#0891b2" fill="#a5f3fc" />
                        <Area type="monotone" dataKey="shares" name="Shares" stackId="e" stroke="#16a34a" fill="#bbf7d0" />
                        <Area type="monotone" dataKey="saves" name="Saves" stackId="e" stroke="#ca8a04" fill="#fef08a" />
                        <Area type="monotone" dataKey="clicks" name="Clicks" stackId="e" stroke="#db2777" fill="#fbcfe8" />
                      </AreaChart>
                    </ResponsiveContainer>
                  </div>
                )}
              </section>

              <div className="analytics-grid">
                <section className="card" aria-labelledby="a-platforms">
                  <h2 id="a-platforms" className="small-title">By platform</h2>
                  {perPlatform.length === 0 ? <p className="muted">No metrics yet.</p> : (
                    <>
                      <div className="chart" role="img" aria-label="Engagement by platform">
                        <ResponsiveContainer width="100%" height={Math.max(80, perPlatform.length * 36)}>
                          <BarChart data={perPlatform} layout="vertical" margin={{ top: 0, right: 12, left: 0, bottom: 0 }}>
                            <XAxis type="number" hide />
                            <YAxis type="category" dataKey="label" width={96} tick={{ fontSize: 12 }} />
                            <Tooltip />
                            <Bar dataKey="engagement" name="Engagement" fill="#4f46e5" />
                          </BarChart>
                        </ResponsiveContainer>
                      </div>
                      <div className="table-wrap"><table className="mini-table"><thead><tr><th scope="col">Platform</th><th scope="col">Posts</th><th scope="col">Engagement</th></tr></thead>
                        <tbody>{perPlatform.map((g) => <tr key={g.key}><td><PlatformBadge platform={g.key} /></td><td>{g.posts}</td><td>{fmt(g.engagement)}</td></tr>)}</tbody></table></div>
                    </>
                  )}
                </section>
                <section className="card" aria-labelledby="a-profiles">
                  <h2 id="a-profiles" className="small-title">By profile</h2>
                  <div className="table-wrap"><table className="mini-table"><thead><tr><th scope="col">Profile</th><th scope="col">Posts</th><th scope="col">Engagement</th></tr></thead>
                    <tbody>{perProfile.map((g) => <tr key={g.key}><td>{profileName(g.key)}</td><td>{g.posts}</td><td>{fmt(g.engagement)}</td></tr>)}</tbody></table></div>
                </section>
                <section className="card" aria-labelledby="a-top">
                  <h2 id="a-top" className="small-title">Top posts</h2>
                  {rows.length === 0 ? <p className="muted">No published posts in this range.</p> : (
                    <ol className="top-posts">
                      {rows.slice(0, 5).map((r) => (
                        <li key={r._id}><Link href={`/posts/${r._id}`}>{r.content ? r.content.slice(0, 80) : '(no text)'}</Link> <span className="muted small">{fmt(engagementOf(metricsOf(r)))} engagement</span></li>
                      ))}
                    </ol>
                  )}
                </section>
              </div>

              {rows.length > 0 && (
                <section className="card flush" aria-labelledby="a-table">
                  <h2 id="a-table" className="small-title table-title">Posts</h2>
                  {/* Fits 1280 px; narrower screens scroll it sideways inside this box, which the keyboard can reach. */}
                  <div className="table-wrap" tabIndex={0} role="group" aria-label="Posts and their metrics (scrolls sideways on narrow screens)">
                    <table className="analytics-table">
                      <thead><tr>
                        <th scope="col">Post</th><th scope="col">Platforms</th>
                        {sortHeader('date', 'Published')}{sortHeader('engagement', 'Engagement')}
                        {METRICS.map((k) => sortHeader(k, METRIC_LABELS[k]))}
                      </tr></thead>
                      <tbody>
                        {sorted.map((r) => {
                          const m = metricsOf(r);
                          return (
                            <tr key={r._id}>
                              <td><Link href={`/posts/${r._id}`} className="post-link">{r.content ? r.content.slice(0, 80) : '(no text)'}</Link></td>
                              <td className="nowrap">{[...new Set(r.platforms.map((t) => t.platform))].map((pl) => <PlatformBadge key={pl} platform={pl}><span className="sr-only">{PLATFORM_RULES[pl as PlatformName]?.label ?? pl}</span></PlatformBadge>)}</td>
                              <td className="nowrap">{r.publishedAt ? <time dateTime={r.publishedAt} title={formatInZone(r.publishedAt, tz, { dateStyle: 'medium' })}>{formatInZone(r.publishedAt, tz, sameYear(r.publishedAt) ? { month: 'short', day: 'numeric' } : { dateStyle: 'medium' })}</time> : '—'}</td>
                              <td className="num">{fmt(engagementOf(m))}</td>
                              {METRICS.map((k) => <td key={k} className="num">{fmt(m[k])}</td>)}
                            </tr>
                          );
                        })}
                      </tbody>
                    </table>
                  </div>
                </section>
              )}
            </>
          )}
        </>
      )}
    </>
  );
}

