/**
 * A new user's first session, in a real Chromium against the real app in sandbox mode, without the
 * API: the landing page's "Get started" leads to sign-up; the Default profile connects X and
 * Mastodon through their OAuth flows (the sandbox's simulators); the composer shows the live
 * preview per platform while writing; the post is scheduled with the date picker, then moved on the
 * week calendar by drag and drop; a second post goes into the queue (the composer first leads to
 * the Queue page, where the profile gets its weekly time) and shows in the queue's timeline. Checked at each step from the database (the user has no API key). Screenshots at 1280
 * and 390 px go to test-results/screenshots (journey-*).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SIMULATORS, startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { chromiumAvailable, fillDateTime, fillTime, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/new-user-journey.test.ts');

let sandbox: Sandbox;
let d: DashboardHarness;

beforeAll(async () => {
  if (!hasChromium) return;
  sandbox = await startSandbox({ simulators: SANDBOX_SIMULATORS.filter((s) => s.platform === 'twitter' || s.platform === 'mastodon'), bluesky: false });
  d = await startDashboard({
    user: { email: 'operator@herald.test', password: 'the operator has a long password', name: 'Olga Operator' },
    env: { HERALD_SANDBOX: 'on', HERALD_SIGNUP: 'open' }, deps: { sandbox },
  });
}, 240_000);

afterAll(async () => {
  await d?.close();
  await sandbox?.close();
});

/** Tomorrow's date (UTC, the browser's zone here) as YYYY-MM-DD, plus `days`. */
function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

async function postsOfNina(): Promise<Array<{ id: string; status: string; scheduled_for: Date | null; content: string }>> {
  const { rows } = await d.ctx.db.query<{ id: string; status: string; scheduled_for: Date | null; content: string }>(
    `SELECT p.id, p.status, p.scheduled_for, p.content FROM posts p JOIN users u ON u.id = p.tenant_id
      WHERE u.email = 'nina@journey.test' ORDER BY p.created_at`);
  return rows;
}

describe.skipIf(!hasChromium)('a new user without the API', () => {
  it('signs up, connects two accounts, composes with a live preview, schedules, drags on the calendar and fills the queue', async () => {
    const { page } = d;
    await page.goto(d.base);
    await page.locator('main').getByRole('link', { name: 'Get started' }).click();
    await page.getByRole('heading', { name: 'Create your Herald account' }).waitFor();
    await page.getByLabel('Name').fill('Nina Journey');
    await page.getByLabel('Email').fill('nina@journey.test');
    await page.getByLabel('Password').fill('nina has a long journey password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();

    // Connect X and Mastodon on the Default profile (each through its OAuth flow).
    await d.nav().getByRole('link', { name: 'Profiles & accounts' }).click();
    const card = page.getByRole('region', { name: /Default/ });
    await card.getByRole('button', { name: /^X/ }).click();
    await page.locator('.account-row', { hasText: /X|Twitter/ }).getByText('Connected', { exact: true }).first().waitFor({ timeout: 30_000 });
    await page.getByRole('region', { name: /Default/ }).getByRole('button', { name: 'Mastodon', exact: true }).click();
    const form = page.getByRole('form', { name: 'Connect Mastodon' });
    await form.getByLabel('Mastodon server').fill('mastodon.social');
    await form.getByRole('button', { name: 'Continue to Mastodon' }).click();
    await page.locator('.account-row', { hasText: 'herald@mastodon.sim' }).getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 });
    await shootBothWidths(page, 'journey-accounts');

    // Compose: the preview beside the form follows the text, one card per platform.
    await d.nav().getByRole('link', { name: 'New post' }).click();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    const boxes = page.getByRole('region', { name: 'Where' }).getByRole('checkbox');
    expect(await boxes.count()).toBe(2);
    for (let i = 0; i < 2; i++) await boxes.nth(i).check();
    const text = 'Doors open at nine: first coffee on the house';
    await page.getByLabel('Text', { exact: true }).fill(text);
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByRole('article', { name: 'X (Twitter) preview' }).getByText(text).waitFor();
    await preview.getByRole('article', { name: 'Mastodon preview' }).getByText(text).waitFor();
    const day = dayFromNow(2);
    await fillDateTime(page, day, '09:00');
    await page.getByText("Fits every selected platform's rules.").waitFor();
    await shootBothWidths(page, 'journey-composer');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Schedule post' }).click();
    await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
    const [scheduled] = await postsOfNina();
    expect(scheduled).toMatchObject({ status: 'scheduled', content: text });
    expect(scheduled.scheduled_for!.toISOString()).toBe(`${day}T09:00:00.000Z`);

    // The week calendar: drag the post to the next day at 14:00.
    await d.nav().getByRole('link', { name: 'Calendar' }).click();
    await page.getByRole('radio', { name: 'Week' }).click();
    const next = dayFromNow(3);
    for (let i = 0; i < 3 && !(await page.locator(`.week-col[data-date="${next}"]`).count()); i++) await page.getByRole('button', { name: 'Next week' }).click();
    const chip = page.locator(`.post-chip[data-post-id="${scheduled.id}"]`);
    await chip.dragTo(page.locator(`.week-col[data-date="${next}"] .wk-slot[data-hour="14"]`));
    await page.getByRole('status').filter({ hasText: 'Moved to' }).waitFor();
    await expect.poll(async () => (await postsOfNina())[0].scheduled_for!.toISOString()).toBe(`${next}T14:00:00.000Z`);
    await shootBothWidths(page, 'journey-calendar');
    await page.setViewportSize({ width: 1280, height: 900 });

    // The queue: the composer says the profile has none yet and leads to the Queue page; with a
    // weekly time set there, a post added to the queue takes the next free slot.
    const queuedText = 'Queued: the weekend roast is back';
    const composeQueued = async () => {
      await d.nav().getByRole('link', { name: 'New post' }).click();
      await page.getByRole('heading', { name: 'New post' }).waitFor();
      await page.getByRole('region', { name: 'Where' }).getByRole('checkbox').first().check();
      await page.getByLabel('Text', { exact: true }).fill(queuedText);
      await page.getByRole('radio', { name: /Add to queue/ }).check();
    };
    await composeQueued();
    const problem = page.locator('#c-queue-problem');
    await problem.getByText('This profile has no queue yet').waitFor();
    expect(await page.getByRole('button', { name: 'Add to queue' }).isDisabled()).toBe(true);
    await problem.getByRole('link', { name: 'Set up the queue' }).click();
    await page.getByRole('heading', { name: 'Queue', exact: true }).waitFor();
    await fillTime(page, 'New slot time on Monday', '09:30');
    await page.getByRole('button', { name: 'Add slot on Monday' }).click();
    await page.getByRole('button', { name: 'Save queue' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await composeQueued();
    await page.locator('#c-next-slot').getByText(/Monday/).waitFor();
    await page.getByRole('button', { name: 'Add to queue' }).click();
    await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
    const queued = (await postsOfNina())[1];
    expect(queued.status).toBe('scheduled');
    expect(queued.scheduled_for!.getTime()).toBeGreaterThan(Date.now());
    await d.nav().getByRole('link', { name: 'Queue' }).click();
    await page.getByRole('heading', { name: 'Queue', exact: true }).waitFor();
    await page.getByRole('link', { name: /Queued: the weekend roast/ }).first().waitFor();
    await shootBothWidths(page, 'journey-queue');
  }, 180_000);
});
