/**
 * Publishing logs: GET /v1/posts/{id}/logs, GET /v1/logs and GET /v1/logs/{id} show every
 * attempt (publish, retry, verify, rate-limit pause) with the platform's HTTP status, endpoint
 * and a secret-free excerpt of its answer; token refreshes log too; old entries are pruned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { MAX_ATTEMPTS, type Publisher } from '../../src/publishing/publisher.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';
import { runDue, startTestPublisher } from '../support/publishing.ts';

let ctx: TestContext;
let worker: Publisher;
let tenant: Tenant;
let other: Tenant;
let acc: string;
let otherAcc: string;

beforeAll(async () => {
  ctx = await createTestApp({ deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: new ScriptedAdapter() }) } });
  worker = await startTestPublisher(ctx, 'logs');
  tenant = await createTenant(ctx);
  other = await createTenant(ctx);
  acc = await insertAccount(ctx, tenant, await createProfile(ctx, tenant));
  otherAcc = await insertAccount(ctx, other, await createProfile(ctx, other));
});
afterAll(async () => { await ctx.close(); });

async function scheduled(t: Tenant, text: string, accountId: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST', url: '/v1/posts', headers: { ...t.headers, ...headers },
    payload: { content: text, scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId }] },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().post._id;
}

const get = (t: Tenant, url: string) => ctx.app.inject({ method: 'GET', url, headers: t.headers });

describe('publishing logs', () => {
  it('records a rejected publish with the platform\'s status, endpoint and a secret-free excerpt', async () => {
    const postId = await scheduled(tenant, 'refused #http422', acc);
    await runDue(ctx, worker, postId);
    const res = await get(tenant, `/v1/posts/${postId}/logs`);
    expect(res.statusCode).toBe(200);
    const { logs, pagination } = res.json();
    expect(pagination).toMatchObject({ total: 1, page: 1, hasMore: false });
    expect(logs[0]).toMatchObject({
      type: 'publishing', action: 'publish', status: 'failed', postId, accountId: acc, platform: 'bluesky', attemptNumber: 1,
      httpStatus: 422, status_code: 422, endpoint: 'POST /xrpc/com.atproto.repo.createRecord', errorCategory: 'platform_rejected',
      errorMessage: 'Invalid record (scripted)',
    });
    expect(logs[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(logs[0].responseExcerpt).toContain('InvalidRequest');
    expect(logs[0].responseExcerpt).toContain('[redacted]');
    expect(logs[0].responseExcerpt).not.toContain('eyJhbGciOiJIUzI1NiJ9');
  });

  it('logs a rate-limited attempt as a rate-limit pause, and a lost answer as publish then verify', async () => {
    const limited = await scheduled(tenant, 'slow down #ratelimit', acc);
    await runDue(ctx, worker, limited);
    const lost = await scheduled(tenant, 'answer lost #lost', acc);
    await runDue(ctx, worker, lost);
    await runDue(ctx, worker, lost);
    const a = (await get(tenant, `/v1/posts/${limited}/logs`)).json().logs;
    expect(a).toHaveLength(1);
    expect(a[0]).toMatchObject({ action: 'rate_limit_pause', status: 'failed', httpStatus: 429, errorCategory: 'platform_rate_limit' });
    const b = (await get(tenant, `/v1/posts/${lost}/logs`)).json().logs;
    // Newest first: the verify that found the post, then the publish whose answer was lost.
    expect(b.map((l: { action: string; status: string }) => [l.action, l.status])).toEqual([['verify', 'success'], ['publish', 'pending']]);
    expect(b[0].attemptNumber).toBe(2);
  });

  it('lists the tenant\'s entries with filters and paging, and one entry by id', async () => {
    const published = await scheduled(tenant, 'fine post', acc);
    await runDue(ctx, worker, published);
    const all = (await get(tenant, '/v1/logs')).json();
    expect(all.pagination.total).toBeGreaterThanOrEqual(5);
    expect(all.logs.every((l: { accountId: string }) => l.accountId === acc)).toBe(true);
    const ok = (await get(tenant, '/v1/logs?status=success&action=publish')).json();
    expect(ok.logs.map((l: { postId: string }) => l.postId)).toEqual([published]);
    const failed = (await get(tenant, `/v1/logs?status=failed&platform=bluesky&accountId=${acc}`)).json();
    expect(failed.logs.map((l: { action: string }) => l.action).sort()).toEqual(['publish', 'rate_limit_pause']);
    const page2 = (await get(tenant, '/v1/logs?limit=2&skip=2')).json();
    expect(page2.pagination).toMatchObject({ limit: 2, skip: 2, page: 2 });
    expect(page2.logs.map((l: { _id: string }) => l._id)).toEqual(all.logs.slice(2, 4).map((l: { _id: string }) => l._id));
    expect((await get(tenant, '/v1/logs?platform=twitter')).json().logs).toEqual([]);
    const one = await get(tenant, `/v1/logs/${all.logs[0]._id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().log).toEqual(all.logs[0]);
    // The Late client's other filters (type, search) are accepted; publishing logs are all this server keeps.
    expect((await get(tenant, '/v1/logs?type=publishing&status=all&platform=all')).json().pagination.total).toBe(all.pagination.total);
    // Time window: nothing after a future instant.
    expect((await get(tenant, '/v1/logs?from=2100-01-01T00:00:00Z')).json().logs).toEqual([]);
  });

  it('the last entry of a target that failed after its attempts with the commit unanswered is failed, and the status filter finds it', async () => {
    const postId = await scheduled(tenant, 'never answers #transient', acc);
    for (let runs = 0; runs < MAX_ATTEMPTS * 3 && await runDue(ctx, worker, postId) > 0; runs++);
    const { rows: [target] } = await ctx.db.query<{ status: string; error_message: string }>('SELECT status, error_message FROM post_targets WHERE post_id = $1', [postId]);
    expect(target.status).toBe('failed');
    const logs = (await get(tenant, `/v1/posts/${postId}/logs`)).json().logs;
    // Newest first: the step the target ended on is the failure, with the target's reason; its outcome in the attempt
    // row stays what the publisher wrote (no answer, or nothing found), which a retry of the post reads.
    expect(logs[0]).toMatchObject({ status: 'failed', errorMessage: target.error_message });
    expect(['commit', 'verify']).toContain(logs[0].phase);
    expect(logs.slice(1).filter((l: { status: string }) => l.status === 'failed')).toEqual([]);
    const failed = (await get(tenant, `/v1/logs?status=failed&postId=${postId}`)).json();
    expect(failed.logs.map((l: { _id: string }) => l._id)).toEqual([logs[0]._id]);
    expect((await get(tenant, `/v1/logs/${logs[0]._id}`)).json().log).toEqual(logs[0]);
    for (const other of ['pending', 'skipped']) {
      expect((await get(tenant, `/v1/logs?status=${other}&postId=${postId}`)).json().logs.map((l: { _id: string }) => l._id)).not.toContain(logs[0]._id);
    }
    expect((await get(tenant, `/v1/logs?search=${encodeURIComponent(target.error_message.slice(0, 40))}&postId=${postId}`)).json().logs[0]._id).toBe(logs[0]._id);
    // Retried, the target is pending again: the entry's own outcome counts again.
    expect((await ctx.app.inject({ method: 'POST', url: `/v1/posts/${postId}/retry`, headers: tenant.headers })).statusCode).toBe(200);
    expect((await get(tenant, `/v1/logs/${logs[0]._id}`)).json().log.status).not.toBe('failed');
  });

  it('filters by category (type): publishing entries only, the Late API\'s other categories are empty', async () => {
    const all = (await get(tenant, '/v1/logs?type=all')).json().pagination.total;
    expect(all).toBeGreaterThan(0);
    expect((await get(tenant, '/v1/logs?type=publishing')).json().pagination.total).toBe(all);
    for (const type of ['connections', 'webhooks', 'messaging', 'workflow_event', 'api_request']) {
      const res = (await get(tenant, `/v1/logs?type=${type}`)).json();
      expect(res, type).toEqual({ logs: [], pagination: { page: 1, limit: 50, total: 0, pages: 0, skip: 0, hasMore: false } });
    }
    expect((await get(tenant, `/v1/posts/${(await get(tenant, '/v1/logs')).json().logs[0].postId}/logs?type=webhooks`)).json().logs).toEqual([]);
  });

  it('searches the entries\' text (case-insensitive, no wildcards), with the other filters', async () => {
    const postId = await scheduled(tenant, 'searched #http422', acc);
    await runDue(ctx, worker, postId);
    const ids = (q: string) => get(tenant, `/v1/logs?${q}`).then((r) => r.json().logs.map((l: { postId: string }) => l.postId));
    // The error message, the endpoint, the platform's answer, the error category, an id.
    expect(await ids('search=INVALID%20RECORD')).toContain(postId);
    expect(await ids('search=repo.createRecord')).toContain(postId);
    expect(await ids('search=InvalidRequest')).toContain(postId);
    expect(await ids('search=platform_rejected')).toContain(postId);
    expect(await ids(`search=${postId.toUpperCase()}`)).toEqual([postId]);
    // Every match contains the text somewhere; % and _ are plain characters.
    const found = (await get(tenant, '/v1/logs?search=rate%20limit')).json().logs;
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((l: { errorMessage: string | null }) => /rate limit/i.test(l.errorMessage ?? ''))).toBe(true);
    expect(await ids('search=%25')).toEqual([]);
    expect(await ids('search=platform%25rejected')).toEqual([]);
    expect(await ids('search=platform_rejecte_')).toEqual([]);
    expect(await ids(`search=invalid&postId=${postId}&status=success`)).toEqual([]);
    expect((await get(tenant, '/v1/logs?search=invalid')).json().pagination.total).toBeGreaterThanOrEqual(2);
    expect((await get(other, '/v1/logs?search=searched')).json().logs).toEqual([]);
  });

  it('finds the entries one API request spawned by its x-request-id: the create\'s publishes, the unpublish\'s own entries', async () => {
    const created = await scheduled(tenant, 'correlated', acc, { 'x-request-id': 'req-create-24' });
    const bystander = await scheduled(tenant, 'not correlated', acc);
    await runDue(ctx, worker, created);
    await runDue(ctx, worker, bystander);
    const byCreate = (await get(tenant, '/v1/logs?requestId=req-create-24')).json();
    expect(byCreate.logs.map((l: { postId: string; action: string; status: string }) => [l.postId, l.action, l.status])).toEqual([[created, 'publish', 'success']]);
    expect(byCreate.logs[0]).toMatchObject({ requestId: 'req-create-24', request_id: 'req-create-24' });
    expect(byCreate.pagination.total).toBe(1);

    // An id Herald generated (the caller sent none) is in the answer's x-request-id header and works the same.
    const un = await ctx.app.inject({ method: 'POST', url: `/v1/posts/${created}/unpublish`, headers: tenant.headers, payload: {} });
    expect(un.statusCode, un.body).toBe(200);
    const unpublishId = String(un.headers['x-request-id']);
    const byUnpublish = (await get(tenant, `/v1/logs?requestId=${encodeURIComponent(unpublishId)}`)).json().logs;
    expect(byUnpublish.map((l: { postId: string; action: string; requestId: string }) => [l.postId, l.action, l.requestId])).toEqual([[created, 'unpublish', unpublishId]]);
    // The creating request still finds only the publish it spawned; the post's own logs show both ids.
    expect((await get(tenant, '/v1/logs?requestId=req-create-24')).json().logs).toHaveLength(1);
    const both = (await get(tenant, `/v1/posts/${created}/logs`)).json().logs.map((l: { requestId: string }) => l.requestId);
    expect(both).toEqual([unpublishId, 'req-create-24']);
    expect((await get(tenant, '/v1/logs?requestId=req-create-24&status=failed')).json().logs).toEqual([]);
    expect((await get(tenant, '/v1/logs?requestId=no-such-request')).json().logs).toEqual([]);
    expect((await get(other, '/v1/logs?requestId=req-create-24')).json().logs).toEqual([]);
  });

  it('answers 404 for another tenant\'s post and entry, and never lists them', async () => {
    const postId = await scheduled(other, 'theirs #http422', otherAcc);
    await runDue(ctx, worker, postId);
    const theirs = (await get(other, '/v1/logs')).json().logs;
    expect(theirs).toHaveLength(1);
    expect((await get(tenant, `/v1/posts/${postId}/logs`)).statusCode).toBe(404);
    expect((await get(tenant, `/v1/logs/${theirs[0]._id}`)).statusCode).toBe(404);
    expect((await get(tenant, `/v1/logs?postId=${postId}`)).json().logs).toEqual([]);
  });

  it('refuses bad filters with 400 naming the field', async () => {
    for (const [q, field] of [['status=done', 'status'], ['limit=1000', 'limit'], ['days=91', 'days'], ['from=yesterday', 'from'], ['action=delete', 'action'],
      ['type=audit', 'type'], ['search=', 'search'], [`search=${'x'.repeat(201)}`, 'search'], [`requestId=${'r'.repeat(129)}`, 'requestId']] as const) {
      const res = await get(tenant, `/v1/logs?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(Object.keys(res.json().details.fields).join(), q).toContain(field);
    }
    expect((await get(tenant, '/v1/logs/not-a-number')).statusCode).toBe(400);
    expect((await get(tenant, `/v1/logs/${'f'.repeat(24)}`)).statusCode).toBe(404);
  });

  it('prunes entries older than 90 days, keeping those of targets still waiting', async () => {
    const done = await scheduled(tenant, 'old and done #http422', acc);
    await runDue(ctx, worker, done);
    const waiting = await scheduled(tenant, 'old and waiting #ratelimit', acc);
    await runDue(ctx, worker, waiting);
    await ctx.db.query(`UPDATE publish_attempts SET started_at = now() - interval '91 days' WHERE post_id = ANY($1)`, [[done, waiting]]);
    const pruned = await ctx.services.publishingLog.prune();
    expect(pruned).toBe(1);
    expect((await get(tenant, `/v1/posts/${done}/logs`)).json().logs).toEqual([]);
    const kept = await ctx.db.query('SELECT 1 FROM publish_attempts WHERE post_id = $1', [waiting]);
    expect(kept.rowCount).toBe(1);
  });

  it('the worker\'s maintenance also drops duplicate claims past their 24 hours', async () => {
    const fresh = await scheduled(tenant, 'claimed fresh', acc);
    const old = await scheduled(tenant, 'claimed long ago', acc);
    await ctx.db.query(`UPDATE post_content_claims SET claimed_at = now() - interval '25 hours' WHERE post_id = $1`, [old]);
    const r = await ctx.services.publishingLog.pruneExpired();
    expect(r.claims).toBe(1);
    const { rows } = await ctx.db.query('SELECT post_id FROM post_content_claims WHERE post_id = ANY($1)', [[fresh, old]]);
    expect(rows.map((x) => x.post_id)).toEqual([fresh]);
  });
});
