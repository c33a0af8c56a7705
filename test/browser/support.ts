/**
 * Browser tests in a real Chromium (Debian's package, driven by playwright-core): launch with
 * a fresh profile directory, and screenshots into test-results/screenshots (gitignored).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-results/screenshots');

/**
 * Whether Chromium is installed. `.ci/run` installs it; when it is missing outside CI the
 * browser tests are skipped with a message saying how to install it. In CI a missing Chromium fails.
 */
export function chromiumAvailable(suite: string): boolean {
  if (fs.existsSync(CHROMIUM)) return true;
  const msg = `${suite}: SKIPPED, Chromium is not installed at ${CHROMIUM} (install it with: apt-get install -y chromium)`;
  if (process.env.CI) throw new Error(`${msg}; .ci/run must install it`);
  console.warn(msg);
  return false;
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launch(opts: { timezoneId?: string; viewport?: { width: number; height: number } } = {}): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    viewport: opts.viewport ?? { width: 1360, height: 900 },
    timezoneId: opts.timezoneId ?? 'UTC',
    locale: 'en-US',
  });
  context.setDefaultTimeout(15_000);
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

export function screenshotPath(name: string): string {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  return path.join(SCREENSHOTS, `${name}.png`);
}

/** The page's sideways overflow in px and the first elements reaching past the window's right edge (outside scroll boxes). */
async function overflowOf(page: Page): Promise<{ px: number; culprits: string }> {
  return page.evaluate(`(() => {
    const px = document.documentElement.scrollWidth - window.innerWidth;
    const culprits = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('.table-wrap'))
      .slice(0, 6).map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (typeof e.className === 'string' && e.className ? '.' + e.className.split(' ').join('.') : '')).join(', ');
    return { px, culprits };
  })()`);
}

/**
 * Screenshots of the page at 1280 and 390 px wide (`<name>-1280.png`, `<name>-390.png`), full
 * page; at both widths the page must not scroll sideways. The viewport is 1280 px wide after.
 */
export async function shootBothWidths(page: Page, name: string): Promise<void> {
  try {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      const o = await overflowOf(page);
      if (o.px > 1) throw new Error(`${name} at ${width} px scrolls sideways by ${o.px} px: ${o.culprits}`);
      await page.screenshot({ path: screenshotPath(`${name}-${width}`), fullPage: true });
    }
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
}

const AXE_SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../node_modules/axe-core/axe.min.js');

/** One accessibility rule broken on a page, as axe-core reports it. */
export interface AxeViolation { id: string; impact: string | null; help: string; targets: string[] }

/**
 * Runs axe-core (the npm package, injected into the page) on the page as it is and answers its
 * serious and critical violations (WCAG 2 A/AA and best-practice rules).
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol: the dashboard's Content-Security-Policy (script-src 'self') refuses injected script tags.
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(fs.readFileSync(AXE_SCRIPT, 'utf8'));
  const result = await page.evaluate(`window.axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  })))`) as AxeViolation[];
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
