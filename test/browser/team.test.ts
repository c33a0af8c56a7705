/**
 * Team invites in a real Chromium: the owner invites a member scoped to one profile on the
 * Team page, the invitee signs up at the invite link and lands in the owner's dashboard,
 * where only that profile's account can be seen and posted to (no API keys, no Team page).
 * Used and expired links get their own page. Screenshots at 1280 and 390 px.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, insertAccount } from '../support/app.ts';
import { answerConfirm, chromiumAvailable, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/team.test.ts');
let d: DashboardHarness;
let inviteUrl: string;
const member = { name: 'Mia Member', email: 'mia@agency.test', password: 'mia has a long password' };

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'owner@agency.test', password: 'owner has a long password', name: 'Olga Owner' },
    profile: 'Brand A', accounts: [{ platform: 'bluesky', username: 'brand-a.test' }], acceptDialogs: true,
  });
  const brandB = await createProfile(d.ctx, d.tenant, 'Brand B');
  await insertAccount(d.ctx, d.tenant, brandB, 'bluesky', { username: 'brand-b.test' });
}, 120_000);

afterAll(async () => { await d?.close(); });

describe.skipIf(!hasChromium)('team invites in the dashboard', () => {
  it('the owner invites a member scoped to one profile on the Team page', async () => {
    const { page } = d;
    await d.signIn();
    await d.nav().getByRole('link', { name: 'Team' }).click();
    await page.getByRole('heading', { name: 'Team', exact: true }).waitFor();
    await page.getByRole('radio', { name: 'Only these profiles:' }).check();
    await page.getByRole('checkbox', { name: 'Brand A' }).check();
    await page.getByRole('button', { name: 'Create invite link' }).click();
    inviteUrl = (await page.getByTestId('invite-url').textContent())!;
    expect(inviteUrl).toMatch(new RegExp(`^${d.base}/signup\\?inviteToken=[A-Za-z0-9_-]{43}$`));
    await page.getByText(/^Profiles: Brand A$/).waitFor();
    await shootBothWidths(page, 'team-invite');
    // Without Stripe configured, the Billing page shows the plan and no payment buttons.
    await d.nav().getByRole('link', { name: 'Billing' }).click();
    await page.getByText('Online payment is not set up on this server.').waitFor();
    expect(await page.getByRole('button', { name: /Continue to payment|Manage billing/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
  });

  it('the invitee signs up and sees and posts to only that profile', async () => {
    const { page } = d;
    await page.goto(inviteUrl);
    await page.getByRole('heading', { name: "Join Olga Owner's team" }).waitFor();
    expect(await page.getByTestId('invite-scope').textContent()).toContain('Brand A');
    await shootBothWidths(page, 'team-signup');
    await page.getByLabel('Name').fill(member.name);
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password').fill(member.password);
    await page.getByRole('button', { name: 'Join the team' }).click();
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    expect(page.url()).toBe(`${d.base}/dashboard/calendar`);

    // Members use the dashboard without API keys or the Team page.
    const links = await d.nav().getByRole('link').allTextContents();
    expect(links).not.toContain('API keys');
    expect(links).not.toContain('Team');
    expect(links).not.toContain('Billing');

    await d.nav().getByRole('link', { name: 'Profiles & accounts' }).click();
    await page.getByRole('heading', { name: 'Profiles & accounts' }).waitFor();
    await page.getByText('brand-a.test').first().waitFor();
    expect(await page.getByText('Brand B').count()).toBe(0);
    expect(await page.getByText('brand-b.test').count()).toBe(0);
    // A member scoped to some profiles is not offered a profile the API would refuse them.
    expect(await page.getByRole('button', { name: 'New profile' }).count()).toBe(0);
    await shootBothWidths(page, 'team-member-profiles');

    await d.nav().getByRole('link', { name: 'New post' }).click();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    expect(await page.getByRole('checkbox', { name: /brand-b\.test/ }).count()).toBe(0);
    await page.getByRole('checkbox', { name: /brand-a\.test/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('Posted by a team member');
    await page.getByRole('button', { name: 'Schedule post' }).click();
    await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
    const postId = page.url().split('/').pop()!;
    const { rows } = await d.ctx.db.query<{ created_by: string; email: string }>(
      'SELECT p.created_by, u.email FROM posts p JOIN users u ON u.id = p.created_by WHERE p.id = $1', [postId]);
    expect(rows[0].email).toBe(member.email);
  });

  it('the owner widens the member\'s access, then removes the member, whose session ends at once', async () => {
    const { page } = d;
    const session = (await page.context().cookies()).find((c) => c.name === 'herald_session')!;
    const asMember = (url: string) => d.ctx.app.inject({ method: 'GET', url, headers: { cookie: `herald_session=${session.value}` } });
    expect((await asMember('/v1/profiles')).json().profiles).toHaveLength(1);
    // The owner signs in in the same browser (the member's session stays open).
    await page.context().clearCookies();
    await d.signIn();
    await d.nav().getByRole('link', { name: 'Team' }).click();
    const card = page.getByTestId(`member-${member.email}`);
    await card.getByRole('button', { name: 'Change access' }).click();
    await card.getByRole('checkbox', { name: 'Brand B' }).check();
    await card.getByRole('button', { name: 'Save access' }).click();
    await card.getByText('Profiles: Brand A, Brand B').waitFor();
    expect((await asMember('/v1/profiles')).json().profiles.map((p: { name: string }) => p.name).sort()).toEqual(['Brand A', 'Brand B']);
    await shootBothWidths(page, 'team-members');

    await card.getByRole('button', { name: 'Remove' }).click();
    await answerConfirm(page, 'Remove');
    await card.waitFor({ state: 'detached' });
    expect((await asMember('/v1/profiles')).statusCode).toBe(401);
  });

  it('a used and an expired invite link each get a page that says so', async () => {
    const { page } = d;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.goto(inviteUrl);
    await page.getByRole('heading', { name: 'This invite has already been used' }).waitFor();

    const res = await d.ctx.app.inject({ method: 'POST', url: '/v1/invite/tokens', headers: d.tenant.headers, payload: { scope: 'all' } });
    const { token, inviteUrl: url } = res.json();
    await d.ctx.db.query("UPDATE team_invites SET expires_at = now() - interval '1 minute' WHERE token_hash = $1", [createHash('sha256').update(token).digest()]);
    await page.goto(url);
    await page.getByRole('heading', { name: 'This invite has expired' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/expired \(invites last 7 days\)/);
    await shootBothWidths(page, 'team-invite-expired');
  });
});
