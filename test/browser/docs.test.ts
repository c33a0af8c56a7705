/**
 * The documentation, landing and pricing pages in a real Chromium: every spec anchor in order
 * with the sidebar highlighting the section in view, Copy as Markdown (clipboard granted: the
 * whole doc and "Copied!" for 2 s; denied: the "Failed to copy to clipboard" alert), Ask Docs
 * AI in retrieval-only mode and with a (local) OpenAI-compatible endpoint, axe-core on the pricing
 * page at 1280 and 390 px, and screenshots.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTestApp, type TestContext } from '../support/app.ts';
import { freePort } from '../support/net.ts';
import { axeViolations, chromiumAvailable, launch, screenshotPath, shootBothWidths, type Browser } from './support.ts';

// Callbacks given to page.evaluate/waitForFunction run in the page: these are the browser's globals there
// (untyped: the server's tsconfig has no DOM library).
declare const document: any, window: any, location: any, navigator: any;

const ANCHORS = 'authentication, quick-start, users, api-keys, invites, profiles, posts, bulk-upload, accounts, media, connect, clone-connection, ai-clipping, facebook-pages, facebook-stories, linkedin-organizations, pinterest, reddit-subreddits, reddit-feed, reddit-search, usage-stats, queue, analytics, plan-tiers, usage-tracking, error-handling, rate-limits, platforms, tiktok-direct-posting'.split(', ')
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
const hasChromium = chromiumAvailable('test/browser/docs.test.ts');
/** The local model's answer: Markdown with a list, bold, a code block, raw HTML and a script link (which must not survive). */
const ANSWER = [
  'Send `queuedFromProfile` with the profile id when you create the post; **Herald picks the next free slot**. See [Queue](#queue).',
  '',
  '1. Set the queue slots first',
  '2. Then create the post',
  '',
  '```sh',
  'curl -X POST $HERALD/v1/posts -d \'{"queuedFromProfile":"..."}\'',
  '```',
  '',
  '<img src="x" onerror="window.__pwned=1"> <script>window.__pwned=2</script> [click](javascript:window.__pwned=3)',
].join('\n');

let ctx: TestContext;
let aiCtx: TestContext;
let base: string;
let aiBase: string;
let browser: Browser;
let llm: http.Server;

beforeAll(async () => {
  if (!hasChromium) return;
  llm = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
      model: 'local-test-model', choices: [{ message: { role: 'assistant', content: ANSWER } }],
    })));
  });
  await new Promise<void>((r) => llm.listen(0, '127.0.0.1', () => r()));
  const [port, aiPort] = await Promise.all([freePort(), freePort()]);
  [ctx, aiCtx] = await Promise.all([
    createTestApp({ listen: true, env: { PORT: String(port), HERALD_SUPPORT_EMAIL: 'help@herald.example' } }),
    createTestApp({ listen: true, env: { PORT: String(aiPort), HERALD_DOCS_AI_URL: `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`, HERALD_DOCS_AI_MODEL: 'local-test-model' } }),
  ]);
  base = `http://127.0.0.1:${port}`;
  aiBase = `http://127.0.0.1:${aiPort}`;
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await ctx?.close();
  await aiCtx?.close();
  await new Promise((r) => (llm ? llm.close(r) : r(undefined)));
});

/** Screenshots of what the window shows (the docs page is too long for a full-page shot) at 1280 and 390 px: `<name>-1280.png`, `<name>-390.png`. */
async function shootViewport(page: Page, name: string, before?: () => Promise<void>) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await before?.();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(1);
    await page.screenshot({ path: screenshotPath(`${name}-${width}`) });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function openDocs(page: Page, url = `${base}/docs`) {
  await page.goto(url);
  // The endpoint reference comes from /v1/openapi.json after the first paint.
  await page.locator('#post-v1-posts').waitFor();
}

describe.skipIf(!hasChromium)('documentation page', () => {
  it('has the header, every anchor in order, the sidebar and the help block', async () => {
    const page = await browser.context.newPage();
    await openDocs(page);
    const header = page.locator('header.site-header');
    for (const href of ['/', '/pricing', '/dashboard']) await expect(header.locator(`a[href="${href}"]`).count()).resolves.toBeGreaterThan(0);
    expect(await page.locator('main section.doc-section').evaluateAll((els) => els.map((e) => e.id))).toEqual(ANCHORS);
    expect(await page.locator('nav.toc a').evaluateAll((els) => els.map((e) => e.getAttribute('href')))).toEqual(ANCHORS.map((a) => `#${a}`));
    await expect(page.getByRole('button', { name: 'Ask Docs AI' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Copy as Markdown' }).isVisible()).resolves.toBe(true);
    const help = page.locator('.help-block');
    expect(await help.locator('a[href="mailto:help@herald.example"]').textContent()).toBe('help@herald.example');
    expect(await help.locator('a[href="/dashboard"]').count()).toBe(1);
    // Endpoint reference generated from the OpenAPI document, with both code samples.
    const create = page.locator('article.endpoint', { has: page.locator('#post-v1-posts') });
    expect(await create.locator('.endpoint-line').textContent()).toBe('POST /v1/posts');
    await create.getByRole('tab', { name: 'JavaScript' }).click();
    expect(await create.locator('[role="tabpanel"]').textContent()).toContain("method: 'POST'");
    await page.screenshot({ path: screenshotPath('docs'), fullPage: false });
    await page.close();
  });

  it('navigates to each anchor from the sidebar and highlights the section in view', async () => {
    const page = await browser.context.newPage();
    await openDocs(page);
    for (const id of ANCHORS) {
      await page.locator(`nav.toc a[href="#${id}"]`).click();
      await page.waitForFunction((anchor) => location.hash === `#${anchor}` && document.querySelector(`nav.toc a[href="#${anchor}"]`)?.getAttribute('aria-current') === 'location', id);
      const top = await page.locator(`#${id}`).evaluate((el) => el.getBoundingClientRect().top);
      expect(top, id).toBeGreaterThanOrEqual(0);
      expect(top, id).toBeLessThan(120);
      expect(await page.locator('nav.toc a.active').count()).toBe(1);
    }
    // Scrolling by hand moves the highlight too.
    await page.locator('#queue').evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 70));
    await page.waitForFunction(() => document.querySelector('nav.toc a.active')?.getAttribute('href') === '#queue');
    // A deep link lands on its section once the reference has loaded.
    await openDocs(page, `${base}/docs#rate-limits`);
    await page.waitForFunction(() => Math.abs(document.getElementById('rate-limits')!.getBoundingClientRect().top) < 120);
    await page.close();
  });

  it('copies the whole documentation as Markdown and shows Copied! for 2 seconds', async () => {
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await browser.context.newPage();
    await openDocs(page);
    const button = page.locator('.docs-actions button', { hasText: /Copy as Markdown|Copied!/ });
    await button.click();
    const copiedAt = Date.now();
    await page.waitForFunction(() => [...document.querySelectorAll('.docs-actions button')].some((b) => b.textContent === 'Copied!'));
    const md = await page.evaluate(() => navigator.clipboard.readText());
    expect(md.startsWith('# Herald API documentation')).toBe(true);
    let at = 0;
    for (const id of ANCHORS) {
      const i = md.indexOf(`{#${id}}`);
      expect(i, id).toBeGreaterThan(at);
      at = i;
    }
    expect(md).toContain('### Create a post (draft, scheduled, or published now)');
    await page.waitForFunction(() => [...document.querySelectorAll('.docs-actions button')].some((b) => b.textContent === 'Copy as Markdown'), undefined, { polling: 50, timeout: 5_000 });
    const shown = Date.now() - copiedAt;
    expect(shown).toBeGreaterThanOrEqual(1_900);
    expect(shown).toBeLessThan(3_000);
    await page.close();
  });

  it('says "Failed to copy to clipboard" on the page (no browser alert box) when clipboard access is denied', async () => {
    await browser.context.clearPermissions();
    const page = await browser.context.newPage();
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Browser.setPermission', { permission: { name: 'clipboard-write' }, setting: 'denied', origin: base });
    await cdp.send('Browser.setPermission', { permission: { name: 'clipboard-read' }, setting: 'denied', origin: base });
    await openDocs(page);
    // A dialog listener must answer the dialog, or the click that opened it never completes.
    const seen: Array<{ type: string; message: string }> = [];
    page.on('dialog', (d) => { seen.push({ type: d.type(), message: d.message() }); void d.accept(); });
    await page.getByRole('button', { name: 'Copy as Markdown' }).click();
    await page.getByRole('status').filter({ hasText: 'Failed to copy to clipboard' }).waitFor();
    expect(seen).toEqual([]);
    expect(await page.locator('.docs-actions button', { hasText: 'Copied!' }).count()).toBe(0);
    await page.close();
  });

  it('asks the docs: retrieval only, with links to the matching sections', async () => {
    const page = await browser.context.newPage();
    await openDocs(page);
    await page.getByRole('button', { name: 'Ask Docs AI' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ask Docs AI' });
    await dialog.waitFor();
    expect(await dialog.locator('.ask-mode').textContent()).toMatch(/^Retrieval only/);
    await dialog.getByLabel('Your question').fill('How do I add a post to the queue?');
    await dialog.getByRole('button', { name: 'Ask' }).click();
    const first = dialog.locator('.ask-results li a').first();
    await first.waitFor();
    expect(await dialog.locator('.ask-results li a').evaluateAll((els) => els.map((e) => e.getAttribute('href')))).toContain('#queue');
    await page.screenshot({ path: screenshotPath('docs-ask-retrieval') });
    await dialog.locator('.ask-results a[href="#queue"]').click();
    await page.waitForFunction(() => location.hash === '#queue' && !document.querySelector('dialog[open]'));
    await page.close();
  });

  it('Ask Docs AI takes the focus to the question, keeps code in its excerpts, and closes with one Escape', async () => {
    const page = await browser.context.newPage();
    await openDocs(page);
    await page.getByRole('button', { name: 'Ask Docs AI' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ask Docs AI' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('ask-input');
    await page.keyboard.type('How do I add a post to the queue?');
    await page.keyboard.press('Enter');
    await dialog.locator('.ask-results li').first().waitFor();
    // The excerpts are the guide's own text: inline code and code blocks stay code.
    expect(await dialog.locator('.ask-results .ask-snippet code').count()).toBeGreaterThan(0);
    expect(await dialog.locator('.ask-results').textContent()).not.toContain('`');
    await page.screenshot({ path: screenshotPath('docs-ask-code') });
    // The question field still holds text: one Escape closes the dialog all the same.
    await dialog.getByLabel('Your question').focus();
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('dialog[open]'));
    await page.close();
  });

  it('asks the docs with an AI endpoint configured: a grounded answer plus the sections', async () => {
    const page = await browser.context.newPage();
    await openDocs(page, `${aiBase}/docs`);
    await page.getByRole('button', { name: 'Ask Docs AI' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ask Docs AI' });
    expect(await dialog.locator('.ask-mode').count()).toBe(0);
    await dialog.getByLabel('Your question').fill('How do I add a post to the queue?');
    await dialog.getByRole('button', { name: 'Ask' }).click();
    const answer = dialog.locator('.ai-answer');
    await answer.waitFor();
    expect(await answer.textContent()).toContain('Herald picks the next free slot');
    expect(await answer.locator('a[href="#queue"]').textContent()).toBe('Queue');
    expect(await answer.locator('p code').first().textContent()).toBe('queuedFromProfile');
    // Markdown is rendered, not shown raw: bold, a numbered list, a code block (focusable, labelled).
    expect(await answer.locator('strong').textContent()).toBe('Herald picks the next free slot');
    expect(await answer.locator('ol li').allTextContents()).toEqual(['Set the queue slots first', 'Then create the post']);
    const block = answer.locator('pre');
    expect(await block.textContent()).toContain('curl -X POST');
    expect(await block.getAttribute('tabindex')).toBe('0');
    expect(await block.getAttribute('aria-label')).toBe('Code example (sh)');
    expect(await answer.textContent()).not.toMatch(/\*\*|```/);
    // Raw HTML is shown as text, never run; a javascript: link is no link.
    expect(await answer.locator('img, script').count()).toBe(0);
    expect(await answer.textContent()).toContain('<img src="x"');
    expect(await answer.locator('a').evaluateAll((els) => els.map((e) => e.getAttribute('href')))).toEqual(['#queue']);
    await answer.getByText('click').click();
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(await axeViolations(page)).toEqual([]);
    await shootViewport(page, 'docs-ask-answer');
    await page.close();
  });

  it('has no serious or critical axe-core violation, and every code block and table box is a labelled stop of the keyboard', async () => {
    const page = await browser.context.newPage();
    await openDocs(page);
    // Every <pre> (guides, examples, samples) and every guide table's scroll box can be reached with Tab and has a name.
    const boxes = await page.locator('main pre, main .table-scroll, main .table-wrap').evaluateAll((els) => els.map((e) => ({
      tabindex: e.getAttribute('tabindex'), name: e.getAttribute('aria-label') ?? e.getAttribute('aria-labelledby'),
    })));
    expect(boxes.length).toBeGreaterThan(20);
    expect(boxes.filter((b) => b.tabindex !== '0' || !b.name)).toEqual([]);
    const guideCode = page.locator('#quick-start .prose pre').first();
    expect(await guideCode.getAttribute('aria-label')).toMatch(/^Code example/);
    await guideCode.focus();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('PRE');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      expect(await axeViolations(page), `docs at ${width} px`).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await shootViewport(page, 'docs-code-focus', async () => {
      await guideCode.scrollIntoViewIfNeeded();
      await guideCode.focus();
    });
    await page.close();
  });

  it('works at phone width', async () => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await openDocs(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await page.screenshot({ path: screenshotPath('docs-phone') });
    // Every platform's rules, from the rule table, readable at phone width too.
    const rules = page.getByRole('heading', { name: 'Every rule, per platform' });
    await rules.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('docs-rules-phone') });
    await page.close();
  });

  it('lists every platform\'s rules with the id a 400 names and the platform page it comes from', async () => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await openDocs(page, `${base}/docs#platforms`);
    const section = page.locator('#platforms');
    await section.getByRole('heading', { name: 'Every rule, per platform' }).waitFor();
    const item = section.locator('li', { has: page.locator('code', { hasText: /^instagram\.image\.format$/ }) });
    expect(await item.textContent()).toMatch(/JPEG only/);
    expect(await item.getByRole('link', { name: 'source' }).getAttribute('href')).toMatch(/^https:\/\/developers\.facebook\.com\//);
    await section.getByRole('heading', { name: 'Instagram', exact: true }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('docs-rules') });
    await page.close();
  });
});

describe.skipIf(!hasChromium)('landing and pricing pages', () => {
  it('landing page says what Herald is and links to docs, pricing and dashboard', async () => {
    const page = await browser.context.newPage();
    await page.goto(base);
    expect(await page.locator('h1').textContent()).toMatch(/Schedule and publish/);
    for (const href of ['/docs', '/pricing', '/dashboard']) expect(await page.locator(`main a[href="${href}"]`).count()).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('landing'), fullPage: true });
    await page.close();
  });

  it('pricing shows the plan table monthly and annually (annual saves 40%)', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${base}/pricing`);
    expect(await page.getByTestId('price-basic').textContent()).toBe('$19/month');
    expect(await page.getByTestId('price-professional').textContent()).toBe('$49/month');
    expect(await page.locator('.plan.popular h2').textContent()).toBe('Accelerate');
    await page.getByRole('radio', { name: /Annual/ }).click();
    expect(await page.getByTestId('price-basic').textContent()).toBe('$11.40/month');
    expect(await page.getByTestId('price-professional').textContent()).toBe('$29.40/month');
    expect(await page.getByTestId('price-free').textContent()).toBe('$0/month');
    expect(await page.locator('.billing-toggle').textContent()).toContain('save 40%');
    // The prices line up across the cards (the same distance below each card's top edge, so a row's prices align).
    const offsets = await page.locator('[data-testid^="price-"]').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top - e.closest('.plan')!.getBoundingClientRect().top)));
    expect(offsets).toHaveLength(6);
    expect(new Set(offsets).size).toBe(1);
    // Every tier of the plan table, with Enterprise's 250 profiles and Unlimited's unlimited profiles.
    expect(await page.locator('#plan-enterprise').locator('xpath=..').textContent()).toContain('250 profiles');
    expect(await page.locator('#plan-unlimited').locator('xpath=..').textContent()).toContain('Unlimited profiles');
    await page.screenshot({ path: screenshotPath('pricing'), fullPage: true });
    // No serious or critical axe-core violation on a desktop and on a phone (the annual prices shown), and no sideways scroll.
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      expect((await axeViolations(page)).map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(' | ')})`), `pricing at ${width} px`).toEqual([]);
    }
    await shootBothWidths(page, 'pricing');
    await page.close();
  });
});
