/**
 * Validation tools: POST /v1/tools/validate/post runs the create pipeline without saving
 * (rules, accounts, schedule, duplicates); POST /v1/tools/validate/post-length measures a
 * text in each platform's unit (X weighted).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORMS } from '../../src/shared/platforms.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let tenant: Tenant;
let other: Tenant;
let acc: string;
let otherAcc: string;

beforeAll(async () => {
  ctx = await createTestApp();
  tenant = await createTenant(ctx);
  other = await createTenant(ctx);
  acc = await insertAccount(ctx, tenant, await createProfile(ctx, tenant));
  otherAcc = await insertAccount(ctx, other, await createProfile(ctx, other));
});
afterAll(async () => { await ctx.close(); });

const post = (t: Tenant, url: string, payload: unknown) => ctx.app.inject({ method: 'POST', url, headers: t.headers, payload: payload as object });
const postCount = async () => (await ctx.db.query('SELECT count(*)::int AS n FROM posts WHERE tenant_id = $1', [tenant.userId])).rows[0].n;

describe('POST /v1/tools/validate/post', () => {
  it('accepts a valid post and saves nothing', async () => {
    const res = await post(tenant, '/v1/tools/validate/post', { content: 'Fits fine', platforms: [{ platform: 'bluesky', accountId: acc }] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ valid: true, errors: [], fields: {} });
    expect(await postCount()).toBe(0);
  });

  it('reports every rule the create route would refuse, by field and platform, even for a would-be draft', async () => {
    const res = await post(tenant, '/v1/tools/validate/post', {
      content: 'x'.repeat(301), isDraft: true, scheduledFor: 'tomorrow', platforms: [{ platform: 'bluesky', accountId: acc }],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.valid).toBe(false);
    expect(Object.keys(body.fields)).toContain('scheduledFor');
    const create = await post(tenant, '/v1/posts', { content: 'x'.repeat(301), scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: acc }] });
    expect(create.statusCode).toBe(400);
    const v = (await post(tenant, '/v1/tools/validate/post', { content: 'x'.repeat(301), scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: acc }] })).json();
    expect(v.fields).toEqual(create.json().details.fields);
    expect(v.errors.some((e: { platform?: string; error: string }) => e.platform === 'bluesky' || /300/.test(e.error))).toBe(true);
    expect(await postCount()).toBe(0);
  });

  it('says when the post would be a duplicate, and treats another tenant\'s account as unknown', async () => {
    expect((await post(tenant, '/v1/posts', { content: 'Once only', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: acc }] })).statusCode).toBe(201);
    const dup = (await post(tenant, '/v1/tools/validate/post', { content: 'Once only', platforms: [{ platform: 'bluesky', accountId: acc }] })).json();
    expect(dup).toMatchObject({ valid: false, duplicateOf: { accountId: acc } });
    expect((await post(tenant, '/v1/tools/validate/post', { content: 'Once only', allowDuplicate: true, platforms: [{ platform: 'bluesky', accountId: acc }] })).json().valid).toBe(true);
    const foreign = (await post(tenant, '/v1/tools/validate/post', { content: 'Hi', platforms: [{ platform: 'bluesky', accountId: otherAcc }] })).json();
    expect(foreign.valid).toBe(false);
    expect(Object.keys(foreign.fields)).toContain('platforms.0.accountId');
  });

  it('checks a queued post\'s queue as the create route takes its slot: none, unknown, inactive, then one that answers', async () => {
    const profileId = await createProfile(ctx, tenant, 'queued');
    const queuedAcc = await insertAccount(ctx, tenant, profileId, 'bluesky');
    const queued = (extra: object = {}) => post(tenant, '/v1/tools/validate/post', {
      content: 'Into the queue', queuedFromProfile: profileId, platforms: [{ platform: 'bluesky', accountId: queuedAcc }], ...extra });
    const create = (extra: object = {}) => post(tenant, '/v1/posts', {
      content: 'Into the queue', queuedFromProfile: profileId, platforms: [{ platform: 'bluesky', accountId: queuedAcc }], ...extra });
    // Each time the create route refuses the post for the same field, validate_post names it.
    const noQueue = (await queued()).json();
    expect(noQueue).toMatchObject({ valid: false, errors: [{ field: 'queuedFromProfile' }] });
    expect(Object.keys(noQueue.fields)).toEqual(['queuedFromProfile']);
    expect((await create()).json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { queuedFromProfile: [expect.any(String)] } } });
    expect((await ctx.app.inject({ method: 'PUT', url: '/v1/queue/slots', headers: tenant.headers,
      payload: { profileId, timezone: 'UTC', slots: [{ dayOfWeek: 1, time: '09:00' }], active: false } })).statusCode).toBe(200);
    const inactive = (await queued()).json();
    expect(inactive).toMatchObject({ valid: false, errors: [{ field: 'queuedFromProfile' }] });
    expect(inactive.errors[0].error).not.toBe(noQueue.errors[0].error); // another rule than "no queue"
    expect((await create()).json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { queuedFromProfile: [expect.any(String)] } } });
    const unknown = (await queued({ queueId: 'ffffffffffffffffffffffff' })).json();
    expect(unknown).toMatchObject({ valid: false, errors: [{ field: 'queueId' }] });
    // The create route answers 404 for the unknown queue, naming the field.
    const refused = await create({ queueId: 'ffffffffffffffffffffffff' });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'NOT_FOUND', details: { field: 'queueId' } });
    expect((await ctx.app.inject({ method: 'PUT', url: '/v1/queue/slots', headers: tenant.headers,
      payload: { profileId, timezone: 'UTC', slots: [{ dayOfWeek: 1, time: '09:00' }], active: true } })).statusCode).toBe(200);
    expect((await queued()).json()).toMatchObject({ valid: true, errors: [] });
    expect(await postCount()).toBe(1); // the duplicate test's post only: validating wrote nothing
  });

  it('answers 400 naming the field for a malformed body', async () => {
    const res = await post(tenant, '/v1/tools/validate/post', { content: 5, platforms: 'bluesky' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields).toBeTruthy();
  });
});

describe('POST /v1/tools/validate/post-length', () => {
  it('counts in each platform\'s unit: X weighted (URLs 23, emoji 2), Bluesky graphemes', async () => {
    const text = 'Hello 👋🏽 https://example.com/a/very/long/path/that/is/longer/than/23';
    const res = await post(tenant, '/v1/tools/validate/post-length', { text });
    expect(res.statusCode).toBe(200);
    const { platforms, weightedLength } = res.json();
    expect(weightedLength).toBe(6 + 2 + 1 + 23);
    expect(platforms.twitter).toMatchObject({ count: 32, limit: 280, valid: true, unit: 'weighted characters' });
    expect(platforms.bluesky).toMatchObject({ count: [...new Intl.Segmenter().segment(text)].length, limit: 300, valid: true });
    // Every platform, each in its own unit.
    expect(Object.keys(platforms).sort()).toEqual([...PLATFORMS].sort());
    expect(platforms.telegram).toMatchObject({ limit: 4096, valid: true });
    expect(platforms.discord).toMatchObject({ limit: 2000, valid: true });
    const long = (await post(tenant, '/v1/tools/validate/post-length', { text: '日本'.repeat(100) })).json();
    expect(long.platforms.twitter).toMatchObject({ count: 400, valid: false, remaining: -120 });
  });

  it('answers 400 naming the field without text', async () => {
    const res = await post(tenant, '/v1/tools/validate/post-length', {});
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().details.fields).join()).toContain('text');
  });
});
