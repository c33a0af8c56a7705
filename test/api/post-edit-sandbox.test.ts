/**
 * The edit route in sandbox mode (HERALD_SANDBOX=on, docs/decisions/0024 and 0060): the simulators
 * started in-process by startSandbox() answer the platform's edit call. The sandbox's Telegram bot
 * is connected to its channel, a post is published there and edited through POST
 * /v1/posts/{id}/edit; GET /v1/sandbox/telegram/state shows the edited message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SIMULATORS, startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { SANDBOX_TELEGRAM_BOT_TOKEN, type TelegramSimulator } from '../../sim/telegram/server.ts';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';

let sandbox: Sandbox;
let ctx: TestContext;
let tenant: Tenant;
let profileId: string;

beforeAll(async () => {
  sandbox = await startSandbox({ simulators: SANDBOX_SIMULATORS.filter((s) => s.platform === 'telegram'), bluesky: false });
  ctx = await createTestApp({ env: { HERALD_SANDBOX: 'on' }, deps: { sandbox } });
  tenant = await createTenant(ctx);
  profileId = await createProfile(ctx, tenant);
}, 60_000);
afterAll(async () => { await ctx?.close(); await sandbox?.close(); });

const call = (method: 'GET' | 'POST', url: string, payload?: object) => ctx.app.inject({ method, url, headers: tenant.headers, ...(payload ? { payload } : {}) });

describe('editing a published post in sandbox mode', () => {
  it('edits the message on the sandbox\'s Telegram simulator', async () => {
    const sim = sandbox.simulators.get('telegram') as unknown as TelegramSimulator;
    const channel = [...sim.chats.values()].find((c) => c.username === 'herald_sandbox')!;
    const started = await call('POST', '/v1/connect/telegram/bot-token', { profileId, botToken: SANDBOX_TELEGRAM_BOT_TOKEN });
    expect(started.statusCode, started.body).toBe(200);
    const chosen = await call('POST', '/v1/connect/telegram/select-chat', { profileId, tempToken: started.json().tempToken, chatId: String(channel.id) });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const accountId = chosen.json().account.accountId ?? chosen.json().account._id;
    const created = await call('POST', '/v1/posts', { content: 'Sandbox hello', publishNow: true, platforms: [{ platform: 'telegram', accountId }] });
    expect(created.statusCode, created.body).toBe(201);
    const post = created.json().post;
    expect(post.platforms[0].status).toBe('published');
    const edited = await call('POST', `/v1/posts/${post._id}/edit`, { platform: 'telegram', content: 'Sandbox hello, edited' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.headers['x-herald-sandbox']).toBe('true');
    const state = (await call('GET', '/v1/sandbox/telegram/state')).json().state;
    expect(JSON.stringify(state)).toContain('Sandbox hello, edited');
    expect(sim.messages.find((m) => m.message_id === Number(post.platforms[0].platformPostId))?.text).toBe('Sandbox hello, edited');
  });
});
