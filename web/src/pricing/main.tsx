import { useState } from 'react';
import { mount } from '../shared/mount.tsx';
import { SiteFooter, SiteHeader, SkipLink } from '../shared/Header.tsx';
import { ANNUAL_DISCOUNT, PLANS, PLAN_IDS } from '../../../src/shared/plans.ts';
import { getStartedHref, readConfig } from '../shared/config.ts';
import './pricing.css';
import { PLATFORM_COUNT_WORD } from '../lib/platforms.ts';

const fmt = (n: number) => (n === -1 ? 'Unlimited' : n.toLocaleString('en-US'));
const money = (n: number) => `$${Number.isInteger(n) ? n : n.toFixed(2)}`;

/** The plans, read from the same table the API enforces (src/shared/plans.ts). */
function Pricing() {
  const [annual, setAnnual] = useState(false);
  const config = readConfig();
  // With Stripe configured, a paid plan's button starts its checkout from the dashboard's Billing page (after sign-in).
  const href = (id: string) => (config.billing && id !== 'free' ? `/dashboard/billing?plan=${id}&period=${annual ? 'yearly' : 'monthly'}` : getStartedHref(config));
  const saves = Math.round(ANNUAL_DISCOUNT * 100);
  return (
    <>
      <SkipLink />
      <SiteHeader current="/pricing" />
      <main id="main" className="pricing">
        <h1>Pricing</h1>
        <p className="lead-sm">Every plan has the full API and dashboard. Limits are enforced by the API and reset each billing period.</p>
        <div className="billing-toggle" role="radiogroup" aria-label="Billing period">
          <button type="button" role="radio" aria-checked={!annual} className={!annual ? 'on' : ''} onClick={() => setAnnual(false)}>Monthly</button>
          <button type="button" role="radio" aria-checked={annual} className={annual ? 'on' : ''} onClick={() => setAnnual(true)}>
            Annual <span className="save">save {saves}%</span>
          </button>
        </div>
        <div className="plans">
          {PLAN_IDS.map((id) => {
            const p = PLANS[id];
            const perMonth = annual ? Math.round(p.monthlyPriceUsd * (1 - ANNUAL_DISCOUNT) * 100) / 100 : p.monthlyPriceUsd;
            return (
              <section key={id} className={`card plan${p.mostPopular ? ' popular' : ''}`} aria-labelledby={`plan-${id}`}>
                {p.mostPopular && <span className="badge popular-badge">Most popular</span>}
                <h2 id={`plan-${id}`}>{p.marketingName}</h2>
                <p className="plan-id">API plan <code>{p.id}</code> ({p.name})</p>
                <p className="price" data-testid={`price-${id}`}>
                  <span className="amount">{money(perMonth)}</span><span className="per">/month</span>
                </p>
                <p className="billed">
                  {p.monthlyPriceUsd === 0 ? 'Free forever' : annual ? `${money(Math.round(perMonth * 12 * 100) / 100)} billed yearly` : 'Billed monthly'}
                </p>
                <ul>
                  <li><strong>{fmt(p.uploads)}</strong> posts per {annual ? 'billing month' : 'month'}</li>
                  <li><strong>{fmt(p.profiles)}</strong> profiles</li>
                  <li><strong>{p.requestsPerMinute.toLocaleString('en-US')}</strong> API requests per minute</li>
                  <li>All {PLATFORM_COUNT_WORD} platforms, queue, media uploads</li>
                </ul>
                <a className={`btn ${p.mostPopular ? 'btn-primary' : ''}`} href={href(id)}>Get started</a>
              </section>
            );
          })}
        </div>
        <p className="muted small">Drafts do not count toward posts. A limit of “Unlimited” is -1 in the API (<a href="/docs#plan-tiers">plan tiers</a>, <a href="/docs#usage-tracking">usage tracking</a>).</p>
      </main>
      <SiteFooter />
    </>
  );
}

mount(<Pricing />);
