/**
 * A post's publishing log (GET /v1/posts/{postId}/logs), for the post detail page: every attempt,
 * verify, rate-limit pause and unpublish with the platform's answer; and the Unpublish button
 * (POST /v1/posts/{postId}/unpublish) with what each platform did.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api.ts';
import { ErrorBox, PlatformBadge, errorText } from '../components.tsx';
import { ConfirmButton } from '../ui/confirm.tsx';
import { toast } from '../ui/toast.ts';
import { formatInZone } from '../time.ts';
import './publishing-logs.css';

const ACTION_LABELS: Record<string, string> = {
  publish: 'Publish', retry: 'Retry', verify: 'Check after interruption', media_upload: 'Media upload',
  rate_limit_pause: 'Rate-limit pause', token_refresh: 'Token refresh', unpublish: 'Unpublish', edit: 'Edit', update_metadata: 'Metadata update',
};

/**
 * An entry's status in words. `pending` is an entry without an outcome yet: "In progress" while
 * the post is publishing, else the call was never answered (the server marks the last step of a
 * failed target failed, so an unanswered step that a later one followed is what is left).
 */
function statusLabel(status: string, live: boolean): string {
  switch (status) {
    case 'success': return 'Succeeded';
    case 'failed': return 'Failed';
    case 'skipped': return 'Not needed';
    case 'pending': return live ? 'In progress' : 'No answer';
    default: return status;
  }
}

/**
 * The publishing log of a post. Read again whenever the post's status changes (`postStatus`),
 * so entries read while a publish ran do not keep their status once it finished.
 */
export function PostLogsSection({ postId, tz, live, postStatus }: { postId: string; tz: string; live: boolean; postStatus?: string }) {
  const q = useQuery({
    queryKey: ['post-logs', postId, postStatus],
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
                <span className={`log-status log-${l.status}`}>{statusLabel(l.status, live)}</span>
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

/** "@name: " of the post's account `accountId`, to tell apart two accounts of one platform; empty when unknown. */
function accountName(post: { platforms: Array<{ accountId: string | { _id: string; username: string } }> }, accountId: string): string {
  const a = post.platforms.map((t) => t.accountId).find((x) => typeof x !== 'string' && x._id === accountId);
  return a && typeof a !== 'string' ? `@${a.username.replace(/^@/, '')}: ` : '';
}

/**
 * Unpublish button (shown while `available`): asks in an in-app dialog, then says in a toast what
 * each platform did (the per-platform list on the page shows the deletions too).
 */
export function UnpublishButton({ postId, available }: { postId: string; available: boolean }) {
  const qc = useQueryClient();
  const m = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/posts/{postId}/unpublish', { params: { path: { postId } }, body: {} })),
    onSuccess: (r) => {
      toast({
        title: r.success ? 'Unpublished' : 'Not unpublished everywhere',
        tone: r.success ? 'ok' : 'error',
        body: <ul className="unpublish-results">{r.results.map((x, i) => <li key={i} data-outcome={x.outcome}><PlatformBadge platform={x.platform} /> {accountName(r.post, x.accountId)}{x.outcome.replace(/_/g, ' ')}{x.error ? `: ${x.error}` : ''}</li>)}</ul>,
      });
      void qc.invalidateQueries({ queryKey: ['post', postId] });
      void qc.invalidateQueries({ queryKey: ['post-logs', postId] });
      void qc.invalidateQueries({ queryKey: ['posts'] });
    },
    onError: (e) => toast({ title: 'Could not unpublish', body: errorText(e), tone: 'error' }),
  });
  if (!available) return null;
  return (
    <ConfirmButton isDisabled={m.isPending} title="Unpublish this post?" confirmLabel="Unpublish" onConfirm={() => m.mutate()}
      message="It is deleted from every platform it was published on. The post stays here, cancelled, with its log.">
      {m.isPending ? 'Unpublishing…' : 'Unpublish'}
    </ConfirmButton>
  );
}
