/**
 * The Webhooks page in a real Chromium: add a webhook, send a test event (received here with a
 * valid signature), see the delivery, redeliver it, edit the webhook, and the notice of a
 * webhook Herald turned off after failing for days (turned on again from the notice).
 * Screenshots at 1280 and 390 px; axe finds no serious violation.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/modules/webhooks/signature.ts';
import { startWebhookWorker, type WebhookWorker } from '../../src/publishing/webhook-delivery.ts';
import { axeViolations, chromiumAvailable, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/webhooks.test.ts');
let d: DashboardHarness;
let worker: WebhookWorker;
let hookUrl: string;
const received: Array<{ event: string; id: string; raw: string; timestamp: string; signature: string }> = [];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = JSON.parse(raw) as { event: string; id: string };
    received.push({ ...body, raw, timestamp: String(req.headers['x-herald-timestamp']), signature: String(req.headers['x-herald-signature']) });
    res.writeHead(200).end('thanks');
  });
});

beforeAll(async () => {
  if (!hasChromium) return;
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;
  d = await startDashboard({ user: { email: 'dev@hooks.test', password: 'a long dashboard password', name: 'Dana Dev' }, env: { HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' }, acceptDialogs: true });
  const workerId = `webhooks-browser-${process.pid}`;
  await d.ctx.db.query('INSERT INTO workers (id, hostname, pid) VALUES ($1, $2, $3)', [workerId, 'test', process.pid]);
  worker = startWebhookWorker({ webhooks: d.ctx.services.webhooks, workerId, concurrency: 2, pollMs: 50 });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await d?.close();
  receiver.close();
});

describe.skipIf(!hasChromium)('webhooks page', () => {
  it('adds a webhook, sends a signed test event, shows and redelivers it', async () => {
    const { page } = d;
    await d.signIn();
    await d.nav().getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
    await page.getByText('No webhooks yet.').waitFor();
    await page.getByLabel('Name').fill('CRM sync');
    await page.getByLabel('Endpoint URL').fill(hookUrl);
    await page.getByRole('checkbox', { name: /One platform failed/ }).check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText('Webhook “CRM sync” added.', { exact: false }).waitFor();
    const secret = (await page.getByTestId('webhook-secret').textContent())!;
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);

    await page.getByRole('button', { name: 'Send test to CRM sync' }).click();
    await page.getByText(/Test event delivered \(HTTP 200/).waitFor();
    expect(received).toHaveLength(1);
    expect(received[0].event).toBe('webhook.test');
    expect(verifySignature({ secret, body: received[0].raw, timestamp: received[0].timestamp, signature: received[0].signature })).toEqual({ ok: true });

    await page.getByRole('cell', { name: 'webhook.test', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Redeliver webhook.test' }).first().click();
    await page.getByText('Event queued for redelivery').waitFor();
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(2);
    expect(received[1].id).toBe(received[0].id);
    await page.getByRole('cell', { name: 'webhook.test', exact: true }).nth(1).waitFor({ timeout: 15_000 });
    await shootBothWidths(page, 'webhooks');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('edits a webhook', async () => {
    const { page } = d;
    await page.getByRole('button', { name: 'Edit CRM sync' }).click();
    await page.getByRole('heading', { name: 'Edit webhook' }).waitFor();
    await page.getByLabel('Name').fill('CRM sync (prod)');
    await page.getByRole('button', { name: 'Save webhook' }).click();
    await page.getByText('Webhook “CRM sync (prod)” saved.').waitFor();
    const list = await d.ctx.app.inject({ method: 'GET', url: '/v1/webhooks/settings', headers: d.tenant.headers });
    expect(list.json().webhooks[0]).toMatchObject({ name: 'CRM sync (prod)', url: hookUrl });
    expect(list.json().webhooks[0].events).toContain('post.platform.failed');
  });

  it('shows the notice of a webhook turned off after failing for days, and turns it on again', async () => {
    const { page } = d;
    await d.ctx.db.query(`UPDATE webhooks SET is_active = false, disabled_at = now(), failing_since = now() - interval '3 days',
                            disabled_reason = 'Disabled after failing since 2026-11-21 04:00 UTC without a successful delivery'`);
    await page.reload();
    const notice = page.getByRole('alert').filter({ hasText: 'was turned off' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('without a successful delivery');
    await shootBothWidths(page, 'webhooks-disabled');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Turn on “CRM sync (prod)”' }).click();
    await notice.waitFor({ state: 'detached' });
    const list = await d.ctx.app.inject({ method: 'GET', url: '/v1/webhooks/settings', headers: d.tenant.headers });
    expect(list.json().webhooks[0]).toMatchObject({ isActive: true, disabledAt: null });
  });
});
