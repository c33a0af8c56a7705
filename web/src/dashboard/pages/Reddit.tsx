/**
 * Reddit feed and search through a connected Reddit account (GET /v1/reddit/feed and
 * GET /v1/reddit/search): a subreddit's posts or the front page, sorted, or a search; pages
 * follow Reddit's `after` cursor.
 */
import { useEffect, useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap, type Paths } from '../api.ts';
import { ErrorBox, Loading, PageTitle } from '../components.tsx';
import { useAccounts } from '../queries/accounts.ts';
import { useTimeFormat } from '../time.ts';

const FEED_SORTS = ['hot', 'new', 'top', 'rising'] as const;
type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type ItemsPage = Json<Paths['/v1/reddit/feed']['get']['responses'][200]>;
type FeedSort = (typeof FEED_SORTS)[number];

export default function RedditPage() {
  const accounts = useAccounts();
  const reddit = (accounts.data ?? []).filter((a) => a.platform === 'reddit' && a.isActive);
  const [accountId, setAccountId] = useState('');
  const [subreddit, setSubreddit] = useState('');
  const [sort, setSort] = useState<FeedSort>('hot');
  const [q, setQ] = useState('');
  const [query, setQuery] = useState<{ subreddit: string; sort: FeedSort; q: string }>({ subreddit: '', sort: 'hot', q: '' });
  const fmt = useTimeFormat();
  useEffect(() => { if (!accountId && reddit.length) setAccountId(reddit[0]._id); }, [reddit, accountId]);

  const items = useInfiniteQuery({
    queryKey: ['reddit', accountId, query],
    enabled: !!accountId,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: ItemsPage) => last.after ?? undefined,
    queryFn: ({ pageParam }): Promise<ItemsPage> => {
      const sr = query.subreddit.trim().replace(/^\/?r\//i, '') || undefined;
      if (query.q.trim()) {
        return unwrap(api.GET('/v1/reddit/search', { params: { query: { accountId, q: query.q.trim(), ...(sr ? { subreddit: sr } : {}), limit: 25, ...(pageParam ? { after: pageParam } : {}) } } }));
      }
      return unwrap(api.GET('/v1/reddit/feed', { params: { query: { accountId, ...(sr ? { subreddit: sr } : {}), sort: query.sort, limit: 25, ...(pageParam ? { after: pageParam } : {}) } } }));
    },
  });
  const list = items.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <>
      <PageTitle title="Reddit" />
      <p className="muted">Read a subreddit or search Reddit through a connected Reddit account.</p>
      <ErrorBox error={accounts.error} />
      {accounts.data && reddit.length === 0 && <p className="empty">Connect a Reddit account under <Link href="/profiles">Profiles &amp; accounts</Link> to read Reddit here.</p>}
      {reddit.length > 0 && (
        <form className="card reddit-form" onSubmit={(e) => { e.preventDefault(); setQuery({ subreddit, sort, q }); }} aria-label="Reddit feed and search">
          <div className="form-row">
            <div className="field"><label htmlFor="rd-account">Account</label>
              <select id="rd-account" value={accountId} onChange={(e) => setAccountId(e.target.value)}>{reddit.map((a) => <option key={a._id} value={a._id}>u/{a.username}</option>)}</select>
            </div>
            <div className="field grow"><label htmlFor="rd-sr">Subreddit</label><input id="rd-sr" value={subreddit} onChange={(e) => setSubreddit(e.target.value)} placeholder="front page" maxLength={24} /></div>
            <div className="field"><label htmlFor="rd-sort">Sort</label>
              <select id="rd-sort" value={sort} onChange={(e) => setSort(e.target.value as FeedSort)} disabled={!!q.trim()}>{FEED_SORTS.map((s) => <option key={s}>{s}</option>)}</select>
            </div>
            <div className="field grow"><label htmlFor="rd-q">Search</label><input id="rd-q" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="words to search for" maxLength={512} /></div>
            <button type="submit" className="btn btn-primary">{q.trim() ? 'Search' : 'Show'}</button>
          </div>
        </form>
      )}
      <ErrorBox error={items.error} title="Reddit did not answer" />
      {items.isLoading && accountId && <Loading />}
      {items.data && list.length === 0 && <p className="empty">Nothing here.</p>}
      <ol className="reddit-list" aria-label="Reddit posts">
        {list.map((it) => (
          <li key={it.fullname} className="reddit-item">
            <div className="reddit-score" aria-label={`${it.score} points`}>{it.score}</div>
            <div className="reddit-body">
              <a href={it.permalink} target="_blank" rel="noreferrer" className="reddit-title">{it.title}</a>
              <p className="hint">r/{it.subreddit} · u/{it.author} · {fmt.dateTime(new Date(it.createdUtc * 1000))} · {it.numComments} comments{it.flairText ? ` · ${it.flairText}` : ''}</p>
              {it.selftext && <p className="reddit-text">{it.selftext.slice(0, 280)}{it.selftext.length > 280 ? '…' : ''}</p>}
            </div>
          </li>
        ))}
      </ol>
      {items.hasNextPage && <button type="button" className="btn" onClick={() => void items.fetchNextPage()} disabled={items.isFetchingNextPage}>{items.isFetchingNextPage ? 'Loading…' : 'More'}</button>}
    </>
  );
}
