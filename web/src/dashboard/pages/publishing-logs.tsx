/**
 * A post's publishing log (GET /v1/posts/{postId}/logs), for the post detail page: every attempt,
 * verify, rate-limit pause and unpublish with the platform's answer; and the Unpublish button
 * (POST /v1/posts/{postId}/unpublish) with what each platform did.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api.ts';
import { ErrorBox, PlatformBadge } from '../components.tsx';
import { formatInZone } from '../time.ts';
import './publishing-logs.css';

const ACTION_LABELS: Record<string, string> = {
  publish: 'Publish', retry: 'Retry', verify: 'Check after interruption', media_upload: 'Media upload',
  rate_limit_pause: 'Rate-limit pause', token_refresh: 'Token refresh', unpublish: 'Unpublish',
};

export function PostLogsSection({ postId, tz, live }: { postId: string; tz: string; live: boolean }) {
  const q = useQuery({
    queryKey: ['post-logs', postId],
    queryFn: () => unwrap(api.GET('/v1/posts/{postId}/logs', { params: { path: { postId }, query: { limit: 50 } } })),
    refetchInterval: live ? 3_000 : false,
  });
  const logs = q.data?.logs ?? [];
  return (
    <section className="card" aria-labelledby="d-logs">
      <h2 id="d-logs" className="small-title">Publishing log</h2>
      <ErrorBox error={q.error} title="Could not load the log" />
      {q.data && logs.length === 0 && <p className="muted">Nothing sent to a platform yet.</p>}
      {logs.length > 0 && (
        <ol className="log-list">
          {logs.map((l) => (
            <li key={l._id} className="log-entry" data-status={l.status}>
              <div className="log-head">
                {l.platform && <PlatformBadge platform={l.platform} />}
                <strong>{ACTION_LABELS[l.action] ?? l.action}</strong>
                <span className={`log-status log-${l.status}`}>{l.status}</span>
                <span className="muted small">
                  {formatInZone(l.createdAt, tz)}{l.durationMs !== null ? ` · ${l.durationMs} ms` : ''}{l.attemptNumber > 0 ? ` · attempt ${l.attemptNumber}` : ''}
                </span>
              </div>
              {(l.httpStatus !== null || l.endpoint) && <p className="small"><code>{[l.endpoint, l.httpStatus !== null ? `→ HTTP ${l.httpStatus}` : ''].filter(Boolean).join(' ')}</code></p>}
              {l.errorMessage && <p className="small log-error">{l.errorMessage}{l.errorCategory ? ` (${l.errorCategory})` : ''}</p>}
              {l.responseExcerpt && (
                <details className="small"><summary>Platform answer</summary><pre className="log-excerpt">{l.responseExcerpt}</pre></details>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/**
 * Unpublish button (shown while `available`), and what each platform did after it ran. Stays mounted
 * when the post becomes cancelled, so the results stay on screen after a successful unpublish.
 */
export function UnpublishButton({ postId, available }: { postId: string; available: boolean }) {
  const qc = useQueryClient();
  const m = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/posts/{postId}/unpublish', { params: { path: { postId } }, body: {} })),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['post', postId] });
      void qc.invalidateQueries({ queryKey: ['post-logs', postId] });
      void qc.invalidateQueries({ queryKey: ['posts'] });
    },
  });
  const results = m.data?.results ?? [];
  return (
    <>
      {available && (
        <button type="button" className="btn btn-danger" disabled={m.isPending}
          onClick={() => { if (confirm('Delete this post from the platforms it was published on?')) m.mutate(); }}>
          {m.isPending ? 'Unpublishing…' : 'Unpublish'}
        </button>
      )}
      {m.error && <div className="unpublish-results"><ErrorBox error={m.error} title="Could not unpublish" /></div>}
      {results.length > 0 && (
        <div className={`alert ${m.data?.success ? 'alert-ok' : 'alert-error'} unpublish-results`} role="status">
          <ul>{results.map((r, i) => <li key={i} data-outcome={r.outcome}><PlatformBadge platform={r.platform} /> {r.outcome.replace(/_/g, ' ')}{r.error ? `: ${r.error}` : ''}</li>)}</ul>
        </div>
      )}
    </>
  );
}
