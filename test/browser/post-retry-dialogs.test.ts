/**
 * A partly failed post offers Retry, which publishes only its failed platform again (the
 * published one is never sent twice); the publishing log says "Failed" in words for the failed
 * attempt (not "pending"); deleting and unpublishing ask in an in-app dialog (never the browser's
 * confirm box) and say the result in a toast. Real Chromium against the real app (a scripted
 * Bluesky adapter stands in for the platform); axe on the dialog and the toast. Screenshots at
 * 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { AdapterError } from '../../src/platforms/types.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';
import { runDue, startTestPublisher } from '../support/publishing.ts';
import { answerConfirm, axeViolations, chromiumAvailable, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/post-retry-dialogs.test.ts');
const scripted = new ScriptedAdapter();
/** The second account refuses its first publish ("#big"), then accepts: a failure a retry fixes. */
let refuseBig = true;
const commit = scripted.commit.bind(scripted);
scripted.commit = async (c, account, req, prepared) => {
  if (refuseBig && req.text.includes('#big')) throw new AdapterError('rejected', 'The image is too large for this account (scripted)');
  return commit(c, account, req, prepared);
};

let d: DashboardHarness;
let page: Page;
const nativeDialogs: string[] = [];

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'retry@dialogs.test', password: 'a long dashboard password', name: 'Rita Retry' },
    deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: scripted }) },
    profile: 'Brand', accounts: [{ platform: 'bluesky', username: 'main.test' }, { platform: 'bluesky', username: 'second.test' }],
  });
  page = d.page;
  // The browser's own dialogs are never used: any would be recorded here (and dismissed).
  page.on('dialog', (dlg) => { nativeDialogs.push(`${dlg.type()}: ${dlg.message()}`); void dlg.dismiss(); });
}, 120_000);
afterAll(async () => { await d?.close(); });

/** A post to both accounts (`second` text for the second), published by a test worker. */
async function published(text: string, second: string): Promise<string> {
  const res = await d.ctx.app.inject({
    method: 'POST', url: '/v1/posts', headers: d.tenant.headers,
    payload: { content: text, scheduledFor: '2030-01-01T00:00:00Z', platforms: [
      { platform: 'bluesky', accountId: d.accounts['main.test'] },
      { platform: 'bluesky', accountId: d.accounts['second.test'], customContent: second },
    ] },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().post._id as string;
  await runDue(d.ctx, await startTestPublisher(d.ctx, `retry-${id}`), id);
  return id;
}

async function expectNoSeriousViolations(where: string) {
  const found = await axeViolations(page);
  expect(found.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(' | ')})`), where).toEqual([]);
}

describe.skipIf(!hasChromium)('retry of a partial post, in-app dialogs and toasts', () => {
  let partialId: string;

  it('offers Retry on a partly failed post and labels the failed attempt "Failed" in the log', async () => {
    partialId = await published('Autumn menu is here', 'Autumn menu #big');
    await d.signIn();
    await page.goto(`${d.base}/dashboard/posts/${partialId}`);
    await page.getByRole('region', { name: 'Status' }).getByText('partial').waitFor();
    const log = page.getByRole('region', { name: 'Publishing log' });
    const failed = log.locator('.log-entry[data-status="failed"]');
    await failed.getByText('The image is too large for this account (scripted)').waitFor();
    expect(await failed.locator('.log-status').textContent()).toBe('Failed');
    expect(await log.locator('.log-entry[data-status="success"] .log-status').textContent()).toBe('Succeeded');
    expect(await log.textContent()).not.toMatch(/pending/i);
    await page.getByRole('button', { name: 'Retry failed platforms' }).waitFor();
    await shootBothWidths(page, 'post-partial-retry');
  });

  it('retries only the failed platform: the published one is not sent again, and the post ends published', async () => {
    refuseBig = false;
    const before = scripted.commits.filter((c) => c.accountId === d.accounts['main.test']).length;
    await page.getByRole('button', { name: 'Retry failed platforms' }).click();
    const toasts = page.getByRole('region', { name: 'Notifications' });
    await toasts.getByText('Retrying').waitFor();
    expect(await toasts.textContent()).toContain('the platform that failed');
    const res = await d.ctx.app.inject({ method: 'GET', url: `/v1/posts/${partialId}`, headers: d.tenant.headers });
    expect(res.json().post.status).toBe('publishing');
    await runDue(d.ctx, await startTestPublisher(d.ctx, `retry2-${partialId}`), partialId);
    await page.getByRole('region', { name: 'Status' }).getByText('published', { exact: true }).waitFor();
    expect(scripted.commits.filter((c) => c.accountId === d.accounts['main.test']).length).toBe(before);
    expect(scripted.commits.filter((c) => c.accountId === d.accounts['second.test'] && c.text.includes('#big'))).toHaveLength(1);
    // The log now shows the failed attempt, then the successful retry, in words.
    const statuses = await page.getByRole('region', { name: 'Publishing log' }).locator('.log-status').allTextContents();
    expect(statuses).toContain('Failed');
    expect(statuses.filter((s) => s === 'Succeeded').length).toBe(2);
  });

  it('asks before unpublishing in an accessible in-app dialog (Cancel first), and says what each platform did in a toast', async () => {
    await page.getByRole('button', { name: 'Unpublish' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Unpublish this post?' });
    await dialog.waitFor();
    // Cancel is focused first: Enter on an opened dialog never destroys anything.
    expect(await dialog.getByRole('button', { name: 'Cancel' }).evaluate((b: { ownerDocument: { activeElement: unknown } }) => b === b.ownerDocument.activeElement)).toBe(true);
    await expectNoSeriousViolations('unpublish dialog');
    await shootBothWidths(page, 'dialog-unpublish');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(scripted.deleted).toHaveLength(0);

    await page.getByRole('button', { name: 'Unpublish' }).click();
    await answerConfirm(page, 'Unpublish');
    const toasts = page.getByRole('region', { name: 'Notifications' });
    await toasts.getByText('Unpublished').waitFor();
    expect(await toasts.locator('[data-outcome="deleted"]').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('@main.test: deleted'), expect.stringContaining('@second.test: deleted')]));
    expect(scripted.deleted).toHaveLength(2);
    await page.getByRole('region', { name: 'Status' }).getByText('cancelled').waitFor();
    // The title bar holds the page's actions only: the result is not squeezed into it.
    expect(await page.locator('.page-actions [data-outcome]').count()).toBe(0);
    await expectNoSeriousViolations('unpublish toast');
    await shootBothWidths(page, 'toast-unpublish');
  });

  it('deletes a failed post after the in-app dialog, with a toast on the list', async () => {
    refuseBig = true;
    const res = await d.ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: d.tenant.headers,
      payload: { content: 'Never made it #big', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: d.accounts['second.test'] }] },
    });
    const id = res.json().post._id as string;
    await runDue(d.ctx, await startTestPublisher(d.ctx, `del-${id}`), id);
    await page.goto(`${d.base}/dashboard/posts/${id}`);
    await page.getByRole('button', { name: 'Retry', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await answerConfirm(page, 'Delete post');
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
    await page.getByRole('region', { name: 'Notifications' }).getByText('Post deleted').waitFor();
    expect((await d.ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: d.tenant.headers })).statusCode).toBe(404);
    expect(nativeDialogs).toEqual([]);
  });
});
