/**
 * The posts list: a table (TanStack Table: https://tanstack.com/table) sorted and filtered by the
 * server (GET /v1/posts: status, platform, profileId, dateFrom/dateTo, search, sortBy, the Late
 * client's parameters), with each post's thumbnail, and bulk actions on the selected rows:
 * delete, reschedule to a day, move to a profile's queue. Filters, order and page live in the URL.
 */
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper, rowSelectionFeature, rowSortingFeature, tableFeatures, useTable, type RowSelectionState, type SortingState, type Updater } from '@tanstack/react-table';
import { Link, useLocation, useSearch } from 'wouter';
import { api, unwrap, type PostStatus, type PostView } from '../api.ts';
import { ErrorBox, Loading, PageTitle, PlatformIcon, StatusBadge } from '../components.tsx';
import { PLATFORM_IDS, PLATFORM_RULES, type PlatformName } from '../../lib/platforms.ts';
import { browserTimeZone, formatInZone } from '../time.ts';
import { FilterDateField } from '../ui/date-time.tsx';
import { firstImage } from '../calendar/PostChip.tsx';
import './posts.css';
import { useProfiles } from '../queries/profiles.ts';
import { useAccounts } from '../queries/accounts.ts';

/** The bulk actions (and their dialog library), loaded when a first row is selected. */
const BulkBar = lazy(() => import('./posts-bulk.tsx'));

const STATUSES: PostStatus[] = ['draft', 'pending_approval', 'scheduled', 'publishing', 'published', 'failed', 'partial', 'cancelled'];
const PAGE_SIZE = 20;

/** The server's orders (the Late client's sortBy) of each sortable column; status and platform sort one way only. */
type Sort = 'scheduled-desc' | 'scheduled-asc' | 'created-desc' | 'created-asc' | 'status' | 'platform';
const DEFAULT_SORT: Sort = 'scheduled-desc';
const ONE_WAY = new Set(['status', 'platform']);
const SORT_LABELS: Array<[Sort, string]> = [
  ['scheduled-desc', 'Latest time first'], ['scheduled-asc', 'Earliest time first'], ['created-desc', 'Newest created first'],
  ['created-asc', 'Oldest created first'], ['status', 'By status'], ['platform', 'By platform'],
];

function sortOf(state: SortingState): Sort {
  const s = state[0];
  if (!s) return 'created-desc';
  if (s.id === 'when') return s.desc ? 'scheduled-desc' : 'scheduled-asc';
  if (s.id === 'created') return s.desc ? 'created-desc' : 'created-asc';
  return s.id === 'platform' ? 'platform' : 'status';
}

function stateOf(sort: Sort): SortingState {
  if (sort === 'status' || sort === 'platform') return [{ id: sort, desc: false }];
  const [col, dir] = sort.split('-');
  return [{ id: col === 'scheduled' ? 'when' : 'created', desc: dir === 'desc' }];
}

const platformsOf = (p: PostView) => [...new Set(p.platforms.map((t) => t.platform))];
const platformNames = (p: PostView) => platformsOf(p).map((pl) => PLATFORM_RULES[pl as PlatformName]?.label ?? pl).join(', ');

const features = tableFeatures({ rowSortingFeature, rowSelectionFeature });
const col = createColumnHelper<typeof features, PostView>();
const NO_ROWS: PostView[] = [];

/** A column header that sorts on the server: a button saying the order, and aria-sort on the cell (set by the table). */
function SortButton({ label, sorted, onToggle }: { label: string; sorted: false | 'asc' | 'desc'; onToggle: () => void }) {
  return (
    <button type="button" className="sort-btn" onClick={onToggle}>
      {label}<span aria-hidden="true" className="sort-mark">{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ' ↕'}</span>
      <span className="sr-only">{sorted ? `, sorted ${sorted === 'asc' ? 'ascending' : 'descending'}` : ', sort'}</span>
    </button>
  );
}

export default function PostsPage() {
  const qs = useSearch();
  const search = useMemo(() => new URLSearchParams(qs), [qs]);
  const [, navigate] = useLocation();
  const qc = useQueryClient();
  const profiles = useProfiles();
  const accounts = useAccounts();
  const tz = localStorage.getItem('herald.tz') ?? browserTimeZone();
  const sort = (search.get('sort') as Sort | null) ?? DEFAULT_SORT;
  const filters = {
    status: (search.get('status') || undefined) as PostStatus | undefined,
    platform: (search.get('platform') || undefined) as PlatformName | undefined,
    profileId: search.get('profileId') || undefined,
    dateFrom: search.get('from') ? new Date(`${search.get('from')}T00:00:00`).toISOString() : undefined,
    dateTo: search.get('to') ? new Date(`${search.get('to')}T23:59:59.999`).toISOString() : undefined,
    search: search.get('q') || undefined,
    sortBy: sort,
    page: Number(search.get('page') || 1),
    limit: PAGE_SIZE,
  };
  const posts = useQuery({
    queryKey: ['posts', 'list', filters],
    queryFn: () => unwrap(api.GET('/v1/posts', { params: { query: filters } })),
    refetchInterval: 15_000,
    placeholderData: keepPreviousData,
  });

  /** Sets one parameter of the URL (from the URL as it is now: a debounced search may run after another filter changed). */
  function set(name: string, value: string) {
    const s = new URLSearchParams(window.location.search);
    if (value) s.set(name, value); else s.delete(name);
    if (name !== 'page') s.delete('page');
    navigate(`/posts${s.toString() ? `?${s}` : ''}`);
  }

  // The search box updates the URL (and the server's search) once typing pauses.
  const [text, setText] = useState(search.get('q') ?? '');
  useEffect(() => {
    if (text === (search.get('q') ?? '')) return;
    const t = setTimeout(() => set('q', text.trim()), 300);
    return () => clearTimeout(t);
    // Only the typed text starts it.
  }, [text]);

  const [selection, setSelection] = useState<RowSelectionState>({});
  const listKey = JSON.stringify(filters);
  useEffect(() => { setSelection({}); }, [listKey]);

  const columns = useMemo(() => col.columns([
    col.display({
      id: 'select',
      header: ({ table }) => (
        <input type="checkbox" aria-label="Select every post on this page" checked={table.getIsAllRowsSelected()}
          ref={(el) => { if (el) el.indeterminate = table.getIsSomeRowsSelected() && !table.getIsAllRowsSelected(); }}
          onChange={table.getToggleAllRowsSelectedHandler()} />
      ),
      cell: ({ row }) => (
        <input type="checkbox" aria-label={`Select “${(row.original.content || '(no text)').slice(0, 60)}”`} checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} />
      ),
    }),
    col.accessor('content', {
      id: 'post', header: 'Post', enableSorting: false,
      cell: ({ row }) => {
        const p = row.original;
        const thumb = firstImage(p);
        return (
          <div className="post-cell">
            {thumb ? <img className="post-thumb" src={thumb} alt="" loading="lazy" /> : <span className="post-thumb post-thumb-none" aria-hidden="true" />}
            <div className="post-cell-text">
              <Link href={`/posts/${p._id}`} className="post-link">{p.content ? p.content.slice(0, 160) : '(no text)'}</Link>
              {p.queuedFromProfile && <span className="badge queue-badge">Queued</span>}
              {/* On a phone the other columns fold into this line under the text. */}
              <span className="post-meta-phone">
                {platformsOf(p).map((pl) => <PlatformIcon key={pl} platform={pl} />)}
                <span className="sr-only">{platformNames(p)}</span>
                <span>{p.scheduledFor ? formatInZone(p.scheduledFor, tz) : 'No date'}</span>
                <StatusBadge status={p.status} />
              </span>
            </div>
          </div>
        );
      },
    }),
    col.accessor((p) => platformsOf(p).join(','), {
      id: 'platform', header: 'Platforms',
      cell: ({ row }) => (
        <span className="post-platforms">
          {platformsOf(row.original).map((pl) => <PlatformIcon key={pl} platform={pl} size={20} />)}
          <span className="sr-only">{platformNames(row.original)}</span>
        </span>
      ),
    }),
    col.accessor('scheduledFor', {
      id: 'when', header: `When (${tz})`, sortDescFirst: true,
      cell: ({ row }) => (row.original.scheduledFor ? formatInZone(row.original.scheduledFor, tz) : <span className="muted">No date</span>),
    }),
    col.accessor('status', { id: 'status', header: 'Status', cell: ({ row }) => <StatusBadge status={row.original.status} /> }),
  ]), [tz]);

  const sorting = useMemo(() => stateOf(sort), [sort]);
  const table = useTable({
    features, columns, data: posts.data?.posts ?? NO_ROWS,
    getRowId: (p) => p._id,
    manualSorting: true, enableMultiSort: false, enableSortingRemoval: false,
    state: { sorting, rowSelection: selection },
    onSortingChange: (u: Updater<SortingState>) => {
      let next = typeof u === 'function' ? u(sorting) : u;
      // Status and platform sort one way (the server's orders): a second click keeps it.
      if (next[0] && ONE_WAY.has(next[0].id)) next = [{ id: next[0].id, desc: false }];
      set('sort', sortOf(next) === DEFAULT_SORT ? '' : sortOf(next));
    },
    onRowSelectionChange: setSelection,
  });

  const selected = (posts.data?.posts ?? []).filter((p) => selection[p._id]);
  const pg = posts.data?.pagination;
  return (
    <>
      <PageTitle title="Posts"><Link href="/compose" className="btn btn-primary">New post</Link></PageTitle>
      <form className="filters posts-filters" aria-label="Filter posts" onSubmit={(e) => e.preventDefault()}>
        <div className="field grow"><label htmlFor="f-search">Search</label>
          <input id="f-search" type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Words in the post" maxLength={200} /></div>
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
        <FilterDateField id="f-from" label="From" value={search.get('from') ?? ''} max={search.get('to') ?? ''} onChange={(v) => set('from', v)} />
        <FilterDateField id="f-to" label="To" value={search.get('to') ?? ''} min={search.get('from') ?? ''} onChange={(v) => set('to', v)} />
        {/* On a phone the column headers are hidden: the order is chosen here. */}
        <div className="field phone-only"><label htmlFor="f-sort">Order</label>
          <select id="f-sort" value={sort} onChange={(e) => set('sort', e.target.value === DEFAULT_SORT ? '' : e.target.value)}>
            {SORT_LABELS.map(([v, label]) => <option key={v} value={v}>{label}</option>)}
          </select></div>
      </form>
      <ErrorBox error={posts.error} title="Could not load posts" />
      {selected.length > 0 && (
        <Suspense fallback={<div className="bulk-bar" role="region" aria-label="Selected posts"><strong>{selected.length} selected</strong></div>}>
          <BulkBar posts={selected} tz={tz} profiles={profiles.data ?? []} accountProfile={new Map((accounts.data ?? []).map((a) => [a._id, a.profileId]))}
            onDone={() => { setSelection({}); void qc.invalidateQueries({ queryKey: ['posts'] }); }} />
        </Suspense>
      )}
      {posts.isLoading && <Loading />}
      {posts.data && posts.data.posts.length === 0 && <p className="empty">No posts match these filters.</p>}
      {posts.data && posts.data.posts.length > 0 && (
        <div className="table-wrap card flush">
          <table className="post-table posts-grid" aria-busy={posts.isFetching}>
            <colgroup><col className="c-select" /><col className="c-post" /><col className="c-platform" /><col className="c-when" /><col className="c-status" /></colgroup>
            <thead>
              {table.getHeaderGroups().map((g) => (
                <tr key={g.id}>
                  {g.headers.map((h) => {
                    const sorted = h.column.getIsSorted();
                    return (
                      <th key={h.id} scope="col" className={`h-${h.column.id}`}
                        aria-sort={h.column.getCanSort() ? (sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none') : undefined}>
                        {h.column.getCanSort() && h.column.id !== 'select'
                          ? <SortButton label={String(h.column.columnDef.header)} sorted={sorted} onToggle={() => h.column.toggleSorting(ONE_WAY.has(h.column.id) ? false : sorted === 'desc' ? false : sorted === 'asc' ? true : h.column.id === 'when')} />
                          : <table.FlexRender header={h} />}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody>
              {table.getRowModel().rows.map((row) => (
                <tr key={row.id} aria-selected={row.getIsSelected()} className={row.getIsSelected() ? 'selected' : undefined}>
                  {row.getAllCells().map((cell) => <td key={cell.id} className={`c-${cell.column.id}`}><table.FlexRender cell={cell} /></td>)}
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
