/**
 * A post waiting for approval, opened from the calendar (docs/decisions/0064): its time, platforms
 * and text in the dashboard's in-app dialog, and, for someone who may approve it, Approve (with an
 * optional comment) and Request changes (comment required), the same decision buttons as the post
 * page. Others see who decides and a link to the post. Loaded when first opened (lazy), so the
 * approvals code stays out of the calendar's chunk.
 */
import { Link } from 'wouter';
import type { PostView } from '../api.ts';
import { ErrorBox, Loading, PlatformIcon, StatusBadge } from '../components.tsx';
import { PLATFORM_RULES, type PlatformName } from '../../lib/platforms.ts';
import { useApproval } from '../queries/approvals.ts';
import { DecisionButtons } from '../pages/approvals.tsx';
import { timeFormat } from '../time.ts';
import { InAppDialog } from '../ui/confirm.tsx';

/** The review dialog of `post`; `onClose` also runs after a decision was recorded. */
export default function ReviewDialog({ post, tz, onClose }: { post: PostView; tz: string; onClose: () => void }) {
  const approval = useApproval(post._id);
  const a = approval.data;
  const platforms = [...new Set(post.platforms.map((t) => t.platform))];
  return (
    <InAppDialog isOpen onClose={onClose} title="Review post" wide>
      <div className="review-dialog">
        <p className="review-dialog-meta">
          {post.status === 'pending_approval' ? <span className="status-badge review-pending">Needs approval</span> : <StatusBadge status={post.status} />}
          <span>{post.scheduledFor ? timeFormat.dateTime(post.scheduledFor, tz) : 'No time yet'}</span>
          <span className="review-dialog-platforms">
            {platforms.map((p) => (
              <span key={p} className="review-dialog-platform"><PlatformIcon platform={p} size={14} /> {PLATFORM_RULES[p as PlatformName]?.label ?? p}</span>
            ))}
          </span>
        </p>
        <blockquote className="review-dialog-text">{post.content || '(no text)'}</blockquote>
        {approval.isLoading && <Loading />}
        <ErrorBox error={approval.error} title="Could not load the review" />
        {a && a.state === 'pending' && (a.canApprove
          ? <DecisionButtons postId={post._id} onDone={onClose} />
          : <p className="muted small">An approver of this profile decides (the owner, or a member its approval rule names); you will get a mail when they do.</p>)}
        {a && a.state !== 'pending' && <p className="muted small">This post no longer waits for approval.</p>}
        <p><Link href={`/posts/${post._id}`} className="btn btn-sm btn-ghost">Open the post (history, comments)</Link></p>
      </div>
    </InAppDialog>
  );
}
