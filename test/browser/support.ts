/**
 * Browser tests in a real Chromium (Debian's package, driven by playwright-core): launch with
 * a fresh profile directory, and screenshots into test-results/screenshots (gitignored).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';

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
