/**
 * errorCategory and errorSource of failed targets (docs/decisions/0063-validation-error-categories-scoped-keys.md):
 * exactly the official client's enums, Herald's failure reasons mapped in one table, and what the
 * publisher stores for each kind of failure, as the post's response shows it (real app, real
 * PostgreSQL, a scripted platform).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdapterError } from '../../src/platforms/types.ts';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import type { Publisher } from '../../src/publishing/publisher.ts';
import { isMediaError, MEDIA_DOWNLOAD_ERROR_CODE, MEDIA_ERROR_CODE, transientReason } from '../../src/publishing/failure-reasons.ts';
import { ERROR_CATEGORIES, ERROR_SOURCE_OF, ERROR_SOURCES, FAILURE_REASONS, errorSourceOf, asErrorCategory } from '../../src/shared/failure-categories.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { runDue, startTestPublisher } from '../support/publishing.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';

/** The members of a string-literal union type `name` in the official client's types. */
function clientEnum(name: string): string[] {
  const dts = fs.readFileSync('node_modules/@getlatedev/node/dist/index.d.ts', 'utf8');
  const m = new RegExp(`^type ${name} = ([^;]+);`, 'm').exec(dts);
  if (!m) throw new Error(`type ${name} not found in the client's types`);
  return [...m[1].matchAll(/'([^']+)'/g)].map((x) => x[1]);
}

describe('the tables', () => {
  it('use exactly the official client\'s errorCategory and errorSource values', () => {
    expect([...ERROR_CATEGORIES].sort()).toEqual(clientEnum('errorCategory').sort());
    expect([...ERROR_SOURCES].sort()).toEqual(clientEnum('errorSource').sort());
    expect(Object.keys(ERROR_SOURCE_OF).sort()).toEqual([...ERROR_CATEGORIES].sort());
  });

  it('map every failure reason to a category, and derive the source from it', () => {
    for (const [reason, r] of Object.entries(FAILURE_REASONS)) {
      expect(ERROR_CATEGORIES, reason).toContain(r.category);
      expect(r.what.length, reason).toBeGreaterThan(10);
    }
    expect(errorSourceOf('auth_expired')).toBe('user');
    expect(errorSourceOf('platform_error')).toBe('platform');
    expect(errorSourceOf('system_error')).toBe('system');
    expect(errorSourceOf(null)).toBeNull();
    expect(asErrorCategory('something old')).toBe('unknown');
  });

  it('tell media failures, 5xx and unreachable platforms apart', () => {
    expect(isMediaError(new AdapterError('rejected', 'x', { platformCode: MEDIA_ERROR_CODE }))).toBe(true);
    expect(isMediaError(new AdapterError('rejected', 'x', { platformCode: '190' }))).toBe(false);
    expect(transientReason(new AdapterError('transient', 'x', { platformCode: MEDIA_DOWNLOAD_ERROR_CODE }))).toBe('media_unreachable');
    expect(transientReason(new AdapterError('transient', 'x', { status: 503 }))).toBe('platform_unavailable');
    expect(transientReason(new AdapterError('transient', 'ECONNRESET'))).toBe('network');
    expect(transientReason(new AdapterError('auth_expired', 'x', { status: 401 }))).toBe('token_expired');
  });
});

describe('what a failed target shows', () => {
  let ctx: TestContext;
  let publisher: Publisher;
  let tenant: Tenant;
  let profileId: string;
  let accountId: string;

  beforeAll(async () => {
    ctx = await createTestApp({ deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: new ScriptedAdapter() }) } });
    publisher = await startTestPublisher(ctx, 'failure-categories');
    tenant = await createTenant(ctx);
    profileId = await createProfile(ctx, tenant);
    accountId = await insertAccount(ctx, tenant, profileId);
  });
  afterAll(async () => { await ctx?.close(); });

  async function publish(content: string, account = accountId, before?: () => Promise<unknown>) {
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: tenant.headers, payload: { content, scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: account }] } });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().post._id as string;
    await before?.();
    await runDue(ctx, publisher, id);
    const read = await ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: tenant.headers });
    return read.json().post.platforms[0] as { status: string; errorMessage: string | null; errorCategory: string | null; errorSource: string | null };
  }

  it('a platform\'s refusal (rejected, HTTP 422): platform_rejected, the user\'s', async () => {
    expect(await publish('refused #reject')).toMatchObject({ status: 'failed', errorCategory: 'platform_rejected', errorSource: 'user' });
    expect(await publish('unprocessable #http422')).toMatchObject({ status: 'failed', errorCategory: 'platform_rejected', errorSource: 'user' });
  });

  it('a platform\'s 429: platform_rate_limit, the platform\'s, while the retry waits', async () => {
    expect(await publish('throttled #ratelimit')).toMatchObject({ status: 'pending', errorCategory: 'platform_rate_limit', errorSource: 'platform' });
  });

  it('an account that needs reconnecting: auth_expired; a disconnected one: account_issue', async () => {
    const stale = await insertAccount(ctx, tenant, profileId);
    expect(await publish('needs a reconnect', stale, () => ctx.db.query('UPDATE accounts SET is_active = false WHERE id = $1', [stale])))
      .toMatchObject({ status: 'failed', errorCategory: 'auth_expired', errorSource: 'user' });
    const gone = await insertAccount(ctx, tenant, profileId);
    expect(await publish('account removed', gone, () => ctx.db.query('DELETE FROM accounts WHERE id = $1', [gone])))
      .toMatchObject({ status: 'failed', errorCategory: 'account_issue', errorSource: 'user' });
  });

  it('a published target has neither', async () => {
    expect(await publish('all fine')).toMatchObject({ status: 'published', errorCategory: null, errorSource: null });
  });
});
