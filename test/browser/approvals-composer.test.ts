/**
 * Approvals from the composer and the post page in a real Chromium (docs/decisions/0059-approvals.md):
 * the owner subscribes a webhook to the approval events on the Webhooks page (its event list is the
 * server's, src/shared/webhook-events.ts); a team member composes a post in the UI on a profile that
 * requires approval, is told it will be sent for review, and the post is saved `pending_approval`
 * (the post.submitted event is queued for the webhook); the owner clicks Approve on the post page and
 * it is scheduled. "Needs review" shows every waiting post a page at a time. Screenshots at 1280 and 390 px wide; axe finds no serious violation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, chromiumAvailable, launch, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/approvals-composer.test.ts');

let d: DashboardHarness;
let page: Page;
const origin = { origin: 'http://localhost:80', host: 'localhost:80' };
const memberLogin = { email: 'nina@agency.test', password: 'nina has a long password' };
let memberHeaders: Record<string, string>;

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'omar@agency.test', password: 'a long owner password', name: 'Omar Owner' },
    profile: 'Client Cafe', accounts: [{ platform: 'bluesky', username: 'cafe.bsky.social' }],
    env: { HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' },
  });
  page = d.page;
  const rule = await d.ctx.app.inject({ method: 'PUT', url: `/v1/profiles/${d.profileId}/approval-rule`, headers: d.tenant.headers, payload: { required: true } });
  expect(rule.statusCode, rule.body).toBe(200);
  const tok = (await d.ctx.app.inject({ method: 'POST', url: '/v1/invite/tokens', headers: d.tenant.headers, payload: { scope: 'all' } })).json().token as string;
  const res = await d.ctx.app.inject({ method: 'POST', url: '/auth/signup', headers: origin, payload: { inviteToken: tok, name: 'Nina Member', ...memberLogin } });
  expect(res.statusCode, res.body).toBe(201);
  memberHeaders = { cookie: String(res.headers['set-cookie']).split(';')[0], 'x-csrf-token': res.json().csrfToken as string, ...origin };
}, 240_000);

afterAll(async () => { await d?.close(); });

/** No serious or critical axe-core violation on the page as it is. */
async function expectAccessible(p: Page, where: string) {
  expect((await axeViolations(p)).map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(' | ')})`), where).toEqual([]);
}

const postOf = async (id: string) => (await d.ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: d.tenant.headers })).json().post as { status: string };

describe.skipIf(!hasChromium)('a member composes for review, the owner approves on the post page', () => {
  it('the Webhooks page subscribes to the approval events', async () => {
    await d.signIn();
    await d.nav().getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
    await page.getByLabel('Name').fill('Approvals to Slack');
    await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/approvals');
    for (const name of ['Post submitted for approval', 'Post approved', 'Changes requested on a post', 'Comment on a post', 'A platform got a second copy']) {
      await page.getByRole('checkbox', { name: new RegExp(name) }).check();
    }
    await shootBothWidths(page, 'webhooks-approval-events');
    await expectAccessible(page, 'webhooks form with the approval events');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText('Webhook “Approvals to Slack” added.', { exact: false }).waitFor();
    const hooks = (await d.ctx.app.inject({ method: 'GET', url: '/v1/webhooks/settings', headers: d.tenant.headers })).json().webhooks;
    expect(hooks[0].events).toEqual(expect.arrayContaining(['post.submitted', 'post.approved', 'post.changes_requested', 'post.commented', 'post.platform.duplicate']));
  });

  it('the member is told the post goes for review and it waits; the owner clicks Approve and it is scheduled', async () => {
    const member = await launch({ viewport: { width: 1280, height: 900 } });
    let postId: string;
    try {
      const mp = await member.context.newPage();
      await mp.goto(`${d.base}/dashboard`);
      await mp.getByLabel('Email').fill(memberLogin.email);
      await mp.getByLabel('Password').fill(memberLogin.password);
      await mp.getByRole('button', { name: 'Sign in' }).click();
      await mp.getByRole('heading', { name: 'Calendar' }).waitFor();
      await mp.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'New post' }).click();
      await mp.getByRole('heading', { name: 'New post' }).waitFor();
      await mp.getByRole('checkbox', { name: /cafe\.bsky\.social/ }).check();
      await mp.getByLabel('Text', { exact: true }).fill('Pumpkin spice is back from Monday. ☕');
      const notice = mp.locator('#c-review');
      await notice.getByText('This post will be sent for review.').waitFor();
      await notice.getByText(/Client Cafe requires approval/).waitFor();
      await mp.getByText("Fits every selected platform's rules.").waitFor();
      await shootBothWidths(mp, 'composer-sent-for-review');
      await expectAccessible(mp, 'composer with the review notice');
      // A draft is not reviewed: no notice then.
      await mp.getByRole('radio', { name: /Save as draft/ }).check();
      expect(await notice.count()).toBe(0);
      await mp.getByRole('radio', { name: /^Schedule/ }).check();
      await mp.getByRole('button', { name: 'Send for review' }).click();
      await mp.waitForURL(/\/dashboard\/posts\/[0-9a-f]{24}$/);
      postId = mp.url().split('/').pop()!;
      await mp.getByText('Waiting for approval').first().waitFor();
      // The member may not decide.
      expect(await mp.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    } finally {
      await member.close();
    }
    expect((await postOf(postId)).status).toBe('pending_approval');
    const { rows } = await d.ctx.db.query<{ event: string }>(`SELECT event FROM webhook_deliveries WHERE payload->'post'->>'id' = $1`, [postId]);
    expect(rows.map((r) => r.event)).toEqual(['post.submitted']);

    // The owner, on the post page.
    await page.goto(`${d.base}/dashboard/posts/${postId}`);
    await page.getByRole('heading', { name: 'Review' }).waitFor();
    await page.getByText('Waiting for approval').first().waitFor();
    await shootBothWidths(page, 'post-page-approve');
    await expectAccessible(page, 'post page waiting for approval');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Approved', { exact: true }).first().waitFor();
    // The notice gives the time as the dashboard writes times, not the API's UTC instant.
    const notice = await page.locator('.ui-toast-body', { hasText: 'Post approved' }).first().innerText();
    expect(notice).toMatch(/it publishes at \w{3} \d{1,2}, \d{4}/);
    expect(notice).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    await expect.poll(async () => (await postOf(postId)).status).toBe('scheduled');
    await page.getByText(/Omar Owner\s+approved it/).waitFor();
    await shootBothWidths(page, 'post-page-approved');
    const review = (await d.ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}/approval`, headers: d.tenant.headers })).json().approval;
    expect(review.events.map((e: { kind: string }) => e.kind)).toEqual(['submitted', 'approved']);
  });

  it('"Needs review" pages through more posts than fit on a page, with the total', async () => {
    for (let i = 1; i <= 52; i++) {
      const res = await d.ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: memberHeaders, payload: {
        content: `Waiting post number ${i}`, scheduledFor: new Date(Date.UTC(2031, 0, 1, 9) + i * 3_600_000).toISOString(),
        platforms: [{ platform: 'bluesky', accountId: d.accounts['cafe.bsky.social'] }] } });
      expect(res.json().post?.status, res.body).toBe('pending_approval');
    }
    await d.nav().getByRole('link', { name: 'Needs review' }).click();
    await page.getByRole('heading', { name: 'Needs review' }).waitFor();
    await page.getByText('52 posts wait.').waitFor();
    const pager = page.getByRole('navigation', { name: 'Pages of posts waiting for review' });
    await pager.getByText('Page 1 of 2 (52 posts)').waitFor();
    expect(await page.locator('.review-item').count()).toBe(50);
    // Soonest first: the first page holds posts 1 to 50.
    expect(await page.locator('.review-item .post-content').first().textContent()).toBe('Waiting post number 1');
    expect(await page.locator('.review-item .post-content').last().textContent()).toBe('Waiting post number 50');
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Page 2 of 2 (52 posts)').waitFor();
    expect(page.url()).toMatch(/\/dashboard\/review\?page=2$/);
    await page.locator('.review-item', { hasText: 'Waiting post number 52' }).waitFor();
    expect(await page.locator('.review-item .post-content').allTextContents()).toEqual(['Waiting post number 51', 'Waiting post number 52']);
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await shootBothWidths(page, 'needs-review-page-2');
    await expectAccessible(page, 'needs review, page 2');
    await pager.getByRole('button', { name: 'Previous' }).click();
    await pager.getByText('Page 1 of 2 (52 posts)').waitFor();
  });
});
