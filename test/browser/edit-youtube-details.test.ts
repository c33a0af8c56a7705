/**
 * A published YouTube video's details from its post's page (update-metadata; decision 0060): "Edit
 * details" opens an in-app dialog with the title, description, tags and privacy as published; a
 * title with < is refused with the field and rule named (nothing sent); a new title and privacy
 * change the video on the YouTube simulator (only those fields are sent). Real Chromium against the
 * real app and the YouTube simulator; axe on the dialog; screenshots at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startYouTubeSimulator, type YouTubeSimulator } from '../../sim/youtube/server.ts';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { YouTubeAdapter } from '../../src/platforms/youtube/adapter.ts';
import { youtubeOAuth } from '../../src/platforms/youtube/oauth.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { makeVideo } from '../support/media.ts';
import { oauthConnect } from '../support/oauth.ts';
import { axeViolations, chromiumAvailable, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/edit-youtube-details.test.ts');
let sim: YouTubeSimulator;
let media: MediaServer;
let d: DashboardHarness;
let page: Page;
let postId: string;
let videoId: string;

beforeAll(async () => {
  if (!hasChromium) return;
  sim = await startYouTubeSimulator({ dailyUnits: 1_000_000 });
  media = await startMediaServer();
  const clip = media.put('/clip.mp4', makeVideo({ seconds: 2, width: 160, height: 120, rate: 5, audio: false }), 'video/mp4');
  const app = { clientId: sim.clientId, clientSecret: sim.clientSecret, apiBaseUrl: sim.url, authBaseUrl: sim.url };
  d = await startDashboard({
    user: { email: 'yt@details.test', password: 'a long dashboard password', name: 'Yara Tube' },
    env: { HERALD_ALLOW_PRIVATE_URLS: 'true' }, profile: 'Brand',
    deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9', platformApps: { youtube: app } }, { youtube: new YouTubeAdapter(youtubeOAuth, () => app) as never }) },
  });
  const dance = await oauthConnect(d.ctx, d.tenant, 'youtube', d.profileId!);
  const accountId = new URL(dance.done.headers.location as string).searchParams.get('accountId')!;
  const res = await d.ctx.app.inject({
    method: 'POST', url: '/v1/posts', headers: d.tenant.headers,
    payload: { content: 'How we bake bread', publishNow: true, mediaItems: [{ type: 'video', url: clip }], tags: ['bread'],
      platforms: [{ platform: 'youtube', accountId, platformSpecificData: { title: 'Bread, part 1' } }] },
  });
  expect(res.statusCode, res.body).toBe(201);
  postId = res.json().post._id;
  videoId = res.json().post.platforms[0].platformPostId;
  page = d.page;
}, 120_000);
afterAll(async () => { await d?.close(); await sim?.close(); await media?.close(); });

describe.skipIf(!hasChromium)('YouTube details of a published post', () => {
  it('shows the details, refuses a title with < naming the rule, then changes title and privacy on YouTube', async () => {
    const video = sim.videos.find((v) => v.id === videoId)!;
    await d.signIn();
    await page.goto(`${d.base}/dashboard/posts/${postId}`);
    await page.getByRole('button', { name: 'Edit details on YouTube' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the YouTube video\'s details' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Title').inputValue()).toBe('Bread, part 1');
    expect(await dialog.getByLabel('Description').inputValue()).toBe('How we bake bread');
    expect(await dialog.getByLabel('Tags').inputValue()).toBe('bread');
    const found = await axeViolations(page);
    expect(found.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(' | ')})`)).toEqual([]);

    await dialog.getByLabel('Title').fill('Bread <part 2>');
    await dialog.getByRole('button', { name: 'Save on YouTube' }).click();
    await dialog.getByRole('alert').getByText(/youtube\.title\.angle_brackets/).waitFor();
    expect(video.title).toBe('Bread, part 1');
    await shootBothWidths(page, 'edit-youtube-details-error');

    const updatesBefore = sim.updates.length;
    await dialog.getByLabel('Title').fill('Bread, part 2');
    await dialog.getByLabel('Privacy').selectOption('unlisted');
    await dialog.getByRole('button', { name: 'Save on YouTube' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Updated on YouTube', { exact: true }).waitFor();
    expect(video).toMatchObject({ title: 'Bread, part 2', privacyStatus: 'unlisted', description: 'How we bake bread', tags: ['bread'] });
    expect(sim.updates.slice(updatesBefore)).toEqual([{ id: videoId, parts: ['snippet', 'status'] }]);
    await shootBothWidths(page, 'edit-youtube-details-after');
  });
});
