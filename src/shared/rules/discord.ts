/**
 * Discord's posting rules (https://discord.com/developers/docs/resources/message#create-message and
 * https://discord.com/developers/docs/reference#uploading-files): a message's `content` is at most
 * 2,000 characters, it carries up to 10 files of at most 10 MiB each (the default limit; boosted
 * servers allow more) and 25 MiB in all, and a message needs content or a file. A Herald thread is
 * the first message, a thread started from it (or, in a forum channel, a forum post), and the
 * other items as messages in that thread; thread and forum post names are 1 to 100 characters.
 *
 * The `platformSpecificData` options: `suppressEmbeds` and `silent` (message flags
 * SUPPRESS_EMBEDS and SUPPRESS_NOTIFICATIONS), `crosspost` (announcement channels only),
 * `threadName` (the thread started from the first message), `forumThreadName` and
 * `forumAppliedTags` (a forum post's name and tags).
 */
import {
  DISCORD_FILE_MAX_BYTES, DISCORD_FORUM_TAGS_MAX, DISCORD_MAX_FILES, DISCORD_MAX_TEXT, DISCORD_REQUEST_MAX_BYTES, DISCORD_THREAD_NAME_MAX,
} from '../capabilities.ts';
import type { MediaRef, PlatformRuleSet, RulePost, RuleViolation } from './types.ts';
import { n } from './format.ts';

const MESSAGE = 'https://discord.com/developers/docs/resources/message#create-message';
const UPLOADS = 'https://discord.com/developers/docs/reference#uploading-files';
const CODES = 'https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes';
const THREAD = 'https://discord.com/developers/docs/resources/channel#start-thread-from-message';
const FORUM = 'https://discord.com/developers/docs/resources/channel#start-thread-in-forum-or-media-channel';
const CROSSPOST = 'https://discord.com/developers/docs/resources/message#crosspost-message';
const FLAGS = 'https://discord.com/developers/docs/resources/message#message-object-message-flags';

/** Discord's channel types Herald publishes to (Channel Object, https://discord.com/developers/docs/resources/channel#channel-object-channel-types). */
export const DISCORD_CHANNEL_TYPES = { text: 0, announcement: 5, forum: 15 } as const;

/** The `platformSpecificData` options that are true or false. */
export const DISCORD_BOOLEAN_OPTIONS = ['suppressEmbeds', 'silent', 'crosspost'] as const;

export const DISCORD_RULES = [
  { id: 'discord.text.max_length', summary: `Text: at most ${n(DISCORD_MAX_TEXT)} characters per message (every item of a thread is a message); counted in UTF-16 units (an emoji may count 2).`, source: MESSAGE },
  { id: 'discord.text.required', summary: 'A message needs text or a file (Discord answers 50006 "Cannot send an empty message"); every item of a thread too.', source: CODES },
  { id: 'discord.media.max_items', summary: `Files: at most ${DISCORD_MAX_FILES} per message (error 30015).`, source: CODES },
  { id: 'discord.media.max_bytes', summary: `Files: at most ${DISCORD_FILE_MAX_BYTES / 1024 / 1024} MiB each (the default upload limit; error 50045 above it).`, source: UPLOADS },
  { id: 'discord.media.total_bytes', summary: `Files: at most ${DISCORD_REQUEST_MAX_BYTES / 1024 / 1024} MiB in all per message (error 40005 "Request entity too large").`, source: UPLOADS },
  { id: 'discord.options.boolean', summary: 'platformSpecificData.suppressEmbeds, silent and crosspost are true or false.', source: FLAGS },
  { id: 'discord.thread_name.length', summary: `platformSpecificData.threadName and forumThreadName: 1 to ${DISCORD_THREAD_NAME_MAX} characters.`, source: THREAD },
  { id: 'discord.forum_tags.max', summary: `platformSpecificData.forumAppliedTags: at most ${DISCORD_FORUM_TAGS_MAX} tag ids (snowflakes) of the forum channel.`, source: FORUM },
  { id: 'discord.forum_only', summary: 'forumThreadName and forumAppliedTags apply to a forum channel only.', source: FORUM },
  { id: 'discord.crosspost.announcement_only', summary: 'crosspost publishes to following servers: announcement channels only.', source: CROSSPOST },
] as const;

type DiscordRuleId = (typeof DISCORD_RULES)[number]['id'];

/** A Discord snowflake as an id string (up to 20 digits). */
const SNOWFLAKE = /^\d{1,20}$/;

/** The channel type the account publishes to (its settings' `channelType`), when known. */
export function discordChannelType(settings: Record<string, unknown> | undefined): number | undefined {
  const t = settings?.channelType;
  return typeof t === 'number' ? t : undefined;
}

/** Every Discord rule `post` breaks, without any network call. Empty array = publishable. */
function check(post: RulePost): RuleViolation[] {
  const out: RuleViolation[] = [];
  const v = (field: string, rule: DiscordRuleId, message: string) => out.push({ field, rule, message });
  const items = post.threadItems ?? [];
  const psd = post.platformSpecificData ?? {};
  const messages: Array<{ text: string; media: MediaRef[]; textField: string; mediaField: string }> = items.length > 0
    ? items.map((t, i) => ({ text: t.content ?? '', media: i === 0 ? [...(post.mediaItems ?? []), ...(t.mediaItems ?? [])] : t.mediaItems ?? [], textField: `threadItems.${i}.content`, mediaField: i === 0 && (post.mediaItems ?? []).length ? 'mediaItems' : `threadItems.${i}.mediaItems` }))
    : [{ text: post.text ?? '', media: post.mediaItems ?? [], textField: 'content', mediaField: 'mediaItems' }];
  messages.forEach((m, i) => {
    const what = items.length > 0 ? `Item ${i + 1} of the thread` : 'A Discord message';
    if (m.text.length > DISCORD_MAX_TEXT) v(m.textField, 'discord.text.max_length', `Discord messages are limited to ${n(DISCORD_MAX_TEXT)} characters; this one has ${n(m.text.length)}`);
    if (!m.text.trim() && m.media.length === 0) v(m.textField, 'discord.text.required', `${what} is empty: a Discord message needs text or a file`);
    if (m.media.length > DISCORD_MAX_FILES) v(m.mediaField, 'discord.media.max_items', `A Discord message takes at most ${DISCORD_MAX_FILES} files; this one has ${m.media.length}`);
    let total = 0;
    m.media.forEach((f, j) => {
      total += f.size ?? 0;
      const field = m.mediaField === 'mediaItems' ? `mediaItems.${j}` : `${m.mediaField}.${j}`;
      if (f.size !== undefined && f.size > DISCORD_FILE_MAX_BYTES) v(field, 'discord.media.max_bytes', `Discord files are limited to ${DISCORD_FILE_MAX_BYTES / 1024 / 1024} MiB each; this one has ${n(f.size)} bytes`);
    });
    if (total > DISCORD_REQUEST_MAX_BYTES) v(m.mediaField, 'discord.media.total_bytes', `The files of one Discord message are limited to ${DISCORD_REQUEST_MAX_BYTES / 1024 / 1024} MiB in all; these have ${n(total)} bytes`);
  });
  for (const k of DISCORD_BOOLEAN_OPTIONS) {
    if (psd[k] !== undefined && typeof psd[k] !== 'boolean') v(`platformSpecificData.${k}`, 'discord.options.boolean', `${k} must be true or false`);
  }
  for (const k of ['threadName', 'forumThreadName'] as const) {
    const name = psd[k];
    if (name !== undefined && (typeof name !== 'string' || !name.trim() || name.length > DISCORD_THREAD_NAME_MAX)) {
      v(`platformSpecificData.${k}`, 'discord.thread_name.length', `${k} must be 1 to ${DISCORD_THREAD_NAME_MAX} characters`);
    }
  }
  const tags = psd.forumAppliedTags;
  if (tags !== undefined && (!Array.isArray(tags) || tags.length > DISCORD_FORUM_TAGS_MAX || !tags.every((t) => typeof t === 'string' && SNOWFLAKE.test(t)))) {
    v('platformSpecificData.forumAppliedTags', 'discord.forum_tags.max', `forumAppliedTags takes at most ${DISCORD_FORUM_TAGS_MAX} tag ids of the forum channel (numeric strings)`);
  }
  const type = discordChannelType(post.accountSettings);
  if (type !== undefined && type !== DISCORD_CHANNEL_TYPES.forum) {
    for (const k of ['forumThreadName', 'forumAppliedTags'] as const) {
      if (psd[k] !== undefined) v(`platformSpecificData.${k}`, 'discord.forum_only', `${k} applies to forum channels; this account's channel is not a forum`);
    }
  }
  if (psd.crosspost === true && type !== undefined && type !== DISCORD_CHANNEL_TYPES.announcement) {
    v('platformSpecificData.crosspost', 'discord.crosspost.announcement_only', 'crosspost applies to announcement channels; this account\'s channel is not one');
  }
  return out;
}

export const discordRules: PlatformRuleSet = { platform: 'discord', rules: DISCORD_RULES, check };
