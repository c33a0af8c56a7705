/**
 * Account health (GET /v1/accounts/health) for the profiles and accounts page: a summary, and each
 * account that needs attention with its issues. Healthy accounts are only counted.
 */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api.ts';
import { PlatformBadge } from '../components.tsx';
import './publishing-logs.css';

export function AccountHealthPanel() {
  const q = useQuery({ queryKey: ['accounts-health'], queryFn: () => unwrap(api.GET('/v1/accounts/health')), staleTime: 60_000 });
  if (!q.data || q.data.summary.total === 0) return null;
  const { summary, accounts } = q.data;
  const attention = accounts.filter((a) => a.status !== 'healthy');
  return (
    <section className="card" aria-labelledby="acc-health">
      <h2 id="acc-health" className="small-title">Account health</h2>
      <p className="health-summary">
        <span className="health-healthy">{summary.healthy} healthy</span>
        <span className="health-warning">{summary.warning} need attention</span>
        <span className="health-error">{summary.error} cannot post</span>
        {summary.needsReconnect > 0 && <span className="health-error">{summary.needsReconnect} to reconnect</span>}
      </p>
      {attention.length > 0 && (
        <ul className="health-list">
          {attention.map((a) => (
            <li key={a.accountId} className="health-item">
              <PlatformBadge platform={a.platform} />
              <span>@{a.username.replace(/^@/, '')}</span>
              <strong className={`health-${a.status}`}>{a.status === 'error' ? 'Cannot post' : 'Needs attention'}</strong>
              <ul className="health-issues small">{a.issues.map((i) => <li key={i}>{i}</li>)}</ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
