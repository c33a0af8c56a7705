/**
 * The posts list in a real Chromium against the real app: at 1280 px the text gets the room and
 * Status stays on screen; rows carry thumbnails; the table sorts and filters on the server
 * (status, profile, platform, date range, search: GET /v1/posts's own parameters) with the order
 * and filters in the URL; selected rows are deleted, rescheduled and moved to a queue in bulk
 * (in-app dialogs, a toast saying what was done and what was not). axe on the page and the bulk
 * dialog. Screenshots at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createProfile, insertAccount } from '../support/app.ts';
import { makeImage } from '../support/media.ts';
import { multipart } from '../support/png.ts';
import { answerConfirm, axeViolations, chromiumAvailable, clippedPx, fillDate, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/posts-table.test.ts');
let d: DashboardHarness;
let page: Page;
let bakery: string;
const ids: Record<string, string> = {};

/** A day `n` days from now (UTC), Y-M-D. */
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

async function create(payload: object): Promise<string> {
  const res = await d.ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: d.tenant.headers, payload });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().post._id as string;
}
const getPost = async (id: string) => (await d.ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: d.tenant.headers })).json().post;

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'table@posts.test', password: 'a long dashboard password', name: 'Tabitha Table' },
    profile: 'Cafe', accounts: [{ platform: 'twitter', username: 'cafe_x' }, { platform: 'bluesky', username: 'cafe.bsky' }],
  });
  page = d.page;
  bakery = await createProfile(d.ctx, d.tenant, 'Bakery');
  const linkedin = await insertAccount(d.ctx, d.tenant, bakery, 'linkedin', { username: 'bakery_in' });
  const body = multipart('files', [{ filename: 'latte.jpg', contentType: 'image/jpeg', data: makeImage({ format: 'jpeg', width: 400, height: 300 }) }]);
  const up = await d.ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...d.tenant.headers, 'content-type': body.contentType }, payload: body.payload });
  const image = up.json().files[0].url as string;
  const x = { platform: 'twitter', accountId: d.accounts.cafe_x };
  const bsky = { platform: 'bluesky', accountId: d.accounts['cafe.bsky'] };
  ids.latte = await create({ content: 'Latte art workshop on Saturday: bring a friend, we supply the milk and the mugs, you bring the patience', scheduledFor: `${day(3)}T10:00:00Z`, platforms: [x, bsky], mediaItems: [{ type: 'image', url: image }] });
  ids.autumn = await create({ content: 'Autumn menu tasting for regulars', scheduledFor: `${day(1)}T09:00:00Z`, platforms: [bsky] });
  ids.quiz = await create({ content: 'Quiz night at eight', scheduledFor: `${day(5)}T18:30:00Z`, platforms: [x] });
  ids.draft = await create({ content: 'Draft about the winter menu', isDraft: true, platforms: [x] });
  ids.sourdough = await create({ content: 'Sourdough class for beginners', scheduledFor: `${day(2)}T08:15:00Z`, platforms: [{ platform: 'linkedin', accountId: linkedin }] });
  ids.opening = await create({ content: 'Opening hours this week', scheduledFor: `${day(4)}T07:00:00Z`, platforms: [x] });
  // A published post: the worker is not running here, so mark it as the publisher would.
  await d.ctx.db.query(`UPDATE posts SET status = 'published', published_at = now() WHERE id = $1`, [ids.opening]);
  await d.ctx.db.query(`UPDATE post_targets SET status = 'published', published_at = now() WHERE post_id = $1`, [ids.opening]);
  await d.ctx.app.inject({ method: 'PUT', url: '/v1/queue/slots', headers: d.tenant.headers, payload: { profileId: d.profileId, timezone: 'UTC', slots: [{ dayOfWeek: 1, time: '12:00' }, { dayOfWeek: 3, time: '12:00' }] } });
}, 180_000);
afterAll(async () => { await d?.close(); });

const rows = () => page.locator('.posts-grid tbody tr');
const rowOf = (id: string) => page.locator('.posts-grid tbody tr', { has: page.locator(`a[href$="/posts/${id}"]`) });
/** The post ids of the table's rows, in order. */
const shown = async () => (await rows().locator('a.post-link').evaluateAll((as) => as.map((a) => (a.getAttribute('href') ?? '').split('/').pop())));
/** The ids the API lists for `query`, in its order. */
const listed = async (query: string) => ((await d.ctx.app.inject({ method: 'GET', url: `/v1/posts?limit=100&${query}`, headers: d.tenant.headers })).json().posts as Array<{ _id: string }>).map((p) => p._id);

async function expectNoSeriousViolations(where: string) {
  const found = await axeViolations(page);
  expect(found.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(' | ')})`), where).toEqual([]);
}

describe.skipIf(!hasChromium)('posts table', () => {
  it('gives the text the room at 1280 px with Status on screen, thumbnails, and upcoming posts first', async () => {
    await d.signIn();
    await d.nav().getByRole('link', { name: 'Posts' }).click();
    await rows().first().waitFor();
    const status = (await page.getByRole('columnheader', { name: /Status/ }).boundingBox())!;
    expect(status.x + status.width).toBeLessThanOrEqual(1280);
    expect((await rowOf(ids.latte).locator('.post-cell-text').boundingBox())!.width).toBeGreaterThan(400);
    expect(await rowOf(ids.latte).locator('img.post-thumb').count()).toBe(1);
    expect(await shown()).toEqual(await listed('sortBy=scheduled-desc'));
    expect((await shown())[0]).toBe(ids.quiz);
    expect(await page.getByRole('columnheader', { name: /When/ }).getAttribute('aria-sort')).toBe('descending');
    await expectNoSeriousViolations('posts');
    await shootBothWidths(page, 'posts-table');
  });

  it('sorts on the server by time (both ways), status and platform, with the order in the URL', async () => {
    await page.getByRole('button', { name: /^When/ }).click();
    await expect.poll(async () => page.getByRole('columnheader', { name: /When/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(new URL(page.url()).searchParams.get('sort')).toBe('scheduled-asc');
    await expect.poll(shown).toEqual(await listed('sortBy=scheduled-asc'));
    await page.getByRole('button', { name: /^Status/ }).click();
    await expect.poll(shown).toEqual(await listed('sortBy=status'));
    await page.getByRole('button', { name: /^Platforms/ }).click();
    await expect.poll(shown).toEqual(await listed('sortBy=platform'));
    await page.getByRole('button', { name: /^When/ }).click();
    await expect.poll(shown).toEqual(await listed('sortBy=scheduled-desc'));
    // On a phone the headers are hidden: the order is a select among the filters.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Order').selectOption({ label: 'Oldest created first' });
    await expect.poll(shown).toEqual(await listed('sortBy=created-asc'));
    await page.getByLabel('Order').selectOption({ label: 'Latest time first' });
    await expect.poll(shown).toEqual(await listed('sortBy=scheduled-desc'));
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await page.getByLabel('Order').isVisible()).toBe(false);
  });

  it('filters on the server by search, status, platform, profile and date range', async () => {
    await page.getByLabel('Search').fill('MENU');
    await expect.poll(async () => (await shown()).sort()).toEqual([ids.autumn, ids.draft].sort());
    expect(new URL(page.url()).searchParams.get('q')).toBe('MENU');
    await page.getByLabel('Status').selectOption('draft');
    await expect.poll(shown).toEqual([ids.draft]);
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Search').fill('');
    await page.getByLabel('Platform').selectOption('linkedin');
    await expect.poll(shown).toEqual([ids.sourdough]);
    await page.getByLabel('Platform').selectOption('');
    await page.getByLabel('Profile').selectOption({ label: 'Bakery' });
    await expect.poll(shown).toEqual([ids.sourdough]);
    await page.getByLabel('Profile').selectOption('');
    // The range goes to GET /v1/posts as it did from the browser's native date inputs: the From
    // day's first and the To day's last millisecond in the browser's zone (UTC here). (Typing the
    // year digit by digit sends a request per digit, as those inputs did: the last one counts.)
    const ranged = page.waitForRequest((r) => new URL(r.url()).pathname === '/v1/posts' && (new URL(r.url()).searchParams.get('dateTo') ?? '').startsWith(day(3)));
    // The dates show whole at both widths, empty and filled (the segments, not cut by the field's box).
    const wholeDates = async (what: string) => {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        expect(await clippedPx(page.locator('.posts-filters .dp-input')), `${what} at ${width} px`).toEqual([0, 0]);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    };
    await wholeDates('empty');
    await fillDate(page, 'From', day(2));
    await fillDate(page, 'To', day(3));
    await wholeDates('filled');
    const sent = new URL((await ranged).url()).searchParams;
    expect([sent.get('dateFrom'), sent.get('dateTo')]).toEqual([`${day(2)}T00:00:00.000Z`, `${day(3)}T23:59:59.999Z`]);
    await expect.poll(async () => (await shown()).sort()).toEqual([ids.sourdough, ids.latte].sort());
    await page.goto(`${d.base}/dashboard/posts`);
    await rows().first().waitFor();
  });

  it('reschedules the selected posts to another day, each keeping its time of day', async () => {
    await rowOf(ids.autumn).getByRole('checkbox').check();
    await rowOf(ids.quiz).getByRole('checkbox').check();
    const bar = page.getByRole('region', { name: 'Selected posts' });
    await bar.getByText('2 selected').waitFor();
    await bar.getByRole('button', { name: 'Reschedule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reschedule 2 posts' });
    await fillDate(dialog, 'New day', day(9));
    await expectNoSeriousViolations('reschedule dialog');
    await shootBothWidths(page, 'posts-bulk-reschedule');
    await dialog.getByRole('button', { name: 'Reschedule' }).click();
    await page.getByRole('region', { name: 'Notifications' }).getByText('Rescheduled 2 posts').waitFor();
    expect((await getPost(ids.autumn)).scheduledFor).toBe(`${day(9)}T09:00:00.000Z`);
    expect((await getPost(ids.quiz)).scheduledFor).toBe(`${day(9)}T18:30:00.000Z`);
    await expect.poll(async () => bar.count()).toBe(0);
  });

  it('moves the selected posts to their profile\'s queue', async () => {
    await rowOf(ids.latte).getByRole('checkbox').check();
    await page.getByRole('region', { name: 'Selected posts' }).getByRole('button', { name: 'Move to queue' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move 1 post to a queue' });
    expect(await dialog.getByLabel('Queue of the profile').locator('option:checked').textContent()).toBe('Cafe');
    await dialog.getByRole('button', { name: 'Move to queue' }).click();
    await page.getByRole('region', { name: 'Notifications' }).getByText('Queued 1 post').waitFor();
    expect((await getPost(ids.latte)).queuedFromProfile).toBe(d.profileId);
    await rowOf(ids.latte).getByText('Queued').waitFor();
  });

  it('deletes the selected posts after an in-app dialog, keeps a published one and says why', async () => {
    await rowOf(ids.draft).getByRole('checkbox').check();
    await rowOf(ids.opening).getByRole('checkbox').check();
    await page.getByRole('region', { name: 'Selected posts' }).getByRole('button', { name: 'Delete' }).click();
    const dialog = page.locator('.ui-dialog[role="alertdialog"]');
    expect(await dialog.textContent()).toContain('1 of the selected cannot be deleted');
    await answerConfirm(page, 'Delete posts');
    const toast = page.getByRole('region', { name: 'Notifications' }).locator('.ui-toast', { hasText: 'Deleted 1 post' });
    await toast.waitFor();
    expect(await toast.textContent()).toContain('published posts are kept');
    expect((await d.ctx.app.inject({ method: 'GET', url: `/v1/posts/${ids.draft}`, headers: d.tenant.headers })).statusCode).toBe(404);
    expect((await getPost(ids.opening)).status).toBe('published');
    await rowOf(ids.draft).waitFor({ state: 'detached' });
  });
});
