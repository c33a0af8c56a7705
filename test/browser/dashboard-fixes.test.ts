/**
 * Dashboard fixes (what was broken or wrong), in a real Chromium against the real app in sandbox mode
 * (the platform simulators in-process, a worker publishing): Reddit and Pinterest connected
 * through the dashboard's OAuth buttons; the composer asks for the subreddit and the board (the
 * shared rule table with the account's settings), never calling such a post fine until the API
 * would take it; defaults set on the accounts screen; a past date warns and the published post
 * sits on the day it was published; the API's default connect landing (/dashboard/accounts)
 * shows the accounts; long server errors and the API keys page stay within a phone's width; the
 * queue page shows the queued posts and the slots they hold; links to simulated posts are labelled
 * simulated, not links to the real platform. Screenshots at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { startWorker, type Worker } from '../../src/publishing/worker.ts';
import { createPublisher } from '../../src/publishing/publisher.ts';
import type { TestContext } from '../support/app.ts';
import { makePng } from '../support/png.ts';
import { chromiumAvailable, fillDateTime, fillTime, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/dashboard-fixes.test.ts');
const TZ = 'Europe/Paris';

let sandbox: Sandbox;
let d: DashboardHarness;
let ctx: TestContext;
let worker: Worker;
let page: Page;

beforeAll(async () => {
  if (!hasChromium) return;
  sandbox = await startSandbox({ bluesky: false });
  d = await startDashboard({
    user: { email: 'fixes@herald.test', password: 'a long fixes password', name: 'Fiona Fixes' },
    env: { HERALD_SANDBOX: 'on' }, deps: { sandbox }, timezoneId: TZ, acceptDialogs: true,
  });
  ({ ctx, page } = d);
  const s = ctx.services;
  const publisher = createPublisher({ db: ctx.db, accounts: s.accountsRepository, adapters: s.adapters, mediaStorage: s.mediaStorage, config: ctx.config, clock: s.clock, workerId: `worker-fixes-${process.pid}` });
  worker = await startWorker({ db: ctx.db, publisher, concurrency: 3, pollMs: 200, staleMs: 5_000 });
}, 240_000);

afterAll(async () => {
  await worker?.stop(5_000);
  await d?.close();
  await sandbox?.close();
});

const nav = () => d.nav();
const shoot = (name: string) => shootBothWidths(page, name);

async function cookieHeader() {
  return (await d.browser.context.cookies(d.base)).map((c) => `${c.name}=${c.value}`).join('; ');
}

async function apiGet(url: string) {
  return (await ctx.app.inject({ method: 'GET', url, headers: { cookie: await cookieHeader() } })).json();
}

async function openComposer() {
  await nav().getByRole('link', { name: 'New post' }).click();
  await page.getByRole('heading', { name: 'New post' }).waitFor();
}

const checks = () => page.getByRole('region', { name: 'Checks' });

describe.skipIf(!hasChromium)('dashboard fixes', () => {
  it('signs in, creates a profile and connects Reddit and Pinterest through the simulators; the banner names the account and the platform and goes away', async () => {
    await d.signIn();
    await nav().getByRole('link', { name: 'Profiles & accounts' }).click();
    await page.getByRole('button', { name: 'New profile' }).click();
    await page.getByRole('region', { name: 'New profile' }).getByLabel('Name').fill('Bakery');
    await page.getByRole('button', { name: 'Create profile' }).click();
    const card = page.getByRole('region', { name: /Bakery/ });
    await card.waitFor();
    await card.getByRole('button', { name: 'Reddit' }).click();
    const banner = page.getByRole('status').filter({ hasText: 'Connected' });
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/Connected .+ on Reddit\./);
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');
    await card.getByRole('button', { name: 'Pinterest' }).click();
    await page.getByRole('status').filter({ hasText: /on Pinterest\./ }).waitFor();
    await card.locator('.account-row', { hasText: 'Reddit' }).getByText('Connected', { exact: true }).waitFor();
    await card.locator('.account-row', { hasText: 'Pinterest' }).getByText('Connected', { exact: true }).waitFor();
  });

  it('lands on the accounts for an API-started connect without redirect_url (/dashboard/accounts)', async () => {
    await page.goto(`${d.base}/dashboard/accounts?connected=reddit&username=sim_user`);
    await page.getByRole('heading', { name: 'Profiles & accounts' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/profiles');
    expect(await page.getByRole('status').filter({ hasText: 'Connected' }).textContent()).toContain('sim_user on Reddit.');
    await page.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('asks for the subreddit and the title of a Reddit post: no "fits" until the API would take it', async () => {
    await openComposer();
    await page.getByRole('checkbox', { name: /Reddit/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('Fresh sourdough every morning');
    await checks().getByText('Choose a subreddit').waitFor();
    expect(await checks().getByText("Fits every selected platform's rules.").count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Schedule post' }).isDisabled()).toBe(true);
    await page.getByLabel('Subreddit', { exact: true }).fill('test');
    await page.getByLabel('Title', { exact: true }).fill('Our sourdough');
    await checks().getByText("Fits every selected platform's rules.").waitFor();
    await shoot('fixes-composer-reddit');
    await page.getByRole('button', { name: 'Schedule post' }).click();
    await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
    const id = page.url().split('/').pop()!;
    const post = (await apiGet(`/v1/posts/${id}`)).post;
    expect(post.platforms[0].platformSpecificData).toEqual({ subreddit: 'test', title: 'Our sourdough' });
    expect(post.status).toBe('scheduled');
  });

  it("asks for the subreddit's own posting rules before it calls a post fine: a post the API refuses is never shown as fitting", async () => {
    await openComposer();
    await page.getByRole('checkbox', { name: /Reddit/ }).check();
    // From here on, record whether the checks ever say "fits".
    await page.evaluate(`(() => {
      window.__fitsShown = false;
      const seen = () => { if (document.body.textContent.includes("Fits every selected platform's rules.")) window.__fitsShown = true; };
      new MutationObserver(seen).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);
    const fitsShown = () => page.evaluate('window.__fitsShown') as Promise<boolean>;
    await page.getByLabel('Text', { exact: true }).fill('Seeded rye, slow proofed');
    await page.getByLabel('Title', { exact: true }).fill('Rye');
    // r/flairreq asks for a flair (its post_requirements on Reddit): nothing the shared rule table knows without asking.
    await page.getByLabel('Subreddit', { exact: true }).fill('flairreq');
    await checks().getByText('This subreddit requires a post flair').waitFor();
    expect(await page.getByRole('button', { name: 'Schedule post' }).isDisabled()).toBe(true);
    await shoot('fixes-composer-subreddit-rules');
    // The API refuses the same post, naming the same rule.
    const accountId = ((await apiGet('/v1/accounts')).accounts as Array<{ _id: string; platform: string }>).find((a) => a.platform === 'reddit')!._id;
    const refused = await ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: d.tenant.headers,
      payload: { content: 'Seeded rye, slow proofed', scheduledFor: new Date(Date.now() + 86_400_000).toISOString(), platforms: [{ platform: 'reddit', accountId, platformSpecificData: { subreddit: 'flairreq', title: 'Rye' } }] },
    });
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json().details.fields)).toContain('reddit.subreddit.flair_required');
    // r/titlelen wants titles of 10 to 50 characters.
    await page.getByLabel('Subreddit', { exact: true }).fill('titlelen');
    await checks().getByText('r/titlelen wants titles of at least 10 characters').waitFor();
    expect(await fitsShown()).toBe(false);
    await page.getByLabel('Title', { exact: true }).fill('Seeded rye, slow proofed overnight');
    await checks().getByText("Fits every selected platform's rules.").waitFor();
    await page.getByRole('button', { name: 'Schedule post' }).click();
    await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
    const post = (await apiGet(`/v1/posts/${page.url().split('/').pop()}`)).post;
    expect(post.platforms[0].platformSpecificData).toEqual({ subreddit: 'titlelen', title: 'Seeded rye, slow proofed overnight' });
  });

  it('sets the default subreddit and board on the accounts screen; the composer then needs neither', async () => {
    await nav().getByRole('link', { name: 'Profiles & accounts' }).click();
    const reddit = page.locator('.account-row', { hasText: 'Reddit' });
    await reddit.getByLabel('Default subreddit').selectOption('herald');
    await reddit.getByRole('button', { name: 'Save default subreddit' }).click();
    await reddit.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const pinterest = page.locator('.account-row', { hasText: 'Pinterest' });
    await pinterest.getByLabel('Default board').locator('option', { hasText: 'Recipes' }).waitFor({ state: 'attached' });
    await pinterest.getByLabel('Default board').selectOption({ label: 'Recipes' });
    await pinterest.getByRole('button', { name: 'Save default board' }).click();
    await pinterest.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await shoot('fixes-accounts-defaults');
    const accounts = (await apiGet('/v1/accounts')).accounts as Array<{ platform: string; defaultSubreddit?: string; defaultBoardName?: string }>;
    expect(accounts.find((a) => a.platform === 'reddit')?.defaultSubreddit).toBe('herald');
    expect(accounts.find((a) => a.platform === 'pinterest')?.defaultBoardName).toBe('Recipes');

    await openComposer();
    await page.getByRole('checkbox', { name: /Reddit/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('Rye loaves are back');
    await checks().getByText("Fits every selected platform's rules.").waitFor();
    expect(await page.getByLabel('Subreddit', { exact: true }).getAttribute('placeholder')).toBe('r/herald');
  });

  it('asks for a board and an image for a pin; a pin with both fits and is saved with its board and link', async () => {
    await openComposer();
    // A second Pinterest account would need another simulator user: use the connected one, with its default removed.
    await ctx.db.query(`UPDATE accounts SET settings = settings - 'defaultBoardId' - 'defaultBoardName' WHERE platform = 'pinterest'`);
    await page.reload();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    await page.getByRole('checkbox', { name: /Pinterest/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('Cinnamon rolls, step by step');
    await checks().getByText('Choose a board').waitFor();
    await checks().getByText('A pin needs at least one image').waitFor();
    expect(await page.getByRole('button', { name: 'Schedule post' }).isDisabled()).toBe(true);
    await page.getByLabel('Board', { exact: true }).locator('option', { hasText: 'Travel' }).waitFor({ state: 'attached' });
    await page.getByLabel('Board', { exact: true }).selectOption({ label: 'Travel' });
    await page.getByLabel('Link', { exact: true }).fill('not a url');
    await checks().getByText('link must be an absolute http(s) URL').waitFor();
    await page.getByLabel('Link', { exact: true }).fill('https://bakery.example/rolls');
    await page.getByLabel('Media').setInputFiles({ name: 'rolls.png', mimeType: 'image/png', buffer: makePng(60, 90, [200, 120, 60]) });
    await page.locator('.media-item', { hasText: 'rolls.png' }).getByLabel('Alt text for rolls.png').waitFor();
    await checks().getByText("Fits every selected platform's rules.").waitFor();
    await shoot('fixes-composer-pinterest');
    await page.getByRole('button', { name: 'Schedule post' }).click();
    await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
    const post = (await apiGet(`/v1/posts/${page.url().split('/').pop()}`)).post;
    expect(post.platforms[0].platformSpecificData).toMatchObject({ boardId: expect.stringMatching(/^\d+$/), link: 'https://bakery.example/rolls' });
  });

  it('offers no past day on the calendar, warns for a past time, and shows the published post on the day it was published', async () => {
    await nav().getByRole('link', { name: 'Calendar' }).click();
    await page.getByRole('radio', { name: 'Month' }).click();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
    const yesterday = new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() - 86_400_000));
    await page.getByRole('link', { name: `New post on ${today}` }).waitFor();
    expect(await page.getByRole('link', { name: `New post on ${yesterday}` }).count()).toBe(0);

    await openComposer();
    await page.getByRole('checkbox', { name: /Reddit/ }).check();
    const text = `Yesterday's bake ${Date.now().toString(36)}`;
    await page.getByLabel('Text', { exact: true }).fill(text);
    await fillDateTime(page, yesterday, '10:00');
    await page.getByRole('alert').filter({ hasText: 'This time is in the past' }).waitFor();
    await shoot('fixes-composer-past');
    await page.getByRole('button', { name: 'Publish now (time is past)' }).click();
    await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
    const id = page.url().split('/').pop()!;
    await page.locator('.target .status-badge', { hasText: 'published' }).waitFor({ timeout: 60_000 });
    // Sandbox mode: the post lives in the simulator; its address is labelled simulated, not a link to reddit.com.
    await page.locator('.target .simulated', { hasText: 'Simulated post (sandbox)' }).waitFor();
    expect(await page.getByRole('link', { name: 'View the published post' }).count()).toBe(0);
    await shoot('fixes-post-simulated');
    const post = (await apiGet(`/v1/posts/${id}`)).post;
    expect(post.publishedAt).toEqual(expect.any(String));

    await nav().getByRole('link', { name: 'Calendar' }).click();
    await page.getByRole('radio', { name: 'Month' }).click();
    await page.locator(`.cal-cell[data-date="${today}"] .post-chip`, { hasText: "Yesterday's bake" }).waitFor();
    expect(await page.locator(`.cal-cell[data-date="${yesterday}"] .post-chip`, { hasText: "Yesterday's bake" }).count()).toBe(0);
    await shoot('fixes-calendar');
  });

  it('keeps a long server error inside the composer at desktop and phone width', async () => {
    await openComposer();
    await page.getByRole('checkbox', { name: /Reddit/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('A post the server refuses');
    const long = `Refused: ${'https://example.com/a-very-long-unbroken-address-that-never-ends-'.repeat(8)}`;
    await page.route('**/v1/posts', (route) => route.fulfill({
      status: 400, contentType: 'application/json',
      body: JSON.stringify({ error: long, code: 'VALIDATION_ERROR', details: { fields: { 'platforms.0.platformSpecificData.subreddit': [long] } } }),
    }));
    await page.getByRole('button', { name: 'Schedule post' }).click();
    await page.getByRole('alert').filter({ hasText: 'The post was not saved' }).waitFor();
    await page.unroute('**/v1/posts');
    await shoot('fixes-composer-long-error');
  });

  it('fits the API keys page on a phone', async () => {
    await nav().getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('A rather long key name for the phone test');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('new-key').waitFor();
    await shoot('fixes-api-keys');
    await page.getByRole('button', { name: 'Done' }).click();
  });

  it('shows the queued posts and the slots they hold', async () => {
    await nav().getByRole('link', { name: 'Queue' }).click();
    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']) {
      await fillTime(page, `New slot time on ${day}`, '23:30');
      await page.getByRole('button', { name: `Add slot on ${day}` }).click();
    }
    await page.getByRole('button', { name: 'Save queue' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await page.locator('.next-slots li').first().waitFor();
    expect(await page.locator('.slot-held').count()).toBe(0);

    await openComposer();
    await page.getByRole('checkbox', { name: /Reddit/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('Queued croissant news');
    await page.getByRole('radio', { name: /Add to queue/ }).check();
    await page.getByRole('button', { name: 'Add to queue' }).click();
    await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
    const post = (await apiGet(`/v1/posts/${page.url().split('/').pop()}`)).post;

    await nav().getByRole('link', { name: 'Queue' }).click();
    const held = page.locator('.slot-held');
    await held.first().waitFor();
    expect(await held.count()).toBe(1);
    expect(await held.textContent()).toContain('held by Queued croissant news');
    // The held slot is the post's time, and the first slot of the list.
    expect(await page.locator('.next-slots li').first().getAttribute('class')).toBe('slot-held');
    const queued = page.getByRole('region', { name: 'Queued posts' });
    await queued.getByRole('link', { name: 'Queued croissant news' }).waitFor();
    expect(post.queuedFromProfile).toEqual(expect.any(String));
    await shoot('fixes-queue');
  });
});
