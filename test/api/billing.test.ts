/**
 * Stripe billing (decision 0036): Checkout and the customer portal against a local fake of Stripe's
 * API (nothing reaches the network), and `POST /webhooks/stripe` with events signed by the
 * stripe package's own test-header helper: bad signatures change nothing, each event applies
 * once, events apply in any order, and a paid renewal restarts the usage period.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';

const WEBHOOK_SECRET = 'whsec_test_secret';
const PRICES = 'price_basic_m=basic:monthly,price_pro_y=professional:yearly,price_pro_m=professional:monthly,price_analytics=addon:analytics';
const stripe = new Stripe('sk_test_local', { telemetry: false });

let ctx: TestContext;
let fake: http.Server;
const calls: Array<{ method: string; path: string; body: URLSearchParams }> = [];
let owner: Tenant;
let eventSeq = 0;

beforeAll(async () => {
  // A tiny stand-in for api.stripe.com: the two calls Herald makes, answered the way Stripe answers them.
  fake = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => { raw += c; });
    req.on('end', () => {
      calls.push({ method: req.method!, path: req.url!, body: new URLSearchParams(raw) });
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/checkout/sessions') res.end(JSON.stringify({ id: 'cs_test_1', object: 'checkout.session', url: 'https://checkout.stripe.test/c/pay/cs_test_1' }));
      else if (req.url === '/v1/billing_portal/sessions') res.end(JSON.stringify({ id: 'bps_1', object: 'billing_portal.session', url: 'https://billing.stripe.test/p/session/bps_1' }));
      else { res.statusCode = 404; res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } })); }
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  ctx = await createTestApp({
    env: {
      HERALD_STRIPE_SECRET_KEY: 'sk_test_local', HERALD_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, HERALD_STRIPE_PRICES: PRICES,
      HERALD_STRIPE_API_URL: `http://127.0.0.1:${(fake.address() as AddressInfo).port}`,
    },
  });
  owner = await createTenant(ctx, { plan: 'free' });
});
afterAll(async () => {
  await ctx?.close();
  await new Promise((r) => fake?.close(r));
});

function subscription(tenantId: string, opts: { id?: string; status?: string; prices: string[]; customer?: string }) {
  return {
    id: opts.id ?? 'sub_1', object: 'subscription', status: opts.status ?? 'active', customer: opts.customer ?? `cus_${tenantId.slice(-6)}`,
    metadata: { tenantId }, items: { object: 'list', data: opts.prices.map((p, i) => ({ id: `si_${i}`, object: 'subscription_item', price: { id: p, object: 'price' } })) },
  };
}

function event(type: string, object: unknown, created: number, id = `evt_${++eventSeq}_${Date.now()}`) {
  return { id, object: 'event', type, created, api_version: '2026-10-28.endive', data: { object } };
}

async function deliver(ev: unknown, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(ev);
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret });
  return ctx.app.inject({ method: 'POST', url: '/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload });
}

const plan = async (tenantId: string) => ctx.services.users.owner(tenantId);

describe('Checkout and the customer portal', () => {
  it('GET /v1/billing tells what Stripe sells on this server', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/billing', headers: owner.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ configured: true, plan: 'free', hasSubscription: false, hasBillingAccount: false, addonsForSale: ['analytics'] });
    expect(res.json().plans).toContainEqual({ plan: 'professional', billingPeriod: 'yearly' });
  });

  it('starts Checkout with the plan and add-on prices, the owner\'s email and the tenant in the metadata', async () => {
    calls.length = 0;
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/billing/checkout', headers: owner.headers, payload: { plan: 'professional', billingPeriod: 'yearly', addons: ['analytics'] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ url: 'https://checkout.stripe.test/c/pay/cs_test_1' });
    expect(calls).toHaveLength(1);
    const b = calls[0].body;
    expect(b.get('mode')).toBe('subscription');
    expect(b.get('line_items[0][price]')).toBe('price_pro_y');
    expect(b.get('line_items[1][price]')).toBe('price_analytics');
    expect(b.get('client_reference_id')).toBe(owner.userId);
    expect(b.get('subscription_data[metadata][tenantId]')).toBe(owner.userId);
    expect(b.get('customer_email')).toMatch(/@example\.test$/);
    expect(b.get('success_url')).toBe(`${ctx.services.publicUrl}/dashboard/billing?checkout=success`);
  });

  it('refuses a plan without a price (400 naming the field), an unknown plan, and team members', async () => {
    const noPrice = await ctx.app.inject({ method: 'POST', url: '/v1/billing/checkout', headers: owner.headers, payload: { plan: 'basic', billingPeriod: 'yearly' } });
    expect(noPrice.statusCode).toBe(400);
    expect(noPrice.json().details.fields.plan[0]).toMatch(/no Stripe price for yearly/);
    const free = await ctx.app.inject({ method: 'POST', url: '/v1/billing/checkout', headers: owner.headers, payload: { plan: 'free', billingPeriod: 'monthly' } });
    expect(free.statusCode).toBe(400);
    const tok = (await ctx.app.inject({ method: 'POST', url: '/v1/invite/tokens', headers: owner.headers, payload: { scope: 'all' } })).json().token;
    const signup = await ctx.app.inject({ method: 'POST', url: '/auth/signup', headers: { origin: 'http://localhost:80', host: 'localhost:80' }, payload: { inviteToken: tok, name: 'M', email: `m${Date.now()}@example.test`, password: 'member password' } });
    const cookie = String(signup.headers['set-cookie']).split(';')[0];
    const member = { cookie, 'x-csrf-token': signup.json().csrfToken, origin: 'http://localhost:80', host: 'localhost:80' };
    for (const r of [
      await ctx.app.inject({ method: 'GET', url: '/v1/billing', headers: { cookie } }),
      await ctx.app.inject({ method: 'POST', url: '/v1/billing/checkout', headers: member, payload: { plan: 'basic', billingPeriod: 'monthly' } }),
      await ctx.app.inject({ method: 'POST', url: '/v1/billing/portal', headers: member }),
    ]) expect(r.statusCode).toBe(403);
  });

  it('opens the customer portal once the tenant has a Stripe customer', async () => {
    const t = await createTenant(ctx, { plan: 'free' });
    const before = await ctx.app.inject({ method: 'POST', url: '/v1/billing/portal', headers: t.headers });
    expect(before.statusCode).toBe(409);
    await deliver(event('customer.subscription.created', subscription(t.userId, { id: 'sub_portal', prices: ['price_basic_m'], customer: 'cus_portal' }), 1_000));
    calls.length = 0;
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/billing/portal', headers: t.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().url).toBe('https://billing.stripe.test/p/session/bps_1');
    expect(calls[0].body.get('customer')).toBe('cus_portal');
    // Subscribed: a second Checkout would make a second subscription.
    expect((await ctx.app.inject({ method: 'POST', url: '/v1/billing/checkout', headers: t.headers, payload: { plan: 'professional', billingPeriod: 'monthly' } })).statusCode).toBe(409);
  });
});

describe('POST /webhooks/stripe', () => {
  it('refuses a bad or missing signature with 400 and changes nothing', async () => {
    const t = await createTenant(ctx, { plan: 'free' });
    const ev = event('customer.subscription.created', subscription(t.userId, { prices: ['price_pro_m'] }), 2_000);
    const forged = await deliver(ev, 'whsec_someone_else');
    expect(forged.statusCode).toBe(400);
    expect(forged.json().details.fields['stripe-signature']).toBeDefined();
    const unsigned = await ctx.app.inject({ method: 'POST', url: '/webhooks/stripe', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(ev) });
    expect(unsigned.statusCode).toBe(400);
    expect((await plan(t.userId))!.plan).toBe('free');
    const { rows } = await ctx.db.query('SELECT 1 FROM stripe_events WHERE id = $1', [ev.id]);
    expect(rows).toHaveLength(0);
  });

  it('applies a new subscription (plan, period, add-ons) exactly once per event id', async () => {
    const t = await createTenant(ctx, { plan: 'free' });
    const ev = event('customer.subscription.created', subscription(t.userId, { prices: ['price_basic_m', 'price_analytics'] }), 3_000);
    const res = await deliver(ev);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, outcome: 'applied' });
    expect(await plan(t.userId)).toMatchObject({ plan: 'basic', billingPeriod: 'monthly', addons: ['analytics'] });
    // Changed by hand meanwhile; the redelivered event must not apply again.
    await ctx.services.users.setPlan(t.userId, { plan: 'enterprise' });
    const again = await deliver(ev);
    expect(again.json().outcome).toBe('duplicate');
    expect((await plan(t.userId))!.plan).toBe('enterprise');
  });

  it('applies events in any order: an older snapshot is skipped, a deletion ends the plan and add-ons', async () => {
    const t = await createTenant(ctx, { plan: 'free' });
    const created = event('customer.subscription.created', subscription(t.userId, { prices: ['price_basic_m'] }), 10_000);
    const upgraded = event('customer.subscription.updated', subscription(t.userId, { prices: ['price_pro_y', 'price_analytics'] }), 10_100);
    const deleted = event('customer.subscription.deleted', subscription(t.userId, { status: 'canceled', prices: ['price_pro_y', 'price_analytics'] }), 10_200);

    expect((await deliver(upgraded)).json().outcome).toBe('applied');
    expect(await plan(t.userId)).toMatchObject({ plan: 'professional', billingPeriod: 'yearly', addons: ['analytics'] });
    expect((await deliver(created)).json().outcome).toBe('stale');
    expect((await plan(t.userId))!.plan).toBe('professional');

    expect((await deliver(deleted)).json().outcome).toBe('applied');
    expect(await plan(t.userId)).toMatchObject({ plan: 'free', addons: [] });
    // A late update from before the deletion does not bring the plan back.
    const lateUpdate = event('customer.subscription.updated', subscription(t.userId, { prices: ['price_pro_m'] }), 10_150);
    expect((await deliver(lateUpdate)).json().outcome).toBe('stale');
    expect((await plan(t.userId))!.plan).toBe('free');
    // An event for another tenant's id or an unknown customer is recorded and ignored.
    const stray = event('customer.subscription.created', { ...subscription('f'.repeat(24), { prices: ['price_basic_m'], customer: 'cus_nobody' }) }, 10_300);
    expect((await deliver(stray)).json().outcome).toBe('ignored');
    // Without Herald's tenant id in the metadata (a subscription made in Stripe's dashboard), the customer decides.
    const byCustomer = event('customer.subscription.created', subscription('e'.repeat(24), { id: 'sub_2', prices: ['price_basic_m'], customer: `cus_${t.userId.slice(-6)}` }), 10_400);
    expect((await deliver(byCustomer)).json().outcome).toBe('applied');
    expect((await plan(t.userId))!.plan).toBe('basic');
  });

  it('a paid renewal restarts the usage period at the period paid for (never backwards)', async () => {
    const t = await createTenant(ctx, { plan: 'free' });
    // Signed up 40 days ago; subscribed an hour ago.
    await ctx.db.query("UPDATE users SET billing_anchor = now() - interval '40 days' WHERE id = $1", [t.userId]);
    await deliver(event('customer.subscription.created', subscription(t.userId, { id: 'sub_renew', prices: ['price_basic_m'], customer: 'cus_renew' }), 20_000));
    const periodStart = Math.floor(Date.now() / 1000) - 3600;
    const invoice = (start: number, reason: string) => ({
      id: `in_${start}`, object: 'invoice', customer: 'cus_renew', billing_reason: reason,
      parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_renew', metadata: { tenantId: t.userId } } },
      lines: { object: 'list', data: [{ id: 'il_1', object: 'line_item', period: { start, end: start + 30 * 86_400 } }] },
    });
    expect((await deliver(event('invoice.paid', invoice(periodStart, 'subscription_cycle'), 20_100))).json().outcome).toBe('applied');
    const { rows } = await ctx.db.query<{ billing_anchor: Date }>('SELECT billing_anchor FROM users WHERE id = $1', [t.userId]);
    expect(rows[0].billing_anchor.getTime()).toBe(periodStart * 1000);
    // usage-stats reads the new period (a fresh key: the old one's row may be cached for a second).
    const key = await ctx.services.apiKeys.create({ tenantId: t.userId, userId: t.userId }, { name: 'fresh' });
    const usage = await ctx.app.inject({ method: 'GET', url: '/v1/usage-stats', headers: { authorization: `Bearer ${key.key}` } });
    expect(usage.json()).toMatchObject({ planName: 'Basic', usage: { lastReset: new Date(periodStart * 1000).toISOString() } });

    expect((await deliver(event('invoice.paid', invoice(periodStart - 30 * 86_400, 'subscription_cycle'), 20_200))).json().outcome).toBe('stale');
    expect((await deliver(event('invoice.paid', invoice(periodStart + 60, 'manual'), 20_300))).json().outcome).toBe('ignored');
    const { rows: after } = await ctx.db.query<{ billing_anchor: Date }>('SELECT billing_anchor FROM users WHERE id = $1', [t.userId]);
    expect(after[0].billing_anchor.getTime()).toBe(periodStart * 1000);
  });
});

describe('without Stripe configured', () => {
  it('billing routes answer 404 and GET /v1/billing says configured: false', async () => {
    const plain = await createTestApp();
    try {
      const t = await createTenant(plain);
      expect((await plain.app.inject({ method: 'GET', url: '/v1/billing', headers: t.headers })).json()).toMatchObject({ configured: false, plans: [] });
      expect((await plain.app.inject({ method: 'POST', url: '/v1/billing/checkout', headers: t.headers, payload: { plan: 'basic', billingPeriod: 'monthly' } })).statusCode).toBe(404);
      expect((await plain.app.inject({ method: 'POST', url: '/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' }, payload: '{}' })).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
