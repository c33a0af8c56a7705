/**
 * Clone connection (decision 0037): POST /v1/profiles/{profileId}/clone-connection through the real
 * app in sandbox mode (X, Facebook and LinkedIn simulators). The clone shares the source's one
 * stored credential: a token refresh and a revocation are seen by every clone, a disconnect of
 * the account holding it leaves the clones publishing; Facebook pages and LinkedIn organizations
 * are checked with the platform. Plain HTTP: no official client version has this call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { refreshExpiringTokens } from '../../src/publishing/token-refresh.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { oauthConnect } from '../support/oauth.ts';

let sandbox: Sandbox;
let ctx: TestContext;
let t: Tenant;

beforeAll(async () => {
  sandbox = await startSandbox({ bluesky: false });
  ctx = await createTestApp({ env: { HERALD_SANDBOX: 'on' }, deps: { sandbox } });
  t = await createTenant(ctx);
}, 120_000);
afterAll(async () => { await ctx?.close(); await sandbox?.close(); });

const clone = (profileId: string, body: object, headers: Record<string, string> = t.headers) =>
  ctx.app.inject({ method: 'POST', url: `/v1/profiles/${profileId}/clone-connection`, headers, payload: body });
const account = async (id: string) => (await ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: t.headers })).json().accounts.find((a: { _id: string }) => a._id === id);
const row = async (id: string) => (await ctx.db.query('SELECT credentials, credential_owner, token_expires_at, is_active FROM accounts WHERE id = $1', [id])).rows[0];
const publishNow = (accountId: string, content: string) => ctx.app.inject({
  method: 'POST', url: '/v1/posts', headers: t.headers, payload: { content, publishNow: true, platforms: [{ platform: 'twitter', accountId }] },
});

async function connectX(profileId: string): Promise<string> {
  const { done } = await oauthConnect(ctx, t, 'twitter', profileId);
  expect(done.statusCode).toBe(302);
  return new URL(done.headers.location as string).searchParams.get('accountId')!;
}

describe('clone connection', () => {
  it('puts an X account under a second profile with the same credential; both publish', async () => {
    const p1 = await createProfile(ctx, t);
    const p2 = await createProfile(ctx, t, 'Second brand');
    const source = await connectX(p1);
    const res = await clone(p2, { sourceAccountId: source });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const src = await account(source);
    expect(body).toEqual({
      message: 'Connection cloned successfully',
      connection: { _id: expect.stringMatching(/^[0-9a-f]{24}$/), platform: 'twitter', username: src.username, displayName: src.displayName, isActive: true, profileId: p2 },
    });
    const id = body.connection._id;
    expect(id).not.toBe(source);
    expect(await row(id)).toMatchObject({ credentials: '', credential_owner: source }); // stored once, on the source
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${p2}`, headers: t.headers })).json().accounts.map((a: { _id: string }) => a._id)).toEqual([id]);
    for (const a of [source, id]) expect((await publishNow(a, `hello from ${a}`)).statusCode).toBe(201);

    // Cloning the clone shares the same credential (the owner's), not the clone's empty one.
    const p3 = await createProfile(ctx, t);
    const again = await clone(p3, { sourceAccountId: id });
    expect(again.statusCode).toBe(200);
    expect((await row(again.json().connection._id)).credential_owner).toBe(source);
    // The same account twice under one profile is a conflict.
    const dup = await clone(p2, { sourceAccountId: source });
    expect(dup.statusCode).toBe(409);
  });

  it('a token refresh of the owner is what every clone uses; a revocation marks every clone', async () => {
    const p1 = await createProfile(ctx, t);
    const p2 = await createProfile(ctx, t);
    const source = await connectX(p1);
    const id = (await clone(p2, { sourceAccountId: source })).json().connection._id;
    const before = await ctx.services.accountsRepository.accessible({ ...await authOf(), profileAccess: 'all' }, id);
    await ctx.db.query(`UPDATE accounts SET token_expires_at = now() + interval '1 minute' WHERE id IN ($1, $2)`, [source, id]);
    const pass = await refreshExpiringTokens({ db: ctx.db, adapters: ctx.services.adapters, accounts: ctx.services.accountsRepository });
    expect(pass.refreshed).toBeGreaterThanOrEqual(1);
    const owner = await row(source);
    expect(owner.token_expires_at.getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    expect((await row(id)).token_expires_at.getTime()).toBe(owner.token_expires_at.getTime());
    const after = await ctx.services.accountsRepository.accessible({ ...await authOf(), profileAccess: 'all' }, id);
    const opened = ctx.services.accountsRepository.credentialsOf<{ accessToken: string }>(after);
    expect(opened.accessToken).not.toBe(ctx.services.accountsRepository.credentialsOf<{ accessToken: string }>(before).accessToken);
    expect(opened).toEqual(ctx.services.accountsRepository.credentialsOf(await ctx.services.accountsRepository.accessible({ ...await authOf(), profileAccess: 'all' }, source)));
    expect((await publishNow(id, 'after the refresh')).statusCode).toBe(201);

    await ctx.services.accountsRepository.markNeedsReconnect(source, 'X refused the token');
    expect(await account(id)).toMatchObject({ isActive: false, needsReconnection: true, inactiveReason: 'X refused the token' });
    // A reconnect of any one of them (here the clone) brings every one back, with the new credential on the owner.
    const { done } = await oauthConnect(ctx, t, 'twitter', p2);
    expect(new URL(done.headers.location as string).searchParams.get('accountId')).toBe(id);
    expect(await account(source)).toMatchObject({ isActive: true });
    expect(await row(id)).toMatchObject({ credentials: '', credential_owner: source });
  });

  it('disconnecting the account that holds the credential leaves its clones working', async () => {
    const [p1, p2, p3] = [await createProfile(ctx, t), await createProfile(ctx, t), await createProfile(ctx, t)];
    const source = await connectX(p1);
    const a = (await clone(p2, { sourceAccountId: source })).json().connection._id;
    const b = (await clone(p3, { sourceAccountId: source })).json().connection._id;
    expect((await ctx.app.inject({ method: 'DELETE', url: `/v1/accounts/${source}`, headers: t.headers })).statusCode).toBe(200);
    expect(await row(a)).toMatchObject({ credential_owner: null });
    expect((await row(a)).credentials).not.toBe('');
    expect(await row(b)).toMatchObject({ credential_owner: a, credentials: '' });
    for (const id of [a, b]) expect((await publishNow(id, `still here ${id}`)).statusCode).toBe(201);
    // Disconnecting a clone leaves the holder alone.
    expect((await ctx.app.inject({ method: 'DELETE', url: `/v1/accounts/${b}`, headers: t.headers })).statusCode).toBe(200);
    expect((await publishNow(a, 'and still')).statusCode).toBe(201);
  });

  it('points a Facebook clone at another page the user manages, checked with Facebook', async () => {
    const p1 = await createProfile(ctx, t);
    const p2 = await createProfile(ctx, t);
    const { done } = await oauthConnect(ctx, t, 'facebook', p1);
    const tempToken = new URL(done.headers.location as string).searchParams.get('tempToken')!;
    const pages = (await ctx.app.inject({ method: 'GET', url: `/v1/connect/facebook/select-page?profileId=${p1}&tempToken=${tempToken}`, headers: t.headers })).json().pages as Array<{ id: string; name: string }>;
    const selected = await ctx.app.inject({ method: 'POST', url: '/v1/connect/facebook/select-page', headers: t.headers, payload: { profileId: p1, pageId: pages[0].id, tempToken } });
    const source = selected.json().account._id as string;
    const other = pages.find((p) => p.name === 'Herald Books')!;

    const res = await clone(p2, { sourceAccountId: source, targetPageId: other.id, targetPageName: 'ignored' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().connection).toMatchObject({ platform: 'facebook', username: 'Herald Books', displayName: 'Herald Books', profileId: p2 });
    expect(await account(res.json().connection._id)).toMatchObject({ selectedPageName: 'Herald Books' });
    // Another Page's token is its own credential; the source keeps publishing to its page.
    expect(await row(res.json().connection._id)).toMatchObject({ credential_owner: null });
    expect(await account(source)).toMatchObject({ selectedPageName: pages[0].name });

    const notManaged = await clone(await createProfile(ctx, t), { sourceAccountId: source, targetPageId: '999999999' });
    expect(notManaged.statusCode).toBe(403);
    expect(notManaged.json()).toMatchObject({ code: 'FORBIDDEN', details: { platform: 'facebook', field: 'targetPageId' } });
    expect(notManaged.json().error).toMatch(/does not manage the page 999999999/);
  });

  it('takes Late\'s documented body (every target field) for a Facebook source: 200, the Page fields used, the organization fields named in warnings', async () => {
    const p1 = await createProfile(ctx, t);
    const { done } = await oauthConnect(ctx, t, 'facebook', p1);
    const tempToken = new URL(done.headers.location as string).searchParams.get('tempToken')!;
    const pages = (await ctx.app.inject({ method: 'GET', url: `/v1/connect/facebook/select-page?profileId=${p1}&tempToken=${tempToken}`, headers: t.headers })).json().pages as Array<{ id: string; name: string }>;
    const source = (await ctx.app.inject({ method: 'POST', url: '/v1/connect/facebook/select-page', headers: t.headers, payload: { profileId: p1, pageId: pages[0].id, tempToken } })).json().account._id as string;
    const other = pages.find((p) => p.name === 'Herald Books')!;

    // The documented example: every field of the Page and the organization targets.
    const p2 = await createProfile(ctx, t);
    const documented = await clone(p2, {
      sourceAccountId: source, targetPageId: other.id, targetPageName: 'Herald Books', targetPageAccessToken: 'EAAB-documented-page-token',
      targetOrganizationId: '2414183', targetOrganizationUrn: 'urn:li:organization:2414183', targetOrganizationName: 'Herald Demo Co', targetAccountType: 'organization',
    });
    expect(documented.statusCode, documented.body).toBe(200);
    expect(documented.json()).toEqual({
      message: 'Connection cloned successfully',
      warnings: [expect.stringMatching(/^targetOrganizationId, targetOrganizationUrn, targetOrganizationName, targetAccountType apply to LinkedIn accounts and were ignored: the source is a Facebook account$/)],
      connection: { _id: expect.stringMatching(/^[0-9a-f]{24}$/), platform: 'facebook', username: 'Herald Books', displayName: 'Herald Books', isActive: true, profileId: p2 },
    });
    const made = await account(documented.json().connection._id);
    expect(made).toMatchObject({ platform: 'facebook', selectedPageName: 'Herald Books' });
    expect(made).not.toHaveProperty('selectedOrganization');
    expect(made.accountType).not.toBe('organization');

    // As the n8n node sends it: the filled fields, and targetAccountType at its default ("personal").
    const p3 = await createProfile(ctx, t);
    const n8n = await clone(p3, { sourceAccountId: source, targetPageId: other.id, targetPageName: 'Herald Books', targetOrganizationId: '2414183', targetOrganizationName: 'Herald Demo Co', targetAccountType: 'personal' });
    expect(n8n.statusCode, n8n.body).toBe(200);
    expect(n8n.json().warnings).toEqual([expect.stringMatching(/^targetOrganizationId, targetOrganizationName, targetAccountType apply to LinkedIn accounts and were ignored/)]);
    expect(n8n.json().connection).toMatchObject({ platform: 'facebook', username: 'Herald Books', profileId: p3 });
  });

  it('points a LinkedIn clone at an organization the member administers, checked with LinkedIn', async () => {
    const p1 = await createProfile(ctx, t);
    const { done } = await oauthConnect(ctx, t, 'linkedin', p1);
    const tempToken = new URL(done.headers.location as string).searchParams.get('tempToken')!;
    const personal = await ctx.app.inject({ method: 'POST', url: '/v1/connect/linkedin/select-organization', headers: t.headers, payload: { profileId: p1, tempToken, accountType: 'personal', userProfile: {} } });
    const source = personal.json().account._id as string;

    const p2 = await createProfile(ctx, t);
    const res = await clone(p2, { sourceAccountId: source, targetOrganizationUrn: 'urn:li:organization:2414183', targetAccountType: 'organization' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await account(res.json().connection._id)).toMatchObject({ accountType: 'organization', selectedOrganization: { id: '2414183', name: 'Herald Demo Co' } });
    expect((await row(res.json().connection._id)).credential_owner).toBe(source);

    // As n8n's node sends it: the organization filled in, targetAccountType at its default ("personal"). The organization wins, with a warning.
    const n8n = await clone(await createProfile(ctx, t), { sourceAccountId: source, targetOrganizationId: '2414183', targetOrganizationName: 'Herald Demo Co', targetAccountType: 'personal' });
    expect(n8n.statusCode, n8n.body).toBe(200);
    expect(n8n.json().warnings).toEqual([expect.stringMatching(/^targetAccountType "personal" was ignored: targetOrganizationId names an organization/)]);
    expect(await account(n8n.json().connection._id)).toMatchObject({ accountType: 'organization', selectedOrganization: { id: '2414183' } });
    // "personal" alone publishes as the member, without a warning.
    const member = await clone(await createProfile(ctx, t), { sourceAccountId: source, targetAccountType: 'personal' });
    expect(member.json().warnings).toBeUndefined();
    expect(await account(member.json().connection._id)).toMatchObject({ accountType: 'personal' });

    const notAdmin = await clone(await createProfile(ctx, t), { sourceAccountId: source, targetOrganizationId: '5550001' });
    expect(notAdmin.statusCode).toBe(403);
    const badUrn = await clone(await createProfile(ctx, t), { sourceAccountId: source, targetOrganizationUrn: 'urn:li:company:1' });
    expect(badUrn.json().details.fields).toHaveProperty('targetOrganizationUrn');
  });

  it('ignores target fields of another platform with a warning (Late\'s documented body), refuses other tenants\' profiles and accounts (404), and accepts a dashboard session', async () => {
    const p1 = await createProfile(ctx, t);
    const p2 = await createProfile(ctx, t);
    const source = await connectX(p1);
    const wrong = await clone(p2, { sourceAccountId: source, targetPageId: '123', targetOrganizationId: '5550001', targetAccountType: 'organization' });
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json().warnings).toEqual([
      expect.stringMatching(/^targetPageId applies to Facebook accounts and was ignored/),
      expect.stringMatching(/^targetOrganizationId, targetAccountType apply to LinkedIn accounts and were ignored/),
    ]);
    expect(wrong.json().connection).toMatchObject({ platform: 'twitter', profileId: p2 });
    expect((await clone(p2, { targetPageId: '123' })).json().details.fields).toHaveProperty('sourceAccountId');

    const other = await createTenant(ctx);
    const theirProfile = await createProfile(ctx, other);
    const theirAccount = await insertAccount(ctx, other, theirProfile, 'bluesky');
    expect((await clone(theirProfile, { sourceAccountId: source })).statusCode).toBe(404);
    expect((await clone(p2, { sourceAccountId: theirAccount })).statusCode).toBe(404);

    const email = `clone${Date.now()}@example.test`;
    const password = 'a long clone password';
    await ctx.services.users.createRootUser({ email, password, plan: 'advanced' });
    const login = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, headers: { origin: 'http://localhost:80', host: 'localhost:80' } });
    expect(login.statusCode).toBe(200);
    const cookie = String(login.headers['set-cookie']).split(';')[0];
    const session = { cookie, 'x-csrf-token': login.json().csrfToken as string, origin: 'http://localhost:80', host: 'localhost:80' };
    const mk = async (name: string) => (await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: session, payload: { name } })).json().profile._id as string;
    const [s1, s2] = [await mk('S1'), await mk('S2')];
    const sessionTenant = { userId: login.json().user._id, apiKey: '', headers: { authorization: '' } };
    const acc = await insertAccount(ctx, sessionTenant, s1, 'bluesky');
    const viaSession = await clone(s2, { sourceAccountId: acc }, session);
    expect(viaSession.statusCode, viaSession.body).toBe(200);
    expect(viaSession.json().connection.profileId).toBe(s2);
  });
});

async function authOf() {
  return { tenantId: t.userId, userId: t.userId, isRoot: true, keyId: '', permissions: new Set<never>(), profileAccess: 'all' as const, profileIds: [], plan: 'advanced' as const, billingPeriod: 'monthly' as const, billingAnchor: new Date(0) };
}
