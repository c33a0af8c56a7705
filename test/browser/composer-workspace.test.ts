/**
 * The composer as a workspace, in a real Chromium against the real app: the live preview sits
 * beside the form and stays in view while the form scrolls (a tab of its own at phone width),
 * per platform (Instagram's caption cut at its fold, X's link card and thread), switchable to
 * one selected account; attachments come by drop, by paste and by the file input, show their
 * upload's progress, are reordered by the keyboard buttons and by dragging, carry alt text, and a PNG for
 * Instagram is converted to a JPEG on the server with a note instead of being refused; the saved
 * post has the order, the alt texts and the JPEG. Screenshots at 1280 and 390 px; axe finds no
 * serious or critical violation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Tenant, TestContext } from '../support/app.ts';
import { makeImage } from '../support/media.ts';
import { makePng } from '../support/png.ts';
import { axeViolations, chromiumAvailable, screenshotPath, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/composer-workspace.test.ts');

let d: DashboardHarness;
let ctx: TestContext;
let page: Page;
let tenant: Tenant;

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'composer-workspace@herald.test', password: 'a long composer workspace password', name: 'Wren Workspace' },
    profile: 'Bakery', accounts: ['instagram', 'twitter', 'linkedin'].map((p) => ({ platform: p, username: `bakery_${p}` })),
  });
  ({ ctx, page, tenant } = d);
  await d.signIn();
}, 180_000);

afterAll(async () => {
  await d?.close();
});

/** Hands `files` to the page as a drop on `selector`, or as a paste on the document (what a browser does for a drag from the desktop or Ctrl+V). */
async function dropOrPaste(kind: 'drop' | 'paste', files: Array<{ name: string; type: string; bytes: Buffer }>, selector = '.drop-zone') {
  // A string (the tests compile without the DOM library); the bytes travel as base64.
  const list = JSON.stringify(files.map((f) => ({ name: f.name, type: f.type, b64: f.bytes.toString('base64') })));
  await page.evaluate(`(() => {
    const dt = new DataTransfer();
    for (const f of ${list}) dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
    if (${JSON.stringify(kind)} === 'paste') { document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true })); return; }
    const target = document.querySelector(${JSON.stringify(selector)});
    target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  })()`);
}

const names = () => page.locator('.media-item .media-name').allTextContents();

describe.skipIf(!hasChromium)('the composer as a workspace', () => {
  it('shows the live preview beside the form, per platform, switchable per account, sticky while the form scrolls', async () => {
    await d.nav().getByRole('link', { name: 'New post' }).click();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    for (const p of ['instagram', 'twitter', 'linkedin']) await page.getByRole('checkbox', { name: new RegExp(`bakery_${p}`) }).check();
    const text = `Our new laminated loaf is out. Recipe and story: https://www.example.com/blog/laminated-loaf ${'Butter, flour, patience. '.repeat(6)}`;
    await page.getByLabel('Text', { exact: true }).fill(text);
    const region = page.getByRole('region', { name: 'Preview' });
    const form = page.getByRole('region', { name: 'What' });
    const [r, f] = [await region.boundingBox(), await form.boundingBox()];
    expect(r!.x).toBeGreaterThan(f!.x + f!.width - 1);
    // Instagram cuts the caption at its fold and draws no link card; X draws the link's card (no media yet).
    const ig = region.getByRole('article', { name: 'Instagram preview' });
    expect(await ig.locator('.pv-more').count()).toBe(1);
    expect(await ig.getByRole('group', { name: /Link card/ }).count()).toBe(0);
    const x = region.getByRole('article', { name: 'X (Twitter) preview' });
    await x.getByRole('group', { name: 'Link card for example.com' }).waitFor();
    await page.getByRole('button', { name: 'Add a reply (thread)' }).click();
    await page.getByLabel('Reply 1 in the thread').fill('Part two: the bake.');
    await x.getByText('Part two: the bake.').waitFor();
    // One account at a time.
    expect(await region.getByRole('article').count()).toBe(3);
    await region.getByRole('button', { name: /Preview as @bakery_twitter/ }).click();
    expect(await region.getByRole('article').count()).toBe(1);
    await region.getByRole('button', { name: /^All/ }).click();
    expect(await region.getByRole('article').count()).toBe(3);
    // Scrolled to the form's end, the preview is still in the window.
    await page.getByRole('heading', { name: 'When' }).scrollIntoViewIfNeeded();
    const after = await region.boundingBox();
    expect(after!.y).toBeGreaterThanOrEqual(0);
    expect(after!.y).toBeLessThan(200);
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: screenshotPath('composer-workspace-preview-1280') });
  });

  it('takes files by drop, paste and input; reorders them by keyboard and by drag; converts a PNG for Instagram to a JPEG with a note; saves order and alt texts', async () => {
    await dropOrPaste('drop', [{ name: 'dropped.png', type: 'image/png', bytes: makePng(360, 360, 'noise') }]);
    await dropOrPaste('paste', [{ name: 'image.png', type: 'image/png', bytes: makePng(340, 340, 'noise') }]);
    // The upload's answer held back a moment: the file shows its own progress meanwhile.
    let release = () => {};
    const held = new Promise<void>((resolve) => { release = resolve; });
    await page.route('**/v1/media', async (route) => { await held; await route.continue(); });
    await page.getByLabel('Media').setInputFiles({ name: 'chosen.jpg', mimeType: 'image/jpeg', buffer: makeImage({ format: 'jpeg', width: 600, height: 600 }) });
    await page.locator('.media-item', { hasText: 'chosen.jpg' }).getByRole('progressbar', { name: 'Uploading chosen.jpg' }).waitFor();
    await page.locator('.media-item', { hasText: 'chosen.jpg' }).getByText(/\d+% uploaded/).waitFor();
    expect(await page.getByRole('button', { name: 'Schedule post' }).isDisabled()).toBe(true);
    release();
    await page.locator('.media-item', { hasText: 'chosen.jpg' }).getByLabel('Alt text for chosen.jpg').waitFor();
    await page.unroute('**/v1/media');
    // Instagram takes JPEG only: the PNGs are converted on the server, with a note.
    const dropped = page.locator('.media-item', { hasText: 'dropped.png' });
    await dropped.getByText('Converted from PNG to JPEG for Instagram').waitFor();
    const pasted = page.locator('.media-item', { hasText: /pasted-.*\.png/ });
    await pasted.getByText('Converted from PNG to JPEG').waitFor();
    const pastedName = (await pasted.locator('.media-name').textContent())!;
    expect(await names()).toEqual(['dropped.png', pastedName, 'chosen.jpg']);
    // Keyboard: move chosen.jpg up twice (focus stays on a button; the order is announced).
    await page.getByRole('button', { name: 'Move chosen.jpg up' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Move chosen.jpg up' }).focus();
    await page.keyboard.press('Enter');
    expect(await names()).toEqual(['chosen.jpg', 'dropped.png', pastedName]);
    await page.getByRole('status').filter({ hasText: 'chosen.jpg moved to position 1 of 3' }).waitFor({ state: 'attached' });
    // Drag: the pasted image onto the first place.
    await page.locator('.media-item', { hasText: pastedName }).dragTo(page.locator('.media-item', { hasText: 'chosen.jpg' }));
    expect(await names()).toEqual([pastedName, 'chosen.jpg', 'dropped.png']);
    await page.getByLabel('Alt text for chosen.jpg').fill('A croissant on a plate');
    await page.getByLabel('Alt text for dropped.png').fill('Noise, dropped');
    // The Instagram preview shows the first item with a dot per item.
    await page.getByRole('article', { name: 'Instagram preview' }).getByLabel('3 items').waitFor();
    await page.getByRole('region', { name: 'Checks' }).getByText("Fits every selected platform's rules.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: screenshotPath('composer-workspace-media-1280'), fullPage: true });

    // At phone width the preview is a tab of its own.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('tab', { name: 'Compose' }).waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(1);
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: screenshotPath('composer-workspace-compose-390'), fullPage: true });
    await page.getByRole('tab', { name: /Preview/ }).click();
    await page.getByRole('article', { name: 'Instagram preview' }).waitFor();
    expect(await page.getByLabel('Text', { exact: true }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(1);
    await page.screenshot({ path: screenshotPath('composer-workspace-preview-390'), fullPage: true });
    await page.getByRole('tab', { name: 'Compose' }).click();
    // The form kept what was typed.
    expect(await page.getByLabel('Text', { exact: true }).inputValue()).toContain('laminated loaf');
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('button', { name: 'Schedule post' }).click();
    await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
    const id = page.url().split('/').pop()!;
    const post = (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: tenant.headers })).json().post as { mediaItems: Array<{ url: string; altText?: string; mimeType?: string }> };
    expect(post.mediaItems.map((m) => m.url.split('/').pop()!.replace(/^[0-9a-f]{32}-/, ''))).toEqual([expect.stringMatching(/^pasted-.*\.jpg$/), 'chosen.jpg', 'dropped.jpg']);
    expect(post.mediaItems.map((m) => m.altText)).toEqual([undefined, 'A croissant on a plate', 'Noise, dropped']);
    for (const m of post.mediaItems) {
      const bytes = (await ctx.app.inject({ method: 'GET', url: new URL(m.url).pathname })).rawPayload;
      expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    }
  });
});
