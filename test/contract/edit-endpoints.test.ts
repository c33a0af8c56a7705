/**
 * The simulators' edit endpoints, with the platforms' rules, and the adapters' `editPublished`
 * against them (docs/decisions/0060-edit-published-posts.md):
 * - Discord PATCH /channels/{id}/messages/{id}: the bot's own message only (403 50005 for another
 *   user's), content at most 2,000 characters (50035 BASE_TYPE_MAX_LENGTH), unknown message 10008.
 * - Telegram editMessageText / editMessageCaption: the bot's own message, text 1-4096, caption
 *   0-1024, the right method for the message kind, "message is not modified" for the same text.
 * - Mastodon PUT /api/v1/statuses/:id: the token's own status only (404), the instance's limit (422).
 * The API-level flows (rules checked before, logs, stored text) are test/api/post-edit.test.ts and
 * test/api/post-update-metadata.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDiscordSimulator, type DiscordSimulator } from '../../sim/discord/server.ts';
import { startTelegramSimulator, type SimBot, type SimChat, type TelegramSimulator } from '../../sim/telegram/server.ts';
import { startMastodonSimulator, type MastodonSimulator } from '../../sim/mastodon/server.ts';
import { DiscordAdapter } from '../../src/platforms/discord/adapter.ts';
import { TelegramAdapter } from '../../src/platforms/telegram/adapter.ts';
import type { TelegramCredentials } from '../../src/platforms/telegram/connect.ts';
import { AdapterError, type AccountContext, type AdapterContext, type EditRequest } from '../../src/platforms/types.ts';

const ctx: AdapterContext = {
  saveCredentials: async () => {}, fetchMedia: () => Promise.reject(new Error('no media')), log: () => {},
};
const editOf = (id: string, text: string, o: Partial<EditRequest> = {}): EditRequest => ({
  text, post: { platformPostId: id, threadIds: [], platformPostUrl: `https://example.test/${id}` }, mediaItems: [], platformSpecificData: {}, ...o,
});
const refused = async (p: Promise<unknown>): Promise<AdapterError> => {
  const e = await p.then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(AdapterError);
  return e as AdapterError;
};

describe('Discord: PATCH a message', () => {
  let sim: DiscordSimulator;
  let adapter: DiscordAdapter;
  let account: AccountContext;
  beforeAll(async () => {
    sim = await startDiscordSimulator();
    // The bot joined the server (the OAuth bot scope does it in the connect flow).
    sim.guild.members.set(sim.bot.id, sim.guild.roles.filter((r) => r.managed).map((r) => r.id));
    adapter = new DiscordAdapter(() => ({ clientId: sim.clientId, clientSecret: sim.clientSecret, apiBaseUrl: sim.url, authBaseUrl: sim.url, botToken: sim.botToken }));
    account = { id: 'a', platformUserId: sim.channels.general.id, username: 'general', credentials: {}, settings: { channelId: sim.channels.general.id, channelType: 0, guildId: sim.guild.id } };
  });
  afterAll(async () => { await sim?.close(); });

  it('edits the bot\'s own message: content replaced, edited_timestamp set and read back', async () => {
    const m = sim.addMessage(sim.channels.general.id, 'first', { asBot: true });
    const out = await adapter.editPublished(ctx, account, editOf(m.id, 'second'));
    expect(out.platformPostId).toBe(m.id);
    expect(m.content).toBe('second');
    expect(m.edited_timestamp).toEqual(expect.any(String));
    const read = await fetch(`${sim.url}/api/v10/channels/${sim.channels.general.id}/messages/${m.id}`, { headers: { authorization: `Bot ${sim.botToken}` } });
    expect(((await read.json()) as { edited_timestamp: string | null }).edited_timestamp).toBe(m.edited_timestamp);
  });

  it('refuses over 2,000 characters, another user\'s message, and an unknown one', async () => {
    const m = sim.addMessage(sim.channels.general.id, 'mine', { asBot: true });
    const long = await refused(adapter.editPublished(ctx, account, editOf(m.id, 'x'.repeat(2001))));
    expect(long.kind).toBe('rejected');
    expect(long.message).toMatch(/2000 or fewer/);
    expect(m.content).toBe('mine');
    const theirs = sim.addMessage(sim.channels.general.id, 'a user wrote this');
    const other = await refused(adapter.editPublished(ctx, account, editOf(theirs.id, 'hijack')));
    expect(other.opts.status).toBe(403);
    expect(theirs.content).toBe('a user wrote this');
    expect((await refused(adapter.editPublished(ctx, account, editOf('1180000000000099999', 'x')))).opts.status).toBe(404);
  });
});

describe('Telegram: editMessageText / editMessageCaption', () => {
  let sim: TelegramSimulator;
  let adapter: TelegramAdapter;
  let bot: SimBot;
  let chat: SimChat;
  let account: AccountContext<TelegramCredentials>;
  const call = async (method: string, body: object, token = bot.token) =>
    (await fetch(`${sim.url}/bot${token}/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<{ ok: boolean; result: { message_id: number }; description?: string }>;
  beforeAll(async () => {
    sim = await startTelegramSimulator();
    adapter = new TelegramAdapter({ apiBaseUrl: sim.url });
    bot = sim.addBot({ username: 'edit_bot' });
    chat = sim.addChat({ type: 'channel', title: 'Edits', username: 'edits' });
    sim.setMember(bot, chat, { status: 'administrator', can_post_messages: true });
    account = { id: 'a', platformUserId: String(chat.id), username: 'edits', credentials: { botToken: bot.token, botId: bot.id, botUsername: bot.username } as TelegramCredentials, settings: { chatId: String(chat.id), chatUsername: 'edits' } };
  });
  afterAll(async () => { await sim?.close(); });

  it('edits a text message the bot sent (editMessageText with the parse mode it was sent with)', async () => {
    const sent = await call('sendMessage', { chat_id: chat.id, text: 'old <b>news</b>', parse_mode: 'HTML' });
    await adapter.editPublished(ctx, account, editOf(String(sent.result.message_id), 'new <b>news</b>', { platformSpecificData: { parseMode: 'HTML' } }));
    const m = sim.messages.find((x) => x.message_id === sent.result.message_id)!;
    expect(m).toMatchObject({ text: 'new <b>news</b>', parse_mode: 'HTML', edit_date: expect.any(Number) });
  });

  it('refuses the same text ("message is not modified"), over 4,096 characters, and the wrong method for the kind', async () => {
    const sent = await call('sendMessage', { chat_id: chat.id, text: 'steady' });
    const id = String(sent.result.message_id);
    expect((await refused(adapter.editPublished(ctx, account, editOf(id, 'steady', { platformSpecificData: { parseMode: '' } })))).message).toMatch(/not modified/);
    expect((await refused(adapter.editPublished(ctx, account, editOf(id, 'x'.repeat(4097))))).message).toMatch(/too long/);
    // A caption edit of a text message (the post said it had media): Telegram says there is no caption.
    const wrong = await refused(adapter.editPublished(ctx, account, editOf(id, 'caption', { mediaItems: [{ type: 'image', url: 'https://x.test/a.png' }] })));
    expect(wrong.message).toMatch(/no caption in the message to edit/);
    expect(sim.messages.find((x) => x.message_id === sent.result.message_id)!.text).toBe('steady');
  });

  it('only the bot\'s own messages: another bot\'s message cannot be edited', async () => {
    const other = sim.addBot({ username: 'other_bot' });
    sim.setMember(other, chat, { status: 'administrator', can_post_messages: true });
    const sent = await call('sendMessage', { chat_id: chat.id, text: 'not yours' }, other.token);
    const e = await refused(adapter.editPublished(ctx, account, editOf(String(sent.result.message_id), 'mine now')));
    expect(e.message).toMatch(/can't be edited/);
  });

  it('captions: 0-1,024 characters, editMessageCaption on a media message', async () => {
    const form = new FormData();
    form.set('chat_id', String(chat.id));
    form.set('caption', 'a picture');
    // The smallest PNG the simulator reads (1x1).
    form.set('photo', new Blob([Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')], { type: 'image/png' }), 'p.png');
    const sent = (await (await fetch(`${sim.url}/bot${bot.token}/sendPhoto`, { method: 'POST', body: form })).json()) as { ok: boolean; result: { message_id: number }; description?: string };
    expect(sent.ok, sent.description).toBe(true);
    const id = String(sent.result.message_id);
    const media = { mediaItems: [{ type: 'image' as const, url: 'https://x.test/p.png' }] };
    await adapter.editPublished(ctx, account, editOf(id, 'a better picture', media));
    expect(sim.messages.find((x) => x.message_id === sent.result.message_id)!.caption).toBe('a better picture');
    expect((await refused(adapter.editPublished(ctx, account, editOf(id, 'y'.repeat(1025), media)))).message).toMatch(/caption is too long/);
  });
});

describe('Mastodon: PUT /api/v1/statuses/:id', () => {
  let sim: MastodonSimulator;
  beforeAll(async () => { sim = await startMastodonSimulator({ limits: { maxCharacters: 20 } }); });
  afterAll(async () => { await sim?.close(); });

  /** A token through the instance's own OAuth: register, authorize (approved at once), exchange. */
  async function token(): Promise<string> {
    const reg = (await (await fetch(`${sim.url}/api/v1/apps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 't', redirect_uris: 'https://c.test/cb', scopes: 'read write' }) })).json()) as { client_id: string; client_secret: string };
    const auth = await fetch(`${sim.url}/oauth/authorize?${new URLSearchParams({ client_id: reg.client_id, redirect_uri: 'https://c.test/cb', response_type: 'code', scope: 'read write' })}`, { redirect: 'manual' });
    const code = new URL(auth.headers.get('location')!).searchParams.get('code')!;
    const tok = (await (await fetch(`${sim.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'authorization_code', code, client_id: reg.client_id, client_secret: reg.client_secret, redirect_uri: 'https://c.test/cb' }) })).json()) as { access_token: string };
    return tok.access_token;
  }
  const put = (t: string, id: string, body: object) => fetch(`${sim.url}/api/v1/statuses/${id}`, { method: 'PUT', headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('edits the author\'s status within the instance\'s limit; another account\'s status is 404; over the limit 422', async () => {
    const t = await token();
    const s = sim.addStatus('original');
    const ok = await put(t, s.id, { status: 'edited' });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { edited_at: string | null }).edited_at).toEqual(expect.any(String));
    expect(s.text).toBe('edited');
    const long = await put(t, s.id, { status: 'x'.repeat(21) });
    expect(long.status).toBe(422);
    expect(s.text).toBe('edited');
    const foreign = sim.addStatus('someone else', { account: '1' });
    expect((await put(t, foreign.id, { status: 'hijack' })).status).toBe(404);
    expect((await put('nope', s.id, { status: 'x' })).status).toBe(401);
  });
});
