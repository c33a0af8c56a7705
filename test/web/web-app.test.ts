/**
 * The web app as Herald serves it: pages at /, /docs, /pricing and /dashboard/* with the
 * runtime configuration filled in and strict security headers, hashed assets cached for a
 * year, and the JSON 404 kept for unknown API routes. Also "Ask Docs AI" answers through a
 * local OpenAI-compatible server, and its retrieval-only mode.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../support/app.ts';
import { WEB_DIST_DIR } from '../../src/http/web.ts';

/** A minimal OpenAI-compatible chat endpoint that records what it was asked. */
function startFakeLlm(): Promise<{ url: string; requests: Array<{ auth?: string; body: { model: string; messages: Array<{ role: string; content: string }> } }>; close(): Promise<void> }> {
  const requests: Array<{ auth?: string; body: { model: string; messages: Array<{ role: string; content: string }> } }> = [];
  const srv = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => { data += c; });
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST') { res.writeHead(404).end(); return; }
      const body = JSON.parse(data);
      requests.push({ auth: req.headers.authorization, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        id: 'cmpl-1', object: 'chat.completion', model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'Create the post with `queuedFromProfile` set to the profile id. See [Queue](#queue).' }, finish_reason: 'stop' }],
      }));
    });
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`, requests,
    close: () => new Promise((r) => srv.close(() => r())),
  })));
}

let ctx: TestContext;
let ai: TestContext;
let llm: Awaited<ReturnType<typeof startFakeLlm>>;

beforeAll(async () => {
  llm = await startFakeLlm();
  [ctx, ai] = await Promise.all([
    createTestApp({ env: { HERALD_SUPPORT_EMAIL: 'help@herald.example' } }),
    createTestApp({ env: { HERALD_DOCS_AI_URL: llm.url, HERALD_DOCS_AI_KEY: 'sk-test-llm', HERALD_DOCS_AI_MODEL: 'tiny-model' } }),
  ]);
});
afterAll(async () => {
  await ctx?.close();
  await ai?.close();
  await llm?.close();
});

describe('pages', () => {
  it.each([
    ['/', 'index.html'], ['/docs', 'docs.html'], ['/docs/', 'docs.html'], ['/pricing', 'pricing.html'],
    ['/dashboard', 'dashboard.html'], ['/dashboard/calendar', 'dashboard.html'], ['/dashboard/posts/65f1c0a1b2c3d4e5f6a7b8c9/edit', 'dashboard.html'],
  ])('GET %s serves %s with the configuration and security headers', async (url, file) => {
    const res = await ctx.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const built = fs.readFileSync(path.join(WEB_DIST_DIR, file), 'utf8');
    const entry = /<script type="module" crossorigin src="([^"]+)"/.exec(built)?.[1];
    expect(entry).toBeTruthy();
    expect(res.body).toContain(entry!);
    expect(res.body).not.toContain('__HERALD_CONFIG__');
    const meta = /<meta name="herald-config" content="([^"]*)"/.exec(res.body)![1].replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    expect(JSON.parse(meta)).toEqual({ supportEmail: 'help@herald.example', docsAi: false, signup: false, billing: false, passwordReset: false });
    expect(res.body).not.toMatch(/<script>(?!<\/script>)/); // no inline script
  });

  it('serves hashed assets with a year of caching, and 404s unknown ones', async () => {
    const html = (await ctx.app.inject({ method: 'GET', url: '/docs' })).body;
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1];
    const res = await ctx.app.inject({ method: 'GET', url: asset });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await ctx.app.inject({ method: 'GET', url: '/assets/nope-123.js' })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: '/assets/../../package.json' })).statusCode).toBe(404);
  });

  it('keeps the API\'s JSON 404 for unknown routes', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
    expect((await ctx.app.inject({ method: 'GET', url: '/nope' })).json().code).toBe('NOT_FOUND');
  });

  it('the docs page bundle stays small and loads no dashboard code', async () => {
    const html = (await ctx.app.inject({ method: 'GET', url: '/docs' })).body;
    const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts.some((s) => /dashboard|Composer|Calendar/.test(s))).toBe(false);
    let total = 0;
    for (const s of scripts) total += gzipSync(fs.readFileSync(path.join(WEB_DIST_DIR, s))).length;
    // gzipped: React (about 60 KB) + marked + the guides and every platform's rule table (about 156 KB with fourteen
    // platforms, approvals and account groups; 135 KB with ten): the budget grows with the content, not with code.
    expect(total).toBeLessThan(175_000);
  });
});

describe('Ask Docs AI', () => {
  it('says answers are not configured when no endpoint is set (the page shows retrieval only)', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/docs-ai/answer', payload: { question: 'How do I queue a post?' } });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toMatch(/not configured/);
  });

  it('answers from the configured endpoint, grounded on the retrieved sections, key kept server-side', async () => {
    const page = await ai.app.inject({ method: 'GET', url: '/docs' });
    expect(page.body).toContain('&quot;docsAi&quot;:true');
    expect(page.body).not.toContain('sk-test-llm');
    const res = await ai.app.inject({ method: 'POST', url: '/docs-ai/answer', payload: { question: 'How do I add a post to the posting queue slots?' } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.answer).toContain('queuedFromProfile');
    expect(body.model).toBe('tiny-model');
    expect(body.sources[0]).toEqual({ id: 'queue', title: 'Queue', url: '/docs#queue' });
    const sent = llm.requests.at(-1)!;
    expect(sent.auth).toBe('Bearer sk-test-llm');
    expect(sent.body.model).toBe('tiny-model');
    const system = sent.body.messages[0].content;
    expect(system).toContain('Use ONLY the documentation sections');
    expect(system).toContain('<section anchor="#queue"');
    expect(system).toContain('PUT /v1/queue/slots'); // the endpoint reference from the live OpenAPI document
    expect(sent.body.messages[1]).toEqual({ role: 'user', content: 'How do I add a post to the posting queue slots?' });
  });

  it('validates the question', async () => {
    const res = await ai.app.inject({ method: 'POST', url: '/docs-ai/answer', payload: { question: 'x'.repeat(501) } });
    expect(res.statusCode).toBe(400);
  });
});
