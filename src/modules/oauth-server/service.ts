/**
 * Herald as the OAuth 2.1 authorization server of its MCP endpoint
 * (docs/decisions/0049-oauth-for-mcp.md): dynamic client registration (RFC 7591), the
 * authorization code grant with PKCE S256 only, rotating refresh tokens, revocation (RFC 7009),
 * and the access tokens /mcp accepts. The grant types themselves (code exchange, PKCE
 * verification, refresh rotation, scope checks, error codes) are run by
 * `@node-oauth/oauth2-server` on the model below; codes and tokens are stored hashed.
 */
import { randomBytes } from 'node:crypto';
import OAuth2Server from '@node-oauth/oauth2-server';
import { AppError, FieldErrorCollector, fieldError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Db } from '../../storage/db.ts';
import { countHit } from '../../storage/rate-limit-counters.ts';
import type { AuthContext } from '../auth/context.ts';
import type { Permission } from '../../shared/permissions.ts';
import { CAPABILITIES, type Capability } from '../mcp/tools.ts';
import type { McpCaller } from '../mcp/server.ts';
import { createOAuthRepository, digest, type ConnectedAppRow } from './repository.ts';

/** Access tokens live one hour: short, and a revocation ends them at once anyway. */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** Refresh tokens live 30 days and are replaced by every use. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 86_400;
/** Authorization codes live five minutes and are single use. */
export const CODE_TTL_SECONDS = 300;
/** Client registrations accepted per client address and hour (registration is open: RFC 7591 section 3). */
export const REGISTRATIONS_PER_HOUR = 20;
const MAX_REDIRECT_URIS = 10;

/** The Herald permissions each MCP capability carries (what the in-process /v1 requests may do). */
const CAPABILITY_PERMISSIONS: Record<Capability, Permission[]> = {
  read: ['posts:read', 'profiles:read', 'accounts:read', 'media:read', 'usage:read', 'queue:read', 'analytics:read'],
  drafts: ['posts:write', 'media:write'],
  publish: ['posts:write', 'media:write'],
  delete: ['posts:write'],
};

const isCapability = (s: string): s is Capability => (CAPABILITIES as readonly string[]).includes(s);

/** An OAuth error answer (RFC 6749 section 5.2): status and body. */
export interface OAuthAnswer { status: number; body: Record<string, unknown>; headers?: Record<string, string> }

/** Schemes a redirect URI must not use (RFC 8252 allows private-use schemes such as cursor://). */
const REFUSED_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:']);

/** Why a redirect URI cannot be registered, or null. https anywhere; http only to a loopback host (RFC 8252 section 7.3). */
export function redirectUriProblem(uri: string): string | null {
  let u: URL;
  try { u = new URL(uri); } catch { return 'must be an absolute URI'; }
  if (u.hash) return 'must not have a fragment';
  if (REFUSED_SCHEMES.has(u.protocol)) return `must not use ${u.protocol}`;
  if (u.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(u.hostname)) return 'http is only allowed to localhost or 127.0.0.1; use https';
  if (u.username || u.password) return 'must not carry credentials';
  return null;
}

/** The host a redirect URI sends the browser to (the thing a user can check on the consent page). */
export function redirectHost(uri: string): string | null {
  try {
    const u = new URL(uri);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.host : `${u.protocol}//${u.host}`;
  } catch { return null; }
}

export interface OAuthServerDeps {
  db: Db;
  clock: () => Date;
  /** The resource identifier tokens are issued for (the /mcp URL). */
  resource: string;
  /** The authorization server's issuer (Herald's public URL). */
  issuer: string;
}

interface ModelUser { grantId: string }

/** The library reads its requests as form posts (it checks the type and that there is a body: content-length). */
const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '1' };

export function createOAuthServerService({ db, clock, resource, issuer }: OAuthServerDeps) {
  const repo = createOAuthRepository(db);
  const now = () => clock();
  const later = (seconds: number) => new Date(now().getTime() + seconds * 1000);
  const token = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;
  const asClient = (c: { id: string; redirect_uris: string[] }) => ({ id: c.id, redirectUris: c.redirect_uris, grants: ['authorization_code', 'refresh_token'] });

  // The library's model: storage only; every protocol rule is the library's.
  const model = {
    async getClient(clientId: string) {
      const c = await repo.client(clientId);
      return c ? asClient(c) : null;
    },
    generateAuthorizationCode: async () => token('hmc_'),
    generateAccessToken: async () => token('hma_'),
    generateRefreshToken: async () => token('hmr_'),
    async validateScope(_user: unknown, _client: unknown, scope?: string[]) {
      const valid = (scope ?? []).filter(isCapability);
      return valid.length > 0 && valid.length === (scope ?? []).length ? valid : false;
    },
    async saveAuthorizationCode(code: { authorizationCode: string; expiresAt: Date; redirectUri: string; scope?: string[]; codeChallenge?: string }, client: { id: string },
      user: { tenantId: string; userId: string; profileIds: string[]; capabilities: Capability[] }) {
      const grantId = newId();
      await repo.insertGrant({ id: grantId, client_id: client.id, user_id: user.userId, tenant_id: user.tenantId, profile_ids: user.profileIds, capabilities: user.capabilities, created_at: now() });
      await repo.insertCode(digest(code.authorizationCode), {
        grant_id: grantId, redirect_uri: code.redirectUri, code_challenge: code.codeChallenge ?? '', scope: (code.scope ?? []).join(' '), expires_at: code.expiresAt,
      });
      return { ...code, client, user: { grantId } };
    },
    async getAuthorizationCode(code: string) {
      const row = await repo.code(digest(code));
      if (!row) return null;
      return {
        authorizationCode: code, expiresAt: row.expires_at, redirectUri: row.redirect_uri, scope: row.scope.split(' '),
        client: { id: row.client_id }, user: { grantId: row.grant_id } satisfies ModelUser, codeChallenge: row.code_challenge, codeChallengeMethod: 'S256',
      };
    },
    async revokeAuthorizationCode(code: { authorizationCode: string; user: ModelUser }) {
      if (await repo.useCode(digest(code.authorizationCode), now())) return true;
      // A code presented twice: it was intercepted or replayed, so what it gave ends too (RFC 6749 section 4.1.2).
      await repo.revokeGrant(code.user.grantId, now());
      return false;
    },
    async saveToken(t: { accessToken: string; accessTokenExpiresAt?: Date; refreshToken?: string; refreshTokenExpiresAt?: Date; scope?: string[] }, client: { id: string }, user: ModelUser) {
      const scope = (t.scope ?? []).join(' ');
      await repo.insertToken(digest(t.accessToken), { kind: 'access', grant_id: user.grantId, scope, created_at: now(), expires_at: t.accessTokenExpiresAt ?? later(ACCESS_TOKEN_TTL_SECONDS) });
      if (t.refreshToken) {
        await repo.insertToken(digest(t.refreshToken), { kind: 'refresh', grant_id: user.grantId, scope, created_at: now(), expires_at: t.refreshTokenExpiresAt ?? later(REFRESH_TOKEN_TTL_SECONDS) });
      }
      return { ...t, client, user };
    },
    async getAccessToken(accessToken: string) {
      const row = await repo.token(digest(accessToken));
      if (!row || row.kind !== 'access' || row.revoked_at || row.grant_revoked_at) return null;
      return { accessToken, accessTokenExpiresAt: row.expires_at, scope: row.scope.split(' '), client: { id: row.client_id }, user: { grantId: row.grant_id } };
    },
    async getRefreshToken(refreshToken: string) {
      const row = await repo.token(digest(refreshToken));
      if (!row || row.kind !== 'refresh' || row.grant_revoked_at) return null;
      if (row.revoked_at) {
        // A rotated-away refresh token came back: someone holds a copy, so the grant ends (RFC 9700 section 4.14.2).
        await repo.revokeGrant(row.grant_id, now());
        return null;
      }
      return { refreshToken, refreshTokenExpiresAt: row.expires_at, scope: row.scope.split(' '), client: { id: row.client_id }, user: { grantId: row.grant_id } };
    },
    async revokeToken(t: { refreshToken: string }) {
      return repo.revokeToken(digest(t.refreshToken), now());
    },
  };

  const server = new OAuth2Server({
    model: model as unknown as OAuth2Server.AuthorizationCodeModel & OAuth2Server.RefreshTokenModel,
    accessTokenLifetime: ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenLifetime: REFRESH_TOKEN_TTL_SECONDS,
    authorizationCodeLifetime: CODE_TTL_SECONDS,
    allowEmptyState: true,
    alwaysIssueNewRefreshToken: true,
    requireClientAuthentication: { authorization_code: false, refresh_token: false },
    allowBearerTokensInQueryString: false,
  });

  /** The `resource` parameter, when sent, must name /mcp (RFC 8707 section 2). */
  function checkResource(value: unknown): OAuthAnswer | null {
    if (value === undefined || value === '') return null;
    const norm = (s: string) => s.replace(/\/+$/, '');
    if (typeof value === 'string' && norm(value) === norm(resource)) return null;
    return { status: 400, body: { error: 'invalid_target', error_description: `resource must be ${resource}` } };
  }

  function oauthError(err: unknown): OAuthAnswer {
    if (err instanceof OAuth2Server.OAuthError) {
      const status = err.code >= 500 ? 500 : err.code;
      return { status, body: { error: err.name, error_description: err.message } };
    }
    throw err;
  }

  return {
    /** The resource /mcp tokens are issued for. */
    resource,
    issuer,

    /**
     * Registers a public client (RFC 7591). Open, limited per client address.
     * @throws AppError VALIDATION_ERROR naming the field; RATE_LIMITED past {@link REGISTRATIONS_PER_HOUR}.
     */
    async register(body: Record<string, unknown>, address: string) {
      const errs = new FieldErrorCollector();
      const uris = body.redirect_uris;
      if (!Array.isArray(uris) || uris.length === 0) errs.add('redirect_uris', 'is required: a list of one or more redirect URIs');
      else if (uris.length > MAX_REDIRECT_URIS) errs.add('redirect_uris', `has at most ${MAX_REDIRECT_URIS} entries`);
      else uris.forEach((u, i) => {
        const problem = typeof u === 'string' && u.length <= 2000 ? redirectUriProblem(u) : 'must be a URI of at most 2000 characters';
        if (problem) errs.add(`redirect_uris.${i}`, problem);
      });
      const name = body.client_name ?? 'Unnamed client';
      if (typeof name !== 'string' || name.trim().length === 0 || name.length > 100) errs.add('client_name', 'must be 1 to 100 characters');
      const method = body.token_endpoint_auth_method ?? 'none';
      if (method !== 'none') errs.add('token_endpoint_auth_method', 'must be "none": Herald registers public clients that prove themselves with PKCE');
      for (const [field, allowed] of [['grant_types', ['authorization_code', 'refresh_token']], ['response_types', ['code']]] as const) {
        const v = body[field];
        if (v !== undefined && (!Array.isArray(v) || v.some((x) => !(allowed as readonly string[]).includes(x)))) errs.add(field, `may only contain ${allowed.join(', ')}`);
      }
      errs.throwIfAny();
      const hit = await countHit(db, `oauth-register:${address}`, 3_600_000, now().getTime());
      if (hit.count > REGISTRATIONS_PER_HOUR) {
        throw new AppError('RATE_LIMITED', `Too many client registrations from this address: at most ${REGISTRATIONS_PER_HOUR} an hour`, { limit: REGISTRATIONS_PER_HOUR, window: 'hour' });
      }
      const client = { id: `hmcp_${randomBytes(16).toString('hex')}`, client_name: (name as string).trim(), redirect_uris: uris as string[], created_at: now() };
      await repo.insertClient(client);
      return {
        client_id: client.id, client_id_issued_at: Math.floor(client.created_at.getTime() / 1000), client_name: client.client_name,
        redirect_uris: client.redirect_uris, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'],
        scope: CAPABILITIES.join(' '),
      };
    },

    /**
     * Checks an authorization request before the consent page: the client and its exact
     * redirect URI first (a bad one is answered here, never redirected to), then response type,
     * PKCE S256 and the resource (those go back to the client's redirect URI).
     */
    async checkAuthorizationRequest(q: Record<string, unknown>): Promise<
      { kind: 'error'; status: number; error: string; description: string } | { kind: 'redirect'; location: string } | { kind: 'ok'; client: { id: string; name: string; redirectUri: string; redirectHost: string | null } }> {
      const clientId = typeof q.client_id === 'string' ? q.client_id : '';
      const client = clientId ? await repo.client(clientId) : undefined;
      if (!client) return { kind: 'error', status: 400, error: 'invalid_client', description: 'Unknown client_id' };
      const redirectUri = typeof q.redirect_uri === 'string' ? q.redirect_uri : '';
      // Exact string match with a registered URI (RFC 9700 section 4.1.3).
      if (!client.redirect_uris.includes(redirectUri)) return { kind: 'error', status: 400, error: 'invalid_request', description: 'redirect_uri is not one this client registered' };
      const back = (error: string, description: string) => {
        const u = new URL(redirectUri);
        u.searchParams.set('error', error);
        u.searchParams.set('error_description', description);
        if (typeof q.state === 'string') u.searchParams.set('state', q.state);
        u.searchParams.set('iss', issuer);
        return { kind: 'redirect' as const, location: u.toString() };
      };
      if (q.response_type !== 'code') return back('unsupported_response_type', 'response_type must be code');
      if (typeof q.code_challenge !== 'string' || !/^[A-Za-z0-9._~-]{43,128}$/.test(q.code_challenge)) return back('invalid_request', 'PKCE is required: send code_challenge (S256)');
      if (q.code_challenge_method !== 'S256') return back('invalid_request', 'code_challenge_method must be S256');
      if (checkResource(q.resource)) return back('invalid_target', `resource must be ${resource}`);
      if (q.scope !== undefined && (typeof q.scope !== 'string' || q.scope.split(' ').some((s) => s && !isCapability(s)))) return back('invalid_scope', `scope may contain ${CAPABILITIES.join(', ')}`);
      return { kind: 'ok', client: { id: client.id, name: client.client_name, redirectUri, redirectHost: redirectHost(redirectUri) } };
    },

    /**
     * The user's decision on the consent page: a code for the chosen profiles and capabilities,
     * or access_denied, as the redirect to send the browser to.
     * @throws AppError VALIDATION_ERROR naming profileIds or capabilities.
     */
    async decide(auth: AuthContext, visibleProfileIds: readonly string[], params: Record<string, string>, choice: { allow: boolean; profileIds: string[]; capabilities: string[] }): Promise<{ redirectTo: string }> {
      const checked = await this.checkAuthorizationRequest(params);
      if (checked.kind === 'error') throw fieldError('redirect_uri', checked.description);
      if (checked.kind === 'redirect') return { redirectTo: checked.location };
      if (choice.allow) {
        const errs = new FieldErrorCollector();
        if (choice.profileIds.length === 0) errs.add('profileIds', 'choose at least one profile');
        for (const id of choice.profileIds) if (!visibleProfileIds.includes(id)) errs.add('profileIds', `${id} is not one of your profiles`);
        if (choice.capabilities.length === 0 || choice.capabilities.some((c) => !isCapability(c))) errs.add('capabilities', `choose from ${CAPABILITIES.join(', ')}`);
        errs.throwIfAny();
      }
      const request = new OAuth2Server.Request({
        method: 'POST', headers: FORM_HEADERS, query: {},
        body: { ...params, scope: [...new Set(choice.capabilities)].join(' '), allowed: choice.allow ? 'true' : 'false' },
      });
      const response = new OAuth2Server.Response({ headers: {} });
      const user = { tenantId: auth.tenantId, userId: auth.userId, profileIds: [...new Set(choice.profileIds)], capabilities: [...new Set(choice.capabilities)] };
      try {
        await server.authorize(request, response, { authenticateHandler: { handle: async () => user } });
      } catch (err) {
        if (!(err instanceof OAuth2Server.OAuthError)) throw err;
      }
      const location = response.get('location') as string | undefined;
      if (!location) throw new AppError('INTERNAL_ERROR', 'The authorization did not produce a redirect');
      const u = new URL(location);
      u.searchParams.set('iss', issuer); // RFC 9207: the client can tell which server answered.
      return { redirectTo: u.toString() };
    },

    /** The token endpoint (RFC 6749 section 3.2): authorization_code with PKCE, refresh_token with rotation. */
    async token(body: Record<string, unknown>): Promise<OAuthAnswer> {
      const target = checkResource(body.resource);
      if (target) return target;
      const request = new OAuth2Server.Request({ method: 'POST', headers: FORM_HEADERS, query: {}, body });
      const response = new OAuth2Server.Response({ headers: {} });
      try {
        await server.token(request, response);
        return { status: 200, body: response.body as Record<string, unknown> };
      } catch (err) {
        return oauthError(err);
      }
    },

    /** Token revocation (RFC 7009): a refresh token ends its whole grant, an access token itself. Always 200. */
    async revoke(body: Record<string, unknown>): Promise<OAuthAnswer> {
      if (typeof body.token !== 'string' || !body.token) return { status: 400, body: { error: 'invalid_request', error_description: 'token is required' } };
      const row = await repo.token(digest(body.token));
      if (row && (typeof body.client_id !== 'string' || body.client_id === row.client_id)) {
        if (row.kind === 'refresh') await repo.revokeGrant(row.grant_id, now());
        else await repo.revokeToken(digest(body.token), now());
      }
      return { status: 200, body: {} };
    },

    /**
     * The /mcp caller of an access token: the grant's user, limited to the grant's profiles (and,
     * for a team member, to the member's own) and to the chosen capabilities.
     * @throws AppError UNAUTHORIZED for a token that is unknown, expired or revoked (its grant included).
     */
    async authenticateMcp(accessToken: string): Promise<McpCaller> {
      const t = now();
      const row = accessToken.length <= 200 ? await repo.accessTokenUser(digest(accessToken), t) : undefined;
      if (!row) throw new AppError('UNAUTHORIZED', 'Unauthorized', { reason: 'Invalid or expired access token' });
      if (!row.last_used_at || t.getTime() - row.last_used_at.getTime() > 60_000) repo.touchGrant(row.grant_id, t).catch(() => {});
      const capabilities = new Set(row.scope.split(' ').filter(isCapability));
      const permissions = new Set<Permission>([...capabilities].flatMap((c) => CAPABILITY_PERMISSIONS[c]));
      const memberProfiles = row.profile_access === 'profiles' ? row.user_profile_ids.map((s) => s.trim()) : null;
      const profileIds = row.profile_ids.filter((p) => !memberProfiles || memberProfiles.includes(p));
      const auth: AuthContext = {
        tenantId: row.tenant_id, userId: row.user_id, isRoot: false, keyId: `oauth:${row.grant_id}`, grantId: row.grant_id, permissions, keyExpiresAt: null,
        profileAccess: 'profiles', profileIds, plan: row.plan, billingPeriod: row.billing_period, billingAnchor: row.billing_anchor,
      };
      return { auth, capabilities };
    },

    /** The scope (capabilities, space-separated) of the caller's grant, or null when the caller is not an OAuth grant. */
    async scopeOf(auth: AuthContext): Promise<string | null> {
      if (!auth.grantId) return null;
      const caps = await repo.grantCapabilities(auth.tenantId, auth.grantId);
      return caps ? caps.join(' ') : null;
    },

    /** The tenant's connected apps (the Late client's ConnectedApp shape). */
    async connectedApps(tenantId: string) {
      const rows = await repo.connectedApps(tenantId, now());
      return { connectedApps: rows.map(connectedAppView) };
    },

    /** Revokes every grant of a client in the tenant: all its tokens stop at once. */
    async revokeConnectedApp(tenantId: string, clientId: string) {
      const r = await repo.revokeClient(tenantId, clientId, now());
      if (r.grants === 0) throw new AppError('NOT_FOUND', 'Connected app not found');
      return { revoked: true, clientId, revokedTokens: r.tokens, invalidatedCodes: r.codes };
    },
  };
}

function connectedAppView(r: ConnectedAppRow) {
  return {
    clientId: r.client_id, clientName: r.client_name, redirectHost: r.redirect_uris[0] ? redirectHost(r.redirect_uris[0]) : null,
    scopes: r.scope ? r.scope.split(' ') : [], profileIds: r.profile_ids,
    authorizedAt: r.authorized_at.toISOString(), lastUsedAt: r.last_used_at ? r.last_used_at.toISOString() : null, tokenCount: r.token_count,
  };
}

export type OAuthServerService = ReturnType<typeof createOAuthServerService>;
