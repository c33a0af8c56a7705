/**
 * The official client `@getlatedev/node` (pinned 0.2.869) against a running Herald over
 * real HTTP: `new Zernio({ apiKey, baseURL: 'http://127.0.0.1:<port>' })`
 * calls `baseURL + '/v1/...'`. Every call goes through the SDK's own request
 * serialisation and its response interceptor, which throws `parseApiError(...)` on any
 * non-2xx answer (so an error body Herald gets wrong shows up here as the wrong class
 * or missing fields).
 *
 * 0.2.869 builds one hey-api client per instance (the SDK's own source; <=0.2.4 shared one
 * global client and sent the last-constructed instance's key on every call); the first
 * test checks that, so the rest may use several instances side by side.
 *
 * Typing note: the SDK's index.d.ts imports `@hey-api/client-fetch`, which is only a
 * devDependency of the SDK (the runtime is bundled), so every call's result type
 * degrades to `any` in a consumer; callbacks below are annotated with the SDK's own
 * exported schema types instead.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitError, ValidationError, Zernio, ZernioApiError, type ApiKey, type Post, type Profile, type SocialAccount } from '@getlatedev/node';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';

let ctx: TestContext;
let adapter: ScriptedAdapter;
let baseURL: string;

beforeAll(async () => {
  adapter = new ScriptedAdapter();
  ctx = await createTestApp({
    listen: true,
    deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: adapter }) },
  });
  baseURL = urlOf(ctx);
});
afterAll(async () => { await ctx?.close(); });

function urlOf(c: TestContext): string {
  const { port } = c.app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

const clientFor = (t: Tenant | string, url = baseURL) => new Zernio({ apiKey: typeof t === 'string' ? t : t.apiKey, baseURL: url });

/** Awaits a call that must reject, and returns what it rejected with. */
async function rejection(p: Promise<unknown>): Promise<ZernioApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ZernioApiError);
    return err as ZernioApiError;
  }
  throw new Error('expected the SDK call to reject, but it resolved');
}

async function tenantWithAccount(plan: 'free' | 'advanced' = 'advanced') {
  const t = await createTenant(ctx, { plan });
  const profileId = await createProfile(ctx, t);
  const accountId = await insertAccount(ctx, t, profileId, 'bluesky');
  return { t, profileId, accountId, sdk: clientFor(t) };
}

describe('client mechanics', () => {
  it('0.2.869 keeps one HTTP client per instance: each instance sends its own key', async () => {
    const a = await createTenant(ctx);
    const b = await createTenant(ctx);
    const sdkA = clientFor(a);
    const sdkB = clientFor(b); // constructed last: with the <=0.2.4 bug, A's calls would carry B's key
    const [fromA, fromB] = await Promise.all([sdkA.users.listUsers(), sdkB.users.listUsers()]);
    expect(fromA.data?.currentUserId).toBe(a.userId);
    expect(fromB.data?.currentUserId).toBe(b.userId);
    expect((await sdkA.users.listUsers()).data?.currentUserId).toBe(a.userId);
    expect(fromA.request.headers.get('authorization')).toBe(`Bearer ${a.apiKey}`);
    expect(fromA.request.headers.get('user-agent')).toBe('zernio-node/0.2.869');
    expect(fromA.request.url).toBe(`${baseURL}/v1/users`);
  });
});

describe('profiles', () => {
  it('lists, creates, gets, updates and deletes', async () => {
    const t = await createTenant(ctx);
    const sdk = clientFor(t);
    expect((await sdk.profiles.listProfiles()).data?.profiles).toEqual([]);

    const created = await sdk.profiles.createProfile({ body: { name: 'Acme', description: 'Client A', color: '#112233' } });
    expect(created.response.status).toBe(201);
    expect(created.data?.message).toEqual(expect.any(String));
    const profile = created.data!.profile!;
    expect(profile).toMatchObject({ name: 'Acme', description: 'Client A', color: '#112233', isDefault: true, userId: t.userId });
    expect(profile._id).toMatch(/^[0-9a-f]{24}$/);
    const second = (await sdk.profiles.createProfile({ body: { name: 'Beta' } })).data!.profile!;

    const list = await sdk.profiles.listProfiles();
    expect(list.data?.profiles?.map((p: Profile) => p.name)).toEqual(['Acme', 'Beta']);

    const got = await sdk.profiles.getProfile({ path: { profileId: profile._id! } });
    expect(got.data?.profile).toMatchObject({ _id: profile._id, name: 'Acme' });

    const updated = await sdk.profiles.updateProfile({ path: { profileId: second._id! }, body: { name: 'Beta 2', description: null, color: '#abcdef', isDefault: true } });
    expect(updated.response.status).toBe(200);
    expect(updated.data?.profile).toMatchObject({ _id: second._id, name: 'Beta 2', color: '#abcdef', isDefault: true });
    expect((await sdk.profiles.getProfile({ path: { profileId: profile._id! } })).data?.profile?.isDefault).toBe(false);

    const deleted = await sdk.profiles.deleteProfile({ path: { profileId: profile._id! } });
    expect(deleted.response.status).toBe(200);
    expect(deleted.data?.message).toEqual(expect.any(String));
    const gone = await rejection(sdk.profiles.getProfile({ path: { profileId: profile._id! } }));
    expect(gone.statusCode).toBe(404);
    expect(gone.code).toBe('NOT_FOUND');
    expect((await sdk.profiles.listProfiles()).data?.profiles?.map((p: Profile) => p._id)).toEqual([second._id]);
  });

  it('a duplicate name rejects with the SDK ValidationError carrying .fields', async () => {
    const t = await createTenant(ctx);
    const sdk = clientFor(t);
    await sdk.profiles.createProfile({ body: { name: 'Same' } });
    const err = await rejection(sdk.profiles.createProfile({ body: { name: 'same' } }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.statusCode).toBe(400);
    expect(err.code).toBe('VALIDATION_ERROR');
    expect((err as ValidationError).fields!.name[0]).toMatch(/unique/);
    expect(err.message).toMatch(/already exists/);
    // Schema validation failures take the same path.
    const bad = await rejection(sdk.profiles.createProfile({ body: { name: '', color: 'red' } }));
    expect(bad).toBeInstanceOf(ValidationError);
    expect(Object.keys((bad as ValidationError).fields!).sort()).toEqual(['color', 'name']);
    expect((await sdk.profiles.listProfiles()).data?.profiles).toHaveLength(1);
  });

  it('the plan limit rejects with statusCode 403 and the post-limit body of decision 0003 on err.body', async () => {
    const t = await createTenant(ctx, { plan: 'free' });
    const sdk = clientFor(t);
    for (const name of ['One', 'Two']) expect((await sdk.profiles.createProfile({ body: { name } })).response.status).toBe(201);
    const err = await rejection(sdk.profiles.createProfile({ body: { name: 'Three' } }));
    expect(err).not.toBeInstanceOf(ValidationError);
    expect(err.statusCode).toBe(403);
    expect(err.isForbidden()).toBe(true);
    expect(err.code).toBe('PLAN_LIMIT_REACHED');
    expect(err.message).toBe('Profile limit reached. Your Free plan allows 2 profiles. You currently have 2.');
    expect(err.body).toMatchObject({ planName: 'Free', limit: 2, current: 2 });
    expect(err.details).toMatchObject({ resource: 'profiles', limit: 2, currentUsage: 2 });
  });
});

describe('API keys', () => {
  it('lists, creates (the key is returned once) and deletes', async () => {
    const t = await createTenant(ctx);
    const sdk = clientFor(t);
    const before = (await sdk.apiKeys.listApiKeys()).data!.apiKeys!;
    expect(before).toHaveLength(1);
    expect(before[0]).not.toHaveProperty('key');

    const created = await sdk.apiKeys.createApiKey({ body: { name: 'CI key', expiresIn: 30 } });
    expect(created.response.status).toBe(201);
    const apiKey = created.data!.apiKey!;
    expect(apiKey).toMatchObject({ name: 'CI key', id: expect.any(String), keyPreview: expect.any(String) });
    expect(apiKey.key).toEqual(expect.any(String));
    const expiresInDays = (new Date(apiKey.expiresAt!).getTime() - Date.now()) / 86_400_000;
    expect(expiresInDays).toBeGreaterThan(29.9);
    expect(expiresInDays).toBeLessThanOrEqual(30);

    const listed = (await sdk.apiKeys.listApiKeys()).data!.apiKeys!;
    expect(listed.map((k: ApiKey) => k.name).sort()).toEqual(['CI key', 'test']);
    for (const k of listed) expect(k).not.toHaveProperty('key');
    expect(JSON.stringify(listed)).not.toContain(apiKey.key!);

    // The new key works, with its own client instance.
    const withNewKey = clientFor(apiKey.key!);
    expect((await withNewKey.users.listUsers()).data?.currentUserId).toBe(t.userId);

    const deleted = await sdk.apiKeys.deleteApiKey({ path: { keyId: apiKey.id! } });
    expect(deleted.response.status).toBe(200);
    expect(deleted.data?.message).toEqual(expect.any(String));
    expect((await sdk.apiKeys.listApiKeys()).data!.apiKeys!.map((k: ApiKey) => k.id)).toEqual([before[0].id]);
    const revoked = await rejection(withNewKey.users.listUsers());
    expect(revoked.statusCode).toBe(401);
  });

  it('honours the SDK\'s permission: "read" and refuses restrictions it cannot enforce', async () => {
    const t = await createTenant(ctx);
    const sdk = clientFor(t);
    expect((await sdk.apiKeys.listApiKeys()).data!.apiKeys![0]).toMatchObject({ permission: 'read-write', scope: 'full' });

    const ro = (await sdk.apiKeys.createApiKey({ body: { name: 'read only', permission: 'read' } })).data!.apiKey!;
    expect(ro.permission).toBe('read');
    const readOnly = clientFor(ro.key!);
    expect((await readOnly.profiles.listProfiles()).response.status).toBe(200);
    const denied = await rejection(readOnly.profiles.createProfile({ body: { name: 'Nope' } }));
    expect(denied.statusCode).toBe(403);
    expect(denied.code).toBe('insufficient_permissions');
    expect((await sdk.profiles.listProfiles()).data?.profiles).toEqual([]);

    // Profile-scoped keys are supported (decision 0063): a profile that is not the caller's is refused, naming profileIds.
    const scoped = await rejection(sdk.apiKeys.createApiKey({ body: { name: 'one profile', scope: 'profiles', profileIds: ['0123456789abcdef01234567'] } }));
    expect(scoped).toBeInstanceOf(ValidationError);
    expect(Object.keys((scoped as ValidationError).fields!)).toEqual(['profileIds']);
    const groups = await rejection(sdk.apiKeys.createApiKey({ body: { name: 'no ads', disabledResourceGroups: ['ads'] } }));
    expect(Object.keys((groups as ValidationError).fields!)).toEqual(['disabledResourceGroups']);
    expect((await sdk.apiKeys.listApiKeys()).data!.apiKeys!.map((k: ApiKey) => k.name).sort()).toEqual(['read only', 'test']);
  });
});

describe('users', () => {
  it('lists the team and gets a user', async () => {
    const t = await createTenant(ctx, { email: `sdk-user-${Date.now()}@example.test` });
    const sdk = clientFor(t);
    const list = await sdk.users.listUsers();
    expect(list.data?.currentUserId).toBe(t.userId);
    expect(list.data?.users).toHaveLength(1);
    expect(list.data?.users?.[0]).toMatchObject({ _id: t.userId, isRoot: true, profileAccess: expect.any(Array), createdAt: expect.any(String) });
    const one = await sdk.users.getUser({ path: { userId: t.userId } });
    expect(one.data?.user).toMatchObject({ _id: t.userId, email: list.data!.users![0].email, isRoot: true });
    const other = await createTenant(ctx);
    const err = await rejection(sdk.users.getUser({ path: { userId: other.userId } }));
    expect(err.statusCode).toBe(404);
    expect(err.code).toBe('NOT_FOUND');
  });
});

describe('accounts', () => {
  it('lists accounts filtered by profileId', async () => {
    const { t, profileId, accountId, sdk } = await tenantWithAccount();
    const otherProfile = await createProfile(ctx, t);
    const otherAccount = await insertAccount(ctx, t, otherProfile, 'bluesky');
    const all = await sdk.accounts.listAccounts();
    expect(all.data?.accounts?.map((a: SocialAccount) => a._id).sort()).toEqual([accountId, otherAccount].sort());
    const res = await sdk.accounts.listAccounts({ query: { profileId } });
    expect(res.request.url).toBe(`${baseURL}/v1/accounts?profileId=${profileId}`);
    expect(res.data?.accounts).toHaveLength(1);
    expect(res.data?.accounts?.[0]).toMatchObject({ _id: accountId, platform: 'bluesky', profileId, isActive: true });
    expect(res.data?.hasAnalyticsAccess).toEqual(expect.any(Boolean));
  });
});

describe('posts', () => {
  it('creates a draft', async () => {
    const { sdk } = await tenantWithAccount();
    const res = await sdk.posts.createPost({ body: { content: 'an idea', isDraft: true, tags: ['idea'] } });
    expect(res.response.status).toBe(201);
    expect(res.data).toMatchObject({ message: expect.any(String), post: { status: 'draft', content: 'an idea', tags: ['idea'], platforms: [] } });
  });

  it('schedules with a local time and an IANA time zone', async () => {
    const { sdk, accountId } = await tenantWithAccount();
    const res = await sdk.posts.createPost({ body: {
      content: 'hello Paris', scheduledFor: '2031-06-15T09:30', timezone: 'Europe/Paris', platforms: [{ platform: 'bluesky', accountId }],
    } });
    expect(res.response.status).toBe(201);
    expect(res.data).toMatchObject({ post: { status: 'scheduled', scheduledFor: '2031-06-15T07:30:00.000Z', timezone: 'Europe/Paris' } });
    expect(res.data).toMatchObject({ post: { platforms: [{ platform: 'bluesky', status: 'pending', accountId: { _id: accountId } }] } });
  });

  it('publishNow answers 201 when published, and a partial failure resolves with response.status 207', async () => {
    const { t, profileId, accountId, sdk } = await tenantWithAccount();
    const ok = await sdk.posts.createPost({ body: { content: 'now via SDK', publishNow: true, platforms: [{ platform: 'bluesky', accountId }] } });
    expect(ok.response.status).toBe(201);
    expect(ok.data).toMatchObject({ post: { status: 'published', platforms: [{ status: 'published', platformPostUrl: expect.stringMatching(/^https:\/\/example\.test\/post\//) }] } });
    expect(adapter.commits.filter((c) => c.accountId === accountId).map((c) => c.text)).toEqual(['now via SDK']);

    const second = await insertAccount(ctx, t, profileId, 'bluesky');
    const partial = await sdk.posts.createPost({ body: { content: 'half', publishNow: true, platforms: [
      { platform: 'bluesky', accountId },
      { platform: 'bluesky', accountId: second, customContent: 'this one #reject' },
    ] } });
    expect(partial.response.status).toBe(207);
    expect(partial.error).toBeUndefined();
    expect(partial.data).toMatchObject({ post: { status: 'partial' } });
    expect((partial.data as { platformResults?: unknown[] }).platformResults).toEqual(expect.arrayContaining([
      expect.objectContaining({ platform: 'bluesky', accountId, status: 'published', error: null }),
      expect.objectContaining({ platform: 'bluesky', accountId: second, status: 'failed', error: expect.stringMatching(/rejected/) }),
    ]));
  });

  it('stores and returns hashtags and mentions, and adds the missing ones to the published text', async () => {
    const { sdk, accountId } = await tenantWithAccount();
    const res = await sdk.posts.createPost({ body: {
      content: 'launch day #herald', publishNow: true, hashtags: ['herald', '#Launch'], mentions: ['@bob.test'], platforms: [{ platform: 'bluesky', accountId }],
    } });
    expect(res.response.status).toBe(201);
    expect(res.data).toMatchObject({ post: { status: 'published', hashtags: ['herald', '#Launch'], mentions: ['@bob.test'] } });
    expect(adapter.commits.filter((c) => c.accountId === accountId).map((c) => c.text)).toEqual(['launch day #herald\n\n#Launch @bob.test']);
    const got = await sdk.posts.getPost({ path: { postId: (res.data as { post: Post }).post._id! } });
    expect(got.data).toMatchObject({ post: { hashtags: ['herald', '#Launch'], mentions: ['@bob.test'] } });
  });

  it('bulk upload: a row\'s errors are the error codes, so errors.includes(\'profiles_missing\') works', async () => {
    const { sdk, profileId } = await tenantWithAccount();
    const csv = `platforms,profiles,is_draft,post_content\nbluesky,${profileId},true,fine\nbluesky,,true,no profile\n`;
    const res = await sdk.posts.bulkUploadPosts({ body: { file: new Blob([csv], { type: 'text/csv' }) }, query: { dryRun: true } });
    expect(res.response.status).toBe(207);
    const row = (res.data as { results: Array<{ rowIndex: number; ok: boolean; errors: string[] }> } | undefined)?.results?.[1];
    expect(row).toMatchObject({ rowIndex: 2, ok: false, errors: ['profiles_missing'] });
    expect(row!.errors.includes('profiles_missing')).toBe(true);
  });

  it('lists with page/limit/status in the query, gets, updates and deletes', async () => {
    const { sdk, accountId } = await tenantWithAccount();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await sdk.posts.createPost({ body: { content: `s${i}`, scheduledFor: `2031-01-0${i + 1}T12:00:00Z`, platforms: [{ platform: 'bluesky', accountId }] } });
      ids.push((r.data as { post: { _id: string } }).post._id);
    }
    await sdk.posts.createPost({ body: { content: 'a draft', isDraft: true } });

    const page2 = await sdk.posts.listPosts({ query: { page: 2, limit: 5, status: 'scheduled' } });
    expect(new URL(page2.request.url).search).toBe('?page=2&limit=5&status=scheduled');
    expect(page2.data?.pagination).toEqual({ page: 2, limit: 5, total: 7, pages: 2 });
    expect(page2.data?.posts).toHaveLength(2);
    expect(page2.data?.posts?.every((p: Post) => p.status === 'scheduled')).toBe(true);
    const drafts = await sdk.posts.listPosts({ query: { status: 'draft' } });
    expect(drafts.data?.posts?.map((p: Post) => p.content)).toEqual(['a draft']);

    const got = await sdk.posts.getPost({ path: { postId: ids[0] } });
    expect(got.data?.post).toMatchObject({ _id: ids[0], content: 's0', status: 'scheduled', scheduledFor: '2031-01-01T12:00:00.000Z' });

    const updated = await sdk.posts.updatePost({ path: { postId: ids[0] }, body: { content: 'edited', scheduledFor: '2031-02-01T08:00', timezone: 'Asia/Tokyo' } });
    expect(updated.response.status).toBe(200);
    expect(updated.data).toMatchObject({ post: { _id: ids[0], content: 'edited', scheduledFor: '2031-01-31T23:00:00.000Z', timezone: 'Asia/Tokyo' } });
    expect((await sdk.posts.getPost({ path: { postId: ids[0] } })).data?.post?.content).toBe('edited');

    const deleted = await sdk.posts.deletePost({ path: { postId: ids[1] } });
    expect(deleted.response.status).toBe(200);
    expect(deleted.data?.message).toEqual(expect.any(String));
    const gone = await rejection(sdk.posts.getPost({ path: { postId: ids[1] } }));
    expect(gone.statusCode).toBe(404);
    expect((await sdk.posts.listPosts({ query: { status: 'scheduled' } })).data?.pagination?.total).toBe(6);
  });

  it('retrying a post that did not fail rejects with statusCode 409', async () => {
    const { sdk, accountId } = await tenantWithAccount();
    const r = await sdk.posts.createPost({ body: { content: 'later', scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId }] } });
    const postId = (r.data as { post: { _id: string } }).post._id;
    const err = await rejection(sdk.posts.retryPost({ path: { postId } }));
    expect(err.statusCode).toBe(409);
    expect(err.code).toBe('INVALID_STATE');
    expect(err.message).toMatch(/Only failed or partially published posts/);
    expect((await sdk.posts.getPost({ path: { postId } })).data?.post?.status).toBe('scheduled');
  });
});

describe('analytics', () => {
  it('getAnalytics: the list and single-post views after a refresh, and 402 analytics_addon_required without the add-on', async () => {
    const t = await createTenant(ctx, { addons: ['analytics'] });
    const profileId = await createProfile(ctx, t);
    const accountId = await insertAccount(ctx, t, profileId, 'bluesky');
    const sdk = clientFor(t);
    const created = await sdk.posts.createPost({ body: { content: 'measured likes:12', publishNow: true, platforms: [{ platform: 'bluesky', accountId }] } });
    const postId = created.data!.post!._id!;
    await ctx.services.analytics.refreshDue();

    const list = await sdk.analytics.getAnalytics({ query: { profileId, sortBy: 'engagement', order: 'desc', limit: 10, page: 1 } });
    expect(list.response.status).toBe(200);
    expect(list.request.url).toContain('/v1/analytics?');
    expect(list.response.headers.get('x-ratelimit-limit')).toBe('30');
    const body = list.data as { posts: Array<{ _id: string; analytics: { likes: number | null; impressions: number | null }; platforms: Array<{ platform: string }> }>; pagination: object; hasAnalyticsAccess: boolean };
    expect(body.hasAnalyticsAccess).toBe(true);
    expect(body.pagination).toEqual({ page: 1, limit: 10, total: 1, pages: 1 });
    expect(body.posts[0]).toMatchObject({ _id: postId, analytics: { likes: 12, impressions: null }, platforms: [{ platform: 'bluesky' }] });

    const single = await sdk.analytics.getAnalytics({ query: { postId } });
    expect(single.data).toMatchObject({ postId, status: 'published', analytics: { likes: 12, comments: 2 }, platformAnalytics: [{ platform: 'bluesky', accountId, syncStatus: 'synced' }] });

    const { sdk: without } = await tenantWithAccount();
    const err = await rejection(without.analytics.getAnalytics());
    expect(err.statusCode).toBe(402);
    expect(err.code).toBe('analytics_addon_required');
  });
});

describe('usage stats', () => {
  it('reports planName, limits, usage, canUpload and canCreateProfile', async () => {
    const { sdk, accountId } = await tenantWithAccount('free');
    await sdk.posts.createPost({ body: { content: 'counted', scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId }] } });
    const res = await sdk.usage.getUsageStats();
    expect(res.data).toMatchObject({
      planName: 'Free', billingPeriod: 'monthly', signupDate: expect.any(String),
      limits: { uploads: 10, profiles: 2 }, usage: { uploads: 1, profiles: 1, lastReset: expect.any(String) },
    });
    const extra = res.data as Record<string, unknown>;
    expect(extra.canUpload).toBe(true);
    expect(extra.canCreateProfile).toBe(true);
  });
});

describe('team invites', () => {
  it('createInviteToken: a profile-scoped invite whose link signs the invitee up into the team; listUsers shows them', async () => {
    const t = await createTenant(ctx);
    const sdk = clientFor(t);
    const profileId = await createProfile(ctx, t);
    const res = await sdk.invites.createInviteToken({ body: { scope: 'profiles', profileIds: [profileId] } });
    expect(res.error).toBeUndefined();
    expect(res.data).toMatchObject({ scope: 'profiles', invitedProfileIds: [profileId], token: expect.any(String), expiresAt: expect.any(String) });
    const url = new URL(res.data!.inviteUrl!);
    expect(url.pathname).toBe('/signup');
    expect(url.searchParams.get('inviteToken')).toBe(res.data!.token);

    const signup = await ctx.app.inject({
      method: 'POST', url: '/auth/signup', headers: { origin: 'http://localhost:80', host: 'localhost:80' },
      payload: { inviteToken: res.data!.token, name: 'Invitee', email: `invitee${Date.now()}@example.test`, password: 'invitee password' },
    });
    expect(signup.statusCode).toBe(201);
    const users = (await sdk.users.listUsers()).data!.users!;
    expect(users.find((u: { _id?: string }) => u._id === signup.json().user._id)).toMatchObject({ role: 'member', isRoot: false, profileAccess: [profileId] });

    const all = await sdk.invites.createInviteToken({ body: { scope: 'all' } });
    expect(all.data).toMatchObject({ scope: 'all', invitedProfileIds: [] });
    const err = await rejection(sdk.invites.createInviteToken({ body: { scope: 'profiles' } }));
    expect(err.statusCode).toBe(400);
    expect(err).toBeInstanceOf(ValidationError);
    const foreign = await rejection(sdk.invites.createInviteToken({ body: { scope: 'profiles', profileIds: [await createProfile(ctx, await createTenant(ctx))] } }));
    expect(foreign.statusCode).toBe(404);
  });
});

describe('errors', () => {
  it('a wrong key rejects with statusCode 401', async () => {
    const sdk = clientFor('sk_this_key_does_not_exist_0000000000000000');
    const err = await rejection(sdk.profiles.listProfiles());
    expect(err.statusCode).toBe(401);
    expect(err.isAuthError()).toBe(true);
    expect(err.code).toBe('UNAUTHORIZED');
  });

  it('a missing resource rejects with code NOT_FOUND', async () => {
    const { sdk } = await tenantWithAccount();
    const err = await rejection(sdk.posts.getPost({ path: { postId: '0123456789abcdef01234567' } }));
    expect(err.statusCode).toBe(404);
    expect(err.isNotFound()).toBe(true);
    expect(err.code).toBe('NOT_FOUND');
    expect(err.message).toMatch(/not found/i);
  });

  it('over the plan rate limit rejects with RateLimitError carrying limit, remaining and resetAt', async () => {
    const rl = await createTestApp({ listen: true, env: { HERALD_RATE_LIMIT: 'on' } });
    try {
      const t = await createTenant(rl, { plan: 'free' });
      const sdk = clientFor(t, urlOf(rl));
      // Counters use fixed one-minute windows: do not start the 61 requests just before a boundary.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
      // The IETF draft's fields (draft-ietf-httpapi-ratelimit-headers) on the client's own response: the policy (quota, window) and the state (remaining, reset).
      const draft = (h: Headers) => ({ policy: /^"([a-z-]+)";q=(\d+);w=(\d+)$/.exec(h.get('ratelimit-policy') ?? ''), state: /^"([a-z-]+)";r=(\d+);t=(\d+)$/.exec(h.get('ratelimit') ?? '') });
      for (let i = 0; i < 60; i++) {
        const res = await sdk.profiles.listProfiles();
        expect(res.response.status).toBe(200);
        if (i === 0 || i === 59) {
          const { policy, state } = draft(res.response.headers);
          expect(policy?.slice(2), res.response.headers.get('ratelimit-policy') ?? 'no RateLimit-Policy').toEqual(['60', '60']);
          expect(state?.[1]).toBe(policy?.[1]);
          expect(Number(state?.[2])).toBe(59 - i);
          expect(Number(state?.[3])).toBeGreaterThan(0);
          expect(Number(state?.[3])).toBeLessThanOrEqual(60);
        }
        if (i === 59) {
          expect(res.response.headers.get('x-ratelimit-limit')).toBe('60');
          expect(res.response.headers.get('x-ratelimit-remaining')).toBe('0');
        }
      }
      // The 429 through the client's fetch (its error keeps no headers): Retry-After, and RateLimit at r=0 under the same policy.
      const answers: Response[] = [];
      const recording = (req: Request) => fetch(req).then((r) => { answers.push(r.clone()); return r; });
      await rejection(sdk.profiles.listProfiles({ fetch: recording }));
      expect(answers.map((r) => r.status)).toEqual([429]);
      const limited = draft(answers[0].headers);
      expect(limited.policy?.slice(2)).toEqual(['60', '60']);
      expect(Number(limited.state?.[2])).toBe(0);
      expect(Number(answers[0].headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(answers[0].headers.get('retry-after'))).toBeLessThanOrEqual(60);
      const err = await rejection(sdk.profiles.listProfiles());
      expect(err).toBeInstanceOf(RateLimitError);
      const rle = err as RateLimitError;
      expect(rle.statusCode).toBe(429);
      expect(rle.isRateLimited()).toBe(true);
      expect(rle.code).toBe('RATE_LIMITED');
      expect(rle.limit).toBe(60);
      expect(rle.remaining).toBe(0);
      expect(rle.resetAt).toBeInstanceOf(Date);
      expect(rle.resetAt!.getTime()).toBeGreaterThan(Date.now());
      expect(rle.resetAt!.getTime() - Date.now()).toBeLessThanOrEqual(60_000);
      expect(rle.getSecondsUntilReset()).toBeGreaterThanOrEqual(0);
      expect(rle.getSecondsUntilReset()).toBeLessThanOrEqual(60);
    } finally {
      await rl.close();
    }
  });
});
