import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api.ts';
import { ErrorBox, Loading, PageTitle } from '../components.tsx';
import { PLANS, PLAN_IDS } from '../../../../src/shared/plans.ts';
import { browserTimeZone, formatInZone, timeFormat } from '../time.ts';

/** One counter against its limit: a bar for a limit, plain words for an unlimited one (no bar to fill). */
function Bar({ label, used, limit, note }: { label: string; used: number; limit: number; note?: string }) {
  const unlimited = limit === -1;
  const pct = unlimited ? 0 : Math.min(100, Math.round((used / Math.max(1, limit)) * 100));
  return (
    <div className="usage-bar">
      <div className="usage-label"><strong>{label}</strong><span>{unlimited ? `${used.toLocaleString()} used · unlimited` : `${used.toLocaleString()} / ${limit.toLocaleString()}`}</span></div>
      {!unlimited && (
        <div className="bar" role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={limit} aria-valuenow={used} aria-valuetext={`${used} of ${limit} used`}>
          <div className={`bar-fill${pct >= 100 ? ' full' : pct >= 80 ? ' high' : ''}`} style={{ width: `${pct}%` }} />
        </div>
      )}
      {note && <p className="hint usage-note">{note}</p>}
    </div>
  );
}

/**
 * When the usage counters next reset: the billing anchor plus whole months (or years), the
 * first such instant after now; a day past the month's end is clamped (Jan 31 -> Feb 28), as
 * the server counts the period.
 */
export function nextReset(anchorIso: string, period: 'monthly' | 'yearly', now = new Date()): Date {
  const a = new Date(anchorIso);
  const step = (k: number) => {
    const months = period === 'monthly' ? k : 12 * k;
    const y = a.getUTCFullYear() + Math.floor((a.getUTCMonth() + months) / 12);
    const m = (a.getUTCMonth() + months) % 12;
    const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
    return new Date(Date.UTC(y, m, Math.min(a.getUTCDate(), last), a.getUTCHours(), a.getUTCMinutes(), a.getUTCSeconds(), a.getUTCMilliseconds()));
  };
  let k = 1;
  while (step(k) <= now && k < 100_000) k++;
  return step(k);
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
            <p className="plan-name">{plan && plan.marketingName !== u.planName ? `${plan.marketingName} (${u.planName})` : u.planName}</p>
            <p className="muted">Billed {u.billingPeriod}. This period started {formatInZone(u.usage.lastReset, tz, { dateStyle: 'medium' })}.</p>
            {plan && <p className="muted">{plan.requestsPerMinute.toLocaleString('en-US')} API requests per minute.</p>}
            <a href="/pricing" className="btn btn-sm">Compare plans</a>
          </section>
          <section className="card" aria-labelledby="u-usage">
            <h2 id="u-usage" className="small-title">This billing period</h2>
            <Bar label="Posts" used={u.usage.uploads} limit={u.limits.uploads} note={`Resets ${timeFormat.dateTime(nextReset(u.signupDate, u.billingPeriod), tz)}.`} />
            <Bar label="Profiles" used={u.usage.profiles} limit={u.limits.profiles} note="Profiles you hold; this count does not reset." />
            {!u.canUpload && <p className="alert alert-warn">Post limit reached: new posts are refused until the period resets.</p>}
            {!u.canCreateProfile && <p className="alert alert-warn">Profile limit reached.</p>}
            <p className="hint">Drafts do not count. <a href="/docs#usage-tracking">How usage is counted</a>.</p>
          </section>
        </div>
      )}
    </>
  );
}
