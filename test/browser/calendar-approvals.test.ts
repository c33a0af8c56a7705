/**
 * Approving from the calendar in a real Chromium against the real app (decision 0064): posts a
 * member submitted for approval stand out on the calendar ("Review", dashed outline); the owner
 * clicks one and approves it in the in-app dialog, then sends another back with a comment, without
 * leaving the calendar; a member who may not approve sees the dialog without the decision buttons.
 * Screenshots at 1280 and 390 px wide (calendar-approvals-*, calendar-review-dialog-*).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, chromiumAvailable, launch, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/calendar-approvals.test.ts');

let d: DashboardHarness;
let page: Page;
const origin = { origin: 'http://localhost:80', host: 'localhost:80' };
const memberLogin = { email: 'theo@agency.test', password: 'theo has a long password' };
let member: Record<string, string>;

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'rita@agency.test', password: 'a long owner password', name: 'Rita Owner' },
    profile: 'Client Florist', accounts: [{ platform: 'bluesky', username: 'florist.bsky.social' }],
  });
  page = d.page;
  const rule = await d.ctx.app.inject({ method: 'PUT', url: `/v1/profiles/${d.profileId}/approval-rule`, headers: d.tenant.headers, payload: { required: true } });
  expect(rule.statusCode, rule.body).toBe(200);
  const tok = (await d.ctx.app.inject({ method: 'POST', url: '/v1/invite/tokens', headers: d.tenant.headers, payload: { scope: 'all' } })).json().token as string;
  const res = await d.ctx.app.inject({ method: 'POST', url: '/auth/signup', headers: origin, payload: { inviteToken: tok, name: 'Theo Member', ...memberLogin } });
  expect(res.statusCode, res.body).toBe(201);
  member = { cookie: String(res.headers['set-cookie']).split(';')[0], 'x-csrf-token': res.json().csrfToken as string, ...origin };
}, 240_000);

afterAll(async () => { await d?.close(); });

/** `days` days from today (UTC, tomorrow by default) at `hour`:00, and whether it falls in next month (the calendar opens on this one). */
function tomorrowAt(hour: number, days = 1) {
  const now = new Date();
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days, hour));
  return { iso: at.toISOString(), nextMonth: at.getUTCMonth() !== now.getUTCMonth() };
}

async function post(headers: Record<string, string>, content: string, scheduledFor: string) {
  const res = await d.ctx.app.inject({ method: 'POST', url: '/v1/posts', headers, payload: { content, scheduledFor, platforms: [{ platform: 'bluesky', accountId: d.accounts['florist.bsky.social'] }] } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().post as { _id: string; status: string };
}

/** The computed outline style of a chip (in the page; the tests' types have no DOM). */
const outlineOf = (p: Page, id: string) => chip(p, id).evaluate((e) =>
  (globalThis as unknown as { getComputedStyle(el: unknown): { outlineStyle: string } }).getComputedStyle(e).outlineStyle);
const chip = (p: Page, id: string) => p.locator(`.cal-month [data-post-id="${id}"]`);
const statusOf = async (id: string) => (await d.ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: d.tenant.headers })).json().post.status as string;

describe.skipIf(!hasChromium)('approve and request changes from the calendar', () => {
  it('pending posts stand out; the owner approves one and sends one back in the dialog; a member sees no buttons', async () => {
    const morning = tomorrowAt(9);
    const bouquet = await post(member, 'Autumn bouquets are here: dahlias, rosehips and eucalyptus. Order by Friday!', morning.iso);
    const closed = await post(member, 'We are closed on Sunday for a wedding.', tomorrowAt(13).iso);
    const own = await post(d.tenant.headers, 'Owner\'s own post, no review needed.', tomorrowAt(11).iso);
    expect([bouquet.status, closed.status, own.status]).toEqual(['pending_approval', 'pending_approval', 'scheduled']);

    await d.signIn();
    if (morning.nextMonth) await page.getByRole('button', { name: 'Next month' }).click();
    await chip(page, bouquet._id).waitFor();
    // Distinct: the flag in words and the dashed outline; the owner's scheduled post has neither.
    await expect.poll(() => chip(page, bouquet._id).locator('.chip-flag').textContent()).toBe('Review');
    expect(await outlineOf(page, bouquet._id)).toBe('dashed');
    expect(await chip(page, own._id).locator('.chip-flag').count()).toBe(0);
    expect(await outlineOf(page, own._id)).not.toBe('dashed');
    expect(await chip(page, bouquet._id).getAttribute('aria-haspopup')).toBe('dialog');
    await shootBothWidths(page, 'calendar-approvals');

    // Approve with a comment, in the dialog.
    await chip(page, bouquet._id).click();
    const dialog = page.getByRole('dialog', { name: 'Review post' });
    await dialog.getByText('Autumn bouquets are here').waitFor();
    await dialog.getByRole('button', { name: 'Approve' }).waitFor();
    expect(page.url()).toMatch(/\/dashboard\/?$|\/calendar/); // still on the calendar
    expect((await axeViolations(page)).map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(' | ')})`)).toEqual([]);
    await shootBothWidths(page, 'calendar-review-dialog');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => statusOf(bouquet._id)).toBe('scheduled');
    await expect.poll(() => chip(page, bouquet._id).locator('.chip-flag').count()).toBe(0);

    // Request changes: the comment is required.
    await chip(page, closed._id).click();
    await dialog.getByRole('button', { name: 'Request changes' }).click();
    const send = dialog.getByRole('button', { name: 'Send back with comment' });
    expect(await send.isDisabled()).toBe(true);
    await dialog.getByLabel('What should change?').fill('Say which Sunday, please.');
    await shootBothWidths(page, 'calendar-review-dialog-changes');
    await send.click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => statusOf(closed._id)).toBe('draft');
    const review = (await d.ctx.app.inject({ method: 'GET', url: `/v1/posts/${closed._id}/approval`, headers: d.tenant.headers })).json().approval;
    expect(review.events.at(-1)).toMatchObject({ kind: 'changes_requested', comment: 'Say which Sunday, please.', actor: { name: 'Rita Owner' } });

    // A member who may not approve: the dialog, no decision buttons.
    // On another day: a month day shows three posts, the rest behind "+N more".
    const later = tomorrowAt(10, 2);
    const third = await post(member, 'Mother\'s day pre-orders open.', later.iso);
    const other = await launch({ viewport: { width: 1280, height: 900 } });
    try {
      const mp = await other.context.newPage();
      await mp.goto(`${d.base}/dashboard`);
      await mp.getByLabel('Email').fill(memberLogin.email);
      await mp.getByLabel('Password').fill(memberLogin.password);
      await mp.getByRole('button', { name: 'Sign in' }).click();
      await mp.getByRole('heading', { name: 'Calendar' }).waitFor();
      if (later.nextMonth) await mp.getByRole('button', { name: 'Next month' }).click();
      await chip(mp, third._id).click();
      const md = mp.getByRole('dialog', { name: 'Review post' });
      await md.getByText(/An approver of this profile decides/).waitFor();
      expect(await md.getByRole('button', { name: 'Approve' }).count()).toBe(0);
      expect(await md.getByRole('button', { name: 'Request changes' }).count()).toBe(0);
      await shootBothWidths(mp, 'calendar-review-dialog-member');
    } finally {
      await other.close();
    }
    expect(await statusOf(third._id)).toBe('pending_approval');
  });

  it('the post page shows a target\'s own time (per-target scheduledFor), and an @mention in a note', async () => {
    const own = tomorrowAt(18, 3).iso;
    const res = await d.ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: d.tenant.headers, payload: {
      content: 'Two times', scheduledFor: tomorrowAt(8, 3).iso, platforms: [{ platform: 'bluesky', accountId: d.accounts['florist.bsky.social'], scheduledFor: own }] } });
    expect(res.statusCode, res.body).toBe(201);
    await page.goto(`${d.base}/dashboard/posts/${res.json().post._id}`);
    await page.locator('.target-own-time').getByText(/Its own time: .*6:00\sPM \(UTC\)/).waitFor();
    // An @mention typed in the note names the teammate (no checkbox needed).
    await page.getByLabel('Internal note').fill('@Theo Member can you add the price?');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.locator('.comment', { hasText: 'can you add the price' }).getByText('Mentioned: Theo Member').waitFor();
    await shootBothWidths(page, 'post-target-time-and-mention');
  });
});
