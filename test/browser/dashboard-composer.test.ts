/**
 * The composer's per-platform options, live previews and the media library, in a real Chromium
 * against the real app (the dashboard reaches every API capability): the media library page lists,
 * searches and previews uploads and hands one to a new post; the composer picks media from the
 * library; an X thread, Instagram collaborators, user tags and first comment, TikTok's posting
 * screen (the creator's privacy options, none preselected; branded content never private; the
 * consent line), YouTube's title, visibility and custom thumbnail, Facebook's post kind and first comment and LinkedIn's
 * visibility are each saved as the target's platformSpecificData the API accepts; each target has a preview
 * (Instagram cuts its caption at the fold). Screenshots at 1280 and 390 px wide.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Tenant, TestContext } from '../support/app.ts';
import { makeImage, makeVideo } from '../support/media.ts';
import { multipart } from '../support/png.ts';
import { chromiumAvailable, screenshotPath, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/dashboard-composer.test.ts');
const PLATFORMS = ['twitter', 'instagram', 'tiktok', 'youtube', 'facebook', 'linkedin'];

let d: DashboardHarness;
let ctx: TestContext;
let page: Page;
let tenant: Tenant;

async function upload(filename: string, contentType: string, data: Buffer) {
  const body = multipart('files', [{ filename, contentType, data }]);
  const res = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...tenant.headers, 'content-type': body.contentType }, payload: body.payload });
  if (res.statusCode !== 200) throw new Error(res.body);
}

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'composer-options@herald.test', password: 'a long composer options password', name: 'Opal Options' },
    profile: 'Patisserie', accounts: PLATFORMS.map((p) => ({ platform: p, username: `patisserie_${p}` })), timezoneId: 'Europe/Paris',
  });
  ({ ctx, page, tenant } = d);
  await ctx.db.query(`UPDATE accounts SET settings = $1 WHERE platform = 'tiktok'`, [JSON.stringify({ tiktokCreator: { privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'] } })]);
  await upload('croissant.jpg', 'image/jpeg', makeImage({ format: 'jpeg', width: 600, height: 600 }));
  await upload('eclair.jpg', 'image/jpeg', makeImage({ format: 'jpeg', width: 800, height: 600 }));
  await upload('bake-timelapse.mp4', 'video/mp4', makeVideo({ seconds: 4, width: 640, height: 360, audio: true }));
}, 180_000);

afterAll(async () => {
  await d?.close();
});

const nav = () => d.nav();
const checks = () => page.getByRole('region', { name: 'Checks' });
/** Waits for the composer to say the post fits; on failure, says what the checks list instead. */
const fits = () => ({
  waitFor: async () => {
    try {
      await checks().getByText("Fits every selected platform's rules.").waitFor({ timeout: 5_000 });
    } catch {
      throw new Error(`The composer does not say "fits"; its checks say: ${await checks().textContent()}`);
    }
  },
});

const shoot = (name: string) => shootBothWidths(page, name);

async function savedPost() {
  await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
  const id = page.url().split('/').pop()!;
  const res = await ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: tenant.headers });
  return res.json().post as { content: string; mediaItems: Array<{ url: string; type: string }>; platforms: Array<{ platform: string; platformSpecificData: Record<string, unknown> }> };
}

async function openComposer() {
  await nav().getByRole('link', { name: 'New post' }).click();
  await page.getByRole('heading', { name: 'New post' }).waitFor();
}

async function pickFromLibrary(name: string) {
  await page.getByRole('button', { name: 'Choose from the library' }).click();
  const dialog = page.getByRole('dialog', { name: 'Media library' });
  await dialog.getByLabel('Search file names').fill(name.slice(0, 5));
  await dialog.getByRole('button', { name: `Add ${name}` }).click();
  await page.locator('.media-item', { hasText: name }).waitFor();
}

describe.skipIf(!hasChromium)('composer options, previews and the media library', () => {
  it('lists, searches and previews the media library, and hands a file to a new post', async () => {
    await d.signIn();
    await nav().getByRole('link', { name: 'Media library' }).click();
    const grid = page.getByRole('list', { name: 'Uploaded files' });
    await grid.getByRole('button', { name: 'Preview bake-timelapse.mp4' }).waitFor();
    // A video shows its first frame, not a grey box.
    await grid.getByRole('button', { name: 'Preview bake-timelapse.mp4' }).locator('.video-poster[data-poster="frame"] img').waitFor();
    expect(await grid.getByRole('listitem').count()).toBe(3);
    await shoot('composer-media-library');
    await page.getByLabel('Search file names').fill('ECLAIR');
    await grid.getByRole('button', { name: 'Preview eclair.jpg' }).waitFor();
    await expect.poll(() => grid.getByRole('listitem').count()).toBe(1);
    await page.getByLabel('Kind').selectOption('video');
    await page.getByText('No file matches.').waitFor();
    await page.getByLabel('Kind').selectOption('');
    await grid.getByRole('button', { name: 'Preview eclair.jpg' }).click();
    const dialog = page.getByRole('dialog', { name: 'eclair.jpg' });
    await dialog.getByText('800×600 px').waitFor();
    await page.screenshot({ path: screenshotPath('composer-media-preview-1280') });
    await dialog.getByRole('link', { name: 'Use in a new post' }).click();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    await page.locator('.media-item', { hasText: 'eclair.jpg' }).waitFor();
  });

  it('makes an X thread: the replies are sent as threadItems and previewed under the post', async () => {
    await openComposer();
    await page.getByRole('checkbox', { name: /patisserie_twitter/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('Three things about laminated dough 🧵');
    await page.getByRole('button', { name: 'Add a reply (thread)' }).click();
    await page.getByLabel('Reply 1 in the thread').fill('1. Cold butter, always.');
    await page.getByRole('button', { name: 'Add a reply (thread)' }).click();
    await page.getByLabel('Reply 2 in the thread').fill('x'.repeat(281));
    await checks().getByText(/280/).first().waitFor();
    await page.getByLabel('Reply 2 in the thread').fill('2. Rest it between folds.');
    await fits().waitFor();
    const preview = page.getByRole('article', { name: 'X (Twitter) preview' });
    await preview.getByText('2. Rest it between folds.').waitFor();
    await shoot('composer-x-thread');
    await page.getByRole('button', { name: 'Schedule post' }).click();
    const post = await savedPost();
    expect(post.platforms[0].platformSpecificData.threadItems).toEqual([
      { content: 'Three things about laminated dough 🧵' }, { content: '1. Cold butter, always.' }, { content: '2. Rest it between folds.' },
    ]);
    // Editing brings the replies back as replies; a changed first post keeps them.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit post' }).waitFor();
    expect(await page.getByLabel('Reply 2 in the thread').inputValue()).toBe('2. Rest it between folds.');
    // The server's check of the unchanged post: the post itself is not a duplicate of itself.
    await fits().waitFor();
    await page.getByLabel('Text', { exact: true }).fill('Three things about laminated dough');
    await page.getByRole('button', { name: 'Save and schedule' }).click();
    const edited = await savedPost();
    expect(edited.platforms[0].platformSpecificData.threadItems).toEqual([
      { content: 'Three things about laminated dough' }, { content: '1. Cold butter, always.' }, { content: '2. Rest it between folds.' },
    ]);
  });

  it('sets Instagram collaborators, a user tag and a first comment on a library image; the preview cuts the caption at the fold', async () => {
    await openComposer();
    await page.getByRole('checkbox', { name: /patisserie_instagram/ }).check();
    const caption = `Croissant morning. ${'Butter, flour, patience. '.repeat(8)}`;
    await page.getByLabel('Text', { exact: true }).fill(caption);
    await checks().getByText('Instagram posts need at least one image or video').waitFor();
    await pickFromLibrary('croissant.jpg');
    await page.getByLabel('Collaborators').fill('@le_fournil, maison_beurre');
    await page.getByRole('button', { name: 'Tag a person' }).click();
    await page.getByLabel('Username 1').fill('chef_anna');
    await page.getByLabel('Across (0-1)').fill('0.25');
    await page.getByLabel('First comment').fill('Recipe in our bio!');
    await fits().waitFor();
    const preview = page.getByRole('article', { name: 'Instagram preview' });
    expect(await preview.locator('.pv-more').count()).toBe(1);
    await preview.getByText('First comment: Recipe in our bio!').waitFor();
    await shoot('composer-instagram');
    await page.getByRole('button', { name: 'Schedule post' }).click();
    const post = await savedPost();
    expect(post.mediaItems[0]).toMatchObject({ type: 'image', url: expect.stringContaining('croissant') });
    expect(post.platforms[0].platformSpecificData).toEqual({
      collaborators: ['le_fournil', 'maison_beurre'], userTags: [{ username: 'chef_anna', x: 0.25, y: 0.5 }], firstComment: 'Recipe in our bio!',
    });
  });

  it('walks TikTok\'s posting screen: the creator\'s privacy options with none chosen, branded content never private, the consent line', async () => {
    await openComposer();
    await page.getByRole('checkbox', { name: /patisserie_tiktok/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('Watch the croissants rise');
    await pickFromLibrary('bake-timelapse.mp4');
    await checks().getByText('Choose who can see this TikTok post').waitFor();
    await checks().getByText('Music Usage Confirmation').waitFor();
    const privacy = page.getByLabel('Who can see this post');
    expect(await privacy.locator('option').allTextContents()).toEqual(['Choose…', 'Everyone', 'Friends (followers you follow back)', 'Only me']);
    await privacy.selectOption('SELF_ONLY');
    await page.getByLabel(/Disclose commercial content/).check();
    await checks().getByText('Commercial content is on').waitFor();
    await page.getByLabel(/Branded content \(you are paid/).check();
    // Branded content cannot be private: the private choice is cleared and disabled.
    expect(await privacy.inputValue()).toBe('');
    expect(await privacy.locator('option[value="SELF_ONLY"]').isDisabled()).toBe(true);
    await privacy.selectOption('PUBLIC_TO_EVERYONE');
    await page.getByText('Your post will be labelled "Paid partnership".').waitFor();
    await page.getByLabel("I agree to TikTok's Branded Content Policy and Music Usage Confirmation").check();
    await fits().waitFor();
    await shoot('composer-tiktok');
    await page.getByRole('button', { name: 'Schedule post' }).click();
    const post = await savedPost();
    expect(post.platforms[0].platformSpecificData.tiktokSettings).toMatchObject({
      privacy_level: 'PUBLIC_TO_EVERYONE', brand_partner_promote: true, commercial_content_type: 'brand_content', express_consent_given: true, content_preview_confirmed: true,
    });
  });

  it('sets YouTube\'s title and visibility, a Facebook post kind and first comment and LinkedIn\'s visibility in one post, refusing what the rules refuse', async () => {
    await openComposer();
    for (const p of ['youtube', 'facebook', 'linkedin']) await page.getByRole('checkbox', { name: new RegExp(`patisserie_${p}`) }).check();
    await page.getByLabel('Text', { exact: true }).fill('Behind the scenes at the bakery');
    await pickFromLibrary('bake-timelapse.mp4');
    await page.getByLabel('Video title').fill('A morning at the bakery');
    // The shared rules speak while composing: YouTube schedules only public videos; Facebook stories need portrait media on HTTPS.
    const youtube = page.getByRole('group', { name: /YouTube options/ });
    await youtube.getByLabel('Visibility').selectOption('unlisted');
    await checks().getByText('YouTube can only schedule a video to become public').waitFor();
    await youtube.getByLabel('Visibility').selectOption('');
    // The post's own visibility and tags feed the same check (YouTube falls back on them).
    await page.getByText('Tags and visibility').click();
    await page.locator('#c-visibility').selectOption('unlisted');
    await checks().getByText('YouTube can only schedule a video to become public').waitFor();
    await page.locator('#c-visibility').selectOption('public');
    await page.locator('#c-tags').fill('bakery, #bread, bakery');
    await page.getByLabel(/Custom thumbnail/).setInputFiles({ name: 'cover.jpg', mimeType: 'image/jpeg', buffer: makeImage({ format: 'jpeg', width: 1280, height: 720 }) });
    await page.getByRole('img', { name: 'Chosen thumbnail' }).waitFor();
    await page.getByLabel('Post as').selectOption('story');
    await checks().getByText('Facebook story videos must be at least 540 x 960 pixels').waitFor();
    await page.getByLabel('Post as').selectOption('');
    await page.getByRole('group', { name: /Facebook options/ }).getByLabel('First comment').fill('Come by at 7!');
    await page.getByLabel('Who can see it').selectOption('CONNECTIONS');
    await fits().waitFor();
    await page.getByRole('article', { name: 'YouTube preview' }).getByText('A morning at the bakery').waitFor();
    // Videos show a picture, not a grey box: YouTube its custom thumbnail, the others the video's first frame (as does the media list).
    await page.getByRole('article', { name: 'YouTube preview' }).locator('.video-poster[data-poster="thumbnail"] img').waitFor();
    for (const name of ['Facebook preview', 'LinkedIn preview']) await page.getByRole('article', { name }).locator('.video-poster[data-poster="frame"] img').waitFor();
    await page.locator('.media-item .video-poster[data-poster="frame"] img').waitFor();
    const frame = await page.getByRole('article', { name: 'Facebook preview' }).locator('.video-poster img').evaluate((img: { naturalWidth: number; naturalHeight: number }) => [img.naturalWidth, img.naturalHeight]);
    expect(frame).toEqual([640, 360]);
    await shoot('composer-youtube-facebook-linkedin');
    await page.getByRole('button', { name: 'Schedule post' }).click();
    const post = await savedPost();
    const data = Object.fromEntries(post.platforms.map((t) => [t.platform, t.platformSpecificData]));
    // The thumbnail is the video's own (mediaItems[].thumbnail), an uploaded file.
    expect(post.mediaItems[0]).toMatchObject({ type: 'video', thumbnail: expect.stringContaining('cover.jpg') });
    expect((post as unknown as { tags: string[] }).tags).toEqual(['bakery', 'bread']);
    expect(data).toEqual({ youtube: { title: 'A morning at the bakery' }, facebook: { firstComment: 'Come by at 7!' }, linkedin: { visibility: 'CONNECTIONS' } });
  });

  it('asks the server before it says "fits": a post the API would refuse as a duplicate is shown with the server\'s reason', async () => {
    // Within 24 hours of the composer's default time (the next whole hour at least 30 minutes away).
    const at = new Date(Date.now() + 2 * 3_600_000).toISOString();
    const first = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: tenant.headers, payload: { content: 'Croissants are back on Sunday', scheduledFor: at, platforms: [{ platform: 'twitter', accountId: d.accounts.patisserie_twitter }] } });
    expect(first.statusCode, first.body).toBe(201);
    // A fresh composer (the previous test handed it a library image).
    await page.goto(`${d.base}/dashboard/compose`);
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    await page.getByRole('checkbox', { name: /patisserie_twitter/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('Croissants are back on Sunday');
    await checks().getByText('the same content was posted to this account within 24 hours').waitFor();
    expect(await checks().getByText("Fits every selected platform's rules.").count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Schedule post' }).isDisabled()).toBe(true);
    await page.getByLabel('Text', { exact: true }).fill('Croissants are back on Sunday, with almonds');
    await fits().waitFor();
  });
  it('adds an account group\'s accounts as targets in one pick, those of other profiles too, listed apart', async () => {
    const accounts = (await ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: tenant.headers })).json().accounts as Array<{ _id: string; platform: string }>;
    const id = (p: string) => accounts.find((a) => a.platform === p)!._id;
    const elsewhere = (await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: tenant.headers, payload: { name: 'Boulangerie' } })).json().profile._id as string;
    const other = await ctx.app.inject({ method: 'POST', url: '/v1/account-groups', headers: tenant.headers, payload: { name: 'Morning bake', accountIds: [id('twitter'), id('facebook')] } });
    expect(other.statusCode, other.body).toBe(201);
    // A third account in another profile: added too (a post may span profiles), shown under "Also in other profiles".
    const { rows: [moved] } = await ctx.db.query<{ id: string }>(
      `INSERT INTO accounts (id, tenant_id, profile_id, platform, platform_user_id, username, credentials, permissions, settings)
       SELECT substr(md5(random()::text), 1, 24), tenant_id, $2, platform, 'boulangerie-x', 'boulangerie_x', credentials, permissions, settings FROM accounts WHERE id = $1 RETURNING id`, [id('twitter'), elsewhere]);
    await ctx.app.inject({ method: 'PUT', url: `/v1/account-groups/${other.json().group._id}`, headers: tenant.headers, payload: { accountIds: [id('twitter'), id('facebook'), moved.id] } });
    const put = await ctx.app.inject({ method: 'GET', url: '/v1/account-groups', headers: tenant.headers });
    expect(put.json().groups[0].accountIds).toHaveLength(3);
    // The group was made through the API: a fresh page load reads it (the dashboard keeps what it read for a few seconds).
    await page.goto(new URL('/dashboard/posts', page.url()).href);
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
    await openComposer();
    const picks = () => page.getByRole('group', { name: 'Accounts' });
    await page.getByLabel(/Add an account group/).selectOption({ label: 'Morning bake (3)' });
    await page.getByRole('status').filter({ hasText: 'Morning bake: 3 accounts added (1 from other profiles)' }).waitFor();
    expect(await picks().getByRole('checkbox', { name: /patisserie_twitter/ }).isChecked()).toBe(true);
    expect(await picks().getByRole('checkbox', { name: /patisserie_facebook/ }).isChecked()).toBe(true);
    expect(await picks().getByRole('checkbox', { name: /patisserie_instagram/ }).isChecked()).toBe(false);
    expect(await page.getByRole('group', { name: 'Also in other profiles' }).getByRole('checkbox', { name: /boulangerie_x.*Boulangerie/ }).isChecked()).toBe(true);
    await shoot('composer-account-group');
  });
});
