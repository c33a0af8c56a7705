/**
 * The post detail page shows the publishing log (with the platform's HTTP status and answer) and
 * unpublishes a post; the profiles page shows account health. Real Chromium against the real app
 * (a scripted Bluesky adapter stands in for the platform). Screenshots at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';
import { runDue, startTestPublisher } from '../support/publishing.ts';
import { answerConfirm, chromiumAvailable, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/publishing-logs.test.ts');
let d: DashboardHarness;

beforeAll(async () => {
  if (!hasChromium) return;
  d = await startDashboard({
    user: { email: 'ops@logs.test', password: 'a long dashboard password', name: 'Olga Ops' },
    deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: new ScriptedAdapter() }) },
    profile: 'Brand', accounts: [{ platform: 'bluesky', username: 'brand.test' }, { platform: 'bluesky', username: 'old.test', isActive: false }],
    acceptDialogs: true,
  });
}, 120_000);
afterAll(async () => { await d?.close(); });

async function scheduled(text: string): Promise<string> {
  const res = await d.ctx.app.inject({
    method: 'POST', url: '/v1/posts', headers: d.tenant.headers,
    payload: { content: text, scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: d.accounts['brand.test'] }] },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().post._id;
  await runDue(d.ctx, await startTestPublisher(d.ctx, `logs-${id}`), id);
  return id;
}

describe.skipIf(!hasChromium)('publishing log, unpublish and account health in the dashboard', () => {
  it('shows a refused publish with the platform\'s status, endpoint and answer', async () => {
    const id = await scheduled('Refused by the platform #http422');
    await d.signIn();
    await d.page.goto(`${d.base}/dashboard/posts/${id}`);
    const log = d.page.getByRole('region', { name: 'Publishing log' });
    await log.getByText('POST /xrpc/com.atproto.repo.createRecord → HTTP 422').waitFor();
    await log.getByText('Invalid record (scripted) (platform_rejected)').waitFor();
    await log.getByText('Platform answer').click();
    const answer = await log.locator('pre').textContent();
    expect(answer).toContain('[redacted]');
    expect(answer).not.toContain('eyJhbGci');
    await shootBothWidths(d.page, 'post-publishing-log');
  });

  it('unpublishes a published post and says what each platform did', async () => {
    const id = await scheduled('Published, then taken back');
    await d.page.goto(`${d.base}/dashboard/posts/${id}`);
    await d.page.getByRole('button', { name: 'Unpublish' }).click();
    await answerConfirm(d.page, 'Unpublish');
    // What each platform did comes in a toast, which stays after the post became cancelled (and the button went away).
    await d.page.getByRole('region', { name: 'Notifications' }).locator('[data-outcome="deleted"]').waitFor();
    await d.page.getByText('cancelled').first().waitFor();
    expect(await d.page.getByRole('button', { name: 'Unpublish' }).count()).toBe(0);
    await d.page.getByText(/Deleted from the platform on/).waitFor();
    expect(await d.page.getByRole('link', { name: 'View the published post' }).count()).toBe(0);
    await shootBothWidths(d.page, 'post-unpublish');
  });

  it('shows account health on the profiles page', async () => {
    await d.nav().getByRole('link', { name: 'Profiles & accounts' }).click();
    const health = d.page.getByRole('region', { name: 'Account health' });
    await health.getByText('1 cannot post').waitFor();
    await health.getByText('@old.test').waitFor();
    await health.getByText(/needs to be reconnected/).waitFor();
    await shootBothWidths(d.page, 'account-health');
  });
});
