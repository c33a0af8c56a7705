/**
 * The MCP tools as the docs and tools/list describe them (docs/decisions/0047-mcp-server.md,
 * 0049-oauth-for-mcp.md): the docs' tool table and capability table (src/shared/docs/guides/mcp.md,
 * built from TOOL_SPECS) name every tool with the capability it needs, and tools/list answers each
 * tool's annotations as TOOL_SPECS gives them, destructive where a tool removes or overwrites what
 * is live on the platforms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSections } from '../../src/shared/docs/content.ts';
import { readGuides } from '../../src/modules/docs-ai/service.ts';
import { CAPABILITIES, CAPABILITY_LABELS, TOOL_SPECS } from '../../src/shared/mcp-tools.ts';
import { createTenant, createTestApp, type TestContext } from '../support/app.ts';

/** The rows of the Markdown table whose header row starts with `| <first> |`, as cells. */
function table(md: string, first: string): string[][] {
  const lines = md.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`| ${first} |`));
  expect(start, `a table starting with "${first}"`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim()));
  }
  return rows;
}

const guide = buildSections(readGuides(), null).find((s) => s.id === 'mcp')!.guide;

describe('the docs\' MCP section', () => {
  it('lists every tool once, with the /v1 operation it runs and the capability it needs', () => {
    const rows = table(guide, 'Tool');
    expect(rows.map((r) => r[0])).toEqual(TOOL_SPECS.map((t) => `\`${t.name}\``));
    for (const [i, t] of TOOL_SPECS.entries()) {
      const [, runs, needs] = rows[i];
      expect(runs, t.name).toBe(`\`${t.method} ${t.url.replace(/:([A-Za-z]+)/g, '{$1}')}\``);
      expect(needs.split(' ')[0], t.name).toBe(t.capability);
      if (t.annotations.destructiveHint) expect(needs, t.name).toContain('(destructive)');
    }
  });

  it('has a capability table listing each capability\'s tools and the consent page\'s words for it', () => {
    const rows = table(guide, 'Capability');
    expect(rows.map((r) => r[0])).toEqual(CAPABILITIES.map((c) => `\`${c}\``));
    for (const [i, c] of CAPABILITIES.entries()) {
      expect(rows[i][1]).toBe(CAPABILITY_LABELS[c]);
      const tools = rows[i][2].split(', ').map((x) => x.replace(/`/g, ''));
      expect(tools, c).toEqual(TOOL_SPECS.filter((t) => t.capability === c).map((t) => t.name));
    }
    // The tools an earlier hand-written table left out.
    expect(guide).toMatch(/\| `publish` \|[^\n]*`retry_post_target`[^\n]*`edit_published_post`[^\n]*`update_youtube_metadata`/);
    expect(guide).toMatch(/\| `read` \|[^\n]*`list_media`/);
  });
});

describe('tool annotations', () => {
  let ctx: TestContext;
  let listed: { name: string; annotations: Record<string, unknown> }[];
  beforeAll(async () => {
    ctx = await createTestApp();
    const t = await createTenant(ctx);
    const res = await ctx.app.inject({
      method: 'POST', url: '/mcp', payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { authorization: `Bearer ${t.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    listed = res.json().result.tools;
  });
  afterAll(async () => { await ctx?.close(); });

  it('tools/list answers TOOL_SPECS\' annotations for every tool', () => {
    expect(listed.map((t) => t.name)).toEqual(TOOL_SPECS.map((t) => t.name));
    for (const spec of TOOL_SPECS) {
      expect(listed.find((t) => t.name === spec.name)!.annotations, spec.name).toEqual({ title: spec.title, ...spec.annotations });
    }
  });

  it('marks as destructive exactly the tools that remove or overwrite live content, and as read-only exactly the reading ones', () => {
    const destructive = listed.filter((t) => t.annotations.destructiveHint === true).map((t) => t.name).sort();
    expect(destructive).toEqual(['delete_post', 'edit_published_post', 'unpublish_post', 'update_youtube_metadata']);
    for (const spec of TOOL_SPECS) {
      const a = listed.find((t) => t.name === spec.name)!.annotations;
      expect(a.readOnlyHint, spec.name).toBe(spec.capability === 'read');
      // The protocol defines destructiveHint only for tools that are not read-only; every writing tool says it either way.
      if (!a.readOnlyHint) expect(typeof a.destructiveHint, spec.name).toBe('boolean');
    }
  });
});
