/**
 * Telegram's message rules for a bot posting to a channel or group (Bot API,
 * https://core.telegram.org/bots/api): text 1-4096 and captions 0-1024 characters after entities
 * parsing (in the post's parse mode, HTML by default), albums of 2-10 items (photos and videos
 * mix; documents only with documents; an animation (GIF) goes alone), upload sizes (photos 10 MB,
 * other files 50 MB), photo dimensions, MPEG4 videos, and the options' values.
 *
 * A thread is the first message, then each item a reply to the previous one; each item may carry
 * its own media (a reply can be a photo or an album), so every item is checked as a message.
 */
import {
  TELEGRAM_ALBUM_MAX, TELEGRAM_CAPTION_MAX, TELEGRAM_FILE_MAX_BYTES, TELEGRAM_PHOTO_MAX_BYTES, TELEGRAM_PHOTO_MAX_DIMENSIONS_SUM,
  TELEGRAM_PHOTO_MAX_RATIO, TELEGRAM_TEXT_MAX,
} from '../capabilities.ts';
import type { MediaRef, PlatformRuleSet, RulePost, RuleViolation } from './types.ts';
import { n } from './format.ts';
import { TELEGRAM_PARSE_MODES, telegramParsedText, type TelegramParseMode } from './telegram-entities.ts';

const SEND_MESSAGE = 'https://core.telegram.org/bots/api#sendmessage';
const SEND_PHOTO = 'https://core.telegram.org/bots/api#sendphoto';
const SEND_VIDEO = 'https://core.telegram.org/bots/api#sendvideo';
const SEND_MEDIA_GROUP = 'https://core.telegram.org/bots/api#sendmediagroup';
const SENDING_FILES = 'https://core.telegram.org/bots/api#sending-files';
const FORMATTING = 'https://core.telegram.org/bots/api#formatting-options';
/** Herald's own Telegram rules are explained in its decision record. */
const HERALD_TELEGRAM = 'docs/decisions/0057-telegram.md';

export interface TelegramLimits {
  photoMaxBytes: number;
  fileMaxBytes: number;
}

export const TELEGRAM_LIMITS: TelegramLimits = { photoMaxBytes: TELEGRAM_PHOTO_MAX_BYTES, fileMaxBytes: TELEGRAM_FILE_MAX_BYTES };

/** The parse mode a post is sent with: platformSpecificData.parseMode, HTML by default (as the Late API's TelegramPlatformData). */
export const TELEGRAM_DEFAULT_PARSE_MODE: TelegramParseMode = 'HTML';

/** The boolean options of platformSpecificData (Late's TelegramPlatformData). */
export const TELEGRAM_BOOLEAN_OPTIONS = ['disableNotification', 'protectContent', 'disableWebPagePreview'] as const;

/** A thread's most items: Herald's cap, so that a thread stays within Telegram's advice of one message a second in a chat (https://core.telegram.org/bots/faq). */
export const TELEGRAM_THREAD_MAX = 25;

export const TELEGRAM_RULES = [
  { id: 'telegram.text.max_length', summary: `A message without media: 1 to ${n(TELEGRAM_TEXT_MAX)} characters after entities parsing (counted in UTF-16 units).`, source: SEND_MESSAGE },
  { id: 'telegram.text.required', summary: 'A message without media needs text (every item of a thread is a message).', source: SEND_MESSAGE },
  { id: 'telegram.caption.max_length', summary: `A photo, video, file or album caption: at most ${n(TELEGRAM_CAPTION_MAX)} characters after entities parsing.`, source: SEND_PHOTO },
  { id: 'telegram.entities.parse', summary: 'The text must parse in its parse mode (HTML: only Telegram\'s tags, < > & escaped; MarkdownV2: reserved characters escaped with \\; every entity closed).', source: FORMATTING },
  { id: 'telegram.parse_mode.value', summary: 'parseMode: HTML (the default), MarkdownV2 or Markdown.', source: FORMATTING },
  { id: 'telegram.options.boolean', summary: 'disableNotification, protectContent and disableWebPagePreview are true or false.', source: SEND_MESSAGE },
  { id: 'telegram.album.max_items', summary: `An album (sendMediaGroup) takes 2 to ${TELEGRAM_ALBUM_MAX} items.`, source: SEND_MEDIA_GROUP },
  { id: 'telegram.album.documents_alone', summary: 'Documents are grouped in an album only with other documents.', source: SEND_MEDIA_GROUP },
  { id: 'telegram.album.no_animation', summary: 'A GIF is sent as an animation (sendAnimation), alone: albums take photos, videos and documents.', source: SEND_MEDIA_GROUP },
  { id: 'telegram.media.photo_max_bytes', summary: `Photos: at most ${n(TELEGRAM_PHOTO_MAX_BYTES)} bytes (10 MB) uploaded.`, source: SENDING_FILES },
  { id: 'telegram.media.file_max_bytes', summary: `Videos, GIFs and documents: at most ${n(TELEGRAM_FILE_MAX_BYTES)} bytes (50 MB) uploaded.`, source: SENDING_FILES },
  { id: 'telegram.photo.dimensions', summary: `Photos: width + height at most ${n(TELEGRAM_PHOTO_MAX_DIMENSIONS_SUM)} pixels, and a width-to-height ratio of at most ${TELEGRAM_PHOTO_MAX_RATIO}.`, source: SEND_PHOTO },
  { id: 'telegram.video.format', summary: 'Videos: MPEG4 (MP4); other formats would have to be sent as documents.', source: SEND_VIDEO },
  { id: 'telegram.thread.max_items', summary: `A thread (each message a reply to the previous one, reply_parameters) takes at most ${TELEGRAM_THREAD_MAX} messages: Herald's cap, as Telegram advises at most one message a second in a chat.`, source: HERALD_TELEGRAM },
] as const;

type RuleId = (typeof TELEGRAM_RULES)[number]['id'];


/** The parse mode of a post, or undefined when platformSpecificData.parseMode is not one of Telegram's. */
export function telegramParseMode(psd: Record<string, unknown>): TelegramParseMode | undefined {
  const v = psd.parseMode ?? TELEGRAM_DEFAULT_PARSE_MODE;
  return (TELEGRAM_PARSE_MODES as readonly unknown[]).includes(v) ? (v as TelegramParseMode) : undefined;
}

/** The messages a post is sent as: one per thread item (the root's media are the post's when item 0 has none), or the post itself. */
export function telegramMessages(post: Pick<RulePost, 'text' | 'mediaItems' | 'threadItems'>): Array<{ text: string; media: MediaRef[]; field: string; mediaField: string }> {
  const items = post.threadItems ?? [];
  if (items.length === 0) return [{ text: post.text ?? '', media: post.mediaItems ?? [], field: 'content', mediaField: 'mediaItems' }];
  return items.map((it, i) => {
    const own = it.mediaItems ?? [];
    const media = i === 0 && own.length === 0 ? post.mediaItems ?? [] : own;
    return { text: it.content ?? '', media, field: `threadItems.${i}.content`, mediaField: i === 0 && own.length === 0 ? 'mediaItems' : `threadItems.${i}.mediaItems` };
  });
}

/** Every Telegram rule `post` breaks, without any network call. Empty array = publishable. */
function check(post: RulePost, limits: Partial<TelegramLimits> = {}): RuleViolation[] {
  const lim = { ...TELEGRAM_LIMITS, ...limits };
  const out: RuleViolation[] = [];
  const add = (field: string, rule: RuleId, message: string) => out.push({ field, rule, message });
  const psd = post.platformSpecificData ?? {};
  const mode = telegramParseMode(psd);
  if (!mode) add('platformSpecificData.parseMode', 'telegram.parse_mode.value', `parseMode must be one of ${TELEGRAM_PARSE_MODES.join(', ')}`);
  for (const k of TELEGRAM_BOOLEAN_OPTIONS) {
    if (psd[k] !== undefined && typeof psd[k] !== 'boolean') add(`platformSpecificData.${k}`, 'telegram.options.boolean', `${k} must be true or false`);
  }
  const messages = telegramMessages(post);
  if (messages.length > TELEGRAM_THREAD_MAX) add('platformSpecificData.threadItems', 'telegram.thread.max_items', `A Telegram thread takes at most ${TELEGRAM_THREAD_MAX} messages; got ${messages.length}`);
  for (const m of messages) {
    const parsed = telegramParsedText(m.text, mode);
    let length = m.text.trim().length;
    if (!parsed.ok) add(m.field, 'telegram.entities.parse', `Telegram cannot parse this ${mode} text: ${parsed.error}`);
    else length = parsed.text.trim().length;
    if (m.media.length === 0) {
      if (length === 0) add(m.field, 'telegram.text.required', 'A Telegram message without media needs text');
      if (length > TELEGRAM_TEXT_MAX) add(m.field, 'telegram.text.max_length', `Telegram messages are limited to ${n(TELEGRAM_TEXT_MAX)} characters after entities parsing; this one has ${n(length)}`);
    } else if (length > TELEGRAM_CAPTION_MAX) {
      add(m.field, 'telegram.caption.max_length', `Telegram captions are limited to ${n(TELEGRAM_CAPTION_MAX)} characters after entities parsing; this one has ${n(length)}`);
    }
    const docs = m.media.filter((x) => x.type === 'document').length;
    const gifs = m.media.filter((x) => x.type === 'gif').length;
    if (m.media.length > TELEGRAM_ALBUM_MAX) add(m.mediaField, 'telegram.album.max_items', `A Telegram album takes 2 to ${TELEGRAM_ALBUM_MAX} items; got ${m.media.length}`);
    if (docs > 0 && docs < m.media.length) add(m.mediaField, 'telegram.album.documents_alone', 'Telegram groups documents in an album only with other documents');
    if (gifs > 0 && m.media.length > 1) add(m.mediaField, 'telegram.album.no_animation', 'A GIF is sent alone (as an animation): Telegram albums take photos, videos and documents');
    m.media.forEach((x, j) => {
      const field = `${m.mediaField}.${j}`;
      if (x.type === 'image') {
        if (x.size !== undefined && x.size > lim.photoMaxBytes) add(field, 'telegram.media.photo_max_bytes', `Telegram photos are limited to ${n(lim.photoMaxBytes)} bytes; this one has ${n(x.size)}`);
        if (x.width && x.height && (x.width + x.height > TELEGRAM_PHOTO_MAX_DIMENSIONS_SUM || Math.max(x.width, x.height) / Math.min(x.width, x.height) > TELEGRAM_PHOTO_MAX_RATIO)) {
          add(field, 'telegram.photo.dimensions', `Telegram photos: width + height at most ${n(TELEGRAM_PHOTO_MAX_DIMENSIONS_SUM)} and a ratio of at most ${TELEGRAM_PHOTO_MAX_RATIO} (this one is ${x.width}x${x.height})`);
        }
      } else if (x.size !== undefined && x.size > lim.fileMaxBytes) {
        add(field, 'telegram.media.file_max_bytes', `Telegram takes uploaded files of at most ${n(lim.fileMaxBytes)} bytes; this one has ${n(x.size)}`);
      }
      if (x.type === 'video' && x.mimeType && x.mimeType.toLowerCase() !== 'video/mp4') add(field, 'telegram.video.format', `Telegram videos are MPEG4 (MP4); this file is ${x.mimeType}`);
    });
  }
  return out;
}

export const telegramRules: PlatformRuleSet<TelegramLimits> = { platform: 'telegram', rules: TELEGRAM_RULES, check };
