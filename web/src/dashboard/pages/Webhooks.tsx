import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Paths } from '../api.ts';
import { ErrorBox, Loading, PageTitle } from '../components.tsx';
import { browserTimeZone, formatInZone } from '../time.ts';
import './webhooks.css';
import { ConfirmButton } from '../ui/confirm.tsx';
import { SUBSCRIBABLE_EVENTS, WEBHOOK_EVENT_LABELS } from '../../../../src/shared/webhook-events.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Webhook = Json<Paths['/v1/webhooks/settings']['get']['responses'][200]>['webhooks'][number];
type CreateBody = NonNullable<Paths['/v1/webhooks/settings']['post']['requestBody']>['content']['application/json'];
type EventName = CreateBody['events'][number];

/** Subscribable events, with what each means: the server's list (the docs' Webhooks section lists the payloads). */
const EVENTS: Array<[EventName, string]> = SUBSCRIBABLE_EVENTS.map((e) => [e, WEBHOOK_EVENT_LABELS[e]]);

interface FormState { id: string | null; name: string; url: string; secret: string; events: Set<EventName>; isActive: boolean }
const EMPTY: FormState = { id: null, name: '', url: '', secret: '', events: new Set(['post.published', 'post.failed', 'post.partial']), isActive: true };

export default function WebhooksPage() {
  const qc = useQueryClient();
  const tz = browserTimeZone();
  const [form, setForm] = useState<FormState>(EMPTY);
  const [filter, setFilter] = useState('');
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [shownSecret, setShownSecret] = useState<string | null>(null);

  const hooks = useQuery({ queryKey: ['webhooks'], queryFn: () => unwrap(api.GET('/v1/webhooks/settings')).then((r) => r.webhooks) });
  const logs = useQuery({
    queryKey: ['webhook-logs', filter],
    queryFn: () => unwrap(api.GET('/v1/webhooks/logs', { params: { query: { limit: 50, ...(filter ? { webhookId: filter } : {}) } } })),
    refetchInterval: 5_000,
  });
  const refresh = () => { void qc.invalidateQueries({ queryKey: ['webhooks'] }); void qc.invalidateQueries({ queryKey: ['webhook-logs'] }); };

  const save = useMutation({
    mutationFn: () => {
      const body = { name: form.name.trim(), url: form.url.trim(), events: [...form.events], isActive: form.isActive, ...(form.secret ? { secret: form.secret } : {}) };
      return form.id
        ? unwrap(api.PUT('/v1/webhooks/settings', { body: { webhookId: form.id, ...body } }))
        : unwrap(api.POST('/v1/webhooks/settings', { body }));
    },
    onSuccess: (r) => {
      setNotice({ ok: true, text: form.id ? `Webhook “${r.webhook.name}” saved.` : `Webhook “${r.webhook.name}” added. Its signing secret is below.` });
      if (!form.id) setShownSecret(r.webhook._id);
      setForm(EMPTY);
      refresh();
    },
  });
  const test = useMutation({
    mutationFn: (w: Webhook) => unwrap(api.POST('/v1/webhooks/test', { body: { webhookId: w._id } })),
    onSuccess: (r) => { setNotice({ ok: r.success, text: r.message }); refresh(); },
  });
  const toggle = useMutation({
    mutationFn: (w: Webhook) => unwrap(api.PUT('/v1/webhooks/settings', { body: { webhookId: w._id, isActive: !w.isActive } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (w: Webhook) => unwrap(api.DELETE('/v1/webhooks/settings', { params: { query: { webhookId: w._id } } })),
    onSuccess: () => { setForm(EMPTY); refresh(); },
  });
  const redeliver = useMutation({
    mutationFn: (l: { webhookId: string; eventId: string }) => unwrap(api.POST('/v1/webhooks/logs/redeliver', { body: l })),
    // The worker sends it within a second or so: look again then.
    onSuccess: (r) => { setNotice({ ok: r.success, text: r.message }); refresh(); setTimeout(refresh, 1_500); },
  });

  const edit = (w: Webhook) => {
    setForm({ id: w._id, name: w.name, url: w.url, secret: '', events: new Set(w.events as EventName[]), isActive: w.isActive });
    document.getElementById('wh-name')?.focus();
  };
  const flip = (e: EventName) => setForm((f) => { const s = new Set(f.events); if (s.has(e)) s.delete(e); else s.add(e); return { ...f, events: s }; });
  const disabled = (hooks.data ?? []).filter((w) => w.disabledAt);

  return (
    <>
      <PageTitle title="Webhooks" />
      <p className="muted">Herald POSTs a signed JSON event to your endpoint when a post is scheduled, published or fails, when it is submitted for approval, decided or commented on, and when an account is connected or disconnected. See <a href="/docs#webhooks">Webhooks in the docs</a> for the payloads and how to check the signature.</p>
      {disabled.map((w) => (
        <div key={w._id} className="alert alert-error" role="alert">
          <p><strong>Webhook “{w.name}” was turned off</strong> {w.disabledAt ? `on ${formatInZone(w.disabledAt, tz)}` : ''}: {w.disabledReason ?? 'it kept failing'}. Fix the endpoint, send a test, then turn it on again; queued events are then delivered.</p>
          <button type="button" className="btn btn-sm" onClick={() => toggle.mutate(w)} disabled={toggle.isPending}>Turn on “{w.name}”</button>
        </div>
      ))}
      {notice && <div className={`alert ${notice.ok ? 'alert-ok' : 'alert-error'}`} role="status"><p>{notice.text}</p></div>}

      <form className="card" onSubmit={(e) => { e.preventDefault(); save.mutate(); }} aria-labelledby="wh-form-title">
        <h2 id="wh-form-title" className="small-title">{form.id ? 'Edit webhook' : 'Add a webhook'}</h2>
        <div className="form-row">
          <div className="field"><label htmlFor="wh-name">Name</label><input id="wh-name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} required maxLength={50} placeholder="e.g. CRM sync" /></div>
          <div className="field grow"><label htmlFor="wh-url">Endpoint URL</label><input id="wh-url" type="url" value={form.url} onChange={(e) => setForm({ ...form, url: e.target.value })} required placeholder="https://example.com/herald-events" /></div>
        </div>
        <fieldset className="wh-events">
          <legend>Events</legend>
          {EVENTS.map(([e, label]) => (
            <label key={e} className="wh-event"><input type="checkbox" checked={form.events.has(e)} onChange={() => flip(e)} /> <span>{label}</span> <code>{e}</code></label>
          ))}
        </fieldset>
        <div className="form-row">
          <div className="field grow"><label htmlFor="wh-secret">Signing secret {form.id ? '(leave empty to keep it)' : '(leave empty to generate one)'}</label>
            <input id="wh-secret" value={form.secret} onChange={(e) => setForm({ ...form, secret: e.target.value })} minLength={16} maxLength={256} autoComplete="off" /></div>
          <label className="wh-active"><input type="checkbox" checked={form.isActive} onChange={(e) => setForm({ ...form, isActive: e.target.checked })} /> Active</label>
        </div>
        <ErrorBox error={save.error} title="Could not save the webhook" />
        <div className="button-row">
          <button type="submit" className="btn btn-primary" disabled={save.isPending || !form.name.trim() || !form.url.trim() || form.events.size === 0}>{form.id ? 'Save webhook' : 'Add webhook'}</button>
          {form.id && <button type="button" className="btn" onClick={() => setForm(EMPTY)}>Cancel</button>}
        </div>
      </form>

      <ErrorBox error={hooks.error ?? test.error ?? toggle.error ?? remove.error} />
      {hooks.isLoading && <Loading />}
      {hooks.data && hooks.data.length === 0 && <p className="muted">No webhooks yet.</p>}
      {hooks.data && hooks.data.length > 0 && (
        <ul className="wh-list" aria-label="Webhooks">
          {hooks.data.map((w) => (
            <li key={w._id} className="card wh-item">
              <div className="wh-head">
                <h2 className="small-title">{w.name}</h2>
                <span className={`status-badge ${w.isActive ? (w.failingSince ? 's-partial' : 's-published') : 's-cancelled'}`}>{w.isActive ? (w.failingSince ? 'failing' : 'active') : 'off'}</span>
              </div>
              <p className="wh-url"><code>{w.url}</code></p>
              <p className="muted small">{w.events.join(', ')}</p>
              <p className="muted small">Last success: {w.lastFiredAt ? formatInZone(w.lastFiredAt, tz) : 'never'}{w.failureCount > 0 ? ` · ${w.failureCount} failed event${w.failureCount === 1 ? '' : 's'} since` : ''}</p>
              {shownSecret === w._id
                ? <p className="wh-secret">Secret: <code data-testid="webhook-secret">{w.secret}</code> <button type="button" className="btn btn-sm" onClick={() => setShownSecret(null)}>Hide</button></p>
                : <button type="button" className="btn btn-sm btn-ghost" onClick={() => setShownSecret(w._id)}>Show secret<span className="sr-only"> of {w.name}</span></button>}
              <div className="button-row">
                <button type="button" className="btn btn-sm" onClick={() => test.mutate(w)} disabled={test.isPending}>Send test<span className="sr-only"> to {w.name}</span></button>
                <button type="button" className="btn btn-sm" onClick={() => edit(w)}>Edit<span className="sr-only"> {w.name}</span></button>
                <button type="button" className="btn btn-sm" onClick={() => toggle.mutate(w)}>{w.isActive ? 'Turn off' : 'Turn on'}<span className="sr-only"> {w.name}</span></button>
                <button type="button" className="btn btn-sm" onClick={() => setFilter(w._id)}>Deliveries<span className="sr-only"> of {w.name}</span></button>
                <ConfirmButton className="btn btn-sm btn-danger" title={`Delete the webhook “${w.name}”?`} message="Its queued events are dropped." confirmLabel="Delete webhook" onConfirm={() => remove.mutate(w)}>Delete<span className="sr-only"> {w.name}</span></ConfirmButton>
              </div>
            </li>
          ))}
        </ul>
      )}

      <section aria-labelledby="wh-logs-title" className="wh-logs">
        <div className="wh-head">
          <h2 id="wh-logs-title">Deliveries</h2>
          <div className="field">
            <label htmlFor="wh-filter" className="sr-only">Webhook</label>
            <select id="wh-filter" value={filter} onChange={(e) => setFilter(e.target.value)}>
              <option value="">All webhooks</option>
              {(hooks.data ?? []).map((w) => <option key={w._id} value={w._id}>{w.name}</option>)}
            </select>
          </div>
        </div>
        <p className="muted small">Every attempt of the last 30 days, newest first.</p>
        <ErrorBox error={logs.error ?? redeliver.error} />
        {logs.isLoading && <Loading />}
        {logs.data && logs.data.logs.length === 0 && <p className="muted">No deliveries yet.</p>}
        {logs.data && logs.data.logs.length > 0 && (
          <div className="table-wrap card flush">
            <table>
              <thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">Webhook</th><th scope="col">Result</th><th scope="col">Answer</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
              <tbody>
                {logs.data.logs.map((l) => (
                  <tr key={l._id}>
                    <td className="nowrap">{formatInZone(l.createdAt, tz)}</td>
                    <td className="nowrap"><code>{l.event}</code></td>
                    <td>{l.webhookName}</td>
                    <td className="nowrap"><span className={`status-badge ${l.status === 'success' ? 's-published' : 's-failed'}`}>{l.status}</span> {l.statusCode ?? '—'} · {l.responseTime} ms · try {l.attemptNumber}</td>
                    <td className="wh-answer">{l.errorMessage ?? ''}{l.responseBody ? <details><summary>Body</summary><pre>{l.responseBody}</pre></details> : null}</td>
                    <td><button type="button" className="btn btn-sm" onClick={() => redeliver.mutate({ webhookId: l.webhookId, eventId: l.eventId })} disabled={redeliver.isPending}>Redeliver<span className="sr-only"> {l.event}</span></button></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
