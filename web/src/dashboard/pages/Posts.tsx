import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useSearch } from 'wouter';
import { api, unwrap, type PostStatus } from '../api.ts';
import { ErrorBox, Loading, PageTitle, PlatformBadge, PlatformIcon, StatusBadge } from '../components.tsx';
import { PLATFORM_IDS, PLATFORM_RULES, type PlatformName } from '../../lib/platforms.ts';
import { browserTimeZone, formatInZone } from '../time.ts';
import { useProfiles } from './Profiles.tsx';

const STATUSES: PostStatus[] = ['draft', 'scheduled', 'publishing', 'published', 'failed', 'partial', 'cancelled'];

export default function PostsPage() {
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const profiles = useProfiles();
  const tz = localStorage.getItem('herald.tz') ?? browserTimeZone();
  const filters = {
    status: (search.get('status') || undefined) as PostStatus | undefined,
    platform: (search.get('platform') || undefined) as PlatformName | undefined,
    profileId: search.get('profileId') || undefined,
    dateFrom: search.get('from') ? new Date(`${search.get('from')}T00:00:00`).toISOString() : undefined,
    dateTo: search.get('to') ? new Date(`${search.get('to')}T23:59:59.999`).toISOString() : undefined,
    page: Number(search.get('page') || 1),
    limit: 20,
  };
  const posts = useQuery({
    queryKey: ['posts', 'list', filters],
    queryFn: () => unwrap(api.GET('/v1/posts', { params: { query: filters } })),
    refetchInterval: 15_000,
  });

  function set(name: string, value: string) {
    const s = new URLSearchParams(search);
    if (value) s.set(name, value); else s.delete(name);
    if (name !== 'page') s.delete('page');
    navigate(`/posts${s.toString() ? `?${s}` : ''}`);
  }

  const pg = posts.data?.pagination;
  return (
    <>
      <PageTitle title="Posts"><Link href="/compose" className="btn btn-primary">New post</Link></PageTitle>
      <form className="filters" aria-label="Filter posts" onSubmit={(e) => e.preventDefault()}>
        <div className="field"><label htmlFor="f-status">Status</label>
          <select id="f-status" value={filters.status ?? ''} onChange={(e) => set('status', e.target.value)}>
            <option value="">All</option>{STATUSES.map((s) => <option key={s}>{s}</option>)}
          </select></div>
        <div className="field"><label htmlFor="f-platform">Platform</label>
          <select id="f-platform" value={filters.platform ?? ''} onChange={(e) => set('platform', e.target.value)}>
            <option value="">All</option>{PLATFORM_IDS.map((p) => <option key={p} value={p}>{PLATFORM_RULES[p].label}</option>)}
          </select></div>
        <div className="field"><label htmlFor="f-profile">Profile</label>
          <select id="f-profile" value={filters.profileId ?? ''} onChange={(e) => set('profileId', e.target.value)}>
            <option value="">All</option>{profiles.data?.map((p) => <option key={p._id} value={p._id}>{p.name}</option>)}
          </select></div>
        <div className="field"><label htmlFor="f-from">From</label><input id="f-from" type="date" value={search.get('from') ?? ''} onChange={(e) => set('from', e.target.value)} /></div>
        <div className="field"><label htmlFor="f-to">To</label><input id="f-to" type="date" value={search.get('to') ?? ''} onChange={(e) => set('to', e.target.value)} /></div>
      </form>
      <ErrorBox error={posts.error} title="Could not load posts" />
      {posts.isLoading && <Loading />}
      {posts.data && posts.data.posts.length === 0 && <p className="empty">No posts match these filters.</p>}
      {posts.data && posts.data.posts.length > 0 && (
        <div className="table-wrap card flush">
          <table className="post-table">
            <thead><tr><th scope="col">Post</th><th scope="col">Platforms</th><th scope="col">When ({tz})</th><th scope="col">Status</th></tr></thead>
            <tbody>
              {posts.data.posts.map((p) => (
                <tr key={p._id}>
                  <td>
                    <Link href={`/posts/${p._id}`} className="post-link">{p.content ? p.content.slice(0, 120) : '(no text)'}</Link>{p.queuedFromProfile && <span className="badge queue-badge">Queued</span>}
                    {/* On a phone the other columns fold into this line under the text (the table would scroll sideways). */}
                    <span className="post-meta-phone">
                      {[...new Set(p.platforms.map((t) => t.platform))].map((pl) => <PlatformIcon key={pl} platform={pl} />)}
                      <span className="sr-only">{[...new Set(p.platforms.map((t) => PLATFORM_RULES[t.platform as PlatformName]?.label ?? t.platform))].join(', ')}</span>
                      <span>{p.scheduledFor ? formatInZone(p.scheduledFor, tz) : 'No date'}</span>
                      <StatusBadge status={p.status} />
                    </span>
                  </td>
                  <td className="nowrap">{[...new Set(p.platforms.map((t) => t.platform))].map((pl) => <PlatformBadge key={pl} platform={pl} />)}</td>
                  <td className="nowrap">{p.scheduledFor ? formatInZone(p.scheduledFor, tz) : <span className="muted">—</span>}</td>
                  <td><StatusBadge status={p.status} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pg && pg.pages > 1 && (
        <nav className="pager" aria-label="Pages">
          <button type="button" className="btn btn-sm" disabled={pg.page <= 1} onClick={() => set('page', String(pg.page - 1))}>Previous</button>
          <span>Page {pg.page} of {pg.pages} ({pg.total} posts)</span>
          <button type="button" className="btn btn-sm" disabled={pg.page >= pg.pages} onClick={() => set('page', String(pg.page + 1))}>Next</button>
        </nav>
      )}
    </>
  );
}
