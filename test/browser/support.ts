/**
 * Browser tests in a real Chromium (Debian's package, driven by playwright-core): launch with
 * a fresh profile directory, and screenshots into test-results/screenshots (gitignored).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import type { ServiceDeps } from '../../src/services.ts';
import type { AddonId, PlanId } from '../../src/shared/plans.ts';
import { createProfile, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { freePort } from '../support/net.ts';

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
      // From the top: a full-page shot of a scrolled page draws the sticky header mid-page. A long
      // page at 390 px took over Playwright's 15 s to capture while the crash flows loaded both cores.
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: screenshotPath(`${name}-${width}`), fullPage: true, timeout: 40_000 });
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

/**
 * Answers the dashboard's in-app confirmation dialog (an alertdialog, web/src/dashboard/ui/confirm.tsx)
 * by pressing its `button` (its confirm label, or Cancel), and waits for it to close.
 */
export async function answerConfirm(page: Page, button: string): Promise<void> {
  // The modal one: toasts are alertdialogs too (non-modal).
  const dialog = page.locator('.ui-dialog[role="alertdialog"]');
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** The dashboard's user in a browser test: signs in with email and password. */
export interface DashboardUser { email: string; password: string; name: string; plan?: PlanId; addons?: AddonId[] }

/** The real app listening on a free port, a root user (with an API key for fixtures), and Chromium on the dashboard. */
export interface DashboardHarness {
  ctx: TestContext;
  /** `http://127.0.0.1:<port>` */
  base: string;
  browser: Browser;
  page: Page;
  user: DashboardUser;
  /** The user as an API client (`headers` carry its API key), for fixtures and for reading back what the dashboard did. */
  tenant: Tenant;
  /** The profile made by `profile`, else null. */
  profileId: string | null;
  /** Ids of the accounts made by `accounts`, by username. */
  accounts: Record<string, string>;
  /** Signs in on the sign-in page and waits for the calendar (the landing page). */
  signIn(): Promise<void>;
  /** The dashboard's main navigation. */
  nav(): Locator;
  /** Closes the browser, then the app. */
  close(): Promise<void>;
}

/**
 * Starts what a dashboard browser test needs (the setup each of them repeated): the app
 * listening on a free port (`env` and `deps` passed to createTestApp), the root user `user`
 * with an API key, optionally a profile named `profile` holding `accounts` (inserted as
 * connected, no platform involved), and Chromium in `timezoneId` (UTC by default) at 1280x900,
 * accepting confirm() dialogs when `acceptDialogs`. Not signed in: call `signIn()`.
 */
export async function startDashboard(opts: {
  user: DashboardUser;
  env?: Record<string, string>;
  deps?: Partial<ServiceDeps>;
  profile?: string;
  accounts?: Array<{ platform: string; username: string; isActive?: boolean }>;
  timezoneId?: string;
  acceptDialogs?: boolean;
}): Promise<DashboardHarness> {
  const port = await freePort();
  const ctx = await createTestApp({ listen: true, env: { ...opts.env, PORT: String(port) }, ...(opts.deps ? { deps: opts.deps } : {}) });
  const base = `http://127.0.0.1:${port}`;
  const { user } = opts;
  const { userId } = await ctx.services.users.createRootUser({ email: user.email, password: user.password, name: user.name, plan: user.plan ?? 'advanced', addons: user.addons });
  const key = await ctx.services.apiKeys.create({ tenantId: userId, userId }, { name: 'setup' });
  const tenant: Tenant = { userId, apiKey: key.key, headers: { authorization: `Bearer ${key.key}` } };
  const profileId = opts.profile ? await createProfile(ctx, tenant, opts.profile) : null;
  const accounts: Record<string, string> = {};
  for (const a of opts.accounts ?? []) {
    if (!profileId) throw new Error('startDashboard: accounts need a profile');
    accounts[a.username] = await insertAccount(ctx, tenant, profileId, a.platform, { username: a.username, ...(a.isActive === undefined ? {} : { isActive: a.isActive }) });
  }
  const browser = await launch({ timezoneId: opts.timezoneId ?? 'UTC', viewport: { width: 1280, height: 900 } });
  const page = await browser.context.newPage();
  if (opts.acceptDialogs) page.on('dialog', (d) => void d.accept());
  return {
    ctx, base, browser, page, user, tenant, profileId, accounts,
    async signIn() {
      await page.goto(`${base}/dashboard`);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    },
    nav: () => page.getByRole('navigation', { name: 'Dashboard' }),
    async close() {
      await browser.close();
      await ctx.close();
    },
  };
}

/**
 * Scrolls the time-zone field into view and lets the page's scroll event go out before the list is
 * opened. A combobox's list closes on any page scroll (React Aria), and Playwright scrolls and clicks
 * within one frame, which no person does: the scroll event would land just after the list opened.
 */
async function settleTimeZoneField(page: Page, label: string): Promise<void> {
  // A layout change (the composer's phone tabs coming or going on a resize) re-mounts the field while
  // Playwright scrolls to it; scrollIntoViewIfNeeded does not retry a detached element, so this does.
  for (let attempt = 1; ; attempt++) {
    try {
      await page.getByRole('combobox', { name: label }).scrollIntoViewIfNeeded({ timeout: 5_000 });
      break;
    } catch (err) {
      if (attempt >= 5 || !/not attached/i.test(String(err))) throw err;
    }
  }
  await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
}

/** Opens the time-zone list with its "Show time zones" button (see settleTimeZoneField). */
export async function openTimeZones(page: Page, label = 'Time zone'): Promise<void> {
  await settleTimeZoneField(page, label);
  await page.getByRole('button', { name: 'Show time zones' }).click();
}

/**
 * Picks `zone` in the page's time-zone combobox (web/src/dashboard/ui/time-zone-picker.tsx) the
 * way a user does: types `typed` (part of its name) and clicks the option, then checks the field shows it.
 */
export async function pickTimeZone(page: Page, typed: string, zone: string, label = 'Time zone'): Promise<void> {
  const box = page.getByRole('combobox', { name: label });
  await settleTimeZoneField(page, label);
  await box.fill(typed);
  await page.getByRole('listbox').getByRole('option', { name: new RegExp(`^${zone.replace(/_/g, ' ').replace(/[/+]/g, '\\$&')}\\b`) }).click();
  if (await box.inputValue() !== zone) throw new Error(`the time-zone field shows ${await box.inputValue()}, not ${zone}`);
}

/** Where a date or time field is looked up: the page, or a part of it (a dialog). */
type Scope = Page | Locator;
const pageOf = (scope: Scope): Page => ('keyboard' in scope ? scope : scope.page());

/**
 * Types into a React Aria date or time field's segments (web/src/dashboard/ui/date-time-picker.tsx)
 * the way a user does, whatever the locale's order of them: each segment by its type.
 */
async function typeSegments(scope: Scope, label: string, values: Record<string, string>): Promise<void> {
  const page = pageOf(scope);
  const segments = scope.getByRole('group', { name: label, exact: true }).first().locator('[data-type]:not([data-type="literal"])');
  const n = await segments.count();
  for (let i = 0; i < n; i++) {
    const segment = segments.nth(i);
    const type = (await segment.getAttribute('data-type')) ?? '';
    const value = values[type];
    if (value === undefined) continue;
    await segment.focus();
    await page.keyboard.type(value);
    // The next segment is typed only once this one shows its value (its spinbutton's aria-valuenow), so a
    // slow render cannot take the keystrokes meant for it; a field that lost a digit fails here, by name,
    // instead of as a request that never comes (a 12-hour hour reads back as typed or as the 24-hour value).
    if (!/^\d+$/.test(value)) continue;
    const want = Number(value);
    if (!(await valueNowBecomes(segment, (now) => (type === 'hour' ? now % 12 === want % 12 : now === want)))) {
      throw new Error(`the ${label} field's ${type} segment shows ${await segment.getAttribute('aria-valuenow')}, not ${value}`);
    }
  }
}

/** Whether the segment's aria-valuenow comes to satisfy `ok` within 5 s. */
async function valueNowBecomes(segment: Locator, ok: (now: number) => boolean): Promise<boolean> {
  const until = Date.now() + 5_000;
  while (Date.now() < until) {
    const now = await segment.getAttribute('aria-valuenow');
    if (now !== null && ok(Number(now))) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/**
 * Sets the dashboard's date field labelled `label` (a React Aria DatePicker) to `date`
 * (`YYYY-MM-DD`) by typing into its segments.
 */
export async function fillDate(scope: Scope, label: string, date: string): Promise<void> {
  const [year, month, day] = date.split('-');
  await typeSegments(scope, label, { year, month, day });
}

/**
 * Sets the dashboard's time field labelled `label` (a React Aria TimeField) to `time` (`HH:MM`,
 * 24-hour) by typing into its segments; a 12-hour locale gets the hour and AM/PM.
 */
export async function fillTime(scope: Scope, label: string, time: string): Promise<void> {
  const [h, minute] = time.split(':');
  const hour = Number(h);
  const twelve = await scope.getByRole('group', { name: label, exact: true }).first().locator('[data-type="dayPeriod"]').count() > 0;
  await typeSegments(scope, label, twelve
    ? { hour: String(hour % 12 || 12), minute, dayPeriod: hour < 12 ? 'A' : 'P' }
    : { hour: h, minute });
}

/**
 * Sets the composer's "Date" (`YYYY-MM-DD`) and "Time" (`HH:MM`, 24-hour) fields by typing into
 * their segments; a 12-hour locale gets the hour and AM/PM.
 */
export async function fillDateTime(page: Page, date: string, time: string): Promise<void> {
  await fillDate(page, 'Date', date);
  await fillTime(page, 'Time', time);
}

/**
 * How many px of the element's content are cut off sideways (its scrollWidth over its
 * clientWidth; 0 when all of it shows), for each element the locator matches.
 */
export async function clippedPx(locator: Locator): Promise<number[]> {
  return locator.evaluateAll((els) => els.map((e) => Math.max(0, e.scrollWidth - e.clientWidth)));
}

/**
 * How many px of a native `<select>`'s chosen option are cut off: the option's text measured in the
 * select's font, plus its side paddings and Chromium's drop-down arrow (20 px), over its
 * clientWidth (a select's own scrollWidth never exceeds its clientWidth, so it cannot tell).
 */
export async function selectClippedPx(select: Locator): Promise<number> {
  // Runs in the page: its DOM, typed here by the little it uses (this file compiles without the DOM library).
  type Style = { fontStyle: string; fontWeight: string; fontSize: string; fontFamily: string; paddingLeft: string; paddingRight: string };
  type Win = { getComputedStyle(e: unknown): Style; document: { createElement(tag: 'canvas'): { getContext(kind: '2d'): { font: string; measureText(t: string): { width: number } } } } };
  return select.evaluate((el) => {
    const w = globalThis as unknown as Win;
    const sel = el as unknown as { options: ArrayLike<{ text: string }>; selectedIndex: number; clientWidth: number };
    const s = w.getComputedStyle(el);
    const ctx = w.document.createElement('canvas').getContext('2d');
    ctx.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const text = sel.options[sel.selectedIndex]?.text ?? '';
    const need = ctx.measureText(text).width + parseFloat(s.paddingLeft) + parseFloat(s.paddingRight) + 20;
    return Math.max(0, Math.ceil(need - sel.clientWidth));
  });
}
