/**
 * The post page's Recycle section in a real Chromium against the real app (docs/decisions/0061-recycling.md):
 * set up recycling on an X post (refused without variations, naming the rule; saved with two), pause and
 * resume, the job's copy linking back to its source, and stop. Screenshots at 1280 and 390 px wide.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, chromiumAvailable, fillDate, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/recycling.test.ts');

let d: DashboardHarness;
let page: Page;

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'rita@evergreen.test', password: 'a long owner password', name: 'Rita Recycler' },
    profile: 'Evergreen', accounts: [{ platform: 'twitter', username: 'evergreen_x' }],
  });
  page = d.page;
}, 240_000);

afterAll(async () => { await d?.close(); });

async function expectAccessible(p: Page, where: string) {
  expect((await axeViolations(p)).map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(' | ')})`), where).toEqual([]);
}

const recycle = () => page.locator('section.recycle');

describe.skipIf(!hasChromium)('the Recycle section of a post', () => {
  it('sets up, refuses X without variations, pauses, resumes, shows the copy and stops', async () => {
    await d.signIn();
    const accountId = d.accounts.evergreen_x;
    const res = await d.ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: d.tenant.headers, payload: {
      content: 'Our beginner\'s guide to composting, still the most read page on the site.', scheduledFor: '2031-04-05T08:00:00Z', platforms: [{ platform: 'twitter', accountId }],
    } });
    expect(res.statusCode, res.body).toBe(201);
    const postId = res.json().post._id as string;
    await page.goto(`${d.base}/dashboard/posts/${postId}`);
    await page.getByRole('heading', { name: 'Recycle' }).waitFor();
    await recycle().getByRole('button', { name: 'Set up recycling' }).click();
    await page.getByLabel('Every').fill('2');
    await page.getByLabel('Unit').selectOption('week');
    await page.getByLabel('Stop after (copies)').fill('6');
    // The end day: saved as its last minute in the dashboard's zone (UTC here), as from the native date input before.
    await fillDate(page, 'Stop after (date)', '2031-12-31');
    await page.getByText('X refuses duplicate posts: give at least 2 variations.').waitFor();
    await recycle().getByRole('button', { name: 'Save', exact: true }).click();
    // Refused by the server, naming the rule.
    await recycle().getByRole('alert').getByText(/twitter\.recycling\.duplicate_content/).waitFor();
    await shootBothWidths(page, 'recycling-refused');

    await recycle().getByRole('button', { name: 'Add variation' }).click();
    await page.getByLabel('Variation 1').fill('Composting 101: the guide our readers keep coming back to.');
    await recycle().getByRole('button', { name: 'Add variation' }).click();
    await page.getByLabel('Variation 2').fill('New to composting? Start with this guide.');
    await recycle().getByRole('button', { name: 'Save', exact: true }).click();
    await recycle().getByText('Every 2 weeks').waitFor();
    await recycle().getByText('Active').waitFor();
    await recycle().getByText('0 of 6').waitFor();
    await recycle().getByText('(once this post is published)').waitFor();
    await expectAccessible(page, 'post page with recycling');
    await shootBothWidths(page, 'recycling-active');
    const saved = (await d.ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}`, headers: d.tenant.headers })).json().post.recycling;
    expect(saved).toMatchObject({ enabled: true, gap: 2, gapFreq: 'week', expireCount: 6, contentVariations: ['Composting 101: the guide our readers keep coming back to.', 'New to composting? Start with this guide.'], nextRecycleAt: '2031-04-19T08:00:00.000Z', expireDate: '2031-12-31T23:59:00.000Z' });

    await recycle().getByRole('button', { name: 'Pause' }).click();
    await recycle().getByText('Paused').waitFor();
    await shootBothWidths(page, 'recycling-paused');
    await recycle().getByRole('button', { name: 'Resume' }).click();
    await recycle().getByText('Active').waitFor();

    // Published; its due time comes; the job makes a copy, which links back to its source.
    await d.ctx.db.query(`UPDATE post_targets SET status = 'published', run_at = NULL, platform_post_id = '1', published_at = now() WHERE post_id = $1`, [postId]);
    await d.ctx.db.query(`UPDATE posts SET status = 'published', published_at = now(), recycle_next_at = now() - interval '1 minute' WHERE id = $1`, [postId]);
    expect((await d.ctx.services.posts.recycleDue()).created).toBe(1);
    const { rows: [copy] } = await d.ctx.db.query<{ id: string }>('SELECT id FROM posts WHERE recycled_from_post_id = $1', [postId]);
    await page.goto(`${d.base}/dashboard/posts/${copy.id}`);
    await page.getByText('Composting 101: the guide our readers keep coming back to.').first().waitFor();
    await recycle().getByText('This post is a recycled copy of').waitFor();
    expect(await recycle().getByRole('button', { name: 'Set up recycling' }).count()).toBe(0);
    await shootBothWidths(page, 'recycling-copy');
    await recycle().getByRole('link', { name: 'its source post' }).click();
    await recycle().getByText('1 of 6').waitFor();
    await expect(recycle().locator('li[data-next="true"]').textContent()).resolves.toContain('New to composting?');

    await recycle().getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Stop recycling' }).click();
    await recycle().getByRole('button', { name: 'Set up recycling' }).waitFor();
    expect((await d.ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}`, headers: d.tenant.headers })).json().post.recycling).toBeUndefined();
  });
});
