/**
 * Account health: GET /v1/accounts/health (summary and per account) and
 * GET /v1/accounts/{id}/health (token status, permissions, recommendations, last publish).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import type { Publisher } from '../../src/publishing/publisher.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';
import { runDue, startTestPublisher } from '../support/publishing.ts';

let ctx: TestContext;
let worker: Publisher;
let tenant: Tenant;
let other: Tenant;
let healthy: string;
let failing: string;
let revoked: string;
let otherAcc: string;

beforeAll(async () => {
  ctx = await createTestApp({ deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: new ScriptedAdapter() }) } });
  worker = await startTestPublisher(ctx, 'health');
  tenant = await createTenant(ctx);
  other = await createTenant(ctx);
  const profileId = await createProfile(ctx, tenant);
  healthy = await insertAccount(ctx, tenant, profileId);
  failing = await insertAccount(ctx, tenant, profileId);
  revoked = await insertAccount(ctx, tenant, profileId, 'bluesky', { isActive: false });
  await ctx.db.query(`UPDATE accounts SET inactive_reason = 'token revoked' WHERE id = $1`, [revoked]);
  otherAcc = await insertAccount(ctx, other, await createProfile(ctx, other));
  for (const [acc, text] of [[healthy, 'all good'], [failing, 'no good #http422']]) {
    const res = await ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: tenant.headers,
      payload: { content: text, scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: acc }] },
    });
    await runDue(ctx, worker, res.json().post._id);
  }
});
afterAll(async () => { await ctx.close(); });

const get = (t: Tenant, url: string) => ctx.app.inject({ method: 'GET', url, headers: t.headers });

describe('account health', () => {
  it('summarises every account and gives each one\'s status, token state and last publish', async () => {
    const res = await get(tenant, '/v1/accounts/health');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.summary).toEqual({ total: 3, healthy: 1, warning: 1, error: 1, needsReconnect: 1 });
    const by = Object.fromEntries(body.accounts.map((a: { accountId: string }) => [a.accountId, a]));
    expect(by[healthy]).toMatchObject({ status: 'healthy', canPost: true, tokenValid: true, needsReconnect: false, issues: [], lastPublish: { status: 'success', action: 'publish' } });
    expect(by[failing]).toMatchObject({ status: 'warning', canPost: true, lastPublish: { status: 'failed', errorCategory: 'platform_rejected' } });
    expect(by[failing].issues[0]).toContain('Invalid record');
    expect(by[revoked]).toMatchObject({ status: 'error', canPost: false, tokenValid: false, needsReconnect: true, lastPublish: null });
    expect(by[revoked].issues[0]).toContain('token revoked');
    expect(by[otherAcc]).toBeUndefined();
  });

  it('gives one account\'s token status, permissions and recommendations', async () => {
    const expires = new Date(Date.now() + 5 * 3_600_000);
    await ctx.db.query(`UPDATE accounts SET token_expires_at = $2, permissions = '{posts:write}' WHERE id = $1`, [healthy, expires]);
    const res = await get(tenant, `/v1/accounts/${healthy}/health`);
    expect(res.statusCode).toBe(200);
    const h = res.json();
    expect(h.tokenStatus).toMatchObject({ valid: true, expiresAt: expires.toISOString(), needsRefresh: true, refreshable: false });
    expect(h.tokenStatus.expiresIn).toMatch(/^(4|5) hours?$/);
    expect(h.permissions).toMatchObject({ canPost: true, canFetchAnalytics: false, missingRequired: ['posts:read'] });
    expect(h.permissions.posting).toEqual([{ scope: 'posts:write', granted: true, required: true }]);
    expect(h.status).toBe('warning');
    expect(h.recommendations.join(' ')).toMatch(/Reconnect/);
    const r = (await get(tenant, `/v1/accounts/${revoked}/health`)).json();
    expect(r.recommendations[0]).toMatch(/Reconnect the bluesky account/);
  });

  it('warns only about what needs the user: a token Herald renews is healthy however soon it expires; a failed renewal is not', async () => {
    const profileId = await createProfile(ctx, other);
    const x = await insertAccount(ctx, other, profileId, 'twitter', { username: 'renews' });
    // X tokens last two hours and are renewed by Herald: right after connecting one expires within the hour.
    await ctx.db.query('UPDATE accounts SET token_expires_at = $2 WHERE id = $1', [x, new Date(Date.now() + 50 * 60_000)]);
    const fresh = (await get(other, '/v1/accounts/health')).json();
    expect(fresh.summary).toMatchObject({ total: 2, healthy: 2, warning: 0, error: 0 });
    const h = (await get(other, `/v1/accounts/${x}/health`)).json();
    expect(h).toMatchObject({ status: 'healthy', issues: [], recommendations: [], tokenStatus: { needsRefresh: true, refreshable: true, valid: true } });
    // Past its expiry, with no failed renewal, it is still Herald's job (it renews on the next publish at the latest).
    await ctx.db.query('UPDATE accounts SET token_expires_at = $2 WHERE id = $1', [x, new Date(Date.now() - 60_000)]);
    expect((await get(other, `/v1/accounts/${x}/health`)).json()).toMatchObject({ status: 'healthy', issues: [] });

    // A renewal that failed: a warning while the token lasts, saying Herald tries again...
    await ctx.db.query('UPDATE accounts SET token_expires_at = $2 WHERE id = $1', [x, new Date(Date.now() + 50 * 60_000)]);
    const refresh = (outcome: 'failed' | 'success') => ctx.services.publishingLog.write({
      tenantId: null, accountId: x, platform: 'twitter', action: 'token_refresh', outcome,
      error: outcome === 'failed' ? 'X answered 503 Service Unavailable' : null, errorCategory: outcome === 'failed' ? 'platform_error' : null, durationMs: 20, workerId: 'token-refresh',
    });
    await refresh('failed');
    const warned = (await get(other, `/v1/accounts/${x}/health`)).json();
    expect(warned).toMatchObject({ status: 'warning', canPost: true, needsReconnect: false });
    expect(warned.issues).toEqual(['Herald could not renew the access token: X answered 503 Service Unavailable']);
    expect(warned.recommendations[0]).toMatch(/tries again before the token expires .*reconnect the twitter account/);
    // ...an error once the token has expired with it...
    await ctx.db.query('UPDATE accounts SET token_expires_at = $2 WHERE id = $1', [x, new Date(Date.now() - 60_000)]);
    const expired = (await get(other, `/v1/accounts/${x}/health`)).json();
    expect(expired).toMatchObject({ status: 'error', canPost: false, tokenValid: false, needsReconnect: true });
    expect(expired.issues[0]).toMatch(/^The access token has expired and Herald could not renew it/);
    // ...and healthy again after a renewal that worked.
    await refresh('success');
    await ctx.db.query('UPDATE accounts SET token_expires_at = $2 WHERE id = $1', [x, new Date(Date.now() + 2 * 3_600_000)]);
    expect((await get(other, `/v1/accounts/${x}/health`)).json()).toMatchObject({ status: 'healthy', issues: [] });
  });

  it('answers 404 for another tenant\'s account and 400 for a malformed id', async () => {
    expect((await get(tenant, `/v1/accounts/${otherAcc}/health`)).statusCode).toBe(404);
    expect((await get(other, `/v1/accounts/${healthy}/health`)).statusCode).toBe(404);
    expect((await get(tenant, '/v1/accounts/nope/health')).statusCode).toBe(400);
  });
});
