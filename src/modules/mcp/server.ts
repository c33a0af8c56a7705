/**
 * One MCP server per /mcp request (stateless Streamable HTTP): the caller's tools and resources,
 * each tool call sent to its /v1 route in-process with the caller's identity, so the route's
 * permission check, rate limit, plan limits, idempotency and validation all apply as they do to
 * REST clients (docs/decisions/0047-mcp-server.md).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, McpError,
  ReadResourceRequestSchema, type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { AuthContext } from '../auth/context.ts';
import { RULE_TABLES } from '../../shared/rules/catalog.ts';
import { argumentPlace, type Capability, type Tool } from './tools.ts';

/** Who is calling /mcp: the identity the routes see, and what MCP lets it do on top. */
export interface McpCaller {
  auth: AuthContext;
  capabilities: ReadonlySet<Capability>;
}

/** An answer of a /v1 route. */
export interface RouteAnswer {
  statusCode: number;
  body: unknown;
}

/** Sends one request to a /v1 route as the caller. */
export type RouteCall = (request: { method: string; url: string; body?: unknown; headers?: Record<string, string> }) => Promise<RouteAnswer>;

export interface McpServerDeps {
  tools: readonly Tool[];
  caller: McpCaller;
  call: RouteCall;
  version: string;
}

const RULES_URI = 'herald://rules';
const QUEUE_URI = /^herald:\/\/profiles\/([0-9a-fA-F]{24})\/queue$/;

const INSTRUCTIONS = 'Herald schedules and publishes social-media posts. Start with list_profiles and list_accounts; a post names its '
  + 'accounts in `platforms` ([{platform, accountId}]). Check a post with validate_post before scheduling it. Times are a local '
  + '"YYYY-MM-DDTHH:mm" with `timezone` (IANA) or UTC ending in "Z". Errors carry Herald\'s code and, for bad input, details.fields '
  + 'naming each field and rule: correct those fields and call again.';

/** True when the caller may list and call the tool. */
export function mayUse(caller: McpCaller, tool: Tool): boolean {
  if (!caller.capabilities.has(tool.spec.capability)) return false;
  return !tool.route.permission || caller.auth.permissions.has(tool.route.permission);
}

/** A tool error in Herald's error shape (code, error, details.fields), so an agent can correct its call. */
function toolError(statusCode: number, body: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ status: statusCode, ...body }) }], structuredContent: { status: statusCode, ...body } };
}

function validationResult(fields: Record<string, string[]>): CallToolResult {
  const [first] = Object.entries(fields);
  return toolError(400, { error: `Invalid ${first[0]}: ${first[1][0]}`, code: 'VALIDATION_ERROR', details: { fields } });
}

/** Builds the route request of a tool call, or the field errors of its arguments. */
function routeRequest(tool: Tool, args: Record<string, unknown>): { url: string; body?: unknown; headers: Record<string, string> } | { fields: Record<string, string[]> } {
  const fields: Record<string, string[]> = {};
  const params: Record<string, unknown> = {};
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    if (name === 'idempotencyKey' && tool.spec.idempotent) {
      if (typeof value !== 'string') (fields[name] ??= []).push('must be string');
      else headers['idempotency-key'] = value;
      continue;
    }
    const place = tool.inputSchema.properties?.[name] === undefined ? undefined : argumentPlace(tool, name);
    if (!place) { (fields[name] ??= []).push('is not an allowed field'); continue; }
    if (place === 'params') params[name] = value;
    else if (place === 'querystring') {
      for (const v of Array.isArray(value) ? value : [value]) query.append(name, typeof v === 'object' ? JSON.stringify(v) : String(v));
    } else body[name] = value;
  }
  if (tool.spec.requireOneOf && !tool.spec.requireOneOf.some((f) => args[f] !== undefined && args[f] !== null)) {
    const [f, ...rest] = tool.spec.requireOneOf;
    (fields[f] ??= []).push(`is required (or ${rest.join(' or ')})`);
  }
  let url = tool.route.url.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    const v = params[name];
    if (typeof v !== 'string' || v === '') { (fields[name] ??= []).push('is required'); return '_'; }
    return encodeURIComponent(v);
  });
  if (Object.keys(fields).length > 0) return { fields };
  for (const [k, v] of Object.entries(tool.spec.fixed ?? {})) {
    if (tool.route.querystring?.properties?.[k] !== undefined) query.set(k, String(v));
    else body[k] = v;
  }
  const qs = query.toString();
  if (qs) url += `?${qs}`;
  return { url, headers, ...(tool.route.body ? { body } : {}) };
}

/** Creates the MCP server of one request for `caller`. */
export function createMcpServer({ tools, caller, call, version }: McpServerDeps): Server {
  const server = new Server(
    { name: 'herald', title: 'Herald', version },
    { capabilities: { tools: { listChanged: false }, resources: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  const usable = tools.filter((t) => mayUse(caller, t));
  const canRead = (permission: 'queue:read' | 'profiles:read') => caller.capabilities.has('read') && caller.auth.permissions.has(permission);

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: usable.map((t) => ({
      name: t.spec.name, title: t.spec.title, description: t.spec.description, inputSchema: t.inputSchema,
      annotations: { title: t.spec.title, ...t.spec.annotations },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = tools.find((t) => t.spec.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    if (!mayUse(caller, tool)) {
      const needed = tool.route.permission && !caller.auth.permissions.has(tool.route.permission) ? tool.route.permission : tool.spec.capability;
      return toolError(403, { error: `This grant does not allow ${tool.spec.name} (it needs "${needed}")`, code: 'insufficient_permissions', details: { required: needed } });
    }
    const built = routeRequest(tool, request.params.arguments ?? {});
    if ('fields' in built) return validationResult(built.fields);
    const answer = await call({ method: tool.spec.method, ...built });
    const body = (answer.body && typeof answer.body === 'object' ? answer.body : { result: answer.body }) as Record<string, unknown>;
    if (answer.statusCode >= 400) return toolError(answer.statusCode, body);
    return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const resources: { uri: string; name: string; title?: string; description?: string; mimeType: string }[] = [
      { uri: RULES_URI, name: 'platform-rules', title: 'Platform rules', mimeType: 'application/json',
        description: 'Every platform\'s rule table (id, summary, official source) that posts are checked against.' },
    ];
    if (canRead('queue:read') && canRead('profiles:read')) {
      const answer = await call({ method: 'GET', url: '/v1/profiles' });
      const profiles = answer.statusCode === 200 ? (answer.body as { profiles: { _id: string; name: string }[] }).profiles : [];
      for (const p of profiles) {
        resources.push({ uri: `herald://profiles/${p._id}/queue`, name: `queue-${p._id}`, title: `Queue of ${p.name}`, mimeType: 'application/json',
          description: `The queue schedule (time zone, weekly slots) and next slots of profile ${p.name}.` });
      }
    }
    return { resources };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: canRead('queue:read')
      ? [{ uriTemplate: 'herald://profiles/{profileId}/queue', name: 'profile-queue', title: 'A profile\'s queue schedule', mimeType: 'application/json' }]
      : [],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    if (uri === RULES_URI) return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(RULE_TABLES) }] };
    const m = QUEUE_URI.exec(uri);
    if (m && canRead('queue:read')) {
      const answer = await call({ method: 'GET', url: `/v1/queue/slots?profileId=${m[1].toLowerCase()}` });
      if (answer.statusCode === 200) return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(answer.body) }] };
    }
    // Unknown, foreign and forbidden resources answer alike (no existence leak).
    throw new McpError(-32002, `Resource not found: ${uri}`, { uri });
  });

  return server;
}
