import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { api, unwrap } from '../api.ts';
import { CAN_DELETE, CAN_EDIT, CAN_RETRY, CAN_UNPUBLISH, ErrorBox, Loading, PageTitle, PlatformBadge, StatusBadge } from '../components.tsx';
import { browserTimeZone, formatInZone } from '../time.ts';
import { PostMetricsSection } from './post-metrics.tsx';
import { PostLogsSection, UnpublishButton } from './publishing-logs.tsx';
import { useSandbox } from '../sandbox.ts';
import { ConfirmButton } from '../ui/confirm.tsx';
import { toast } from '../ui/toast.ts';
import { ApprovalPanel, CommentThread } from './approvals.tsx';
import { RecycleSection } from './recycling.tsx';
import { EditPublishedAction } from './edit-published.tsx';

export default function PostDetailPage({ id }: { id: string }) {
  const qc = useQueryClient();
  const [, navigate] = useLocation();
  const sandbox = useSandbox();
  const tz = localStorage.getItem('herald.tz') ?? browserTimeZone();
  const post = useQuery({
    queryKey: ['post', id],
    queryFn: () => unwrap(api.GET('/v1/posts/{postId}', { params: { path: { postId: id } } })).then((r) => r.post),
    // Follow a post on its way out: closely while publishing, calmly while scheduled (each poll counts toward the rate limit).
    refetchInterval: (q) => (q.state.data?.status === 'publishing' ? 2_000 : q.state.data?.status === 'scheduled' ? 5_000 : false),
  });
  const retry = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/posts/{postId}/retry', { params: { path: { postId: id } }, body: {} })),
    onSuccess: (r) => {
      const n = r.post.platforms.filter((t) => t.status === 'pending').length;
      toast({ title: 'Retrying', body: `Publishing again to ${n === 1 ? 'the platform that failed' : `the ${n} platforms that failed`}; the others are left as they are.`, tone: 'ok' });
      void qc.invalidateQueries({ queryKey: ['post', id] }); void qc.invalidateQueries({ queryKey: ['posts'] }); void qc.invalidateQueries({ queryKey: ['post-logs', id] });
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/v1/posts/{postId}', { params: { path: { postId: id } } })),
    onSuccess: () => { toast({ title: 'Post deleted', tone: 'ok' }); void qc.invalidateQueries({ queryKey: ['posts'] }); navigate('/posts'); },
  });

  if (post.isLoading) return <Loading />;
  if (post.error || !post.data) return <ErrorBox error={post.error ?? new Error('Post not found')} title="Could not load the post" />;
  const p = post.data;
  return (
    <>
      <PageTitle title="Post">
        {CAN_EDIT.has(p.status) && <Link href={`/posts/${p._id}/edit`} className="btn">Edit</Link>}
        {CAN_RETRY.has(p.status) && <button type="button" className="btn btn-primary" onClick={() => retry.mutate()} disabled={retry.isPending}>{retry.isPending ? 'Retrying…' : p.status === 'partial' ? 'Retry failed platforms' : 'Retry'}</button>}
        <UnpublishButton postId={p._id} available={CAN_UNPUBLISH.has(p.status)} />
        {CAN_DELETE.has(p.status) && <ConfirmButton title="Delete this post?" message="It is removed from Herald; nothing published is touched." confirmLabel="Delete post" onConfirm={() => remove.mutate()} isDisabled={remove.isPending}>Delete</ConfirmButton>}
      </PageTitle>
      <ErrorBox error={retry.error} title="Retry failed" />
      <ErrorBox error={remove.error} title="Could not delete" />
      <div className="detail-grid">
        <section className="card" aria-labelledby="d-content">
          <h2 id="d-content" className="small-title">Content</h2>
          <p className="post-content">{p.content || <span className="muted">(no text)</span>}</p>
          {p.mediaItems.length > 0 && (
            <ul className="media-list">
              {p.mediaItems.map((m, i) => (
                <li key={i} className="media-item">
                  {m.type === 'image' || m.type === 'gif' ? <img src={String(m.url)} alt={String(m.altText ?? '')} /> : <span className="media-icon" aria-hidden="true">▶</span>}
                  <a href={String(m.url)} className="media-name">{String(m.filename ?? m.url)}</a>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="card" aria-labelledby="d-status">
          <h2 id="d-status" className="small-title">Status</h2>
          <p><StatusBadge status={p.status} /> {p.queuedFromProfile && <span className="badge queue-badge">Queued</span>}</p>
          <dl className="facts">
            <dt>Scheduled for</dt><dd>{p.scheduledFor ? `${formatInZone(p.scheduledFor, tz)} (${tz})` : '—'}</dd>
            {p.scheduledFor && p.timezone !== tz && <><dt>In the post's zone</dt><dd>{formatInZone(p.scheduledFor, p.timezone)} ({p.timezone})</dd></>}
            {p.publishedAt && <><dt>Published</dt><dd>{formatInZone(p.publishedAt, tz)}</dd></>}
            <dt>Created</dt><dd>{formatInZone(p.createdAt, tz)}</dd>
          </dl>
        </section>
      </div>
      <ApprovalPanel post={p} tz={tz} />
      <section className="card" aria-labelledby="d-platforms">
        <h2 id="d-platforms" className="small-title">Per platform</h2>
        <ul className="target-list">
          {p.platforms.map((t) => {
            const acct = typeof t.accountId === 'string' ? null : t.accountId;
            return (
              <li key={t._id} className="target" data-status={t.status}>
                <div className="target-head">
                  <PlatformBadge platform={t.platform} />
                  {acct && <span>@{acct.username.replace(/^@/, '')}</span>}
                  <StatusBadge status={t.status} />
                  {t.attempts > 0 && <span className="muted small">{t.attempts} attempt{t.attempts > 1 ? 's' : ''}</span>}
                </div>
                {/* In sandbox mode the post exists only in a local simulator: its address is shown, labelled, not linked. */}
                {t.removedFromPlatformAt && <p className="muted small">Deleted from the platform on {formatInZone(t.removedFromPlatformAt, tz)}</p>}
                {t.platformPostUrl && !t.removedFromPlatformAt && (sandbox
                  ? <p className="simulated">Simulated post (sandbox): <code>{t.platformPostUrl}</code></p>
                  : <p><a href={t.platformPostUrl} target="_blank" rel="noreferrer noopener">View the published post</a></p>)}
                {t.thread && t.thread.length > 1 && <ol className="small">{t.thread.map((e) => <li key={e.platformPostId}>{sandbox
                  ? <span className="simulated">Simulated: <code>{e.platformPostUrl}</code></span>
                  : <a href={e.platformPostUrl} target="_blank" rel="noreferrer noopener">{e.platformPostUrl}</a>}</li>)}</ol>}
                {t.errorMessage && <p className="alert alert-error">{t.errorMessage}{t.errorCategory ? ` (${t.errorCategory})` : ''}</p>}
                {t.scheduledFor && <p className="small target-own-time">Its own time: {formatInZone(t.scheduledFor, tz)} ({tz})</p>}
                {t.customContent && <p className="muted small">Custom text: {t.customContent}</p>}
                <EditPublishedAction postId={p._id} target={{
                  platform: t.platform, accountId: acct ? acct._id : String(t.accountId), status: t.status,
                  removedFromPlatformAt: t.removedFromPlatformAt ?? undefined, text: t.customContent ?? p.content,
                  options: t.platformSpecificData, tags: p.tags, visibility: p.visibility,
                }} />
              </li>
            );
          })}
        </ul>
      </section>
      <RecycleSection post={p} tz={tz} />
      {(p.status === 'published' || p.status === 'partial') && <PostMetricsSection postId={p._id} tz={tz} />}
      <CommentThread postId={p._id} tz={tz} />
      <PostLogsSection postId={p._id} tz={tz} live={p.status === 'publishing'} postStatus={p.status} />
      <p><Link href="/posts">← All posts</Link> · <Link href="/calendar">Calendar</Link></p>
    </>
  );
}
