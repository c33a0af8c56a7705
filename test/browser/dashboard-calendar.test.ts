/**
 * The calendar and usage in a real Chromium against the real app: the week view's
 * hour grid with post cards (first image, platform icons, text), drag and drop to another day
 * and hour (a PUT with the new time), keyboard rescheduling (Alt + arrows), published posts that
 * cannot be moved (and the API refusing it), month chips that keep their text on a phone, an
 * empty range that explains the first steps, one 12-hour clock for an en-US browser, and usage
 * with its reset time and no bar for an unlimited limit. Screenshots at 1280 and 390 px wide.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Tenant, TestContext } from '../support/app.ts';
import { makeImage } from '../support/media.ts';
import { multipart } from '../support/png.ts';
import { chromiumAvailable, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/dashboard-calendar.test.ts');
const TZ = 'Europe/Paris';

let d: DashboardHarness;
let ctx: TestContext;
let page: Page;
let tenant: Tenant;
let accountId: string;
const ids: Record<string, string> = {};

/** The Monday of the week after next, in Paris, as Y-M-D, and a day of that week. */
function weekDay(offset: number): string {
  const now = new Date();
  const paris = new Date(now.toLocaleString('en-US', { timeZone: TZ }));
  const monday = new Date(Date.UTC(paris.getFullYear(), paris.getMonth(), paris.getDate() - ((paris.getDay() + 6) % 7) + 14 + offset));
  return monday.toISOString().slice(0, 10);
}

async function createPost(content: string, scheduledFor: string, media?: string) {
  const res = await ctx.app.inject({
    method: 'POST', url: '/v1/posts', headers: tenant.headers,
    payload: { content, scheduledFor, timezone: TZ, platforms: [{ platform: 'twitter', accountId }], ...(media ? { mediaItems: [{ type: 'image', url: media }] } : {}) },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().post._id as string;
}

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'calendar@herald.test', password: 'a long calendar password', name: 'Cal Endar' },
    profile: 'Cafe', accounts: [{ platform: 'twitter', username: 'cafe_x' }], timezoneId: TZ,
  });
  ({ ctx, page, tenant } = d);
  accountId = d.accounts.cafe_x;
  const body = multipart('files', [{ filename: 'latte.jpg', contentType: 'image/jpeg', data: makeImage({ format: 'jpeg', width: 400, height: 300 }) }]);
  const up = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...tenant.headers, 'content-type': body.contentType }, payload: body.payload });
  const image = up.json().files[0].url as string;
  ids.latte = await createPost('Latte art workshop on Saturday, bring a friend', `${weekDay(1)}T10:00`, image);
  ids.menu = await createPost('New autumn menu', `${weekDay(2)}T15:30`);
  ids.early = await createPost('Bakers at work before dawn', `${weekDay(9)}T05:30`);
  ids.done = await createPost('Opening hours this week', `${weekDay(3)}T09:00`);
  // A published post: the worker is not running here, so mark it as the publisher would.
  await ctx.db.query(`UPDATE posts SET status = 'published', published_at = scheduled_for WHERE id = $1`, [ids.done]);
  await ctx.db.query(`UPDATE post_targets SET status = 'published', published_at = now() WHERE post_id = $1`, [ids.done]);
}, 180_000);

afterAll(async () => {
  await d?.close();
});

const nav = () => d.nav();
const shoot = (name: string) => shootBothWidths(page, name);
const chip = (id: string) => page.locator(`.post-chip[data-post-id="${id}"]`);
const getPost = async (id: string) => (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: tenant.headers })).json().post;

async function showWeekOf(date: string) {
  await page.getByRole('radio', { name: 'Week' }).click();
  for (let i = 0; i < 8 && !(await page.locator(`.week-col[data-date="${date}"]`).count()); i++) await page.getByRole('button', { name: 'Next week' }).click();
  await page.locator(`.week-col[data-date="${date}"]`).waitFor();
}

describe.skipIf(!hasChromium)('calendar and usage', () => {
  it('shows the week as an hour grid with post cards (first image, platform icon, text) in one 12-hour clock', async () => {
    await d.signIn();
    await showWeekOf(weekDay(1));
    const card = chip(ids.latte);
    await card.waitFor();
    expect(await card.locator('.chip-thumb').count()).toBe(1);
    expect(await card.locator('.picon').count()).toBe(1);
    expect(await card.locator('.chip-time').textContent()).toBe('10:00 AM');
    expect(await card.locator('.chip-text').textContent()).toContain('Latte art workshop');
    // Every time on the page uses the same 12-hour clock (en-US browser): no "15:30".
    const text = await page.locator('main').textContent();
    expect(text).toContain('3:30 PM');
    expect(text).not.toMatch(/\b(1[3-9]|2[0-3]):\d{2}\b/);
    await shoot('calendar-week');
  });

  it('moves a post by drag and drop to another day and hour (a PUT with the new time)', async () => {
    const target = page.locator(`.week-col[data-date="${weekDay(4)}"] .wk-slot[data-hour="14"]`);
    await chip(ids.menu).dragTo(target);
    await page.getByRole('status').filter({ hasText: 'Moved to' }).waitFor();
    const p = await getPost(ids.menu);
    // The new day and hour, the same minutes, on Paris's wall clock.
    expect(new Date(p.scheduledFor).toLocaleString('sv-SE', { timeZone: TZ }).slice(0, 16)).toBe(`${weekDay(4)} 14:30`);
  });

  it('moves a post with the keyboard: Alt + arrow down is an hour later, Alt + arrow right a day later', async () => {
    const before = new Date((await getPost(ids.latte)).scheduledFor).getTime();
    await chip(ids.latte).focus();
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(async () => new Date((await getPost(ids.latte)).scheduledFor).getTime()).toBe(before + 3_600_000);
    await chip(ids.latte).locator('.chip-time', { hasText: '11:00 AM' }).waitFor();
    await chip(ids.latte).focus();
    await page.keyboard.press('Alt+ArrowRight');
    await expect.poll(async () => new Date((await getPost(ids.latte)).scheduledFor).getTime()).toBe(before + 3_600_000 + 86_400_000);
  });

  it('opens a week whose first post is before 7:00 an hour before it, not at 7:00 with the post hidden above', async () => {
    await showWeekOf(weekDay(9));
    const card = chip(ids.early);
    await card.waitFor();
    const box = await page.locator('.wk-body').boundingBox();
    const at = await card.boundingBox();
    expect(at!.y).toBeGreaterThanOrEqual(box!.y);
    expect(at!.y + at!.height).toBeLessThanOrEqual(box!.y + box!.height);
    expect(await page.locator('.wk-body').evaluate((e: { scrollTop: number }) => e.scrollTop)).toBe(4 * 48);
    for (let i = 0; i < 8 && !(await page.locator(`.week-col[data-date="${weekDay(1)}"]`).count()); i++) await page.getByRole('button', { name: 'Previous week' }).click();
    await chip(ids.done).waitFor();
  });

  it('does not let a published post move, and the API refuses it too', async () => {
    const done = chip(ids.done);
    await done.waitFor();
    expect(await done.getAttribute('draggable')).toBe('false');
    await done.focus();
    await page.keyboard.press('Alt+ArrowRight');
    const res = await ctx.app.inject({ method: 'PUT', url: `/v1/posts/${ids.done}`, headers: tenant.headers, payload: { scheduledFor: `${weekDay(5)}T09:00`, timezone: TZ } });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect((await getPost(ids.done)).status).toBe('published');
  });

  it('keeps the text of month chips on a phone, and explains the first steps on an empty month', async () => {
    await page.getByRole('radio', { name: 'Month' }).click();
    const month = weekDay(1).slice(0, 7);
    for (let i = 0; i < 3 && !(await page.locator(`.cal-cell[data-date="${weekDay(1)}"]:not(.other)`).count()); i++) await page.getByRole('button', { name: 'Next month' }).click();
    await chip(ids.done).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await chip(ids.done).locator('.chip-text').isVisible()).toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });
    await shoot('calendar-month');
    expect(month).toMatch(/^\d{4}-\d{2}$/);
    for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('region', { name: 'Nothing scheduled here yet' }).waitFor();
    await shoot('calendar-empty');
  });

  it('shows when usage resets and draws no bar for an unlimited limit', async () => {
    await nav().getByRole('link', { name: 'Usage & plan' }).click();
    await page.getByText(/used · unlimited/).waitFor();
    expect(await page.getByRole('meter', { name: 'Posts' }).count()).toBe(0);
    expect(await page.getByRole('meter', { name: 'Profiles' }).getAttribute('aria-valuetext')).toBe('1 of 150 used');
    expect(await page.getByText(/^Resets /).textContent()).toMatch(/^Resets [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} (AM|PM)\.$/);
    // The plan's name once (its marketing name only differs for some plans).
    expect(await page.locator('.plan-name').textContent()).toBe('Advanced');
    await shoot('usage');
  });
});
