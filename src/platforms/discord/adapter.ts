/**
 * Discord adapter: messages as Herald's bot in the account's channel
 * (https://discord.com/developers/docs/resources/message#create-message), decision 0056.
 *
 * What is posted:
 * - a text (0) or announcement (5) channel: one message, `content` (<= 2,000) and up to 10 files
 *   (multipart: `payload_json` and `files[n]`, https://discord.com/developers/docs/reference#uploading-files).
 *   A thread: the first item is that message, a public thread is started from it
 *   (`POST /channels/{id}/messages/{id}/threads`, name `platformSpecificData.threadName` or the
 *   first line), and each other item is a message in the thread, in order.
 * - a forum (15) channel: a forum post (`POST /channels/{id}/threads` with the first item as its
 *   starter message), named `platformSpecificData.forumThreadName` or the first line, with
 *   `forumAppliedTags`; the other items are messages in it.
 * - options: `suppressEmbeds` (flag SUPPRESS_EMBEDS, no link previews), `silent` (flag
 *   SUPPRESS_NOTIFICATIONS), `crosspost` (announcement channels: `POST .../crosspost` publishes
 *   the first message to following servers; a refused crosspost does not fail the post and is
 *   recorded in `extra.crosspost`).
 *
 * Exactly once: each message carries a `nonce` (<= 25 characters, made in prepare and stable
 * across retries) with `enforce_nonce: true`, so a repeated create within Discord's window
 * answers the first message; beyond that window verify looks back exactly
 * (see {@link DiscordAdapter.verify}). Metrics: Discord's API has no view or impression counts,
 * so the adapter has none (no fetchMetrics).
 */
import {
  AdapterError, deleteUnlessGone, type AccountContext, type AdapterContext, type MediaRef, type PlatformAdapter, type PlatformCapabilities,
  type EditRequest, type EditResult, type PublishedPost, type PublishRequest, mapMetrics, type PostMetrics, type PublishResult, type RuleViolation, type VerifyResult, type VerifyWindow, VERIFY_MAX_PAGES,
 lookupFailed,
} from '../types.ts';
import type { PlatformApp } from '../connect-shape.ts';
import { capabilitiesOf, DISCORD_FILE_MAX_BYTES, DISCORD_THREAD_NAME_MAX } from '../../shared/capabilities.ts';
import { discordChannelType, discordRules, DISCORD_CHANNEL_TYPES } from '../../shared/rules/discord.ts';
import {
  botGuildView, botUserId, channelPermissions, codeOf, discordBot, PERMISSIONS, snowflakeAt, type DiscordChannel,
} from './api.ts';

export const DISCORD_CAPABILITIES: PlatformCapabilities = capabilitiesOf('discord');

/** Message flags (https://discord.com/developers/docs/resources/message#message-object-message-flags). */
export const FLAGS = { CROSSPOSTED: 1 << 0, SUPPRESS_EMBEDS: 1 << 2, SUPPRESS_NOTIFICATIONS: 1 << 12 } as const;
/** Messages read per page when looking back (the endpoint's most). */
const PAGE = 100;

/** One message to send: its text and files. */
interface PreparedMessage {
  content: string;
  files: MediaRef[];
}

/** What prepare leaves for commit (JSON on the attempt row); `done` and the rest are the resume state verify gives back. */
export interface DiscordPrepared {
  channelId: string;
  guildId: string;
  channelType: number;
  /** Item i's nonce is `nonce + i` in base 36 (at most 25 characters in all). */
  nonce: string;
  messages: PreparedMessage[];
  flags: number;
  /** The thread's name (text and announcement channels, when there are several messages) or the forum post's. */
  threadName: string;
  forumTags?: string[];
  crosspost: boolean;
  /** Ids of the messages already posted, by item (resume). */
  done?: string[];
  /** The thread the items go to, once it exists. */
  threadId?: string;
  /** The first message was crossposted already. */
  crossposted?: boolean;
}

/** A message as Discord answers it (the fields Herald reads). */
interface DiscordMessage { id: string; channel_id: string; author?: { id: string }; content: string; flags?: number; attachments?: Array<{ filename: string }>; nonce?: string | number }

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const nonceOf = (p: DiscordPrepared, i: number) => `${p.nonce}${i.toString(36)}`;
const fileName = (m: MediaRef, i: number) => {
  const fromUrl = (() => { try { return decodeURIComponent(new URL(m.url).pathname.split('/').pop() ?? ''); } catch { return ''; } })();
  const name = (m.filename ?? fromUrl).replace(/[^\w.-]+/g, '_').slice(-80);
  return name || `file${i}`;
};

/** The message URL Discord's client opens (`https://discord.com/channels/{guild}/{channel}/{message}`). */
export const messageUrl = (guildId: string, channelId: string, messageId: string) => `https://discord.com/channels/${guildId}/${channelId}/${messageId}`;

/** A name for the thread or forum post: the option, else the first line of the first message (cut to 100), else the first file's name. */
export function threadNameFor(req: PublishRequest, option: unknown, first: PreparedMessage): string {
  const explicit = str(option);
  if (explicit) return explicit; // longer than 100 is the rule table's (and Discord's) refusal
  const line = (first.content.split(/\r?\n/).find((l) => l.trim()) ?? '').trim();
  const name = line || (first.files[0] ? fileName(first.files[0], 0) : 'Post');
  return name.length > DISCORD_THREAD_NAME_MAX ? `${name.slice(0, DISCORD_THREAD_NAME_MAX - 1)}…` : name;
}

export class DiscordAdapter implements PlatformAdapter<Record<string, unknown>, DiscordPrepared> {
  readonly platform = 'discord' as const;
  readonly capabilities = DISCORD_CAPABILITIES;
  constructor(private readonly app: () => PlatformApp) {}

  validate(req: PublishRequest): RuleViolation[] {
    return discordRules.check(req);
  }

  /** Discord's prepare only shapes the messages (files are sent with the commit). */
  preparesOffline(_req: PublishRequest): boolean {
    return true;
  }

  async prepare(_ctx: AdapterContext, account: AccountContext, req: PublishRequest): Promise<DiscordPrepared> {
    const s = account.settings;
    const channelId = str(s.channelId) ?? account.platformUserId;
    const guildId = str(s.guildId);
    const channelType = discordChannelType(s);
    if (!guildId || channelType === undefined) throw new AdapterError('disconnected', 'The Discord account has no channel settings; reconnect it');
    const psd = req.platformSpecificData;
    const items = req.threadItems.length ? req.threadItems : [{ content: req.text, mediaItems: [] }];
    const messages: PreparedMessage[] = items.map((t, i) => ({
      content: (t.content ?? '').trim(),
      files: i === 0 ? [...req.mediaItems, ...(req.threadItems.length ? t.mediaItems ?? [] : [])] : t.mediaItems ?? [],
    }));
    const forum = channelType === DISCORD_CHANNEL_TYPES.forum;
    return {
      channelId, guildId, channelType,
      nonce: `h${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`.slice(0, 22),
      messages,
      flags: (psd.suppressEmbeds === true ? FLAGS.SUPPRESS_EMBEDS : 0) | (psd.silent === true ? FLAGS.SUPPRESS_NOTIFICATIONS : 0),
      threadName: threadNameFor(req, forum ? psd.forumThreadName : psd.threadName, messages[0]),
      ...(forum && Array.isArray(psd.forumAppliedTags) ? { forumTags: psd.forumAppliedTags as string[] } : {}),
      crosspost: psd.crosspost === true && channelType === DISCORD_CHANNEL_TYPES.announcement,
    };
  }

  /** The message body: JSON, or multipart (payload_json + files[n]) when it has files. */
  private async body(ctx: AdapterContext, m: PreparedMessage, payload: Record<string, unknown>, nest?: 'message'): Promise<{ json?: unknown; form?: FormData }> {
    if (!m.files.length) return { json: payload };
    const attachments = m.files.map((f, i) => ({ id: i, filename: fileName(f, i), ...(f.altText ? { description: f.altText.slice(0, 1024) } : {}) }));
    const form = new FormData();
    const json = nest ? { ...payload, [nest]: { ...(payload[nest] as object), attachments } } : { ...payload, attachments };
    form.set('payload_json', JSON.stringify(json));
    for (const [i, f] of m.files.entries()) {
      const { bytes, mimeType } = await ctx.fetchMedia(f, DISCORD_FILE_MAX_BYTES);
      form.set(`files[${i}]`, new Blob([new Uint8Array(bytes)], { type: mimeType || 'application/octet-stream' }), attachments[i].filename);
    }
    return { form };
  }

  async commit(ctx: AdapterContext, _account: AccountContext, _req: PublishRequest, p: DiscordPrepared): Promise<PublishResult> {
    const app = this.app();
    const done = [...(p.done ?? [])];
    let threadId = p.threadId;
    const forum = p.channelType === DISCORD_CHANNEL_TYPES.forum;
    try {
      for (const [i, m] of p.messages.entries()) {
        if (done[i]) continue;
        if (i === 0 && forum) {
          const b = await this.body(ctx, m, { name: p.threadName, message: { content: m.content, flags: p.flags }, ...(p.forumTags?.length ? { applied_tags: p.forumTags } : {}) }, 'message');
          const t = await discordBot<DiscordChannel & { message?: { id: string } }>(app, `/channels/${p.channelId}/threads`, { method: 'POST', ...b, timeoutMs: m.files.length ? 120_000 : undefined });
          threadId = t.id;
          done[0] = t.message?.id ?? t.id;
          continue;
        }
        if (i > 0 && !threadId) threadId = await this.startThread(app, p, done[0]);
        const channel = i === 0 ? p.channelId : threadId!;
        const b = await this.body(ctx, m, { content: m.content, nonce: nonceOf(p, i), enforce_nonce: true, flags: p.flags });
        const sent = await discordBot<DiscordMessage>(app, `/channels/${channel}/messages`, { method: 'POST', ...b, timeoutMs: m.files.length ? 120_000 : undefined });
        done[i] = sent.id;
      }
    } catch (err) {
      // Part of the thread is live: a limit or a failure now must not post it again from the start.
      // A transient error leaves the outcome unknown, so the next run verifies and resumes after it.
      if (done[0] && err instanceof AdapterError && (err.kind === 'rate_limited' || err.kind === 'transient')) {
        throw new AdapterError('transient', `${err.message} (after ${done.filter(Boolean).length} of ${p.messages.length} messages were posted; the rest follow after a check)`, err.opts);
      }
      throw err;
    }
    const extra: Record<string, unknown> = { channelId: p.channelId, ...(threadId ? { threadId } : {}) };
    if (p.crosspost) extra.crosspost = p.crossposted ? { status: 'published' } : await this.crosspost(app, p.channelId, done[0]);
    return this.result(p, done, threadId, extra);
  }

  /** Starts the public thread from the first message; one that exists already (160004) is used. */
  private async startThread(app: PlatformApp, p: DiscordPrepared, rootId: string): Promise<string> {
    try {
      const t = await discordBot<DiscordChannel>(app, `/channels/${p.channelId}/messages/${rootId}/threads`, { method: 'POST', json: { name: p.threadName, auto_archive_duration: 10080 } });
      return t.id;
    } catch (err) {
      // "A thread has already been created for this message": its id is the message's.
      if (err instanceof AdapterError && codeOf(err) === 160004) return rootId;
      throw err;
    }
  }

  /** Crossposts the first message; a refusal is recorded, not thrown (the message is live). */
  private async crosspost(app: PlatformApp, channelId: string, messageId: string): Promise<Record<string, unknown>> {
    try {
      await discordBot(app, `/channels/${channelId}/messages/${messageId}/crosspost`, { method: 'POST' });
      return { status: 'published' };
    } catch (err) {
      if (err instanceof AdapterError && codeOf(err) === 40033) return { status: 'published' };
      return { status: 'failed', error: (err as Error).message };
    }
  }

  private result(p: DiscordPrepared, done: string[], threadId: string | undefined, extra: Record<string, unknown>): PublishResult {
    const forum = p.channelType === DISCORD_CHANNEL_TYPES.forum;
    const url = (i: number) => (i === 0 && !forum ? messageUrl(p.guildId, p.channelId, done[0]) : forum && i === 0 ? `https://discord.com/channels/${p.guildId}/${threadId}` : messageUrl(p.guildId, threadId!, done[i]));
    return {
      platformPostId: done[0], platformPostUrl: url(0),
      ...(p.messages.length > 1 ? { thread: done.map((id, i) => ({ platformPostId: id, platformPostUrl: url(i) })) } : {}),
      extra,
    };
  }

  /**
   * Exact check after an interrupted commit (docs/decisions/0018-exact-verify.md, 0056):
   * - the bot must still have READ_MESSAGE_HISTORY in the channel (Discord answers an empty list
   *   without it): else 'unknown';
   * - text and announcement channels: every message since `window.since` is read
   *   (`GET /channels/{id}/messages?after=<snowflake of since>&limit=100`, paging with the newest
   *   id seen until a page is short), keeping the bot's own with the same content and file
   *   names. Forum channels: the forum's threads started by the bot since then with the post's
   *   name (active ones, `GET /guilds/{id}/threads/active`, and archived ones,
   *   `GET /channels/{id}/threads/archived/public`, back to `since`), each checked by its
   *   starter message;
   * - none: not_published; several: unknown; one: the thread's items are looked for in the thread
   *   the same way. All there (and crossposted when asked): published; else not_published with
   *   the resume state (the messages found are not sent again).
   */
  async verify(_ctx: AdapterContext, _account: AccountContext, _req: PublishRequest, p: DiscordPrepared, window: VerifyWindow): Promise<VerifyResult<DiscordPrepared>> {
    const app = this.app();
    try {
      const botId = await botUserId(app);
      const channel = await discordBot<DiscordChannel>(app, `/channels/${p.channelId}`);
      const perms = channelPermissions(await botGuildView(app, p.guildId), channel);
      if (!(perms & PERMISSIONS.READ_MESSAGE_HISTORY)) return { status: 'unknown', reason: 'Herald\'s bot lacks READ_MESSAGE_HISTORY in the channel, so Discord shows it no messages' };
      const since = snowflakeAt(window.since);
      const matches = (m: DiscordMessage, want: PreparedMessage) => m.author?.id === botId && m.content === want.content
        && (m.attachments ?? []).map((a) => a.filename).join('\n') === want.files.map(fileName).join('\n');
      const done: string[] = [];
      let threadId: string | undefined;
      let crossposted = false;
      if (p.channelType === DISCORD_CHANNEL_TYPES.forum) {
        const threads = await this.forumThreads(app, p, botId, window.since);
        if (threads === null) return { status: 'unknown', reason: `more than ${VERIFY_MAX_PAGES} pages of archived threads to read` };
        const hits: string[] = [];
        for (const t of threads) {
          const starter = await discordBot<DiscordMessage>(app, `/channels/${t.id}/messages/${t.id}`).catch((e: unknown) => {
            if (e instanceof AdapterError && e.opts.status === 404) return null;
            throw e;
          });
          if (starter && matches(starter, p.messages[0])) hits.push(t.id);
        }
        if (hits.length > 1) return { status: 'unknown', reason: `${hits.length} forum posts since the attempt match what was sent` };
        if (!hits.length) return { status: 'not_published' };
        threadId = hits[0];
        done[0] = hits[0];
      } else {
        const listed = await this.since(app, p.channelId, since);
        if (listed === null) return { status: 'unknown', reason: `more than ${VERIFY_MAX_PAGES * PAGE} messages since the attempt` };
        const hits = listed.filter((m) => matches(m, p.messages[0]));
        if (hits.length > 1) return { status: 'unknown', reason: `${hits.length} messages since the attempt match what was sent` };
        if (!hits.length) return { status: 'not_published' };
        done[0] = hits[0].id;
        crossposted = ((hits[0].flags ?? 0) & FLAGS.CROSSPOSTED) !== 0;
        if (p.messages.length > 1) {
          // The thread started from a message has the message's id; 10003 when there is none yet.
          const t = await discordBot<DiscordChannel>(app, `/channels/${done[0]}`).catch((e: unknown) => {
            if (e instanceof AdapterError && (e.opts.status === 404 || codeOf(e) === 10003)) return null;
            throw e;
          });
          threadId = t?.id;
        }
      }
      if (threadId && p.messages.length > 1) {
        const inThread = await this.since(app, threadId, since);
        if (inThread === null) return { status: 'unknown', reason: `more than ${VERIFY_MAX_PAGES * PAGE} messages in the thread since the attempt` };
        const mine = inThread.filter((m) => m.id !== threadId).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
        let from = 0;
        for (let i = 1; i < p.messages.length; i++) {
          const k = mine.findIndex((m, j) => j >= from && matches(m, p.messages[i]));
          if (k < 0) break;
          done[i] = mine[k].id;
          from = k + 1;
        }
      }
      const complete = done.filter(Boolean).length === p.messages.length;
      const crossOk = !p.crosspost || crossposted;
      if (complete && crossOk) {
        return { status: 'published', result: this.result(p, done, threadId, { channelId: p.channelId, ...(threadId ? { threadId } : {}), ...(p.crosspost ? { crosspost: { status: 'published' } } : {}) }) };
      }
      return { status: 'not_published', prepared: { ...p, done, ...(threadId ? { threadId } : {}), crossposted } };
    } catch (err) {
      return lookupFailed(err);
    }
  }

  /** Every message of a channel after the snowflake, newest first per page; null past VERIFY_MAX_PAGES. */
  private async since(app: PlatformApp, channelId: string, after: string): Promise<DiscordMessage[] | null> {
    const out: DiscordMessage[] = [];
    let cursor = after;
    for (let page = 0; page < VERIFY_MAX_PAGES; page++) {
      const batch = await discordBot<DiscordMessage[]>(app, `/channels/${channelId}/messages`, { query: { after: cursor, limit: PAGE } });
      out.push(...batch);
      if (batch.length < PAGE) return out;
      cursor = batch.reduce((max, m) => (BigInt(m.id) > BigInt(max) ? m.id : max), cursor);
    }
    return null;
  }

  /** The forum's threads the bot started since `since` with the post's name (active and archived); null when the archive runs past the pages. */
  private async forumThreads(app: PlatformApp, p: DiscordPrepared, botId: string, since: Date): Promise<DiscordChannel[] | null> {
    const minId = BigInt(snowflakeAt(since));
    const ours = (t: DiscordChannel) => t.parent_id === p.channelId && t.owner_id === botId && BigInt(t.id) >= minId && t.name === p.threadName;
    const active = await discordBot<{ threads: DiscordChannel[] }>(app, `/guilds/${p.guildId}/threads/active`);
    const out = active.threads.filter(ours);
    let before: string | undefined;
    for (let page = 0; page < VERIFY_MAX_PAGES; page++) {
      const archived = await discordBot<{ threads: DiscordChannel[]; has_more: boolean }>(app, `/channels/${p.channelId}/threads/archived/public`, { query: { limit: PAGE, before } });
      out.push(...archived.threads.filter(ours));
      // Newest archived first: a thread archived before `since` was created before it too.
      const last = archived.threads.at(-1)?.thread_metadata?.archive_timestamp;
      if (!archived.has_more || !last || Date.parse(last) < since.getTime()) return out;
      before = last;
    }
    return null;
  }

  /**
   * Reactions, the only count Discord keeps on a message (`GET /channels/{channel.id}/messages/{message.id}`,
   * `reactions[].count` summed as likes; https://discord.com/developers/docs/resources/message#reaction-object).
   * Discord has no views, impressions, reach or clicks: those stay null. A message Discord no
   * longer has is left out.
   * @throws AdapterError `rate_limited`, `disconnected` (the bot removed), `transient`.
   */
  async fetchMetrics(_ctx: AdapterContext, account: AccountContext, platformPostIds: string[]): Promise<Map<string, PostMetrics>> {
    const app = this.app();
    const forum = discordChannelType(account.settings) === DISCORD_CHANNEL_TYPES.forum;
    const channel = str(account.settings.channelId) ?? account.platformUserId;
    const out = new Map<string, PostMetrics>();
    for (const id of platformPostIds) {
      let m: { reactions?: Array<{ count?: number }> };
      try {
        m = await discordBot(app, `/channels/${forum ? id : channel}/messages/${id}`);
      } catch (err) {
        if (err instanceof AdapterError && err.kind === 'rejected' && err.opts.status === 404) continue;
        throw err;
      }
      out.set(id, mapMetrics('discord', { reactions: (m.reactions ?? []).reduce((s, r) => s + (r.count ?? 0), 0) }));
    }
    return out;
  }

  /**
   * Edits the post's first message (`PATCH /channels/{channel.id}/messages/{message.id}` with
   * `content`, at most 2,000 characters; a bot edits its own messages with no time limit,
   * https://discord.com/developers/docs/resources/message#edit-message). Attachments stay as they
   * are (Discord keeps those of a PATCH without `attachments`). A forum post's first message lives
   * in the post's thread, whose id is the message's.
   */
  async editPublished(_ctx: AdapterContext, account: AccountContext, edit: EditRequest): Promise<EditResult> {
    const forum = discordChannelType(account.settings) === DISCORD_CHANNEL_TYPES.forum;
    const root = edit.post.platformPostId;
    const channel = str(account.settings.channelId) ?? account.platformUserId;
    await discordBot(this.app(), `/channels/${forum ? root : channel}/messages/${root}`, { method: 'PATCH', json: { content: edit.text } });
    return { platformPostId: root, platformPostUrl: edit.post.platformPostUrl };
  }

  /**
   * Deletes the post's messages, the thread's last first, then the first one
   * (`DELETE /channels/{channel.id}/messages/{message.id}`, 204; the bot's own messages need no
   * permission, https://discord.com/developers/docs/resources/message#delete-message). A message
   * Discord no longer has (404, code 10008) counts as deleted. A thread started from the message,
   * or a forum post's thread, stays (empty) on Discord: deleting a thread needs MANAGE_THREADS,
   * which Herald does not ask for.
   */
  async unpublish(_ctx: AdapterContext, account: AccountContext, post: PublishedPost): Promise<void> {
    const app = this.app();
    const forum = discordChannelType(account.settings) === DISCORD_CHANNEL_TYPES.forum;
    const root = post.platformPostId;
    const channel = str(account.settings.channelId) ?? account.platformUserId;
    const gone = (e: AdapterError) => e.opts.status === 404;
    const items = post.threadIds.filter((id) => id !== root);
    for (const id of [...items].reverse()) await deleteUnlessGone(() => discordBot(app, `/channels/${root}/messages/${id}`, { method: 'DELETE' }), gone);
    await deleteUnlessGone(() => discordBot(app, `/channels/${forum ? root : channel}/messages/${root}`, { method: 'DELETE' }), gone);
  }
}
