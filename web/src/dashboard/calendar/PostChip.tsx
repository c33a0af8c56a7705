/** A post on the calendar (month chip, week card, a day's list): ../pages/Calendar.tsx and ./DayDialog.tsx. */
import type { DragEvent, KeyboardEvent, MouseEvent } from 'react';
import { Link } from 'wouter';
import type { PostView } from '../api.ts';
import { CAN_EDIT, PlatformIcon } from '../components.tsx';
import { PLATFORM_RULES, type PlatformName } from '../../lib/platforms.ts';
import { timeFormat } from '../time.ts';

/** When a post shows on the calendar: when it was published, else when it is scheduled. */
export function placedAt(p: PostView): string | null {
  return p.publishedAt ?? p.scheduledFor;
}

/** Platform icons a chip shows; more are counted ("+2"). */
const CHIP_ICONS = 3;

/** Whether a post can be moved on the calendar: not published, publishing or cancelled (docs/decisions/0004-status-table.md). */
export const movable = (p: PostView) => CAN_EDIT.has(p.status) && p.status !== 'draft' && !p.publishedAt;

/** The post's thumbnail on the calendar: its first image, or a video's own poster image; else null. */
export function firstImage(p: PostView): string | null {
  for (const m of p.mediaItems) {
    if ((m.type === 'image' || m.type === 'gif') && typeof m.url === 'string') return m.url;
    if (m.type === 'video' && typeof m.thumbnail === 'string') return m.thumbnail;
  }
  return null;
}

/** Whether a post waits for approval: it stands out on the calendar and a click opens the review dialog (decision 0064). */
export const needsApproval = (p: PostView) => p.status === 'pending_approval';

/**
 * A post on the calendar: a link to it, draggable when it can move. `month`: a compact chip (a
 * small thumbnail, the time, up to three platform icons and the first words on up to two lines);
 * `card`: the week grid's and the day list's card. A post waiting for approval is marked
 * "Review" (words, not only colour) and, with `onReview`, a click opens the review dialog instead.
 */
export function PostChip({ post, tz, onKeyMove, onReview, card = false }: {
  post: PostView; tz: string; onKeyMove?: (p: PostView, days: number, hours: number) => void; onReview?: (p: PostView) => void; card?: boolean;
}) {
  const pending = needsApproval(post);
  const reviews = pending && onReview !== undefined;
  const platforms = [...new Set(post.platforms.map((t) => t.platform))];
  const at = placedAt(post);
  const canMove = movable(post) && onKeyMove !== undefined;
  const thumb = firstImage(post);
  const names = platforms.map((p) => PLATFORM_RULES[p as PlatformName]?.label ?? p).join(', ');
  function onKeyDown(e: KeyboardEvent) {
    // Keyboard rescheduling: Alt + arrows move a day (left/right) or an hour (up/down).
    if (!e.altKey || !canMove || !onKeyMove) return;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const m = moves[e.key];
    if (!m) return;
    e.preventDefault();
    onKeyMove(post, m[0], m[1]);
  }
  return (
    <Link href={`/posts/${post._id}`} className={`post-chip chip-${post.status}${card ? ' chip-card' : ' chip-month'}${thumb ? ' has-thumb' : ''}`}
      title={pending ? `Needs approval: ${post.content}` : post.content}
      draggable={canMove} data-post-id={post._id} onKeyDown={onKeyDown}
      {...(reviews ? { 'aria-haspopup': 'dialog' as const, onClick: (e: MouseEvent) => { e.preventDefault(); onReview(post); } } : {})}
      onDragStart={(e: DragEvent) => { e.dataTransfer.setData('text/x-herald-post', post._id); e.dataTransfer.effectAllowed = 'move'; }}
      aria-describedby={canMove ? 'cal-move-help' : undefined}>
      {thumb && <img className="chip-thumb" src={thumb} alt="" loading="lazy" />}
      <span className="chip-head">
        <span className="chip-time">{at ? timeFormat.time(at, tz) : ''}</span>
        <span className="chip-dots" aria-hidden="true">
          {platforms.slice(0, CHIP_ICONS).map((p) => <PlatformIcon key={p} platform={p} size={card ? 14 : 12} />)}
          {platforms.length > CHIP_ICONS && <span className="chip-more-icons">+{platforms.length - CHIP_ICONS}</span>}
        </span>
        {pending && <span className="chip-flag" aria-hidden="true">Review</span>}
      </span>
      <span className="chip-text">{post.content || '(no text)'}</span>
      <span className="sr-only">, {pending ? 'needs approval' : post.status}, on {names}</span>
    </Link>
  );
}

