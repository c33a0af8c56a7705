/**
 * The OAuth endpoints of Herald's authorization server for /mcp (docs/decisions/0049-oauth-for-mcp.md):
 * metadata (RFC 9728, RFC 8414), registration (RFC 7591), authorization (the browser goes on to
 * the dashboard's consent page), token, revocation (RFC 7009), and the consent page's two calls.
 * The protocol endpoints answer in OAuth's error shape (`error`, `error_description`), which clients
 * parse, plus Herald's `code`, `details.fields` and `requestId`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.ts';
import type { Services } from '../../services.ts';
import { assertCsrf, sessionToken } from '../sessions/http.ts';
import { CAPABILITIES, CAPABILITY_LABELS } from '../mcp/tools.ts';
import { MCP_PATH } from '../mcp/routes.ts';

/** The dashboard page that asks the user (web/src/dashboard). */
export const CONSENT_PAGE = '/dashboard/oauth/consent';
/** The authorization request's parameters the consent page hands back. */
const AUTHORIZE_PARAMS = ['client_id', 'redirect_uri', 'response_type', 'state', 'code_challenge', 'code_challenge_method', 'scope', 'resource'] as const;

function pickParams(source: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of AUTHORIZE_PARAMS) if (typeof source[k] === 'string') out[k] = source[k] as string;
  return out;
}

/** Answers in OAuth's error shape with Herald's code, fields and requestId alongside. */
function oauthFail(request: FastifyRequest, reply: FastifyReply, status: number, error: string, description: string, fields?: Record<string, string[]>) {
  return reply.status(status).send({
    error, error_description: description, code: status === 429 ? 'RATE_LIMITED' : 'VALIDATION_ERROR',
    ...(fields ? { details: { fields } } : {}), requestId: request.id,
  });
}

const cors = (reply: FastifyReply) => {
  reply.header('access-control-allow-origin', '*');
  reply.header('access-control-allow-headers', 'authorization, content-type, mcp-protocol-version');
  reply.header('access-control-allow-methods', 'GET, POST, OPTIONS');
  reply.header('cache-control', 'no-store');
};

/** The dashboard session of a consent request (CSRF-checked on POST). */
async function sessionAuth(request: FastifyRequest, services: Pick<Services, 'sessions' | 'config'>) {
  const token = sessionToken(request);
  if (!token) throw new AppError('UNAUTHORIZED', 'Sign in to the dashboard first', { reason: 'no_session' });
  const { auth, session } = await services.sessions.authenticate(token);
  assertCsrf(request, services, session);
  return auth;
}

export async function oauthServerRoutes(app: FastifyInstance, { services }: { services: Pick<Services, 'oauthServer' | 'profiles' | 'publicUrl' | 'sessions' | 'config'> }): Promise<void> {
  const oauth = services.oauthServer;
  const base = services.publicUrl.replace(/\/+$/, '');
  // Token and revocation requests are form-encoded (RFC 6749 section 4.1.3); this plugin only.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  const publicPaths = ['/.well-known/oauth-protected-resource', `/.well-known/oauth-protected-resource${MCP_PATH}`, '/.well-known/oauth-authorization-server',
    '/oauth/register', '/oauth/token', '/oauth/revoke'];
  for (const url of publicPaths) app.options(url, { schema: { hide: true } }, async (_req, reply) => { cors(reply); return reply.status(204).send(); });

  const resourceMetadata = async (_req: FastifyRequest, reply: FastifyReply) => {
    cors(reply);
    return {
      resource: oauth.resource, authorization_servers: [oauth.issuer], scopes_supported: [...CAPABILITIES],
      bearer_methods_supported: ['header'], resource_name: 'Herald MCP server', resource_documentation: `${base}/docs#mcp`,
    };
  };
  app.get(`/.well-known/oauth-protected-resource${MCP_PATH}`, { schema: { hide: true } }, resourceMetadata);
  app.get('/.well-known/oauth-protected-resource', { schema: { hide: true } }, resourceMetadata);

  app.get('/.well-known/oauth-authorization-server', { schema: { hide: true } }, async (_req, reply) => {
    cors(reply);
    return {
      issuer: oauth.issuer, authorization_endpoint: `${base}/oauth/authorize`, token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`, revocation_endpoint: `${base}/oauth/revoke`,
      response_types_supported: ['code'], grant_types_supported: ['authorization_code', 'refresh_token'], response_modes_supported: ['query'],
      code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['none'], revocation_endpoint_auth_methods_supported: ['none'],
      scopes_supported: [...CAPABILITIES], authorization_response_iss_parameter_supported: true, service_documentation: `${base}/docs#mcp`,
    };
  });

  app.post('/oauth/register', { schema: { hide: true } }, async (request, reply) => {
    cors(reply);
    const body = request.body && typeof request.body === 'object' ? request.body as Record<string, unknown> : {};
    try {
      return reply.status(201).send(await oauth.register(body, request.ip));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === 'RATE_LIMITED') { reply.header('retry-after', 3600); return oauthFail(request, reply, 429, 'invalid_client_metadata', err.message); }
      const fields = (err.details?.fields ?? {}) as Record<string, string[]>;
      const uriError = Object.keys(fields).some((f) => f.startsWith('redirect_uris'));
      return oauthFail(request, reply, 400, uriError ? 'invalid_redirect_uri' : 'invalid_client_metadata', err.message, fields);
    }
  });

  app.get('/oauth/authorize', { schema: { hide: true } }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const checked = await oauth.checkAuthorizationRequest(query);
    if (checked.kind === 'redirect') return reply.redirect(checked.location, 302);
    if (checked.kind === 'error') {
      // Never redirected to an unregistered URI (RFC 6749 section 4.1.2.1): shown to the user instead.
      reply.header('content-type', 'text/html; charset=utf-8');
      const text = checked.description.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
      return reply.status(checked.status).send(`<!doctype html><meta charset="utf-8"><title>Authorization failed</title><h1>Authorization failed</h1><p>${text} (${checked.error}).</p>`);
    }
    return reply.redirect(`${CONSENT_PAGE}?${new URLSearchParams(pickParams(query)).toString()}`, 302);
  });

  // What the consent page shows: the client's self-declared name, the host it sends the browser to, the user's profiles.
  app.get('/oauth/consent', { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const auth = await sessionAuth(request, services);
    const checked = await oauth.checkAuthorizationRequest(request.query as Record<string, unknown>);
    if (checked.kind === 'error') throw new AppError('VALIDATION_ERROR', checked.description, { fields: { redirect_uri: [checked.description] } });
    if (checked.kind === 'redirect') return { client: null, redirectTo: checked.location };
    const { profiles } = await services.profiles.list(auth);
    return {
      client: { clientId: checked.client.id, clientName: checked.client.name, redirectHost: checked.client.redirectHost, redirectUri: checked.client.redirectUri },
      profiles: profiles.map((p: { _id: string; name: string }) => ({ _id: p._id, name: p.name })),
      capabilities: CAPABILITIES.map((id) => ({ id, label: CAPABILITY_LABELS[id] })),
    };
  });

  app.post('/oauth/consent', { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const auth = await sessionAuth(request, services);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const params = body.params && typeof body.params === 'object' ? pickParams(body.params as Record<string, unknown>) : {};
    const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    const { profiles } = await services.profiles.list(auth);
    return oauth.decide(auth, profiles.map((p: { _id: string }) => p._id), params, {
      allow: body.allow === true, profileIds: strings(body.profileIds), capabilities: strings(body.capabilities),
    });
  });

  app.post('/oauth/token', { schema: { hide: true } }, async (request, reply) => {
    cors(reply);
    reply.header('pragma', 'no-cache');
    if (Object.keys(request.query as object).some((k) => ['code', 'refresh_token', 'code_verifier', 'client_secret'].includes(k))) {
      return oauthFail(request, reply, 400, 'invalid_request', 'Send the token request parameters in the form body, not the URL');
    }
    const answer = await oauth.token((request.body ?? {}) as Record<string, unknown>);
    if (answer.status >= 400) return oauthFail(request, reply, answer.status, String(answer.body.error), String(answer.body.error_description ?? ''));
    return reply.status(answer.status).send(answer.body);
  });

  app.post('/oauth/revoke', { schema: { hide: true } }, async (request, reply) => {
    cors(reply);
    const answer = await oauth.revoke((request.body ?? {}) as Record<string, unknown>);
    if (answer.status >= 400) return oauthFail(request, reply, answer.status, String(answer.body.error), String(answer.body.error_description ?? ''));
    return reply.status(200).send(answer.body);
  });
}
