/**
 * Account health (GET /v1/accounts/health) for the profiles and accounts page: a summary, and each
 * account that needs the user with its issues (docs/decisions/0048). Healthy accounts are only counted;
 * when every account is healthy the panel says so in one line.
 */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api.ts';
import { PlatformBadge } from '../components.tsx';
import './publishing-logs.css';

export function AccountHealthPanel() {
  const q = useQuery({ queryKey: ['accounts-health'], queryFn: () => unwrap(api.GET('/v1/accounts/health')), staleTime: 60_000 });
  if (!q.data || q.data.summary.total === 0) return null;
  const { summary, accounts } = q.data;
  // Only what needs the user: a token Herald renews by itself is no issue (the server leaves it out of the counts).
  const attention = accounts.filter((a) => a.status !== 'healthy');
  const counts: Array<[number, string, string]> = [
    [summary.error, 'cannot post', 'health-error'],
    [summary.warning, summary.warning === 1 ? 'needs attention' : 'need attention', 'health-warning'],
    [summary.needsReconnect, 'to reconnect', 'health-error'],
  ];
  return (
    <section className="card" aria-labelledby="acc-health">
      <h2 id="acc-health" className="small-title">Account health</h2>
      {attention.length === 0
        ? <p className="health-summary"><span className="health-healthy">{summary.total === 1 ? 'The account is healthy' : `All ${summary.total} accounts are healthy`}.</span> <span className="muted">Herald renews their tokens by itself.</span></p>
        : <p className="health-summary">
            {counts.filter(([n]) => n > 0).map(([n, label, cls]) => <span key={label} className={cls}>{n} {label}</span>)}
            <span className="health-healthy">{summary.healthy} healthy</span>
          </p>}
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
