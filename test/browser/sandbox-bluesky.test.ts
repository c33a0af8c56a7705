/**
 * Sandbox Bluesky in a real Chromium: with HERALD_SANDBOX=on the dashboard's Bluesky connect form
 * shows the demo account of the local PDS (handle and app password, from GET /v1/sandbox) and
 * fills them in, so a newcomer connects it with one click; without sandbox mode the form is empty
 * and says to use an app password. Screenshots at 1280 and 390 px wide; axe-core on the form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_BLUESKY_HANDLE, startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { axeViolations, chromiumAvailable, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/sandbox-bluesky.test.ts');

let sandbox: Sandbox;
let d: DashboardHarness;
let plain: DashboardHarness;

beforeAll(async () => {
  if (!hasChromium) return;
  // Only the Bluesky PDS: no OAuth simulators are needed here.
  sandbox = await startSandbox({ simulators: [] });
  d = await startDashboard({
    user: { email: 'sandbox-bsky@herald.test', password: 'a long sandbox password', name: 'Sam Sandbox' },
    env: { HERALD_SANDBOX: 'on' }, deps: { sandbox }, profile: 'Demo brand',
  });
  plain = await startDashboard({ user: { email: 'real-bsky@herald.test', password: 'a long real password', name: 'Rae Real' }, profile: 'Real brand' });
}, 240_000);

afterAll(async () => {
  await d?.close();
  await plain?.close();
  await sandbox?.close();
});

describe.skipIf(!hasChromium)('sandbox Bluesky in the dashboard', () => {
  it('shows and fills in the demo account, and connects it with one click', async () => {
    expect(sandbox.bluesky, 'the local PDS started').not.toBeNull();
    const { page } = d;
    await d.signIn();
    await d.nav().getByRole('link', { name: 'Profiles & accounts' }).click();
    const card = page.getByRole('region', { name: /Demo brand/ });
    await card.getByRole('button', { name: 'Bluesky' }).click();
    const form = page.getByRole('form', { name: 'Connect Bluesky' });
    const note = form.getByTestId('sandbox-bluesky');
    await note.waitFor();
    expect(await note.textContent()).toContain(SANDBOX_BLUESKY_HANDLE);
    expect(await note.textContent()).toContain(sandbox.bluesky!.appPassword);
    await expect.poll(() => form.getByLabel('Handle or email').inputValue()).toBe(SANDBOX_BLUESKY_HANDLE);
    expect(await form.getByLabel('App password').inputValue()).toBe(sandbox.bluesky!.appPassword);
    expect(await axeViolations(page)).toEqual([]);
    await shootBothWidths(page, 'sandbox-bluesky-connect');
    await form.getByRole('button', { name: 'Connect Bluesky' }).click();
    const row = page.locator('.account-row', { hasText: SANDBOX_BLUESKY_HANDLE });
    await row.getByText('Connected', { exact: true }).waitFor();
    const accounts = (await d.ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: d.tenant.headers })).json().accounts as Array<{ platform: string; username: string; isActive: boolean }>;
    expect(accounts).toMatchObject([{ platform: 'bluesky', username: SANDBOX_BLUESKY_HANDLE, isActive: true }]);
    await page.getByRole('region', { name: 'Account health' }).getByText('The account is healthy.').waitFor();
    await shootBothWidths(page, 'sandbox-bluesky-connected');
  });

  it('outside sandbox mode the form is empty and asks for an app password', async () => {
    const { page } = plain;
    await plain.signIn();
    await plain.nav().getByRole('link', { name: 'Profiles & accounts' }).click();
    await page.getByRole('region', { name: /Real brand/ }).getByRole('button', { name: 'Bluesky' }).click();
    const form = page.getByRole('form', { name: 'Connect Bluesky' });
    await form.getByText(/Use an app password/).waitFor();
    expect(await form.getByTestId('sandbox-bluesky').count()).toBe(0);
    expect(await form.getByLabel('Handle or email').inputValue()).toBe('');
    expect(await form.getByLabel('App password').inputValue()).toBe('');
  });
});
