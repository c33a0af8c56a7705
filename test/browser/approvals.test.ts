/**
 * Approvals in a real Chromium against the real app (docs/decisions/0059-approvals.md): the owner
 * turns approval on for a profile on the Profiles page; a member's post waits in "Needs review";
 * the owner leaves an internal note and makes a client review link on the post page; a second
 * browser with no Herald login opens the link, sees the post as it will look on its platform, and
 * approves it; another post is sent back with a comment from "Needs review". Screenshots at 1280
 * and 390 px wide.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, chromiumAvailable, fillDate, launch, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/approvals.test.ts');

let d: DashboardHarness;
let page: Page;
const origin = { origin: 'http://localhost:80', host: 'localhost:80' };

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'olga@agency.test', password: 'a long owner password', name: 'Olga Owner' },
    profile: 'Client Bakery', accounts: [{ platform: 'bluesky', username: 'bakery.bsky.social' }], acceptDialogs: true,
  });
  page = d.page;
}, 240_000);

afterAll(async () => { await d?.close(); });

/** No serious or critical axe-core violation on the page as it is. */
async function expectAccessible(p: Page, where: string) {
  expect((await axeViolations(p)).map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(' | ')})`), where).toEqual([]);
}

/** A team member (signed up through an invite) as request headers of their session. */
async function memberHeaders() {
  const tok = (await d.ctx.app.inject({ method: 'POST', url: '/v1/invite/tokens', headers: d.tenant.headers, payload: { scope: 'all' } })).json().token as string;
  const res = await d.ctx.app.inject({ method: 'POST', url: '/auth/signup', headers: origin, payload: { inviteToken: tok, name: 'Mia Member', email: 'mia@agency.test', password: 'mia has a long password' } });
  expect(res.statusCode, res.body).toBe(201);
  return { cookie: String(res.headers['set-cookie']).split(';')[0], 'x-csrf-token': res.json().csrfToken as string, ...origin };
}

describe.skipIf(!hasChromium)('approvals in the dashboard and the client review page', () => {
  it('owner turns approval on, a member\'s post waits, the client approves it through the link with no login', async () => {
    await d.signIn();
    await d.nav().getByRole('link', { name: 'Profiles & accounts' }).click();
    await page.getByRole('heading', { name: 'Profiles & accounts' }).waitFor();
    await page.getByText('Off: members publish without review.').waitFor();
    await page.getByRole('button', { name: 'Change approvals' }).click();
    await page.getByLabel('Require approval before members\' posts go out').check();
    await page.getByLabel('The client may approve through a review link').check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(/Posts by members wait for approval by the owner; the client may approve through a review link/).waitFor();

    const member = await memberHeaders();
    // The owner names the new member an approver too.
    await page.reload();
    await page.getByRole('button', { name: 'Change approvals' }).click();
    await page.getByLabel('Mia Member').check();
    await shootBothWidths(page, 'approvals-profile-rule-edit');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(/approvers: the owner and 1 member/).waitFor();
    await shootBothWidths(page, 'approvals-profile-rule');
    const rule = (await d.ctx.app.inject({ method: 'GET', url: `/v1/profiles/${d.profileId}/approval-rule`, headers: d.tenant.headers })).json().rule;
    expect(rule).toMatchObject({ required: true, clientApproval: true, approverIds: [expect.any(String)] });
    // Mia may approve now, so her posts would not wait: she is no approver again for the rest of the story.
    await d.ctx.app.inject({ method: 'PUT', url: `/v1/profiles/${d.profileId}/approval-rule`, headers: d.tenant.headers, payload: { required: true, clientApproval: true } });
    const accountId = d.accounts['bakery.bsky.social'];
    const make = async (content: string, scheduledFor: string) => {
      const res = await d.ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: member, payload: { content, scheduledFor, platforms: [{ platform: 'bluesky', accountId }] } });
      expect(res.json().post.status, res.body).toBe('pending_approval');
      return res.json().post._id as string;
    };
    const postId = await make('Fresh sourdough every Saturday morning! Come early, the rye goes fast. 🥖', '2031-04-05T08:00:00Z');
    const second = await make('Closed on Monday for inventory.', '2031-04-07T08:00:00Z');

    await d.nav().getByRole('link', { name: 'Needs review' }).click();
    await page.getByRole('heading', { name: 'Needs review' }).waitFor();
    await page.getByText('Fresh sourdough every Saturday').waitFor();
    await page.getByText('Closed on Monday').waitFor();
    await shootBothWidths(page, 'approvals-needs-review');
    await expectAccessible(page, 'needs review');

    // Request changes on the second post from the list.
    const item = page.locator('.review-item', { hasText: 'Closed on Monday' });
    await item.getByRole('button', { name: 'Request changes' }).click();
    await item.getByLabel('What should change?').fill('Say which Monday, please.');
    await item.getByRole('button', { name: 'Send back with comment' }).click();
    await page.locator('.review-item', { hasText: 'Closed on Monday' }).waitFor({ state: 'detached' });
    const back = (await d.ctx.app.inject({ method: 'GET', url: `/v1/posts/${second}/approval`, headers: d.tenant.headers })).json().approval;
    expect(back.state).toBe('changes_requested');
    expect(back.events.at(-1).comment).toBe('Say which Monday, please.');

    // The post page: review panel, internal note, client link.
    await page.locator('.review-item', { hasText: 'Fresh sourdough' }).getByRole('link', { name: 'Open the post' }).click();
    await page.getByRole('heading', { name: 'Review' }).waitFor();
    await page.getByText('Waiting for approval').waitFor();
    await page.getByLabel('Internal note').fill('Client wants the rye mentioned: done.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.locator('.comment', { hasText: 'Client wants the rye mentioned' }).waitFor();
    await page.getByRole('button', { name: 'Create a client review link' }).click();
    const url = await page.getByLabel('Client review link').inputValue();
    expect(url).toMatch(new RegExp(`^${d.base}/review/[A-Za-z0-9_-]{43}$`));
    await shootBothWidths(page, 'approvals-post-page');
    await expectAccessible(page, 'post page with its review');

    // The client: another browser, never signed in.
    const client = await launch({ viewport: { width: 1280, height: 900 } });
    try {
      const cp = await client.context.newPage();
      await cp.goto(url);
      await cp.getByRole('heading', { name: 'Posts for Client Bakery' }).waitFor();
      await cp.getByRole('article', { name: 'Bluesky preview' }).getByText('Fresh sourdough every Saturday').waitFor();
      await cp.getByText('Waiting for your approval').waitFor();
      // The internal note never reaches the client.
      expect(await cp.getByText('Client wants the rye mentioned').count()).toBe(0);
      await shootBothWidths(cp, 'approvals-client-review');
      await expectAccessible(cp, 'client review page');
      await cp.getByLabel('Your name').fill('Carla from the Bakery');
      await cp.getByLabel('Comment or requested changes').fill('Perfect, thank you!');
      await cp.getByRole('button', { name: 'Approve' }).click();
      await cp.getByText('Approved', { exact: true }).waitFor();
      await cp.locator('.comment', { hasText: 'Carla from the Bakery' }).waitFor();
      await shootBothWidths(cp, 'approvals-client-approved');
      expect(await client.context.cookies(d.base)).toEqual([]);
    } finally {
      await client.close();
    }

    const post = (await d.ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}`, headers: d.tenant.headers })).json().post;
    expect(post).toMatchObject({ status: 'scheduled', scheduledFor: '2031-04-05T08:00:00.000Z' });
    await page.reload();
    await page.getByText('Carla from the Bakery').first().waitFor();
    await page.getByText('Approved', { exact: true }).waitFor();

    // A week link from "Needs review": the client sees that week's reviewed posts; the owner revokes it.
    await d.nav().getByRole('link', { name: 'Needs review' }).click();
    await page.getByText('Nothing waits for review.').waitFor();
    await fillDate(page, 'Week starting', '2031-04-01');
    await page.getByRole('button', { name: 'Create week link' }).click();
    const weekUrl = await page.getByLabel('Week review link').inputValue();
    await page.locator('.review-link-row', { hasText: 'week of Apr 1, 2031' }).waitFor();
    await shootBothWidths(page, 'approvals-review-links');
    const week = (await d.ctx.app.inject({ method: 'GET', url: `/review-api/${new URL(weekUrl).pathname.split('/').pop()}` })).json();
    expect(week.posts.map((p: { _id: string }) => p._id)).toEqual([postId, second]);
    expect(week.posts.map((p: { review: { state: string } }) => p.review.state)).toEqual(['approved', 'changes_requested']);
    await page.locator('.review-link-row', { hasText: 'week of Apr 1, 2031' }).getByRole('button', { name: /^Revoke/ }).click();
    await page.locator('.ui-dialog[role="alertdialog"]').getByRole('button', { name: 'Revoke link', exact: true }).click();
    await page.locator('.review-link-row', { hasText: 'week of Apr 1, 2031' }).getByText('revoked').waitFor();
    expect((await d.ctx.app.inject({ method: 'GET', url: new URL(weekUrl).pathname.replace('/review/', '/review-api/') })).statusCode).toBe(404);
  });
});
