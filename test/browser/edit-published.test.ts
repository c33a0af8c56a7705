/**
 * Editing a published post from its page (docs/decisions/0060-edit-published-posts.md): a published
 * Discord target offers "Edit text", which opens an in-app dialog with the text; a text over
 * Discord's 2,000 characters is refused with the field and rule named (nothing sent); a good text
 * changes the message on the Discord simulator, the page and the publishing log. A published
 * Bluesky target says it cannot be edited. Real Chromium against the real app and the Discord
 * simulator; axe on the dialog; screenshots at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startDiscordSimulator, type DiscordSimulator } from '../../sim/discord/server.ts';
import { platformEnv } from '../support/harness.ts';
import { runDue, startTestPublisher } from '../support/publishing.ts';
import { axeViolations, chromiumAvailable, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const hasChromium = chromiumAvailable('test/browser/edit-published.test.ts');
let sim: DiscordSimulator;
let d: DashboardHarness;
let page: Page;
let postId: string;
const nativeDialogs: string[] = [];

beforeAll(async () => {
  if (!hasChromium) return;
  sim = await startDiscordSimulator();
  sim.guild.members.set(sim.bot.id, sim.guild.roles.filter((r) => r.managed).map((r) => r.id));
  d = await startDashboard({
    user: { email: 'edit@published.test', password: 'a long dashboard password', name: 'Eddie Edit' },
    env: { ...platformEnv('discord', sim), HERALD_DISCORD_BOT_TOKEN: sim.botToken },
    profile: 'Brand', accounts: [{ platform: 'discord', username: 'general' }, { platform: 'bluesky', username: 'main.test' }],
  });
  // The Discord account posts to the simulator's #general channel (what the connect flow stores).
  await d.ctx.db.query('UPDATE accounts SET platform_user_id = $2, settings = $3 WHERE id = $1',
    [d.accounts.general, sim.channels.general.id, JSON.stringify({ guildId: sim.guild.id, channelId: sim.channels.general.id, channelType: 0 })]);
  const res = await d.ctx.app.inject({
    method: 'POST', url: '/v1/posts', headers: d.tenant.headers,
    payload: { content: 'Doors open at 9', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'discord', accountId: d.accounts.general }] },
  });
  expect(res.statusCode, res.body).toBe(201);
  postId = res.json().post._id;
  await runDue(d.ctx, await startTestPublisher(d.ctx, `edit-${postId}`), postId);
  // A second target, published on Bluesky (which has no edit): the page says so.
  await d.ctx.db.query(
    `INSERT INTO post_targets (id, post_id, tenant_id, position, account_id, platform, status, platform_post_id, platform_post_url, published_at)
     VALUES (substr(md5(random()::text), 1, 24), $1, $2, 1, $3, 'bluesky', 'published', 'at://did:plc:x/app.bsky.feed.post/1', 'https://bsky.app/profile/main.test/post/1', now())`,
    [postId, d.tenant.userId, d.accounts['main.test']]);
  page = d.page;
  page.on('dialog', (dlg) => { nativeDialogs.push(`${dlg.type()}: ${dlg.message()}`); void dlg.dismiss(); });
}, 120_000);
afterAll(async () => { await d?.close(); await sim?.close(); });

describe.skipIf(!hasChromium)('edit a published post from its page', () => {
  it('opens an in-app dialog, refuses a text over Discord\'s limit naming the rule, then edits the message on Discord', async () => {
    const message = sim.messages.find((m) => m.content === 'Doors open at 9')!;
    expect(message).toBeDefined();
    await d.signIn();
    await page.goto(`${d.base}/dashboard/posts/${postId}`);
    await page.getByText('Bluesky posts cannot be edited after publishing.').waitFor();
    await page.getByRole('button', { name: 'Edit text on Discord' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the Discord post' });
    await dialog.waitFor();
    const text = dialog.getByLabel('Text');
    expect(await text.inputValue()).toBe('Doors open at 9');
    const found = await axeViolations(page);
    expect(found.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(' | ')})`)).toEqual([]);

    await text.fill('x'.repeat(2001));
    await dialog.getByRole('button', { name: 'Save on Discord' }).click();
    await dialog.getByRole('alert').getByText(/discord\.text\.max_length/).waitFor();
    expect(message.content).toBe('Doors open at 9');
    await shootBothWidths(page, 'edit-published-dialog-error');

    await text.fill('Doors open at 10 (moved)');
    await dialog.getByRole('button', { name: 'Save on Discord' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Edited on Discord', { exact: true }).waitFor();
    expect(message.content).toBe('Doors open at 10 (moved)');
    expect(message.edited_timestamp).toEqual(expect.any(String));
    await page.getByText('Custom text: Doors open at 10 (moved)').waitFor();
    const log = page.getByRole('region', { name: 'Publishing log' });
    await log.locator('.log-entry').filter({ hasText: /edit/i }).first().waitFor();
    await shootBothWidths(page, 'edit-published-after');
    expect(nativeDialogs).toEqual([]);
  });
});
