/**
 * A calendar day's full list ("+N more" on the month view), in the dashboard's in-app dialog:
 * every post of the day as a card (thumbnail, time, platforms, text, status), each a link to
 * the post, and a link to write a new post on that day.
 */
import { Link } from 'wouter';
import type { PostView } from '../api.ts';
import { StatusBadge } from '../components.tsx';
import { PostChip } from './PostChip.tsx';
import { InAppDialog } from '../ui/confirm.tsx';

/** The day's list; `newPostHref` null for a past day; `onReview` opens a post waiting for approval in the review dialog. */
export default function DayDialog({ title, posts, tz, onClose, newPostHref, onReview }: {
  title: string; posts: PostView[]; tz: string; onClose: () => void; newPostHref: string | null; onReview?: (p: PostView) => void;
}) {
  return (
    <InAppDialog isOpen onClose={onClose} title={title} wide>
      <p className="muted small day-count">{posts.length} post{posts.length === 1 ? '' : 's'}</p>
      <ul className="day-list">
        {posts.map((p) => (
          <li key={p._id} className="day-list-item">
            <PostChip post={p} tz={tz} card onReview={onReview} />
            <StatusBadge status={p.status} />
          </li>
        ))}
      </ul>
      {newPostHref && <p><Link href={newPostHref} className="btn btn-sm btn-primary">New post on this day</Link></p>}
    </InAppDialog>
  );
}
