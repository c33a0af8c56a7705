/**
 * Connecting Mastodon from the dashboard in a real Chromium (sandbox mode: the simulator is the
 * instance): the Mastodon button opens a form asking for the server first; continuing goes to the
 * server's authorization page, which approves and returns to Herald, and the dashboard lists the
 * account. An empty server is not sent; a malformed one is refused with the server's reason.
 * axe-core on the form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SIMULATORS, startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { axeViolations, chromiumAvailable, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/mastodon-connect.test.ts');

let sandbox: Sandbox;
let d: DashboardHarness;

beforeAll(async () => {
  if (!hasChromium) return;
  sandbox = await startSandbox({ simulators: SANDBOX_SIMULATORS.filter((s) => s.platform === 'mastodon'), bluesky: false });
  d = await startDashboard({
    user: { email: 'fedi@herald.test', password: 'a long fediverse password', name: 'Fay Fedi' },
    env: { HERALD_SANDBOX: 'on' }, deps: { sandbox }, profile: 'Fedi brand',
  });
}, 240_000);

afterAll(async () => {
  await d?.close();
  await sandbox?.close();
});

describe.skipIf(!hasChromium)('connecting Mastodon in the dashboard', () => {
  it('asks for the server first, then connects through it', async () => {
    const { page } = d;
    await d.signIn();
    await d.nav().getByRole('link', { name: 'Profiles & accounts' }).click();
    const card = page.getByRole('region', { name: /Fedi brand/ });
    const button = card.getByRole('button', { name: 'Mastodon', exact: true });
    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    const form = page.getByRole('form', { name: 'Connect Mastodon' });
    const server = form.getByLabel('Mastodon server');
    await server.waitFor();
    expect(await server.getAttribute('placeholder')).toBe('mastodon.social');
    expect(await axeViolations(page)).toEqual([]);
    await server.fill('mastodon.social/@me');
    await form.getByRole('button', { name: 'Continue to Mastodon' }).click();
    await form.getByText(/host name only/).waitFor();
    await server.fill('mastodon.social');
    await form.getByRole('button', { name: 'Continue to Mastodon' }).click();
    const row = page.locator('.account-row', { hasText: 'herald@mastodon.sim' });
    await row.getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 });
    const accounts = (await d.ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: d.tenant.headers })).json().accounts as Array<{ platform: string; username: string }>;
    expect(accounts).toMatchObject([{ platform: 'mastodon', username: 'herald@mastodon.sim' }]);
  }, 120_000);
});
