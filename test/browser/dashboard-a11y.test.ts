/**
 * Accessibility of the dashboard in a real Chromium (issue 13): axe-core (the npm package,
 * injected into the page) finds no serious or critical violation on any dashboard page, with
 * the composer's per-platform options open; and the composer and the calendar work with the
 * keyboard alone (Tab, Space, typing, Enter; Alt + arrows on a calendar card).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createProfile, createTestApp, insertAccount, type Tenant, type TestContext } from '../helpers.ts';
import { freePort } from '../support/net.ts';
import { axeViolations, chromiumAvailable, launch, type Browser } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/dashboard-a11y.test.ts');
const email = 'a11y@herald.test';
const password = 'a long a11y password';

let ctx: TestContext;
let browser: Browser;
let page: Page;
let base: string;
let tenant: Tenant;

beforeAll(async () => {
  if (!hasChromium) return;
  const port = await freePort();
  ctx = await createTestApp({ listen: true, env: { PORT: String(port) } });
  base = `http://127.0.0.1:${port}`;
  const { userId } = await ctx.services.users.createRootUser({ email, password, name: 'Alex Access', plan: 'basic' });
  const key = await ctx.services.apiKeys.create({ tenantId: userId, userId }, { name: 'setup' });
  tenant = { userId, apiKey: key.key, headers: { authorization: `Bearer ${key.key}` } };
  const profileId = await createProfile(ctx, tenant, 'Studio');
  for (const p of ['twitter', 'tiktok', 'instagram', 'reddit', 'pinterest']) await insertAccount(ctx, tenant, profileId, p, { username: `studio_${p}` });
  const at = new Date(Date.now() + 2 * 86_400_000).toISOString();
  const accountId = (await ctx.db.query<{ id: string }>(`SELECT id FROM accounts WHERE platform = 'twitter'`)).rows[0].id;
  await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: tenant.headers, payload: { content: 'Studio open day', scheduledFor: at, platforms: [{ platform: 'twitter', accountId }] } });
  browser = await launch({ timezoneId: 'UTC', viewport: { width: 1280, height: 900 } });
  page = await browser.context.newPage();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

async function expectNoSeriousViolations(where: string) {
  const found = await axeViolations(page);
  expect(found.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(' | ')})`), where).toEqual([]);
}

describe.skipIf(!hasChromium)('dashboard accessibility', () => {
  it('has no serious or critical axe-core violation on the sign-in page and on every dashboard page', async () => {
    await page.goto(`${base}/dashboard`);
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    await expectNoSeriousViolations('sign in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    await page.locator('.post-chip').first().waitFor();
    await expectNoSeriousViolations('calendar (month)');
    await page.getByRole('radio', { name: 'Week' }).click();
    await expectNoSeriousViolations('calendar (week)');
    const pages: Array<[string, string]> = [
      ['/dashboard/posts', 'Posts'], ['/dashboard/media', 'Media library'], ['/dashboard/bulk', 'Bulk upload'], ['/dashboard/profiles', 'Profiles & accounts'],
      ['/dashboard/queue', 'Queue'], ['/dashboard/reddit', 'Reddit'], ['/dashboard/api-keys', 'API keys'], ['/dashboard/usage', 'Usage & plan'],
    ];
    for (const [path, heading] of pages) {
      await page.goto(`${base}${path}`);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await page.waitForLoadState('networkidle');
      await expectNoSeriousViolations(path);
    }
    await page.goto(`${base}/dashboard/compose`);
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    for (const p of ['twitter', 'tiktok', 'instagram', 'reddit', 'pinterest']) await page.getByRole('checkbox', { name: new RegExp(`studio_${p}`) }).check();
    await page.getByLabel('Text', { exact: true }).fill('Open day at the studio');
    await page.getByRole('button', { name: 'Add a reply (thread)' }).click();
    await page.getByRole('button', { name: 'Tag a person' }).click();
    await page.getByRole('region', { name: 'Preview' }).waitFor();
    await expectNoSeriousViolations('composer with every option open');
    await page.getByRole('button', { name: 'Choose from the library' }).click();
    await page.getByRole('dialog', { name: 'Media library' }).waitFor();
    await expectNoSeriousViolations('media library picker');
    await page.keyboard.press('Escape');
  });

  it('composes and schedules a post with the keyboard alone', async () => {
    await page.goto(`${base}/dashboard/compose`);
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    /** Presses Tab until the focused element matches `selector` (at most 80 times). */
    async function tabTo(selector: string) {
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab');
        if (await page.evaluate(`document.activeElement && document.activeElement.matches(${JSON.stringify(selector)})`)) return;
      }
      throw new Error(`Tab never reached ${selector}`);
    }
    await tabTo('.account-pick input[type="checkbox"]');
    await page.keyboard.press('Space');
    expect(await page.locator('.account-pick', { hasText: 'studio_twitter' }).getByRole('checkbox').isChecked()).toBe(true);
    await tabTo('#c-text');
    await page.keyboard.type('Typed without a mouse');
    await tabTo('button[type="submit"]');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Schedule post');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
    const id = page.url().split('/').pop()!;
    const post = (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: tenant.headers })).json().post;
    expect(post).toMatchObject({ content: 'Typed without a mouse', status: 'scheduled' });
  });

  it('reaches calendar cards with Tab and moves one with Alt + arrow', async () => {
    await page.goto(`${base}/dashboard/calendar`);
    await page.getByRole('radio', { name: 'Month' }).click();
    const first = page.locator('.post-chip', { hasText: 'Studio open day' });
    await first.waitFor();
    const id = await first.getAttribute('data-post-id');
    const before = (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: tenant.headers })).json().post.scheduledFor as string;
    for (let i = 0; i < 120; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(`document.activeElement && document.activeElement.getAttribute('data-post-id') === ${JSON.stringify(id)}`)) break;
    }
    expect(await page.evaluate('document.activeElement.getAttribute("data-post-id")')).toBe(id);
    await page.keyboard.press('Alt+ArrowRight');
    await page.getByRole('status').filter({ hasText: 'Moved to' }).waitFor();
    const after = (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: tenant.headers })).json().post.scheduledFor as string;
    // A day later, to the minute (the calendar moves posts on the wall clock, minutes included).
    expect(Math.floor(new Date(after).getTime() / 60_000) - Math.floor(new Date(before).getTime() / 60_000)).toBe(24 * 60);
  });
});
