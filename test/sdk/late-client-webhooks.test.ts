/**
 * The official client `@getlatedev/node` (0.2.869, and 0.1.0 where webhooks first appeared) against a running Herald over real HTTP:
 * its webhooks calls (getWebhookSettings, createWebhookSettings, updateWebhookSettings,
 * deleteWebhookSettings, testWebhook, getWebhookLogs, redeliverWebhookEvent) work unchanged,
 * in its shapes (Webhook, WebhookLog, { logs, pagination{ total, limit, skip, pages, hasMore } }).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Zernio, ZernioApiError, type Webhook, type WebhookLog } from '@getlatedev/node';
import { Late } from 'getlatedev-node-0.1.0';
import { createTenant, createTestApp, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let baseURL: string;
let hookUrl: string;
const received: Array<{ event: string; id: string }> = [];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => { received.push(JSON.parse(Buffer.concat(chunks).toString('utf8'))); res.writeHead(204).end(); });
});

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/sdk`;
  ctx = await createTestApp({ listen: true, env: { HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' } });
  baseURL = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => { await ctx?.close(); receiver.close(); });

describe('webhooks through the official client', () => {
  it('creates, lists, updates, tests, reads logs, redelivers and deletes', async () => {
    const t = await createTenant(ctx);
    const sdk = new Zernio({ apiKey: t.apiKey, baseURL });
    expect((await sdk.webhooks.getWebhookSettings()).data?.webhooks).toEqual([]);

    const created = await sdk.webhooks.createWebhookSettings({ body: { name: 'SDK hook', url: hookUrl, events: ['post.published', 'post.failed'] } });
    expect(created.response.status).toBe(200);
    const hook = created.data!.webhook! as Webhook;
    expect(hook).toMatchObject({ name: 'SDK hook', url: hookUrl, events: ['post.published', 'post.failed'], isActive: true, failureCount: 0 });
    expect(hook.secret).toMatch(/^whsec_/);

    const updated = await sdk.webhooks.updateWebhookSettings({ body: { webhookId: hook._id!, events: ['post.partial'], isActive: true } });
    expect(updated.data?.webhook).toMatchObject({ _id: hook._id, events: ['post.partial'] });
    // The deprecated `_id` alias works too.
    const renamed = await sdk.webhooks.updateWebhookSettings({ body: { _id: hook._id!, name: 'SDK hook 2' } });
    expect(renamed.data?.webhook?.name).toBe('SDK hook 2');

    const tested = await sdk.webhooks.testWebhook({ body: { webhookId: hook._id! } });
    expect(tested.data).toMatchObject({ success: true, message: expect.stringContaining('delivered') });
    expect(received.map((r) => r.event)).toEqual(['webhook.test']);

    const logs = await sdk.webhooks.getWebhookLogs({ query: { webhookId: hook._id!, limit: 10 } });
    expect(logs.data?.pagination).toEqual({ total: 1, limit: 10, skip: 0, pages: 1, hasMore: false });
    const log = logs.data!.logs![0] as WebhookLog;
    expect(log).toMatchObject({ webhookId: hook._id, webhookName: 'SDK hook 2', event: 'webhook.test', status: 'success', statusCode: 204, attemptNumber: 1, url: hookUrl, userId: t.userId });
    expect(log.requestPayload).toMatchObject({ event: 'webhook.test', id: log.eventId });

    const again = await sdk.webhooks.redeliverWebhookEvent({ body: { webhookId: hook._id!, eventId: log.eventId! } });
    expect(again.data).toMatchObject({ success: true });

    const deleted = await sdk.webhooks.deleteWebhookSettings({ query: { webhookId: hook._id! } });
    expect(deleted.data).toEqual({ success: true });
    expect((await sdk.webhooks.getWebhookSettings()).data?.webhooks).toEqual([]);
  });

  it('bad input and unknown ids reject with the SDK error classes', async () => {
    const t = await createTenant(ctx);
    const sdk = new Zernio({ apiKey: t.apiKey, baseURL });
    const bad = await sdk.webhooks.createWebhookSettings({ body: { name: 'x', url: 'ftp://example.com', events: ['post.published'] } }).then(() => null, (e: unknown) => e);
    expect(bad).toBeInstanceOf(ZernioApiError);
    expect((bad as ZernioApiError).statusCode).toBe(400);
    const missing = await sdk.webhooks.testWebhook({ body: { webhookId: 'a'.repeat(24) } }).then(() => null, (e: unknown) => e);
    expect((missing as ZernioApiError).statusCode).toBe(404);
  });

  it('0.1.0: createSettings without a name, updateSettings with _id, getLogs, deleteSettings with id', async () => {
    const t = await createTenant(ctx);
    const late = new Late({ apiKey: t.apiKey, baseURL });
    const created = await late.webhooks.createSettings({ body: { url: hookUrl, events: ['post.published', 'account.disconnected'] } });
    const hook = created.data!.webhook!;
    expect(hook).toMatchObject({ name: new URL(hookUrl).host, url: hookUrl, isActive: true });
    const updated = await late.webhooks.updateSettings({ body: { _id: hook._id!, name: 'Old client', isActive: false } });
    expect(updated.data?.webhook).toMatchObject({ name: 'Old client', isActive: false });
    expect((await late.webhooks.getSettings()).data?.webhooks?.map((w: { _id?: string }) => w._id)).toEqual([hook._id]);
    const tested = await late.webhooks.test({ body: { webhookId: hook._id! } });
    expect(tested.data?.success).toBe(true);
    const logs = await late.webhooks.getLogs({ query: { webhookId: hook._id!, limit: 5, status: 'success' } });
    expect(logs.data?.logs?.[0]).toMatchObject({ webhookId: hook._id, event: 'webhook.test', status: 'success', _id: expect.any(String) });
    expect((await late.webhooks.deleteSettings({ query: { id: hook._id! } })).data).toEqual({ success: true });
  });
});
