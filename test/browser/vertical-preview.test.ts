/**
 * The composer's previews show media in its own shape, in a real Chromium
 * against the real app: a vertical video (Reels, Shorts, TikTok) in a 9:16 box, a landscape one in
 * a 16:9 box, each whole (contained, not cropped), named "Vertical video" when vertical. The
 * vertical one is uploaded in the composer (its size measured in the browser before upload); the
 * landscape one comes with a saved post, which carries no size (read from the video's metadata).
 * The media library's tiles show a video whole too. The composer passes axe (no serious or
 * critical violation); screenshots at 1280 and 390 px go to the system's temporary directory.
 */
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Tenant, TestContext } from '../support/app.ts';
import { makeVideo } from '../support/media.ts';
import { multipart } from '../support/png.ts';
import { axeViolations, chromiumAvailable, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/vertical-preview.test.ts');
const PLATFORMS = ['tiktok', 'instagram', 'youtube', 'twitter'];
const LABELS: Record<string, string> = { tiktok: 'TikTok', instagram: 'Instagram', youtube: 'YouTube', twitter: 'X (Twitter)' };

let d: DashboardHarness;
let ctx: TestContext;
let page: Page;
let tenant: Tenant;

async function upload(filename: string, data: Buffer): Promise<string> {
  const body = multipart('files', [{ filename, contentType: 'video/mp4', data }]);
  const res = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...tenant.headers, 'content-type': body.contentType }, payload: body.payload });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().files[0].url as string;
}

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'vertical@herald.test', password: 'a long vertical preview password', name: 'Vera Tical' },
    profile: 'Bakery', accounts: PLATFORMS.map((p) => ({ platform: p, username: `bakery_${p}` })),
  });
  ({ ctx, page, tenant } = d);
  await d.signIn();
}, 180_000);

afterAll(async () => {
  await d?.close();
});

/** The preview's media box: its rendered width / height, its shape, and whether the picture inside fills it contained. */
async function box(article: Locator) {
  const frame = article.locator('.pv-box');
  await frame.locator('.video-poster[data-poster="frame"] img').waitFor();
  return frame.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const img = el.querySelector('img')!;
    const i = img.getBoundingClientRect();
    return {
      ratio: r.width / r.height, width: r.width, shape: el.getAttribute('data-shape'),
      fit: (globalThis as unknown as { getComputedStyle(x: unknown): { objectFit: string } }).getComputedStyle(img).objectFit, natural: img.naturalWidth / img.naturalHeight,
      fills: Math.abs(i.width - r.width) < 1 && Math.abs(i.height - r.height) < 1,
      label: el.querySelector('[role="img"]')?.getAttribute('aria-label'),
    };
  });
}

async function shoot(name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    // At phone width the preview is a tab of its own (Composer.tsx).
    if (width === 390) await page.getByRole('tab', { name: /Preview/ }).click();
    // The previews at the top of the window (a full-page shot of a scrolled page draws the sticky header mid-page).
    await page.getByRole('heading', { name: 'Preview' }).evaluate((h) => h.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: path.join(os.tmpdir(), `herald-${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe.skipIf(!hasChromium)('previews in the media\'s own shape', () => {
  it('shows a vertical video uploaded in the composer in a 9:16 box on every platform, whole', async () => {
    await d.nav().getByRole('link', { name: 'New post' }).click();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    for (const p of PLATFORMS) await page.getByRole('checkbox', { name: new RegExp(`bakery_${p}`) }).check();
    await page.getByLabel('Text', { exact: true }).fill('Laminating croissant dough, start to finish');
    await page.locator('#c-media').setInputFiles({ name: 'lamination-short.mp4', mimeType: 'video/mp4', buffer: makeVideo({ seconds: 2, width: 360, height: 640, audio: false }) });
    await page.locator('.media-item', { hasText: 'lamination-short.mp4' }).locator('.video-poster[data-poster="frame"]').waitFor();
    for (const p of PLATFORMS) {
      const b = await box(page.getByRole('article', { name: `${LABELS[p]} preview` }));
      expect(b, p).toMatchObject({ shape: 'vertical', fit: 'contain', fills: true, label: 'Vertical video' });
      expect(b.ratio, p).toBeCloseTo(9 / 16, 2);
      expect(b.natural, p).toBeCloseTo(9 / 16, 1);
    }
    expect(await axeViolations(page)).toEqual([]);
    await shoot('vertical-preview');
    // At 390 px the box still fits the card and keeps its shape.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('tab', { name: /Preview/ }).click();
    const narrow = await box(page.getByRole('article', { name: 'TikTok preview' }));
    expect(narrow.ratio).toBeCloseTo(9 / 16, 2);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows a saved post\'s landscape video (no size stored) in a 16:9 box, read from the video', async () => {
    const url = await upload('oven-landscape.mp4', makeVideo({ seconds: 2, width: 640, height: 360, audio: false }));
    const created = await ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: tenant.headers,
      payload: { content: 'The oven at full heat', isDraft: true, mediaItems: [{ type: 'video', url }], platforms: PLATFORMS.map((p) => ({ platform: p, accountId: d.accounts[`bakery_${p}`] })) },
    });
    expect(created.statusCode, created.body).toBe(201);
    await page.goto(`${d.base}/dashboard/posts/${created.json().post._id}/edit`);
    await page.getByRole('heading', { name: 'Edit post' }).waitFor();
    for (const p of PLATFORMS) {
      const article = page.getByRole('article', { name: `${LABELS[p]} preview` });
      await article.locator('.pv-box[data-shape="landscape"]').waitFor();
      const b = await box(article);
      expect(b, p).toMatchObject({ shape: 'landscape', fit: 'contain', fills: true, label: 'Video' });
      expect(b.ratio, p).toBeCloseTo(16 / 9, 2);
    }
    expect(await axeViolations(page)).toEqual([]);
    await shoot('landscape-preview');
  });

  it('shows video tiles in the media library whole (contained in the square tile)', async () => {
    await page.goto(`${d.base}/dashboard/media`);
    const tile = page.getByRole('button', { name: 'Preview lamination-short.mp4' });
    await tile.locator('.video-poster[data-poster="frame"] img').waitFor();
    expect(await tile.locator('img').evaluate((img) => (globalThis as unknown as { getComputedStyle(x: unknown): { objectFit: string } }).getComputedStyle(img).objectFit)).toBe('contain');
    await page.screenshot({ path: path.join(os.tmpdir(), 'herald-vertical-library-1280.png') });
  });
});
