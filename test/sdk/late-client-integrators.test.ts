/**
 * The official client `@getlatedev/node` (0.2.869) over real HTTP against the issue-15 routes:
 * logs (`logs.listLogs`, with its type, search and requestId filters), account health (`accounts.getAllAccountsHealth`, `getAccountHealth`),
 * validation (`validate.validatePost`, `validatePostLength`), unpublish (`posts.unpublishPost`)
 * and the duplicate refusal (409 DUPLICATE_CONTENT through the SDK's error parser).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Zernio, ZernioApiError } from '@getlatedev/node';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';
import { runDue, startTestPublisher } from '../support/publishing.ts';

let ctx: TestContext;
let t: Tenant;
let accountId: string;
let sdk: Zernio;

beforeAll(async () => {
  ctx = await createTestApp({ listen: true, deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: new ScriptedAdapter() }) } });
  t = await createTenant(ctx);
  accountId = await insertAccount(ctx, t, await createProfile(ctx, t));
  sdk = new Zernio({ apiKey: t.apiKey, baseURL: `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}` });
});
afterAll(async () => { await ctx?.close(); });

describe('official client: integrator routes', () => {
  it('creates, publishes, lists logs, checks health and unpublishes', async () => {
    const created = await sdk.posts.createPost({ body: { content: 'via the SDK #http422', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId }] } });
    const postId = created.data.post._id as string;
    await runDue(ctx, await startTestPublisher(ctx, 'sdk-logs'), postId);

    const logs = await sdk.logs.listLogs({ query: { status: 'failed', limit: 10 } });
    expect(logs.response.status).toBe(200);
    expect(logs.data.logs[0]).toMatchObject({ action: 'publish', status: 'failed', platform: 'bluesky', account_id: accountId, status_code: 422 });
    expect(logs.data.pagination).toMatchObject({ total: 1, limit: 10, skip: 0, hasMore: false });
    // The client's other filters: the entries its create request spawned (the id Herald answered it with), found by text, in the publishing category.
    const requestId = created.response.headers.get('x-request-id')!;
    const spawned = await sdk.logs.listLogs({ query: { requestId, search: 'INVALID RECORD', type: 'publishing' } });
    expect(spawned.data.logs.map((l: { request_id?: string; status?: string; error_message?: string }) => [l.request_id, l.status, l.error_message])).toEqual([[requestId, 'failed', 'Invalid record (scripted)']]);
    expect((await sdk.logs.listLogs({ query: { requestId, search: 'no such text' } })).data.logs).toEqual([]);
    expect((await sdk.logs.listLogs({ query: { type: 'webhooks' } })).data.pagination).toMatchObject({ total: 0 });

    const all = await sdk.accounts.getAllAccountsHealth();
    expect(all.data.summary).toMatchObject({ total: 1, warning: 1 });
    const one = await sdk.accounts.getAccountHealth({ path: { accountId } });
    expect(one.data).toMatchObject({ accountId, platform: 'bluesky', status: 'warning', tokenStatus: { valid: true } });

    const out = await sdk.posts.unpublishPost({ path: { postId }, body: { platform: 'bluesky' } });
    expect(out.response.status).toBe(200);
    expect(out.data).toMatchObject({ success: true, message: 'Post unpublished' });
  });

  it('validates without saving, and measures X\'s weighted length', async () => {
    const ok = await sdk.validate.validatePost({ body: { content: 'fits', platforms: [{ platform: 'bluesky', accountId }] } });
    expect(ok.data.valid).toBe(true);
    const bad = await sdk.validate.validatePost({ body: { content: 'x'.repeat(400), platforms: [{ platform: 'bluesky', accountId }] } });
    expect(bad.data.valid).toBe(false);
    expect(bad.data.errors.length).toBeGreaterThan(0);
    const len = await sdk.validate.validatePostLength({ body: { text: 'see https://example.com/very/long/path/indeed' } });
    expect(len.data.platforms.twitter).toMatchObject({ count: 4 + 23, limit: 280, valid: true });
  });

  it('a duplicate rejects with ZernioApiError 409 DUPLICATE_CONTENT naming the earlier post', async () => {
    const body = { content: 'only once via the SDK', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'bluesky' as const, accountId }] };
    const first = await sdk.posts.createPost({ body });
    let err: unknown;
    try { await sdk.posts.createPost({ body }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(ZernioApiError);
    const e = err as ZernioApiError;
    expect(e.statusCode).toBe(409);
    expect(e.code).toBe('DUPLICATE_CONTENT');
    expect(e.details).toMatchObject({ accountId, existingPostId: first.data.post._id });
    const again = await sdk.posts.createPost({ body: { ...body, allowDuplicate: true } as typeof body });
    expect(again.response.status).toBe(201);
  });
});
