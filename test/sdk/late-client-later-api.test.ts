/**
 * What the official client `@getlatedev/node` added later, over real HTTP: account groups
 * (`accountGroups.*`: create, list, update, delete; bad input and other tenants' accounts refused
 * with the field named; a scoped team member sees only its accounts), `apiKeys.verifyCredential`
 * and `accounts.moveAccountToProfile` (PATCH, which also takes the display settings PUT takes and refuses any other field).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Zernio, type ZernioApiError } from '@getlatedev/node';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let t: Tenant;
let sdk: Zernio;
let baseURL: string;
let brandA: string;
let brandB: string;
let a1: string;
let a2: string;
let b1: string;

beforeAll(async () => {
  ctx = await createTestApp({ listen: true });
  t = await createTenant(ctx);
  brandA = await createProfile(ctx, t, 'Brand A');
  brandB = await createProfile(ctx, t, 'Brand B');
  a1 = await insertAccount(ctx, t, brandA, 'bluesky');
  a2 = await insertAccount(ctx, t, brandA, 'twitter');
  b1 = await insertAccount(ctx, t, brandB, 'bluesky');
  baseURL = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  sdk = new Zernio({ apiKey: t.apiKey, baseURL });
});
afterAll(async () => { await ctx?.close(); });

const refusal = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as ZernioApiError);

describe('account groups through the official client', () => {
  it('creates a group across profiles, lists, renames, replaces its accounts and deletes it', async () => {
    const created = await sdk.accountGroups.createAccountGroup({ body: { name: 'Launch', accountIds: [a1, b1], profileId: brandA } });
    expect(created.response.status).toBe(201);
    const group = created.data.group!;
    expect(group).toMatchObject({ name: 'Launch', accountIds: [a1, b1] });

    const listed = await sdk.accountGroups.listAccountGroups();
    expect(listed.data.groups).toEqual([expect.objectContaining({ _id: group._id, name: 'Launch', accountIds: [a1, b1], createdBy: t.userId })]);

    const updated = await sdk.accountGroups.updateAccountGroup({ path: { groupId: group._id! }, body: { name: 'Launch week', accountIds: [a2, a1] } });
    expect(updated.data.group).toMatchObject({ name: 'Launch week', accountIds: [a2, a1] });

    // A disconnected account leaves the group's list; the group stays.
    await ctx.app.inject({ method: 'DELETE', url: `/v1/accounts/${a2}`, headers: t.headers });
    expect((await sdk.accountGroups.listAccountGroups()).data.groups![0].accountIds).toEqual([a1]);

    const removed = await sdk.accountGroups.deleteAccountGroup({ path: { groupId: group._id! } });
    expect(removed.data.message).toMatch(/deleted/i);
    expect((await sdk.accountGroups.listAccountGroups()).data.groups).toEqual([]);
    expect((await refusal(sdk.accountGroups.deleteAccountGroup({ path: { groupId: group._id! } })))?.statusCode).toBe(404);
  });

  it('refuses bad input naming the field, another tenant\'s accounts and groups, and a name in use', async () => {
    const other = await createTenant(ctx);
    const theirs = await insertAccount(ctx, other, await createProfile(ctx, other), 'bluesky');
    const foreign = await refusal(sdk.accountGroups.createAccountGroup({ body: { name: 'X', accountIds: [a1, theirs] } }));
    expect(foreign?.statusCode).toBe(400);
    const repeated = await ctx.app.inject({ method: 'POST', url: '/v1/account-groups', headers: t.headers, payload: { name: '  ', accountIds: [a1, a1] } });
    expect(repeated.statusCode).toBe(400);
    expect(Object.keys(repeated.json().details.fields).sort()).toEqual(['accountIds.1', 'name']);
    const byOther = await ctx.app.inject({ method: 'POST', url: '/v1/account-groups', headers: t.headers, payload: { name: 'Mixed', accountIds: [theirs] } });
    expect(byOther.json().details.fields['accountIds.0'][0]).toMatch(/not one of your connected accounts/);

    const mine = (await sdk.accountGroups.createAccountGroup({ body: { name: 'Mine', accountIds: [a1] } })).data.group!;
    expect((await refusal(sdk.accountGroups.createAccountGroup({ body: { name: 'mine', accountIds: [b1] } })))?.statusCode).toBe(409);
    const otherSdk = new Zernio({ apiKey: other.apiKey, baseURL });
    expect((await otherSdk.accountGroups.listAccountGroups()).data.groups).toEqual([]);
    expect((await refusal(otherSdk.accountGroups.updateAccountGroup({ path: { groupId: mine._id! }, body: { name: 'Taken' } })))?.statusCode).toBe(404);
    expect((await refusal(otherSdk.accountGroups.deleteAccountGroup({ path: { groupId: mine._id! } })))?.statusCode).toBe(404);
    expect((await sdk.accountGroups.listAccountGroups()).data.groups!.map((g: { name?: string }) => g.name)).toContain('Mine');
    await sdk.accountGroups.deleteAccountGroup({ path: { groupId: mine._id! } });
  });

  it('a team member limited to one profile sees only that profile\'s accounts and cannot change a group reaching beyond it', async () => {
    const both = (await sdk.accountGroups.createAccountGroup({ body: { name: 'Both brands', accountIds: [a1, b1] } })).data.group!;
    const onlyB = (await sdk.accountGroups.createAccountGroup({ body: { name: 'B only', accountIds: [b1] } })).data.group!;
    const token = (await ctx.app.inject({ method: 'POST', url: '/v1/invite/tokens', headers: t.headers, payload: { scope: 'profiles', profileIds: [brandA] } })).json().token as string;
    const accepted = await ctx.app.inject({ method: 'POST', url: `/auth/signup`, headers: { origin: 'http://localhost:80', host: 'localhost:80' }, payload: { email: 'member-groups@example.test', password: 'a long enough password 1', name: 'Member', inviteToken: token } });
    expect(accepted.statusCode, accepted.body).toBeLessThan(300);
    const cookie = accepted.headers['set-cookie'] as string | string[];
    const session = { cookie: (Array.isArray(cookie) ? cookie[0] : cookie).split(';')[0], csrf: accepted.json().csrfToken as string };
    const asMember = (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: object) => ctx.app.inject({
      method, url, payload, headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, origin: 'http://localhost:80', host: 'localhost:80' },
    });
    const seen = (await asMember('GET', '/v1/account-groups')).json().groups as Array<{ _id: string; accountIds: string[] }>;
    expect(seen).toEqual([expect.objectContaining({ _id: both._id, accountIds: [a1] })]);
    expect((await asMember('PUT', `/v1/account-groups/${both._id}`, { name: 'Renamed' })).statusCode).toBe(403);
    expect((await asMember('DELETE', `/v1/account-groups/${onlyB._id}`)).statusCode).toBe(404);
    expect((await asMember('POST', '/v1/account-groups', { name: 'Sneaky', accountIds: [b1] })).statusCode).toBe(400);
    const own = await asMember('POST', '/v1/account-groups', { name: 'A team', accountIds: [a1] });
    expect(own.statusCode, own.body).toBe(201);
  });
});

describe('credential check and account move through the official client', () => {
  it('verifyCredential answers who the key belongs to and what it may do; a revoked key is 401', async () => {
    const v = await sdk.apiKeys.verifyCredential();
    expect(v.data).toMatchObject({ valid: true, userId: t.userId, authType: 'api_key', scope: null, profileAccess: 'all' });
    expect((v.data as { permissions: string[] }).permissions).toContain('posts:write');
    // A key limited to reading posts may still ask (any valid credential), and sees its own permissions.
    const limited = await ctx.app.inject({ method: 'POST', url: '/v1/api-keys', headers: t.headers, payload: { name: 'read only', permissions: ['posts:read'] } });
    const key = limited.json().apiKey as { id: string; key: string };
    const asLimited = await ctx.app.inject({ method: 'GET', url: '/v1/auth/verify', headers: { authorization: `Bearer ${key.key}` } });
    expect(asLimited.statusCode).toBe(200);
    expect(asLimited.json().permissions).toEqual(['posts:read']);
    await ctx.app.inject({ method: 'DELETE', url: `/v1/api-keys/${key.id}`, headers: t.headers });
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/auth/verify', headers: { authorization: `Bearer ${key.key}` } })).statusCode).toBe(401);
  });

  it('moveAccountToProfile moves an account between the tenant\'s profiles; another tenant\'s profile is 404, a taken one 409', async () => {
    const brandC = await createProfile(ctx, t, 'Brand C');
    const acc = await insertAccount(ctx, t, brandA, 'pinterest');
    const moved = await sdk.accounts.moveAccountToProfile({ path: { accountId: acc }, body: { profileId: brandC } });
    expect(moved.data).toMatchObject({ profileId: brandC, message: expect.stringMatching(/Brand C/) });
    const listed = await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${brandC}`, headers: t.headers });
    expect(listed.json().accounts.map((a: { _id: string }) => a._id)).toEqual([acc]);

    const other = await createTenant(ctx);
    expect((await refusal(sdk.accounts.moveAccountToProfile({ path: { accountId: acc }, body: { profileId: await createProfile(ctx, other) } })))?.statusCode).toBe(404);
    // The same platform account already in the target profile: 409, nothing moves.
    const twin = await insertAccount(ctx, t, brandB, 'pinterest');
    const { rows: [src] } = await ctx.db.query<{ platform_user_id: string }>('SELECT platform_user_id FROM accounts WHERE id = $1', [acc]);
    await ctx.db.query('UPDATE accounts SET platform_user_id = $2 WHERE id = $1', [twin, src.platform_user_id]);
    expect((await refusal(sdk.accounts.moveAccountToProfile({ path: { accountId: acc }, body: { profileId: brandB } })))?.statusCode).toBe(409);
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${brandC}`, headers: t.headers })).json().accounts).toHaveLength(1);
  });

  it('PATCH also changes the display settings PUT changes, with or without a move; any other field is 400 naming it and nothing changes', async () => {
    const brandD = await createProfile(ctx, t, 'Brand D');
    const acc = await insertAccount(ctx, t, brandA, 'threads');
    const patch = (payload: object) => ctx.app.inject({ method: 'PATCH', url: `/v1/accounts/${acc}`, headers: t.headers, payload });
    const view = async () => (await ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: t.headers })).json().accounts.find((a: { _id: string }) => a._id === acc);

    const renamed = await patch({ displayName: 'Brand voice', username: 'brand.voice' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ message: 'Account updated successfully', profileId: brandA, username: 'brand.voice', displayName: 'Brand voice', account: { _id: acc, profileId: brandA } });

    // Move and rename at once, the client's call with the display settings beside profileId.
    const both = await sdk.accounts.moveAccountToProfile({ path: { accountId: acc }, body: { profileId: brandD, displayName: 'Brand D voice' } as { profileId: string } });
    expect(both.data).toMatchObject({ profileId: brandD, message: expect.stringMatching(/Brand D.*names were updated/) });
    expect(await view()).toMatchObject({ profileId: brandD, username: 'brand.voice', displayName: 'Brand D voice' });

    const unknown = await patch({ profileId: brandA, nickname: 'x', isActive: false });
    expect(unknown.statusCode).toBe(400);
    expect(Object.keys(unknown.json().details.fields).sort()).toEqual(['isActive', 'nickname']);
    expect(unknown.json().details.fields.nickname[0]).toMatch(/not an allowed field/);
    const empty = await patch({});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details.fields).toHaveProperty('profileId');
    const blank = await patch({ profileId: brandA, username: '   ' });
    expect(blank.json().details.fields).toHaveProperty('username');
    // None of the refused calls moved or renamed anything.
    expect(await view()).toMatchObject({ profileId: brandD, username: 'brand.voice', displayName: 'Brand D voice' });
  });
});
