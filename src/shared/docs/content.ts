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
import { PLATFORM_RULES } from '../platform-summary.ts';
import { ruleDocs } from '../rules/catalog.ts';
import { METRICS, METRIC_LABELS, PLATFORM_METRICS } from '../metrics.ts';
import { CAPABILITIES, CAPABILITY_LABELS, TOOL_SPECS } from '../mcp-tools.ts';
import { RECYCLING_RULES } from '../recycling.ts';
import { ERROR_SOURCE_OF, FAILURE_REASONS } from '../failure-categories.ts';
import { PUBLISHED_EDITS } from '../edits.ts';

/** The in-page anchors of the documentation, in order. */
export const SECTION_IDS = [
  'authentication', 'quick-start', 'users', 'api-keys', 'invites', 'profiles', 'posts', 'bulk-upload', 'accounts',
  'media', 'connect', 'clone-connection', 'ai-clipping', 'facebook-pages', 'facebook-stories', 'linkedin-organizations',
  'pinterest', 'reddit-subreddits', 'reddit-feed', 'reddit-search', 'usage-stats', 'queue', 'analytics', 'plan-tiers',
  'usage-tracking', 'error-handling', 'rate-limits', 'platforms', 'tiktok-direct-posting', 'webhooks',
  'publishing-logs', 'account-health', 'take-back', 'validation', 'mcp', 'account-groups', 'google-business', 'approvals',
  'feeds', 'recycling',
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
  'api-keys': { title: 'API keys', paths: /^\/(api-keys|auth\/verify)/, expectsEndpoints: true },
  invites: { title: 'Invites', paths: /^\/(invite|platform-invites)/, expectsEndpoints: true },
  profiles: { title: 'Profiles', paths: /^\/profiles(?!\/[^/]+\/(clone-connection|approval-rule))/, expectsEndpoints: true },
  posts: { title: 'Posts', paths: /^\/posts(?!\/bulk-upload|\/\{postId\}\/(logs|unpublish|edit|update-metadata|submit|approve|request-changes|approval|comments))/, expectsEndpoints: true },
  'bulk-upload': { title: 'Bulk upload', paths: /^\/posts\/bulk-upload/, expectsEndpoints: true },
  accounts: { title: 'Accounts', paths: /^\/accounts(\/\{accountId\})?$/, expectsEndpoints: true },
  'account-groups': { title: 'Account groups', paths: /^\/account-groups/, expectsEndpoints: true },
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
  // Billing (Stripe Checkout and the customer portal) is documented with the plans it sells.
  'plan-tiers': { title: 'Plan tiers', paths: /^\/billing/ },
  'usage-tracking': { title: 'Usage tracking' },
  'error-handling': { title: 'Error handling' },
  'rate-limits': { title: 'Rate limits' },
  platforms: { title: 'Platforms' },
  'tiktok-direct-posting': { title: 'TikTok direct posting' },
  webhooks: { title: 'Webhooks', paths: /^\/webhooks/, expectsEndpoints: true },
  mcp: { title: 'AI assistants (MCP)', paths: /^\/me\/connected-apps/, expectsEndpoints: true },
  'publishing-logs': { title: 'Publishing logs', paths: /^\/(logs|posts\/\{postId\}\/logs)/, expectsEndpoints: true },
  'account-health': { title: 'Account health', paths: /^\/accounts\/(health|\{accountId\}\/health)$/, expectsEndpoints: true },
  'take-back': { title: 'Unpublish, edit and duplicates', paths: /^\/posts\/\{postId\}\/(unpublish|edit|update-metadata)/, expectsEndpoints: true },
  validation: { title: 'Validation', paths: /^\/tools\/validate/, expectsEndpoints: true },
  'google-business': { title: 'Google Business Profile', paths: /^\/accounts\/\{accountId\}\/gmb-locations/, expectsEndpoints: true },
  approvals: {
    title: 'Approvals and review links',
    paths: /^\/(review-links|posts\/\{postId\}\/(submit|approve|request-changes|approval|comments)|profiles\/\{profileId\}\/approval-rule)/,
    expectsEndpoints: true,
  },
  feeds: { title: 'RSS feeds to the queue', paths: /^\/feeds/, expectsEndpoints: true },
  // Recycling is a field of the posts endpoints (decision 0061): prose and its rules, no endpoints of its own.
  recycling: { title: 'Recycling' },
};

// ---------------------------------------------------------------------------------------------
// The OpenAPI part lives in openapi.ts; these are re-exported for the docs page, Ask Docs AI and the tests.
export { curlSample, endpointsFromOpenApi, exampleOf, jsSample, typeLabel, REQUEST_EXAMPLES, type Endpoint, type Field, type JsonSchema, type OpenApiDoc } from './openapi.ts';
import { curlSample, endpointsFromOpenApi, jsSample, type Endpoint, type OpenApiDoc } from './openapi.ts';

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
    return `| ${r.label} | \`${id}\` | ${r.maxText.toLocaleString('en-US')} ${r.unit}${r.maxBytes ? ` (and ${r.maxBytes.toLocaleString('en-US')} bytes)` : ''} | ${media}${r.mediaRequired ? ` (media required)` : ''} | ${r.threads ? 'yes' : 'no'} | ${r.firstComment ? r.firstComment.toLocaleString('en-US') : '—'} | ${r.connect === 'app-password' ? 'app password' : r.connect === 'instance-oauth' ? 'OAuth on your server (instance)' : 'OAuth'} |`;
  });
  return ['| Platform | Id | Text limit | Media per post | Threads | First comment | Connect with |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
}

/** Each platform's metrics: which Herald metric comes from which of the platform's own names (src/shared/metrics.ts). */
function metricsTable(): string {
  const rows = PLATFORM_IDS.map((id) => {
    const m = PLATFORM_METRICS[id];
    const cells = METRICS.map((k) => (m.names[k] ? m.names[k]!.map((n) => `\`${n}\``).join(' + ') : '—'));
    return `| [${PLATFORM_RULES[id].label}](${m.docsUrl}) | ${cells.join(' | ')} |`;
  });
  return [`| Platform | ${METRICS.map((k) => METRIC_LABELS[k]).join(' | ')} |`, `|---|${METRICS.map(() => '---').join('|')}|`, ...rows].join('\n');
}

/**
 * Every platform's rules from the one rule table (src/shared/rules/): what is allowed, the
 * rule id the API names in a 400, and the platform page the rule comes from.
 */
function platformRules(): string {
  return PLATFORM_IDS.map((id) => {
    const rows = ruleDocs(id).map((r) => {
      // A rule of Herald's own making cites its decision record (docs/decisions/NNNN-name.md in the repository).
      const record = /docs\/decisions\/(\d{4})/.exec(r.source)?.[1];
      const source = r.source.startsWith('https://') ? `[source](${r.source})` : `Herald's own rule${record ? ` (decision ${record})` : ''}`;
      return `- ${r.summary} \`${r.id}\` · ${source}`;
    });
    return [`#### ${PLATFORM_RULES[id].label}`, '', ...rows].join('\n');
  }).join('\n\n');
}

/** The MCP server's tools (src/shared/mcp-tools.ts): name, the /v1 operation it runs, the capability it needs, what it does. */
function mcpToolsTable(): string {
  const rows = TOOL_SPECS.map((t) => {
    const kind = t.annotations.destructiveHint ? ' (destructive)' : t.annotations.readOnlyHint ? ' (read-only)' : '';
    return `| \`${t.name}\` | \`${t.method} ${t.url.replace(/:([A-Za-z]+)/g, '{$1}')}\` | ${t.capability}${kind} | ${t.description.split('. ')[0].replace(/\|/g, '\\|').replace(/\.$/, '')}. |`;
  });
  return ['| Tool | Runs | Needs | What it does |', '|---|---|---|---|', ...rows].join('\n');
}

/** The MCP capabilities (the OAuth scopes a user grants on the consent page): what each allows and its tools, from src/shared/mcp-tools.ts. */
function mcpCapabilitiesTable(): string {
  const rows = CAPABILITIES.map((c) => `| \`${c}\` | ${CAPABILITY_LABELS[c]} | ${TOOL_SPECS.filter((t) => t.capability === c).map((t) => `\`${t.name}\``).join(', ')} |`);
  return ['| Capability | What it allows | Tools |', '|---|---|---|', ...rows].join('\n');
}

/** The recycling rules (src/shared/recycling.ts): what is checked, the rule id a 400 names, and where the rule comes from. */
function recyclingRules(): string {
  return RECYCLING_RULES.map((r) => {
    const record = /docs\/decisions\/(\d{4})/.exec(r.source)?.[1];
    const source = r.source.startsWith('https://') ? `[source](${r.source})` : `Herald's own rule${record ? ` (decision ${record})` : ''}`;
    return `- ${r.summary} \`${r.id}\` · ${source}`;
  }).join('\n');
}

/** Herald's failure reasons with the client's errorCategory and errorSource (src/shared/failure-categories.ts, decision 0063). */
function failureTable(): string {
  const rows = Object.values(FAILURE_REASONS).map((r) => `| ${r.what} | \`${r.category}\` | \`${ERROR_SOURCE_OF[r.category]}\` |`);
  return ['| What happened | `errorCategory` | `errorSource` |', '|---|---|---|', ...rows].join('\n');
}

/** Which platforms' published posts can be edited (src/shared/edits.ts, decision 0060): what, how, and the platform's page. */
function editTable(): string {
  const rows = PLATFORM_IDS.map((id) => {
    const e = PUBLISHED_EDITS[id];
    const state = e.herald ? 'yes' : e.platform ? 'not yet (the platform allows it)' : 'no';
    return `| ${PLATFORM_RULES[id].label} | ${state} | ${e.what.replace(/\|/g, '\\|')} | ${e.how === 'none' ? '—' : `\`${e.how}\``} | [source](${e.doc}) |`;
  });
  return ['| Platform | Herald edits | What can change | Platform call | Source |', '|---|---|---|---|---|', ...rows].join('\n');
}

export function expandPlaceholders(md: string): string {
  return md
    .replaceAll('{{failureTable}}', failureTable())
    .replaceAll('{{planTable}}', planTable())
    .replaceAll('{{rateLimitTable}}', rateLimitTable())
    .replaceAll('{{platformTable}}', platformTable())
    .replaceAll('{{platformRules}}', platformRules())
    .replaceAll('{{metricsTable}}', metricsTable())
    .replaceAll('{{mcpTools}}', mcpToolsTable())
    .replaceAll('{{mcpCapabilities}}', mcpCapabilitiesTable())
    .replaceAll('{{recyclingRules}}', recyclingRules())
    .replaceAll('{{editTable}}', editTable())
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
