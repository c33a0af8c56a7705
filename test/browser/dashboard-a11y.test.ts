/**
 * Accessibility of the dashboard in a real Chromium: axe-core (the npm package,
 * injected into the page) finds no serious or critical violation on any dashboard page, at 1280
 * and at 390 px, and on the phone's open menu (every page in the navigation, Analytics and AI clips with their add-ons, a post, its editor), with
 * the composer's per-platform options open; and the composer and the calendar work with the
 * keyboard alone (Tab, Space, typing, Enter; Alt + arrows on a calendar card).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Tenant, TestContext } from '../support/app.ts';
import { axeViolations, chromiumAvailable, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/dashboard-a11y.test.ts');
const PLATFORMS = ['twitter', 'tiktok', 'instagram', 'reddit', 'pinterest'];

let d: DashboardHarness;
let ctx: TestContext;
let page: Page;
let base: string;
let tenant: Tenant;
let postId: string;

beforeAll(async () => {
  if (!hasChromium) return;
  // Both add-ons, so that the Analytics and AI clips pages show themselves rather than the add-on's explanation.
  d = await startDashboard({
    user: { email: 'a11y@herald.test', password: 'a long a11y password', name: 'Alex Access', plan: 'basic', addons: ['analytics', 'clips'] },
    profile: 'Studio', accounts: PLATFORMS.map((p) => ({ platform: p, username: `studio_${p}` })),
  });
  ({ ctx, page, base, tenant } = d);
  const at = new Date(Date.now() + 2 * 86_400_000).toISOString();
  const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: tenant.headers, payload: { content: 'Studio open day', scheduledFor: at, platforms: [{ platform: 'twitter', accountId: d.accounts.studio_twitter }] } });
  postId = res.json().post._id;
}, 180_000);

afterAll(async () => {
  await d?.close();
});

async function expectNoSeriousViolations(where: string) {
  const found = await axeViolations(page);
  expect(found.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(' | ')})`), where).toEqual([]);
}

/** No serious or critical violation at 1280 px, nor at 390 px (a phone's layout: other elements show); back at 1280 after. */
async function expectNoSeriousViolationsAtBothWidths(where: string) {
  try {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await expectNoSeriousViolations(`${where} at ${width} px`);
    }
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
}

describe.skipIf(!hasChromium)('dashboard accessibility', () => {
  it('has no serious or critical axe-core violation on the sign-in page and on every dashboard page', async () => {
    await page.goto(`${base}/dashboard`);
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    await expectNoSeriousViolations('sign in');
    await page.getByLabel('Email').fill(d.user.email);
    await page.getByLabel('Password').fill(d.user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    await page.locator('.post-chip').first().waitFor();
    await expectNoSeriousViolations('calendar (month)');
    await page.getByRole('radio', { name: 'Week' }).click();
    await expectNoSeriousViolations('calendar (week)');
    // Every page in the navigation (read from it, so a page added later is checked too), and the pages reached from them.
    const nav = await d.nav().getByRole('link').evaluateAll((links) => links.map((a) => [a.getAttribute('href'), (a.textContent ?? '').trim()] as [string, string]));
    expect(nav.map(([, name]) => name)).toEqual(expect.arrayContaining(['Analytics', 'AI clips', 'Media library', 'Reddit']));
    const pages: Array<[string, string]> = [
      ...nav.map(([href, name]): [string, string] => [href.startsWith('/dashboard') ? href : `/dashboard${href}`, name]),
      [`/dashboard/posts/${postId}`, 'Post'], [`/dashboard/posts/${postId}/edit`, 'Edit post'], ['/dashboard/no-such-page', 'Not found'],
    ];
    for (const [path, heading] of pages) {
      await page.goto(`${base}${path}`);
      await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
      await page.waitForLoadState('networkidle');
      await expectNoSeriousViolationsAtBothWidths(path);
    }
    // The phone's menu, open.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Menu' }).click();
    await d.nav().getByRole('link', { name: 'Posts' }).waitFor();
    await expectNoSeriousViolations('the menu open at 390 px');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/dashboard/compose`);
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    for (const p of PLATFORMS) await page.getByRole('checkbox', { name: new RegExp(`studio_${p}`) }).check();
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
