/**
 * Errors say what happened in words, with the way out, never a machine code: a plan limit links
 * to the upgrade (Billing), a validation error names the field to fix and takes the focus to it
 * (details.fields); and a Reddit account's default subreddit is picked from the subreddits
 * Herald reads from the account (GET /v1/accounts/{id}/reddit-subreddits), not typed. Real
 * Chromium against the real app in sandbox mode (the Reddit simulator); axe on each page.
 * Screenshots at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { createProfile } from '../support/app.ts';
import { axeViolations, chromiumAvailable, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/errors-in-words.test.ts');
let sandbox: Sandbox;
let d: DashboardHarness;
let page: Page;

beforeAll(async () => {
  if (!hasChromium) return;
  sandbox = await startSandbox({ bluesky: false });
  // The Free plan holds 2 profiles: the harness makes one, a second fills the plan.
  d = await startDashboard({
    user: { email: 'words@errors.test', password: 'a long dashboard password', name: 'Wanda Words', plan: 'free' },
    env: { HERALD_SANDBOX: 'on' }, deps: { sandbox }, profile: 'Bakery',
  });
  page = d.page;
  await createProfile(d.ctx, d.tenant, 'Second shop');
}, 240_000);
afterAll(async () => {
  await d?.close();
  await sandbox?.close();
});

async function expectNoSeriousViolations(where: string) {
  const found = await axeViolations(page);
  expect(found.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(' | ')})`), where).toEqual([]);
}

describe.skipIf(!hasChromium)('errors in words, and the default subreddit picked from the account\'s', () => {
  it('says a plan limit in words with an upgrade link, without the API code', async () => {
    await d.signIn();
    await d.nav().getByRole('link', { name: 'Profiles & accounts' }).click();
    await page.getByRole('button', { name: 'New profile' }).click();
    await page.getByRole('region', { name: 'New profile' }).getByLabel('Name').fill('Third shop');
    await page.getByRole('button', { name: 'Create profile' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Profile limit reached' });
    await alert.waitFor();
    const text = await alert.textContent();
    expect(text).toContain('Your Free plan allows 2 profiles');
    expect(text).not.toMatch(/PLAN_LIMIT_REACHED|403/);
    await expectNoSeriousViolations('plan limit error');
    await shootBothWidths(page, 'error-plan-limit');
    await alert.getByRole('link', { name: 'Upgrade your plan' }).click();
    await page.getByRole('heading', { name: 'Billing' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/billing');
  });

  it('names the field to fix of a validation error and takes the focus to it', async () => {
    await d.nav().getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Name').fill('CRM');
    await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/hook');
    await page.getByRole('checkbox').first().check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Fix this field' });
    await alert.waitFor();
    expect(await alert.textContent()).not.toMatch(/VALIDATION_ERROR|\b400\b/);
    await alert.getByRole('button', { name: 'URL' }).click();
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('wh-url');
    await expectNoSeriousViolations('validation error');
    await shootBothWidths(page, 'error-field-to-fix');
  });

  it('picks the default subreddit from the Reddit account\'s subreddits', async () => {
    await d.nav().getByRole('link', { name: 'Profiles & accounts' }).click();
    const card = page.getByRole('region', { name: /Bakery/ });
    await card.getByRole('button', { name: 'Reddit' }).click();
    await page.getByRole('status').filter({ hasText: /on Reddit\./ }).waitFor();
    const reddit = page.locator('.account-row', { hasText: 'Reddit' });
    const select = reddit.getByLabel('Default subreddit');
    await select.locator('option', { hasText: 'r/herald' }).waitFor({ state: 'attached' });
    expect(await select.evaluate((s: { tagName: string }) => s.tagName)).toBe('SELECT');
    // The subreddits the account has joined in the simulator (not the ones it has not).
    const options = await select.locator('option').allTextContents();
    expect(options).toEqual(expect.arrayContaining(['r/test', 'r/herald', 'r/selfonly']));
    expect(options).not.toContain('r/linksonly');
    await select.selectOption('herald');
    await reddit.getByRole('button', { name: 'Save default subreddit' }).click();
    await reddit.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const accounts = (await d.ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: d.tenant.headers })).json().accounts as Array<{ platform: string; defaultSubreddit?: string }>;
    expect(accounts.find((a) => a.platform === 'reddit')?.defaultSubreddit).toBe('herald');
    await expectNoSeriousViolations('default subreddit');
    await shootBothWidths(page, 'default-subreddit-picker');
  });
});
