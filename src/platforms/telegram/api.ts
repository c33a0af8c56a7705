/**
 * Telegram Bot API calls (https://core.telegram.org/bots/api#making-requests):
 * `POST {base}/bot<token>/<method>` with a JSON body, or multipart/form-data for uploads; every
 * answer is `{ ok: true, result }` or `{ ok: false, error_code, description, parameters? }`
 * (`parameters.retry_after`: seconds to wait after a 429; `migrate_to_chat_id`: the group became a
 * supergroup with a new id). The token is never written to a log: endpoints read `/bot…/<method>`.
 *
 * Error kinds ({@link botError}):
 * - 429 -> `rate_limited` with `retryAfterMs` from `parameters.retry_after`;
 * - 401 (a revoked or wrong token), 404 (a malformed token: no such bot), 403 (the bot was removed
 *   from the chat, blocked, or lacks rights), 400 "chat not found", "not enough rights", "need
 *   administrator rights", a `migrate_to_chat_id` -> `disconnected` (the account must be connected again);
 * - other 4xx -> `rejected` (Telegram's description); 5xx and network failures -> `transient`.
 */
import { guardVisibleCall } from '../call-guard.ts';
import { AdapterError, responseExcerpt } from '../types.ts';

/** Telegram's Bot API (a self-hosted Bot API server uses the same paths). */
export const TELEGRAM_API_URL = 'https://api.telegram.org';

/** A Bot API answer. */
export interface BotAnswer<T> {
  ok: boolean;
  result?: T;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/** The parts of a Telegram `User` Herald reads (getMe). */
export interface TgUser { id: number; is_bot: boolean; first_name: string; username?: string }
/** The parts of a Telegram `Chat`/`ChatFullInfo` Herald reads. */
export interface TgChat { id: number; type: 'private' | 'group' | 'supergroup' | 'channel'; title?: string; username?: string }
/** The parts of a `Message` Herald reads. */
export interface TgMessage { message_id: number; date: number; chat: TgChat; text?: string; caption?: string }
/** The parts of a `ChatMember` Herald reads (getChatMember). */
export interface TgChatMember { status: 'creator' | 'administrator' | 'member' | 'restricted' | 'left' | 'kicked'; user: TgUser; can_post_messages?: boolean; can_delete_messages?: boolean }
/** The parts of an `Update` Herald reads (getUpdates). */
export interface TgUpdate {
  update_id: number;
  my_chat_member?: { chat: TgChat; new_chat_member: TgChatMember };
  channel_post?: TgMessage;
  message?: TgMessage;
}

/** Descriptions that mean the bot can no longer post to the chat (Telegram's wording, matched loosely). */
const GONE = /chat not found|not enough rights|need administrator rights|bot was kicked|bot is not a member|have no rights to send|bot was blocked|group chat was upgraded|CHAT_WRITE_FORBIDDEN|CHANNEL_PRIVATE/i;

/** The AdapterError for a failed Bot API answer (see the file's header). */
export function botError(status: number, body: BotAnswer<unknown>, log: { endpoint: string; excerpt: string }): AdapterError {
  const code = body.error_code ?? status;
  const description = body.description ?? `HTTP ${status}`;
  const message = `Telegram: ${description}`;
  const opts = { status, endpoint: log.endpoint, excerpt: log.excerpt, platformCode: String(code) };
  if (code === 429) return new AdapterError('rate_limited', message, { ...opts, retryAfterMs: (body.parameters?.retry_after ?? 5) * 1000 });
  if (code === 401 || code === 404) return new AdapterError('disconnected', `${message} (the bot token was revoked or is wrong)`, opts);
  if (code === 403 || body.parameters?.migrate_to_chat_id !== undefined || (code === 400 && GONE.test(description))) {
    return new AdapterError('disconnected', `${message} (the bot can no longer post to this chat: add it back as an administrator allowed to post)`, opts);
  }
  if (code >= 500) return new AdapterError('transient', message, opts);
  return new AdapterError('rejected', message, opts);
}

/** Network errors raised before a connection to the Bot API exists (nothing was sent). */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Options of {@link botCall}. */
export interface BotCallOptions {
  baseUrl: string;
  token: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * Calls `method` with `params` (a JSON object, or a FormData for uploads) and answers its `result`.
 * @throws AdapterError (see the file's header).
 */
export async function botCall<T>(o: BotCallOptions, method: string, params: Record<string, unknown> | FormData = {}): Promise<T> {
  const url = `${o.baseUrl.replace(/\/+$/, '')}/bot${o.token}/${method}`;
  const endpoint = `POST /bot…/${method}`;
  const timeoutMs = o.timeoutMs ?? 60_000;
  const isForm = params instanceof FormData;
  const fence = await guardVisibleCall('POST', timeoutMs);
  let res: Response;
  try {
    res = await (o.fetch ?? fetch)(url, {
      ...fence, method: 'POST',
      headers: isForm ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: isForm ? params : JSON.stringify(params),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    // These fail before a connection exists: Telegram received nothing.
    const notSent = NOT_CONNECTED.has(e.cause?.code ?? '');
    throw new AdapterError('transient', `Telegram: ${e.name === 'TimeoutError' ? 'timed out' : `${e.message}${e.cause?.code ? ` (${e.cause.code})` : ''}`}`, { endpoint, ...(notSent ? { notSent } : {}) });
  }
  const text = await res.text();
  let body: BotAnswer<T>;
  try {
    body = JSON.parse(text) as BotAnswer<T>;
  } catch {
    body = { ok: false, description: text.slice(0, 200) };
  }
  if (res.ok && body.ok) return body.result as T;
  throw botError(res.status, body, { endpoint, excerpt: responseExcerpt(text.split(o.token).join('[redacted]')) });
}

/** A chat's public link to a message: `https://t.me/<username>/<id>` for a public chat, `https://t.me/c/<id>/<id>` for a private supergroup or channel; '' for a basic group (no link). */
export function messageUrl(chat: { id: string; username?: string | null }, messageId: number | string): string {
  if (chat.username) return `https://t.me/${chat.username}/${messageId}`;
  if (chat.id.startsWith('-100')) return `https://t.me/c/${chat.id.slice(4)}/${messageId}`;
  return '';
}
