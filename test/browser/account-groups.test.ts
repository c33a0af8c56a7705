/**
 * The Account groups page in a real Chromium (decision 0070): create a group of accounts from two
 * profiles, rename it and change its accounts, a name in use refused, delete it; the composer
 * adds the group's accounts from both profiles and the post is saved with a target on each.
 * Screenshots at 1280 and 390 px; axe finds no serious violation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, insertAccount } from '../support/app.ts';
import { answerConfirm, axeViolations, chromiumAvailable, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/account-groups.test.ts');
let d: DashboardHarness;
let cafe: string;
let cafeThreads: string;

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'owner@groups.test', password: 'a long account groups password', name: 'Gil Groups' },
    profile: 'Bakery', accounts: [{ platform: 'bluesky', username: 'bakery.bsky.social' }, { platform: 'twitter', username: 'bakery_x' }],
  });
  cafe = await createProfile(d.ctx, d.tenant, 'Corner Cafe');
  cafeThreads = await insertAccount(d.ctx, d.tenant, cafe, 'threads', { username: 'corner_cafe' });
}, 120_000);

afterAll(async () => { await d?.close(); });

const groupsOf = async () => (await d.ctx.app.inject({ method: 'GET', url: '/v1/account-groups', headers: d.tenant.headers })).json().groups as Array<{ _id: string; name: string; accountIds: string[] }>;

describe.skipIf(!hasChromium)('account groups page', () => {
  it('creates a group across two profiles, renames it and changes its accounts, refuses a name in use', async () => {
    const { page } = d;
    await d.signIn();
    await d.nav().getByRole('link', { name: 'Account groups' }).click();
    await page.getByRole('heading', { name: 'Account groups', level: 1 }).waitFor();
    await page.getByText('No account groups yet.').waitFor();

    await page.getByLabel('Name').fill('Weekend specials');
    await page.getByRole('group', { name: 'Bakery' }).getByRole('checkbox', { name: /bakery_x/ }).check();
    await page.getByRole('group', { name: 'Corner Cafe' }).getByRole('checkbox', { name: /corner_cafe/ }).check();
    await page.getByText('2 accounts chosen in 2 profiles.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shootBothWidths(page, 'account-groups-form');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('status').filter({ hasText: 'Group “Weekend specials” created' }).waitFor();
    const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Weekend specials' }) });
    await item.getByRole('list', { name: 'Accounts of Weekend specials' }).getByText('@corner_cafe').waitFor();
    expect(await groupsOf()).toEqual([expect.objectContaining({ name: 'Weekend specials', accountIds: [d.accounts.bakery_x, cafeThreads] })]);

    // Edit: the form holds the group; rename it and add the Bluesky account.
    await item.getByRole('button', { name: 'Edit Weekend specials' }).click();
    await page.getByRole('heading', { name: 'Edit group' }).waitFor();
    expect(await page.getByRole('group', { name: 'Corner Cafe' }).getByRole('checkbox', { name: /corner_cafe/ }).isChecked()).toBe(true);
    await page.getByLabel('Name').fill('Weekend');
    await page.getByRole('group', { name: 'Bakery' }).getByRole('checkbox', { name: /bakery\.bsky\.social/ }).check();
    await page.getByRole('button', { name: 'Save group' }).click();
    await page.getByRole('status').filter({ hasText: 'Group “Weekend” saved.' }).waitFor();
    expect(await groupsOf()).toEqual([expect.objectContaining({ name: 'Weekend', accountIds: [d.accounts.bakery_x, cafeThreads, d.accounts['bakery.bsky.social']] })]);

    // A second group under the same name (any case): the API's 409, said on the form.
    await page.getByLabel('Name').fill('weekend');
    await page.getByRole('group', { name: 'Bakery' }).getByRole('checkbox', { name: /bakery_x/ }).check();
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('alert').filter({ hasText: 'Could not save the group' }).getByText(/exists already/).waitFor();
    await page.getByLabel('Name').fill('Bakery only');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('status').filter({ hasText: 'Group “Bakery only” created' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shootBothWidths(page, 'account-groups-list');
  });

  it('the composer adds every account of the group, from both profiles, and the post goes to all three', async () => {
    const { page } = d;
    await d.nav().getByRole('link', { name: 'New post' }).click();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    await page.getByLabel(/Add an account group/).selectOption({ label: 'Weekend (3)' });
    await page.getByRole('status').filter({ hasText: 'Weekend: 3 accounts added (1 from other profiles)' }).waitFor();
    const others = page.getByRole('group', { name: 'Also in other profiles' });
    expect(await others.getByRole('checkbox', { name: /corner_cafe.*Corner Cafe/ }).isChecked()).toBe(true);
    await page.getByLabel('Text', { exact: true }).fill('Almond croissants and flat whites all weekend');
    await page.getByRole('region', { name: 'Checks' }).getByText("Fits every selected platform's rules.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shootBothWidths(page, 'composer-group-across-profiles');
    await page.getByRole('button', { name: 'Schedule post' }).click();
    await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
    const id = page.url().split('/').pop()!;
    const post = (await d.ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: d.tenant.headers })).json().post as { platforms: Array<{ accountId: string | { _id: string } }> };
    expect(post.platforms.map((t) => (typeof t.accountId === 'string' ? t.accountId : t.accountId._id)).sort()).toEqual([d.accounts.bakery_x, d.accounts['bakery.bsky.social'], cafeThreads].sort());
  });

  it('deletes a group; its accounts stay connected', async () => {
    const { page } = d;
    await d.nav().getByRole('link', { name: 'Account groups' }).click();
    const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Bakery only' }) });
    await item.getByRole('button', { name: 'Delete Bakery only' }).click();
    await answerConfirm(page, 'Delete group');
    await page.getByRole('status').filter({ hasText: 'Group “Bakery only” deleted' }).waitFor();
    expect((await groupsOf()).map((g) => g.name)).toEqual(['Weekend']);
    const accounts = (await d.ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: d.tenant.headers })).json().accounts as unknown[];
    expect(accounts).toHaveLength(3);
  });
});
