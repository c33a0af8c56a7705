/**
 * The dashboard's Client invites page in a real Chromium against the real app in sandbox mode
 * (decision 0037): the owner creates a platform invite for X, a second browser with no Herald login
 * opens the link and connects through the X simulator, and the page then shows the invite as
 * connected; another invite is revoked from the page; the connected account is shared with a
 * second profile (clone connection). Screenshots at 1280 and 390 px wide.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { createProfile } from '../support/app.ts';
import { answerConfirm, chromiumAvailable, launch, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/client-invites.test.ts');

let sandbox: Sandbox;
let d: DashboardHarness;
let page: Page;

beforeAll(async () => {
  if (!hasChromium) return;
  sandbox = await startSandbox({ bluesky: false });
  d = await startDashboard({
    user: { email: 'owner@herald.test', password: 'a long owner password', name: 'Olga Owner' },
    env: { HERALD_SANDBOX: 'on' }, deps: { sandbox }, profile: 'Client Bakery', acceptDialogs: true,
  });
  page = d.page;
}, 240_000);

afterAll(async () => {
  await d?.close();
  await sandbox?.close();
});

const inviteRow = (text: string) => page.locator('tbody tr', { hasText: text });

describe.skipIf(!hasChromium)('client invites page', () => {
  it('creates an X invite that a client with no login uses; revokes another; shares the account with a second profile', async () => {
    const second = await createProfile(d.ctx, d.tenant, 'Second Brand');
    await d.signIn();
    await d.nav().getByRole('link', { name: 'Client invites' }).click();
    await page.getByRole('heading', { name: 'Client invites' }).waitFor();
    await page.getByLabel('Profile', { exact: true }).selectOption({ label: 'Client Bakery' });
    await page.getByLabel('Platform', { exact: true }).selectOption({ label: 'X (Twitter)' });
    await page.getByRole('button', { name: 'Create invite link' }).click();
    const url = (await page.getByTestId('invite-url').innerText()).trim();
    expect(url).toMatch(new RegExp(`^${d.base}/v1/platform-invites/[A-Za-z0-9_-]{43}/connect$`));
    await inviteRow('Client Bakery').getByText('Waiting').waitFor();

    // The client: another browser, never signed in.
    const client = await launch();
    try {
      const cp = await client.context.newPage();
      await cp.goto(url);
      await cp.getByText('Olga Owner (owner@herald.test) invited you to connect your X (Twitter) account to Client Bakery.').waitFor();
      await cp.getByRole('button', { name: 'Continue to X (Twitter)' }).click();
      await cp.getByRole('heading', { name: 'Connected, you can close this page' }).waitFor();
      expect(await client.context.cookies(d.base)).toEqual([]);
    } finally {
      await client.close();
    }

    await page.reload();
    await inviteRow('Client Bakery').getByText('Connected').waitFor();
    expect(await inviteRow('Client Bakery').getByRole('button').count()).toBe(0);

    // A second invite, revoked from the page: its link stops working.
    await page.getByLabel('Platform', { exact: true }).selectOption({ label: 'LinkedIn' });
    await page.getByRole('button', { name: 'Create invite link' }).click();
    const revokedUrl = (await page.getByTestId('invite-url').innerText()).trim();
    await page.getByRole('button', { name: 'Done' }).click();
    await inviteRow('LinkedIn').getByText('Waiting').waitFor();
    await shootBothWidths(page, 'client-invites');
    await inviteRow('LinkedIn').getByRole('button', { name: /^Revoke/ }).click();
    await answerConfirm(page, 'Revoke invite');
    await inviteRow('LinkedIn').waitFor({ state: 'detached' });
    expect((await d.ctx.app.inject({ method: 'GET', url: new URL(revokedUrl).pathname })).statusCode).toBe(404);

    // Share the connected X account with the second profile.
    const xAccount = page.getByLabel('Account', { exact: true });
    await xAccount.locator('option', { hasText: 'X (Twitter)' }).waitFor({ state: 'attached' });
    await xAccount.selectOption({ index: 1 });
    await page.getByLabel('Also publish for').selectOption({ label: 'Second Brand' });
    await page.getByRole('button', { name: 'Share account' }).click();
    await page.getByRole('status').filter({ hasText: 'now also publishes for Second Brand' }).waitFor();
    const inSecond = (await d.ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${second}`, headers: d.tenant.headers })).json().accounts;
    expect(inSecond).toEqual([expect.objectContaining({ platform: 'twitter', profileId: second, isActive: true })]);
  });
});
