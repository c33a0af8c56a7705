/**
 * One queue of a profile on the queue page (decision 0062): its timeline of coming slots, its
 * schedule form (name, time zone, active, weekly slots; save, make default, delete) and the posts
 * waiting in it. With `queue` null it is the form of a new queue: the profile's first one (saved
 * as its default queue with PUT /v1/queue/slots) or another named queue (POST /v1/queue/slots).
 */
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap, type PostView } from '../api.ts';
import { ErrorBox } from '../components.tsx';
import { browserTimeZone, timeFormat } from '../time.ts';
import { TimeZoneField } from '../ui/time-zone.tsx';
import { TimeOfDayField } from '../ui/date-time.tsx';
import { ConfirmButton } from '../ui/confirm.tsx';
import type { Queue } from '../queries/queues.ts';
import { Timeline } from './Timeline.tsx';

interface Slot { dayOfWeek: number; time: string }
// Displayed Monday first; the API's dayOfWeek is 0 = Sunday .. 6 = Saturday.
const DAYS: Array<[number, string]> = [[1, 'Monday'], [2, 'Tuesday'], [3, 'Wednesday'], [4, 'Thursday'], [5, 'Friday'], [6, 'Saturday'], [0, 'Sunday']];

/**
 * `queue`: the queue shown (null: a new one); `queueCount`: how many queues the profile has;
 * `onSaved(id)` after a save (the queue to show), `onDeleted()` after a delete. `notice` (kept by
 * the page, so that it outlives this form when the page shows the saved queue) is the last
 * outcome, said in a status line; `onNotice` sets it.
 */
export function QueueEditor({ profileId, queue, queueCount, onSaved, onDeleted, notice, onNotice }: {
  profileId: string; queue: Queue | null; queueCount: number; onSaved: (id: string) => void; onDeleted: () => void;
  notice: string | null; onNotice: (text: string | null) => void;
}) {
  const qc = useQueryClient();
  const first = !queue && queueCount === 0;
  const [name, setName] = useState(queue?.name ?? (first ? 'Default' : ''));
  const [tz, setTz] = useState(queue?.timezone ?? browserTimeZone());
  const [active, setActive] = useState(queue?.active ?? true);
  const [slots, setSlots] = useState<Slot[]>(queue?.slots ?? []);
  const [reshuffle, setReshuffle] = useState(false);
  const [newTimes, setNewTimes] = useState<Record<number, string>>({});
  const setSaved = onNotice;

  useEffect(() => {
    if (!queue) return;
    setName(queue.name); setTz(queue.timezone); setActive(queue.active); setSlots(queue.slots);
  }, [queue]);

  const preview = useQuery({
    queryKey: ['queue-preview', profileId, queue?._id, queue?.updatedAt],
    enabled: !!queue,
    queryFn: () => unwrap(api.GET('/v1/queue/preview', { params: { query: { profileId, queueId: queue!._id, count: 14 } } })),
  });

  // Posts waiting in this queue: scheduled from now on, queued into it (the default queue also holds
  // the profile's queued posts outside any queue).
  const queued = useQuery({
    queryKey: ['posts', 'queued', profileId],
    enabled: !!queue,
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
  const mine = (queued.data ?? []).filter((p) => p.queueId === queue?._id || (queue?.isDefault && !p.queueId));
  const heldBy = new Map(mine.filter((p) => p.scheduledFor).map((p) => [new Date(p.scheduledFor!).getTime(), p]));

  const refresh = () => { void qc.invalidateQueries({ queryKey: ['queues', profileId] }); void qc.invalidateQueries({ queryKey: ['posts'] }); };
  const save = useMutation({
    mutationFn: async () => {
      if (queue) return unwrap(api.PUT('/v1/queue/slots', { body: { profileId, queueId: queue._id, name, timezone: tz, slots, active, reshuffleExisting: reshuffle } }));
      if (first) return unwrap(api.PUT('/v1/queue/slots', { body: { profileId, name, timezone: tz, slots, active } }));
      return { ...(await unwrap(api.POST('/v1/queue/slots', { body: { profileId, name, timezone: tz, slots, active } }))), reshuffledCount: 0 };
    },
    onSuccess: (r) => {
      setSaved(`Saved.${r.reshuffledCount ? ` ${r.reshuffledCount} queued post(s) moved to the new slots.` : ''}`);
      refresh();
      onSaved(r.schedule._id);
    },
  });
  const makeDefault = useMutation({
    mutationFn: () => unwrap(api.PUT('/v1/queue/slots', { body: { profileId, queueId: queue!._id, timezone: queue!.timezone, slots: queue!.slots, setAsDefault: true } })),
    onSuccess: () => { setSaved(`“${queue!.name}” is now the default queue.`); refresh(); },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/v1/queue/slots', { params: { query: { profileId, queueId: queue!._id } } })),
    onSuccess: () => { setSaved(`Queue “${queue!.name}” deleted; its posts keep their times.`); refresh(); onDeleted(); },
  });

  function addSlot(day: number) {
    const t = newTimes[day] || '09:00';
    if (!/^\d{2}:\d{2}$/.test(t) || slots.some((s) => s.dayOfWeek === day && s.time === t)) return;
    setSlots([...slots, { dayOfWeek: day, time: t }].sort((a, b) => a.dayOfWeek - b.dayOfWeek || a.time.localeCompare(b.time)));
    setSaved(null);
  }
  const defaultLocked = !!queue?.isDefault && queueCount > 1;

  return (
    <>
      {queue && preview.data && (
        <Timeline profileId={profileId} queueId={queue._id} tz={tz} slots={preview.data.slots} heldBy={heldBy} />
      )}
      {queue && <ErrorBox error={preview.error ?? queued.error} />}
      <form className="card" onSubmit={(e) => { e.preventDefault(); save.mutate(); }} aria-label={queue ? `Queue schedule: ${queue.name}` : 'New queue'}>
        {first && <p className="alert alert-info">This profile has no queue yet. Add weekly slots and save.</p>}
        {!queue && !first && <p className="alert alert-info">A new queue of this profile, with its own weekly slots. Posts go to the default queue unless another is chosen.</p>}
        <div className="form-row">
          <div className="field grow">
            <label htmlFor="q-name">Queue name</label>
            <input id="q-name" value={name} maxLength={100} required onChange={(e) => { setName(e.target.value); setSaved(null); }} />
          </div>
          <TimeZoneField id="q-tz" className="field grow" value={tz} onChange={(z) => { setTz(z); setSaved(null); }} />
        </div>
        <label className="check"><input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} /> Active (an inactive queue takes no posts)</label>
        <div className="slot-grid" role="table" aria-label="Weekly slots">
          {DAYS.map(([day, dayName]) => (
            <div key={day} className="slot-row" role="row">
              <div className="slot-day" role="rowheader">{dayName}</div>
              <div className="slot-times" role="cell">
                {slots.filter((s) => s.dayOfWeek === day).map((s) => (
                  <span key={s.time} className="slot-chip">{timeFormat.wall(s.time)}
                    <button type="button" aria-label={`Remove ${dayName} ${timeFormat.wall(s.time)}`} onClick={() => { setSlots(slots.filter((x) => !(x.dayOfWeek === day && x.time === s.time))); setSaved(null); }}>×</button>
                  </span>
                ))}
                <span className="slot-add">
                  <TimeOfDayField id={`q-add-${day}`} label={`New slot time on ${dayName}`} hideLabel className="dp slot-time" value={newTimes[day] ?? '09:00'} onChange={(t) => setNewTimes({ ...newTimes, [day]: t })} />
                  <button type="button" className="btn btn-sm" onClick={() => addSlot(day)}>Add<span className="sr-only"> slot on {dayName}</span></button>
                </span>
              </div>
            </div>
          ))}
        </div>
        {queue && <label className="check"><input type="checkbox" checked={reshuffle} onChange={(e) => setReshuffle(e.target.checked)} /> Move already-queued posts to the new slots (keeping their order)</label>}
        <ErrorBox error={save.error ?? makeDefault.error ?? remove.error} title="Could not save the queue" />
        {notice && <p className="alert alert-ok" role="status">{notice}</p>}
        <div className="button-row">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>{save.isPending ? 'Saving…' : queue || first ? 'Save queue' : 'Create queue'}</button>
          {queue && !queue.isDefault && (
            <button type="button" className="btn" disabled={makeDefault.isPending} onClick={() => makeDefault.mutate()}>Make default</button>
          )}
          {queue && (
            <ConfirmButton title={`Delete the queue “${queue.name}”?`} message="Posts already queued keep their times." confirmLabel="Delete queue"
              isDisabled={defaultLocked} onConfirm={() => remove.mutate()}>Delete queue</ConfirmButton>
          )}
        </div>
        {defaultLocked && <p className="muted small">The default queue can be deleted once another queue is the default.</p>}
      </form>
      {queue && (
        <section className="card" aria-labelledby="q-posts">
          <h2 id="q-posts" className="small-title">Queued posts</h2>
          {queued.data && mine.length === 0 && <p className="muted">No post is waiting in this queue.{queue.isDefault ? ' Choose “Add to queue” in the composer.' : ''}</p>}
          {mine.length > 0 && (
            <ol className="queued-posts">{mine.map((p) => (
              <li key={p._id}><span className="slot-when">{p.scheduledFor ? timeFormat.slot(p.scheduledFor, tz) : ''}</span> <Link href={`/posts/${p._id}`}>{p.content.slice(0, 120) || '(no text)'}</Link></li>
            ))}</ol>
          )}
        </section>
      )}
    </>
  );
}
