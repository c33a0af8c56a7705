import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api.ts';
import { ErrorBox, Loading, PageTitle } from '../components.tsx';
import { PLANS, PLAN_IDS } from '../../../../src/shared/plans.ts';
import { browserTimeZone, formatInZone } from '../time.ts';

function Bar({ label, used, limit }: { label: string; used: number; limit: number }) {
  const unlimited = limit === -1;
  const pct = unlimited ? 0 : Math.min(100, Math.round((used / Math.max(1, limit)) * 100));
  return (
    <div className="usage-bar">
      <div className="usage-label"><strong>{label}</strong><span>{used.toLocaleString('en-US')} / {unlimited ? 'unlimited' : limit.toLocaleString('en-US')}</span></div>
      <div className="bar" role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={unlimited ? used : limit} aria-valuenow={used} aria-valuetext={unlimited ? `${used} used, unlimited` : `${used} of ${limit} used`}>
        <div className={`bar-fill${pct >= 100 ? ' full' : pct >= 80 ? ' high' : ''}`} style={{ width: unlimited ? '4%' : `${pct}%` }} />
      </div>
    </div>
  );
}

export default function UsagePage() {
  const usage = useQuery({ queryKey: ['usage'], queryFn: () => unwrap(api.GET('/v1/usage-stats')) });
  const tz = browserTimeZone();
  const u = usage.data;
  const plan = u ? PLAN_IDS.map((id) => PLANS[id]).find((p) => p.name.toLowerCase() === u.planName.toLowerCase()) : undefined;
  return (
    <>
      <PageTitle title="Usage & plan" />
      <ErrorBox error={usage.error} />
      {usage.isLoading && <Loading />}
      {u && (
        <div className="usage-grid">
          <section className="card" aria-labelledby="u-plan">
            <h2 id="u-plan" className="small-title">Plan</h2>
            <p className="plan-name">{plan ? `${plan.marketingName} (${u.planName})` : u.planName}</p>
            <p className="muted">Billed {u.billingPeriod}. This period started {formatInZone(u.usage.lastReset, tz, { dateStyle: 'medium' })}.</p>
            {plan && <p className="muted">{plan.requestsPerMinute.toLocaleString('en-US')} API requests per minute.</p>}
            <a href="/pricing" className="btn btn-sm">Compare plans</a>
          </section>
          <section className="card" aria-labelledby="u-usage">
            <h2 id="u-usage" className="small-title">This billing period</h2>
            <Bar label="Posts" used={u.usage.uploads} limit={u.limits.uploads} />
            <Bar label="Profiles" used={u.usage.profiles} limit={u.limits.profiles} />
            {!u.canUpload && <p className="alert alert-warn">Post limit reached: new posts are refused until the period resets.</p>}
            {!u.canCreateProfile && <p className="alert alert-warn">Profile limit reached.</p>}
            <p className="hint">Drafts do not count. <a href="/docs#usage-tracking">How usage is counted</a>.</p>
          </section>
        </div>
      )}
    </>
  );
}
