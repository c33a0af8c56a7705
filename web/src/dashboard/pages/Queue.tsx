/**
 * The queue page: a profile's queues (decision 0062) as tabs, the default one marked, plus
 * "New queue"; the chosen queue's timeline, schedule form and waiting posts (QueueEditor).
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { ErrorBox, Loading, PageTitle } from '../components.tsx';
import { useProfiles } from '../queries/profiles.ts';
import { useQueues } from '../queries/queues.ts';
import { QueueEditor } from '../queue/QueueEditor.tsx';
import './queue.css';

const NEW = 'new';

/** The queues of one profile as tabs (arrow keys move between them), and the chosen queue. */
function ProfileQueues({ profileId }: { profileId: string }) {
  const queues = useQueues(profileId);
  const [selected, setSelected] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const tabs = useRef<HTMLDivElement>(null);
  const list = queues.data ?? [];
  const fallback = list.find((q) => q.isDefault) ?? list[0];
  // The chosen queue, or the default while none is chosen (or the chosen one is gone).
  const current = selected === NEW ? null : list.find((q) => q._id === selected) ?? fallback ?? null;
  const tabKey = selected === NEW ? NEW : current?._id ?? NEW;

  function choose(key: string) { setSelected(key); setNotice(null); }
  function onTabKey(e: KeyboardEvent<HTMLButtonElement>) {
    const keys = [...list.map((q) => q._id), NEW];
    const at = keys.indexOf(tabKey);
    const to = e.key === 'ArrowRight' ? (at + 1) % keys.length : e.key === 'ArrowLeft' ? (at - 1 + keys.length) % keys.length
      : e.key === 'Home' ? 0 : e.key === 'End' ? keys.length - 1 : -1;
    if (to < 0) return;
    e.preventDefault();
    choose(keys[to]);
    requestAnimationFrame(() => tabs.current?.querySelector<HTMLButtonElement>(`[data-key="${keys[to]}"]`)?.focus());
  }

  if (queues.isLoading) return <Loading />;
  if (queues.error) return <ErrorBox error={queues.error} title="Could not load the queues" />;
  return (
    <>
      {list.length > 0 && (
        <div className="queue-tabs" role="tablist" aria-label="Queues of this profile" ref={tabs}>
          {list.map((q) => (
            <button key={q._id} type="button" role="tab" id={`q-tab-${q._id}`} data-key={q._id} aria-selected={tabKey === q._id} aria-controls="q-panel"
              tabIndex={tabKey === q._id ? 0 : -1} className="queue-tab" onClick={() => choose(q._id)} onKeyDown={onTabKey}>
              {q.name}{q.isDefault && <span className="queue-default"> default</span>}{!q.active && <span className="queue-off"> inactive</span>}
            </button>
          ))}
          <button type="button" role="tab" id="q-tab-new" data-key={NEW} aria-selected={tabKey === NEW} aria-controls="q-panel" tabIndex={tabKey === NEW ? 0 : -1}
            className="queue-tab queue-tab-new" onClick={() => choose(NEW)} onKeyDown={onTabKey}>+ New queue</button>
        </div>
      )}
      <div id="q-panel" role={list.length > 0 ? 'tabpanel' : undefined} aria-labelledby={list.length > 0 ? `q-tab-${tabKey}` : undefined}>
        <QueueEditor key={`${profileId}:${tabKey}`} profileId={profileId} queue={current} queueCount={list.length}
          notice={notice} onNotice={setNotice}
          onSaved={(id) => setSelected(id)} onDeleted={() => setSelected(null)} />
      </div>
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
      <p className="muted">A profile's queues, each with its weekly posting slots: the coming slots with their posts (move them, fill a free slot), and the slots themselves. “Add to queue” in the composer takes the next free slot of the default queue.</p>
      <ErrorBox error={profiles.error} />
      {profiles.data?.length === 0 && <p className="empty">Create a profile first.</p>}
      {!!profiles.data?.length && (
        <div className="field narrow">
          <label htmlFor="q-profile">Profile</label>
          <select id="q-profile" value={profileId} onChange={(e) => setProfileId(e.target.value)}>{profiles.data.map((p) => <option key={p._id} value={p._id}>{p.name}</option>)}</select>
        </div>
      )}
      {profileId && <ProfileQueues key={profileId} profileId={profileId} />}
    </>
  );
}
