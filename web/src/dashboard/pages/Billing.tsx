/**
 * The Billing page (account owner): the plan and add-ons, and with Stripe configured on the
 * server, Checkout for a paid plan and the customer portal. Without Stripe the buttons are
 * not shown: the server's administrator sets plans with `herald user plan`. The pricing
 * page's "Get started" arrives here with `?plan=&period=` preselected.
 */
import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap, type Paths } from '../api.ts';
import { ErrorBox, Loading, PageTitle } from '../components.tsx';
import { ADDONS, PLANS, isAddonId, isPlanId, type AddonId, type PlanId } from '../../../../src/shared/plans.ts';
import './team.css';

type CheckoutBody = NonNullable<Paths['/v1/billing/checkout']['post']['requestBody']>['content']['application/json'];

const planName = (id: string) => (isPlanId(id) ? (PLANS[id].marketingName === PLANS[id].name ? PLANS[id].name : `${PLANS[id].marketingName} (${PLANS[id].name})`) : id);

export default function BillingPage() {
  const status = useQuery({ queryKey: ['billing'], queryFn: () => unwrap(api.GET('/v1/billing')) });
  const q = new URLSearchParams(window.location.search);
  const [choice, setChoice] = useState<string>(() => (q.get('plan') && q.get('period') ? `${q.get('plan')}:${q.get('period')}` : ''));
  const [addons, setAddons] = useState<AddonId[]>([]);
  const go = (r: { url: string }) => window.location.assign(r.url);
  const checkout = useMutation({
    mutationFn: () => {
      const [plan, billingPeriod] = choice.split(':');
      // The choice is one of the server's own `plans` entries; the server checks it again.
      return unwrap(api.POST('/v1/billing/checkout', { body: { plan, billingPeriod, addons } as CheckoutBody }));
    },
    onSuccess: go,
  });
  const portal = useMutation({ mutationFn: () => unwrap(api.POST('/v1/billing/portal')), onSuccess: go });
  const s = status.data;
  const outcome = q.get('checkout');

  return (
    <>
      <PageTitle title="Billing" />
      {outcome === 'success' && <p className="alert alert-ok" role="status">Thank you: your payment went through. The new plan applies as soon as Stripe confirms it (usually within seconds).</p>}
      {outcome === 'cancelled' && <p className="alert alert-info" role="status">Checkout was cancelled; nothing changed.</p>}
      <ErrorBox error={status.error} />
      {status.isLoading && <Loading />}
      {s && (
        <>
          <section className="card" aria-labelledby="b-plan">
            <h2 id="b-plan" className="small-title">Your plan</h2>
            <p className="plan-name" data-testid="billing-plan">{planName(s.plan)}</p>
            <p className="muted">Billed {s.billingPeriod}. Add-ons: {s.addons.length ? s.addons.map((a) => (isAddonId(a) ? ADDONS[a].name : a)).join(', ') : 'none'}.</p>
            {s.configured && s.hasBillingAccount && (
              <button type="button" className="btn" onClick={() => portal.mutate()} disabled={portal.isPending}>Manage billing</button>
            )}
            <ErrorBox error={portal.error} title="Could not open the billing portal" />
            {!s.configured && (
              <p className="hint">Online payment is not set up on this server. The administrator changes plans with <code>herald user plan --email … --plan …</code>.</p>
            )}
          </section>
          {s.configured && !s.hasSubscription && s.plans.length > 0 && (
            <form className="card" onSubmit={(e) => { e.preventDefault(); checkout.mutate(); }} aria-labelledby="b-upgrade">
              <h2 id="b-upgrade" className="small-title">Upgrade</h2>
              <fieldset className="scope-picker">
                <legend>Plan</legend>
                {s.plans.map((p) => (
                  <label key={`${p.plan}:${p.billingPeriod}`} className="check">
                    <input type="radio" name="b-plan" checked={choice === `${p.plan}:${p.billingPeriod}`} onChange={() => setChoice(`${p.plan}:${p.billingPeriod}`)} />
                    {planName(p.plan)}, billed {p.billingPeriod}{isPlanId(p.plan) ? ` (${PLANS[p.plan as PlanId].profiles === -1 ? 'unlimited' : PLANS[p.plan as PlanId].profiles} profiles)` : ''}
                  </label>
                ))}
              </fieldset>
              {s.addonsForSale.length > 0 && (
                <fieldset className="scope-picker">
                  <legend>Add-ons</legend>
                  {s.addonsForSale.filter(isAddonId).map((a) => (
                    <label key={a} className="check">
                      <input type="checkbox" checked={addons.includes(a)} onChange={() => setAddons((x) => (x.includes(a) ? x.filter((y) => y !== a) : [...x, a]))} />
                      {ADDONS[a].name}: {ADDONS[a].description}
                    </label>
                  ))}
                </fieldset>
              )}
              <ErrorBox error={checkout.error} title="Could not start checkout" />
              <button type="submit" className="btn btn-primary" disabled={!choice || checkout.isPending}>{checkout.isPending ? 'Opening Stripe…' : 'Continue to payment'}</button>
              <p className="hint">Payment is handled by Stripe. Your usage restarts on each paid billing date.</p>
            </form>
          )}
        </>
      )}
    </>
  );
}
