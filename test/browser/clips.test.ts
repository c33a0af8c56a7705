/**
 * The Clips page in a real Chromium against the real app and clip worker: the month's
 * allowance, a video submitted by URL and one uploaded from disk, progress while they run,
 * the clips playable in the page (the <video> loads the 9:16 clip), download links, and
 * "Use in a post" opening the composer with the clip attached. Screenshots at 1280 and 390 px wide.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTestApp, type TestContext } from '../support/app.ts';
import { freePort } from '../support/net.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { startClipWorker, type ClipWorker } from '../../src/clips/worker.ts';
import { makeVideo } from '../clips/support.ts';
import { chromiumAvailable, launch, screenshotPath, shootBothWidths, type Browser } from './support.ts';

declare const document: any;

const hasChromium = chromiumAvailable('test/browser/clips.test.ts');
const email = 'clipper@herald.test';
const password = 'a long dashboard password';

let ctx: TestContext;
let media: MediaServer;
let worker: ClipWorker;
let browser: Browser;
let page: Page;
let base: string;
let dir: string;
let sourceFile: string;

beforeAll(async () => {
  if (!hasChromium) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-clips-browser-'));
  sourceFile = path.join(dir, 'keynote.mp4');
  await makeVideo(sourceFile, [{ kind: 'still', seconds: 30 }, { kind: 'busy', seconds: 25 }, { kind: 'still', seconds: 25, colour: 'navy' }]);
  media = await startMediaServer();
  const port = await freePort();
  ctx = await createTestApp({ listen: true, env: { PORT: String(port), HERALD_CLIPS_PRESET: 'ultrafast', HERALD_CLIPS_OUTPUT_HEIGHT: '640' } });
  base = `http://127.0.0.1:${port}`;
  worker = startClipWorker({ clips: ctx.services.videoClips, workerId: `clips-browser-${process.pid}`, concurrency: 1, staleMs: 30_000, pollMs: 200 });
  await ctx.services.users.createRootUser({ email, password, name: 'Clara Clipper', plan: 'free' });
  browser = await launch();
  page = await browser.context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await ctx?.close();
  await media?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasChromium)('Clips page', () => {
  it('shows the free allowance, runs a video by URL and one uploaded, and plays the clips', async () => {
    await page.goto(`${base}/dashboard`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'AI clips' }).click();
    await page.getByRole('heading', { name: 'AI clips' }).waitFor();
    await page.getByText('0 of 5').waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'videos this month' }).textContent()).toBe('0 of 5 videos this month · Free tier (with watermark)');
    await page.getByText('No videos yet.').waitFor();

    await page.getByLabel('Video URL').fill(media.put('/keynote.mp4', fs.readFileSync(sourceFile), 'video/mp4'));
    await page.getByRole('button', { name: 'Find clips' }).click();
    const byUrl = page.getByRole('region', { name: 'keynote.mp4' }).first();
    await byUrl.waitFor();
    await page.getByLabel('or upload a video').setInputFiles(sourceFile);
    await page.getByRole('button', { name: 'Find clips' }).click();
    await page.getByText('2 of 5').waitFor();
    // The second job waits while the first runs: its progress bar is on screen.
    await page.getByRole('progressbar').first().waitFor();

    const clips = page.getByRole('listitem').filter({ has: page.locator('video') });
    await clips.nth(1).waitFor({ timeout: 90_000 });
    // Both jobs finish (the first one's clips can show while the second still renders).
    await expect.poll(() => page.getByRole('progressbar').count(), { timeout: 90_000 }).toBe(0);
    const first = clips.first();
    expect(await first.textContent()).toMatch(/Clip 1 · 0:3\d–0:5\d · 2\d s/);
    expect(await first.getByRole('link', { name: 'Download' }).getAttribute('download')).toBe('keynote-clip-1.mp4');
    // The clip plays in the page: its metadata loads, 9:16.
    const meta = await page.waitForFunction(() => {
      const v = document.querySelector('video');
      return v && v.readyState >= 1 ? { w: v.videoWidth, h: v.videoHeight, d: v.duration } : null;
    }, undefined, { timeout: 15_000 }).then((h) => h.jsonValue() as Promise<{ w: number; h: number; d: number }>);
    expect(meta.w * 16).toBe(meta.h * 9);
    expect(meta.d).toBeGreaterThan(15);
    await shootBothWidths(page, 'clips');

    // "Use in a post": the composer opens with the clip attached.
    await first.getByRole('button', { name: 'Use in a post' }).click();
    await page.waitForURL(`${base}/dashboard/compose`);
    await page.getByText('keynote-clip-1.mp4').first().waitFor();
    await page.screenshot({ path: screenshotPath('clips-composer'), fullPage: true });
  }, 180_000);
});
