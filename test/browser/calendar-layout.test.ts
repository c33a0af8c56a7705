/**
 * The calendar's layout in a real Chromium against the real app: month chips keep the time and
 * the first words readable with their thumbnail and at most three platform icons (none spilling
 * out of the day), a full day shows "+N more", which opens the day's list in an in-app dialog;
 * the week view lays overlapping posts side by side (a 9:30 post no longer hides the 9:00 one).
 * axe on the month, the day's list and the week. Screenshots at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { makeImage } from '../support/media.ts';
import { multipart } from '../support/png.ts';
import { axeViolations, chromiumAvailable, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/calendar-layout.test.ts');
const PLATFORMS = ['twitter', 'bluesky', 'linkedin', 'threads', 'facebook'];

let d: DashboardHarness;
let page: Page;
const ids: Record<string, string> = {};

/** A day 12 days from now (UTC), as Y-M-D: in the future, so its posts are scheduled. */
const DAY = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);

async function createPost(content: string, time: string, platforms: string[], media?: string): Promise<string> {
  const res = await d.ctx.app.inject({
    method: 'POST', url: '/v1/posts', headers: d.tenant.headers,
    payload: {
      content, scheduledFor: `${DAY}T${time}`, timezone: 'UTC',
      platforms: platforms.map((p) => ({ platform: p, accountId: d.accounts[`cafe_${p}`] })),
      ...(media ? { mediaItems: [{ type: 'image', url: media }] } : {}),
    },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().post._id as string;
}

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'layout@calendar.test', password: 'a long calendar password', name: 'Cal Layout' },
    profile: 'Cafe', accounts: PLATFORMS.map((p) => ({ platform: p, username: `cafe_${p}` })),
  });
  page = d.page;
  const body = multipart('files', [{ filename: 'latte.jpg', contentType: 'image/jpeg', data: makeImage({ format: 'jpeg', width: 400, height: 300 }) }]);
  const up = await d.ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...d.tenant.headers, 'content-type': body.contentType }, payload: body.payload });
  const image = up.json().files[0].url as string;
  ids.nine = await createPost('Latte art workshop on Saturday, bring a friend and your favourite mug', '09:00', PLATFORMS, image);
  ids.nineThirty = await createPost('Autumn menu tasting for regulars', '09:30', ['twitter']);
  ids.eleven = await createPost('Pumpkin bread is back', '11:00', ['bluesky', 'linkedin']);
  ids.two = await createPost('Quiz night at eight', '14:00', ['threads']);
  ids.four = await createPost('Closing early for the staff party', '16:00', ['facebook']);
}, 180_000);
afterAll(async () => { await d?.close(); });

const chip = (id: string) => page.locator(`.post-chip[data-post-id="${id}"]`);
const cell = () => page.locator(`.cal-cell[data-date="${DAY}"]`);

async function expectNoSeriousViolations(where: string) {
  const found = await axeViolations(page);
  expect(found.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(' | ')})`), where).toEqual([]);
}

describe.skipIf(!hasChromium)('calendar layout', () => {
  it('month chips show the time, the first words and the thumbnail, with no icon spilling out of the day', async () => {
    await d.signIn();
    await page.getByRole('radio', { name: 'Month' }).click();
    for (let i = 0; i < 2 && !(await page.locator(`.cal-cell[data-date="${DAY}"]:not(.other)`).count()); i++) await page.getByRole('button', { name: 'Next month' }).click();
    const first = chip(ids.nine);
    await first.waitFor();
    expect(await first.locator('.chip-time').textContent()).toBe('9:00 AM');
    expect(await first.locator('.chip-thumb').count()).toBe(1);
    // Five platforms: three icons and "+2"; every name is still read out.
    expect(await first.locator('.chip-dots .picon').count()).toBe(3);
    expect(await first.locator('.chip-more-icons').textContent()).toBe('+2');
    expect(await first.locator('.sr-only').textContent()).toContain('X (Twitter), Bluesky, LinkedIn, Threads, Facebook');
    // The text gets real room (not 1-3 characters): at least 12 characters' worth, on up to two lines.
    const text = await first.locator('.chip-text').boundingBox();
    expect(text!.width).toBeGreaterThan(70);
    expect(text!.height).toBeGreaterThan(20);
    // Nothing of a chip reaches outside its day.
    const c = await cell().boundingBox();
    for (const el of await cell().locator('.post-chip, .post-chip > :not(.sr-only), .chip-dots > *').all()) {
      const b = await el.boundingBox();
      if (!b || b.width === 0) continue;
      const what = await el.evaluate((e: { className: string }) => e.className);
      expect(b.x, what).toBeGreaterThanOrEqual(c!.x - 0.5);
      expect(b.x + b.width, what).toBeLessThanOrEqual(c!.x + c!.width + 0.5);
    }
    await expectNoSeriousViolations('month');
    await shootBothWidths(page, 'calendar-month-chips');
  });

  it('shows "+N more" on a full day, which opens the day\'s list in a dialog', async () => {
    expect(await cell().locator('.post-chip').count()).toBe(2);
    const more = cell().getByRole('button', { name: /^\+3 more/ });
    await more.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.locator('.post-chip').count()).toBe(5);
    expect(await dialog.locator('.chip-time').allTextContents()).toEqual(['9:00 AM', '9:30 AM', '11:00 AM', '2:00 PM', '4:00 PM']);
    await dialog.getByRole('link', { name: 'New post on this day' }).waitFor();
    await expectNoSeriousViolations('day list');
    await shootBothWidths(page, 'calendar-day-list');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Focus goes back to the "+N more" button that opened the list.
    expect(await more.evaluate((b: { ownerDocument: { activeElement: unknown } }) => b === b.ownerDocument.activeElement)).toBe(true);
  });

  it('lays overlapping posts side by side in the week view: the 9:30 post does not hide the 9:00 one', async () => {
    await page.getByRole('radio', { name: 'Week' }).click();
    for (let i = 0; i < 3 && !(await page.locator(`.week-col[data-date="${DAY}"]`).count()); i++) await page.getByRole('button', { name: 'Next week' }).click();
    const col = page.locator(`.week-col[data-date="${DAY}"]`);
    await col.waitFor();
    const item = (id: string) => col.locator('.week-item', { has: page.locator(`[data-post-id="${id}"]`) });
    await item(ids.nine).scrollIntoViewIfNeeded();
    const a = (await item(ids.nine).boundingBox())!;
    const b = (await item(ids.nineThirty).boundingBox())!;
    const colBox = (await col.boundingBox())!;
    // Side by side: no horizontal overlap, each about half the day's width, both inside it.
    expect(a.x + a.width).toBeLessThanOrEqual(b.x + 0.5);
    expect(a.width).toBeLessThan(colBox.width / 2);
    expect(b.x + b.width).toBeLessThanOrEqual(colBox.x + colBox.width + 0.5);
    expect(await item(ids.nine).getAttribute('data-cols')).toBe('2');
    // Both can be reached: the point at the middle of each card is that card.
    for (const [id, box] of [[ids.nine, a], [ids.nineThirty, b]] as const) {
      const hit = await page.evaluate(`document.elementFromPoint(${box.x + box.width / 2}, ${box.y + box.height / 2})?.closest('.post-chip')?.getAttribute('data-post-id')`);
      expect(hit).toBe(id);
    }
    // A post that overlaps nothing keeps the whole width.
    expect(await item(ids.two).getAttribute('data-cols')).toBe('1');
    expect((await item(ids.two).boundingBox())!.width).toBeGreaterThan(colBox.width - 8);
    await expectNoSeriousViolations('week');
    await shootBothWidths(page, 'calendar-week-overlap');
  });
});
