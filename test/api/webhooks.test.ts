/**
 * Webhooks through the real app and a real receiver (an HTTP server in this test that checks
 * every signature): the settings routes, the test event, the outbox written with the state
 * change (post created, target and post finished), delivery in order per post, retries after
 * the receiver answers 500 twice, logs and redelivery, SSRF refusals.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { verifySignature } from '../../src/modules/webhooks/signature.ts';
import { startWebhookWorker, type WebhookWorker } from '../../src/publishing/webhook-delivery.ts';
import { registry } from '../../src/observability/metrics.ts';
import type { Publisher } from '../../src/publishing/publisher.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';
import { runDue, startTestPublisher } from '../support/publishing.ts';

interface Received {
  path: string;
  body: Record<string, unknown> & { id: string; event: string };
  headers: http.IncomingHttpHeaders;
  verified: boolean;
}

/** A webhook receiver: records each request, verifies it with the secret of its path, answers per `answer`. */
function startReceiver() {
  const received: Received[] = [];
  const secrets = new Map<string, string>();
  let answer: (path: string, n: number) => number = () => 200;
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const secret = secrets.get(path) ?? '';
      const check = verifySignature({ secret, body: raw, timestamp: req.headers['x-herald-timestamp'] as string, signature: req.headers['x-herald-signature'] as string });
      received.push({ path, body: JSON.parse(raw), headers: req.headers, verified: check.ok });
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      const status = check.ok ? answer(path, n) : 401;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(path === '/nul' ? 'a\u0000b' : status === 200 ? 'ok' : `no (${status})`);
    });
  });
  return {
    received, secrets, server,
    setAnswer(fn: (path: string, n: number) => number) { answer = fn; },
    async listen() { await new Promise<void>((r) => server.listen(0, '127.0.0.1', r)); return `http://127.0.0.1:${(server.address() as AddressInfo).port}`; },
  };
}

let ctx: TestContext;
let publisher: Publisher;
let receiver: ReturnType<typeof startReceiver>;
let base: string;
let worker: WebhookWorker;
let tenant: Tenant;
let other: Tenant;
let accountId: string;
let accountId2: string;

beforeAll(async () => {
  ctx = await createTestApp({
    env: { HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS: 'true', HERALD_WEBHOOK_RETRY_BASE_MS: '100', HERALD_WEBHOOK_MAX_ATTEMPTS: '4' },
    deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: new ScriptedAdapter() }) },
  });
  publisher = await startTestPublisher(ctx, 'webhooks');
  receiver = startReceiver();
  base = await receiver.listen();
  // A worker process registered in `workers` (deliveries of processes that stop heartbeating are taken over).
  const workerId = `webhooks-test-${process.pid}`;
  await ctx.db.query('INSERT INTO workers (id, hostname, pid) VALUES ($1, $2, $3)', [workerId, 'test', process.pid]);
  worker = startWebhookWorker({ webhooks: ctx.services.webhooks, workerId, concurrency: 4, pollMs: 50 });
  tenant = await createTenant(ctx);
  other = await createTenant(ctx);
  const profileId = await createProfile(ctx, tenant);
  accountId = await insertAccount(ctx, tenant, profileId);
  accountId2 = await insertAccount(ctx, tenant, profileId);
});
afterAll(async () => {
  await worker?.stop();
  receiver?.server.close();
  await ctx?.close();
});

async function createWebhook(t: Tenant, path: string, events: string[], extra: Record<string, unknown> = {}) {
  const res = await ctx.app.inject({ method: 'POST', url: '/v1/webhooks/settings', headers: t.headers, payload: { name: `hook ${path}`, url: `${base}${path}`, events, ...extra } });
  expect(res.statusCode, res.body).toBe(200);
  const webhook = res.json().webhook;
  receiver.secrets.set(path, webhook.secret);
  return webhook as { _id: string; secret: string; url: string; events: string[]; isActive: boolean };
}

async function until<T>(fn: () => T | Promise<T>, what: string, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function schedule(content: string, accounts: string[]) {
  const res = await ctx.app.inject({
    method: 'POST', url: '/v1/posts', headers: tenant.headers,
    payload: { content, scheduledFor: '2030-01-01T00:00:00Z', platforms: accounts.map((a) => ({ platform: 'bluesky', accountId: a })) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().post._id as string;
}

describe('webhook settings', () => {
  it('creates, lists, updates and deletes webhooks, several per user', async () => {
    const a = await createWebhook(tenant, '/crud-a', ['post.published']);
    expect(a.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(a).toMatchObject({ isActive: true, events: ['post.published'], url: `${base}/crud-a` });
    const b = await createWebhook(tenant, '/crud-b', ['post.failed'], { secret: 'my-own-secret-1234567' });
    expect(b.secret).toBe('my-own-secret-1234567');

    let list = await ctx.app.inject({ method: 'GET', url: '/v1/webhooks/settings', headers: tenant.headers });
    expect(list.json().webhooks.map((w: { _id: string }) => w._id)).toEqual(expect.arrayContaining([a._id, b._id]));

    const put = await ctx.app.inject({ method: 'PUT', url: '/v1/webhooks/settings', headers: tenant.headers, payload: { webhookId: a._id, events: ['post.failed', 'post.partial'], isActive: false } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().webhook).toMatchObject({ events: ['post.failed', 'post.partial'], isActive: false, secret: a.secret });

    const del = await ctx.app.inject({ method: 'DELETE', url: `/v1/webhooks/settings?webhookId=${a._id}`, headers: tenant.headers });
    expect(del.json()).toEqual({ success: true });
    const delAlias = await ctx.app.inject({ method: 'DELETE', url: `/v1/webhooks/settings?id=${b._id}`, headers: tenant.headers });
    expect(delAlias.statusCode).toBe(200);
    list = await ctx.app.inject({ method: 'GET', url: '/v1/webhooks/settings', headers: tenant.headers });
    expect(list.json().webhooks.map((w: { _id: string }) => w._id)).not.toContain(a._id);
  });

  it("answers 404 for another tenant's webhook on every route", async () => {
    const w = await createWebhook(tenant, '/tenancy', ['post.published']);
    const h = other.headers;
    const answers = await Promise.all([
      ctx.app.inject({ method: 'PUT', url: '/v1/webhooks/settings', headers: h, payload: { webhookId: w._id, name: 'mine now' } }),
      ctx.app.inject({ method: 'DELETE', url: `/v1/webhooks/settings?webhookId=${w._id}`, headers: h }),
      ctx.app.inject({ method: 'POST', url: '/v1/webhooks/test', headers: h, payload: { webhookId: w._id } }),
      ctx.app.inject({ method: 'POST', url: '/v1/webhooks/logs/redeliver', headers: h, payload: { webhookId: w._id, eventId: '00000000-0000-4000-8000-000000000000' } }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([404, 404, 404, 404]);
    const list = await ctx.app.inject({ method: 'GET', url: '/v1/webhooks/settings', headers: h });
    expect(list.json().webhooks).toEqual([]);
    const logs = await ctx.app.inject({ method: 'GET', url: `/v1/webhooks/logs?webhookId=${w._id}`, headers: h });
    expect(logs.json().logs).toEqual([]);
  });

  it('refuses bad input with 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'x', url: 'ftp://example.com/hook', events: ['post.published'] }, 'url'],
      [{ name: 'x', url: 'not a url', events: ['post.published'] }, 'url'],
      [{ name: 'x', url: 'https://example.com/hook', events: [] }, 'events'],
      [{ name: 'x', url: 'https://example.com/hook', events: ['post.exploded'] }, 'events.0'],
      [{ name: '', url: 'https://example.com/hook', events: ['post.published'] }, 'name'],
      [{ name: 'x', url: 'https://example.com/hook', events: ['post.published'], customHeaders: { 'X-Herald-Signature': 'forged' } }, 'customHeaders.X-Herald-Signature'],
      [{ name: 'x', url: 'https://example.com/hook', events: ['post.published'], customHeaders: { 'X-Trace': 'a\r\nInjected: yes' } }, 'customHeaders.X-Trace'],
    ];
    for (const [payload, field] of cases) {
      const res = await ctx.app.inject({ method: 'POST', url: '/v1/webhooks/settings', headers: tenant.headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(res.json().details.fields), JSON.stringify(payload)).toContain(field);
    }
    const put = await ctx.app.inject({ method: 'PUT', url: '/v1/webhooks/settings', headers: tenant.headers, payload: { name: 'no id' } });
    expect(put.statusCode).toBe(400);
    expect(put.json().details.fields).toHaveProperty('webhookId');
    const logs = await ctx.app.inject({ method: 'GET', url: '/v1/webhooks/logs?limit=0&status=maybe', headers: tenant.headers });
    expect(logs.statusCode).toBe(400);
  });

  it('refuses loopback, private and link-local URLs unless the development setting allows them', async () => {
    const strict = await createTestApp({ databaseUrl: ctx.databaseUrl });
    try {
      for (const url of ['http://127.0.0.1:8080/h', 'http://10.0.0.5/h', 'http://169.254.169.254/latest', 'http://[::1]/h', 'http://localhost/h']) {
        const res = await strict.app.inject({ method: 'POST', url: '/v1/webhooks/settings', headers: tenant.headers, payload: { name: 'x', url, events: ['post.published'] } });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().details.fields).toHaveProperty('url');
      }
    } finally {
      await strict.close();
    }
  });

  it('needs the webhooks permission', async () => {
    const readOnly = await createTenant(ctx, { permissions: ['posts:read'] });
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/webhooks/settings', headers: readOnly.headers });
    expect(res.statusCode).toBe(403);
  });
});

describe('delivery', () => {
  it('sends a signed webhook.test and logs it', async () => {
    const w = await createWebhook(tenant, '/test-event', ['post.published']);
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/webhooks/test', headers: tenant.headers, payload: { webhookId: w._id } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, statusCode: 200 });
    const got = receiver.received.filter((r) => r.path === '/test-event');
    expect(got).toHaveLength(1);
    expect(got[0].verified).toBe(true);
    expect(got[0].body).toMatchObject({ event: 'webhook.test', id: res.json().eventId });
    expect(got[0].headers['x-herald-event-id']).toBe(res.json().eventId);
    const logs = await ctx.app.inject({ method: 'GET', url: `/v1/webhooks/logs?webhookId=${w._id}`, headers: tenant.headers });
    expect(logs.json().logs[0]).toMatchObject({ event: 'webhook.test', status: 'success', statusCode: 200, responseBody: 'ok', attemptNumber: 1, eventId: res.json().eventId });
  });

  it("delivers a post's events in order, signed, with the state at the event, and retries after two 500s", async () => {
    const w = await createWebhook(tenant, '/order', ['post.scheduled', 'post.platform.published', 'post.platform.failed', 'post.published', 'post.partial']);
    // The receiver fails the first two requests: the first event is retried (backoff) and the later ones wait for it.
    receiver.setAnswer((path, n) => (path === '/order' && n <= 2 ? 500 : 200));
    const mine = () => receiver.received.filter((r) => r.path === '/order' && r.verified);
    const delivered = (postId: string) => mine().filter((r) => (r.body.post as { id: string }).id === postId);
    const single = await schedule('one target', [accountId]);
    await runDue(ctx, publisher, single);
    await until(() => delivered(single).length >= 5, 'the events of the first post');
    const pair = await schedule('two targets #reject', [accountId, accountId2]);
    await runDue(ctx, publisher, pair);
    await until(() => delivered(pair).length >= 3, 'the events of the second post');
    expect(receiver.received.filter((r) => r.path === '/order').every((r) => r.verified)).toBe(true);

    // Single: scheduled (failed twice, then delivered), platform published, post published: in that order.
    const s = delivered(single);
    expect(s.map((r) => r.body.event)).toEqual(['post.scheduled', 'post.scheduled', 'post.scheduled', 'post.platform.published', 'post.published']);
    expect(new Set(s.slice(0, 3).map((r) => r.body.id)).size).toBe(1); // the same event id on every attempt
    expect(s[3].body).toMatchObject({ platform: { name: 'bluesky', status: 'published' }, account: { accountId } });
    expect(s[4].body.post).toMatchObject({ id: single, status: 'published', platforms: [{ platform: 'bluesky', status: 'published', accountId }] });
    // Two targets (both fail: #reject): scheduled, then each platform failure; the post ends failed (not subscribed).
    expect(delivered(pair).map((r) => r.body.event)).toEqual(['post.scheduled', 'post.platform.failed', 'post.platform.failed']);
    // Each failure carries the client's errorCategory and errorSource (decision 0063: a platform's refusal is the user's to fix).
    for (const r of delivered(pair).slice(1)) {
      expect(r.body.platform).toMatchObject({ status: 'failed', error: expect.any(String), errorCategory: 'platform_rejected', errorSource: 'user' });
    }
    expect(s[3].body.platform).not.toHaveProperty('errorCategory');

    const logs = await ctx.app.inject({ method: 'GET', url: `/v1/webhooks/logs?webhookId=${w._id}&status=failed`, headers: tenant.headers });
    const failed = logs.json().logs;
    expect(failed).toHaveLength(2);
    expect(failed.map((l: { statusCode: number; attemptNumber: number }) => [l.statusCode, l.attemptNumber])).toEqual([[500, 2], [500, 1]]);
    receiver.setAnswer(() => 200);
  });

  it('sends post.partial when some platforms published and others failed', async () => {
    await createWebhook(tenant, '/partial', ['post.partial', 'post.published', 'post.failed']);
    const res = await ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: tenant.headers,
      payload: { content: 'half of it', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId }, { platform: 'bluesky', accountId: accountId2, customContent: 'not this one #reject' }] },
    });
    const postId = res.json().post._id as string;
    await runDue(ctx, publisher, postId);
    const got = (await until(() => receiver.received.find((r) => r.path === '/partial'), 'the partial event'))!;
    expect(got.body).toMatchObject({ event: 'post.partial', post: { id: postId, status: 'partial' } });
    const platforms = (got.body.post as { platforms: Array<{ status: string; accountId: string }> }).platforms;
    expect(platforms.map((p) => [p.accountId, p.status])).toEqual([[accountId, 'published'], [accountId2, 'failed']]);
    expect(platforms[0]).not.toHaveProperty('errorSource');
    expect(platforms[1]).toMatchObject({ errorCategory: 'platform_rejected', errorSource: 'user' });
    // The post's response says the same.
    const read = await ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}`, headers: tenant.headers });
    expect(read.json().post.platforms.map((p: { errorCategory: string | null; errorSource: string | null }) => [p.errorCategory, p.errorSource]))
      .toEqual([[null, null], ['platform_rejected', 'user']]);
    expect(receiver.received.filter((r) => r.path === '/partial')).toHaveLength(1);
  });

  it('counts delivery attempts in the Prometheus registry (GET /metrics)', async () => {
    const text = await registry.getSingleMetricAsString('herald_webhook_deliveries_total');
    expect(text).toMatch(/herald_webhook_deliveries_total\{event="post.scheduled",result="retry"\} [1-9]/);
    expect(text).toMatch(/herald_webhook_deliveries_total\{event="post.published",result="delivered"\} [1-9]/);
  });

  it('writes nothing to the outbox for tenants without webhooks', async () => {
    const quiet = await createTenant(ctx);
    const profileId = await createProfile(ctx, quiet);
    const acc = await insertAccount(ctx, quiet, profileId);
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: quiet.headers, payload: { content: 'quiet', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: acc }] } });
    await runDue(ctx, publisher, res.json().post._id);
    const { rows } = await ctx.db.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1', [quiet.userId]);
    expect(rows[0].n).toBe(0);
  });

  it('sends account.disconnected when an account is disconnected', async () => {
    await createWebhook(tenant, '/accounts', ['account.disconnected']);
    const profileId = await createProfile(ctx, tenant);
    const acc = await insertAccount(ctx, tenant, profileId, 'bluesky', { username: 'leaving.test' });
    const res = await ctx.app.inject({ method: 'DELETE', url: `/v1/accounts/${acc}`, headers: tenant.headers });
    expect(res.statusCode, res.body).toBe(200);
    const got = (await until(() => receiver.received.find((r) => r.path === '/accounts'), 'the account event'))!;
    expect(got.verified).toBe(true);
    expect(got.body).toMatchObject({
      event: 'account.disconnected',
      account: { accountId: acc, profileId, platform: 'bluesky', username: 'leaving.test', disconnectionType: 'intentional' },
    });
  });

  it('sends account.disconnected (unintentional) when the platform refuses an account, once', async () => {
    await createWebhook(tenant, '/refused', ['account.disconnected']);
    const profileId = await createProfile(ctx, tenant);
    const acc = await insertAccount(ctx, tenant, profileId, 'bluesky', { username: 'revoked.test' });
    await ctx.services.accountsRepository.markNeedsReconnect(acc, 'The token was revoked');
    await ctx.services.accountsRepository.markNeedsReconnect(acc, 'The token was revoked');
    const got = (await until(() => receiver.received.find((r) => r.path === '/refused'), 'the account event'))!;
    expect(got.body).toMatchObject({ event: 'account.disconnected', account: { accountId: acc, disconnectionType: 'unintentional', reason: 'The token was revoked' } });
    const { rows } = await ctx.db.query(`SELECT count(DISTINCT event_id)::int AS n FROM webhook_deliveries WHERE order_key = $1`, [`account:${acc}`]);
    expect(rows[0].n).toBe(1);
  });

  it('sends post.scheduled when an edit schedules a draft', async () => {
    await createWebhook(tenant, '/drafts', ['post.scheduled']);
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: tenant.headers, payload: { content: 'draft first', platforms: [{ platform: 'bluesky', accountId }] } });
    const postId = res.json().post._id as string;
    const put = await ctx.app.inject({ method: 'PUT', url: `/v1/posts/${postId}`, headers: tenant.headers, payload: { scheduledFor: '2030-02-01T10:00:00Z' } });
    expect(put.statusCode, put.body).toBe(200);
    const got = (await until(() => receiver.received.find((r) => r.path === '/drafts'), 'the scheduled event'))!;
    expect(got.body).toMatchObject({ event: 'post.scheduled', post: { id: postId, status: 'scheduled', scheduledFor: '2030-02-01T10:00:00.000Z' } });
    expect(receiver.received.filter((r) => r.path === '/drafts')).toHaveLength(1); // creating the draft sent none
  });

  it('sends post.cancelled when a post is unpublished', async () => {
    await createWebhook(tenant, '/cancelled', ['post.cancelled']);
    const postId = await schedule('take me back', [accountId]);
    const res = await ctx.app.inject({ method: 'POST', url: `/v1/posts/${postId}/unpublish`, headers: tenant.headers });
    expect(res.statusCode, res.body).toBe(200);
    const got = (await until(() => receiver.received.find((r) => r.path === '/cancelled'), 'the cancelled event'))!;
    expect(got.verified).toBe(true);
    expect(got.body).toMatchObject({ event: 'post.cancelled', post: { id: postId, status: 'cancelled', platforms: [{ status: 'cancelled' }] } });
  });

  it('redelivers an event with the same id and payload', async () => {
    const w = await createWebhook(tenant, '/redeliver', ['post.scheduled']);
    const postId = await schedule('redeliver me', [accountId]);
    await until(() => receiver.received.some((r) => r.path === '/redeliver'), 'the first delivery');
    const first = receiver.received.find((r) => r.path === '/redeliver')!;
    // The receiver has the request before the worker writes the delivery down: until then a
    // redelivery is "already queued" (the delivery is still open), so wait for it to be delivered.
    await until(async () => (await ctx.db.query<{ status: string }>(
      'SELECT status FROM webhook_deliveries WHERE webhook_id = $1 AND event_id = $2', [w._id, first.body.id])).rows[0]?.status === 'delivered', 'the first delivery to be written down');
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/webhooks/logs/redeliver', headers: tenant.headers, payload: { webhookId: w._id, eventId: first.body.id } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().success).toBe(true);
    const again = await until(() => receiver.received.filter((r) => r.path === '/redeliver')[1], 'the redelivery');
    expect(again.body).toEqual(first.body);
    expect((first.body.post as { id: string }).id).toBe(postId);
    const missing = await ctx.app.inject({ method: 'POST', url: '/v1/webhooks/logs/redeliver', headers: tenant.headers, payload: { webhookId: w._id, eventId: '00000000-0000-4000-8000-000000000000' } });
    expect(missing.statusCode).toBe(404);
  });

  it('logs an answer holding a NUL byte (without it)', async () => {
    const w = await createWebhook(tenant, '/nul', ['post.published']);
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/webhooks/test', headers: tenant.headers, payload: { webhookId: w._id } });
    expect(res.json()).toMatchObject({ success: true });
    const logs = await ctx.app.inject({ method: 'GET', url: `/v1/webhooks/logs?webhookId=${w._id}`, headers: tenant.headers });
    expect(logs.json().logs[0].responseBody).toBe('ab');
  });

  it('prunes delivery logs and finished deliveries older than 30 days', async () => {
    const w = await createWebhook(tenant, '/prune', ['post.published']);
    await ctx.app.inject({ method: 'POST', url: '/v1/webhooks/test', headers: tenant.headers, payload: { webhookId: w._id } });
    await ctx.app.inject({ method: 'POST', url: '/v1/webhooks/test', headers: tenant.headers, payload: { webhookId: w._id } });
    const { rows: [old] } = await ctx.db.query<{ id: string; delivery_id: string }>(
      `SELECT id::text, delivery_id::text FROM webhook_delivery_logs WHERE webhook_id = $1 ORDER BY id LIMIT 1`, [w._id]);
    await ctx.db.query(`UPDATE webhook_delivery_logs SET created_at = now() - interval '31 days' WHERE id = $1`, [old.id]);
    await ctx.db.query(`UPDATE webhook_deliveries SET created_at = now() - interval '31 days' WHERE id = $1`, [old.delivery_id]);
    const pruned = await ctx.services.webhooks.prune();
    expect(pruned).toEqual({ logs: 1, deliveries: 1 });
    const logs = await ctx.app.inject({ method: 'GET', url: `/v1/webhooks/logs?webhookId=${w._id}`, headers: tenant.headers });
    expect(logs.json().pagination.total).toBe(1);
  });

  it('stops retrying after the last attempt and disables a webhook failing for longer than the setting', async () => {
    const w = await createWebhook(tenant, '/down', ['post.scheduled']);
    receiver.setAnswer((path) => (path === '/down' ? 503 : 200));
    // Failing since four days: the next failed attempt disables the webhook.
    await ctx.db.query(`UPDATE webhooks SET failing_since = now() - interval '4 days' WHERE id = $1`, [w._id]);
    await schedule('nobody listens', [accountId]);
    await until(async () => {
      const r = await ctx.app.inject({ method: 'GET', url: '/v1/webhooks/settings', headers: tenant.headers });
      return r.json().webhooks.find((x: { _id: string; isActive: boolean }) => x._id === w._id && !x.isActive);
    }, 'the webhook disabled');
    const r = await ctx.app.inject({ method: 'GET', url: '/v1/webhooks/settings', headers: tenant.headers });
    const got = r.json().webhooks.find((x: { _id: string }) => x._id === w._id);
    expect(got.disabledReason).toMatch(/without a successful delivery/);
    expect(got.disabledAt).not.toBeNull();
    // Turning it on again clears the notice.
    receiver.setAnswer(() => 200);
    const on = await ctx.app.inject({ method: 'PUT', url: '/v1/webhooks/settings', headers: tenant.headers, payload: { webhookId: w._id, isActive: true } });
    expect(on.json().webhook).toMatchObject({ isActive: true, disabledAt: null, disabledReason: null, failingSince: null });
  });
});
