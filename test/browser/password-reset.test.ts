/**
 * The sign-in page and password reset by email in a real Chromium, with a local SMTP server
 * (smtp-server on loopback) that receives the mail: the sign-in page links to sign-up when it is
 * open and offers "Forgot your password?" only when SMTP is configured (no `npx herald` commands);
 * the user asks for a link, opens it from the mail, sets a new password and is signed in while
 * their other session ends; the used link then says so. Screenshots at 1280 and 390 px; axe-core
 * finds no serious or critical violation on these screens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTestApp, type TestContext } from '../support/app.ts';
import { freePort } from '../support/net.ts';
import { startLocalSmtp, type LocalSmtp } from '../support/smtp.ts';
import { axeViolations, chromiumAvailable, launch, shootBothWidths, type Browser } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/password-reset.test.ts');
const email = 'robin@herald.test';
const oldPassword = 'robin old password';
const newPassword = 'robin new password 2';

let smtp: LocalSmtp;
let ctx: TestContext;
let plain: TestContext;
let base: string;
let plainBase: string;
let browser: Browser;

beforeAll(async () => {
  if (!hasChromium) return;
  smtp = await startLocalSmtp();
  const [port, plainPort] = await Promise.all([freePort(), freePort()]);
  [ctx, plain] = await Promise.all([
    createTestApp({ listen: true, env: { PORT: String(port), HERALD_SIGNUP: 'open', ...smtp.env } }),
    createTestApp({ listen: true, env: { PORT: String(plainPort) } }),
  ]);
  base = `http://127.0.0.1:${port}`;
  plainBase = `http://127.0.0.1:${plainPort}`;
  await ctx.services.users.createRootUser({ email, password: oldPassword, name: 'Robin', plan: 'basic' });
  browser = await launch({ viewport: { width: 1280, height: 900 } });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await ctx?.close();
  await plain?.close();
  await smtp?.close();
});

async function expectNoSeriousViolations(page: Page, where: string) {
  const found = await axeViolations(page);
  expect(found.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(' | ')})`), where).toEqual([]);
}

describe.skipIf(!hasChromium)('sign-in page and password reset', () => {
  it('links to sign-up and offers a password reset when both are on, with no CLI commands', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${base}/dashboard`);
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    expect(await page.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/signup');
    expect(await page.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe('/dashboard/forgot-password');
    expect(await page.locator('main').textContent()).not.toContain('npx herald');
    await expectNoSeriousViolations(page, 'sign-in');
    await shootBothWidths(page, 'sign-in');
    await page.close();
  });

  it('hides the reset link when SMTP is not configured, and the reset page says reset is off', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${plainBase}/dashboard`);
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    expect(await page.getByRole('link', { name: 'Forgot your password?' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Create an account' }).count()).toBe(0);
    expect(await page.locator('main').textContent()).toMatch(/Ask the administrator/);
    expect(await page.locator('main').textContent()).not.toContain('npx herald');
    await shootBothWidths(page, 'sign-in-closed');
    await page.goto(`${plainBase}/dashboard/forgot-password`);
    await page.getByRole('heading', { name: 'Password reset is off' }).waitFor();
    await page.close();
  });

  it('mails a link, sets the new password from it, signs in here and out everywhere else', async () => {
    // The user's other browser, signed in with the old password.
    const otherCtx = await launch({ viewport: { width: 1280, height: 900 } });
    const other = await otherCtx.context.newPage();
    await other.goto(`${base}/dashboard`);
    await other.getByLabel('Email').fill(email);
    await other.getByLabel('Password').fill(oldPassword);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.getByRole('heading', { name: 'Calendar' }).waitFor();

    const page = await browser.context.newPage();
    await page.goto(`${base}/dashboard`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await expectNoSeriousViolations(page, 'forgot password');
    await shootBothWidths(page, 'forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send me a reset link' }).click();
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
    expect(await page.getByRole('status').textContent()).toMatch(/If an account uses this email/);
    await shootBothWidths(page, 'forgot-password-sent');

    const mail = await smtp.waitFor(email);
    const link = /(http:\/\/\S+\/dashboard\/reset-password\?token=[A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
    expect(link, mail.text).toBeDefined();
    expect(new URL(link!).origin).toBe(base);
    await page.goto(link!);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await expectNoSeriousViolations(page, 'reset password');
    await shootBothWidths(page, 'reset-password');
    // Two different passwords are caught before anything is sent.
    await page.getByLabel('New password (at least 8 characters)').fill(newPassword);
    await page.getByLabel('Repeat the new password').fill('something else entirely');
    await page.getByRole('button', { name: 'Set the new password and sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'the two passwords differ' }).waitFor();
    await page.getByLabel('Repeat the new password').fill(newPassword);
    await page.getByRole('button', { name: 'Set the new password and sign in' }).click();
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();

    // The other browser's session has ended: its next request sends it back to sign-in.
    await other.reload();
    await other.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    await otherCtx.close();

    // The link was used up.
    const again = await browser.context.newPage();
    await again.goto(link!);
    await again.getByRole('heading', { name: 'This link has already been used' }).waitFor();
    expect(await again.getByRole('link', { name: 'Send me a new link' }).getAttribute('href')).toBe('/dashboard/forgot-password');
    await shootBothWidths(again, 'reset-password-used');
    await again.close();

    // The new password signs in; the old one does not.
    const login = (password: string) => ctx.app.inject({ method: 'POST', url: '/auth/login', headers: { origin: 'http://localhost:80', host: 'localhost:80' }, payload: { email, password } });
    expect((await login(newPassword)).statusCode).toBe(200);
    expect((await login(oldPassword)).statusCode).toBe(401);
    await page.close();
  });
});
