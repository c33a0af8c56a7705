/**
 * Platform invites in a real Chromium against the real app in sandbox mode (decision 0037): a client
 * with no Herald login opens the invite link, connects an X account through the X simulator's
 * consent step and lands on "Connected, you can close this page"; the account is then under the
 * invite's profile and the browser holds no Herald cookie. A Facebook invite's page choice runs
 * on the invite page too. A revoked link and an expired link each show a page saying so. Screenshots at 1280 and 390 px wide.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';
import { freePort } from '../support/net.ts';
import { chromiumAvailable, launch, shootBothWidths, type Browser } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/platform-invites.test.ts');

let sandbox: Sandbox;
let ctx: TestContext;
let browser: Browser;
let page: Page;
let base: string;
let owner: Tenant;

beforeAll(async () => {
  if (!hasChromium) return;
  sandbox = await startSandbox({ bluesky: false });
  const port = await freePort();
  ctx = await createTestApp({ listen: true, env: { PORT: String(port), HERALD_SANDBOX: 'on' }, deps: { sandbox } });
  base = `http://127.0.0.1:${port}`;
  owner = await createTenant(ctx, { email: 'agency@herald.test' });
  await ctx.db.query(`UPDATE users SET name = 'Ada Agency' WHERE id = $1`, [owner.userId]);
  browser = await launch({ viewport: { width: 1280, height: 900 } });
  page = await browser.context.newPage();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await ctx?.close();
  await sandbox?.close();
});

async function invite(profileId: string, platform: string) {
  const res = await ctx.app.inject({ method: 'POST', url: '/v1/platform-invites', headers: owner.headers, payload: { profileId, platform } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().invite as { _id: string; inviteUrl: string };
}

describe.skipIf(!hasChromium)('platform invites in the browser (no login)', () => {
  it('connects an X account through the simulator and ends on the connected screen', async () => {
    const profileId = await createProfile(ctx, owner, 'Bakery & Co');
    const inv = await invite(profileId, 'twitter');
    expect(inv.inviteUrl.startsWith(base)).toBe(true);

    await page.goto(inv.inviteUrl);
    await page.getByRole('heading', { name: 'Connect your X (Twitter) account' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('Ada Agency (agency@herald.test) invited you to connect your X (Twitter) account to Bakery & Co.');
    await shootBothWidths(page, 'platform-invite-open');

    await page.getByRole('button', { name: 'Continue to X (Twitter)' }).click();
    await page.getByRole('heading', { name: 'Connected, you can close this page' }).waitFor();
    expect(page.url().startsWith(`${inv.inviteUrl}?connected=twitter`)).toBe(true);
    const text = await page.locator('main').innerText();
    expect(text).toMatch(/Your X \(Twitter\) account .*@\S+.* is connected to Bakery & Co\./s);
    await shootBothWidths(page, 'platform-invite-connected');

    const accounts = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: owner.headers })).json().accounts;
    expect(accounts).toEqual([expect.objectContaining({ platform: 'twitter', profileId, isActive: true })]);
    // The visitor got nothing from Herald to keep: no cookie, so the dashboard asks for a sign-in.
    expect(await browser.context.cookies(base)).toEqual([]);
    expect((await page.request.get(`${base}/v1/accounts`)).status()).toBe(401);

    // Opening the link again shows it used; it cannot connect a second account.
    await page.goto(inv.inviteUrl);
    await page.getByRole('heading', { name: 'This invite has already been used' }).waitFor();
    expect(await page.getByRole('button').count()).toBe(0);
  });

  it('lets the client choose the Facebook page on the invite page', async () => {
    const profileId = await createProfile(ctx, owner, 'Page Client');
    const inv = await invite(profileId, 'facebook');
    await page.goto(inv.inviteUrl);
    await page.getByRole('button', { name: 'Continue to Facebook' }).click();
    await page.getByRole('heading', { name: 'Choose the Facebook page' }).waitFor();
    expect(await page.getByRole('radio').count()).toBe(2); // pages the user may publish to; 'Someone Else's Page' is not offered
    await shootBothWidths(page, 'platform-invite-facebook-select');
    await page.getByRole('radio', { name: /Herald Books/ }).check();
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('heading', { name: 'Connected, you can close this page' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('Herald Books');
    const accounts = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: owner.headers })).json().accounts;
    expect(accounts).toEqual([expect.objectContaining({ platform: 'facebook', selectedPageName: 'Herald Books' })]);
  });

  it('shows a revoked link as not valid and an expired one as expired', async () => {
    const profileId = await createProfile(ctx, owner, 'Revoked Brand');
    const revoked = await invite(profileId, 'linkedin');
    const del = await ctx.app.inject({ method: 'DELETE', url: `/v1/platform-invites?id=${revoked._id}`, headers: owner.headers });
    expect(del.statusCode).toBe(200);
    const res = await page.goto(revoked.inviteUrl);
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { name: 'This invite link is not valid' }).waitFor();
    await shootBothWidths(page, 'platform-invite-revoked');

    const expired = await invite(profileId, 'facebook');
    await ctx.db.query(`UPDATE platform_invites SET expires_at = now() - interval '1 hour' WHERE id = $1`, [expired._id]);
    const res2 = await page.goto(expired.inviteUrl);
    expect(res2?.status()).toBe(410);
    await page.getByRole('heading', { name: 'This invite has expired' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('Ask Ada Agency for a new link.');
    expect(await page.getByRole('button').count()).toBe(0);
    await shootBothWidths(page, 'platform-invite-expired');
  });
});
