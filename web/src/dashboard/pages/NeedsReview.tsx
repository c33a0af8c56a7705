/**
 * "Needs review" (docs/decisions/0059-approvals.md): the posts waiting for approval, soonest
 * first, each with its text, time, platforms and, for an approver, approve / request changes;
 * a page at a time (its number in the URL, `?page=`), with the total.
 */
import { Link, useLocation, useSearch } from 'wouter';
import { ErrorBox, Loading, PageTitle, PlatformBadge } from '../components.tsx';
import { browserTimeZone, formatInZone } from '../time.ts';
import { useApproval, usePendingReview } from '../queries/approvals.ts';
import { DecisionButtons, ReviewLinksSection } from './approvals.tsx';
import './approvals.css';

/** Approve / request changes when the viewer may decide this post; else who decides. */
function Decide({ postId }: { postId: string }) {
  const approval = useApproval(postId);
  if (!approval.data) return null;
  return approval.data.canApprove ? <DecisionButtons postId={postId} compact /> : <p className="muted small">Waiting for an approver of this profile.</p>;
}

export default function NeedsReviewPage() {
  const [, navigate] = useLocation();
  const asked = Number(new URLSearchParams(useSearch()).get('page') || 1);
  const page = Number.isInteger(asked) && asked > 0 ? asked : 1;
  const posts = usePendingReview(page);
  const pg = posts.data?.pagination;
  const tz = localStorage.getItem('herald.tz') ?? browserTimeZone();
  const go = (n: number) => navigate(n > 1 ? `/review?page=${n}` : '/review');
  return (
    <>
      <PageTitle title="Needs review" />
      <p className="muted">Posts by team members on profiles that require approval. They publish only once approved.
        {pg && pg.total > 0 && <> <strong>{pg.total === 1 ? '1 post waits' : `${pg.total} posts wait`}.</strong></>}</p>
      {posts.isLoading && <Loading />}
      <ErrorBox error={posts.error} title="Could not load the posts" />
      {pg?.total === 0 && <p className="empty">Nothing waits for review.</p>}
      {pg && pg.total > 0 && posts.data?.posts.length === 0 && (
        <p className="empty">This page is past the last one. <button type="button" className="btn btn-sm" onClick={() => go(1)}>First page</button></p>
      )}
      <ul className="review-list">
        {posts.data?.posts.map((p) => (
          <li key={p._id} className="card review-item">
            <p className="review-when">{p.publishNow ? 'As soon as approved' : p.scheduledFor ? formatInZone(p.scheduledFor, tz) : 'No time yet'}
              {p.queuedFromProfile && <span className="badge queue-badge">Queued</span>}</p>
            <p className="post-content">{p.content || <span className="muted">(no text)</span>}</p>
            <p className="review-platforms">{p.platforms.map((t) => (
              <PlatformBadge key={t._id} platform={t.platform}>{typeof t.accountId === 'string' ? undefined : `@${t.accountId.username.replace(/^@/, '')}`}</PlatformBadge>
            ))}</p>
            <div className="review-actions">
              <Decide postId={p._id} />
              <Link href={`/posts/${p._id}`} className="btn btn-ghost">Open<span className="sr-only"> the post</span></Link>
            </div>
          </li>
        ))}
      </ul>
      {pg && pg.pages > 1 && (
        <nav className="pager review-pager" aria-label="Pages of posts waiting for review">
          <button type="button" className="btn btn-sm" disabled={pg.page <= 1} onClick={() => go(pg.page - 1)}>Previous</button>
          <span>Page {pg.page} of {pg.pages} ({pg.total} posts)</span>
          <button type="button" className="btn btn-sm" disabled={pg.page >= pg.pages} onClick={() => go(pg.page + 1)}>Next</button>
        </nav>
      )}
      <ReviewLinksSection tz={tz} />
    </>
  );
}
