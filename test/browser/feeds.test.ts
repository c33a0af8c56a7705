/**
 * The Feeds section of the Profiles page in a real Chromium (RSS to queue, decision 0065): add a
 * feed served by a local server, see its items after checks (the skipped ones of the first check,
 * then a queued post), a failing feed's error, pause and delete. Screenshots at 1280 and 390 px;
 * axe finds no serious violation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerConfirm, axeViolations, chromiumAvailable, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';
import { startFeedServer, type FeedServer } from '../support/feed-server.ts';

const hasChromium = chromiumAvailable('test/browser/feeds.test.ts');
let d: DashboardHarness;
let server: FeedServer;

const rss = (items: Array<[string, string]>) => `<?xml version="1.0"?><rss version="2.0"><channel><title>Bakery news</title><link>https://bakery.example/</link><description>d</description>
${items.map(([guid, title]) => `<item><guid>${guid}</guid><title>${title}</title><link>https://bakery.example/${guid}</link><description>${title} today</description></item>`).join('')}
</channel></rss>`;

beforeAll(async () => {
  if (!hasChromium) return;
  server = await startFeedServer();
  d = await startDashboard({
    user: { email: 'owner@feeds.test', password: 'a long dashboard password', name: 'Fran Feeds' },
    profile: 'Client Bakery', accounts: [{ platform: 'bluesky', username: 'bakery.bsky.social' }],
  });
  const slots = Array.from({ length: 7 }, (_, dayOfWeek) => ({ dayOfWeek, time: '09:00' }));
  const q = await d.ctx.app.inject({ method: 'PUT', url: '/v1/queue/slots', headers: d.tenant.headers, payload: { profileId: d.profileId, timezone: 'UTC', slots } });
  expect(q.statusCode, q.body).toBe(200);
}, 120_000);

afterAll(async () => {
  await d?.close();
  await server?.close();
});

describe.skipIf(!hasChromium)('feeds on the profile page', () => {
  it('adds a feed, shows its items and a queued post, a failing feed\'s error, pauses and deletes', async () => {
    const { page } = d;
    const url = server.put('/bakery.xml', rss([['b1', 'Sourdough is back'], ['b2', 'Closed on Monday']]), 'application/rss+xml');
    await d.signIn();
    await d.nav().getByRole('link', { name: 'Profiles & accounts' }).click();
    await page.getByRole('heading', { name: 'Profiles & accounts' }).waitFor();
    await page.getByText('No feed followed.').waitFor();
    await page.getByRole('button', { name: 'Add a feed' }).click();
    await page.getByLabel('Feed URL (RSS, Atom or JSON Feed)').fill(url);
    await page.getByLabel('New items become').selectOption('queue');
    await page.getByLabel(/Post text/).fill('New at the bakery: {title}\n{link}');
    expect(await page.getByRole('checkbox', { name: /bakery\.bsky\.social/ }).isChecked()).toBe(true);
    await shootBothWidths(page, 'feeds-add-form');
    await page.getByRole('button', { name: 'Add feed' }).click();
    const row = page.getByRole('listitem', { name: `Feed ${url}` });
    await row.waitFor();
    await row.getByText('Active').waitFor();

    // The worker's pass (run here): the first check records the two items without posts.
    await d.ctx.services.feeds.runDue();
    server.put('/bakery.xml', rss([['b3', 'Cinnamon buns Friday'], ['b1', 'Sourdough is back'], ['b2', 'Closed on Monday']]), 'application/rss+xml');
    await row.getByRole('button', { name: /^Check now/ }).click();
    await page.getByText('Check requested').first().waitFor();
    expect((await d.ctx.services.feeds.runDue()).map((r) => r.created)).toEqual([1]);
    await page.reload();
    const feedRow = page.getByRole('listitem', { name: 'Feed Bakery news' });
    await feedRow.getByRole('button', { name: /Show latest items/ }).click();
    const items = feedRow.getByRole('list', { name: 'Latest items' });
    await items.getByText('Cinnamon buns Friday').waitFor();
    await items.getByText('Post created').waitFor();
    expect(await items.getByText('Skipped').count()).toBe(2);
    const posts = (await d.ctx.app.inject({ method: 'GET', url: '/v1/posts', headers: d.tenant.headers })).json().posts;
    expect(posts.map((p: { content: string; status: string }) => [p.content, p.status])).toEqual([['New at the bakery: Cinnamon buns Friday\nhttps://bakery.example/b3', 'scheduled']]);

    // A feed whose URL answers 404: its error is shown on the card.
    const broken = await d.ctx.app.inject({ method: 'POST', url: '/v1/feeds', headers: d.tenant.headers, payload: { profileId: d.profileId, url: `${server.url}/gone.xml`, name: 'Old blog', mode: 'draft' } });
    expect(broken.statusCode, broken.body).toBe(201);
    await d.ctx.services.feeds.runDue();
    await page.reload();
    const oldBlog = page.getByRole('listitem', { name: 'Feed Old blog' });
    await oldBlog.getByText('Failing').waitFor();
    await oldBlog.getByRole('alert').getByText(/Last check failed: .*HTTP 404/).waitFor();
    await page.getByRole('listitem', { name: 'Feed Bakery news' }).getByRole('button', { name: /Show latest items/ }).click();
    await page.getByText('Cinnamon buns Friday').waitFor();
    await shootBothWidths(page, 'feeds-profile');
    expect(await axeViolations(page)).toEqual([]);

    await oldBlog.getByRole('button', { name: /^Pause/ }).click();
    await oldBlog.getByText('Paused').waitFor();
    await oldBlog.getByRole('button', { name: /^Delete/ }).click();
    await answerConfirm(page, 'Delete feed');
    await oldBlog.waitFor({ state: 'detached' });
    const left = (await d.ctx.app.inject({ method: 'GET', url: '/v1/feeds', headers: d.tenant.headers })).json().feeds;
    expect(left.map((f: { title: string }) => f.title)).toEqual(['Bakery news']);
  });
});
