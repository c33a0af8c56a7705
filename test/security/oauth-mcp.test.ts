/**
 * Attack cases on Herald's OAuth server for /mcp (docs/decisions/0049-oauth-for-mcp.md): the
 * redirect URI must match a registered one exactly (else no redirect at all), a code is single
 * use (its reuse ends what it gave), PKCE is required and S256 only (no downgrade to plain or to
 * none), tokens in URLs are refused, the consent needs the session's CSRF token and this origin,
 * open registration is limited per address, and a team member cannot manage connected apps.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRATIONS_PER_HOUR } from '../../src/modules/oauth-server/service.ts';
import { redactUrl } from '../../src/http/log-redaction.ts';
import { createProfile, createTestApp, type Tenant, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let owner: Tenant;
let profileId: string;
let cookie: string;
let csrf: string;
const password = 'a long enough password 1';
const REDIRECT = 'https://assistant.example/callback';
const ORIGIN = 'http://localhost:80';

beforeAll(async () => {
  ctx = await createTestApp();
  const { userId } = await ctx.services.users.createRootUser({ email: 'oauth-owner@example.test', password, name: 'Owner', plan: 'advanced' });
  const key = await ctx.services.apiKeys.create({ tenantId: userId, userId }, { name: 'k' });
  owner = { userId, apiKey: key.key, headers: { authorization: `Bearer ${key.key}` } };
  profileId = await createProfile(ctx, owner);
  const login = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'oauth-owner@example.test', password }, headers: { origin: ORIGIN, host: 'localhost:80' } });
  cookie = String((login.headers['set-cookie'] as string[])[0]).split(';')[0];
  csrf = login.json().csrfToken;
});
afterAll(async () => { await ctx.close(); });

let addr = 0;
const register = (body: object, remoteAddress = `192.0.2.${++addr % 250}`) => ctx.app.inject({ method: 'POST', url: '/oauth/register', payload: body, remoteAddress });
const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};
const form = (url: string, body: Record<string, string>) => ctx.app.inject({
  method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(body).toString(),
});

async function newClient(): Promise<string> {
  const res = await register({ client_name: 'Assistant', redirect_uris: [REDIRECT] });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().client_id;
}

/** Consents as the owner (session cookie + CSRF) and answers the code. */
async function code(clientId: string, challenge: string, capabilities = ['read']): Promise<string> {
  const params = { client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', state: 's1' };
  const res = await ctx.app.inject({ method: 'POST', url: '/oauth/consent', headers: { cookie, 'x-csrf-token': csrf, origin: ORIGIN, host: 'localhost:80' }, payload: { params, allow: true, profileIds: [profileId], capabilities } });
  expect(res.statusCode, res.body).toBe(200);
  const to = new URL(res.json().redirectTo);
  expect(to.origin + to.pathname).toBe(REDIRECT);
  expect(to.searchParams.get('state')).toBe('s1');
  return to.searchParams.get('code')!;
}

describe('OAuth metadata', () => {
  it('serves RFC 9728 and RFC 8414 metadata naming S256 only and public clients', async () => {
    const pr = (await ctx.app.inject({ method: 'GET', url: '/.well-known/oauth-protected-resource/mcp' })).json();
    expect(pr.resource).toBe(`${ctx.services.publicUrl}/mcp`);
    const as = (await ctx.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json();
    expect(pr.authorization_servers).toEqual([as.issuer]);
    expect(as).toMatchObject({ code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['none'], response_types_supported: ['code'] });
  });
});

describe('registration', () => {
  it('refuses bad redirect URIs naming the field, and non-public clients', async () => {
    for (const uri of ['javascript:alert(1)', 'http://evil.example/cb', 'https://a.example/cb#frag', 'not a uri']) {
      const res = await register({ client_name: 'x', redirect_uris: [uri] });
      expect(res.statusCode, uri).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_redirect_uri', code: 'VALIDATION_ERROR', details: { fields: { 'redirect_uris.0': [expect.any(String)] } } });
    }
    expect((await register({ client_name: 'x' })).json().details.fields).toHaveProperty('redirect_uris');
    expect((await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' })).json().details.fields).toHaveProperty('token_endpoint_auth_method');
    expect((await register({ redirect_uris: ['http://127.0.0.1:33418/cb', 'cursor://anysphere.cursor-retrieval/oauth/callback'] })).statusCode).toBe(201);
  });

  it('limits open registration per client address', async () => {
    let last = 0;
    for (let i = 0; i <= REGISTRATIONS_PER_HOUR; i++) last = (await register({ redirect_uris: [REDIRECT] }, '198.51.100.7')).statusCode;
    expect(last).toBe(429);
    expect((await register({ redirect_uris: [REDIRECT] }, '198.51.100.8')).statusCode).toBe(201);
  });
});

describe('authorization', () => {
  it('never redirects to a redirect URI that is not registered exactly', async () => {
    const clientId = await newClient();
    const { challenge } = pkce();
    for (const uri of [`${REDIRECT}/`, `${REDIRECT}?x=1`, 'https://assistant.example.evil.example/callback', 'https://evil.example/callback']) {
      const res = await ctx.app.inject({ method: 'GET', url: `/oauth/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: uri, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256' })}` });
      expect(res.statusCode, uri).toBe(400);
      expect(res.headers.location).toBeUndefined();
    }
    const ok = await ctx.app.inject({ method: 'GET', url: `/oauth/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', state: 'x' })}` });
    expect(ok.statusCode).toBe(302);
    expect(ok.headers.location).toMatch(/^\/dashboard\/oauth\/consent\?/);
  });

  it('requires PKCE with S256: no challenge or plain goes back as invalid_request', async () => {
    const clientId = await newClient();
    for (const extra of [{}, { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, { code_challenge: 'a'.repeat(43) }] as Record<string, string>[]) {
      const res = await ctx.app.inject({ method: 'GET', url: `/oauth/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', state: 'z', ...extra })}` });
      expect(res.statusCode).toBe(302);
      const to = new URL(res.headers.location as string);
      expect(to.searchParams.get('error')).toBe('invalid_request');
      expect(to.searchParams.get('state')).toBe('z');
    }
  });

  it('the consent needs the session, its CSRF token and this origin', async () => {
    const clientId = await newClient();
    const params = { client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', code_challenge: pkce().challenge, code_challenge_method: 'S256' };
    const payload = { params, allow: true, profileIds: [profileId], capabilities: ['read'] };
    const noCsrf = await ctx.app.inject({ method: 'POST', url: '/oauth/consent', headers: { cookie, origin: ORIGIN, host: 'localhost:80' }, payload });
    expect(noCsrf.statusCode).toBe(403);
    const crossSite = await ctx.app.inject({ method: 'POST', url: '/oauth/consent', headers: { cookie, 'x-csrf-token': csrf, origin: 'https://evil.example', host: 'localhost:80' }, payload });
    expect(crossSite.statusCode).toBe(403);
    const noSession = await ctx.app.inject({ method: 'POST', url: '/oauth/consent', headers: { 'x-csrf-token': csrf, origin: ORIGIN, host: 'localhost:80' }, payload });
    expect(noSession.statusCode).toBe(401);
    const foreignProfile = await ctx.app.inject({ method: 'POST', url: '/oauth/consent', headers: { cookie, 'x-csrf-token': csrf, origin: ORIGIN, host: 'localhost:80' }, payload: { ...payload, profileIds: ['0123456789abcdef01234567'] } });
    expect(foreignProfile.statusCode).toBe(400);
    expect(foreignProfile.json().details.fields).toHaveProperty('profileIds');
    expect((await ctx.db.query('SELECT count(*)::int AS n FROM oauth_grants WHERE client_id = $1', [clientId])).rows[0].n).toBe(0);
  });
});

describe('deny', () => {
  it('a refusal goes back to the client as access_denied with its state, and grants nothing', async () => {
    const clientId = await newClient();
    const params = { client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', code_challenge: pkce().challenge, code_challenge_method: 'S256', state: 'st' };
    const res = await ctx.app.inject({ method: 'POST', url: '/oauth/consent', headers: { cookie, 'x-csrf-token': csrf, origin: ORIGIN, host: 'localhost:80' }, payload: { params, allow: false } });
    expect(res.statusCode).toBe(200);
    const to = new URL(res.json().redirectTo);
    expect(to.origin + to.pathname).toBe(REDIRECT);
    expect(to.searchParams.get('error')).toBe('access_denied');
    expect(to.searchParams.get('state')).toBe('st');
    expect(to.searchParams.get('code')).toBeNull();
    expect((await ctx.db.query('SELECT count(*)::int AS n FROM oauth_grants WHERE client_id = $1', [clientId])).rows[0].n).toBe(0);
  });
});

describe('token endpoint', () => {
  it('a code is single use: its reuse fails and ends the tokens it gave', async () => {
    const clientId = await newClient();
    const { verifier, challenge } = pkce();
    const c = await code(clientId, challenge);
    const exchange = () => form('/oauth/token', { grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
    const first = await exchange();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ token_type: 'Bearer', scope: 'read' });
    expect(first.json().expires_in).toBeLessThanOrEqual(3600);
    const second = await exchange();
    expect(second.statusCode).toBe(400);
    expect(second.json().error).toBe('invalid_grant');
    const mcp = await ctx.app.inject({ method: 'POST', url: '/mcp', headers: { authorization: `Bearer ${first.json().access_token}`, 'content-type': 'application/json' }, payload: {} });
    expect(mcp.statusCode).toBe(401);
  });

  it('refuses a wrong verifier, a missing verifier (PKCE downgrade) and another redirect URI', async () => {
    const clientId = await newClient();
    const { verifier, challenge } = pkce();
    for (const body of [
      { code_verifier: pkce().verifier },
      {},
      { code_verifier: verifier, redirect_uri: 'https://evil.example/callback' },
    ] as Record<string, string>[]) {
      const c = await code(clientId, challenge);
      const res = await form('/oauth/token', { grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT, client_id: clientId, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(['invalid_grant', 'invalid_request']).toContain(res.json().error);
    }
    const other = await newClient();
    const c = await code(clientId, challenge);
    const stolen = await form('/oauth/token', { grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT, client_id: other, code_verifier: verifier });
    expect(stolen.statusCode).toBe(400);
  });

  it('refuses tokens and codes in URLs', async () => {
    const clientId = await newClient();
    const { verifier, challenge } = pkce();
    const c = await code(clientId, challenge);
    const inUrl = await ctx.app.inject({ method: 'POST', url: `/oauth/token?${new URLSearchParams({ code: c, code_verifier: verifier })}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, redirect_uri: REDIRECT }).toString() });
    expect(inUrl.statusCode).toBe(400);
    // The refused request's log line does not carry them either.
    expect(redactUrl(`/oauth/token?code=${c}&code_verifier=${verifier}&client_secret=x`)).toBe('/oauth/token?code=[redacted]&code_verifier=[redacted]&client_secret=[redacted]');
    expect(redactUrl(`/mcp?access_token=hma_x`)).toBe('/mcp?access_token=[redacted]');
    const ok = await form('/oauth/token', { grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
    const access = ok.json().access_token as string;
    const viaQuery = await ctx.app.inject({ method: 'POST', url: `/mcp?access_token=${access}`, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(viaQuery.statusCode).toBe(401);
    const viaHeader = await ctx.app.inject({ method: 'POST', url: '/mcp', headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(viaHeader.statusCode).toBe(200);
    // An OAuth token is for /mcp only: /v1 does not take it.
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/posts', headers: { authorization: `Bearer ${access}` } })).statusCode).toBe(401);
    // Revocation (RFC 7009) of the access token ends it.
    expect((await form('/oauth/revoke', { token: access, client_id: clientId })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'POST', url: '/mcp', headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' }, payload: {} })).statusCode).toBe(401);
  });
});

describe('resource and revocation', () => {
  it('refuses a token for another resource (RFC 8707), and revoking a refresh token ends its grant', async () => {
    const clientId = await newClient();
    const { verifier, challenge } = pkce();
    const wrong = await form('/oauth/token', { grant_type: 'authorization_code', code: await code(clientId, challenge), redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier, resource: 'https://other.example/mcp' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('invalid_target');
    const c = await code(clientId, challenge);
    const ok = await form('/oauth/token', { grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier, resource: `${ctx.services.publicUrl}/mcp` });
    expect(ok.statusCode, ok.body).toBe(200);
    const { access_token: access, refresh_token: refresh } = ok.json();
    const mcp = () => ctx.app.inject({ method: 'POST', url: '/mcp', headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    expect((await mcp()).statusCode).toBe(200);
    expect((await form('/oauth/revoke', { token: refresh, token_type_hint: 'refresh_token', client_id: clientId })).statusCode).toBe(200);
    expect((await mcp()).statusCode).toBe(401);
    expect((await form('/oauth/token', { grant_type: 'refresh_token', refresh_token: refresh, client_id: clientId })).json().error).toBe('invalid_grant');
  });
});

describe('connected apps', () => {
  it('only the owner lists and revokes them: not a team member, not another tenant', async () => {
    const clientId = await newClient();
    const { verifier, challenge } = pkce();
    await form('/oauth/token', { grant_type: 'authorization_code', code: await code(clientId, challenge), redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
    const list = await ctx.app.inject({ method: 'GET', url: '/v1/me/connected-apps', headers: owner.headers });
    expect(list.json().connectedApps.map((a: { clientId: string }) => a.clientId)).toContain(clientId);
    const { userId: memberId } = await ctx.services.users.createMember(ctx.db, {
      tenantId: owner.userId, invitedBy: owner.userId, email: 'member@example.test', name: 'Member', password, scope: 'all', profileIds: [],
    });
    const mk = await ctx.services.apiKeys.create({ tenantId: owner.userId, userId: memberId }, { name: 'm' });
    for (const [method, url] of [['GET', '/v1/me/connected-apps'], ['DELETE', `/v1/me/connected-apps/${clientId}`]] as const) {
      const asMember = await ctx.app.inject({ method, url, headers: { authorization: `Bearer ${mk.key}` } });
      expect(asMember.statusCode).toBe(403);
    }
    const revoke = await ctx.app.inject({ method: 'DELETE', url: `/v1/me/connected-apps/${clientId}`, headers: owner.headers });
    expect(revoke.statusCode).toBe(200);
    expect(revoke.json()).toMatchObject({ revoked: true, clientId, revokedTokens: 2 });
    expect((await ctx.app.inject({ method: 'DELETE', url: `/v1/me/connected-apps/${clientId}`, headers: owner.headers })).statusCode).toBe(404);
  });
});
