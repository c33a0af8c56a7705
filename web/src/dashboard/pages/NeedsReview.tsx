/**
 * "Needs review" (docs/decisions/0059-approvals.md): the posts waiting for approval, soonest
 * first, each with its text, time, platforms and, for an approver, approve / request changes.
 */
import { Link } from 'wouter';
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
  const posts = usePendingReview();
  const tz = localStorage.getItem('herald.tz') ?? browserTimeZone();
  return (
    <>
      <PageTitle title="Needs review" />
      <p className="muted">Posts by team members on profiles that require approval. They publish only once approved.</p>
      {posts.isLoading && <Loading />}
      <ErrorBox error={posts.error} title="Could not load the posts" />
      {posts.data?.length === 0 && <p className="empty">Nothing waits for review.</p>}
      <ul className="review-list">
        {posts.data?.map((p) => (
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
      <ReviewLinksSection tz={tz} />
    </>
  );
}
