/**
 * The app factory: builds the Fastify instance from its dependencies, with no process
 * concerns (no listen, no signals). Tests call it in-process with `app.inject`.
 */
import { approvalsRoutes } from '../modules/approvals/routes.ts';
import { reviewPublicRoutes } from '../modules/approvals/public-routes.ts';
import Fastify, {
  type FastifyBaseLogger, type FastifyInstance, type FastifyRequest, type FastifyServerOptions, type RawReplyDefaultExpression,
  type RawRequestDefaultExpression, type RawServerDefault,
} from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AppError, validationError, type FieldErrors } from '../core/errors.ts';
import { nonFiniteNumberFields, unstorableJsonFields } from '../core/storable.ts';
import { handleError } from './errors.ts';
import { errorBody } from '../route-kit/error-body.ts';
import { genRequestId } from './request-id.ts';
import { redactedRequestSerializer } from './log-redaction.ts';
import { ErrorResponse } from '../route-kit/schemas.ts';
import type { AuthContext } from '../modules/auth/context.ts';
import type { Permission } from '../shared/permissions.ts';
import type { Services } from '../services.ts';
import { registerRateLimit } from './rate-limit.ts';
import { usersRoutes } from '../modules/users/routes.ts';
import { apiKeysRoutes } from '../modules/api-keys/routes.ts';
import { profilesRoutes } from '../modules/profiles/routes.ts';
import { accountsRoutes } from '../modules/accounts/routes.ts';
import { connectRoutes } from '../modules/connect/routes.ts';
import { postsRoutes } from '../modules/posts/routes.ts';
import { mediaRoutes } from '../modules/media/routes.ts';
import { mediaUploadRoutes } from '../modules/media/upload-routes.ts';
import { mediaPresignRoutes, presignedPutRoutes } from '../modules/media/presign-routes.ts';
import { usageRoutes } from '../modules/usage/routes.ts';
import { queueRoutes } from '../modules/queue/routes.ts';
import { analyticsRoutes } from '../modules/analytics/routes.ts';
import { bulkRoutes } from '../modules/bulk/routes.ts';
import { accountResourceRoutes } from '../modules/account-resources/routes.ts';
import { accountGroupRoutes } from '../modules/account-groups/routes.ts';
import { feedsRoutes } from '../modules/feeds/routes.ts';
import { authRoutes } from '../modules/auth/routes.ts';
import { healthRoutes } from '../modules/health/routes.ts';
import { authenticateRequest } from '../modules/sessions/http.ts';
import { sessionsRoutes } from '../modules/sessions/routes.ts';
import { docsAiRoutes } from '../modules/docs-ai/routes.ts';
import { webRoutes } from './web.ts';
import { sandboxRoutes } from '../modules/sandbox/routes.ts';
import { videoClipsRoutes } from '../modules/video-clips/routes.ts';
import { invitesRoutes } from '../modules/invites/routes.ts';
import { signupRoutes } from '../modules/users/signup-routes.ts';
import { passwordResetRoutes } from '../modules/password-reset/routes.ts';
import { billingRoutes, stripeWebhookRoutes } from '../modules/billing/routes.ts';
import { platformInvitesRoutes } from '../modules/platform-invites/routes.ts';
import { logsRoutes } from '../modules/logs/routes.ts';
import { unpublishRoutes } from '../modules/posts/unpublish-routes.ts';
import { editRoutes } from '../modules/posts/edit-routes.ts';
import { registerMetrics } from '../observability/routes.ts';
import { accountHealthRoutes } from '../modules/account-health/routes.ts';
import { toolsRoutes } from '../modules/tools/routes.ts';
import { webhooksRoutes } from '../modules/webhooks/routes.ts';
import { collectRoutes } from '../modules/mcp/route-catalog.ts';
import { mcpRoutes } from '../modules/mcp/routes.ts';
import { oauthServerRoutes } from '../modules/oauth-server/routes.ts';
import { connectedAppsRoutes } from '../modules/oauth-server/connected-apps-routes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every /v1 route. */
    auth: AuthContext;
  }
  interface FastifyContextConfig {
    /** Permission the API key needs for this route. */
    permission?: Permission;
    /** Route is public (no API key). */
    public?: boolean;
    /** Any valid credential may call the route, whatever its permissions (it answers only about the caller: GET /v1/auth/verify). */
    anyCredential?: boolean;
  }
}

/** The Fastify instance with Herald's type provider (server, request, reply and logger types left to Fastify's defaults). */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

export interface BuildAppOptions {
  services: Services;
  /** A pino logger instance, or false to disable logging (tests). */
  logger?: FastifyServerOptions['loggerInstance'] | false;
}

/** An `Authorization` header carrying an OAuth access token Herald issued (`hma_`, src/modules/oauth-server/service.ts); group 1 is the token. */
const OAUTH_BEARER = /^Bearer\s+(hma_\S+)\s*$/i;

// Re-exported: the security tests and older callers import them from here.
export { MAX_JSON_DEPTH, unstorableJsonFields } from '../core/storable.ts';

/**
 * Refuses what the database cannot store (NUL, lone surrogates, deep nesting) in the body,
 * the query string and the path parameters of every route, /v1 or not (dashboard sign-in,
 * uploads, media files): 400 naming the field instead of a 500 from PostgreSQL.
 */
function unstorableRequestFields(request: FastifyRequest): FieldErrors | null {
  const fields: FieldErrors = {};
  for (const part of [request.params, request.query, request.body]) {
    const found = unstorableJsonFields(part);
    if (found) for (const [k, v] of Object.entries(found)) (fields[k] ??= []).push(...v);
  }
  return Object.keys(fields).length > 0 ? fields : null;
}

/**
 * Refuses non-finite numbers after schema validation, on every route: AJV coerces a query
 * value like `Infinity` or `1e309` to a number and then skips `minimum`/`maximum`, which only
 * compare finite numbers (the handler then met `page = Infinity`).
 */
function nonFiniteRequestFields(request: FastifyRequest): FieldErrors | null {
  const fields: FieldErrors = {};
  for (const part of [request.params, request.query, request.body]) {
    const found = nonFiniteNumberFields(part);
    if (found) for (const [k, v] of Object.entries(found)) (fields[k] ??= []).push(...v);
  }
  return Object.keys(fields).length > 0 ? fields : null;
}

export async function buildApp({ services, logger = false }: BuildAppOptions): Promise<App> {
  const app = Fastify({
    // Request lines are logged with bearer secrets (invite tokens, OAuth codes and states) redacted from the URL.
    ...(logger ? { loggerInstance: logger.child({}, { serializers: { req: redactedRequestSerializer } }) } : { logger: false }),
    genReqId: genRequestId,
    bodyLimit: 2 * 1024 * 1024,
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: false, useDefaults: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addSchema(ErrorResponse);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(errorBody(request, 'NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`));
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('preValidation', async (request) => {
    const fields = unstorableRequestFields(request);
    if (fields) throw validationError(fields);
  });
  app.addHook('preHandler', async (request) => {
    const fields = nonFiniteRequestFields(request);
    if (fields) throw validationError(fields);
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Herald API',
        version: '1.0.0',
        description: 'Self-hosted social-media scheduling and publishing. Late-compatible /v1 API.',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key' } },
      },
      security: [{ bearerAuth: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _frag, i) => (json.$id as string) ?? `def-${i}` },
  });

  app.decorateRequest('auth', null as unknown as AuthContext);

  // GET /metrics and the request counters, before the routes so that its hook sees them all.
  if (services.config.metrics.enabled) registerMetrics(app, { token: services.config.metrics.token, db: services.db });
  await app.register(healthRoutes, { services });
  // The /v1 routes' schemas and permissions, for the MCP tools (docs/decisions/0047-mcp-server.md).
  const routeCatalog = collectRoutes(app);

  await app.register(async (v1) => {
    // Sandbox mode labels every /v1 response, errors included (src/sandbox).
    if (services.config.sandbox) v1.addHook('onRequest', async (_request, reply) => { reply.header('x-herald-sandbox', 'true'); });
    // API answers are per caller and may carry secrets: never cached, never sniffed as another type.
    v1.addHook('onRequest', async (_request, reply) => {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', 'no-store');
    });
    // Authentication, the rate limit and the permission check all run on onRequest, before
    // the body is parsed and validated (https://fastify.dev/docs/latest/Reference/Lifecycle/):
    // a key without the permission learns nothing about body rules, and invalid requests count.
    v1.addHook('onRequest', async (request) => {
      if (request.routeOptions.config?.public) return;
      // An MCP tool call's in-process request (docs/decisions/0047), an API key (Authorization header), or else the dashboard's session cookie (CSRF-checked).
      // A route any credential may call (GET /v1/auth/verify, which reads no data) also takes an OAuth access token of /mcp (decision 0070).
      const oauthToken = request.routeOptions.config?.anyCredential ? OAUTH_BEARER.exec(request.headers.authorization ?? '')?.[1] : undefined;
      request.auth = services.delegatedAuth.resolve(request)
        ?? (oauthToken ? (await services.oauthServer.authenticateMcp(oauthToken)).auth : await authenticateRequest(request, services));
    });
    await registerRateLimit(v1, services);
    v1.addHook('onRequest', async (request) => {
      const needed = request.routeOptions.config?.permission;
      if (needed && request.auth && !request.auth.permissions.has(needed)) {
        throw new AppError('insufficient_permissions', `This API key lacks the "${needed}" permission`, { required: needed }, { required_group: needed.split(':')[0] });
      }
    });
    v1.addHook('preValidation', async (request) => {
      // Ids are lowercase hex; accept any case from clients.
      const params = request.params as Record<string, unknown> | undefined;
      if (params) for (const [k, v] of Object.entries(params)) if (typeof v === 'string' && /^[0-9a-fA-F]{24}$/.test(v)) params[k] = v.toLowerCase();
      const query = request.query as Record<string, unknown> | undefined;
      if (query) for (const [k, v] of Object.entries(query)) if (/Id$|^createdBy$/.test(k) && typeof v === 'string' && /^[0-9a-fA-F]{24}$/.test(v)) query[k] = v.toLowerCase();
    });

    v1.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
    await v1.register(usersRoutes, { services });
    await v1.register(apiKeysRoutes, { services });
    await v1.register(profilesRoutes, { services });
    await v1.register(accountsRoutes, { services });
    await v1.register(connectRoutes, { services });
    await v1.register(postsRoutes, { services });
    await v1.register(mediaRoutes, { services });
    await v1.register(mediaPresignRoutes, { services });
    await v1.register(usageRoutes, { services });
    await v1.register(queueRoutes, { services });
    await v1.register(analyticsRoutes, { services });
    await v1.register(bulkRoutes, { services });
    await v1.register(accountResourceRoutes, { services });
    await v1.register(accountGroupRoutes, { services });
    await v1.register(authRoutes, { services });
    await v1.register(sandboxRoutes, { services });
    await v1.register(videoClipsRoutes, { services });
    await v1.register(invitesRoutes, { services });
    await v1.register(billingRoutes, { services });
    await v1.register(platformInvitesRoutes, { services });
    await v1.register(logsRoutes, { services });
    await v1.register(unpublishRoutes, { services });
    await v1.register(editRoutes, { services });
    await v1.register(accountHealthRoutes, { services });
    await v1.register(toolsRoutes, { services });
    await v1.register(webhooksRoutes, { services });
    await v1.register(connectedAppsRoutes, { services });
    await v1.register(approvalsRoutes, { services });
    await v1.register(feedsRoutes, { services });
  }, { prefix: '/v1' });

  // Dashboard sign-in, Docs AI answers and the web app (/, /docs, /pricing, /dashboard), outside /v1.
  await app.register(sessionsRoutes, { services });
  await app.register(signupRoutes, { services });
  await app.register(passwordResetRoutes, { services });
  // A client review link's API (no login: the token is the credential; decision 0059).
  await app.register(reviewPublicRoutes, { services });
  await app.register(stripeWebhookRoutes, { services });
  await app.register(docsAiRoutes, { services, openapi: () => app.swagger() });
  await app.register(webRoutes, { services });
  // The MCP server for AI agents (docs/decisions/0047-mcp-server.md).
  await app.register(mcpRoutes, { services, catalog: routeCatalog });
  await app.register(oauthServerRoutes, { services });

  // Media files are served publicly at their URL (unguessable ids), outside /v1.
  await services.mediaStorage.registerRoutes?.(app);
  // Client uploads (tus), authorised by the upload token from POST /v1/media, outside /v1.
  await app.register(mediaUploadRoutes, { services });
  // The PUT of a presigned upload on local storage, authorised by the URL's token (decision 0066), outside /v1.
  await app.register(presignedPutRoutes, { services });

  return app as unknown as App;
}
