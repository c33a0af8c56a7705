/**
 * The documentation content: every in-page anchor of the compatible service's docs page, in order, with a guide, every
 * endpoint of the OpenAPI document placed in a section, the generated Markdown, the local
 * retrieval, and the composer's platform rules against the adapters' own capabilities.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../support/app.ts';
import { SECTION_IDS, buildSections, docsMarkdown, endpointsFromOpenApi, sectionOf, type OpenApiDoc } from '../../src/shared/docs/content.ts';
import { buildIndex } from '../../src/shared/docs/search.ts';
import { readGuides } from '../../src/modules/docs-ai/service.ts';
import { checkPost, countGraphemes, PLATFORM_RULES, weightedLength } from '../../web/src/lib/platform-rules.ts';
import { BlueskyAdapter } from '../../src/platforms/bluesky/adapter.ts';
import { PLATFORMS } from '../../src/shared/platforms.ts';
import { ruleDocs } from '../../src/shared/rules/index.ts';
import { UNPUBLISH } from '../../src/platforms/types.ts';

const SPEC_ANCHORS = 'authentication, quick-start, users, api-keys, invites, profiles, posts, bulk-upload, accounts, media, connect, clone-connection, ai-clipping, facebook-pages, facebook-stories, linkedin-organizations, pinterest, reddit-subreddits, reddit-feed, reddit-search, usage-stats, queue, analytics, plan-tiers, usage-tracking, error-handling, rate-limits, platforms, tiktok-direct-posting'.split(', ')
  // Sections of Herald's own features: webhooks (decision 0038), publishing logs, account health and take-back (decision 0039), validation (decision 0026).
  .concat(['webhooks', 'publishing-logs', 'account-health', 'take-back', 'validation'])
  // The MCP server for AI assistants (decision 0047).
  .concat(['mcp'])
  // The later API integrators use: account groups.
  .concat(['account-groups'])
  // Google Business Profile's locations and local posts (decision 0058).
  .concat(['google-business'])
  // Approvals, comments and client review links (decision 0059).
  .concat(['approvals'])
  // RSS to queue (decision 0065).
  .concat(['feeds'])
  // Recycling evergreen posts (decision 0061).
  .concat(['recycling']);

let ctx: TestContext;
let doc: OpenApiDoc;
beforeAll(async () => {
  ctx = await createTestApp();
  doc = (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
});
afterAll(async () => { await ctx?.close(); });

describe('docs content', () => {
  it('has the docs page anchors, in order, each with a guide', () => {
    expect([...SECTION_IDS]).toEqual(SPEC_ANCHORS);
    const sections = buildSections(readGuides(), doc);
    expect(sections.map((s) => s.id)).toEqual(SPEC_ANCHORS);
    for (const s of sections) expect(s.guide.length, `#${s.id}`).toBeGreaterThan(150);
  });

  it('places every /v1 operation of the OpenAPI document in its section', () => {
    const eps = endpointsFromOpenApi(doc);
    expect(eps.length).toBeGreaterThan(15);
    for (const ep of eps) expect(sectionOf(ep), `${ep.method} ${ep.path}`).not.toBeNull();
    const posts = buildSections(readGuides(), doc).find((s) => s.id === 'posts')!;
    expect(posts.endpoints.map((e) => `${e.method} ${e.path}`)).toEqual(expect.arrayContaining(['GET /v1/posts', 'POST /v1/posts', 'POST /v1/posts/{postId}/retry']));
    const create = posts.endpoints.find((e) => e.method === 'POST' && e.path === '/v1/posts')!;
    expect(create.body?.fields.map((f) => f.name)).toEqual(expect.arrayContaining(['content', 'scheduledFor', 'timezone', 'platforms', 'queuedFromProfile']));
    expect(create.responses.map((r) => r.status)).toEqual(expect.arrayContaining(['201', '207', '400', '401']));
  });

  it('documents editing published posts with the take-back section: both routes and the per-platform table (decision 0060)', () => {
    const s = buildSections(readGuides(), doc).find((x) => x.id === 'take-back')!;
    expect(s.endpoints.map((e) => `${e.method} ${e.path}`)).toEqual(expect.arrayContaining(['POST /v1/posts/{postId}/edit', 'POST /v1/posts/{postId}/update-metadata']));
    expect(s.guide).toContain('| Mastodon | yes |');
    expect(s.guide).toMatch(/\| Instagram \| no \|.*comment_enabled/);
    expect(s.guide).toContain('https://docs.x.com/x-api/fundamentals/edit-posts');
  });

  it('writes the whole documentation as Markdown with every anchor, plan table and code samples', () => {
    const md = docsMarkdown(buildSections(readGuides(), doc), 'http://127.0.0.1:3000');
    let at = 0;
    for (const id of SPEC_ANCHORS) {
      const i = md.indexOf(`{#${id}}`);
      expect(i, id).toBeGreaterThan(at);
      at = i;
    }
    expect(md).toContain('| Accelerate (`professional`) — most popular | $49 | $29.4 | Unlimited | 50 | 600 |');
    expect(md).toContain('curl -s -X POST "$HERALD/v1/posts"');
    expect(md).toContain("const res = await fetch(`${HERALD}/v1/posts/${postId}`");
    expect(md).not.toContain('{{');
  });

  it('retrieves the relevant sections for a question', () => {
    const index = buildIndex(buildSections(readGuides(), doc));
    expect(index.search('How do I connect a Bluesky account with an app password?')[0].id).toBe('connect');
    expect(index.search('what happens when I hit the rate limit 429')[0].id).toBe('rate-limits');
    expect(index.search('weekly slots queue').map((h) => h.id)).toContain('queue');
    expect(index.search('TikTok privacy_level')[0].id).toBe('tiktok-direct-posting');
  });
});

describe('composer platform rules', () => {
  it('match the Bluesky adapter (300 graphemes, 4 images)', () => {
    const caps = new BlueskyAdapter().capabilities;
    expect(PLATFORM_RULES.bluesky.maxText).toBe(caps.maxTextLength);
    expect(PLATFORM_RULES.bluesky.unit).toBe(caps.textUnit);
    expect(PLATFORM_RULES.bluesky.maxImages).toBe(caps.maxImages);
  });

  it('counts graphemes, X weights, and reports each broken rule', () => {
    expect(countGraphemes('👩‍👩‍👧‍👦é')).toBe(2);
    expect(weightedLength('hi https://example.com/a/very/long/path 日本')).toBe(3 + 23 + 1 + 4);
    expect(checkPost('bluesky', 'a'.repeat(300), [])).toEqual([]);
    expect(checkPost('bluesky', 'a'.repeat(301), [])[0]).toMatchObject({ rule: 'bluesky.text.max_graphemes', field: 'content' });
    expect(checkPost('bluesky', 'ok', Array(5).fill({ type: 'image' })).map((p) => p.rule)).toEqual(['bluesky.images.max_count']);
    expect(checkPost('youtube', 'title', []).map((p) => p.field)).toEqual(['media']);
    expect(checkPost('twitter', 'x'.repeat(281), []).map((p) => p.rule)).toEqual(['twitter.text.max_weighted_length']);
  });

  it('the unpublish paragraph names every platform Herald deletes on, and the guides cite only rule ids of the rule table', () => {
    const takeBack = buildSections(readGuides(), doc).find((x) => x.id === 'take-back')!.guide;
    const unpublish = takeBack.slice(takeBack.indexOf('**Unpublish.**'), takeBack.indexOf('| outcome |'));
    const notSupported = takeBack.split('\n').find((l) => l.startsWith('| `not_supported` |'))!;
    for (const p of PLATFORMS) {
      const name = PLATFORM_RULES[p].label.replace(/ \(.*\)$/, '');
      expect(UNPUBLISH[p].supported ? unpublish : notSupported, p).toMatch(new RegExp(`\\b${name}\\b`));
    }
    const known = new Set(PLATFORMS.flatMap((p) => ruleDocs(p).map((r) => r.id)));
    const cited = [...Object.values(readGuides()).join('\n').matchAll(/\[rule ([a-z0-9_.]+)\]/g)].map((m) => m[1]);
    expect(cited.length).toBeGreaterThan(0);
    for (const id of cited) expect(known.has(id), id).toBe(true);
  });

  it('the platforms section lists every rule of every platform from the rule table, with its source', () => {
    const platforms = buildSections(readGuides(), doc).find((s) => s.id === 'platforms')!;
    for (const p of PLATFORMS) {
      expect(platforms.guide, p).toContain(`#### ${PLATFORM_RULES[p].label}`);
      for (const r of ruleDocs(p)) {
        expect(platforms.guide, r.id).toContain(`\`${r.id}\``);
        if (r.source.startsWith('https://')) expect(platforms.guide, r.id).toContain(`(${r.source})`);
      }
    }
    expect(ruleDocs('bluesky').length).toBeGreaterThan(5);
  });
});
