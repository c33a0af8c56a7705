/**
 * The queue page's timeline of coming slots (one queue's), with the posts in them.
 */
import { useEffect, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap, type PostView } from '../api.ts';
import { ErrorBox } from '../components.tsx';
import { timeFormat } from '../time.ts';

/** A post's text, short, for labels. */
const excerpt = (p: PostView, n = 80) => p.content.slice(0, n) || '(no text)';

/**
 * The coming slots as a timeline with the posts in them: a post moves by dragging it onto
 * another slot (onto a post: the two swap; onto a free slot: it moves there) or with its
 * "Earlier" / "Later" buttons (the same, with the neighbouring slot); a free slot opens the
 * composer for that very slot of this queue. Moves go to POST /v1/queue/arrange with the queue's id.
 */
export function Timeline({ profileId, queueId, tz, slots, heldBy }: {
  profileId: string; queueId: string; tz: string; slots: string[]; heldBy: Map<number, PostView>;
}) {
  const qc = useQueryClient();
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  // After a move by the keyboard, focus follows the post to its new slot (its same button).
  const [follow, setFollow] = useState<{ postId: string; slot: string; button: 'Earlier' | 'Later' } | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const postAt = (slot: string) => heldBy.get(new Date(slot).getTime());
  const arrange = useMutation({
    mutationFn: (v: { moves: Array<{ postId: string; slot: string }>; message: string }) => unwrap(api.POST('/v1/queue/arrange', { body: { profileId, queueId, moves: v.moves } })),
    onSuccess: (_r, v) => { setSaid(v.message); void qc.invalidateQueries({ queryKey: ['posts'] }); },
  });
  useEffect(() => {
    if (!follow) return;
    // Once the post shows in its new slot (after the move and the refetch).
    const li = list.current?.querySelector(`li[data-post-id="${follow.postId}"][data-slot="${follow.slot}"]`);
    const button = [...(li?.querySelectorAll('button') ?? [])].find((b) => b.textContent?.startsWith(follow.button) && !b.disabled)
      ?? li?.querySelector<HTMLElement>('a, button:not([disabled])');
    if (button) { (button as HTMLElement).focus(); setFollow(null); }
  }, [follow, heldBy]);
  /** The post in slot `from` to slot `to`: a swap when `to` holds a post, else a move. */
  function move(from: string, to: string) {
    const post = postAt(from);
    if (!post || from === to) return;
    const other = postAt(to);
    const moves = [{ postId: post._id, slot: to }, ...(other ? [{ postId: other._id, slot: from }] : [])];
    arrange.mutate({ moves, message: other ? `Swapped “${excerpt(post, 40)}” and “${excerpt(other, 40)}”.` : `Moved “${excerpt(post, 40)}” to ${timeFormat.slot(to, tz)}.` });
  }
  return (
    <section className="card" aria-labelledby="q-next">
      <h2 id="q-next" className="small-title">Next slots</h2>
      <p className="muted small">Drag a post onto another slot to move it (onto a post: they swap), or use its Earlier / Later buttons. A free slot: compose a post for it.</p>
      <ErrorBox error={arrange.error} title="Could not move the post" />
      <p className={said ? 'alert alert-ok' : 'sr-only'} role="status">{said}</p>
      <ol className="next-slots timeline" ref={list}>{slots.map((s, i) => {
        const post = postAt(s);
        const when = timeFormat.slot(s, tz);
        return (
          <li key={s} className={post ? 'slot-held' : 'slot-free'} data-over={over === s ? '' : undefined} data-post-id={post?._id} data-slot={s}
            draggable={!!post} onDragStart={(e) => { if (!post) return; setDragging(s); e.dataTransfer.effectAllowed = 'move'; e.dataTransfer.setData('text/plain', post._id); }}
            onDragEnd={() => { setDragging(null); setOver(null); }}
            onDragOver={(e) => { if (dragging && dragging !== s) { e.preventDefault(); setOver(s); } }}
            onDragLeave={() => setOver((o) => (o === s ? null : o))}
            onDrop={(e) => { e.preventDefault(); const from = dragging; setDragging(null); setOver(null); if (from) move(from, s); }}>
            <span className="slot-when">{when}</span>{' '}
            {post
              ? <span className="slot-state">held by <Link href={`/posts/${post._id}`} className="slot-post">{excerpt(post)}</Link></span>
              : <span className="slot-state muted">free</span>}
            <span className="slot-actions">
              {post ? (
                <>
                  <button type="button" className="btn btn-sm btn-ghost" disabled={i === 0 || arrange.isPending} onClick={() => { move(s, slots[i - 1]); setFollow({ postId: post._id, slot: slots[i - 1], button: 'Earlier' }); }}>Earlier<span className="sr-only">: move “{excerpt(post, 40)}” to {timeFormat.slot(slots[Math.max(i - 1, 0)], tz)}</span></button>
                  <button type="button" className="btn btn-sm btn-ghost" disabled={i === slots.length - 1 || arrange.isPending} onClick={() => { move(s, slots[i + 1]); setFollow({ postId: post._id, slot: slots[i + 1], button: 'Later' }); }}>Later<span className="sr-only">: move “{excerpt(post, 40)}” to {timeFormat.slot(slots[Math.min(i + 1, slots.length - 1)], tz)}</span></button>
                </>
              ) : (
                <Link className="btn btn-sm" href={`/compose?queueSlot=${encodeURIComponent(s)}&profile=${encodeURIComponent(profileId)}&queue=${encodeURIComponent(queueId)}`}>Compose<span className="sr-only"> a post for {when}</span></Link>
              )}
            </span>
          </li>
        );
      })}</ol>
      <p className="muted small">Times in {tz}.</p>
    </section>
  );
}
