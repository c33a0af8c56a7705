/**
 * Profile-scoped API keys in a real Chromium (decision 0063): the owner creates a key limited to
 * one profile on the API keys page; the list shows the key's profile, and the key reaches that
 * profile's account only. Screenshots at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, insertAccount } from '../support/app.ts';
import { chromiumAvailable, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/api-keys-scope.test.ts');
let d: DashboardHarness;
let brandB: string;

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'owner@keys.test', password: 'owner has a long password', name: 'Kim Owner' },
    profile: 'Brand A', accounts: [{ platform: 'bluesky', username: 'brand-a.test' }],
  });
  brandB = await createProfile(d.ctx, d.tenant, 'Brand B');
  await insertAccount(d.ctx, d.tenant, brandB, 'bluesky', { username: 'brand-b.test' });
}, 120_000);

afterAll(async () => { await d?.close(); });

describe.skipIf(!hasChromium)('API keys page: profile scope', () => {
  it('creates a key limited to one profile, shown in the list; the key reaches that profile only', async () => {
    const { page } = d;
    await d.signIn();
    await d.nav().getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByLabel('Name').fill('Brand A publisher');
    await page.getByRole('button', { name: 'All', exact: true }).click();
    const create = page.getByRole('button', { name: 'Create key' });
    await page.getByRole('radio', { name: 'Only these profiles:' }).check();
    // No profile chosen yet: nothing to create.
    expect(await create.isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: 'Brand A' }).check();
    await page.getByText(/sees and posts only to these profiles/).waitFor();
    await shootBothWidths(page, 'api-keys-scope-form');
    await create.click();
    const key = (await page.getByTestId('new-key').textContent())!;
    expect(key).toMatch(/^sk_/);
    const row = page.getByRole('row', { name: /Brand A publisher/ });
    await row.getByRole('cell', { name: 'Brand A', exact: true }).waitFor();
    await shootBothWidths(page, 'api-keys-scope-list');

    const asKey = { authorization: `Bearer ${key}` };
    const accounts = await d.ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: asKey });
    expect(accounts.json().accounts.map((a: { username: string }) => a.username)).toEqual(['brand-a.test']);
    expect((await d.ctx.app.inject({ method: 'GET', url: `/v1/profiles/${brandB}`, headers: asKey })).statusCode).toBe(404);
    const listed = (await d.ctx.app.inject({ method: 'GET', url: '/v1/api-keys', headers: d.tenant.headers })).json().apiKeys;
    expect(listed.find((k: { name: string }) => k.name === 'Brand A publisher')).toMatchObject({ scope: 'profiles', profileIds: [{ _id: d.profileId, name: 'Brand A' }] });
  });
});
