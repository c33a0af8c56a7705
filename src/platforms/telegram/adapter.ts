/**
 * Telegram Bot API adapter: a bot posts to the channel or group the account names
 * (https://core.telegram.org/bots/api).
 *
 * What is sent, per message (the post, or each thread item):
 * - text only: `sendMessage` (text 1-4096 after entities parsing; `link_preview_options.is_disabled`
 *   for platformSpecificData.disableWebPagePreview);
 * - one photo, video, GIF or document: `sendPhoto` / `sendVideo` / `sendAnimation` / `sendDocument`
 *   with the text as caption (0-1024);
 * - 2-10 items: `sendMediaGroup` (photos and videos mix; documents only with documents), the text
 *   as the first item's caption (the album's caption).
 * Files are uploaded as multipart/form-data (photos up to 10 MB, other files 50 MB:
 * https://core.telegram.org/bots/api#sending-files); albums name them `attach://file<n>`.
 * Options (Late's TelegramPlatformData): `parseMode` (HTML by default, MarkdownV2, Markdown),
 * `disableNotification` (silent), `protectContent`, `disableWebPagePreview`.
 * A thread: each item after the first replies to the previous message (`reply_parameters`).
 *
 * Exactly once (docs/decisions/0057-telegram.md): the Bot API has no idempotency key and a bot
 * cannot read a chat's history, so the message id in Telegram's answer is the only proof. `verify`
 * (called only when a send got no answer) cannot tell and answers 'unknown': the target ends "may
 * have been published" and is never sent again automatically. Within a thread, a 429 on an item
 * after the first (Telegram refused it, nothing was sent) is waited out in the commit instead of
 * failing it, since retrying the commit would send the first items again.
 *
 * platformPostId: the first message's id; an album's ids joined by commas (`12,13,14`), so that
 * unpublish deletes all of them. The post URL: `https://t.me/<channel>/<id>`, or
 * `https://t.me/c/<id>/<id>` for a private channel or supergroup (empty for a basic group).
 */
import {
  AdapterError, type AccountContext, type AdapterContext, type EditRequest, type EditResult, type MediaRef, type PlatformAdapter, type PlatformCapabilities, type PublishRequest,
  type PublishResult, type PublishedPost, type RuleViolation, type VerifyResult,
} from '../types.ts';
import { capabilitiesOf, TELEGRAM_FILE_MAX_BYTES } from '../../shared/capabilities.ts';
import { TELEGRAM_DEFAULT_PARSE_MODE, telegramMessages, telegramRules, type TelegramLimits } from '../../shared/rules/telegram.ts';
import { botCall, messageUrl, type BotCallOptions, type TgMessage } from './api.ts';
import type { TelegramCredentials } from './connect.ts';

export const TELEGRAM_CAPABILITIES: PlatformCapabilities = capabilitiesOf('telegram');

/** What prepare leaves for commit (JSON, stored on the attempt row). Sending is the upload, so there is nothing to stage. */
export interface TelegramPrepared {
  chatId: string;
  /** How many messages the commit sends (thread items). */
  messages: number;
}

export interface TelegramAdapterOptions {
  /** The Bot API base URL (https://api.telegram.org, a self-hosted Bot API server, or the simulator). */
  apiBaseUrl: string;
  /** Longest 429 wait (ms) the commit sits out between thread items; longer waits fail the target. Default 30 s. */
  maxInlineWaitMs?: number;
  /** Rule limits overriding Telegram's documented ones (tests). */
  limits?: Partial<TelegramLimits>;
  sleep?: (ms: number) => Promise<void>;
}

type InputKind = 'photo' | 'video' | 'animation' | 'document';
const KIND: Record<MediaRef['type'], InputKind> = { image: 'photo', video: 'video', gif: 'animation', document: 'document' };
const METHOD: Record<InputKind, string> = { photo: 'sendPhoto', video: 'sendVideo', animation: 'sendAnimation', document: 'sendDocument' };

/** The chat a Telegram account posts to. */
function chatOf(account: AccountContext<TelegramCredentials>): { id: string; username: string | null } {
  const id = typeof account.settings.chatId === 'string' ? account.settings.chatId : account.platformUserId;
  return { id, username: typeof account.settings.chatUsername === 'string' ? account.settings.chatUsername : null };
}

export class TelegramAdapter implements PlatformAdapter<TelegramCredentials, TelegramPrepared> {
  readonly platform = 'telegram' as const;
  readonly capabilities = TELEGRAM_CAPABILITIES;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly opts: TelegramAdapterOptions) {
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** Telegram's rule table (src/shared/rules/telegram.ts). */
  validate(req: PublishRequest): RuleViolation[] {
    return telegramRules.check(req, this.opts.limits);
  }

  private call(account: AccountContext<TelegramCredentials>): BotCallOptions {
    if (!account.credentials.botToken) throw new AdapterError('disconnected', 'Telegram: the account has no bot token; connect it again');
    return { baseUrl: this.opts.apiBaseUrl, token: account.credentials.botToken };
  }

  /** Without media there is nothing to read before sending. */
  preparesOffline(req: PublishRequest): boolean {
    return telegramMessages(req).every((m) => m.media.length === 0);
  }

  /**
   * Nothing to stage (sending is the upload), but every media file is read once here, where a
   * failure is safe to retry: in the commit, a failure could no longer be told apart from a send
   * that got no answer.
   */
  async prepare(ctx: AdapterContext, account: AccountContext<TelegramCredentials>, req: PublishRequest): Promise<TelegramPrepared> {
    const messages = telegramMessages(req);
    for (const m of messages) for (const item of m.media) await ctx.fetchMedia(item, TELEGRAM_FILE_MAX_BYTES);
    return { chatId: chatOf(account).id, messages: messages.length };
  }

  async commit(ctx: AdapterContext, account: AccountContext<TelegramCredentials>, req: PublishRequest, prepared: TelegramPrepared): Promise<PublishResult> {
    const o = this.call(account);
    const chat = { ...chatOf(account), id: prepared.chatId };
    const psd = req.platformSpecificData ?? {};
    const common: Record<string, unknown> = {
      chat_id: chat.id,
      ...(psd.disableNotification === true ? { disable_notification: true } : {}),
      ...(psd.protectContent === true ? { protect_content: true } : {}),
    };
    const parseMode = typeof psd.parseMode === 'string' ? psd.parseMode : TELEGRAM_DEFAULT_PARSE_MODE;
    const sent: number[][] = [];
    const messages = telegramMessages(req);
    // Every file is read before the first send: a read failure then sent nothing (retried, not verified).
    const files: Blob[][] = [];
    for (const m of messages) {
      const blobs: Blob[] = [];
      for (const item of m.media) {
        try {
          const { bytes, mimeType } = await ctx.fetchMedia(item, TELEGRAM_FILE_MAX_BYTES);
          blobs.push(new Blob([new Uint8Array(bytes)], { type: mimeType }));
        } catch (err) {
          if (err instanceof AdapterError && err.kind !== 'transient') throw err;
          throw new AdapterError('transient', `Reading ${item.url} before sending: ${(err as Error).message}`, { notSent: true });
        }
      }
      files.push(blobs);
    }
    for (const [i, m] of messages.entries()) {
      const reply = sent.length ? { reply_parameters: { message_id: sent.at(-1)![0] } } : {};
      const send = () => this.sendOne(o, { ...common, ...reply }, m.text, m.media, files[i], parseMode, psd.disableWebPagePreview === true);
      try {
        sent.push(i === 0 ? await send() : await this.afterLimits(send));
      } catch (err) {
        if (i === 0 || !(err instanceof AdapterError) || err.kind === 'transient') throw err;
        // Items before this one are in the chat: say so, and never send them again.
        throw new AdapterError(err.kind === 'rate_limited' ? 'rejected' : err.kind,
          `${err.message} (thread item ${i + 1}; items 1-${i} were published as messages ${sent.map((ids) => ids.join('+')).join(', ')})`, err.opts);
      }
    }
    const ids = sent.map((s) => s.join(','));
    // message_id 0: Telegram scheduled the message instead of sending it at once ("e.g. video to a big chat",
    // https://core.telegram.org/bots/api#message); it is published, without a link yet.
    const items = sent.map((s, i) => ({ platformPostId: ids[i], platformPostUrl: s[0] ? messageUrl(chat, s[0]) : '' }));
    return {
      platformPostId: items[0].platformPostId,
      platformPostUrl: items[0].platformPostUrl,
      ...(items.length > 1 ? { thread: items } : {}),
      extra: { chatId: chat.id, messageIds: sent },
    };
  }

  /** Runs a send after the first, waiting out Telegram's 429s (nothing was sent) up to maxInlineWaitMs each, three times at most. */
  private async afterLimits(send: () => Promise<number[]>): Promise<number[]> {
    for (let tries = 0; ; tries++) {
      try {
        return await send();
      } catch (err) {
        const wait = err instanceof AdapterError && err.kind === 'rate_limited' ? err.opts.retryAfterMs ?? 1000 : null;
        if (wait === null || tries >= 3 || wait > (this.opts.maxInlineWaitMs ?? 30_000)) throw err;
        await this.sleep(wait);
      }
    }
  }

  /** Sends one message (text, one file or an album) and answers its message ids. */
  private async sendOne(o: BotCallOptions, base: Record<string, unknown>, text: string, media: MediaRef[], blobs: Blob[], parseMode: string, noPreview: boolean): Promise<number[]> {
    if (media.length === 0) {
      const msg = await botCall<TgMessage>(o, 'sendMessage', {
        ...base, text, parse_mode: parseMode, ...(noPreview ? { link_preview_options: { is_disabled: true } } : {}),
      });
      return [msg.message_id];
    }
    const form = new FormData();
    for (const [k, v] of Object.entries(base)) form.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
    // Read up to the largest upload Telegram takes: Telegram itself refuses what is over its limit for the kind.
    const files = media.map((m, j) => ({ name: `file${j}`, blob: blobs[j], filename: m.filename ?? `file${j}` }));
    if (media.length === 1) {
      const kind = KIND[media[0].type];
      form.set(kind, files[0].blob, files[0].filename);
      if (text.trim()) { form.set('caption', text); form.set('parse_mode', parseMode); }
      const msg = await botCall<TgMessage>(o, METHOD[kind], form);
      return [msg.message_id];
    }
    form.set('media', JSON.stringify(media.map((m, j) => ({
      type: KIND[m.type], media: `attach://file${j}`,
      ...(j === 0 && text.trim() ? { caption: text, parse_mode: parseMode } : {}),
    }))));
    for (const f of files) form.set(f.name, f.blob, f.filename);
    const msgs = await botCall<TgMessage[]>(o, 'sendMediaGroup', form);
    return msgs.map((x) => x.message_id);
  }

  /**
   * Telegram cannot tell: the Bot API has no idempotency key and no method to read a chat's
   * history (the only read of a message is the send's own answer), so after a send without an
   * answer nothing proves the message is there or not. Always 'unknown': the target ends "may
   * have been published" and is not sent again automatically (docs/decisions/0057-telegram.md).
   */
  async verify(): Promise<VerifyResult<TelegramPrepared>> {
    return {
      status: 'unknown',
      reason: 'Telegram bots cannot read a chat\'s history and the Bot API has no idempotency key, so whether the unanswered send reached the chat cannot be checked; look at the chat',
    };
  }

  /**
   * Deletes every message of the post (all thread items, all album items) with `deleteMessages`,
   * which skips messages that are already gone (https://core.telegram.org/bots/api#deletemessages).
   * A bot with can_post_messages may delete its own channel posts; "a message can only be deleted if
   * it was sent less than 48 hours ago" (https://core.telegram.org/bots/api#deletemessage, stated for
   * every chat): Telegram's refusal of an older post is 'rejected'.
   */
  /**
   * Edits the post's first message with the parse mode it was sent with: `editMessageText` (1-4,096
   * characters after entities parsing) for a text message, `editMessageCaption` (0-1,024) for a
   * media message or album, whose caption is on its first message
   * (https://core.telegram.org/bots/api#editmessagetext, #editmessagecaption). A bot edits the
   * messages it sent; Telegram answers 400 "message is not modified" for the same text.
   */
  async editPublished(_ctx: AdapterContext, account: AccountContext<TelegramCredentials>, edit: EditRequest): Promise<EditResult> {
    const id = Number(edit.post.platformPostId.split(',')[0]);
    if (!Number.isInteger(id) || id <= 0) throw new AdapterError('rejected', 'Telegram scheduled this message instead of sending it, so it has no message id to edit');
    const psd = edit.platformSpecificData ?? {};
    const parseMode = typeof psd.parseMode === 'string' ? psd.parseMode : TELEGRAM_DEFAULT_PARSE_MODE;
    const base = { chat_id: chatOf(account).id, message_id: id, parse_mode: parseMode };
    if (edit.mediaItems.length > 0) await botCall<TgMessage>(this.call(account), 'editMessageCaption', { ...base, caption: edit.text });
    else {
      await botCall<TgMessage>(this.call(account), 'editMessageText', {
        ...base, text: edit.text, ...(psd.disableWebPagePreview === true ? { link_preview_options: { is_disabled: true } } : {}),
      });
    }
    return { platformPostId: edit.post.platformPostId, platformPostUrl: edit.post.platformPostUrl };
  }

  async unpublish(_ctx: AdapterContext, account: AccountContext<TelegramCredentials>, post: PublishedPost): Promise<void> {
    const ids = [...new Set([post.platformPostId, ...post.threadIds].flatMap((s) => s.split(',')).filter((s) => /^[1-9]\d*$/.test(s)).map(Number))];
    if (ids.length === 0) return;
    await botCall<boolean>(this.call(account), 'deleteMessages', { chat_id: chatOf(account).id, message_ids: ids });
  }
}
