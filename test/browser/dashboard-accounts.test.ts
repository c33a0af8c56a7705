/**
 * Accounts, bulk upload and Reddit in a real Chromium against the real app in sandbox mode:
 * Facebook connected through the page picker and switched to another page (its
 * picture follows), LinkedIn switched to a company page, account health shown calmly (a token
 * Herald renews is no alarm; a broken account offers Reconnect, which goes through the platform
 * again), the CSV template (the server's columns; its rows pass a dry run), a CSV checked by a
 * dry run (per-row errors) then created, and a Reddit account's feed
 * and search. Screenshots at 1280 and 390 px wide.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { KNOWN_COLUMNS } from '../../src/modules/bulk/csv-rows.ts';
import type { TestContext } from '../support/app.ts';
import { axeViolations, chromiumAvailable, screenshotPath, selectClippedPx, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/dashboard-accounts.test.ts');

let sandbox: Sandbox;
let d: DashboardHarness;
let ctx: TestContext;
let page: Page;

beforeAll(async () => {
  if (!hasChromium) return;
  sandbox = await startSandbox({ bluesky: false });
  d = await startDashboard({
    user: { email: 'accounts@herald.test', password: 'a long accounts password', name: 'Ada Accounts' },
    env: { HERALD_SANDBOX: 'on' }, deps: { sandbox }, timezoneId: 'Europe/Paris', acceptDialogs: true,
  });
  ({ ctx, page } = d);
}, 240_000);

afterAll(async () => {
  await d?.close();
  await sandbox?.close();
});

const nav = () => d.nav();
const shoot = (name: string) => shootBothWidths(page, name);
const row = (platform: string) => page.locator('.account-row', { has: page.locator('.platform-badge', { hasText: platform }) });

async function accounts() {
  const cookie = (await d.browser.context.cookies(d.base)).map((c) => `${c.name}=${c.value}`).join('; ');
  return (await ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: { cookie } })).json().accounts as Array<Record<string, unknown>>;
}

describe.skipIf(!hasChromium)('accounts, bulk upload and Reddit', () => {
  it('connects Facebook through the page picker, and switches it to another page; the picture follows', async () => {
    await d.signIn();
    await nav().getByRole('link', { name: 'Profiles & accounts' }).click();
    await page.getByRole('button', { name: 'New profile' }).click();
    await page.getByRole('region', { name: 'New profile' }).getByLabel('Name').fill('Books & Bread');
    await page.getByRole('button', { name: 'Create profile' }).click();
    const card = page.getByRole('region', { name: /Books & Bread/ });
    await card.getByRole('button', { name: 'Facebook' }).click();
    await page.getByRole('heading', { name: 'Choose the Facebook page' }).waitFor();
    await page.getByLabel(/Herald Books/).waitFor();
    await shoot('connect-facebook-pages');
    await page.getByLabel(/Herald Bakery/).check();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await row('Facebook').getByText('Connected', { exact: true }).waitFor();
    const before = (await accounts()).find((a) => a.platform === 'facebook')!;
    const select = row('Facebook').getByLabel('Facebook page');
    await select.locator('option', { hasText: 'Herald Books' }).waitFor({ state: 'attached' });
    expect(await select.locator('option').allTextContents()).toEqual(['Herald Bakery (Bakery)', 'Herald Books (Book Store)']);
    await select.selectOption({ label: 'Herald Books (Book Store)' });
    await row('Facebook').getByRole('button', { name: 'Switch Facebook page' }).click();
    await row('Facebook').getByRole('status').filter({ hasText: 'Now publishing to Herald Books' }).waitFor();
    const after = (await accounts()).find((a) => a.platform === 'facebook')!;
    expect(after.username).toBe('Herald Books');
    expect(after.profilePicture).not.toBe(before.profilePicture);
    await row('Facebook').locator(`img[src="${after.profilePicture as string}"]`).waitFor({ state: 'attached' });
  });

  it('connects LinkedIn and switches it to publish as a company page', async () => {
    const card = page.getByRole('region', { name: /Books & Bread/ });
    await card.getByRole('button', { name: 'LinkedIn' }).click();
    await page.getByRole('heading', { name: 'Choose who posts on LinkedIn' }).waitFor();
    await page.getByLabel(/Herald Demo Co/).waitFor();
    await shoot('connect-linkedin-author');
    await page.getByLabel(/My personal profile/).check();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const li = row('LinkedIn');
    await li.getByText('Connected', { exact: true }).waitFor();
    const author = li.getByLabel('Publish as');
    await author.locator('option', { hasText: 'Herald Demo Co' }).waitFor({ state: 'attached' });
    await author.selectOption({ label: 'Herald Demo Co (company page)' });
    // The chosen author shows whole, on a desktop and on a phone.
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await selectClippedPx(author), `at ${width} px`).toBe(0);
      await li.screenshot({ path: screenshotPath(`accounts-linkedin-publish-as-${width}`) });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await li.getByRole('button', { name: 'Switch LinkedIn author' }).click();
    await li.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await accounts()).find((a) => a.platform === 'linkedin')).toMatchObject({ accountType: 'organization' });
  });

  it('shows health calmly and reconnects a broken account through the platform', async () => {
    const card = page.getByRole('region', { name: /Books & Bread/ });
    await card.getByRole('button', { name: 'Reddit' }).click();
    await page.getByRole('status').filter({ hasText: 'on Reddit.' }).waitFor();
    const reddit = row('Reddit');
    // A token Herald renews by itself is information, not a warning.
    await reddit.getByText('renews automatically').waitFor();
    expect(await reddit.locator('.state-warn, .state-bad').count()).toBe(0);
    // Right after connecting, tokens that expire within the hour but that Herald renews are no alarm in the health panel either.
    const expiring = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM accounts WHERE token_expires_at < now() + interval '24 hours'`);
    expect(expiring.rows[0].n).toBeGreaterThan(0);
    const health = page.getByRole('region', { name: 'Account health' });
    await page.reload();
    await health.getByText('All 3 accounts are healthy.').waitFor();
    expect(await health.textContent()).not.toMatch(/attention|cannot post|reconnect/i);
    expect(await axeViolations(page)).toEqual([]);
    await shoot('accounts-health-calm');
    await ctx.db.query(`UPDATE accounts SET is_active = false, inactive_reason = 'Reddit refused the token' WHERE platform = 'reddit'`);
    await page.reload();
    await reddit.getByText('Needs reconnection: Reddit refused the token').waitFor();
    await health.getByText('1 cannot post').waitFor();
    expect(await health.getByRole('listitem').filter({ hasText: 'Cannot post' }).count()).toBe(1);
    await shoot('accounts-health');
    await reddit.getByRole('button', { name: /^Reconnect/ }).click();
    await page.getByRole('status').filter({ hasText: 'on Reddit.' }).waitFor();
    await reddit.getByText('Connected', { exact: true }).waitFor();
    expect((await accounts()).filter((a) => a.platform === 'reddit')).toMatchObject([{ isActive: true }]);
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await shoot('accounts-page');
  });

  it('offers a CSV template with every column the upload reads, which the upload accepts as it is', async () => {
    await nav().getByRole('link', { name: 'Bulk upload' }).click();
    const link = page.getByRole('link', { name: 'Download a CSV template' });
    await expect.poll(async () => decodeURIComponent((await link.getAttribute('href')) ?? '')).toContain('Books & Bread');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('herald-bulk-template.csv');
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    const header = csv.split('\r\n')[0].split(',');
    // The server's own column list: no column it would ignore, none it reads missing.
    expect(header).toEqual([...KNOWN_COLUMNS]);
    expect(csv).toContain('Books & Bread');
    // The template's example rows pass a dry run as they are.
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'template.csv');
    const res = await fetch(`${d.base}/v1/posts/bulk-upload?dryRun=true`, { method: 'POST', headers: d.tenant.headers, body: form });
    const body = await res.json() as { total: number; valid: number; warnings: string[]; results: unknown };
    expect(body, JSON.stringify(body.results)).toMatchObject({ total: 2, valid: 2, warnings: [] });
    expect(await axeViolations(page)).toEqual([]);
    await shoot('bulk-template');
  });

  it('checks a CSV with a dry run (per-row errors, nothing created), then creates the valid rows', async () => {
    await nav().getByRole('link', { name: 'Bulk upload' }).click();
    const csv = [
      'platforms,profiles,post_content,schedule_time,tz,subreddit',
      'linkedin,Books & Bread,New titles this week,2031-03-02 09:00,Europe/Paris,',
      'linkedin,No Such Profile,This row names a missing profile,2031-03-02 10:00,Europe/Paris,',
      'facebook,Books & Bread,Fresh bread at 7,2031-03-03 07:00,Europe/Paris,',
    ].join('\n');
    await page.getByLabel('CSV file').setInputFiles({ name: 'week.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Check the file (dry run)' }).click();
    const results = page.getByRole('region', { name: /Dry run/ });
    await results.waitFor();
    expect(await results.getByRole('status').textContent()).toBe('2 of 3 row(s) can be created; 1 with errors.');
    const rows = results.locator('tbody tr');
    expect(await rows.count()).toBe(3);
    expect(await rows.nth(1).textContent()).toContain('Error');
    expect(await rows.nth(1).locator('.row-errors').textContent()).toMatch(/No Such Profile/);
    const { rows: before } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM posts');
    expect(before[0].n).toBe(0);
    await shoot('bulk-dry-run');
    await page.getByRole('button', { name: 'Create 2 post(s)' }).click();
    const created = page.getByRole('region', { name: 'Created' });
    await created.getByRole('link', { name: 'Created' }).first().waitFor();
    expect(await created.getByRole('link', { name: 'Created' }).count()).toBe(2);
    const { rows: after } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM posts');
    expect(after[0].n).toBe(2);
  });

  it('reads a subreddit and searches Reddit through the Reddit account', async () => {
    await nav().getByRole('link', { name: 'Reddit' }).click();
    await page.getByRole('heading', { name: 'Reddit' }).waitFor();
    await page.getByLabel('Subreddit').fill('test');
    await page.getByLabel('Sort').selectOption('new');
    await page.getByRole('button', { name: 'Show' }).click();
    const list = page.getByRole('list', { name: 'Reddit posts' });
    await list.getByRole('listitem').first().waitFor();
    expect(await list.getByRole('listitem').first().textContent()).toContain('r/test');
    await shoot('reddit-feed');
    await page.getByLabel('Search', { exact: true }).fill('cats');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(async () => {
      const texts = await list.getByRole('listitem').allTextContents();
      return texts.length > 0 && texts.every((t) => /about cats/.test(t) && t.includes('r/test'));
    }).toBe(true);
  });
  it('connects the four newer platforms from the profile card: Discord and Google Business Profile through the one chooser, Telegram with a bot token, Mastodon with its server', async () => {
    await nav().getByRole('link', { name: 'Profiles & accounts' }).click();
    const card = page.getByRole('region', { name: /Books & Bread/ });
    // Discord: the bot joins the server at the simulator, then the channel is chosen on the generic chooser.
    await card.getByRole('button', { name: 'Discord' }).click();
    await page.getByRole('heading', { name: 'Choose the Discord channel' }).waitFor();
    await page.getByRole('radio').first().check();
    await shoot('connect-discord-channel');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await row('Discord').getByText('Connected', { exact: true }).waitFor();
    // Google Business Profile: the location.
    await card.getByRole('button', { name: 'Google Business Profile' }).click();
    await page.getByRole('heading', { name: 'Choose the Google Business Profile location' }).waitFor();
    await page.getByRole('radio').first().check();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await row('Google Business Profile').getByText('Connected', { exact: true }).waitFor();
    // Telegram: the sandbox's bot token (GET /v1/sandbox says it), then the chat.
    const cookie = (await d.browser.context.cookies(d.base)).map((c) => `${c.name}=${c.value}`).join('; ');
    const hint = (await ctx.app.inject({ method: 'GET', url: '/v1/sandbox', headers: { cookie } })).json().platforms.find((p: { platform: string }) => p.platform === 'telegram').connect as string;
    await card.getByRole('button', { name: 'Telegram' }).click();
    await page.getByLabel('Bot token').fill(/"botToken":"([^"]+)"/.exec(hint)![1]);
    await page.getByRole('button', { name: 'Find my chats' }).click();
    await page.getByRole('radio').first().check();
    await page.getByRole('button', { name: 'Connect Telegram' }).click();
    await row('Telegram').getByText('Connected', { exact: true }).waitFor();
    // Mastodon: the server first (the simulator is every server in sandbox mode).
    await card.getByRole('button', { name: 'Mastodon' }).click();
    await page.getByLabel(/Mastodon server/).fill('mastodon.social');
    await page.getByRole('button', { name: 'Continue to Mastodon' }).click();
    await row('Mastodon').getByText('Connected', { exact: true }).waitFor();
    const connected = (await accounts()).map((a) => a.platform);
    expect(connected).toEqual(expect.arrayContaining(['discord', 'googlebusiness', 'telegram', 'mastodon']));
    expect(await axeViolations(page)).toEqual([]);
  });

  it('switches the Google Business Profile account to another location on its card, as the other account cards do', async () => {
    const gbp = row('Google Business Profile');
    const select = gbp.getByLabel('Location');
    await select.locator('option').nth(1).waitFor({ state: 'attached' });
    const current = await select.inputValue();
    const values = await select.locator('option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
    const other = values.find((v) => v && v !== current)!;
    await select.selectOption(other);
    await gbp.getByRole('button', { name: 'Switch Google Business Profile location' }).click();
    const done = gbp.getByRole('status').filter({ hasText: 'Now publishing to' });
    await done.waitFor();
    const after = (await accounts()).find((a) => a.platform === 'googlebusiness')!;
    expect(await done.textContent()).toBe(`Now publishing to ${after.displayName as string}`);
    // After a reload the card reads the new location back from Google (the list's selectedLocationId).
    await page.reload();
    const reloaded = row('Google Business Profile').getByLabel('Location');
    await reloaded.locator('option').nth(1).waitFor({ state: 'attached' });
    await expect.poll(() => reloaded.inputValue()).toBe(other);
    await shoot('account-card-gbp-location');
    expect(await axeViolations(page)).toEqual([]);
  });
});
