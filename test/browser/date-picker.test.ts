/**
 * The composer's date picker and time field (web/src/dashboard/ui/date-time-picker.tsx) in a real
 * Chromium against the real app: the date is picked on the calendar (next month, the 15th) with the
 * mouse, then moved a day with the keyboard; the time typed into its segments; the post is
 * scheduled at that wall-clock time in the profile's zone as the API returns it. The calendar passes
 * axe (no serious or critical violation) at 1280 and 390 px; screenshots with it open at both widths.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, chromiumAvailable, fillDateTime, screenshotPath, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/date-picker.test.ts');

let d: DashboardHarness;
let page: Page;

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'date-picker@herald.test', password: 'a long date picker password', name: 'Dana Picker' },
    profile: 'Florist', accounts: [{ platform: 'twitter', username: 'florist_x' }], timezoneId: 'UTC',
  });
  page = d.page;
  await d.signIn();
}, 120_000);

afterAll(async () => {
  await d?.close();
});

const dateField = () => page.getByRole('group', { name: 'Date', exact: true }).first();

describe.skipIf(!hasChromium)('date picker', () => {
  it('picks a day on the calendar, moves it by keyboard, takes a typed time and schedules at it', async () => {
    await d.nav().getByRole('link', { name: 'New post' }).click();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    await page.getByRole('checkbox', { name: /florist_x/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('Peonies are in');

    const next = new Date();
    next.setUTCDate(1);
    next.setUTCMonth(next.getUTCMonth() + 1);
    const monthName = next.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      // The composer is laid out again for a phone (tabs): wait for the new layout's field.
      await (width === 390 ? page.getByRole('tab', { name: 'Compose' }) : page.locator('.composer-side')).waitFor();
      await dateField().scrollIntoViewIfNeeded();
      await page.getByRole('button', { name: 'Choose the date on a calendar' }).click();
      const calendar = page.getByRole('dialog', { name: 'Calendar' });
      await calendar.waitFor();
      await calendar.getByRole('button', { name: 'Next month' }).click();
      await calendar.getByRole('heading', { name: monthName }).waitFor();
      if (width === 390) {
        expect(await axeViolations(page)).toEqual([]);
        await page.screenshot({ path: screenshotPath('composer-date-picker-390') });
        await page.keyboard.press('Escape');
        await calendar.waitFor({ state: 'hidden' });
        continue;
      }
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: screenshotPath('composer-date-picker-1280') });
      await calendar.getByRole('button', { name: new RegExp(`\\b15\\b.*${next.getUTCFullYear()}`) }).click();
      await calendar.waitFor({ state: 'hidden' });
    }
    const fifteenth = `${next.getUTCFullYear()}-${String(next.getUTCMonth() + 1).padStart(2, '0')}-15`;
    // The day segment by keyboard: ArrowUp moves the 15th to the 16th.
    await dateField().locator('[data-type="day"]').focus();
    await page.keyboard.press('ArrowUp');
    expect(await dateField().locator('[data-type="day"]').textContent()).toBe('16');
    await fillDateTime(page, fifteenth.replace(/-15$/, '-16'), '08:05');
    await page.getByText("Fits every selected platform's rules.").waitFor();

    await page.getByRole('button', { name: 'Schedule post' }).click();
    await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
    const id = page.url().split('/').pop()!;
    const res = await d.ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: d.tenant.headers });
    expect(new Date(res.json().post.scheduledFor).toISOString()).toBe(`${fifteenth.replace(/-15$/, '-16')}T08:05:00.000Z`);
  }, 90_000);
});
