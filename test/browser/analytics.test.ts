/**
 * The Analytics page in a real Chromium against the real app: a tenant with the add-on, two
 * profiles and posts whose metrics were read by the refresh pass over a week (the app's clock
 * moved day by day, so the snapshots form a time series); the page shows totals, the chart,
 * per-platform and per-profile tables, top posts, a table that sorts on click and a CSV export;
 * post detail shows the metrics; a tenant without the add-on sees the add-on explained.
 * Screenshots at 1280 and 390 px go to test-results/screenshots.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { createProfile, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { freePort } from '../support/net.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';
import { axeViolations, chromiumAvailable, fillDate, launch, screenshotPath, shootBothWidths, type Browser } from './support.ts';

// eslint-disable-next-line @typescript-eslint/no-unused-vars
declare const document: any, window: any;

const hasChromium = chromiumAvailable('test/browser/analytics.test.ts');
const password = 'a long analytics password';
const DAY = 86_400_000;

let ctx: TestContext;
let browser: Browser;
let page: Page;
let base: string;
let now = Date.now();
const ids: Record<string, string> = {};

async function rootWithKey(email: string, addons: Array<'analytics'>): Promise<Tenant> {
  const { userId } = await ctx.services.users.createRootUser({ email, password, name: email.split('@')[0], plan: 'professional', addons });
  const key = await ctx.services.apiKeys.create({ tenantId: userId, userId }, { name: 'fixture' });
  return { userId, apiKey: key.key, headers: { authorization: `Bearer ${key.key}` } };
}

beforeAll(async () => {
  if (!hasChromium) return;
  const port = await freePort();
  const adapter = new ScriptedAdapter();
  ctx = await createTestApp({
    listen: true, env: { PORT: String(port), HERALD_ANALYTICS_RATE_LIMIT: '1000' },
    deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: adapter }), clock: () => new Date(now) },
  });
  base = `http://127.0.0.1:${port}`;
  const t = await rootWithKey('analyst@herald.test', ['analytics']);
  await rootWithKey('nopaid@herald.test', []);
  const brand = await createProfile(ctx, t, 'Bakery');
  const books = await createProfile(ctx, t, 'Bookshop');
  const a1 = await insertAccount(ctx, t, brand, 'bluesky', { username: 'bakery.bsky.social' });
  const a2 = await insertAccount(ctx, t, books, 'bluesky', { username: 'books.bsky.social' });
  const posts: Array<[string, string, string, number]> = [
    ['launch', 'Fresh sourdough every morning likes:40', a1, 6],
    ['croissant', 'Croissant Friday is back likes:25', a1, 5],
    ['reading', 'Our autumn reading list likes:60', a2, 6],
    ['signing', 'Author signing on Saturday likes:12', a2, 4],
    ['quiet', 'Closed on Monday likes:3', a1, 3],
  ];
  for (const [name, content, account] of posts) {
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers, payload: { content, publishNow: true, platforms: [{ platform: 'bluesky', accountId: account }] } });
    if (res.statusCode !== 201) throw new Error(res.body);
    ids[name] = res.json().post._id;
  }
  const start = Date.now();
  for (const [name, , , daysAgo] of posts) {
    const at = new Date(start - daysAgo * DAY);
    await ctx.db.query('UPDATE posts SET published_at = $2 WHERE id = $1', [ids[name], at]);
    await ctx.db.query('UPDATE post_targets SET published_at = $2 WHERE post_id = $1', [ids[name], at]);
  }
  // A week of readings: the clock moves a day at a time; each pass follows the posts published by then and reads them all.
  for (let d = 6; d >= 0; d--) {
    now = start - d * DAY;
    await ctx.db.query('UPDATE post_metrics SET next_refresh_at = $1 WHERE next_refresh_at IS NOT NULL', [new Date(now - 1000)]);
    await ctx.services.analytics.refreshDue();
  }
  now = Date.now();
  browser = await launch({ timezoneId: 'UTC' });
  page = await browser.context.newPage();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

async function signIn(email: string) {
  await page.goto(`${base}/dashboard`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Calendar' }).waitFor();
}

describe.skipIf(!hasChromium)('analytics page', () => {
  it('shows totals, the engagement chart, platform and profile tables and the top posts', async () => {
    await signIn('analyst@herald.test');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    const totals = page.getByRole('region', { name: 'Totals' });
    await totals.waitFor();
    // Five posts; each read adds a like: (40+6) + (25+5) + (60+6) + (12+4) + (3+3).
    await expect.poll(async () => (await totals.innerText()).replace(/\s+/g, ' ')).toMatch(/Posts 5 /);
    expect((await totals.innerText()).replace(/\s+/g, ' ')).toMatch(/Likes 164 .*Comments 10/);
    expect((await totals.innerText()).replace(/\s+/g, ' ')).toMatch(/Impressions —/);
    // The chart draws one point per day of readings.
    await page.locator('.recharts-area').first().waitFor();
    expect(await page.locator('.recharts-xAxis .recharts-cartesian-axis-tick').count()).toBeGreaterThanOrEqual(4);
    await expect.poll(() => page.getByRole('region', { name: 'By profile' }).innerText()).toMatch(/Bookshop\s+2\s+86/);
    const top = page.getByRole('region', { name: 'Top posts' });
    expect((await top.getByRole('listitem').first().innerText())).toMatch(/autumn reading list/);
    await shootBothWidths(page, 'analytics');
    // The posts table fits a 1280 px window whole (every metric column visible, no sideways scroll)...
    const wrap = page.getByRole('group', { name: /Posts and their metrics/ });
    const overflow = () => wrap.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    const clicks = await wrap.getByRole('columnheader', { name: 'Clicks' }).evaluate((el) => el.getBoundingClientRect().right);
    expect(clicks).toBeLessThanOrEqual(await wrap.evaluate((el) => el.getBoundingClientRect().right));
    // ...and on a phone it scrolls inside its own box, which the keyboard can reach; the page does not.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await overflow()).toBeGreaterThan(0);
    expect(await wrap.getAttribute('tabindex')).toBe('0');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await axeViolations(page)).toEqual([]);
  });

  it('sorts the table on a header click', async () => {
    const table = page.getByRole('region', { name: 'Posts' }).getByRole('table');
    const firstPost = () => table.locator('tbody tr').first().locator('td').first().innerText();
    expect(await firstPost()).toMatch(/autumn reading list/);
    await table.getByRole('button', { name: 'Likes' }).click();
    expect(await firstPost()).toMatch(/autumn reading list/);
    await table.getByRole('button', { name: /Likes/ }).click();
    expect(await firstPost()).toMatch(/Closed on Monday/);
    await table.getByRole('button', { name: 'Published' }).click();
    expect(await firstPost()).toMatch(/Closed on Monday/);
  });

  it('filters by profile and exports the shown posts as CSV', async () => {
    await page.getByLabel('Profile', { exact: true }).selectOption({ label: 'Bakery' });
    await expect.poll(async () => (await page.getByRole('region', { name: 'Totals' }).innerText()).replace(/\s+/g, ' ')).toMatch(/Posts 3 /);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    const lines = csv.trim().split(/\r\n/);
    expect(lines[0]).toBe('post_id,published_at,profile,platforms,content,impressions,reach,views,likes,comments,shares,saves,clicks,engagement,engagement_rate');
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).map((l) => l.split(',')[4])).toEqual(expect.arrayContaining(['Fresh sourdough every morning likes:40', 'Croissant Friday is back likes:25', 'Closed on Monday likes:3']));
    const launch = lines.find((l) => l.includes('sourdough'))!.split(',');
    expect(launch.slice(5, 13)).toEqual(['', '', '', '46', '2', '0', '', '']);
    expect(launch[2]).toBe('Bakery');
  });

  it('takes a custom range from the date pickers and asks for those days', async () => {
    // The days as the browser's native date inputs gave them before: `YYYY-MM-DD`, sent as they are.
    const dayOf = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const [from, to] = [dayOf(-20), dayOf(-3)];
    const asked = page.waitForRequest((r) => new URL(r.url()).pathname === '/v1/analytics'
      && new URL(r.url()).searchParams.get('fromDate') === from && new URL(r.url()).searchParams.get('toDate') === to);
    await fillDate(page, 'From', from);
    await fillDate(page, 'To', to);
    await asked;
    expect(await page.getByLabel('Range', { exact: true }).locator('option:checked').textContent()).toBe('Custom');
    expect(new URL(page.url()).searchParams.get('from')).toBe(from);
    await page.getByLabel('Range', { exact: true }).selectOption({ label: 'Last 30 days' });
  });

  it('post detail shows the post\'s metrics per platform', async () => {
    await page.goto(`${base}/dashboard/posts/${ids.reading}`);
    const metrics = page.getByRole('region', { name: 'Metrics' });
    await metrics.getByText('Likes').waitFor();
    expect((await metrics.innerText()).replace(/\s+/g, ' ')).toMatch(/Likes 66 Comments 2 Shares 0/);
    expect(await metrics.innerText()).not.toMatch(/Impressions/);
    await page.screenshot({ path: screenshotPath('analytics-post-detail'), fullPage: true });
  });

  it('without the add-on the page explains it instead of showing empty charts', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').waitFor();
    await signIn('nopaid@herald.test');
    await page.goto(`${base}/dashboard/analytics`);
    await page.getByRole('heading', { name: 'Analytics is a paid add-on' }).waitFor();
    expect(await page.locator('.recharts-wrapper').count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Totals' }).count()).toBe(0);
    await shootBothWidths(page, 'analytics-no-addon');
  });
});
