/**
 * The queue and the media library as workspaces, in a real Chromium against the real app: the
 * queue shows the coming slots as a timeline with the posts in them; a post moves with its
 * Earlier / Later buttons (a swap with a neighbouring post, or into a free slot) and by dragging
 * it onto another slot (onto a free one: a move; onto a post: a swap); a free slot opens the
 * composer for that very slot, and the post saved there holds it. The library uploads (a choice,
 * and a drop onto its drop zone; progress; an identical file kept once), searches, tags (and
 * filters by a tag), shows where a file is used, refuses in words to delete a file a post uses,
 * and deletes an unused one. Screenshots at 1280 and 390 px; axe finds no serious or critical
 * violation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Tenant, TestContext } from '../support/app.ts';
import { makePng } from '../support/png.ts';
import { axeViolations, chromiumAvailable, screenshotPath, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/queue-library-workspace.test.ts');

let d: DashboardHarness;
let ctx: TestContext;
let page: Page;
let tenant: Tenant;
let slots: string[];
const posts: Record<string, string> = {};

const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6].flatMap((dayOfWeek) => ['09:00', '13:00', '18:00'].map((time) => ({ dayOfWeek, time })));

async function api(method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) {
  const res = await ctx.app.inject({ method, url, headers: tenant.headers, ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

const timeOf = async (id: string) => new Date((await api('GET', `/v1/posts/${id}`)).post.scheduledFor).toISOString();

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'queue-library@herald.test', password: 'a long queue and library password', name: 'Quinn Queue' },
    profile: 'Bakery', accounts: [{ platform: 'bluesky', username: 'bakery.bsky.social' }],
  });
  ({ ctx, page, tenant } = d);
  await api('PUT', '/v1/queue/slots', { profileId: d.profileId!, timezone: 'UTC', slots: EVERY_DAY });
  slots = (await api('GET', `/v1/queue/preview?profileId=${d.profileId}&count=14`)).slots;
  for (const content of ['Sourdough Monday', 'Croissant Tuesday']) {
    posts[content] = (await api('POST', '/v1/posts', { content, queuedFromProfile: d.profileId!, platforms: [{ platform: 'bluesky', accountId: d.accounts['bakery.bsky.social'] }] })).post._id;
  }
  await d.signIn();
}, 180_000);

afterAll(async () => {
  await d?.close();
});

describe.skipIf(!hasChromium)('the queue and the library as workspaces', () => {
  it('shows the coming slots with their posts; swaps and moves posts by keyboard and by drag; composes into a free slot', async () => {
    await d.nav().getByRole('link', { name: 'Queue' }).click();
    const timeline = page.locator('.next-slots.timeline');
    await timeline.locator('li').nth(13).waitFor();
    expect(await timeline.locator('li').evaluateAll((lis) => lis.map((li) => li.className))).toEqual(['slot-held', 'slot-held', ...Array(12).fill('slot-free')]);
    expect([await timeOf(posts['Sourdough Monday']), await timeOf(posts['Croissant Tuesday'])]).toEqual([slots[0], slots[1]]);

    // Keyboard: "Later" on the first post swaps it with the second.
    const later = timeline.locator('li').first().getByRole('button', { name: /^Later/ });
    await later.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Swapped' }).waitFor();
    await expect.poll(() => timeOf(posts['Sourdough Monday'])).toBe(slots[1]);
    expect(await timeOf(posts['Croissant Tuesday'])).toBe(slots[0]);
    await timeline.locator('li').first().getByRole('link', { name: 'Croissant Tuesday' }).waitFor();
    // Focus followed Sourdough to its new slot: Enter moves it on (into the free third slot).
    await expect.poll(() => page.evaluate('document.activeElement?.closest("li")?.textContent ?? ""')).toContain('Sourdough Monday');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Moved' }).waitFor();
    await expect.poll(() => timeOf(posts['Sourdough Monday'])).toBe(slots[2]);
    // And back (a click this time): Earlier into the free second slot, then Later again.
    await timeline.locator('li').nth(2).getByRole('button', { name: /^Earlier/ }).click();
    await expect.poll(() => timeOf(posts['Sourdough Monday'])).toBe(slots[1]);

    // "Later" again on Sourdough (now second) moves it into the free third slot.
    await timeline.locator('li').nth(1).getByRole('button', { name: /^Later/ }).click();
    await page.getByRole('status').filter({ hasText: 'Moved' }).waitFor();
    await expect.poll(() => timeOf(posts['Sourdough Monday'])).toBe(slots[2]);
    await timeline.locator('li').nth(2).getByRole('link', { name: 'Sourdough Monday' }).waitFor();

    // Drag: Croissant (first) onto the sixth slot (free).
    await timeline.locator('li').first().dragTo(timeline.locator('li').nth(5));
    await expect.poll(() => timeOf(posts['Croissant Tuesday'])).toBe(slots[5]);
    await timeline.locator('li').nth(5).getByRole('link', { name: 'Croissant Tuesday' }).waitFor();
    // Drag onto a slot that holds a post: the two swap (Sourdough, third, onto Croissant, sixth).
    await timeline.locator('li').nth(2).dragTo(timeline.locator('li').nth(5));
    await page.getByRole('status').filter({ hasText: 'Swapped' }).waitFor();
    await expect.poll(() => timeOf(posts['Sourdough Monday'])).toBe(slots[5]);
    expect(await timeOf(posts['Croissant Tuesday'])).toBe(slots[2]);
    await timeline.locator('li').nth(2).getByRole('link', { name: 'Croissant Tuesday' }).waitFor();
    await timeline.locator('li').nth(5).getByRole('link', { name: 'Sourdough Monday' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shootBothWidths(page, 'queue-timeline');

    // A free slot opens the composer for it; the post saved takes that very slot.
    await timeline.locator('li').nth(3).getByRole('link', { name: /Compose/ }).click();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    expect(await page.getByRole('radio', { name: /Add to queue/ }).isChecked()).toBe(true);
    await page.locator('#c-slot').waitFor();
    await page.getByRole('checkbox', { name: /bakery\.bsky\.social/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('Baguette for slot four');
    await page.getByRole('button', { name: 'Add to queue' }).click();
    await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
    const id = page.url().split('/').pop()!;
    expect(await timeOf(id)).toBe(slots[3]);
  });

  it('uploads (an identical file kept once), tags and filters, shows where a file is used, and deletes', async () => {
    const bread = makePng(64, 48, 'noise');
    await d.nav().getByRole('link', { name: 'Media library' }).click();
    await page.getByLabel('Upload files').setInputFiles([
      { name: 'bread.png', mimeType: 'image/png', buffer: bread },
      { name: 'flour.png', mimeType: 'image/png', buffer: makePng(32, 32, 'noise') },
    ]);
    const uploads = page.getByRole('list', { name: 'Uploads' });
    await expect.poll(() => uploads.getByText('Uploaded').count()).toBe(2);
    const grid = page.getByRole('list', { name: 'Uploaded files' });
    await grid.getByRole('button', { name: 'Preview bread.png' }).waitFor();
    await grid.getByRole('button', { name: 'Preview flour.png' }).waitFor();
    // The same bytes again: said, and not a second tile.
    await page.getByLabel('Upload files').setInputFiles({ name: 'bread-again.png', mimeType: 'image/png', buffer: bread });
    await uploads.getByText('Already in the library: kept one copy').waitFor();
    expect(await grid.getByRole('listitem').count()).toBe(2);

    // A post uses bread.png.
    const files = (await api('GET', '/v1/media')).files as Array<{ _id: string; filename: string; url: string }>;
    const breadFile = files.find((f) => f.filename === 'bread.png')!;
    await api('POST', '/v1/posts', { content: 'Bread with a picture', isDraft: true, mediaItems: [{ type: 'image', url: breadFile.url }], platforms: [] });
    await page.reload();
    await grid.locator('.lib-item', { hasText: 'bread.png' }).getByText('Used in 1 post').waitFor();
    await grid.locator('.lib-item', { hasText: 'flour.png' }).getByText('Not used yet').waitFor();

    // Tags: set in the preview, shown on the tile, searched and filtered.
    await grid.getByRole('button', { name: 'Preview bread.png' }).click();
    const dialog = page.getByRole('dialog', { name: 'bread.png' });
    await dialog.getByRole('link', { name: 'Bread with a picture' }).waitFor();
    await dialog.getByLabel(/Tags/).fill('sourdough, bakery');
    await dialog.getByRole('button', { name: 'Save tags' }).click();
    await grid.getByRole('button', { name: 'Show files tagged sourdough' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath('media-library-file-1280') });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByLabel('Search file names and tags').fill('sourd');
    await expect.poll(() => grid.getByRole('listitem').count()).toBe(1);
    await page.getByLabel('Search file names and tags').fill('');
    await expect.poll(() => grid.getByRole('listitem').count()).toBe(2);
    await grid.getByRole('button', { name: 'Show files tagged bakery' }).click();
    await expect.poll(() => grid.getByRole('listitem').count()).toBe(1);
    await page.getByRole('button', { name: 'Show all tags' }).click();
    await expect.poll(() => grid.getByRole('listitem').count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
    await shootBothWidths(page, 'media-library-workspace');

    // Deleting bread.png, which a post uses, is refused in words; the file stays.
    await grid.getByRole('button', { name: 'Preview bread.png' }).click();
    const used = page.getByRole('dialog', { name: 'bread.png' });
    await used.getByRole('link', { name: 'Bread with a picture' }).waitFor();
    await used.getByRole('button', { name: 'Delete…' }).click();
    const refusal = used.getByRole('alert');
    await refusal.getByText('This file stays.').waitFor();
    expect(await refusal.textContent()).toContain('A post not yet published uses it (listed under “Used in”), and it would fail to publish without it.');
    expect(await used.getByRole('button', { name: 'Delete file' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await shootBothWidths(page, 'media-library-delete-refused');
    await refusal.getByRole('button', { name: 'OK' }).click();
    await used.getByRole('button', { name: 'Close' }).click();
    expect(((await api('GET', '/v1/media')).files as Array<{ filename: string }>).map((f) => f.filename).sort()).toEqual(['bread.png', 'flour.png']);

    // Delete flour.png (unused).
    await grid.getByRole('button', { name: 'Preview flour.png' }).click();
    const flour = page.getByRole('dialog', { name: 'flour.png' });
    await flour.getByText('No post uses this file.').waitFor();
    await flour.getByRole('button', { name: 'Delete…' }).click();
    await flour.getByRole('button', { name: 'Delete file' }).click();
    await expect.poll(() => grid.getByRole('listitem').count()).toBe(1);
    expect(((await api('GET', '/v1/media')).files as Array<{ filename: string }>).map((f) => f.filename)).toEqual(['bread.png']);

    // A file dropped onto the drop zone uploads (a real drop event carrying the file).
    // Built in the page (this file compiles without the DOM library: the script is a string).
    const drop = await page.evaluateHandle(`(() => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(${JSON.stringify(makePng(40, 30, 'noise').toString('base64'))}), (c) => c.charCodeAt(0))], 'rye.png', { type: 'image/png' }));
      return dt;
    })()`);
    const zone = page.locator('.lib-upload');
    await zone.dispatchEvent('dragover', { dataTransfer: drop });
    await zone.dispatchEvent('drop', { dataTransfer: drop });
    await uploads.locator('li', { hasText: 'rye.png' }).getByText('Uploaded').waitFor();
    await grid.getByRole('button', { name: 'Preview rye.png' }).waitFor();
    expect(((await api('GET', '/v1/media')).files as Array<{ filename: string }>).map((f) => f.filename).sort()).toEqual(['bread.png', 'rye.png']);
  });
});
