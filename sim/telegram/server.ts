/**
 * Telegram Bot API simulator: a real HTTP server on loopback speaking the parts of the Bot API
 * Herald uses (https://core.telegram.org/bots/api), with Telegram's paths `/bot<token>/<method>`,
 * its answers `{ ok: true, result }` / `{ ok: false, error_code, description, parameters? }` (HTTP
 * status = error_code) and its parameter forms (query string, JSON, urlencoded, multipart):
 * - tokens: an unknown or revoked token -> 401 "Unauthorized"; a malformed one -> 404 "Not Found".
 * - `getMe`; `getUpdates` (my_chat_member when a bot is made administrator or removed, channel_post
 *   and message for posts in its chats; kept 24 hours; `offset` confirms earlier updates; 409
 *   "Conflict" while a webhook is set); `getChat` (by id or @username); `getChatMember`.
 * - `sendMessage` (text 1-4096 after entities parsing: "message text is empty", "message is too
 *   long"), `sendPhoto` (caption 0-1024: "message caption is too long"; photos up to 10 MB, width +
 *   height <= 10000, ratio <= 20: "PHOTO_INVALID_DIMENSIONS"), `sendVideo`, `sendAnimation`,
 *   `sendDocument` (files up to 50 MB), `sendMediaGroup` (2-10 items; documents only with documents;
 *   `attach://<name>` uploads) -> Message(s). `parse_mode` HTML / MarkdownV2 / Markdown are parsed by this
 *   simulator's own reading of the formatting rules: "can't parse entities: ...".
 * - Rights: the bot must be an administrator of the chat, with can_post_messages in a channel
 *   ("Forbidden: bot is not a member of the channel chat", "Bad Request: need administrator rights
 *   in the channel chat", "Bad Request: chat not found"); `reply_parameters.message_id` must exist
 *   ("message to be replied not found").
 * - `editMessageText` / `editMessageCaption`: a bot edits its own messages (see `edit`).
 * - `deleteMessage` / `deleteMessages`: a bot deletes its own messages (in a channel with
 *   can_post_messages), others' with can_delete_messages; never after 48 hours ("A message can only
 *   be deleted if it was sent less than 48 hours ago", stated for every chat: the strict reading,
 *   "message can't be deleted"); deleteMessages skips ids that are gone.
 * - Rate: at most `groupPerMinute` (20) messages a minute in a group, `chatPerMinute` in any chat
 *   (off by default: a channel's figure is not documented) -> 429 "Too Many Requests: retry after N"
 *   with `parameters.retry_after`.
 * - Faults (`addFault` or POST /__sim/faults): 429, 5xx, a dropped connection before or after the
 *   message was created, a slow answer.
 * Exact description strings are not all documented by Telegram (UNVERIFIED); those above are the
 * ones commonly reported.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { listen, runAsMain, simApp } from '../common/app.ts';
import { droppedAfterCreate, FaultQueue } from '../common/faults.ts';
import { mediaInfo } from '../common/media-info.ts';

export interface TelegramSimOptions {
  /** Messages a minute per group or supergroup ("bots are not able to send more than 20 messages per minute" in a group: https://core.telegram.org/bots/faq). */
  groupPerMinute?: number;
  /** Messages a minute in any one chat (channels included); unset: no limit (a channel's is not documented). */
  chatPerMinute?: number;
  /** Seconds a 429 asks to wait. */
  retryAfterSeconds?: number;
  /** Text and caption limits after entities parsing (4096, 1024). */
  textMax?: number;
  captionMax?: number;
  /** Upload limits in bytes (10 MB photos, 50 MB other files). */
  photoMaxBytes?: number;
  fileMaxBytes?: number;
  /** The clock (ms), to age messages past 48 hours. */
  now?: () => number;
}

export type TelegramFault = {
  op: 'send' | 'delete' | 'edit' | 'getUpdates' | 'read' | 'any';
  kind: 'rate_limit' | 'server_error' | 'slow' | 'drop' | 'drop_after_create';
  count: number;
  delayMs?: number;
  after?: number;
};

export interface SimBot { id: number; token: string; username: string; first_name: string; revoked: boolean; webhook: string | null }
export interface SimChat { id: number; type: 'channel' | 'group' | 'supergroup' | 'private'; title: string; username?: string }
export interface SimMember { status: 'administrator' | 'member' | 'left' | 'kicked'; can_post_messages?: boolean; can_delete_messages?: boolean }
export interface SimMessage {
  message_id: number; chat_id: number; date: number; from_bot: number | null; kind: 'text' | 'photo' | 'video' | 'animation' | 'document';
  text?: string; caption?: string; parse_mode?: string; media_group_id?: string; reply_to?: number; silent: boolean; protect: boolean;
  link_preview_disabled: boolean; file?: { bytes: number; format: string; width?: number; height?: number };
  /** Unix time of the last edit (editMessageText / editMessageCaption). */
  edit_date?: number;
}
interface SimUpdate { update_id: number; at: number; bot: number; body: Record<string, unknown> }

type Params = Record<string, unknown>;
interface Upload { name: string; mimetype: string; bytes: Buffer; filename: string }

/** Telegram's error answer: `{ ok: false, error_code, description, parameters? }` with the same HTTP status. */
function tgError(reply: FastifyReply, code: number, description: string, parameters?: Record<string, unknown>) {
  return reply.code(code).send({ ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) });
}

// --- Entities, as this simulator reads https://core.telegram.org/bots/api#formatting-options -----

const TAGS = ['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'span', 'tg-spoiler', 'a', 'tg-emoji', 'code', 'pre', 'blockquote'];

/** The text of `s` once parsed in `mode`, or Telegram's "can't parse entities" reason. */
export function parseEntities(s: string, mode: string | undefined): { text: string } | { error: string } {
  if (!mode) return { text: s };
  if (mode === 'HTML') {
    const stack: string[] = [];
    let text = '';
    const re = /<(\/?)([a-zA-Z-]+)([^>]*)>|&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);|([<>&])|([^<>&]+)/g;
    for (const m of s.matchAll(re)) {
      if (m[2]) {
        const name = m[2].toLowerCase();
        if (!TAGS.includes(name)) return { error: `Unsupported start tag "${name}" at byte offset ${m.index}` };
        if (m[1]) { if (stack.pop() !== name) return { error: `Unexpected end tag at byte offset ${m.index}` }; } else stack.push(name);
      } else if (m[4]) {
        const e = m[4];
        const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };
        if (e[0] === '#') text += String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
        else if (named[e]) text += named[e];
        else return { error: `Unsupported HTML entity at byte offset ${m.index}` };
      } else if (m[5]) {
        return { error: `Unexpected ${m[5] === '&' ? 'end of name token' : 'character'} at byte offset ${m.index}` };
      } else text += m[6];
    }
    if (stack.length) return { error: `Can't find end tag corresponding to start tag "${stack.at(-1)}"` };
    return { text };
  }
  if (mode === 'MarkdownV2') {
    let text = '';
    const open: string[] = [];
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (c === '\\') { if (i + 1 >= s.length) return { error: `Character '\\' is reserved` }; text += s[++i]; continue; }
      if (c === '`') {
        const fence = s.startsWith('```', i) ? '```' : '`';
        // Inside code and pre, '`' and '\\' are escaped: the entity ends at the first unescaped fence.
        let end = i + fence.length;
        while (end < s.length && !s.startsWith(fence, end)) end += s[end] === '\\' ? 2 : 1;
        if (end >= s.length) return { error: `Can't find end of ${fence === '`' ? 'Code' : 'Pre'} entity at byte offset ${i}` };
        let body = s.slice(i + fence.length, end).replace(/\\(.)/g, '$1');
        if (fence === '```' && body.includes('\n')) body = body.slice(body.indexOf('\n') + 1);
        text += body;
        i = end + fence.length - 1;
        continue;
      }
      if ((c === '>' && (i === 0 || s[i - 1] === '\n'))) continue;
      const two = s.slice(i, i + 2);
      if (two === '__' || two === '||') { if (open.at(-1) === two) open.pop(); else open.push(two); i++; continue; }
      if ('*_~'.includes(c)) { if (open.at(-1) === c) open.pop(); else open.push(c); continue; }
      if (c === '[') { open.push('['); continue; }
      if (c === '!' && s[i + 1] === '[') continue;
      if (c === ']' && open.at(-1) === '[' && s[i + 1] === '(') {
        open.pop();
        const end = s.indexOf(')', i);
        if (end < 0) return { error: `Can't find end of a URL at byte offset ${i}` };
        i = end;
        continue;
      }
      if ('_*[]()~`>#+-=|{}.!'.includes(c)) return { error: `Character '${c}' is reserved and must be escaped with the preceding '\\'` };
      text += c;
    }
    if (open.length) return { error: `Can't find end of ${open.at(-1)} entity` };
    return { text };
  }
  if (mode === 'Markdown') {
    let text = '';
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (c === '\\' && '_*`['.includes(s[i + 1] ?? '')) { text += s[++i]; continue; }
      if ('_*`'.includes(c)) {
        const fence = c === '`' && s.startsWith('```', i) ? '```' : c;
        const end = s.indexOf(fence, i + fence.length);
        if (end < 0) return { error: `Can't find end of the entity starting at byte offset ${i}` };
        let body = s.slice(i + fence.length, end);
        if (fence === '```' && body.includes('\n')) body = body.slice(body.indexOf('\n') + 1);
        text += fence[0] === '`' ? body : body.replace(/\\([_*`[])/g, '$1');
        i = end + fence.length - 1;
        continue;
      }
      if (c === '[') {
        const m = /^\[([^\]]*)\]\(([^)]*)\)/.exec(s.slice(i));
        if (!m) return { error: `Can't find end of the entity starting at byte offset ${i}` };
        text += m[1];
        i += m[0].length - 1;
        continue;
      }
      text += c;
    }
    return { text };
  }
  return { error: `Unsupported parse_mode` };
}

// --- The server ------------------------------------------------------------------------------

export async function startTelegramSimulator(opts: TelegramSimOptions = {}) {
  const now = opts.now ?? Date.now;
  const textMax = opts.textMax ?? 4096;
  const captionMax = opts.captionMax ?? 1024;
  const photoMax = opts.photoMaxBytes ?? 10 * 1024 * 1024;
  const fileMax = opts.fileMaxBytes ?? 50 * 1024 * 1024;
  const retryAfter = opts.retryAfterSeconds ?? 3;
  const calls = new Map<string, number>();
  const bots = new Map<string, SimBot>();
  const chats = new Map<number, SimChat>();
  /** chat id -> bot id -> membership. */
  const members = new Map<number, Map<number, SimMember>>();
  const messages: SimMessage[] = [];
  const nextMessageId = new Map<number, number>();
  const updates: SimUpdate[] = [];
  const sent = new Map<number, number[]>();
  let nextUpdateId = 100_000;
  let nextBotId = 7_000_000_000;
  let nextChatId = 1_000_000_000_000;

  const faults = new FaultQueue<TelegramFault>({
    rate_limit: (reply) => tgError(reply, 429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter }),
    server_error: (reply) => tgError(reply, 500, 'Internal Server Error'),
  });

  const app = await simApp({ calls, bodyLimit: 64 * 1024 * 1024, multipartFileSize: 64 * 1024 * 1024 });
  faults.route(app);

  const chatView = (c: SimChat) => ({ id: c.id, type: c.type, title: c.title, ...(c.username ? { username: c.username } : {}) });
  const botUser = (b: SimBot) => ({ id: b.id, is_bot: true, first_name: b.first_name, username: b.username });
  const pushUpdate = (bot: number, body: Record<string, unknown>) => updates.push({ update_id: nextUpdateId++, at: now(), bot, body });

  /** Adds a bot; answers it (its token is what the user pastes). */
  function addBot(o: { username?: string; token?: string } = {}): SimBot {
    const id = nextBotId++;
    const b: SimBot = { id, token: o.token ?? `${id}:${randomBytes(26).toString('base64url')}`, username: o.username ?? `herald_sim_${id}_bot`, first_name: 'Herald Sim', revoked: false, webhook: null };
    bots.set(b.token, b);
    return b;
  }

  /** Adds a chat (a channel by default; ids -100… as Telegram's channels and supergroups). */
  function addChat(o: { type?: SimChat['type']; title?: string; username?: string } = {}): SimChat {
    const type = o.type ?? 'channel';
    const n = nextChatId++;
    const c: SimChat = { id: type === 'group' ? -(n % 1_000_000_000) : -Number(`100${n}`), type, title: o.title ?? `Sim ${type} ${n}`, ...(o.username ? { username: o.username } : {}) };
    chats.set(c.id, c);
    members.set(c.id, new Map());
    return c;
  }

  /** Sets the bot's membership in the chat, and sends it the my_chat_member update Telegram sends. */
  function setMember(bot: SimBot, chat: SimChat, m: SimMember): void {
    const old = members.get(chat.id)!.get(bot.id) ?? { status: 'left' };
    members.get(chat.id)!.set(bot.id, m);
    pushUpdate(bot.id, {
      my_chat_member: {
        chat: chatView(chat), from: { id: 1, is_bot: false, first_name: 'Owner' }, date: Math.floor(now() / 1000),
        old_chat_member: { status: old.status, user: botUser(bot) },
        new_chat_member: { ...m, user: botUser(bot), ...(m.status === 'administrator' ? { can_post_messages: m.can_post_messages ?? false, can_delete_messages: m.can_delete_messages ?? false } : {}) },
      },
    });
  }

  /** A human posts `text` in the chat (the bot receives it as channel_post or message when it is a member). */
  function userPost(chat: SimChat, text: string): void {
    const id = newMessageId(chat.id);
    for (const [botId, m] of members.get(chat.id) ?? []) {
      if (m.status !== 'administrator' && m.status !== 'member') continue;
      pushUpdate(botId, { [chat.type === 'channel' ? 'channel_post' : 'message']: { message_id: id, date: Math.floor(now() / 1000), chat: chatView(chat), text } });
    }
  }

  function newMessageId(chatId: number): number {
    const id = nextMessageId.get(chatId) ?? 1;
    nextMessageId.set(chatId, id + 1);
    return id;
  }

  /** The call's parameters (query, JSON, urlencoded or multipart fields) and uploaded files. */
  async function readParams(req: FastifyRequest): Promise<{ params: Params; files: Map<string, Upload> }> {
    const params: Params = { ...(req.query as Params) };
    const files = new Map<string, Upload>();
    if (req.isMultipart()) {
      for await (const part of req.parts()) {
        if (part.type === 'file') files.set(part.fieldname, { name: part.fieldname, mimetype: part.mimetype, bytes: await part.toBuffer(), filename: part.filename });
        else params[part.fieldname] = part.value;
      }
    } else if (req.body && typeof req.body === 'object') Object.assign(params, req.body as Params);
    return { params, files };
  }

  /** A parameter that may arrive as a JSON string (form fields) or as JSON. */
  const json = <T>(v: unknown): T | undefined => {
    if (typeof v !== 'string') return v as T | undefined;
    try { return JSON.parse(v) as T; } catch { return undefined; }
  };
  const bool = (v: unknown) => v === true || v === 'true';

  function chatFor(v: unknown): SimChat | undefined {
    if (typeof v === 'string' && v.startsWith('@')) return [...chats.values()].find((c) => c.username?.toLowerCase() === v.slice(1).toLowerCase());
    const n = Number(v);
    return Number.isFinite(n) ? chats.get(n) : undefined;
  }

  /** The chat the bot may post to, or the error Telegram answers. */
  function postable(reply: FastifyReply, bot: SimBot, chatId: unknown): SimChat | null {
    const chat = chatFor(chatId);
    const m = chat ? members.get(chat.id)!.get(bot.id) : undefined;
    if (!chat || !m || m.status === 'left') { tgError(reply, chat?.type === 'channel' ? 403 : 400, chat?.type === 'channel' ? 'Forbidden: bot is not a member of the channel chat' : 'Bad Request: chat not found'); return null; }
    if (m.status === 'kicked') { tgError(reply, 403, `Forbidden: bot was kicked from the ${chat.type === 'channel' ? 'channel' : 'group'} chat`); return null; }
    if (chat.type === 'channel' && (m.status !== 'administrator' || !m.can_post_messages)) { tgError(reply, 400, 'Bad Request: need administrator rights in the channel chat'); return null; }
    if (chat.type !== 'channel' && m.status !== 'administrator') { tgError(reply, 400, 'Bad Request: not enough rights to send text messages to the chat'); return null; }
    return chat;
  }

  /** The per-chat limits: 429 with retry_after when over. */
  function limited(reply: FastifyReply, chat: SimChat, n: number): boolean {
    const perMinute = chat.type === 'channel' ? opts.chatPerMinute : Math.min(opts.groupPerMinute ?? 20, opts.chatPerMinute ?? Infinity);
    if (!perMinute) return false;
    const recent = (sent.get(chat.id) ?? []).filter((t) => t > now() - 60_000);
    if (recent.length + n > perMinute) {
      const wait = Math.max(1, Math.ceil((recent[0] + 60_000 - now()) / 1000));
      tgError(reply, 429, `Too Many Requests: retry after ${wait}`, { retry_after: wait });
      return true;
    }
    sent.set(chat.id, [...recent, ...Array.from({ length: n }, () => now())]);
    return false;
  }

  /** Checks a text or caption in its parse mode; answers the error or null. */
  function textError(s: string | undefined, mode: string | undefined, caption: boolean): string | null {
    const parsed = parseEntities(s ?? '', mode);
    if ('error' in parsed) return `Bad Request: can't parse entities: ${parsed.error}`;
    const length = parsed.text.trim().length;
    if (!caption && length === 0) return 'Bad Request: message text is empty';
    if (!caption && length > textMax) return 'Bad Request: message is too long';
    if (caption && length > captionMax) return 'Bad Request: message caption is too long';
    return null;
  }

  /** Checks one uploaded file for its kind; answers the error or the file's description. */
  function fileCheck(kind: SimMessage['kind'], f: Upload | undefined): { error: string } | { file: NonNullable<SimMessage['file']> } {
    if (!f || f.bytes.length === 0) return { error: `Bad Request: there is no ${kind} in the request` };
    const info = mediaInfo(f.bytes);
    if (kind === 'photo') {
      if (f.bytes.length > photoMax) return { error: 'Bad Request: file is too big' };
      if (!['jpeg', 'png', 'webp', 'gif', 'bmp', 'tiff'].includes(info.format) || !info.width || !info.height) return { error: 'Bad Request: IMAGE_PROCESS_FAILED' };
      if (info.width + info.height > 10_000 || Math.max(info.width, info.height) / Math.min(info.width, info.height) > 20) return { error: 'Bad Request: PHOTO_INVALID_DIMENSIONS' };
    } else if (f.bytes.length > fileMax) {
      return { error: 'Request Entity Too Large' };
    }
    if (kind === 'video' && info.format !== 'mp4') return { error: 'Bad Request: wrong file type: the video must be MPEG4 (send other formats as a document)' };
    if (kind === 'animation' && !['gif', 'mp4'].includes(info.format)) return { error: 'Bad Request: wrong file type for an animation' };
    return { file: { bytes: f.bytes.length, format: info.format, ...(info.width ? { width: info.width, height: info.height } : {}) } };
  }

  const messageView = (m: SimMessage) => {
    const chat = chats.get(m.chat_id)!;
    return {
      message_id: m.message_id, date: m.date, chat: chatView(chat), ...(m.media_group_id ? { media_group_id: m.media_group_id } : {}),
      ...(m.text !== undefined ? { text: m.text } : {}), ...(m.caption ? { caption: m.caption } : {}),
      ...(m.kind === 'photo' ? { photo: [{ file_id: `photo-${m.message_id}`, file_unique_id: `u${m.message_id}`, width: m.file?.width ?? 0, height: m.file?.height ?? 0, file_size: m.file?.bytes }] } : {}),
      ...(m.kind === 'video' ? { video: { file_id: `video-${m.message_id}`, file_unique_id: `u${m.message_id}`, width: 0, height: 0, duration: 0 } } : {}),
      ...(m.kind === 'animation' ? { animation: { file_id: `anim-${m.message_id}`, file_unique_id: `u${m.message_id}`, width: 0, height: 0, duration: 0 } } : {}),
      ...(m.kind === 'document' ? { document: { file_id: `doc-${m.message_id}`, file_unique_id: `u${m.message_id}` } } : {}),
      ...(m.reply_to ? { reply_to_message: { message_id: m.reply_to, date: m.date, chat: chatView(chat) } } : {}),
      ...(m.protect ? { has_protected_content: true } : {}),
    };
  };

  const handlers: Record<string, (bot: SimBot, p: Params, files: Map<string, Upload>, reply: FastifyReply, req: FastifyRequest) => Promise<unknown> | unknown> = {
    getMe: (bot) => botUser(bot),

    async getUpdates(bot, p, _f, reply, req) {
      const f = await faults.apply('getUpdates', reply, req);
      if (f === 'handled') return reply;
      if (bot.webhook) return tgError(reply, 409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");
      const offset = Number(p.offset ?? 0);
      // Confirmed updates (below offset) are forgotten; updates are kept 24 hours.
      for (let i = updates.length - 1; i >= 0; i--) {
        const u = updates[i];
        if (u.bot === bot.id && ((offset && u.update_id < offset) || u.at < now() - 24 * 3600_000)) updates.splice(i, 1);
      }
      const allowed = json<string[]>(p.allowed_updates);
      const limit = Math.min(100, Math.max(1, Number(p.limit ?? 100)));
      return updates.filter((u) => u.bot === bot.id && (!allowed?.length || Object.keys(u.body).some((k) => allowed.includes(k))))
        .slice(0, limit).map((u) => ({ update_id: u.update_id, ...u.body }));
    },

    async getChat(bot, p, _f, reply, req) {
      const f = await faults.apply('read', reply, req);
      if (f === 'handled') return reply;
      const chat = chatFor(p.chat_id);
      const m = chat ? members.get(chat.id)!.get(bot.id) : undefined;
      if (!chat || !m || m.status === 'left' || m.status === 'kicked') return tgError(reply, 400, 'Bad Request: chat not found');
      return chatView(chat);
    },

    async getChatMember(bot, p, _f, reply, req) {
      const f = await faults.apply('read', reply, req);
      if (f === 'handled') return reply;
      const chat = chatFor(p.chat_id);
      const own = chat ? members.get(chat.id)!.get(bot.id) : undefined;
      if (!chat || !own || own.status === 'left' || own.status === 'kicked') return tgError(reply, 400, 'Bad Request: chat not found');
      const userId = Number(p.user_id);
      const target = [...bots.values()].find((b) => b.id === userId);
      const m = members.get(chat.id)!.get(userId);
      if (!target || !m) return tgError(reply, 400, 'Bad Request: user not found');
      return { status: m.status, user: botUser(target), ...(m.status === 'administrator' ? { can_post_messages: m.can_post_messages ?? false, can_delete_messages: m.can_delete_messages ?? false } : {}) };
    },

    sendMessage: (bot, p, files, reply, req) => send(bot, p, files, reply, req, 'text'),
    sendPhoto: (bot, p, files, reply, req) => send(bot, p, files, reply, req, 'photo'),
    sendVideo: (bot, p, files, reply, req) => send(bot, p, files, reply, req, 'video'),
    sendAnimation: (bot, p, files, reply, req) => send(bot, p, files, reply, req, 'animation'),
    sendDocument: (bot, p, files, reply, req) => send(bot, p, files, reply, req, 'document'),

    async sendMediaGroup(bot, p, files, reply, req) {
      const f = await faults.apply('send', reply, req);
      if (f === 'handled') return reply;
      const chat = postable(reply, bot, p.chat_id);
      if (!chat) return reply;
      const media = json<Array<{ type: string; media: string; caption?: string; parse_mode?: string }>>(p.media);
      if (!Array.isArray(media)) return tgError(reply, 400, 'Bad Request: media is required');
      if (media.length < 2 || media.length > 10) return tgError(reply, 400, 'Bad Request: media must include 2-10 items');
      const types = new Set(media.map((m) => m.type));
      if (media.some((m) => !['photo', 'video', 'document', 'audio'].includes(m.type))) return tgError(reply, 400, 'Bad Request: unsupported media type in the album');
      if ((types.has('document') || types.has('audio')) && types.size > 1) return tgError(reply, 400, "Bad Request: documents can't be mixed with other media types");
      const checked: Array<NonNullable<SimMessage['file']>> = [];
      for (const m of media) {
        const e = textError(m.caption, m.parse_mode, true);
        if (e) return tgError(reply, 400, e);
        const name = /^attach:\/\/(.+)$/.exec(m.media)?.[1];
        const r = fileCheck(m.type as SimMessage['kind'], name ? files.get(name) : undefined);
        if ('error' in r) return tgError(reply, r.error.startsWith('Request Entity') ? 413 : 400, r.error);
        checked.push(r.file);
      }
      const replyTo = replyCheck(reply, chat, p);
      if (replyTo === false) return reply;
      if (limited(reply, chat, media.length)) return reply;
      const group = randomBytes(8).readBigUInt64BE().toString();
      const made = media.map((m, i) => store(bot, chat, p, {
        kind: m.type as SimMessage['kind'], caption: m.caption, parse_mode: m.parse_mode, media_group_id: group, file: checked[i], reply_to: replyTo ?? undefined,
      }));
      if (droppedAfterCreate(f, req)) return reply;
      return made.map(messageView);
    },

    async deleteMessage(bot, p, _f, reply, req) {
      return del(bot, p, reply, req, [Number(p.message_id)], true);
    },
    async deleteMessages(bot, p, _f, reply, req) {
      const ids = json<number[]>(p.message_ids);
      if (!Array.isArray(ids) || ids.length < 1 || ids.length > 100) return tgError(reply, 400, 'Bad Request: message_ids must include 1-100 items');
      return del(bot, p, reply, req, ids.map(Number), false);
    },

    editMessageText: (bot, p, _f, reply, req) => edit(bot, p, reply, req, 'text'),
    editMessageCaption: (bot, p, _f, reply, req) => edit(bot, p, reply, req, 'caption'),

    setWebhook(bot, p) { bot.webhook = typeof p.url === 'string' && p.url ? p.url : null; return true; },
    deleteWebhook(bot) { bot.webhook = null; return true; },
  };

  /**
   * editMessageText / editMessageCaption (https://core.telegram.org/bots/api#editmessagetext): a
   * message the bot sent (in a channel it still posts to); text 1-4096 and captions 0-1024 after
   * entities parsing; a text message takes only editMessageText, a media one only editMessageCaption
   * ("there is no text in the message to edit" / "there is no caption in the message to edit"); the
   * same text and parse mode -> "message is not modified". Answers the edited Message.
   */
  async function edit(bot: SimBot, p: Params, reply: FastifyReply, req: FastifyRequest, what: 'text' | 'caption') {
    const f = await faults.apply('edit', reply, req);
    if (f === 'handled') return reply;
    const chat = postable(reply, bot, p.chat_id);
    if (!chat) return reply;
    const m = messages.find((x) => x.chat_id === chat.id && x.message_id === Number(p.message_id));
    if (!m) return tgError(reply, 400, 'Bad Request: message to edit not found');
    if (m.from_bot !== bot.id) return tgError(reply, 400, "Bad Request: message can't be edited");
    if (what === 'text' && m.kind !== 'text') return tgError(reply, 400, 'Bad Request: there is no text in the message to edit');
    if (what === 'caption' && m.kind === 'text') return tgError(reply, 400, 'Bad Request: there is no caption in the message to edit');
    const value = typeof p[what] === 'string' ? p[what] as string : '';
    const mode = typeof p.parse_mode === 'string' && p.parse_mode ? p.parse_mode : undefined;
    const e = textError(value, mode, what === 'caption');
    if (e) return tgError(reply, 400, e);
    const was = what === 'text' ? m.text : m.caption;
    if ((was ?? '') === value && (m.parse_mode ?? undefined) === mode) {
      return tgError(reply, 400, 'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message');
    }
    if (what === 'text') m.text = value; else m.caption = value;
    m.parse_mode = mode;
    m.edit_date = Math.floor(now() / 1000);
    return { ...messageView(m), edit_date: m.edit_date };
  }

  function replyCheck(reply: FastifyReply, chat: SimChat, p: Params): number | null | false {
    const rp = json<{ message_id?: number; allow_sending_without_reply?: boolean }>(p.reply_parameters);
    if (!rp?.message_id) return null;
    const exists = messages.some((m) => m.chat_id === chat.id && m.message_id === Number(rp.message_id));
    if (!exists && !rp.allow_sending_without_reply) { tgError(reply, 400, 'Bad Request: message to be replied not found'); return false; }
    return Number(rp.message_id);
  }

  function store(bot: SimBot, chat: SimChat, p: Params, m: Partial<SimMessage> & Pick<SimMessage, 'kind'>): SimMessage {
    const lp = json<{ is_disabled?: boolean }>(p.link_preview_options);
    const msg: SimMessage = {
      message_id: newMessageId(chat.id), chat_id: chat.id, date: Math.floor(now() / 1000), from_bot: bot.id,
      silent: bool(p.disable_notification), protect: bool(p.protect_content), link_preview_disabled: lp?.is_disabled === true, ...m,
    };
    messages.push(msg);
    return msg;
  }

  async function send(bot: SimBot, p: Params, files: Map<string, Upload>, reply: FastifyReply, req: FastifyRequest, kind: SimMessage['kind']) {
    const f = await faults.apply('send', reply, req);
    if (f === 'handled') return reply;
    const chat = postable(reply, bot, p.chat_id);
    if (!chat) return reply;
    const mode = typeof p.parse_mode === 'string' && p.parse_mode ? p.parse_mode : undefined;
    if (mode && !['HTML', 'MarkdownV2', 'Markdown'].includes(mode)) return tgError(reply, 400, `Bad Request: unsupported parse_mode`);
    const e = textError(kind === 'text' ? String(p.text ?? '') : (p.caption as string | undefined), mode, kind !== 'text');
    if (e) return tgError(reply, 400, e);
    let file: SimMessage['file'];
    if (kind !== 'text') {
      const r = fileCheck(kind, files.get(kind));
      if ('error' in r) return tgError(reply, r.error.startsWith('Request Entity') ? 413 : 400, r.error);
      file = r.file;
    }
    const replyTo = replyCheck(reply, chat, p);
    if (replyTo === false) return reply;
    if (limited(reply, chat, 1)) return reply;
    const msg = store(bot, chat, p, {
      kind, ...(kind === 'text' ? { text: parseEntitiesText(String(p.text), mode) } : { caption: p.caption ? parseEntitiesText(String(p.caption), mode) : undefined, file }),
      parse_mode: mode, reply_to: replyTo ?? undefined,
    });
    if (droppedAfterCreate(f, req)) return reply;
    return messageView(msg);
  }

  const parseEntitiesText = (s: string, mode: string | undefined) => { const r = parseEntities(s, mode); return 'text' in r ? r.text : s; };

  async function del(bot: SimBot, p: Params, reply: FastifyReply, req: FastifyRequest, ids: number[], single: boolean) {
    const f = await faults.apply('delete', reply, req);
    if (f === 'handled') return reply;
    const chat = chatFor(p.chat_id);
    const m = chat ? members.get(chat.id)!.get(bot.id) : undefined;
    if (!chat || !m || m.status === 'left') return tgError(reply, 400, 'Bad Request: chat not found');
    if (m.status === 'kicked') return tgError(reply, 403, `Forbidden: bot was kicked from the ${chat.type === 'channel' ? 'channel' : 'group'} chat`);
    const found = ids.map((id) => messages.findIndex((x) => x.chat_id === chat.id && x.message_id === id));
    if (single && found[0] < 0) return tgError(reply, 400, 'Bad Request: message to delete not found');
    for (const i of found) {
      if (i < 0) continue;
      const msg = messages[i];
      const own = msg.from_bot === bot.id;
      const mayDeleteOthers = m.status === 'administrator' && m.can_delete_messages;
      if (!own && !mayDeleteOthers) return tgError(reply, 400, "Bad Request: message can't be deleted");
      // "A message can only be deleted if it was sent less than 48 hours ago" (https://core.telegram.org/bots/api#deletemessage),
      // stated for every chat: whether administrators with can_delete_messages are exempt is not stated (strict reading: no).
      if (msg.date * 1000 < now() - 48 * 3600_000) return tgError(reply, 400, "Bad Request: message can't be deleted");
      if (chat.type === 'channel' && own && !(m.status === 'administrator' && (m.can_post_messages || m.can_delete_messages))) return tgError(reply, 400, "Bad Request: message can't be deleted");
    }
    for (const i of found.filter((x) => x >= 0).sort((a, b) => b - a)) messages.splice(i, 1);
    return true;
  }

  app.route({
    method: ['GET', 'POST'],
    url: '/:botpath/:method',
    handler: async (req, reply) => {
      const { botpath, method } = req.params as { botpath: string; method: string };
      if (!botpath.startsWith('bot') || !/^\d+:[\w-]+$/.test(botpath.slice(3))) return tgError(reply, 404, 'Not Found');
      const bot = bots.get(botpath.slice(3));
      if (!bot || bot.revoked) return tgError(reply, 401, 'Unauthorized');
      const handler = handlers[method];
      if (!handler) return tgError(reply, 404, 'Not Found: method not found');
      const { params, files } = await readParams(req);
      const out = await handler(bot, params, files, reply, req);
      if (out === reply || reply.sent) return reply;
      return { ok: true, result: out };
    },
  });

  // The sandbox's ready-made bot, administrator of a channel (the my_chat_member update is waiting).
  const sandboxBot = addBot({ username: 'herald_sandbox_bot', token: SANDBOX_TELEGRAM_BOT_TOKEN });
  const sandboxChannel = addChat({ type: 'channel', title: 'Herald Sandbox Channel', username: 'herald_sandbox' });
  setMember(sandboxBot, sandboxChannel, { status: 'administrator', can_post_messages: true, can_delete_messages: true });

  const url = await listen(app);
  return {
    url, app, calls, bots, chats, members, messages, updates,
    /** Not an OAuth platform: the sandbox's bot username and token stand in for the client id and secret. */
    clientId: sandboxBot.username,
    clientSecret: sandboxBot.token,
    addBot, addChat, setMember, userPost,
    addFault: (f: TelegramFault) => faults.add(f),
    /** Revokes every bot's token (as /revoke in @BotFather). */
    revokeAll: () => { for (const b of bots.values()) b.revoked = true; },
    /** The messages of a chat whose text or caption contains `s`. */
    messagesWith: (s: string) => messages.filter((m) => (m.text ?? m.caption ?? '').includes(s)),
    /** Ages a message (to test the 48-hour delete limit). */
    age: (chatId: number, messageId: number, ms: number) => { const m = messages.find((x) => x.chat_id === chatId && x.message_id === messageId); if (m) m.date -= Math.floor(ms / 1000); },
    close: () => app.close(),
  };
}

/** The token of the sandbox's ready-made bot (administrator of @herald_sandbox). */
export const SANDBOX_TELEGRAM_BOT_TOKEN = '7000000000:HeraldSandboxBotTokenForTheSimulatorOnly';

export type TelegramSimulator = Awaited<ReturnType<typeof startTelegramSimulator>>;

await runAsMain(import.meta.url, 'telegram', () => startTelegramSimulator(), (sim) => ({ botToken: sim.clientSecret, botUsername: sim.clientId }));
