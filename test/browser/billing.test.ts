/**
 * Open sign-up and billing in a real Chromium, with HERALD_SIGNUP=open and Stripe configured
 * against a local fake of Stripe's API: the landing page's "Get started" leads to the sign-up
 * page and a new Free account; the pricing page's "Get started" leads to the dashboard's
 * Billing page with the plan chosen, and "Continue to payment" opens the Checkout page Stripe
 * answered (here the fake's). Screenshots at 1280 and 390 px.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/billing.test.ts');
let d: DashboardHarness;
let fake: http.Server;
let fakeBase: string;
const bodies: URLSearchParams[] = [];

beforeAll(async () => {
  if (!hasChromium) return;
  fake = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => { raw += c; });
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
        bodies.push(new URLSearchParams(raw));
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ id: 'cs_test_b', object: 'checkout.session', url: `${fakeBase}/c/pay/cs_test_b` }));
      } else {
        res.setHeader('content-type', 'text/html');
        res.end('<!doctype html><title>Checkout</title><h1>Fake Stripe Checkout</h1>');
      }
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  fakeBase = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  d = await startDashboard({
    user: { email: 'payer@agency.test', password: 'payer has a long password', name: 'Paula Payer', plan: 'free' },
    env: {
      HERALD_SIGNUP: 'open',
      HERALD_STRIPE_SECRET_KEY: 'sk_test_local', HERALD_STRIPE_WEBHOOK_SECRET: 'whsec_local', HERALD_STRIPE_API_URL: fakeBase,
      HERALD_STRIPE_PRICES: 'price_pro_m=professional:monthly,price_pro_y=professional:yearly,price_an=addon:analytics',
    },
  });
}, 120_000);

afterAll(async () => {
  await d?.close();
  await new Promise((r) => fake?.close(r));
});

describe.skipIf(!hasChromium)('open sign-up and billing with Stripe configured', () => {
  it('the landing page leads to sign-up, which creates a Free account with a default profile and signs in', async () => {
    const { page } = d;
    await page.goto(d.base);
    await page.locator('main').getByRole('link', { name: 'Get started' }).click();
    await page.getByRole('heading', { name: 'Create your Herald account' }).waitFor();
    await shootBothWidths(page, 'signup-open');
    await page.getByLabel('Name').fill('Nina New');
    await page.getByLabel('Email').fill('nina@new.test');
    await page.getByLabel('Password').fill('nina has a long password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    await d.nav().getByRole('link', { name: 'Billing' }).click();
    expect(await page.getByTestId('billing-plan').textContent()).toBe('Free');
    const { rows } = await d.ctx.db.query<{ name: string; is_default: boolean }>(
      "SELECT p.name, p.is_default FROM profiles p JOIN users u ON u.id = p.tenant_id WHERE u.email = 'nina@new.test'");
    expect(rows).toEqual([{ name: 'Default', is_default: true }]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
  });

  it('goes from the pricing page to Checkout for the chosen plan', async () => {
    const { page } = d;
    await d.signIn();
    await page.goto(`${d.base}/pricing`);
    await page.getByRole('radio', { name: /Annual/ }).click();
    await page.locator('.plan', { has: page.locator('#plan-professional') }).getByRole('link', { name: 'Get started' }).click();
    await page.getByRole('heading', { name: 'Billing' }).waitFor();
    expect(await page.getByTestId('billing-plan').textContent()).toBe('Free');
    expect(await page.getByRole('radio', { name: /Accelerate \(Professional\), billed yearly/ }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: /Analytics/ }).check();
    await shootBothWidths(page, 'billing-upgrade');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.getByRole('heading', { name: 'Fake Stripe Checkout' }).waitFor();
    expect(bodies).toHaveLength(1);
    expect(bodies[0].get('line_items[0][price]')).toBe('price_pro_y');
    expect(bodies[0].get('line_items[1][price]')).toBe('price_an');
  });
});
