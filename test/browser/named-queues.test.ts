/**
 * Named queues on the dashboard's Queue page (decision 0062), in a real Chromium against
 * the real app: the profile's queues show as tabs with the default marked; a new queue is created
 * from the "+ New queue" tab, renamed, made the default, and deleted (the default's Delete is off
 * while other queues exist); each queue's timeline shows the posts queued into it and moves them
 * within that queue. Screenshots at 1280 and 390 px; axe finds no serious or critical violation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Tenant, TestContext } from '../support/app.ts';
import { answerConfirm, axeViolations, chromiumAvailable, fillTime, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/named-queues.test.ts');

let d: DashboardHarness;
let ctx: TestContext;
let page: Page;
let tenant: Tenant;
let profileId: string;

const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6].flatMap((dayOfWeek) => ['09:00', '13:00'].map((time) => ({ dayOfWeek, time })));

async function api(method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) {
  const res = await ctx.app.inject({ method, url, headers: tenant.headers, ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}
const queues = async () => (await api('GET', `/v1/queue/slots?profileId=${profileId}&all=true`)).queues as Array<{ _id: string; name: string; isDefault: boolean; slots: unknown[] }>;

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'named-queues@herald.test', password: 'a long named queues password', name: 'Nora Queue' },
    profile: 'Bakery', accounts: [{ platform: 'bluesky', username: 'bakery.bsky.social' }],
  });
  ({ ctx, page, tenant } = d);
  profileId = d.profileId!;
  await api('PUT', '/v1/queue/slots', { profileId, timezone: 'UTC', slots: EVERY_DAY });
  await api('POST', '/v1/posts', { content: 'Sourdough in the default queue', queuedFromProfile: profileId, platforms: [{ platform: 'bluesky', accountId: d.accounts['bakery.bsky.social'] }] });
  await d.signIn();
}, 180_000);

afterAll(async () => {
  await d?.close();
});

describe.skipIf(!hasChromium)('named queues on the Queue page', () => {
  it('creates a queue, queues a post into it, renames it, makes it the default and deletes the old default', async () => {
    await d.nav().getByRole('link', { name: 'Queue' }).click();
    const tabs = page.getByRole('tablist', { name: 'Queues of this profile' });
    await tabs.getByRole('tab', { name: /^Default/ }).waitFor();
    expect(await tabs.getByRole('tab').allTextContents()).toEqual(['Default default', '+ New queue']);
    await page.locator('.next-slots .slot-held').first().getByRole('link', { name: /Sourdough/ }).waitFor();

    // A new queue from the "+ New queue" tab.
    await tabs.getByRole('tab', { name: '+ New queue' }).click();
    await page.getByLabel('Queue name').fill('Evening specials');
    await fillTime(page, 'New slot time on Friday', '18:30');
    await page.getByRole('button', { name: 'Add slot on Friday' }).click();
    await page.getByRole('button', { name: 'Create queue' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await expect.poll(async () => (await queues()).map((q) => q.name)).toEqual(['Default', 'Evening specials']);
    const evening = (await queues())[1];
    expect(evening.slots).toEqual([{ dayOfWeek: 5, time: '18:30' }]);
    // The page shows the new queue, selected, with its own (empty) timeline.
    await expect.poll(() => tabs.getByRole('tab', { selected: true }).textContent()).toBe('Evening specials');
    await page.locator('.next-slots li').first().waitFor();
    expect(await page.locator('.next-slots .slot-held').count()).toBe(0);

    // A post queued into it from the composer (its Queue picker, shown once a profile has two
    // queues) shows in that queue's timeline only.
    await d.nav().getByRole('link', { name: 'New post' }).click();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    await page.getByRole('checkbox', { name: /bakery\.bsky\.social/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('Friday tarts');
    await page.getByRole('radio', { name: /Add to queue/ }).check();
    await page.getByLabel('Queue', { exact: true }).selectOption({ label: 'Evening specials' });
    await page.locator('#c-next-slot').waitFor();
    await page.getByRole('button', { name: 'Add to queue' }).click();
    await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
    const tarts = ((await api('GET', '/v1/posts?status=scheduled')).posts as Array<{ content: string; queueId: string | null }>).find((p) => p.content === 'Friday tarts');
    expect(tarts?.queueId).toBe(evening._id);
    await d.nav().getByRole('link', { name: 'Queue' }).click();
    await tabs.getByRole('tab', { name: 'Evening specials' }).click();
    await page.locator('.next-slots .slot-held').first().getByRole('link', { name: 'Friday tarts' }).waitFor();
    expect(await page.locator('.next-slots .slot-held').count()).toBe(1);
    // Its free slots open the composer for that slot of this queue.
    expect(await page.locator('.next-slots').getByRole('link', { name: /Compose/ }).count()).toBeGreaterThan(0);
    await page.getByRole('region', { name: 'Queued posts' }).getByRole('link', { name: 'Friday tarts' }).waitFor();
    // The arrow keys move between the tabs.
    await tabs.getByRole('tab', { name: 'Evening specials' }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => tabs.getByRole('tab', { selected: true }).textContent()).toBe('Default default');
    await page.locator('.next-slots .slot-held').first().getByRole('link', { name: /Sourdough/ }).waitFor();
    expect(await page.locator('.next-slots').getByRole('link', { name: 'Friday tarts' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await shootBothWidths(page, 'named-queues-default');

    // Rename the evening queue and make it the default.
    await tabs.getByRole('tab', { name: 'Evening specials' }).click();
    await page.getByLabel('Queue name').fill('Evenings');
    await page.getByRole('button', { name: 'Save queue' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await expect.poll(async () => (await queues()).find((q) => q._id === evening._id)?.name).toBe('Evenings');
    await page.getByRole('button', { name: 'Make default' }).click();
    await page.getByRole('status').filter({ hasText: 'is now the default queue' }).waitFor();
    await expect.poll(async () => (await queues()).map((q) => [q.name, q.isDefault])).toEqual([['Evenings', true], ['Default', false]]);
    await expect.poll(() => tabs.getByRole('tab').allTextContents()).toEqual(['Evenings default', 'Default', '+ New queue']);
    // The default queue's Delete is off while another queue exists.
    expect(await page.getByRole('button', { name: 'Delete queue' }).isDisabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await shootBothWidths(page, 'named-queues-evenings');

    // Delete the old default; its post keeps its time.
    await tabs.getByRole('tab', { name: 'Default', exact: true }).click();
    await page.getByRole('button', { name: 'Delete queue' }).click();
    await answerConfirm(page, 'Delete queue');
    await page.getByRole('status').filter({ hasText: 'deleted' }).waitFor();
    await expect.poll(async () => (await queues()).map((q) => q.name)).toEqual(['Evenings']);
    await expect.poll(() => tabs.getByRole('tab').allTextContents()).toEqual(['Evenings default', '+ New queue']);
    const posts = (await api('GET', '/v1/posts?status=scheduled')).posts as Array<{ content: string; scheduledFor: string; queueId: string | null }>;
    expect(posts.find((p) => p.content.startsWith('Sourdough'))).toMatchObject({ queueId: null, scheduledFor: expect.any(String) });
  });
});
