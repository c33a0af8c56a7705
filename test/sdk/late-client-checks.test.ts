/**
 * The official client `@getlatedev/node` over real HTTP, in sandbox mode (the Reddit simulator),
 * against the checks of decision 0063 (validation, error categories, profile-scoped keys):
 *   1. `validate.validateMedia` and `validate.validateSubreddit`;
 *   2. `errorCategory` and `errorSource` of a failed target, read with `posts.getPost`;
 *   3. profile-scoped keys created with `apiKeys.createApiKey({ scope: 'profiles', profileIds })`:
 *      the key's client sees its profile only, and gets 404 for another profile's post and account.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Zernio, ZernioApiError } from '@getlatedev/node';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { ERROR_CATEGORIES, ERROR_SOURCES } from '../../src/shared/failure-categories.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { makeImage } from '../support/media.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { oauthConnect } from '../support/oauth.ts';
import { runDue, startTestPublisher } from '../support/publishing.ts';

let sandbox: Sandbox;
let ctx: TestContext;
let media: MediaServer;
let t: Tenant;
let sdk: Zernio;
let base: string;
let brand: string;
let other: string;
let reddit: string;
let otherAccount: string;

beforeAll(async () => {
  sandbox = await startSandbox({ bluesky: false });
  ctx = await createTestApp({ listen: true, env: { HERALD_SANDBOX: 'on' }, deps: { sandbox } });
  media = await startMediaServer();
  t = await createTenant(ctx);
  brand = await createProfile(ctx, t, 'Brand');
  other = await createProfile(ctx, t, 'Other brand');
  const { done } = await oauthConnect(ctx, t, 'reddit', brand);
  reddit = new URL(done.headers.location as string).searchParams.get('accountId')!;
  otherAccount = await insertAccount(ctx, t, other, 'bluesky');
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  sdk = new Zernio({ apiKey: t.apiKey, baseURL: base });
}, 120_000);
afterAll(async () => { await media?.close(); await ctx?.close(); await sandbox?.close(); });

describe('1. validate.validateMedia and validate.validateSubreddit', () => {
  it('judges a media URL with the client\'s fields', async () => {
    const url = media.put('/photo.jpg', makeImage({ format: 'jpeg', width: 1080, height: 1350 }), 'image/jpeg');
    const res = await sdk.validate.validateMedia({ body: { url } });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ valid: true, url, contentType: 'image/jpeg', type: 'image', size: expect.any(Number), sizeFormatted: expect.stringMatching(/KB$/) });
    expect(res.data!.platformLimits!.instagram).toMatchObject({ limit: 8 * 1024 * 1024, limitFormatted: '8 MB', withinLimit: true });
    const missing = await sdk.validate.validateMedia({ body: { url: `${media.url}/gone.jpg` } });
    expect(missing.data).toMatchObject({ valid: false, error: expect.any(String) });
  });

  it('looks a subreddit up through the Reddit account', async () => {
    const res = await sdk.validate.validateSubreddit({ query: { name: 'r/test', accountId: reddit } });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ exists: true, subreddit: { name: 'test', type: 'public', isNSFW: false, allowImages: true, allowVideos: true, subscribers: expect.any(Number) } });
    // accountId is optional in the client: the caller's Reddit account reads then.
    const none = await sdk.validate.validateSubreddit({ query: { name: 'nosuchplace' } });
    expect(none.data).toMatchObject({ exists: false, error: expect.any(String) });
  });
});

describe('2. errorCategory and errorSource', () => {
  it('a post Reddit refuses (a restricted subreddit) reads back failed, platform_rejected, the user\'s', async () => {
    const created = await sdk.posts.createPost({ body: {
      content: 'A title for a restricted place\nand a body', scheduledFor: '2030-01-01T00:00:00Z',
      platforms: [{ platform: 'reddit', accountId: reddit, platformSpecificData: { subreddit: 'approvedonly' } }],
    } });
    const postId = created.data!.post!._id as string;
    await runDue(ctx, await startTestPublisher(ctx, 'sdk-checks'), postId);
    const read = await sdk.posts.getPost({ path: { postId } });
    const target = read.data!.post!.platforms![0];
    expect(target).toMatchObject({ status: 'failed', errorCategory: 'platform_rejected', errorSource: 'user', errorMessage: expect.stringContaining('allowed to post') });
    expect(ERROR_CATEGORIES).toContain(target.errorCategory);
    expect(ERROR_SOURCES).toContain(target.errorSource);
  });
});

describe('3. profile-scoped API keys', () => {
  it('are created with the client\'s scope and profileIds, and reach only their profile', async () => {
    const made = await sdk.apiKeys.createApiKey({ body: { name: 'brand only', scope: 'profiles', profileIds: [brand], permission: 'read-write' } });
    expect(made.response.status).toBe(201);
    expect(made.data!.apiKey).toMatchObject({ scope: 'profiles', profileIds: [{ _id: brand, name: 'Brand' }], permission: 'read-write', key: expect.stringMatching(/^sk_/) });
    const listed = await sdk.apiKeys.listApiKeys();
    expect(listed.data!.apiKeys!.find((k: { name?: string }) => k.name === 'brand only')).toMatchObject({ scope: 'profiles', profileIds: [{ _id: brand }] });

    const scoped = new Zernio({ apiKey: made.data!.apiKey!.key!, baseURL: base });
    const accounts = await scoped.accounts.listAccounts();
    expect(accounts.data!.accounts!.map((a: { _id?: string }) => a._id)).toEqual([reddit]);
    const profiles = await scoped.profiles.listProfiles();
    expect(profiles.data!.profiles!.map((p: { _id?: string }) => p._id)).toEqual([brand]);

    const foreign = await sdk.posts.createPost({ body: { content: 'other brand', isDraft: true, platforms: [{ platform: 'bluesky', accountId: otherAccount }] } });
    const statusOf = async (call: () => Promise<unknown>) => {
      try { await call(); } catch (e) { expect(e).toBeInstanceOf(ZernioApiError); return (e as ZernioApiError).statusCode; }
      return 200;
    };
    expect(await statusOf(() => scoped.posts.getPost({ path: { postId: foreign.data!.post!._id as string } }))).toBe(404);
    expect(await statusOf(() => scoped.accounts.getAccountHealth({ path: { accountId: otherAccount } }))).toBe(404);
    expect(await statusOf(() => scoped.posts.createPost({ body: { content: 'not mine', isDraft: true, platforms: [{ platform: 'bluesky', accountId: otherAccount }] } }))).toBeGreaterThanOrEqual(400);
    // A key it makes is within it.
    expect(await statusOf(() => scoped.apiKeys.createApiKey({ body: { name: 'wider', scope: 'full' } }))).toBe(400);
    expect(await statusOf(() => scoped.apiKeys.createApiKey({ body: { name: 'same', scope: 'profiles', profileIds: [brand] } }))).toBe(200);
  });
});
