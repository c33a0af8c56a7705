/**
 * The landing page shows the product: a real screenshot of the dashboard (the month calendar of a
 * brand with four weeks of scheduled posts on five networks; HERALD_LANDING_VIEW=week shoots the
 * week view instead), rendered here by Chromium from the real app, saved
 * as an optimized JPEG and committed as web/src/landing/dashboard-calendar.jpg. With
 * HERALD_WRITE_LANDING_IMAGE=1 (`npm run shoot:landing`) this test writes that file; otherwise it
 * renders into a temporary file and checks that the committed one has the same size and stays
 * within its byte budget. Then the landing page: the picture loads above the API example, at
 * 1280 and 390 px (screenshots), and axe-core finds no serious or critical violation.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { imageSize } from 'image-size';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, chromiumAvailable, screenshotPath, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

// eslint-disable-next-line @typescript-eslint/no-unused-vars
declare const document: any, window: any;

const hasChromium = chromiumAvailable('test/browser/landing.test.ts');
const IMAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src/landing/dashboard-calendar.jpg');
const WRITE = process.env.HERALD_WRITE_LANDING_IMAGE === '1';
/** The picture's size and most bytes (it is the landing page's largest download). */
const SHOT = { width: 1280, height: 800, maxBytes: 200 * 1024 };
const TZ = 'Europe/Paris';
const VIEW = (process.env.HERALD_LANDING_VIEW ?? 'month') as 'month' | 'week';

/** Four weeks of a coffee roaster's posts: [day from next Monday (0), local time, networks, text]. */
const WEEK: Array<[number, string, string[], string]> = [
  [0, '08:30', ['twitter', 'bluesky', 'threads'], 'Monday beans: our Ethiopian Guji is back, bright and floral ☕'],
  [0, '12:15', ['linkedin'], 'We are hiring a head roaster for the new Lyon roastery'],
  [1, '09:00', ['facebook', 'twitter'], 'Tasting session on Thursday at 6 pm, bring a friend'],
  [1, '17:30', ['bluesky', 'threads'], 'Behind the scenes: how we cup 40 samples a week'],
  [2, '07:45', ['twitter', 'facebook', 'linkedin'], 'New: the winter blend, chocolate and orange peel'],
  [2, '13:00', ['bluesky'], 'Brew guide: the V60 in four steps'],
  [3, '10:00', ['linkedin', 'facebook'], 'Meet the farmers behind our Colombian lot'],
  [3, '18:00', ['threads', 'twitter'], 'Tasting tonight, doors open at 6'],
  [4, '08:00', ['twitter', 'bluesky', 'facebook', 'linkedin', 'threads'], 'Friday: 20% off every bag until Sunday'],
  [4, '16:00', ['facebook'], 'Weekend opening hours: 8 am to 6 pm'],
  [5, '10:30', ['threads', 'bluesky'], 'Saturday market stall, Place Bellecour'],
  [7, '08:30', ['twitter', 'bluesky', 'threads'], 'Monday beans: a washed Kenyan, blackcurrant and lime'],
  [8, '12:00', ['linkedin', 'facebook'], 'Our roastery now runs on solar power'],
  [9, '09:15', ['twitter', 'facebook'], 'Latte art class, Saturday 10 am, six seats left'],
  [10, '17:00', ['bluesky', 'threads'], 'Why we roast light: a thread'],
  [11, '08:00', ['twitter', 'bluesky', 'facebook', 'linkedin', 'threads'], 'Gift boxes are here, ready for December'],
  [13, '10:00', ['facebook', 'threads'], 'Sunday brunch pop-up with Maison Fleur'],
  [14, '08:30', ['twitter', 'bluesky'], 'Monday beans: Sumatra, earthy and sweet'],
  [15, '11:00', ['linkedin'], 'Case study: supplying 40 offices with fresh beans'],
  [16, '18:30', ['threads', 'twitter'], 'Cupping night recap and photos'],
  [18, '08:00', ['facebook', 'twitter', 'bluesky'], 'Last orders before the holidays: Friday noon'],
  [21, '09:00', ['linkedin', 'facebook', 'twitter'], 'Thank you for a wonderful year'],
  [23, '10:00', ['bluesky', 'threads'], 'Holiday hours and where to find us'],
];

let d: DashboardHarness;

/** The local date (YYYY-MM-DD) of the Monday after today in TZ, plus `days`. */
function nextMonday(days: number): string {
  const local = new Date(new Date().toLocaleString('en-US', { timeZone: TZ }));
  const toMonday = ((8 - local.getDay()) % 7) || 7;
  const day = new Date(Date.UTC(local.getFullYear(), local.getMonth(), local.getDate() + toMonday + days));
  return day.toISOString().slice(0, 10);
}

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'maya@northwind.coffee', password: 'a long landing password', name: 'Maya Laurent', plan: 'professional' },
    profile: 'Northwind Coffee', timezoneId: TZ,
    accounts: [
      { platform: 'twitter', username: 'northwindcoffee' }, { platform: 'bluesky', username: 'northwind.coffee' },
      { platform: 'threads', username: 'northwind.roasters' }, { platform: 'linkedin', username: 'Northwind Coffee' },
      { platform: 'facebook', username: 'Northwind Coffee Roasters' },
    ],
  });
  for (const [day, time, platforms, content] of WEEK) {
    const res = await d.ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: d.tenant.headers,
      payload: { content, scheduledFor: `${nextMonday(day)}T${time}`, timezone: TZ, platforms: platforms.map((platform) => ({ platform, accountId: d.accounts[WEEK_ACCOUNT[platform]] })) },
    });
    if (res.statusCode !== 201) throw new Error(`fixture post: ${res.body}`);
  }
}, 180_000);

/** The fixture account (username) of each network. */
const WEEK_ACCOUNT: Record<string, string> = {
  twitter: 'northwindcoffee', bluesky: 'northwind.coffee', threads: 'northwind.roasters', linkedin: 'Northwind Coffee', facebook: 'Northwind Coffee Roasters',
};

afterAll(async () => {
  await d?.close();
});

describe.skipIf(!hasChromium)('landing page', () => {
  it('renders the dashboard picture from the real app: the calendar of a brand posting to five networks', async () => {
    const { page } = d;
    await page.setViewportSize({ width: SHOT.width, height: SHOT.height });
    await d.signIn();
    await page.getByRole('radio', { name: VIEW === 'week' ? 'Week' : 'Month' }).click();
    if (VIEW === 'week' || new Date().getDate() > 20) await page.getByRole('button', { name: VIEW === 'week' ? 'Next week' : 'Next month' }).click();
    await page.locator('.post-chip', { hasText: 'Friday: 20% off' }).first().waitFor();
    await page.waitForLoadState('networkidle');
    // No caret or focus ring in the picture.
    await page.evaluate(() => (document.activeElement as { blur?: () => void } | null)?.blur?.());
    const out = WRITE ? IMAGE : path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-landing-')), 'dashboard-calendar.jpg');
    await page.screenshot({ path: out, type: 'jpeg', quality: 78, clip: { x: 0, y: 0, width: SHOT.width, height: SHOT.height } });
    // The same render as PNG, to look at (test-results/screenshots).
    await page.screenshot({ path: screenshotPath('landing-dashboard-shot'), clip: { x: 0, y: 0, width: SHOT.width, height: SHOT.height } });
    const rendered = fs.statSync(out).size;
    expect(imageSize(fs.readFileSync(out))).toMatchObject({ width: SHOT.width, height: SHOT.height, type: 'jpg' });
    expect(rendered).toBeLessThanOrEqual(SHOT.maxBytes);
    // The committed picture is one such render.
    const committed = fs.readFileSync(IMAGE);
    expect(imageSize(committed)).toMatchObject({ width: SHOT.width, height: SHOT.height, type: 'jpg' });
    expect(committed.length).toBeLessThanOrEqual(SHOT.maxBytes);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows the product picture above the API example, at 1280 and 390 px', async () => {
    const { page } = d;
    await page.goto(d.base);
    const img = page.getByRole('img', { name: /The Herald dashboard/ });
    await img.waitFor();
    await page.waitForFunction(() => [...document.images].every((i: { complete: boolean }) => i.complete));
    expect(await img.evaluate((i: { naturalWidth: number; naturalHeight: number }) => [i.naturalWidth, i.naturalHeight])).toEqual([SHOT.width, SHOT.height]);
    // Served by Herald as a hashed, long-cached asset.
    const src = (await img.getAttribute('src'))!;
    expect(src).toMatch(/^\/assets\/dashboard-calendar-[\w-]+\.jpg$/);
    const res = await fetch(`${d.base}${src}`);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toContain('immutable');
    // The picture comes first; the API example is below it.
    const shotBottom = await img.evaluate((e: { getBoundingClientRect(): { bottom: number } }) => e.getBoundingClientRect().bottom);
    const code = page.getByRole('region', { name: /an API for everything/ }).locator('pre');
    expect(await code.textContent()).toContain('curl -X POST $HERALD/v1/posts');
    expect(await code.evaluate((e: { getBoundingClientRect(): { top: number } }) => e.getBoundingClientRect().top)).toBeGreaterThan(shotBottom);
    expect(await page.locator('h1').textContent()).toMatch(/Schedule and publish/);
    // The lead names every platform, the four newer ones too (from the platform list, not by hand).
    expect(await page.locator('.lead').first().textContent()).toMatch(/Facebook, Instagram, .*Bluesky, Google Business Profile, Discord, Telegram and Mastodon accounts/);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      expect(await axeViolations(page), `landing at ${width} px`).toEqual([]);
      const shown = await img.evaluate((e: { getBoundingClientRect(): { width: number } }) => e.getBoundingClientRect().width);
      expect(shown).toBeGreaterThan(width === 390 ? 300 : 1000);
    }
    await shootBothWidths(page, 'landing');
  });
});
