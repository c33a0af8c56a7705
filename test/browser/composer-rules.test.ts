/**
 * The composer runs the platforms' rule table (src/shared/rules/) in Chromium, on what the
 * browser itself measures of a picked file (web/src/lib/media-probe.ts): an Instagram image
 * outside 4:5-1.91:1 is refused while composing, naming the rule, before anything is saved; a
 * square JPEG fits. When Herald cannot be asked (no answer, a 5xx), the composer says it could not
 * check, with its own checks' result, and never "fits". Screenshots at desktop and phone width go
 * to test-results/screenshots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { makeImage } from '../support/media.ts';
import { chromiumAvailable, screenshotPath, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/composer-rules.test.ts');

let d: DashboardHarness;
let page: Page;

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'composer@herald.test', password: 'a long composer password', name: 'Casey Composer' },
    profile: 'Café', accounts: [{ platform: 'instagram', username: 'cafe_gram' }], timezoneId: 'Europe/Paris',
  });
  page = d.page;
}, 120_000);

afterAll(async () => {
  await d?.close();
});

describe.skipIf(!hasChromium)('composer rules in the browser', () => {
  it('measures a picked image in the browser and applies Instagram\'s aspect-ratio rule while composing; a square JPEG fits', async () => {
    await d.signIn();
    await d.nav().getByRole('link', { name: 'New post' }).click();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    await page.getByRole('checkbox', { name: /cafe_gram/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('Our new espresso blend');
    // No media yet: Instagram has no text posts.
    await page.getByText('Instagram posts need at least one image or video').waitFor();

    await page.getByLabel('Media').setInputFiles({ name: 'tall.jpg', mimeType: 'image/jpeg', buffer: makeImage({ format: 'jpeg', width: 400, height: 600 }) });
    await page.getByText(/Instagram feed images need an aspect ratio from 4:5 \(0\.8\) to 1\.91:1; this one is 400x600/).waitFor();
    expect(await page.getByRole('button', { name: 'Schedule post' }).isDisabled()).toBe(true);
    await page.screenshot({ path: screenshotPath('composer-rule-aspect'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
    await page.screenshot({ path: screenshotPath('composer-rule-aspect-phone'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.locator('.media-item', { hasText: 'tall.jpg' }).getByRole('button', { name: 'Remove' }).click();
    await page.getByLabel('Media').setInputFiles({ name: 'square.jpg', mimeType: 'image/jpeg', buffer: makeImage({ format: 'jpeg', width: 600, height: 600 }) });
    await page.locator('.media-item', { hasText: 'square.jpg' }).waitFor();
    await page.getByText("Fits every selected platform's rules.").waitFor();
    expect(await page.getByRole('button', { name: 'Schedule post' }).isDisabled()).toBe(false);
  });

  it('says it could not check with Herald, with the local result, when the server check gets no answer or a 5xx; never "fits"', async () => {
    const checks = () => page.locator('section.checks');
    const fits = "Fits every selected platform's rules.";
    // The server check gets no answer at all (the network fails).
    await page.route('**/v1/tools/validate/post', (route) => route.abort('failed'));
    await page.getByLabel('Text', { exact: true }).fill('Our new espresso blend, now roasted on Fridays');
    await checks().getByText('Could not check with Herald').waitFor();
    await checks().getByText(/Herald could not be reached/).waitFor();
    await checks().getByText('Fits the platform rules checked in this browser.').waitFor();
    expect(await checks().getByText(fits).count()).toBe(0);
    // Saving stays possible: the save is checked by Herald the same way.
    expect(await page.getByRole('button', { name: 'Schedule post' }).isDisabled()).toBe(false);
    await shootBothWidths(page, 'composer-could-not-check');

    // Herald answers with a server error: said so; asked again, still not "fits".
    await page.unroute('**/v1/tools/validate/post');
    await page.route('**/v1/tools/validate/post', (route) => route.fulfill({
      status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'Service unavailable', code: 'SERVICE_UNAVAILABLE', requestId: 'r-1' }),
    }));
    await checks().getByRole('button', { name: 'Check again' }).click();
    await checks().getByText(/Herald answered with a server error \(HTTP 503\)/).waitFor();
    expect(await checks().getByText(fits).count()).toBe(0);

    // Herald answers again: "fits", and the warning is gone.
    await page.unroute('**/v1/tools/validate/post');
    await checks().getByRole('button', { name: 'Check again' }).click();
    await checks().getByText(fits).waitFor();
    expect(await checks().getByText('Could not check with Herald').count()).toBe(0);
  });
});

// Callbacks given to page.evaluate run in the page (untyped here: the server's tsconfig has no DOM library).
declare const document: any, window: any;
