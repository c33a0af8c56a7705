/**
 * Billing with Stripe (the official `stripe` package): Checkout for a paid plan and add-ons,
 * the customer portal, and the webhook that applies subscription changes and paid invoices
 * (docs/decisions/0036-teams-plans-billing.md).
 *
 * - Prices: HERALD_STRIPE_PRICES maps each Stripe price id to a plan with its billing period or
 *   to an add-on. A subscription's items decide the plan (the highest plan among them), the
 *   billing period and the add-ons.
 * - Webhooks (https://docs.stripe.com/webhooks): the signature is verified with the endpoint's
 *   secret (`stripe.webhooks.constructEvent`); each event id is stored in the transaction that
 *   applies it, so a redelivered event changes nothing. Events may arrive in any order: a
 *   subscription snapshot older than the last one applied (`event.created`) is skipped, and at
 *   the same second an ending beats a start. A deletion ends only the subscription it names.
 * - Usage (decisions 0003 and 0036): paid users' usage resets on the billing anniversary: an `invoice.paid` for a
 *   subscription's first invoice or a renewal moves the tenant's billing anchor to the start of
 *   the period paid for (never backwards).
 *
 * Without Stripe configured the service answers `configured: false` and the routes 404.
 */
import Stripe from 'stripe';
import type { StripeConfig, StripePriceTarget } from '../../config.ts';
import { AppError, fieldError, validationError } from '../../core/errors.ts';
import type { BillingPeriod } from '../../core/time.ts';
import { PLAN_IDS, type AddonId, type PlanId } from '../../shared/plans.ts';
import type { Db } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { assertRoot, type UsersService } from '../users/service.ts';
import { recordEvent } from './repository.ts';

/** Subscription statuses that grant the plan (https://docs.stripe.com/billing/subscriptions/overview#subscription-statuses). */
const GRANTING = new Set(['active', 'trialing', 'past_due']);
/** Statuses that end it; `incomplete` (first payment pending) changes nothing. */
const ENDING = new Set(['canceled', 'unpaid', 'incomplete_expired', 'paused']);
/** Invoices that start a billing period: usage restarts when they are paid. */
const PERIOD_STARTS = new Set(['subscription_create', 'subscription_cycle']);

/** What a webhook delivery did, for the response and tests. */
export type WebhookOutcome = 'applied' | 'duplicate' | 'stale' | 'ignored';

const notConfigured = () => new AppError('NOT_FOUND', 'Billing is not configured on this server; plans are managed with the herald CLI');

/** The Stripe client for the configuration: the API base URL overridable (tests run a local fake). */
export function stripeClient(config: StripeConfig): Stripe {
  const opts: ConstructorParameters<typeof Stripe>[1] = { maxNetworkRetries: 1, telemetry: false, timeout: 20_000 };
  if (config.apiUrl) {
    const u = new URL(config.apiUrl);
    Object.assign(opts, { host: u.hostname, port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)), protocol: u.protocol.replace(':', '') as 'http' | 'https' });
  }
  return new Stripe(config.secretKey, opts);
}

export function createBillingService(deps: { db: Db; config: StripeConfig | null; users: UsersService; publicUrl: string; clock: () => Date }) {
  const { db, config, users } = deps;
  let client: Stripe | null = null;
  const stripe = () => (client ??= stripeClient(config!));

  const priceOf = (pred: (t: StripePriceTarget) => boolean) => Object.entries(config?.prices ?? {}).find(([, t]) => pred(t))?.[0];

  /** Plan, period and add-ons bought by a subscription's items (unknown prices are ignored). */
  function bought(sub: Stripe.Subscription): { plan: PlanId | null; billingPeriod: BillingPeriod | null; addons: AddonId[] } {
    let plan: PlanId | null = null;
    let billingPeriod: BillingPeriod | null = null;
    const addons = new Set<AddonId>();
    for (const item of sub.items?.data ?? []) {
      const t = config!.prices[item.price?.id ?? ''];
      if (!t) continue;
      if (t.kind === 'addon') addons.add(t.addon);
      else if (!plan || PLAN_IDS.indexOf(t.plan) > PLAN_IDS.indexOf(plan)) { plan = t.plan; billingPeriod = t.billingPeriod; }
    }
    return { plan, billingPeriod, addons: [...addons] };
  }

  const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : v?.id ?? null);

  async function applySubscription(event: Stripe.Event, sub: Stripe.Subscription): Promise<WebhookOutcome> {
    return db.tx(async (q) => {
      const created = new Date(event.created * 1000);
      const tenant = await users.lockStripeTenant(q, { tenantId: sub.metadata?.tenantId, customerId: idOf(sub.customer) });
      if (!(await recordEvent(q, { id: event.id, type: event.type, tenantId: tenant?.tenantId ?? null, createdAt: created }))) return 'duplicate';
      if (!tenant) return 'ignored';
      const ending = event.type === 'customer.subscription.deleted' || ENDING.has(sub.status);
      const granting = !ending && GRANTING.has(sub.status);
      if (!ending && !granting) return 'ignored';
      // A later subscription replaced this one: its ending or old snapshot changes nothing.
      if (tenant.subscriptionId && tenant.subscriptionId !== sub.id && ending) return 'ignored';
      const synced = tenant.syncedAt?.getTime() ?? -Infinity;
      if (created.getTime() < synced || (created.getTime() === synced && granting)) return 'stale';
      if (ending) {
        await users.setPlan(tenant.tenantId, { plan: 'free', addons: [] }, q);
        await users.setStripeState(q, tenant.tenantId, { customerId: idOf(sub.customer), subscriptionId: null, syncedAt: created });
      } else {
        const b = bought(sub);
        await users.setPlan(tenant.tenantId, { plan: b.plan ?? undefined, billingPeriod: b.billingPeriod ?? undefined, addons: b.addons }, q);
        await users.setStripeState(q, tenant.tenantId, { customerId: idOf(sub.customer), subscriptionId: sub.id, syncedAt: created });
      }
      return 'applied';
    });
  }

  async function applyInvoicePaid(event: Stripe.Event, invoice: Stripe.Invoice): Promise<WebhookOutcome> {
    return db.tx(async (q) => {
      const created = new Date(event.created * 1000);
      const tenantId = invoice.parent?.subscription_details?.metadata?.tenantId ?? null;
      const tenant = await users.lockStripeTenant(q, { tenantId, customerId: idOf(invoice.customer) });
      if (!(await recordEvent(q, { id: event.id, type: event.type, tenantId: tenant?.tenantId ?? null, createdAt: created }))) return 'duplicate';
      if (!tenant || !PERIOD_STARTS.has(invoice.billing_reason ?? '')) return 'ignored';
      const starts = (invoice.lines?.data ?? []).map((l) => l.period?.start).filter((s): s is number => typeof s === 'number');
      if (starts.length === 0) return 'ignored';
      const periodStart = new Date(Math.max(...starts) * 1000);
      if (periodStart.getTime() <= tenant.billingAnchor.getTime()) return 'stale';
      await users.setPlan(tenant.tenantId, { billingAnchor: periodStart }, q);
      if (!tenant.customerId) await users.setStripeState(q, tenant.tenantId, { customerId: idOf(invoice.customer) });
      return 'applied';
    });
  }

  return {
    configured: config !== null,

    /** `GET /v1/billing`: the plan and what can be bought. Root user only. */
    async status(auth: AuthContext) {
      assertRoot(auth, 'see billing');
      const owner = await users.owner(auth.tenantId);
      const account = config ? await users.stripeAccount(auth.tenantId) : null;
      const purchasable = Object.values(config?.prices ?? {});
      return {
        configured: config !== null,
        plan: owner?.plan ?? auth.plan,
        billingPeriod: owner?.billingPeriod ?? auth.billingPeriod,
        addons: owner?.addons ?? [],
        hasSubscription: !!account?.subscriptionId,
        hasBillingAccount: !!account?.customerId,
        plans: purchasable.flatMap((t) => (t.kind === 'plan' ? [{ plan: t.plan, billingPeriod: t.billingPeriod }] : [])),
        addonsForSale: purchasable.flatMap((t) => (t.kind === 'addon' ? [t.addon] : [])),
      };
    },

    /**
     * Starts Stripe Checkout for a plan (and add-ons): answers the Checkout page URL.
     * @throws AppError NOT_FOUND (billing not configured), FORBIDDEN (members), VALIDATION_ERROR
     *   (no price for the plan/period/add-on), CONFLICT (already subscribed: use the portal).
     */
    async checkout(auth: AuthContext, input: { plan: PlanId; billingPeriod: BillingPeriod; addons?: AddonId[] }): Promise<{ url: string }> {
      if (!config) throw notConfigured();
      assertRoot(auth, 'change the plan');
      const planPrice = priceOf((t) => t.kind === 'plan' && t.plan === input.plan && t.billingPeriod === input.billingPeriod);
      const fields: Record<string, string[]> = {};
      if (!planPrice) fields.plan = [`has no Stripe price for ${input.billingPeriod} billing on this server`];
      const addonPrices = (input.addons ?? []).map((a) => {
        const p = priceOf((t) => t.kind === 'addon' && t.addon === a);
        if (!p) (fields.addons ??= []).push(`"${a}" has no Stripe price on this server`);
        return p;
      });
      if (Object.keys(fields).length) throw validationError(fields);
      const account = (await users.stripeAccount(auth.tenantId))!;
      if (account.subscriptionId) throw new AppError('CONFLICT', 'You already have a subscription; change or cancel it in the customer portal', { reason: 'already_subscribed' });
      const session = await stripe().checkout.sessions.create({
        mode: 'subscription',
        line_items: [planPrice!, ...addonPrices.map((p) => p!)].map((price) => ({ price, quantity: 1 })),
        client_reference_id: auth.tenantId,
        ...(account.customerId ? { customer: account.customerId } : { customer_email: account.email }),
        subscription_data: { metadata: { tenantId: auth.tenantId } },
        success_url: `${deps.publicUrl}/dashboard/billing?checkout=success`,
        cancel_url: `${deps.publicUrl}/dashboard/billing?checkout=cancelled`,
      });
      if (!session.url) throw new AppError('PLATFORM_ERROR', 'Stripe did not return a Checkout URL');
      return { url: session.url };
    },

    /**
     * Opens Stripe's customer portal (change plan, payment method, invoices, cancel): its URL.
     * @throws AppError NOT_FOUND (billing not configured), FORBIDDEN (members), CONFLICT (no Stripe customer yet).
     */
    async portal(auth: AuthContext): Promise<{ url: string }> {
      if (!config) throw notConfigured();
      assertRoot(auth, 'manage billing');
      const account = (await users.stripeAccount(auth.tenantId))!;
      if (!account.customerId) throw new AppError('CONFLICT', 'There is no billing account yet: choose a paid plan first', { reason: 'no_customer' });
      const session = await stripe().billingPortal.sessions.create({ customer: account.customerId, return_url: `${deps.publicUrl}/dashboard/billing` });
      return { url: session.url };
    },

    /**
     * `POST /webhooks/stripe`: verifies the signature over the raw body and applies the event once.
     * @throws AppError NOT_FOUND (billing not configured), VALIDATION_ERROR (missing or bad signature: nothing changes).
     */
    async webhook(rawBody: string, signature: string | undefined): Promise<{ received: true; outcome: WebhookOutcome }> {
      if (!config) throw notConfigured();
      if (!signature) throw fieldError('stripe-signature', 'header is required');
      let event: Stripe.Event;
      try {
        event = stripe().webhooks.constructEvent(rawBody, signature, config.webhookSecret);
      } catch {
        throw fieldError('stripe-signature', 'does not match the payload and the webhook secret');
      }
      let outcome: WebhookOutcome = 'ignored';
      switch (event.type) {
        case 'customer.subscription.created':
        case 'customer.subscription.updated':
        case 'customer.subscription.deleted':
          outcome = await applySubscription(event, event.data.object);
          break;
        case 'invoice.paid':
          outcome = await applyInvoicePaid(event, event.data.object);
          break;
        default:
          break;
      }
      return { received: true, outcome };
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
