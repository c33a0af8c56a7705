/**
 * A published post's metrics per platform (GET /v1/analytics?postId=), for the post detail page.
 * Metrics a platform does not have are left out; without the Analytics add-on a line says so.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ApiError, api, unwrap } from '../api.ts';
import { PlatformBadge } from '../components.tsx';
import { METRICS, METRIC_LABELS } from '../../../../src/shared/metrics.ts';
import { formatInZone } from '../time.ts';
import './metrics.css';

export function PostMetricsSection({ postId, tz }: { postId: string; tz: string }) {
  const q = useQuery({
    queryKey: ['analytics', 'post', postId],
    queryFn: () => unwrap(api.GET('/v1/analytics', { params: { query: { postId } } })),
    staleTime: 5 * 60_000, retry: false,
  });
  const addonMissing = q.error instanceof ApiError && q.error.status === 402;
  const data = q.data && 'platformAnalytics' in q.data ? q.data : null;
  return (
    <section className="card" aria-labelledby="d-metrics">
      <h2 id="d-metrics" className="small-title">Metrics</h2>
      {addonMissing && <p className="muted">Metrics come with the Analytics add-on. <Link href="/analytics">What it gives</Link>.</p>}
      {q.error && !addonMissing && <p className="muted">Metrics could not be loaded ({(q.error as Error).message}).</p>}
      {data && (
        <ul className="target-list">
          {data.platformAnalytics.filter((t) => t.status === 'published').map((t) => (
            <li key={`${t.platform}-${t.accountId}`} className="target">
              <div className="target-head"><PlatformBadge platform={t.platform} />{t.accountUsername && <span>@{t.accountUsername.replace(/^@/, '')}</span>}</div>
              {t.analytics ? (
                <>
                  <dl className="target-metrics">
                    {METRICS.filter((k) => t.analytics![k] !== null).map((k) => <div key={k}><dt>{METRIC_LABELS[k]}</dt><dd>{t.analytics![k]!.toLocaleString('en-US')}</dd></div>)}
                  </dl>
                  {t.analytics.lastUpdated && <p className="muted small">Read {formatInZone(t.analytics.lastUpdated, tz)}</p>}
                </>
              ) : <p className="muted small">{t.syncStatus === 'unavailable' ? 'This platform gives no metrics for this post.' : 'Not read yet: metrics are read in the background after publishing.'}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
