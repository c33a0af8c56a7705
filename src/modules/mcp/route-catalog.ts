/**
 * The /v1 routes as they were registered: method, path, schemas and permission, collected by an
 * `onRoute` hook. The MCP tools read their input schemas and required permissions from here, so a
 * tool is described by the very TypeBox schemas its route validates with
 * (docs/decisions/0047-mcp-server.md).
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Permission } from '../../shared/permissions.ts';

/** One registered route, as the MCP layer needs it. */
export interface CatalogRoute {
  method: string;
  /** Full path with Fastify parameters, e.g. `/v1/posts/:postId`. */
  url: string;
  permission?: Permission;
  summary?: string;
  description?: string;
  params?: JsonSchemaObject;
  querystring?: JsonSchemaObject;
  body?: JsonSchemaObject;
  headers?: JsonSchemaObject;
}

/** A JSON Schema object (`type: object` with properties), as TypeBox builds it. */
export interface JsonSchemaObject {
  type?: string;
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/** Routes by `METHOD url`. */
export interface RouteCatalog {
  get(method: string, url: string): CatalogRoute | undefined;
}

/** A plain JSON copy of a schema (no TypeBox internals, safe to hand to clients). */
function plain(schema: unknown): JsonSchemaObject | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  return JSON.parse(JSON.stringify(schema)) as JsonSchemaObject;
}

/**
 * Starts collecting the routes registered on `app` from now on (call it before the /v1 plugin is
 * registered: `onRoute` hooks see only later routes).
 */
export function collectRoutes(app: FastifyInstance): RouteCatalog {
  const routes = new Map<string, CatalogRoute>();
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const config = (route.config ?? {}) as { permission?: Permission };
    for (const method of methods) {
      routes.set(`${method.toUpperCase()} ${route.url}`, {
        method: method.toUpperCase(), url: route.url, permission: config.permission,
        summary: schema.summary as string | undefined, description: schema.description as string | undefined,
        params: plain(schema.params), querystring: plain(schema.querystring), body: plain(schema.body), headers: plain(schema.headers),
      });
    }
  });
  return { get: (method, url) => routes.get(`${method.toUpperCase()} ${url}`) };
}
