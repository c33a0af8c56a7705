/**
 * `GET /v1/auth/verify` (the official client's `apiKeys.verifyCredential`) for each kind of
 * credential Herald takes besides a full API key: a profile-scoped API key, an OAuth access token
 * issued for /mcp (decision 0049; consent and PKCE exchange over HTTP as a desktop assistant does
 * them), and the dashboard's session cookie. Each answer says who the credential belongs to and
 * what it may do, and reads no data; the OAuth token is taken by this route only (decision 0070).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Zernio, type ZernioApiError } from '@getlatedev/node';
import { createProfile, createTestApp, type Tenant, type TestContext } from '../support/app.ts';

const ORIGIN = 'http://localhost:80';
const REDIRECT = 'https://assistant.example/callback';
const password = 'a long enough password 1';
const email = 'verify-owner@example.test';

let ctx: TestContext;
let owner: Tenant;
let baseURL: string;
let brandA: string;
let brandB: string;
let session: { cookie: string; csrf: string };

beforeAll(async () => {
  ctx = await createTestApp({ listen: true });
  const { userId } = await ctx.services.users.createRootUser({ email, password, name: 'Verify Owner', plan: 'advanced' });
  const key = await ctx.services.apiKeys.create({ tenantId: userId, userId }, { name: 'full' });
  owner = { userId, apiKey: key.key, headers: { authorization: `Bearer ${key.key}` } };
  brandA = await createProfile(ctx, owner, 'Brand A');
  brandB = await createProfile(ctx, owner, 'Brand B');
  baseURL = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  const login = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, headers: { origin: ORIGIN, host: 'localhost:80' } });
  expect(login.statusCode, login.body).toBe(200);
  session = { cookie: String((login.headers['set-cookie'] as string[])[0]).split(';')[0], csrf: login.json().csrfToken };
});
afterAll(async () => { await ctx?.close(); });

const refusal = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as ZernioApiError);
const verifyWith = (headers: Record<string, string>) => ctx.app.inject({ method: 'GET', url: '/v1/auth/verify', headers });

/** An OAuth access token for /mcp: registration, the owner's consent (session + CSRF), the PKCE exchange. */
async function oauthToken(capabilities: string[], profileIds: string[]): Promise<{ access: string; refresh: string; clientId: string }> {
  const reg = await ctx.app.inject({ method: 'POST', url: '/oauth/register', payload: { client_name: 'Assistant', redirect_uris: [REDIRECT] } });
  expect(reg.statusCode, reg.body).toBe(201);
  const clientId = reg.json().client_id as string;
  const verifier = randomBytes(32).toString('base64url');
  const params = {
    client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', state: 's',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
  };
  const consent = await ctx.app.inject({
    method: 'POST', url: '/oauth/consent', headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, origin: ORIGIN, host: 'localhost:80' },
    payload: { params, allow: true, profileIds, capabilities },
  });
  expect(consent.statusCode, consent.body).toBe(200);
  const code = new URL(consent.json().redirectTo).searchParams.get('code')!;
  const token = await ctx.app.inject({
    method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier }).toString(),
  });
  expect(token.statusCode, token.body).toBe(200);
  return { access: token.json().access_token, refresh: token.json().refresh_token, clientId };
}

describe('GET /v1/auth/verify for each kind of credential', () => {
  it('a profile-scoped API key: api_key, its profiles only, its permissions, its expiry', async () => {
    const created = await ctx.app.inject({
      method: 'POST', url: '/v1/api-keys', headers: owner.headers,
      payload: { name: 'Brand A only', scope: 'profiles', profileIds: [brandA], permissions: ['posts:read', 'posts:write'], expiresIn: 30 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const scoped = created.json().apiKey as { key: string; expiresAt: string };
    const v = await new Zernio({ apiKey: scoped.key, baseURL }).apiKeys.verifyCredential();
    expect(v.response.status).toBe(200);
    expect(v.data).toEqual({
      valid: true, userId: owner.userId, name: 'Verify Owner', email, authType: 'api_key', scope: null,
      permissions: ['posts:read', 'posts:write'], profileAccess: 'profiles', profileIds: [brandA], expiresAt: scoped.expiresAt,
    });
    expect(Date.parse(scoped.expiresAt)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    // The full key, for comparison: every profile, no expiry.
    const full = (await new Zernio({ apiKey: owner.apiKey, baseURL }).apiKeys.verifyCredential()).data as Record<string, unknown>;
    expect(full).toMatchObject({ authType: 'api_key', profileAccess: 'all', profileIds: [], expiresAt: null, scope: null });
  });

  it('an OAuth access token of /mcp: oauth, the granted scope, the capabilities\' permissions and profiles; other /v1 routes still refuse it; revoked is 401', async () => {
    const { access, refresh, clientId } = await oauthToken(['read', 'drafts'], [brandB]);
    expect(access).toMatch(/^hma_/);
    const sdk = new Zernio({ apiKey: access, baseURL });
    const v = await sdk.apiKeys.verifyCredential();
    expect(v.response.status).toBe(200);
    const data = v.data as Record<string, unknown>;
    expect(data).toMatchObject({ valid: true, userId: owner.userId, name: 'Verify Owner', email, authType: 'oauth', profileAccess: 'profiles', profileIds: [brandB], expiresAt: null });
    expect(String(data.scope).split(' ').sort()).toEqual(['drafts', 'read']);
    expect(data.permissions).toEqual(['accounts:read', 'analytics:read', 'media:read', 'media:write', 'posts:read', 'posts:write', 'profiles:read', 'queue:read', 'usage:read']);

    // Only the route that reads no data takes the token: the rest of /v1 is for API keys and sessions.
    expect((await refusal(sdk.posts.listPosts()))?.statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: { authorization: `Bearer ${access}` } })).statusCode).toBe(401);

    // Revoking the grant (its refresh token) ends the access token at once.
    const revoked = await ctx.app.inject({ method: 'POST', url: '/oauth/revoke', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ token: refresh, client_id: clientId }).toString() });
    expect(revoked.statusCode).toBe(200);
    const after = await refusal(sdk.apiKeys.verifyCredential());
    expect(after?.statusCode).toBe(401);
    expect((await verifyWith({ authorization: 'Bearer hma_not-a-token' })).statusCode).toBe(401);
  });

  it('the dashboard session (cookie): session, every profile and permission of the owner, no scope, no expiry', async () => {
    const res = await verifyWith({ cookie: session.cookie, origin: ORIGIN, host: 'localhost:80' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ valid: true, userId: owner.userId, name: 'Verify Owner', email, authType: 'session', scope: null, profileAccess: 'all', profileIds: [], expiresAt: null });
    expect(body.permissions).toEqual(expect.arrayContaining(['posts:read', 'posts:write', 'accounts:write', 'profiles:write']));
    // A cookie that is not a live session: 401.
    expect((await verifyWith({ cookie: `${session.cookie.split('=')[0]}=expired-or-forged`, origin: ORIGIN, host: 'localhost:80' })).statusCode).toBe(401);
  });
});
