/**
 * The MCP tools: each one is a /v1 operation, named for what an agent wants to do. A tool's
 * input schema is its route's own schemas (path parameters, query string, body) read from the
 * route catalog, with the fields the tool fixes left out; its permission is its route's. Calls
 * go through the route itself (docs/decisions/0047-mcp-server.md).
 */
import type { CatalogRoute, JsonSchemaObject, RouteCatalog } from './route-catalog.ts';
import { TOOL_SPECS, type ToolSpec } from '../../shared/mcp-tools.ts';

export { CAPABILITIES, CAPABILITY_LABELS, TOOL_SPECS, type Capability, type ToolSpec } from '../../shared/mcp-tools.ts';

/** A tool ready to list and call: its spec, its route and its input schema. */
export interface Tool {
  spec: ToolSpec;
  route: CatalogRoute;
  inputSchema: JsonSchemaObject & { type: 'object' };
}

/** Where each input property goes in the route's request. */
export type ArgumentPlace = 'params' | 'querystring' | 'body';

/**
 * Builds every tool from its route's schemas.
 * @throws Error when a tool names a route that is not registered or two parts share a field name (a programming error).
 */
export function buildTools(catalog: RouteCatalog): Tool[] {
  return TOOL_SPECS.map((spec) => {
    const route = catalog.get(spec.method, spec.url);
    if (!route) throw new Error(`MCP tool ${spec.name}: no route ${spec.method} ${spec.url}`);
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    const omitted = new Set([...(spec.omit ?? []), ...Object.keys(spec.fixed ?? {})]);
    for (const part of ['params', 'querystring', 'body'] as const) {
      const schema = route[part];
      for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
        if (omitted.has(name)) continue;
        if (name in properties) throw new Error(`MCP tool ${spec.name}: field ${name} appears twice`);
        properties[name] = prop;
        if (schema?.required?.includes(name)) required.push(name);
      }
    }
    if (spec.idempotent) {
      const header = route.headers?.properties?.['idempotency-key'] as Record<string, unknown> | undefined;
      properties.idempotencyKey = { ...(header ?? { type: 'string' }), description: 'Sent as the Idempotency-Key header: a repeat with the same key and arguments answers the first result instead of creating a second post' };
    }
    const inputSchema = { type: 'object' as const, properties, ...(required.length ? { required } : {}), additionalProperties: false };
    return { spec, route, inputSchema };
  });
}

/** Which part of the route's request an argument belongs to (undefined: the tool does not take it). */
export function argumentPlace(tool: Tool, name: string): ArgumentPlace | undefined {
  for (const part of ['params', 'querystring', 'body'] as const) if (tool.route[part]?.properties?.[name] !== undefined) return part;
  return undefined;
}
