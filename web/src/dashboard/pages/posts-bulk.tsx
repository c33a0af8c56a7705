/**
 * The posts list's bulk actions on the selected rows (./Posts.tsx): delete, reschedule to a day,
 * move to a profile's queue, each through the dashboard's in-app dialog, with a toast saying what
 * was done and what was not. A chunk of its own: the dialog library loads with the first selection.
 */
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { api, unwrap, type PostView } from '../api.ts';
import { CAN_DELETE, CAN_EDIT, errorText } from '../components.tsx';
import { pad, wallTime } from '../time.ts';
import { ConfirmButton, InAppDialog } from '../ui/confirm.tsx';
import { DateField, TimeOfDayField } from '../ui/date-time.tsx';
import { toast } from '../ui/toast.ts';

/** Runs `act` on each post, one after the other; answers the posts done and those refused, with why. */
async function eachPost(posts: PostView[], act: (p: PostView) => Promise<unknown>): Promise<{ done: number; failed: Array<{ post: PostView; why: string }> }> {
  let done = 0;
  const failed: Array<{ post: PostView; why: string }> = [];
  for (const p of posts) {
    try { await act(p); done++; } catch (e) { failed.push({ post: p, why: errorText(e) }); }
  }
  return { done, failed };
}

/** The toast of a bulk action: how many it did, and each post it could not do with why. */
function report(verb: string, r: { done: number; failed: Array<{ post: PostView; why: string }> }, skipped: PostView[], skipWhy: string) {
  const all = [...r.failed, ...skipped.map((post) => ({ post, why: skipWhy }))];
  toast({
    title: `${verb} ${r.done} post${r.done === 1 ? '' : 's'}`,
    tone: all.length ? 'error' : 'ok',
    body: all.length > 0 ? <ul>{all.map(({ post, why }) => <li key={post._id}>“{(post.content || '(no text)').slice(0, 40)}”: {why}</li>)}</ul> : undefined,
  });
}

/** The bar over the table while rows are selected: delete, reschedule, move to a queue. */
export default function BulkBar({ posts, tz, profiles, accountProfile, onDone }: {
  posts: PostView[]; tz: string; profiles: Array<{ _id: string; name: string }>; accountProfile: Map<string, string>; onDone: () => void;
}) {
  const [dialog, setDialog] = useState<'reschedule' | 'queue' | null>(null);
  const deletable = posts.filter((p) => CAN_DELETE.has(p.status));
  const editable = posts.filter((p) => CAN_EDIT.has(p.status));
  const queueable = posts.filter((p) => p.status === 'draft' || p.status === 'scheduled');
  const remove = useMutation({
    mutationFn: () => eachPost(deletable, (p) => unwrap(api.DELETE('/v1/posts/{postId}', { params: { path: { postId: p._id } } }))),
    onSuccess: (r) => { report('Deleted', r, posts.filter((p) => !CAN_DELETE.has(p.status)), 'published posts are kept (unpublish them first)'); onDone(); },
  });
  const n = posts.length;
  return (
    <div className="bulk-bar" role="region" aria-label="Selected posts">
      <strong>{n} selected</strong>
      <ConfirmButton className="btn btn-sm btn-danger" isDisabled={remove.isPending || deletable.length === 0} title={`Delete ${deletable.length} post${deletable.length === 1 ? '' : 's'}?`}
        message={<p>They are removed from Herald.{deletable.length < n ? ` ${n - deletable.length} of the selected cannot be deleted (published posts are kept) and stay.` : ''}</p>}
        confirmLabel="Delete posts" onConfirm={() => remove.mutate()}>Delete</ConfirmButton>
      <button type="button" className="btn btn-sm" disabled={editable.length === 0} onClick={() => setDialog('reschedule')}>Reschedule</button>
      <button type="button" className="btn btn-sm" disabled={queueable.length === 0} onClick={() => setDialog('queue')}>Move to queue</button>
      {dialog === 'reschedule' && <RescheduleDialog posts={editable} skipped={posts.filter((p) => !CAN_EDIT.has(p.status))} tz={tz} onClose={() => setDialog(null)} onDone={onDone} />}
      {dialog === 'queue' && <QueueDialog posts={queueable} skipped={posts.filter((p) => p.status !== 'draft' && p.status !== 'scheduled')} profiles={profiles} accountProfile={accountProfile} onClose={() => setDialog(null)} onDone={onDone} />}
    </div>
  );
}

/** Moves the posts to another day, each keeping its time of day (or all at one time when given), in the calendar's zone. */
function RescheduleDialog({ posts, skipped, tz, onClose, onDone }: { posts: PostView[]; skipped: PostView[]; tz: string; onClose: () => void; onDone: () => void }) {
  const [day, setDay] = useState('');
  const [time, setTime] = useState('');
  const run = useMutation({
    mutationFn: () => eachPost(posts, (p) => {
      const w = p.scheduledFor ? wallTime(new Date(p.scheduledFor), tz) : null;
      const at = time || (w ? `${pad(w.hour)}:${pad(w.minute)}` : '09:00');
      return unwrap(api.PUT('/v1/posts/{postId}', { params: { path: { postId: p._id } }, body: { scheduledFor: `${day}T${at}`, timezone: tz, ...(p.status === 'draft' ? { isDraft: false } : {}) } }));
    }),
    onSuccess: (r) => { report('Rescheduled', r, skipped, 'published, publishing and cancelled posts keep their time'); onClose(); onDone(); },
  });
  return (
    <InAppDialog isOpen onClose={onClose} title={`Reschedule ${posts.length} post${posts.length === 1 ? '' : 's'}`}>
      <form onSubmit={(e) => { e.preventDefault(); run.mutate(); }}>
        <DateField id="bulk-day" label="New day" isRequired value={day} onChange={setDay} />
        <div className="field"><TimeOfDayField id="bulk-time" label="At (optional)" className="dp" value={time} onChange={setTime} />
          <p className="hint">Empty: each post keeps its own time of day. Times in {tz}. Drafts are scheduled.</p></div>
        {skipped.length > 0 && <p className="hint">{skipped.length} selected post{skipped.length === 1 ? '' : 's'} cannot move (published, publishing or cancelled) and stay.</p>}
        <div className="ui-dialog-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={!day || run.isPending}>{run.isPending ? 'Rescheduling…' : 'Reschedule'}</button>
        </div>
      </form>
    </InAppDialog>
  );
}

/** Moves the posts into a profile's queue (each takes the next free slot): PUT queuedFromProfile. */
function QueueDialog({ posts, skipped, profiles, accountProfile, onClose, onDone }: {
  posts: PostView[]; skipped: PostView[]; profiles: Array<{ _id: string; name: string }>; accountProfile: Map<string, string>; onClose: () => void; onDone: () => void;
}) {
  // The profile the selected posts' accounts belong to, when they share one.
  const own = new Set(posts.flatMap((p) => p.platforms.map((t) => accountProfile.get(typeof t.accountId === 'string' ? t.accountId : t.accountId._id)).filter(Boolean)));
  const [profileId, setProfileId] = useState(own.size === 1 ? [...own][0]! : profiles[0]?._id ?? '');
  const run = useMutation({
    mutationFn: () => eachPost(posts, (p) => unwrap(api.PUT('/v1/posts/{postId}', { params: { path: { postId: p._id } }, body: { queuedFromProfile: profileId } }))),
    onSuccess: (r) => { report('Queued', r, skipped, 'only drafts and scheduled posts can join a queue'); onClose(); onDone(); },
  });
  return (
    <InAppDialog isOpen onClose={onClose} title={`Move ${posts.length} post${posts.length === 1 ? '' : 's'} to a queue`}>
      <form onSubmit={(e) => { e.preventDefault(); run.mutate(); }}>
        <div className="field"><label htmlFor="bulk-queue">Queue of the profile</label>
          <select id="bulk-queue" value={profileId} onChange={(e) => setProfileId(e.target.value)}>
            {profiles.map((p) => <option key={p._id} value={p._id}>{p.name}</option>)}
          </select>
          <p className="hint">Each post takes the next free slot of the queue, in the order of the list.</p></div>
        {skipped.length > 0 && <p className="hint">{skipped.length} selected post{skipped.length === 1 ? '' : 's'} cannot join a queue (only drafts and scheduled posts can) and stay.</p>}
        <div className="ui-dialog-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={!profileId || run.isPending}>{run.isPending ? 'Moving…' : 'Move to queue'}</button>
        </div>
      </form>
    </InAppDialog>
  );
}
