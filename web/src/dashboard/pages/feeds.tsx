/**
 * A profile's "Feeds" section (RSS to queue, docs/decisions/0065-rss-to-queue.md): follow an RSS,
 * Atom or JSON feed whose new items become queued posts or drafts, pause, resume, check now or
 * delete it, and see its status, last error and latest items.
 */
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap, type Account } from '../api.ts';
import { ErrorBox } from '../components.tsx';
import { ConfirmButton } from '../ui/confirm.tsx';
import { toast } from '../ui/toast.ts';
import { browserTimeZone, formatInZone } from '../time.ts';
import { useFeedItems, useFeeds, type Feed, type FeedItem } from '../queries/feeds.ts';
import './feeds.css';

const STATUS_LABEL: Record<Feed['status'], string> = { active: 'Active', paused: 'Paused', failing: 'Failing' };
const ITEM_LABEL: Record<FeedItem['status'], string> = { created: 'Post created', skipped: 'Skipped', failed: 'Failed' };
const when = (iso: string | null) => (iso ? formatInZone(iso, browserTimeZone()) : 'never');

function useInvalidate(profileId: string) {
  const qc = useQueryClient();
  return (feedId?: string) => {
    void qc.invalidateQueries({ queryKey: ['feeds', profileId] });
    if (feedId) void qc.invalidateQueries({ queryKey: ['feed', feedId] });
    void qc.invalidateQueries({ queryKey: ['posts'] });
  };
}

function FeedItems({ feedId }: { feedId: string }) {
  const items = useFeedItems(feedId, true);
  if (items.isLoading) return <p className="muted small">Loading items…</p>;
  if (items.error) return <ErrorBox error={items.error} title="Could not load the items" />;
  if (!items.data?.length) return <p className="muted small">No items yet: the feed is read at its next check.</p>;
  return (
    <ul className="feed-items" aria-label="Latest items">
      {items.data.map((i) => (
        <li key={i._id} className="feed-item">
          <span className={`feed-pill feed-item-${i.status}`}>{ITEM_LABEL[i.status]}</span>
          {i.link ? <a href={i.link} target="_blank" rel="noreferrer noopener">{i.title || i.link}</a> : <span>{i.title || i.key}</span>}
          {i.postId && <Link href={`/posts/${i.postId}`} className="small">Open post</Link>}
          {i.error && i.status !== 'skipped' && <span className="hint feed-item-error">{i.error}</span>}
        </li>
      ))}
    </ul>
  );
}

function FeedRow({ f, profileId }: { f: Feed; profileId: string }) {
  const invalidate = useInvalidate(profileId);
  const [open, setOpen] = useState(false);
  const label = f.name || f.title || f.url;
  const pause = useMutation({
    mutationFn: () => unwrap(api.PUT('/v1/feeds/{feedId}', { params: { path: { feedId: f._id } }, body: { paused: !f.paused } })),
    onSuccess: (r) => { toast({ title: r.feed.paused ? 'Feed paused' : 'Feed resumed', tone: 'ok' }); invalidate(f._id); },
  });
  const check = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/feeds/{feedId}/check', { params: { path: { feedId: f._id } } })),
    onSuccess: () => { toast({ title: 'Check requested', body: 'The feed is read within a few seconds.', tone: 'ok' }); invalidate(f._id); },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/v1/feeds/{feedId}', { params: { path: { feedId: f._id } } })),
    onSuccess: () => { toast({ title: 'Feed deleted', body: 'The posts made from it stay.', tone: 'ok' }); invalidate(); },
  });
  return (
    <li className="feed-row" aria-label={`Feed ${label}`}>
      <div className="feed-head">
        <div className="feed-name">
          <strong>{label}</strong>
          <span className={`feed-pill feed-${f.status}`}>{STATUS_LABEL[f.status]}</span>
          <span className="hint">{f.mode === 'queue' ? 'to the queue' : 'as drafts'}</span>
        </div>
        <div className="button-row">
          <button type="button" className="btn btn-sm" onClick={() => pause.mutate()} disabled={pause.isPending}>{f.paused ? 'Resume' : 'Pause'}<span className="sr-only"> {label}</span></button>
          {!f.paused && <button type="button" className="btn btn-sm" onClick={() => check.mutate()} disabled={check.isPending}>Check now<span className="sr-only"> {label}</span></button>}
          <ConfirmButton className="btn btn-sm btn-danger" title={`Stop following “${label}”?`} message="The posts already made from it stay." confirmLabel="Delete feed"
            isDisabled={remove.isPending} onConfirm={() => remove.mutate()}>Delete<span className="sr-only"> {label}</span></ConfirmButton>
        </div>
      </div>
      <p className="feed-url small"><a href={f.url} target="_blank" rel="noreferrer noopener">{f.url}</a></p>
      <p className="small muted">Last checked {when(f.lastCheckedAt)}{f.nextCheckAt && !f.paused ? ` · next ${when(f.nextCheckAt)}` : ''} · every {f.pollIntervalMinutes} min</p>
      {f.lastError && (
        <p className="alert alert-error feed-error" role="alert">
          Last check failed{f.consecutiveFailures > 1 ? ` (${f.consecutiveFailures} times in a row)` : ''}: {f.lastError}
        </p>
      )}
      <ErrorBox error={pause.error ?? check.error ?? remove.error} title="Could not change the feed" />
      <button type="button" className="btn btn-sm btn-ghost" aria-expanded={open} onClick={() => setOpen(!open)}>{open ? 'Hide items' : 'Show latest items'}<span className="sr-only"> of {label}</span></button>
      {open && <FeedItems feedId={f._id} />}
    </li>
  );
}

function AddFeed({ profileId, accounts, onDone }: { profileId: string; accounts: Account[]; onDone: () => void }) {
  const invalidate = useInvalidate(profileId);
  const [url, setUrl] = useState('');
  const [mode, setMode] = useState<'queue' | 'draft'>('queue');
  const [template, setTemplate] = useState('{title}\n\n{link}');
  const [accountIds, setAccountIds] = useState<string[]>(accounts.map((a) => a._id));
  const [includeImage, setIncludeImage] = useState(true);
  const [importExisting, setImportExisting] = useState(false);
  const add = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/feeds', { body: { profileId, url: url.trim(), mode, template, accountIds, includeImage, importExisting } })),
    onSuccess: () => { toast({ title: 'Feed added', body: 'It is read within a few seconds.', tone: 'ok' }); invalidate(); onDone(); },
  });
  const id = `feed-${profileId}`;
  return (
    <form className="feed-form" aria-label="Add a feed" onSubmit={(e) => { e.preventDefault(); add.mutate(); }}>
      <div className="field">
        <label htmlFor={`${id}-url`}>Feed URL (RSS, Atom or JSON Feed)</label>
        <input id={`${id}-url`} type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/feed.xml" required maxLength={2048} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-mode`}>New items become</label>
        <select id={`${id}-mode`} value={mode} onChange={(e) => setMode(e.target.value as 'queue' | 'draft')}>
          <option value="queue">Posts in the queue</option>
          <option value="draft">Drafts to review</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-template`}>Post text <span className="hint">({'{title}'}, {'{link}'}, {'{description}'})</span></label>
        <textarea id={`${id}-template`} className="short" value={template} onChange={(e) => setTemplate(e.target.value)} maxLength={5000} required />
      </div>
      {accounts.length > 0 && (
        <fieldset className="feed-accounts">
          <legend className="small">Publish to</legend>
          {accounts.map((a) => (
            <label key={a._id} className="check small">
              <input type="checkbox" checked={accountIds.includes(a._id)} onChange={(e) => setAccountIds(e.target.checked ? [...accountIds, a._id] : accountIds.filter((x) => x !== a._id))} />
              {a.displayName || a.username} <span className="hint">({a.platform})</span>
            </label>
          ))}
        </fieldset>
      )}
      <label className="check small"><input type="checkbox" checked={includeImage} onChange={(e) => setIncludeImage(e.target.checked)} /> Attach the item's image</label>
      <label className="check small"><input type="checkbox" checked={importExisting} onChange={(e) => setImportExisting(e.target.checked)} /> Also post the items already in the feed</label>
      <ErrorBox error={add.error} title="Could not add the feed" />
      <div className="button-row">
        <button type="submit" className="btn btn-primary" disabled={add.isPending || !url.trim()}>{add.isPending ? 'Adding…' : 'Add feed'}</button>
        <button type="button" className="btn" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}

/** The "Feeds" section of a profile card: its followed feeds and the form to add one. */
export function FeedsSection({ profileId, accounts }: { profileId: string; accounts: Account[] }) {
  const feeds = useFeeds(profileId);
  const [adding, setAdding] = useState(false);
  return (
    <div className="feeds" aria-labelledby={`feeds-${profileId}`}>
      <h3 id={`feeds-${profileId}`} className="small-title accounts-title">Feeds</h3>
      <ErrorBox error={feeds.error} title="Could not load the feeds" />
      {feeds.data?.length === 0 && !adding && <p className="muted small">No feed followed. New items of a blog's or site's feed can become posts here.</p>}
      {!!feeds.data?.length && <ul className="feed-list">{feeds.data.map((f) => <FeedRow key={f._id} f={f} profileId={profileId} />)}</ul>}
      {adding
        ? <AddFeed profileId={profileId} accounts={accounts} onDone={() => setAdding(false)} />
        : <button type="button" className="btn btn-sm" onClick={() => setAdding(true)}>Add a feed</button>}
    </div>
  );
}
