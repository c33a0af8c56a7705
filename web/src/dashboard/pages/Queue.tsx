import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap, type PostView } from '../api.ts';
import { ErrorBox, Loading, PageTitle } from '../components.tsx';
import { browserTimeZone, timeFormat } from '../time.ts';
import { TimeZoneField } from '../ui/time-zone.tsx';
import { useProfiles } from '../queries/profiles.ts';
import { ConfirmButton } from '../ui/confirm.tsx';

interface Slot { dayOfWeek: number; time: string }
// Displayed Monday first; the API's dayOfWeek is 0 = Sunday .. 6 = Saturday.
const DAYS: Array<[number, string]> = [[1, 'Monday'], [2, 'Tuesday'], [3, 'Wednesday'], [4, 'Thursday'], [5, 'Friday'], [6, 'Saturday'], [0, 'Sunday']];

function Editor({ profileId }: { profileId: string }) {
  const qc = useQueryClient();
  const current = useQuery({ queryKey: ['queue', profileId], queryFn: () => unwrap(api.GET('/v1/queue/slots', { params: { query: { profileId } } })) });
  const [tz, setTz] = useState(browserTimeZone());
  const [active, setActive] = useState(true);
  const [slots, setSlots] = useState<Slot[]>([]);
  const [reshuffle, setReshuffle] = useState(false);
  const [newTimes, setNewTimes] = useState<Record<number, string>>({});
  const [saved, setSaved] = useState<string | null>(null);

  useEffect(() => {
    const s = current.data?.schedule;
    if (s) { setTz(s.timezone); setActive(s.active); setSlots(s.slots); } else { setSlots([]); setActive(true); }
  }, [current.data]);

  const preview = useQuery({
    queryKey: ['queue-preview', profileId, current.data?.schedule?.updatedAt],
    enabled: !!current.data?.exists,
    queryFn: () => unwrap(api.GET('/v1/queue/preview', { params: { query: { profileId, count: 14 } } })),
  });

  // Posts waiting in this queue: scheduled from now on, taken from the profile's queue.
  const queued = useQuery({
    queryKey: ['posts', 'queued', profileId],
    enabled: !!current.data?.exists,
    queryFn: async () => {
      const out: PostView[] = [];
      for (let page = 1; page <= 10; page++) {
        const r = await unwrap(api.GET('/v1/posts', { params: { query: { profileId, status: 'scheduled', dateFrom: new Date().toISOString(), limit: 100, page } } }));
        out.push(...r.posts.filter((p) => p.queuedFromProfile === profileId));
        if (page >= r.pagination.pages) break;
      }
      return out.sort((a, b) => (a.scheduledFor ?? '').localeCompare(b.scheduledFor ?? ''));
    },
  });
  const heldBy = new Map((queued.data ?? []).filter((p) => p.scheduledFor).map((p) => [new Date(p.scheduledFor!).getTime(), p]));
  const slotLabel = (iso: string) => timeFormat.slot(iso, tz);

  const save = useMutation({
    mutationFn: () => unwrap(api.PUT('/v1/queue/slots', { body: { profileId, timezone: tz, slots, active, reshuffleExisting: reshuffle } })),
    onSuccess: (r) => { setSaved(`Saved.${r.reshuffledCount ? ` ${r.reshuffledCount} queued post(s) moved to the new slots.` : ''}`); void qc.invalidateQueries({ queryKey: ['queue', profileId] }); void qc.invalidateQueries({ queryKey: ['posts'] }); },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/v1/queue/slots', { params: { query: { profileId } } })),
    onSuccess: () => { setSaved('Queue deleted; queued posts keep their times.'); void qc.invalidateQueries({ queryKey: ['queue', profileId] }); },
  });

  function addSlot(day: number) {
    const t = newTimes[day] || '09:00';
    if (!/^\d{2}:\d{2}$/.test(t) || slots.some((s) => s.dayOfWeek === day && s.time === t)) return;
    setSlots([...slots, { dayOfWeek: day, time: t }].sort((a, b) => a.dayOfWeek - b.dayOfWeek || a.time.localeCompare(b.time)));
    setSaved(null);
  }

  if (current.isLoading) return <Loading />;
  return (
    <>
      <ErrorBox error={current.error} title="Could not load the queue" />
      {current.data?.exists && preview.data && (
        <Timeline profileId={profileId} tz={tz} slots={preview.data.slots} heldBy={heldBy} />
      )}
      {current.data?.exists && <ErrorBox error={preview.error ?? queued.error} />}
      <form className="card" onSubmit={(e) => { e.preventDefault(); save.mutate(); }} aria-label="Queue schedule">
        {!current.data?.exists && !current.error && <p className="alert alert-info">This profile has no queue yet. Add weekly slots and save.</p>}
        <div className="form-row">
          <TimeZoneField id="q-tz" className="field grow" value={tz} onChange={(z) => { setTz(z); setSaved(null); }} />
          <label className="check"><input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} /> Active (an inactive queue takes no posts)</label>
        </div>
        <div className="slot-grid" role="table" aria-label="Weekly slots">
          {DAYS.map(([day, name]) => (
            <div key={day} className="slot-row" role="row">
              <div className="slot-day" role="rowheader">{name}</div>
              <div className="slot-times" role="cell">
                {slots.filter((s) => s.dayOfWeek === day).map((s) => (
                  <span key={s.time} className="slot-chip">{timeFormat.wall(s.time)}
                    <button type="button" aria-label={`Remove ${name} ${timeFormat.wall(s.time)}`} onClick={() => { setSlots(slots.filter((x) => !(x.dayOfWeek === day && x.time === s.time))); setSaved(null); }}>×</button>
                  </span>
                ))}
                <span className="slot-add">
                  <label className="sr-only" htmlFor={`q-add-${day}`}>New slot time on {name}</label>
                  <input id={`q-add-${day}`} type="time" value={newTimes[day] ?? '09:00'} onChange={(e) => setNewTimes({ ...newTimes, [day]: e.target.value })} />
                  <button type="button" className="btn btn-sm" onClick={() => addSlot(day)}>Add<span className="sr-only"> slot on {name}</span></button>
                </span>
              </div>
            </div>
          ))}
        </div>
        <label className="check"><input type="checkbox" checked={reshuffle} onChange={(e) => setReshuffle(e.target.checked)} /> Move already-queued posts to the new slots (keeping their order)</label>
        <ErrorBox error={save.error ?? remove.error} title="Could not save the queue" />
        {saved && <p className="alert alert-ok" role="status">{saved}</p>}
        <div className="button-row">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save queue'}</button>
          {current.data?.exists && <ConfirmButton title="Delete this queue?" message="Posts already queued keep their times." confirmLabel="Delete queue" onConfirm={() => remove.mutate()}>Delete queue</ConfirmButton>}
        </div>
      </form>
      {current.data?.exists && (
        <section className="card" aria-labelledby="q-posts">
          <h2 id="q-posts" className="small-title">Queued posts</h2>
          {queued.data?.length === 0 && <p className="muted">No post is waiting in this queue. Choose “Add to queue” in the composer.</p>}
          {!!queued.data?.length && (
            <ol className="queued-posts">{queued.data.map((p) => (
              <li key={p._id}><span className="slot-when">{p.scheduledFor ? slotLabel(p.scheduledFor) : ''}</span> <Link href={`/posts/${p._id}`}>{p.content.slice(0, 120) || '(no text)'}</Link></li>
            ))}</ol>
          )}
        </section>
      )}
    </>
  );
}

/** A post's text, short, for labels. */
const excerpt = (p: PostView, n = 80) => p.content.slice(0, n) || '(no text)';

/**
 * The coming slots as a timeline with the posts in them: a post moves by dragging it onto
 * another slot (onto a post: the two swap; onto a free slot: it moves there) or with its
 * "Earlier" / "Later" buttons (the same, with the neighbouring slot); a free slot opens the
 * composer for that very slot. Moves go to POST /v1/queue/arrange.
 */
function Timeline({ profileId, tz, slots, heldBy }: { profileId: string; tz: string; slots: string[]; heldBy: Map<number, PostView> }) {
  const qc = useQueryClient();
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  // After a move by the keyboard, focus follows the post to its new slot (its same button).
  const [follow, setFollow] = useState<{ postId: string; slot: string; button: 'Earlier' | 'Later' } | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const postAt = (slot: string) => heldBy.get(new Date(slot).getTime());
  const arrange = useMutation({
    mutationFn: (v: { moves: Array<{ postId: string; slot: string }>; message: string }) => unwrap(api.POST('/v1/queue/arrange', { body: { profileId, moves: v.moves } })),
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
                <Link className="btn btn-sm" href={`/compose?queueSlot=${encodeURIComponent(s)}&profile=${encodeURIComponent(profileId)}`}>Compose<span className="sr-only"> a post for {when}</span></Link>
              )}
            </span>
          </li>
        );
      })}</ol>
      <p className="muted small">Times in {tz}.</p>
    </section>
  );
}

export default function QueuePage() {
  const profiles = useProfiles();
  const [profileId, setProfileId] = useState('');
  useEffect(() => { if (!profileId && profiles.data?.length) setProfileId((profiles.data.find((p) => p.isDefault) ?? profiles.data[0])._id); }, [profiles.data, profileId]);
  return (
    <>
      <PageTitle title="Queue" />
      <p className="muted">The coming slots with their posts (move them, fill a free slot), and the weekly posting slots per profile. “Add to queue” in the composer takes the next free slot.</p>
      <ErrorBox error={profiles.error} />
      {profiles.data?.length === 0 && <p className="empty">Create a profile first.</p>}
      {!!profiles.data?.length && (
        <div className="field narrow">
          <label htmlFor="q-profile">Profile</label>
          <select id="q-profile" value={profileId} onChange={(e) => setProfileId(e.target.value)}>{profiles.data.map((p) => <option key={p._id} value={p._id}>{p.name}</option>)}</select>
        </div>
      )}
      {profileId && <Editor key={profileId} profileId={profileId} />}
    </>
  );
}
