/**
 * The dashboard's time-zone combobox and the composer's date and time, in a
 * real Chromium against the real app: the browser's zone comes first, typing part of a zone's name
 * finds it, the picked zone is remembered as recent, and the post is scheduled at the wall-clock
 * time in that zone as the API returns it. The composer passes axe (no serious or critical violation);
 * screenshots at 1280 and 390 px (the list open) go to the system's temporary directory.
 */
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, chromiumAvailable, fillDateTime, fillTime, openTimeZones, pickTimeZone, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/time-zone-picker.test.ts');
const BROWSER_TZ = 'Asia/Tokyo';

let d: DashboardHarness;
let page: Page;

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'tz-picker@herald.test', password: 'a long time zone picker password', name: 'Tara Zone' },
    profile: 'Bakery', accounts: [{ platform: 'twitter', username: 'bakery_x' }], timezoneId: BROWSER_TZ,
  });
  page = d.page;
  await d.signIn();
}, 120_000);

afterAll(async () => {
  await d?.close();
});

const zoneBox = () => page.getByRole('combobox', { name: 'Time zone' });
const options = () => page.getByRole('listbox').getByRole('option');

async function openComposer() {
  await d.nav().getByRole('link', { name: 'New post' }).click();
  await page.getByRole('heading', { name: 'New post' }).waitFor();
  await zoneBox().waitFor();
}

describe.skipIf(!hasChromium)('time-zone picker', () => {
  it('lists the browser zone first with its offset, finds a zone by part of its name and schedules in it', async () => {
    await openComposer();
    expect(await zoneBox().inputValue()).toBe(BROWSER_TZ);
    await page.getByRole('checkbox', { name: /bakery_x/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('Fresh croissants at dawn');

    // Opened, the list starts with the browser's own zone and its current offset (Japan has no DST).
    await openTimeZones(page);
    await options().first().waitFor();
    expect(await options().first().textContent()).toBe('Asia/Tokyo (your time zone)UTC+09:00');
    expect(await options().count()).toBeGreaterThan(300);
    await page.screenshot({ path: path.join(os.tmpdir(), 'herald-tz-picker-open-1280.png') });
    await page.keyboard.press('Escape');
    // On a phone the composer is laid out again (Compose and Preview tabs): the list opens there too.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('tab', { name: 'Compose' }).waitFor();
    await openTimeZones(page);
    await options().first().waitFor();
    expect(await options().first().textContent()).toBe('Asia/Tokyo (your time zone)UTC+09:00');
    await page.screenshot({ path: path.join(os.tmpdir(), 'herald-tz-picker-open-390.png') });
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('tab', { name: 'Compose' }).waitFor({ state: 'detached' });

    // Typing part of a name ("new yo", no underscore) finds America/New_York; picking it fills the field.
    await pickTimeZone(page, 'new yo', 'America/New_York');

    const year = new Date().getUTCFullYear() + 1;
    await fillDateTime(page, `${year}-07-01`, '14:30');
    await page.getByText("Fits every selected platform's rules.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: path.join(os.tmpdir(), `herald-tz-composer-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('button', { name: 'Schedule post' }).click();
    await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
    const id = page.url().split('/').pop()!;
    const res = await d.ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: d.tenant.headers });
    // 14:30 in New York on 1 July is daylight time, UTC−4.
    expect(res.json().post).toMatchObject({ status: 'scheduled', timezone: 'America/New_York', scheduledFor: `${year}-07-01T18:30:00.000Z` });
  }, 120_000);

  it('offers the recently used zone right after the browser zone, and is used on the queue page', async () => {
    await openComposer();
    await openTimeZones(page);
    await options().first().waitFor();
    const section = page.getByRole('group', { name: 'Yours and recent' }).getByRole('option');
    expect((await section.allTextContents()).map((t) => t.replace(/UTC.*$/, ''))).toEqual(['Asia/Tokyo (your time zone)', 'America/New York']);
    await page.keyboard.press('Escape');

    await d.nav().getByRole('link', { name: 'Queue' }).click();
    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    await pickTimeZone(page, 'paris', 'Europe/Paris');
    await fillTime(page, 'New slot time on Monday', '09:30');
    await page.getByRole('button', { name: 'Add slot on Monday' }).click();
    await page.getByRole('button', { name: 'Save queue' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const res = await d.ctx.app.inject({ method: 'GET', url: `/v1/queue/slots?profileId=${d.profileId}`, headers: d.tenant.headers });
    // The slot is the wall-clock time typed, in the queue's zone: what the browser's time input sent before.
    expect(res.json().schedule).toMatchObject({ timezone: 'Europe/Paris', slots: [{ dayOfWeek: 1, time: '09:30' }] });
  }, 60_000);
});
