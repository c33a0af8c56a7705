/**
 * The documentation, assembled from two sources so that the reference cannot drift from
 * the code: the prose guides (Markdown, src/shared/docs/guides/<anchor>.md) and Herald's own
 * OpenAPI document (GET /v1/openapi.json), from which every endpoint's parameters, request
 * and response examples, errors and code samples (curl and JavaScript) are generated.
 *
 * Pure (no DOM, no I/O): the docs page, the "Ask Docs AI" server route and the tests use it.
 */
import { ANNUAL_DISCOUNT, PLANS, PLAN_IDS } from '../plans.ts';
import { PLATFORMS as PLATFORM_IDS } from '../platforms.ts';
import { PLATFORM_RULES } from '../post-rules.ts';

/** The in-page anchors of the documentation, in order. */
export const SECTION_IDS = [
  'authentication', 'quick-start', 'users', 'api-keys', 'invites', 'profiles', 'posts', 'bulk-upload', 'accounts',
  'media', 'connect', 'clone-connection', 'ai-clipping', 'facebook-pages', 'facebook-stories', 'linkedin-organizations',
  'pinterest', 'reddit-subreddits', 'reddit-feed', 'reddit-search', 'usage-stats', 'queue', 'analytics', 'plan-tiers',
  'usage-tracking', 'error-handling', 'rate-limits', 'platforms', 'tiktok-direct-posting',
] as const;
export type SectionId = (typeof SECTION_IDS)[number];

interface SectionMeta {
  title: string;
  /** Endpoints (path without /v1) that belong here; checked in order, the first matching section wins. */
  paths?: RegExp;
  /** The section documents endpoints: when this server serves none of them yet, the page says so. */
  expectsEndpoints?: boolean;
}

export const SECTION_META: Record<SectionId, SectionMeta> = {
  authentication: { title: 'Authentication' },
  'quick-start': { title: 'Quick start' },
  users: { title: 'Users', paths: /^\/users/, expectsEndpoints: true },
  'api-keys': { title: 'API keys', paths: /^\/api-keys/, expectsEndpoints: true },
  invites: { title: 'Invites', paths: /^\/(invite|platform-invites)/, expectsEndpoints: true },
  profiles: { title: 'Profiles', paths: /^\/profiles(?!\/[^/]+\/clone-connection)/, expectsEndpoints: true },
  posts: { title: 'Posts', paths: /^\/posts(?!\/bulk-upload)/, expectsEndpoints: true },
  'bulk-upload': { title: 'Bulk upload', paths: /^\/posts\/bulk-upload/, expectsEndpoints: true },
  accounts: { title: 'Accounts', paths: /^\/accounts(\/\{accountId\})?$/, expectsEndpoints: true },
  media: { title: 'Media', paths: /^\/media/, expectsEndpoints: true },
  connect: { title: 'Connect', paths: /^\/(connect\/(?!facebook\/select-page|linkedin\/select-organization)|sandbox)/, expectsEndpoints: true },
  'clone-connection': { title: 'Clone connection', paths: /\/clone-connection$/, expectsEndpoints: true },
  'ai-clipping': { title: 'AI clipping', paths: /^\/video-clips/, expectsEndpoints: true },
  'facebook-pages': { title: 'Facebook pages', paths: /^\/(connect\/facebook\/select-page|accounts\/\{accountId\}\/facebook-page)/, expectsEndpoints: true },
  'facebook-stories': { title: 'Facebook stories' },
  'linkedin-organizations': { title: 'LinkedIn organizations', paths: /^\/(connect\/linkedin\/select-organization|accounts\/\{accountId\}\/linkedin-organization)/, expectsEndpoints: true },
  pinterest: { title: 'Pinterest', paths: /^\/accounts\/\{accountId\}\/pinterest-boards/, expectsEndpoints: true },
  'reddit-subreddits': { title: 'Reddit subreddits', paths: /^\/accounts\/\{accountId\}\/reddit-subreddits/, expectsEndpoints: true },
  'reddit-feed': { title: 'Reddit feed', paths: /^\/reddit\/feed/, expectsEndpoints: true },
  'reddit-search': { title: 'Reddit search', paths: /^\/reddit\/search/, expectsEndpoints: true },
  'usage-stats': { title: 'Usage stats', paths: /^\/usage-stats/, expectsEndpoints: true },
  queue: { title: 'Queue', paths: /^\/queue/, expectsEndpoints: true },
  analytics: { title: 'Analytics', paths: /^\/analytics/, expectsEndpoints: true },
  'plan-tiers': { title: 'Plan tiers' },
  'usage-tracking': { title: 'Usage tracking' },
  'error-handling': { title: 'Error handling' },
  'rate-limits': { title: 'Rate limits' },
  platforms: { title: 'Platforms' },
  'tiktok-direct-posting': { title: 'TikTok direct posting' },
};

// ---------------------------------------------------------------------------------------------
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
  'PUT /v1/queue/slots': {
    profileId: SAMPLE_ID, timezone: 'America/New_York', active: true, reshuffleExisting: false,
    slots: [{ dayOfWeek: 1, time: '09:00' }, { dayOfWeek: 3, time: '14:00' }, { dayOfWeek: 5, time: '09:00' }],
  },
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

/** The section an endpoint belongs to (first match in anchor order). */
export function sectionOf(ep: Endpoint): SectionId | null {
  const p = ep.path.replace(/^\/v1/, '');
  for (const id of SECTION_IDS) {
    const re = SECTION_META[id].paths;
    if (re && re.test(p)) return id;
  }
  return null;
}

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

// ---------------------------------------------------------------------------------------------
// Generated tables used by the guides ({{placeholders}})

const fmtLimit = (n: number) => (n === -1 ? 'Unlimited' : n.toLocaleString('en-US'));

export function annualMonthlyPrice(monthly: number): number {
  return Math.round(monthly * (1 - ANNUAL_DISCOUNT) * 100) / 100;
}

function planTable(): string {
  const rows = PLAN_IDS.map((id) => {
    const p = PLANS[id];
    return `| ${p.marketingName} (\`${p.id}\`)${p.mostPopular ? ' — most popular' : ''} | $${p.monthlyPriceUsd} | $${annualMonthlyPrice(p.monthlyPriceUsd)} | ${fmtLimit(p.uploads)} | ${fmtLimit(p.profiles)} | ${p.requestsPerMinute} |`;
  });
  return ['| Plan | Monthly price | Annual price per month | Posts per billing period | Profiles | API requests per minute |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

function rateLimitTable(): string {
  return ['| Plan | Requests per minute |', '|---|---|', ...PLAN_IDS.map((id) => `| ${PLANS[id].name} | ${PLANS[id].requestsPerMinute} |`)].join('\n');
}

function platformTable(): string {
  const rows = PLATFORM_IDS.map((id) => {
    const r = PLATFORM_RULES[id];
    const media = [r.maxImages ? `${r.maxImages} images` : 'no images', r.maxVideos ? `${r.maxVideos} video${r.maxVideos > 1 ? 's' : ''}` : 'no video'].join(', ');
    return `| ${r.label} | \`${id}\` | ${r.maxText.toLocaleString('en-US')} ${r.unit}${r.maxBytes ? ` (and ${r.maxBytes.toLocaleString('en-US')} bytes)` : ''} | ${media}${r.mediaRequired ? ` (media required)` : ''} | ${r.threads ? 'yes' : 'no'} | ${r.firstComment ? r.firstComment.toLocaleString('en-US') : '—'} | ${r.connect === 'app-password' ? 'app password' : 'OAuth'} |`;
  });
  return ['| Platform | Id | Text limit | Media per post | Threads | First comment | Connect with |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
}

export function expandPlaceholders(md: string): string {
  return md
    .replaceAll('{{planTable}}', planTable())
    .replaceAll('{{rateLimitTable}}', rateLimitTable())
    .replaceAll('{{platformTable}}', platformTable())
    .replaceAll('{{annualDiscount}}', `${Math.round(ANNUAL_DISCOUNT * 100)}%`);
}

// ---------------------------------------------------------------------------------------------
// Sections and Markdown

export interface DocSection {
  id: SectionId;
  title: string;
  /** Guide prose (Markdown, placeholders expanded, without the section heading). */
  guide: string;
  endpoints: Endpoint[];
  /** True when the section documents endpoints this server does not serve yet. */
  unavailable: boolean;
}

/**
 * Builds the sections in anchor order. `guides` maps an anchor to its Markdown; a missing guide
 * is an error (the test suite checks every anchor has one). Endpoints no section claims are
 * listed under Quick start's "Other endpoints" so that nothing the API serves is undocumented.
 */
export function buildSections(guides: Record<string, string>, doc: OpenApiDoc | null): DocSection[] {
  const endpoints = doc ? endpointsFromOpenApi(doc) : [];
  const bySection = new Map<SectionId, Endpoint[]>();
  for (const ep of endpoints) {
    const id = sectionOf(ep) ?? 'quick-start';
    bySection.set(id, [...(bySection.get(id) ?? []), ep]);
  }
  return SECTION_IDS.map((id) => {
    const guide = guides[id];
    if (guide === undefined) throw new Error(`docs guide missing for #${id}`);
    const eps = bySection.get(id) ?? [];
    return { id, title: SECTION_META[id].title, guide: expandPlaceholders(guide.trim()), endpoints: eps, unavailable: !!doc && !!SECTION_META[id].expectsEndpoints && eps.length === 0 };
  });
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function endpointMarkdown(ep: Endpoint): string {
  const out: string[] = [`### ${ep.summary}`, '', `\`${ep.method} ${ep.path}\``, ''];
  if (ep.description) out.push(ep.description, '');
  if (ep.params.length) {
    out.push('**Parameters**', '', '| Name | In | Type | Required | Description |', '|---|---|---|---|---|');
    for (const p of ep.params) out.push(`| \`${p.name}\` | ${p.in} | ${cell(p.type)} | ${p.required ? 'yes' : 'no'} | ${cell(p.description)} |`);
    out.push('');
  }
  if (ep.multipart) out.push('**Request body**: `multipart/form-data` with the files in the field `files`.', '');
  if (ep.body) {
    out.push('**Request body** (`application/json`)', '', '| Field | Type | Required | Description |', '|---|---|---|---|');
    for (const f of ep.body.fields) out.push(`| \`${f.name}\` | ${cell(f.type)} | ${f.required ? 'yes' : 'no'} | ${cell(f.description)} |`);
    out.push('', '```json', JSON.stringify(ep.body.example, null, 2), '```', '');
  }
  const ok = ep.responses.filter((r) => !r.isError);
  const errs = ep.responses.filter((r) => r.isError);
  out.push('**Responses**', '', '| Status | Meaning |', '|---|---|');
  for (const r of ep.responses) out.push(`| ${r.status} | ${cell(r.description)} |`);
  out.push('');
  const first = ok.find((r) => r.example !== null);
  if (first) out.push(`Example response (${first.status}):`, '', '```json', JSON.stringify(first.example, null, 2), '```', '');
  if (errs.length) out.push(`Errors use the common shape (see [Error handling](#error-handling)): ${errs.map((r) => r.status).join(', ')}.`, '');
  out.push('```sh', curlSample(ep), '```', '', '```js', jsSample(ep), '```', '');
  return out.join('\n');
}

export function sectionMarkdown(s: DocSection): string {
  const parts = [`## ${s.title} {#${s.id}}`, '', s.guide, ''];
  if (s.unavailable) parts.push('> This server does not serve these endpoints yet.', '');
  for (const ep of s.endpoints) parts.push(endpointMarkdown(ep));
  return parts.join('\n').trimEnd() + '\n';
}

/** The whole documentation as one Markdown document ("Copy as Markdown"). */
export function docsMarkdown(sections: DocSection[], baseUrl: string): string {
  const toc = sections.map((s) => `- [${s.title}](#${s.id})`).join('\n');
  return [
    '# Herald API documentation', '',
    `Base URL: \`${baseUrl}\` (every path below starts with \`/v1\`). Authenticate with \`Authorization: Bearer <API key>\`.`, '',
    toc, '',
    ...sections.map(sectionMarkdown),
  ].join('\n');
}

/** Plain text for the search index: the guide without Markdown syntax plus the endpoints' names. */
export function sectionSearchText(s: DocSection): string {
  const guide = s.guide.replace(/```[\s\S]*?```/g, ' ').replace(/[#>*_`|[\]()]+/g, ' ');
  const eps = s.endpoints.map((e) => `${e.method} ${e.path} ${e.summary} ${e.description} ${e.params.map((p) => p.name).join(' ')} ${e.body?.fields.map((f) => `${f.name} ${f.description}`).join(' ') ?? ''}`);
  return `${guide}\n${eps.join('\n')}`.replace(/\s+/g, ' ');
}
