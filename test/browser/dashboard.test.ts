/**
 * The dashboard in a real Chromium against the real app, worker and a real local Bluesky PDS:
 * sign in, create a profile, connect Bluesky with an app password, compose (live validation,
 * media upload) and schedule a post, see it on the calendar in the browser's time zone, watch
 * it become published with its bsky.app link, then the queue editor, API keys and usage
 * screens. Screenshots of each screen go to test-results/screenshots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startBlueskyPds, type BlueskyPdsHarness, type PdsAccount } from '../../sim/bluesky-pds.ts';
import { startWorker, type Worker } from '../../src/publishing/worker.ts';
import { createPublisher } from '../../src/publishing/publisher.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { makePng } from '../support/png.ts';
import { freePort } from '../support/net.ts';
import { answerConfirm, chromiumAvailable, fillDateTime, fillTime, launch, pickTimeZone, screenshotPath, shootBothWidths, type Browser } from './support.ts';

// Callbacks given to page.evaluate/waitForFunction run in the page: these are the browser's globals there
// (untyped: the server's tsconfig has no DOM library).
// eslint-disable-next-line @typescript-eslint/no-unused-vars
declare const document: any, window: any, location: any, navigator: any;

const hasChromium = chromiumAvailable('test/browser/dashboard.test.ts');
const TZ = 'America/New_York';
const email = 'editor@herald.test';
const password = 'a long dashboard password';

let pds: BlueskyPdsHarness;
let alice: PdsAccount;
let ctx: TestContext;
let worker: Worker;
let browser: Browser;
let page: Page;
let base: string;
let postId: string;
const postText = `Launch day from the Herald dashboard ${Date.now().toString(36)} #herald`;

beforeAll(async () => {
  if (!hasChromium) return;
  pds = await startBlueskyPds();
  alice = await pds.createAccount('alice');
  const port = await freePort();
  ctx = await createTestApp({ listen: true, env: { PORT: String(port), HERALD_BLUESKY_SERVICE_URL: pds.url } });
  base = `http://127.0.0.1:${port}`;
  const s = ctx.services;
  const publisher = createPublisher({ db: ctx.db, accounts: s.accountsRepository, adapters: s.adapters, mediaStorage: s.mediaStorage, config: ctx.config, clock: s.clock, workerId: `worker-browser-${process.pid}` });
  worker = await startWorker({ db: ctx.db, publisher, concurrency: 5, pollMs: 200, staleMs: 5_000 });
  await s.users.createRootUser({ email, password, name: 'Eddie Editor', plan: 'basic' });
  browser = await launch({ timezoneId: TZ });
  page = await browser.context.newPage();
  page.on('dialog', (d) => void d.accept());
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop(5_000);
  await ctx?.close();
  await pds?.close();
});

const nav = () => page.getByRole('navigation', { name: 'Dashboard' });

/** Wall-clock parts of `d` in `tz`. */
function local(d: Date, tz: string) {
  const p = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
    .formatToParts(d).filter((x) => x.type !== 'literal').map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

describe.skipIf(!hasChromium)('dashboard', () => {
  it('refuses a wrong password, then signs in', async () => {
    await page.goto(`${base}/dashboard`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('wrong password!!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await page.screenshot({ path: screenshotPath('dashboard-sign-in') });
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    expect(page.url()).toBe(`${base}/dashboard/calendar`);
    const cookies = await browser.context.cookies(base);
    expect(cookies.find((c) => c.name === 'herald_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  });

  it('sends a new user without a profile from the composer to create one (no empty profile picker)', async () => {
    await nav().getByRole('link', { name: 'New post' }).click();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    await page.getByText('No profile yet.').waitFor();
    expect(await page.getByLabel('Profile', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Create a profile' }).getAttribute('href')).toBe('/dashboard/profiles');
  });

  it('creates a profile with a colour', async () => {
    await nav().getByRole('link', { name: 'Profiles & accounts' }).click();
    await page.getByRole('button', { name: 'New profile' }).click();
    const form = page.getByRole('region', { name: 'New profile' });
    await form.getByLabel('Name').fill('Acme Coffee');
    await form.getByLabel('Description').fill('Our café brand');
    await form.getByLabel('Colour').fill('#0f766e');
    await form.getByRole('button', { name: 'Create profile' }).click();
    const card = page.getByRole('region', { name: /Acme Coffee/ });
    await card.waitFor();
    expect(await card.getByText('Default').count()).toBe(1);
  });

  it('shows the API error for a platform whose connect flow is not available yet', async () => {
    const card = page.getByRole('region', { name: /Acme Coffee/ });
    await card.getByRole('button', { name: 'X (Twitter)' }).click();
    await card.getByRole('alert').filter({ hasText: 'Could not start the connection' }).waitFor();
  });

  it('connects Bluesky with an app password on the local PDS', async () => {
    const card = page.getByRole('region', { name: /Acme Coffee/ });
    await card.getByRole('button', { name: 'Bluesky' }).click();
    await card.getByLabel('Handle or email').fill(alice.handle);
    await card.getByLabel('App password').fill(alice.appPassword);
    await card.getByRole('button', { name: 'Connect Bluesky' }).click();
    await card.locator('.account-row', { hasText: 'alice.test' }).getByText('Connected', { exact: true }).waitFor();
    await page.screenshot({ path: screenshotPath('dashboard-profiles'), fullPage: true });
  });

  it('reconnects a Bluesky account whose app password stopped working by entering it again', async () => {
    await ctx.db.query(`UPDATE accounts SET is_active = false, inactive_reason = 'Bluesky refused the app password' WHERE platform = 'bluesky'`);
    await page.reload();
    const row = page.locator('.account-row', { hasText: 'alice.test' });
    await row.getByText('Needs reconnection: Bluesky refused the app password').waitFor();
    await row.getByRole('button', { name: /^Reconnect/ }).click();
    const form = row.getByRole('form', { name: /Reconnect Bluesky/ });
    expect(await form.getByLabel('Handle or email').inputValue()).toBe(alice.handle);
    await form.getByLabel('App password').fill(alice.appPassword);
    await shootBothWidths(page, 'dashboard-bluesky-reconnect');
    await form.getByRole('button', { name: 'Reconnect Bluesky' }).click();
    await row.getByText('Connected', { exact: true }).waitFor();
    const { rows } = await ctx.db.query<{ is_active: boolean }>(`SELECT is_active FROM accounts WHERE platform = 'bluesky'`);
    expect(rows).toEqual([{ is_active: true }]);
  });

  it('validates live in the composer, uploads media with progress and schedules the post', async () => {
    await nav().getByRole('link', { name: 'New post' }).click();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    await page.getByRole('checkbox', { name: /alice\.test/ }).check();
    const text = page.getByLabel('Text', { exact: true });
    await text.fill('é'.repeat(301));
    await page.getByText('Bluesky posts are limited to 300 graphemes (this text has 301)').waitFor();
    expect(await page.locator('.counter.over').textContent()).toBe('Bluesky: 301/300 graphemes');
    expect(await page.getByRole('button', { name: 'Schedule post' }).isDisabled()).toBe(true);
    await text.fill(postText);
    await page.getByText("Fits every selected platform's rules.").waitFor();
    await page.getByLabel('Media').setInputFiles({ name: 'cup.png', mimeType: 'image/png', buffer: makePng(8, 6, [15, 118, 110]) });
    const item = page.locator('.media-item', { hasText: 'cup.png' });
    await item.getByLabel('Alt text for cup.png').fill('A teal coffee cup');
    // The next whole minute at least 25 s ahead (the time field has minute precision), in the browser's zone (New York).
    const at = new Date(Math.ceil((Date.now() + 25_000) / 60_000) * 60_000);
    const when = local(at, TZ);
    await fillDateTime(page, when.date, when.time);
    expect(await page.getByRole('combobox', { name: 'Time zone' }).inputValue()).toBe(TZ);
    await page.screenshot({ path: screenshotPath('dashboard-composer'), fullPage: true });
    await page.getByRole('button', { name: 'Schedule post' }).click();
    await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
    postId = page.url().split('/').pop()!;
    expect(postId).toMatch(/^[0-9a-f]{24}$/);
    const status = page.getByRole('region', { name: 'Status' });
    expect(await status.locator('.status-badge').first().textContent()).toBe('scheduled');
    const api = (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}`, headers: { cookie: (await browser.context.cookies(base)).map((c) => `${c.name}=${c.value}`).join('; ') } })).json().post;
    expect(api).toMatchObject({ content: postText, timezone: TZ, status: 'scheduled', scheduledFor: at.toISOString() });
    expect(api.mediaItems[0]).toMatchObject({ type: 'image', altText: 'A teal coffee cup', mimeType: 'image/png' });
  });

  it('shows the post on the month and week calendars at its local time', async () => {
    await nav().getByRole('link', { name: 'Calendar' }).click();
    const at = new Date((await ctx.db.query<{ scheduled_for: Date }>('SELECT scheduled_for FROM posts WHERE id = $1', [postId])).rows[0].scheduled_for);
    const when = local(at, TZ);
    await page.getByRole('radio', { name: 'Month' }).click();
    const chip = page.locator(`.cal-cell[data-date="${when.date}"] .post-chip`, { hasText: 'Launch day' });
    await chip.waitFor();
    // One clock on every page: the browser locale's (en-US: 12-hour).
    expect(await chip.locator('.chip-time').textContent()).toBe(new Intl.DateTimeFormat('en-US', { timeZone: TZ, hour: 'numeric', minute: '2-digit' }).format(at));
    await page.screenshot({ path: screenshotPath('dashboard-calendar-month'), fullPage: true });
    await page.getByRole('radio', { name: 'Week' }).click();
    await page.locator(`.week-col[data-date="${when.date}"] .post-chip`, { hasText: 'Launch day' }).waitFor();
    await page.screenshot({ path: screenshotPath('dashboard-calendar-week'), fullPage: true });
    await page.getByRole('radio', { name: 'Month' }).click();
  });

  it('lists it with filters', async () => {
    await nav().getByRole('link', { name: 'Posts', exact: true }).click();
    await page.getByLabel('Status').selectOption('scheduled');
    await page.locator('.post-table a', { hasText: 'Launch day' }).waitFor();
    // On a phone the time and status fold under the text instead of a table scrolling sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    const row = page.locator('.post-table tr', { hasText: 'Launch day' });
    expect(await row.locator('.post-meta-phone .status-badge', { hasText: 'scheduled' }).isVisible()).toBe(true);
    expect(await page.locator('.post-table th', { hasText: 'Status' }).isVisible()).toBe(false);
    expect(await page.locator('.table-wrap').evaluate((e: { scrollWidth: number; clientWidth: number }) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(1);
    await page.screenshot({ path: screenshotPath('dashboard-posts-390'), fullPage: true });
    await page.setViewportSize({ width: 1360, height: 900 });
    expect(await row.locator('.post-meta-phone').isVisible()).toBe(false);
    await page.getByLabel('Status').selectOption('published');
    await page.getByText('No posts match these filters.').waitFor();
    await page.getByLabel('Status').selectOption('');
  });

  it('shows the published status and the link to the post when the worker has published it', async () => {
    await page.goto(`${base}/dashboard/posts/${postId}`);
    const target = page.locator('.target', { hasText: 'alice.test' });
    await target.locator('.status-badge', { hasText: 'published' }).waitFor({ timeout: 150_000 });
    const href = await target.getByRole('link', { name: 'View the published post' }).getAttribute('href');
    expect(href).toMatch(/^https:\/\/bsky\.app\/profile\/alice\.test\/post\/[a-z2-7]{13}$/);
    expect(await page.getByRole('region', { name: 'Status' }).locator('.status-badge').first().textContent()).toBe('published');
    // Published posts can be neither edited nor deleted.
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath('dashboard-post-published'), fullPage: true });
    const records = (await pds.listPosts(alice.did)).filter((r) => r.value.text === postText);
    expect(records).toHaveLength(1);
    expect((records[0].value.embed as { $type: string }).$type).toBe('app.bsky.embed.images');
  }, 180_000);

  it('edits the queue: weekly slots and the next ones', async () => {
    await nav().getByRole('link', { name: 'Queue' }).click();
    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    await pickTimeZone(page, 'paris', 'Europe/Paris');
    await fillTime(page, 'New slot time on Monday', '09:30');
    await page.getByRole('button', { name: 'Add slot on Monday' }).click();
    await fillTime(page, 'New slot time on Thursday', '17:00');
    await page.getByRole('button', { name: 'Add slot on Thursday' }).click();
    await page.getByRole('button', { name: 'Save queue' }).click();
    const saved = page.getByRole('status').filter({ hasText: 'Saved' });
    const failed = page.getByRole('alert').filter({ hasText: 'Could not save the queue' });
    await saved.or(failed).waitFor();
    if (await saved.count()) {
      await page.locator('.next-slots li').first().waitFor();
      expect(await page.locator('.slot-chip').allTextContents()).toEqual(['9:30 AM×', '5:00 PM×']);
    }
    await page.screenshot({ path: screenshotPath('dashboard-queue'), fullPage: true });
  });

  it('creates an API key shown once, and revokes it', async () => {
    await nav().getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('Zapier');
    await page.getByLabel('Expires in (days)').fill('30');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByTestId('new-key').textContent();
    expect(key).toMatch(/^sk_[0-9a-f]{64}$/);
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/posts', headers: { authorization: `Bearer ${key}` } });
    expect(res.statusCode).toBe(200);
    await page.screenshot({ path: screenshotPath('dashboard-api-keys'), fullPage: true });
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Revoke Zapier' }).click();
    await answerConfirm(page, 'Revoke key');
    await page.getByRole('cell', { name: 'Zapier', exact: true }).waitFor({ state: 'detached' });
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/posts', headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(401);
  });

  it('uploads a file over the multipart limit through the resumable client-upload flow, with progress', async () => {
    await nav().getByRole('link', { name: 'New post' }).click();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    const big = makePng(1400, 1300, 'noise');
    expect(big.length).toBeGreaterThan(4 * 1024 * 1024);
    await page.getByLabel('Media').setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: big });
    await page.locator('.media-item', { hasText: 'big.png' }).getByLabel('Alt text for big.png').waitFor({ timeout: 60_000 });
    const { rows } = await ctx.db.query<{ size: number; mime_type: string }>(`SELECT size, mime_type FROM media_files WHERE filename = 'big.png'`);
    expect(rows).toEqual([{ size: big.length, mime_type: 'image/png' }]);
    const { rows: uploads } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM media_uploads`);
    expect(uploads[0].n).toBeGreaterThanOrEqual(1);
  });

  it('shows usage against the plan limits', async () => {
    await nav().getByRole('link', { name: 'Usage & plan' }).click();
    const posts = page.getByRole('meter', { name: 'Posts' });
    await posts.waitFor();
    expect(await posts.getAttribute('aria-valuetext')).toBe('1 of 120 used');
    expect(await page.getByRole('meter', { name: 'Profiles' }).getAttribute('aria-valuetext')).toBe('1 of 10 used');
    await page.screenshot({ path: screenshotPath('dashboard-usage'), fullPage: true });
  });

  it('works at phone width and signs out', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav().getByRole('link', { name: 'Calendar' }).click();
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
    await page.screenshot({ path: screenshotPath('dashboard-calendar-phone'), fullPage: true });
    await page.setViewportSize({ width: 1360, height: 900 });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: { cookie: 'herald_session=stale' } });
    expect(res.statusCode).toBe(401);
  });
});
