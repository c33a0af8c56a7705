/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP, stateless (each POST is served by a
 * fresh server and transport; nothing is kept between requests, so any `herald api` process can
 * answer). Authenticated by an API key or an OAuth access token for this resource; a request
 * without valid credentials answers 401 with `WWW-Authenticate` pointing at the protected
 * resource metadata (RFC 9728, https://datatracker.ietf.org/doc/html/rfc9728#section-5.1).
 * docs/decisions/0047-mcp-server.md.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AppError } from '../../core/errors.ts';
import type { Services } from '../../services.ts';
import { errorBody } from '../../route-kit/error-body.ts';
import { DELEGATED_AUTH_HEADER } from './delegated-auth.ts';
import type { RouteCatalog } from './route-catalog.ts';
import { CAPABILITIES, buildTools, type Tool } from './tools.ts';
import { createMcpServer, type McpCaller, type RouteCall } from './server.ts';

/** The MCP endpoint's path. */
export const MCP_PATH = '/mcp';
const SERVER_VERSION = '1.0.0';
const ALL_CAPABILITIES = new Set(CAPABILITIES);

/** The resource identifier of /mcp (RFC 8707): the URL clients connect to. */
export function mcpResourceUrl(services: Pick<Services, 'publicUrl'>): string {
  return `${services.publicUrl.replace(/\/+$/, '')}${MCP_PATH}`;
}

/** Where /mcp's protected-resource metadata is (RFC 9728 section 3.1: the well-known path before the resource's path). */
export function protectedResourceMetadataUrl(services: Pick<Services, 'publicUrl'>): string {
  return `${services.publicUrl.replace(/\/+$/, '')}/.well-known/oauth-protected-resource${MCP_PATH}`;
}

/**
 * Resolves the caller of an /mcp request: an API key (`sk_...`; its permissions apply, every MCP
 * capability) or an OAuth access token issued for /mcp (the grant's permissions, profiles and capabilities).
 * @throws AppError UNAUTHORIZED when the credentials are missing, unknown, expired or revoked.
 */
async function authenticate(request: FastifyRequest, services: Pick<Services, 'auth' | 'oauthServer'>): Promise<McpCaller> {
  const header = request.headers.authorization;
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!m) throw new AppError('UNAUTHORIZED', 'Unauthorized', { reason: 'Send "Authorization: Bearer <API key or OAuth access token>"' });
  if (m[1].startsWith('sk_')) return { auth: await services.auth.authenticate(header), capabilities: ALL_CAPABILITIES };
  return services.oauthServer.authenticateMcp(m[1]);
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * True when a browser's `Origin` may reach /mcp: Herald's own origin or a loopback one (local MCP
 * inspectors). Requests without `Origin` (assistants calling from their servers, desktop apps)
 * pass. Refusing other origins is the transport's DNS-rebinding rule
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning).
 */
function originAllowed(origin: string | undefined, services: Pick<Services, 'publicUrl'>): boolean {
  if (origin === undefined) return true;
  try {
    const u = new URL(origin);
    return LOOPBACK_HOSTS.has(u.hostname) || u.origin === new URL(services.publicUrl).origin;
  } catch {
    return false;
  }
}

/** CORS for an allowed browser origin (a local inspector): it may send the headers MCP uses and read the 401's pointer. */
function allowOrigin(request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  if (!origin) return;
  reply.header('access-control-allow-origin', origin);
  reply.header('vary', 'Origin');
  reply.header('access-control-expose-headers', 'www-authenticate, mcp-protocol-version');
}

/** Sends the 401 of /mcp: Herald's error body and the RFC 9728 pointer for OAuth clients. */
function unauthorized(request: FastifyRequest, reply: FastifyReply, services: Pick<Services, 'publicUrl'>, err: AppError) {
  const tokenSent = Boolean(request.headers.authorization);
  reply.header('www-authenticate', `Bearer resource_metadata="${protectedResourceMetadataUrl(services)}"${tokenSent ? ', error="invalid_token"' : ''}`);
  return reply.status(401).send(errorBody(request, err.code, err.message, err.details));
}

/** Registers /mcp (POST; GET and DELETE answer 405: no server-initiated stream, no sessions). */
export async function mcpRoutes(app: FastifyInstance, { services, catalog }: { services: Pick<Services, 'auth' | 'oauthServer' | 'delegatedAuth' | 'publicUrl'>; catalog: RouteCatalog }): Promise<void> {
  let tools: Tool[] | undefined;
  const allTools = () => (tools ??= buildTools(catalog));

  app.post(MCP_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!originAllowed(request.headers.origin, services)) {
      return reply.status(403).send(errorBody(request, 'FORBIDDEN', `Requests from ${request.headers.origin} are not accepted`, { reason: 'origin_not_allowed' }));
    }
    allowOrigin(request, reply);
    let caller: McpCaller;
    try {
      caller = await authenticate(request, services);
    } catch (err) {
      if (err instanceof AppError && err.code === 'UNAUTHORIZED') return unauthorized(request, reply, services, err);
      throw err;
    }
    // Every tool call is one request to its /v1 route, authenticated as this caller for as long as the call runs.
    const call: RouteCall = ({ method, url, body, headers }) => services.delegatedAuth.run(caller.auth, async (handle) => {
      const res = await app.inject({
        method: method as 'GET', url,
        headers: { ...headers, [DELEGATED_AUTH_HEADER]: handle, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
      let parsed: unknown = res.body;
      try { parsed = res.json(); } catch { /* not JSON: passed on as text */ }
      return { statusCode: res.statusCode, body: parsed };
    });
    const server = createMcpServer({ tools: allTools(), caller, call, version: SERVER_VERSION });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.on('close', () => { void transport.close(); void server.close(); });
    await server.connect(transport);
    // The transport writes the response itself; the headers set so far (x-request-id) go with it.
    reply.hijack();
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value as string);
    reply.raw.setHeader('cache-control', 'no-store');
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  const notAllowed = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('allow', 'POST');
    return reply.status(405).send(errorBody(request, 'BAD_REQUEST', 'This MCP server is stateless: send JSON-RPC messages with POST (no stream to open, no session to end)'));
  };
  app.options(MCP_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!originAllowed(request.headers.origin, services)) return reply.status(403).send(errorBody(request, 'FORBIDDEN', 'Origin not accepted'));
    allowOrigin(request, reply);
    reply.header('access-control-allow-methods', 'POST, OPTIONS');
    reply.header('access-control-allow-headers', 'authorization, content-type, accept, mcp-protocol-version, last-event-id');
    reply.header('access-control-max-age', '600');
    return reply.status(204).send();
  });
  app.get(MCP_PATH, { schema: { hide: true } }, notAllowed);
  app.delete(MCP_PATH, { schema: { hide: true } }, notAllowed);
}
