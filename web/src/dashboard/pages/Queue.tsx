import { useEffect, useState } from 'react';
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
    queryFn: () => unwrap(api.GET('/v1/queue/preview', { params: { query: { profileId, count: 10 } } })),
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
        <section className="card" aria-labelledby="q-next">
          <h2 id="q-next" className="small-title">Next slots</h2>
          <ErrorBox error={preview.error ?? queued.error} />
          <ol className="next-slots">{preview.data?.slots.map((s) => {
            const post = heldBy.get(new Date(s).getTime());
            return (
              <li key={s} className={post ? 'slot-held' : 'slot-free'}>
                <span className="slot-when">{slotLabel(s)}</span>{' '}
                {post
                  ? <span className="slot-state">held by <Link href={`/posts/${post._id}`} className="slot-post">{post.content.slice(0, 80) || '(no text)'}</Link></span>
                  : <span className="slot-state muted">free</span>}
              </li>
            );
          })}</ol>
          <p className="muted small">Times in {tz}.</p>
        </section>
      )}
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

export default function QueuePage() {
  const profiles = useProfiles();
  const [profileId, setProfileId] = useState('');
  useEffect(() => { if (!profileId && profiles.data?.length) setProfileId((profiles.data.find((p) => p.isDefault) ?? profiles.data[0])._id); }, [profiles.data, profileId]);
  return (
    <>
      <PageTitle title="Queue" />
      <p className="muted">Weekly posting slots per profile. “Add to queue” in the composer takes the next free slot.</p>
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
