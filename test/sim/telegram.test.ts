/**
 * The Telegram Bot API simulator on its own (sim/telegram/server.ts), over HTTP as a client sees
 * it: Telegram's answer shapes and statuses for a wrong or malformed token and an unknown method,
 * parameters as query, JSON or form, getUpdates (allowed_updates, offset confirming updates, 409
 * with a webhook), a group's 20 messages a minute (429 with retry_after), rights per chat, replies
 * to a missing message, and deleteMessages skipping what is gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTelegramSimulator, type SimBot, type SimChat, type TelegramSimulator } from '../../sim/telegram/server.ts';

let sim: TelegramSimulator;
let bot: SimBot;
let group: SimChat;
let clock = Date.parse('2030-01-01T00:00:00Z');

beforeAll(async () => {
  sim = await startTelegramSimulator({ now: () => clock });
  bot = sim.addBot();
  group = sim.addChat({ type: 'group', title: 'G' });
  sim.setMember(bot, group, { status: 'administrator' });
});
afterAll(() => sim?.close());

const call = async (method: string, body: Record<string, unknown> = {}, token = bot.token) => {
  const res = await fetch(`${sim.url}/bot${token}/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() as { ok: boolean; result?: any; error_code?: number; description?: string; parameters?: { retry_after?: number } } };
};

describe('Telegram simulator', () => {
  it('answers Telegram\'s shapes: 401 Unauthorized for an unknown token, 404 for a malformed one or an unknown method', async () => {
    expect(await call('getMe', {}, `${bot.id}:wrongwrongwrongwrongwrong`)).toEqual({ status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } });
    expect((await call('getMe', {}, 'nonsense')).status).toBe(404);
    expect((await call('noSuchMethod')).body).toMatchObject({ ok: false, error_code: 404 });
    expect((await call('getMe')).body).toMatchObject({ ok: true, result: { id: bot.id, is_bot: true, username: bot.username } });
  });

  it('takes parameters as a query string and as a form too', async () => {
    const q = await fetch(`${sim.url}/bot${bot.token}/sendMessage?chat_id=${group.id}&text=by%20query`);
    expect(((await q.json()) as { result: { text: string } }).result.text).toBe('by query');
    const f = await fetch(`${sim.url}/bot${bot.token}/sendMessage`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `chat_id=${group.id}&text=by+form` });
    expect(((await f.json()) as { result: { text: string } }).result.text).toBe('by form');
  });

  it('getUpdates: my_chat_member for the bot, filtered by allowed_updates; an offset confirms earlier updates; 409 while a webhook is set', async () => {
    const all = (await call('getUpdates', { allowed_updates: ['my_chat_member'] })).body.result as Array<{ update_id: number; my_chat_member?: { chat: { id: number } } }>;
    expect(all.map((u) => u.my_chat_member?.chat.id)).toContain(group.id);
    const last = all.at(-1)!.update_id;
    expect((await call('getUpdates', { offset: last + 1 })).body.result).toEqual([]);
    bot.webhook = 'https://example.com/hook';
    expect((await call('getUpdates')).status).toBe(409);
    bot.webhook = null;
  });

  it('a group takes 20 messages a minute, then 429 "Too Many Requests: retry after N" with parameters.retry_after', async () => {
    const g = sim.addChat({ type: 'group', title: 'busy' });
    sim.setMember(bot, g, { status: 'administrator' });
    for (let i = 0; i < 20; i++) expect((await call('sendMessage', { chat_id: g.id, text: `m${i}` })).status).toBe(200);
    const limited = await call('sendMessage', { chat_id: g.id, text: 'one too many' });
    expect(limited.status).toBe(429);
    expect(limited.body.description).toMatch(/^Too Many Requests: retry after \d+$/);
    expect(limited.body.parameters?.retry_after).toBeGreaterThan(0);
    clock += 61_000;
    expect((await call('sendMessage', { chat_id: g.id, text: 'a minute later' })).status).toBe(200);
  });

  it('rights: a channel where the bot only reads, a chat it was kicked from, a chat it is not in', async () => {
    const ch = sim.addChat({ type: 'channel', title: 'C' });
    sim.setMember(bot, ch, { status: 'administrator', can_post_messages: false });
    expect((await call('sendMessage', { chat_id: ch.id, text: 'x' })).body.description).toMatch(/need administrator rights in the channel chat/);
    sim.setMember(bot, ch, { status: 'kicked' });
    expect(await call('sendMessage', { chat_id: ch.id, text: 'x' })).toMatchObject({ status: 403, body: { description: 'Forbidden: bot was kicked from the channel chat' } });
    expect((await call('sendMessage', { chat_id: -100999, text: 'x' })).body.description).toBe('Bad Request: chat not found');
  });

  it('a reply to a missing message is refused; deleteMessages skips ids that are gone, deleteMessage does not', async () => {
    expect((await call('sendMessage', { chat_id: group.id, text: 'r', reply_parameters: { message_id: 99_999 } })).body.description).toMatch(/message to be replied not found/);
    const m = (await call('sendMessage', { chat_id: group.id, text: 'to delete' })).body.result;
    expect((await call('deleteMessages', { chat_id: group.id, message_ids: [m.message_id, 99_998] })).body).toEqual({ ok: true, result: true });
    expect((await call('deleteMessage', { chat_id: group.id, message_id: m.message_id })).body.description).toMatch(/message to delete not found/);
  });
});
