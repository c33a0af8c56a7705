/**
 * Herald's OpenAPI document read for the docs: its endpoints with parameters, fields,
 * request and response examples and errors, and code samples (curl and JavaScript) for each.
 * Pure (no DOM, no I/O).
 */

// OpenAPI -> endpoints

/** The parts of an OpenAPI 3.1 document that the docs read. */
export interface OpenApiDoc {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}
interface OpenApiOperation {
  summary?: string;
  description?: string;
  tags?: string[];
  operationId?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }>;
}
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  examples?: unknown[];
  $ref?: string;
  additionalProperties?: boolean | JsonSchema;
}

export interface Field {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

export interface Endpoint {
  /** Anchor of the endpoint itself, e.g. `post-v1-posts`. */
  anchor: string;
  method: string;
  /** Full path with /v1. */
  path: string;
  summary: string;
  description: string;
  params: Array<Field & { in: string }>;
  body: { fields: Field[]; example: unknown } | null;
  multipart: boolean;
  responses: Array<{ status: string; description: string; example: unknown; isError: boolean }>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function resolve(schema: JsonSchema | undefined, doc: OpenApiDoc, depth = 0): JsonSchema {
  if (!schema) return {};
  if (schema.$ref && depth < 10) {
    const name = schema.$ref.split('/').pop()!;
    return resolve(doc.components?.schemas?.[name], doc, depth + 1);
  }
  return schema;
}

/** A short type label: `string`, `integer`, `string[]`, `"a" | "b"`, `object`. */
export function typeLabel(schema: JsonSchema | undefined, doc: OpenApiDoc, depth = 0): string {
  const s = resolve(schema, doc);
  if (depth > 4) return 'object';
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.length <= 6 ? s.enum.map((v) => JSON.stringify(v)).join(' | ') : 'string (enum)';
  const union = s.anyOf ?? s.oneOf;
  if (union) return [...new Set(union.map((u) => typeLabel(u, doc, depth + 1)))].join(' | ');
  const t = Array.isArray(s.type) ? s.type.join(' | ') : s.type;
  if (t === 'array') return `${typeLabel(s.items, doc, depth + 1)}[]`;
  if (t === 'string' && s.format) return `string (${s.format})`;
  return t ?? (s.properties ? 'object' : 'any');
}

function describe(s: JsonSchema): string {
  const parts: string[] = [];
  if (s.description) parts.push(s.description);
  const limits: string[] = [];
  if (s.minimum !== undefined) limits.push(`min ${s.minimum}`);
  if (s.maximum !== undefined) limits.push(`max ${s.maximum}`);
  if (s.minLength !== undefined && s.minLength > 1) limits.push(`at least ${s.minLength} characters`);
  if (s.maxLength !== undefined) limits.push(`at most ${s.maxLength} characters`);
  if (s.maxItems !== undefined) limits.push(`at most ${s.maxItems} items`);
  if (s.default !== undefined) limits.push(`default ${JSON.stringify(s.default)}`);
  if (limits.length) parts.push(`(${limits.join(', ')})`);
  return parts.join(' ');
}

function fieldsOf(schema: JsonSchema | undefined, doc: OpenApiDoc): Field[] {
  const s = resolve(schema, doc);
  const required = new Set(s.required ?? []);
  return Object.entries(s.properties ?? {}).map(([name, p]) => {
    const r = resolve(p, doc);
    const inner = (r.anyOf ?? r.oneOf)?.find((u) => resolve(u, doc).type !== 'null');
    return { name, type: typeLabel(p, doc), required: required.has(name), description: describe(r.description || !inner ? r : resolve(inner, doc)) };
  });
}

const SAMPLE_ID = '65f1c0a1b2c3d4e5f6a7b8c9';

/** A plausible example value for a schema (used when the guides give none). */
export function exampleOf(schema: JsonSchema | undefined, doc: OpenApiDoc, name = '', depth = 0, optional = true): unknown {
  const s = resolve(schema, doc);
  if (s.examples?.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const union = s.anyOf ?? s.oneOf;
  if (union) {
    const first = union.find((u) => resolve(u, doc).type !== 'null') ?? union[0];
    return exampleOf(first, doc, name, depth, optional);
  }
  const t = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  if (depth > 5) return t === 'array' ? [] : t === 'object' ? {} : null;
  switch (t) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set(s.required ?? []);
      for (const [k, v] of Object.entries(s.properties ?? {})) {
        if (!optional && !required.has(k)) continue;
        out[k] = exampleOf(v, doc, k, depth + 1, optional);
      }
      return out;
    }
    case 'array': return s.items ? [exampleOf(s.items, doc, name, depth + 1, optional)] : [];
    case 'integer': case 'number': return s.minimum !== undefined && s.minimum > 0 ? s.minimum : /count|total|limit/i.test(name) ? 10 : 1;
    case 'boolean': return name.startsWith('is') || name === 'active' || name === 'success' ? true : false;
    case 'null': return null;
    case 'string': {
      if (s.format === 'date-time') return '2030-01-15T08:30:00.000Z';
      if (s.pattern && /0-9a-f/i.test(s.pattern) && /24/.test(s.pattern)) return SAMPLE_ID;
      if (/^_id$|Id$/.test(name)) return SAMPLE_ID;
      if (/email/i.test(name)) return 'you@example.com';
      if (/url$/i.test(name)) return 'https://example.com/resource';
      if (/color/i.test(name)) return '#1d4ed8';
      if (/timezone/i.test(name)) return 'Europe/Paris';
      if (/time$/i.test(name)) return '09:30';
      if (name === 'platform') return 'bluesky';
      if (name === 'name') return 'My brand';
      if (name === 'content') return 'Hello from Herald!';
      if (name === 'message') return 'OK';
      return 'string';
    }
    default: return null;
  }
}

/** Request bodies written by hand where a generated one would not teach much. Keyed by `METHOD /v1/path`. */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  'POST /v1/posts': {
    content: 'Hello from Herald #herald', scheduledFor: '2030-01-15T09:30', timezone: 'Europe/Paris',
    platforms: [{ platform: 'bluesky', accountId: SAMPLE_ID }],
  },
  'PUT /v1/posts/{postId}': { content: 'Updated text', scheduledFor: '2030-01-16T10:00', timezone: 'Europe/Paris' },
  'POST /v1/profiles': { name: 'My brand', description: 'Main brand', color: '#1d4ed8' },
  'PUT /v1/profiles/{profileId}': { name: 'My brand (EU)', color: '#0f766e' },
  'POST /v1/api-keys': { name: 'CI', permissions: ['posts:read', 'posts:write'], expiresIn: 30 },
  'POST /v1/connect/bluesky/credentials': { identifier: 'you.bsky.social', appPassword: 'xxxx-xxxx-xxxx-xxxx', state: SAMPLE_ID },
  'PUT /v1/accounts/{accountId}': { displayName: 'My brand on Bluesky' },
  'POST /v1/platform-invites': { profileId: SAMPLE_ID, platform: 'instagram' },
  'POST /v1/profiles/{profileId}/clone-connection': { sourceAccountId: SAMPLE_ID },
  'PUT /v1/queue/slots': {
    profileId: SAMPLE_ID, timezone: 'America/New_York', active: true, reshuffleExisting: false,
    slots: [{ dayOfWeek: 1, time: '09:00' }, { dayOfWeek: 3, time: '14:00' }, { dayOfWeek: 5, time: '09:00' }],
  },
  'POST /v1/feeds': {
    profileId: SAMPLE_ID, url: 'https://blog.example.com/feed.xml', mode: 'queue', accountIds: [SAMPLE_ID],
    template: 'New on the blog: {title}\n\n{link}', pollIntervalMinutes: 30,
  },
  'PUT /v1/feeds/{feedId}': { paused: true },
};

function anchorOf(method: string, path: string): string {
  return `${method}-${path}`.toLowerCase().replace(/[{}]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/-+$/, '');
}

/** Every documented operation of the OpenAPI document (hidden and non-/v1 routes excluded). */
export function endpointsFromOpenApi(doc: OpenApiDoc): Endpoint[] {
  const out: Endpoint[] = [];
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    if (!path.startsWith('/v1/')) continue;
    for (const method of METHODS) {
      const op = ops[method];
      if (!op) continue;
      const key = `${method.toUpperCase()} ${path}`;
      const jsonBody = op.requestBody?.content?.['application/json']?.schema;
      const multipart = !!op.requestBody?.content?.['multipart/form-data'] || /media$/.test(path) && method === 'post';
      const responses = Object.entries(op.responses ?? {}).map(([status, r]) => {
        const schema = r.content?.['application/json']?.schema;
        const isError = Number(status) >= 400;
        return {
          status, isError,
          description: r.description && r.description !== 'Default Response' ? r.description : STATUS_TEXT[status] ?? '',
          example: schema && !isError ? exampleOf(schema, doc) : null,
        };
      });
      out.push({
        anchor: anchorOf(method, path),
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? key,
        description: op.description ?? '',
        params: (op.parameters ?? []).filter((p) => p.in !== 'header' || p.name.toLowerCase() === 'idempotency-key').map((p) => ({
          name: p.name, in: p.in, required: !!p.required, type: typeLabel(p.schema, doc), description: describe(resolve(p.schema, doc)) || p.description || '',
        })),
        body: jsonBody ? { fields: fieldsOf(jsonBody, doc), example: REQUEST_EXAMPLES[key] ?? exampleOf(jsonBody, doc, '', 0, false) } : null,
        multipart,
        responses,
      });
    }
  }
  return out;
}

const STATUS_TEXT: Record<string, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted: work continues in the background', 207: 'Multi-Status: some platforms failed',
  400: 'Invalid request (VALIDATION_ERROR with details.fields)', 401: 'Missing or invalid API key', 402: 'Payment required',
  403: 'Forbidden: permission or plan limit', 404: 'Not found (or not yours)', 409: 'Conflict with the current state',
  413: 'Request Entity Too Large', 415: 'Unsupported media type', 422: 'Idempotency-Key reused with another body', 429: 'Rate limited',
};


// ---------------------------------------------------------------------------------------------
// Code samples

function samplePath(path: string, style: 'shell' | 'js'): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => style === 'shell' ? `$${name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}` : `\${${name}}`);
}

function requiredQuery(ep: Endpoint, style: 'shell' | 'js'): string {
  const q = ep.params.filter((p) => p.in === 'query' && p.required);
  if (!q.length) return '';
  return '?' + q.map((p) => `${p.name}=${style === 'shell' ? `$${p.name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}` : `\${${p.name}}`}`).join('&');
}

export function curlSample(ep: Endpoint): string {
  const url = `"$HERALD${samplePath(ep.path, 'shell')}${requiredQuery(ep, 'shell')}"`;
  const lines = [`curl -s${ep.method === 'GET' ? '' : ` -X ${ep.method}`} ${url}`, '  -H "Authorization: Bearer $HERALD_API_KEY"'];
  if (ep.multipart) lines.push('  -F "files=@image.jpg"');
  else if (ep.body) {
    lines.push("  -H 'Content-Type: application/json'");
    lines.push(`  -d '${JSON.stringify(ep.body.example).replace(/'/g, "'\\''")}'`);
  }
  return lines.join(' \\\n');
}

export function jsSample(ep: Endpoint): string {
  const url = `\`\${HERALD}${samplePath(ep.path, 'js')}${requiredQuery(ep, 'js')}\``;
  const opts: string[] = [];
  if (ep.method !== 'GET') opts.push(`  method: '${ep.method}',`);
  if (ep.multipart) {
    return [
      'const form = new FormData();',
      "form.append('files', new Blob([bytes], { type: 'image/jpeg' }), 'image.jpg');",
      `const res = await fetch(${url}, {`,
      `  method: '${ep.method}',`,
      '  headers: { Authorization: `Bearer ${process.env.HERALD_API_KEY}` },',
      '  body: form,',
      '});',
      'const data = await res.json();',
    ].join('\n');
  }
  if (ep.body) {
    opts.push("  headers: { Authorization: `Bearer ${process.env.HERALD_API_KEY}`, 'Content-Type': 'application/json' },");
    opts.push(`  body: JSON.stringify(${JSON.stringify(ep.body.example, null, 2).replace(/\n/g, '\n  ')}),`);
  } else {
    opts.push('  headers: { Authorization: `Bearer ${process.env.HERALD_API_KEY}` },');
  }
  return [`const res = await fetch(${url}, {`, ...opts, '});', "if (!res.ok) throw new Error((await res.json()).error);", 'const data = await res.json();'].join('\n');
}

