/**
 * Discord API v10 simulator: a real HTTP server on loopback speaking the parts of Discord's HTTP
 * API Herald uses, with Discord's paths (`/api/v10/...`), snowflake ids (timestamp in the high
 * bits, so `after=<snowflake of a time>` works as on Discord), and error bodies
 * `{code, message[, errors]}` (https://discord.com/developers/docs/reference#error-messages):
 * - OAuth2 with the `bot` scope (https://discord.com/developers/docs/topics/oauth2#advanced-bot-authorization):
 *   `GET /oauth2/authorize` approves at once as the simulator's user, adds the application's bot
 *   to the guild (the `guild_id` given, else the user's first) with the `permissions` asked for,
 *   and redirects with `code`, `state`, `guild_id`, `permissions`; `POST /api/v10/oauth2/token`
 *   (client id and secret in the form or HTTP Basic) answers the user token (7 days, a refresh
 *   token) and the `guild` the bot was added to.
 * - Bot calls need `Authorization: Bot <token>` (401 `{"message": "401: Unauthorized", "code": 0}`
 *   otherwise; that body is UNVERIFIED). Permissions are computed as Discord does
 *   (https://discord.com/developers/docs/topics/permissions#permission-overwrites): the bot's
 *   roles, then the channel's @everyone, role and member overwrites. A guild the bot is not in,
 *   or a channel it cannot view: 403 code 50001 "Missing Access"; a missing permission: 403 code
 *   50013; an unknown channel 404 code 10003, message 10008.
 * - `GET /guilds/{id}/channels`, `GET /guilds/{id}`, `GET /guilds/{id}/members/{user}`,
 *   `GET /channels/{id}`, `GET /users/@me`.
 * - `POST /channels/{id}/messages`, JSON or multipart (`payload_json` and `files[n]`): content at
 *   most 2,000 characters (50035 BASE_TYPE_MAX_LENGTH), not empty (50006), at most 10 files
 *   (30015), each at most 10 MiB (50045), 25 MiB in all (413, 40005), `nonce` at most 25
 *   characters, `enforce_nonce` (the same author's message with the same nonce within
 *   `nonceWindowMs` is answered again instead of a new one), `flags` only SUPPRESS_EMBEDS and
 *   SUPPRESS_NOTIFICATIONS; not in a forum (40058); SEND_MESSAGES (SEND_MESSAGES_IN_THREADS in a
 *   thread) and ATTACH_FILES for files.
 * - `GET /channels/{id}/messages` with `limit` (1-100, default 50) and one of `before`/`after`/
 *   `around`, newest first; without READ_MESSAGE_HISTORY it answers an empty list, as Discord
 *   does. `GET /channels/{id}/messages/{id}` (403 50001 without READ_MESSAGE_HISTORY).
 *   The create answer carries `nonce`; reads do not (whether Discord echoes it there is UNVERIFIED).
 * - `DELETE /channels/{id}/messages/{id}` (own messages; MANAGE_MESSAGES for others').
 * - `POST /channels/{id}/messages/{id}/threads` (text and announcement channels; one thread per
 *   message: 160004; name 1-100), `POST /channels/{id}/threads` in a forum (starter message,
 *   `applied_tags` of the forum, at most 5; a forum that requires a tag: 40067),
 *   `GET /guilds/{id}/threads/active`, `GET /channels/{id}/threads/archived/public`.
 * - `POST /channels/{id}/messages/{id}/crosspost`: announcement channels only (elsewhere 400 code
 *   50024 "Cannot execute action on this channel type": the code Discord answers there is
 *   UNVERIFIED); once (40033 "This message has already been crossposted").
 * - Rate limits: every answer carries `X-RateLimit-Limit/-Remaining/-Reset/-Reset-After/-Bucket`;
 *   message creation in a channel is limited to `messagesPerWindow` per `windowMs`; a 429 has
 *   `Retry-After`, `X-RateLimit-Scope` and the body `{message, retry_after, global}`.
 * - Faults (`addFault` or POST /__sim/faults): 429, 5xx, slow, dropped connection, an answer
 *   dropped after the message was created.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { listen, runAsMain, simApp, simControls, type SimulatorBase } from '../common/app.ts';
import { droppedAfterCreate, FaultQueue } from '../common/faults.ts';
import { authorizeRoute, basicCredentials, bearerToken, RefreshTokens, takeCode } from '../common/oauth.ts';

/** Permission bits (https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags). */
export const P = {
  ADMINISTRATOR: 1n << 3n, VIEW_CHANNEL: 1n << 10n, SEND_MESSAGES: 1n << 11n, MANAGE_MESSAGES: 1n << 13n, EMBED_LINKS: 1n << 14n,
  ATTACH_FILES: 1n << 15n, READ_MESSAGE_HISTORY: 1n << 16n, CREATE_PUBLIC_THREADS: 1n << 35n, SEND_MESSAGES_IN_THREADS: 1n << 38n,
} as const;
const DISCORD_EPOCH = 1420070400000n;
const API = '/api/v10';
/** Message flags Create Message accepts: SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS (and two Herald never sends). */
const CREATE_FLAGS = (1 << 2) | (1 << 12) | (1 << 13) | (1 << 15);
const CROSSPOSTED = 1 << 0;

export interface DiscordSimOptions {
  clientId?: string;
  clientSecret?: string;
  botToken?: string;
  /** Largest file, bytes (10 MiB: the default upload limit). */
  fileMaxBytes?: number;
  /** Largest request with files, bytes (25 MiB). */
  requestMaxBytes?: number;
  /** How long `enforce_nonce` remembers a nonce, ms ("the past few minutes": 5 minutes here). */
  nonceWindowMs?: number;
  /** Messages per channel per window (Discord's buckets are not documented numbers; default 5 per 5 s). */
  messagesPerWindow?: number;
  windowMs?: number;
}

export type DiscordFault = {
  op: 'message' | 'thread' | 'list' | 'crosspost' | 'delete' | 'read' | 'edit' | 'token' | 'any';
  kind: 'rate_limit' | 'server_error' | 'slow' | 'drop' | 'drop_after_create';
  count: number;
  delayMs?: number;
  after?: number;
};

export interface SimOverwrite { id: string; type: 0 | 1; allow: bigint; deny: bigint }
export interface SimChannel {
  id: string; guild_id: string; name: string; type: number; parent_id?: string | null; position: number;
  overwrites: SimOverwrite[];
  /** Forum channels: their tags, and whether a post needs one. */
  available_tags?: Array<{ id: string; name: string }>;
  requireTag?: boolean;
  /** Threads (type 10, 11): who started it and its state. */
  owner_id?: string;
  applied_tags?: string[];
  archived?: boolean;
  archive_timestamp?: string;
  auto_archive_duration?: number;
  message_count?: number;
}
export interface SimRole { id: string; name: string; permissions: bigint; managed?: boolean }
export interface SimGuild { id: string; name: string; icon: string | null; owner_id: string; roles: SimRole[]; members: Map<string, string[]> }
export interface SimAttachment { id: string; filename: string; size: number; content_type: string; url: string; description?: string }
export interface SimMessage {
  id: string; channel_id: string; author: { id: string; username: string; bot?: boolean }; content: string; nonce?: string | number;
  flags: number; attachments: SimAttachment[]; timestamp: string; type: number; thread?: string; deleted?: boolean;
  /** When the message was last edited (PATCH), else absent. */
  edited_timestamp?: string;
  /** Reactions by emoji: their counts. */
  reactions?: Record<string, number>;
}

export interface DiscordSimulator extends SimulatorBase<DiscordFault> {
  botToken: string;
  user: { id: string; username: string; global_name: string };
  bot: { id: string; username: string };
  guild: SimGuild;
  /** Channels by name: general (text), announcements, forum, voice, readonly (no SEND_MESSAGES), nohistory (no READ_MESSAGE_HISTORY). */
  channels: Record<'general' | 'announcements' | 'forum' | 'voice' | 'readonly' | 'nohistory', SimChannel>;
  allChannels: SimChannel[];
  messages: SimMessage[];
  /** Whether the bot is in the guild (the authorization adds it; `removeBot` kicks it). */
  botInGuild(): boolean;
  removeBot(): void;
  /** A message as if someone posted it (author: the simulator's user unless `asBot`). */
  addMessage(channelId: string, content: string, opts?: { asBot?: boolean; at?: Date }): SimMessage;
  /** Live messages in a channel or thread, oldest first. */
  inChannel(channelId: string): SimMessage[];
}

export async function startDiscordSimulator(opts: DiscordSimOptions = {}): Promise<DiscordSimulator> {
  const clientId = opts.clientId ?? '1180000000000000001';
  const clientSecret = opts.clientSecret ?? 'sim-discord-secret';
  const botToken = opts.botToken ?? `MTE4.sim.${randomBytes(16).toString('base64url')}`;
  const fileMax = opts.fileMaxBytes ?? 10 * 1024 * 1024;
  const requestMax = opts.requestMaxBytes ?? 25 * 1024 * 1024;
  const nonceWindow = opts.nonceWindowMs ?? 5 * 60_000;
  const perWindow = opts.messagesPerWindow ?? 5;
  const windowMs = opts.windowMs ?? 5000;

  let seq = 0;
  let lastMs = 0n;
  /** A snowflake for now (or `at`): ms since the Discord epoch << 22, plus a sequence. */
  const snowflake = (at?: number) => {
    if (at !== undefined) return (((BigInt(at) - DISCORD_EPOCH) << 22n) | BigInt(Math.floor(Math.random() * 0x3ffff))).toString();
    let ms = BigInt(Date.now()) - DISCORD_EPOCH;
    if (ms < lastMs) ms = lastMs;
    if (ms === lastMs) seq++; else { seq = 0; lastMs = ms; }
    return ((ms << 22n) | (1n << 17n) | BigInt(seq & 0xfff)).toString();
  };

  const user = { id: snowflake(), username: 'herald_sim', global_name: 'Herald Sim' };
  const bot = { id: clientId, username: 'Herald' };
  const guildId = snowflake();
  const guild: SimGuild = {
    id: guildId, name: 'Herald Sim Server', icon: null, owner_id: user.id,
    roles: [{ id: guildId, name: '@everyone', permissions: P.VIEW_CHANNEL | P.SEND_MESSAGES | P.READ_MESSAGE_HISTORY }],
    members: new Map([[user.id, []]]),
  };
  const ch = (name: string, type: number, position: number, extra: Partial<SimChannel> = {}): SimChannel => ({ id: snowflake(), guild_id: guildId, name, type, position, parent_id: null, overwrites: [], ...extra });
  const channels: DiscordSimulator['channels'] = {
    general: ch('general', 0, 0),
    announcements: ch('announcements', 5, 1),
    forum: ch('help-forum', 15, 2, { available_tags: [{ id: snowflake(), name: 'News' }, { id: snowflake(), name: 'Release' }] }),
    voice: ch('Lounge', 2, 3),
    readonly: ch('rules', 0, 4),
    nohistory: ch('drop-box', 0, 5),
  };
  const allChannels: SimChannel[] = Object.values(channels);
  const messages: SimMessage[] = [];
  const calls = new Map<string, number>();
  const codes = new Map<string, { redirectUri: string; expires: number; scope: string; guildId?: string }>();
  const access = new Map<string, { expires: number; scope: string }>();
  const refresh = new RefreshTokens<{ scope: string }>(() => randomBytes(24).toString('base64url'));
  let botRoleId: string | null = null;
  const buckets = new Map<string, number[]>();

  const app = await simApp({ calls, bodyLimit: 64 * 1024 * 1024, multipartFileSize: 64 * 1024 * 1024 });
  const err = (reply: FastifyReply, status: number, code: number, message: string, errors?: unknown) =>
    reply.status(status).send({ message, code, ...(errors ? { errors } : {}) });
  const formError = (reply: FastifyReply, field: string, code: string, message: string) => {
    const errors: Record<string, unknown> = {};
    let node = errors;
    const parts = field.split('.');
    parts.forEach((k, i) => { node[k] = i === parts.length - 1 ? { _errors: [{ code, message }] } : {}; node = node[k] as Record<string, unknown>; });
    return err(reply, 400, 50035, 'Invalid Form Body', errors);
  };
  const rateLimited = (reply: FastifyReply, retryAfter: number, scope: 'user' | 'shared' = 'user') => reply.status(429).headers({
    'retry-after': String(Math.ceil(retryAfter)), 'x-ratelimit-limit': String(perWindow), 'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': ((Date.now() + retryAfter * 1000) / 1000).toFixed(3), 'x-ratelimit-reset-after': retryAfter.toFixed(3),
    'x-ratelimit-bucket': 'sim-messages', 'x-ratelimit-scope': scope, 'x-ratelimit-global': 'false',
  }).send({ message: scope === 'shared' ? 'The resource is being rate limited.' : 'You are being rate limited.', retry_after: retryAfter, global: false });
  const faults = new FaultQueue<DiscordFault>({
    rate_limit: (reply) => rateLimited(reply, 64.57),
    server_error: (reply) => err(reply, 502, 0, '502: Bad Gateway'),
  });
  const fault = (op: DiscordFault['op'], reply: FastifyReply, req: FastifyRequest) => faults.apply(op, reply, req);

  // Every answer names its bucket, as Discord's do.
  app.addHook('onSend', async (_req, reply, payload) => {
    if (reply.statusCode !== 429 && !reply.hasHeader('x-ratelimit-bucket')) {
      reply.headers({ 'x-ratelimit-limit': String(perWindow), 'x-ratelimit-remaining': String(perWindow - 1), 'x-ratelimit-reset': ((Date.now() + windowMs) / 1000).toFixed(3), 'x-ratelimit-reset-after': (windowMs / 1000).toFixed(3), 'x-ratelimit-bucket': 'sim-default' });
    }
    return payload;
  });

  // Permissions ---------------------------------------------------------------------------
  const botIn = () => guild.members.has(bot.id);
  const parentOf = (c: SimChannel) => (c.type === 10 || c.type === 11 ? allChannels.find((x) => x.id === c.parent_id) ?? c : c);
  /** The bot's permissions in a channel (threads use their parent's), per the documented algorithm. */
  function botPermissions(c: SimChannel): bigint {
    if (!botIn()) return 0n;
    const roles = guild.members.get(bot.id) ?? [];
    let perms = guild.roles.find((r) => r.id === guild.id)!.permissions;
    for (const r of guild.roles) if (roles.includes(r.id)) perms |= r.permissions;
    if (perms & P.ADMINISTRATOR) return ~0n;
    const ow = parentOf(c).overwrites;
    const every = ow.find((o) => o.id === guild.id);
    if (every) perms = (perms & ~every.deny) | every.allow;
    let allow = 0n; let deny = 0n;
    for (const o of ow) if (o.type === 0 && roles.includes(o.id)) { allow |= o.allow; deny |= o.deny; }
    perms = (perms & ~deny) | allow;
    const member = ow.find((o) => o.type === 1 && o.id === bot.id);
    if (member) perms = (perms & ~member.deny) | member.allow;
    return perms;
  }
  // The two restricted channels: a member overwrite for the bot, as a server admin would set.
  const deny = (c: SimChannel, bits: bigint) => { c.overwrites.push({ id: bot.id, type: 1, allow: 0n, deny: bits }); };
  deny(channels.readonly, P.SEND_MESSAGES);
  deny(channels.nohistory, P.READ_MESSAGE_HISTORY);

  function authedBot(req: FastifyRequest, reply: FastifyReply): boolean {
    if (req.headers.authorization !== `Bot ${botToken}`) { err(reply, 401, 0, '401: Unauthorized'); return false; }
    return true;
  }
  /** The channel for a bot call, or an error answered: unknown 10003, bot not in the guild or cannot view 50001. */
  function channelFor(req: FastifyRequest, reply: FastifyReply, id: string): SimChannel | null {
    const c = allChannels.find((x) => x.id === id);
    if (!c) { err(reply, 404, 10003, 'Unknown Channel'); return null; }
    if (!botIn() || !(botPermissions(c) & P.VIEW_CHANNEL)) { err(reply, 403, 50001, 'Missing Access'); return null; }
    return c;
  }
  /**
   * The start of every route on a channel: a queued fault for `op` (answered: null), the bot's token,
   * then the channel the bot can see (answered with Discord's error: null).
   */
  async function openChannel(op: DiscordFault['op'], req: FastifyRequest, reply: FastifyReply): Promise<SimChannel | null> {
    if ((await fault(op, reply, req)) === 'handled') return null;
    if (!authedBot(req, reply)) return null;
    return channelFor(req, reply, (req.params as { cid: string }).cid);
  }
  const lacks = (reply: FastifyReply) => err(reply, 403, 50013, 'Missing Permissions');
  const isThread = (c: SimChannel) => c.type === 10 || c.type === 11;

  const channelView = (c: SimChannel) => ({
    id: c.id, type: c.type, guild_id: c.guild_id, name: c.name, position: c.position, parent_id: c.parent_id ?? null, nsfw: false,
    permission_overwrites: c.overwrites.map((o) => ({ id: o.id, type: o.type, allow: o.allow.toString(), deny: o.deny.toString() })),
    ...(c.available_tags ? { available_tags: c.available_tags.map((t) => ({ ...t, moderated: false, emoji_id: null, emoji_name: null })), flags: c.requireTag ? 1 << 4 : 0 } : {}),
    ...(isThread(c) ? {
      owner_id: c.owner_id, applied_tags: c.applied_tags ?? [], message_count: inChannel(c.id).length, member_count: 1,
      thread_metadata: { archived: c.archived ?? false, archive_timestamp: c.archive_timestamp, auto_archive_duration: c.auto_archive_duration ?? 4320, locked: false },
    } : {}),
  });
  const messageView = (m: SimMessage, withNonce = false) => ({
    id: m.id, type: m.type, channel_id: m.channel_id, author: { id: m.author.id, username: m.author.username, ...(m.author.bot ? { bot: true } : {}) },
    content: m.content, timestamp: m.timestamp, edited_timestamp: m.edited_timestamp ?? null, tts: false, mention_everyone: false, mentions: [], mention_roles: [],
    attachments: m.attachments, embeds: [], pinned: false, flags: m.flags,
    ...(withNonce && m.nonce !== undefined ? { nonce: m.nonce } : {}),
    ...(m.reactions ? { reactions: Object.entries(m.reactions).map(([name, count]) => ({ count, count_details: { burst: 0, normal: count }, me: false, me_burst: false, emoji: { id: null, name }, burst_colors: [] })) } : {}),
    ...(m.thread ? { thread: channelView(allChannels.find((c) => c.id === m.thread)!) } : {}),
  });
  const inChannel = (id: string) => messages.filter((m) => m.channel_id === id && !m.deleted);
  /** The message `:mid` of the route in channel `c`, if it exists (not deleted). */
  const messageOf = (c: { id: string }, req: FastifyRequest) => inChannel(c.id).find((x) => x.id === (req.params as { mid: string }).mid);

  // OAuth2 ----------------------------------------------------------------------------------
  authorizeRoute(app, '/oauth2/authorize', codes, {
    required: ['client_id', 'scope', 'response_type', 'redirect_uri'],
    refuse: (q, missing, reply) => {
      if (missing.length) return err(reply, 400, 50035, `Invalid Form Body: ${missing.join(', ')} required`);
      if (q.client_id !== clientId) return err(reply, 400, 10002, 'Unknown Application');
      if (q.response_type !== 'code') return err(reply, 400, 50035, 'Invalid Form Body: response_type');
      const scopes = q.scope.split(' ');
      if (scopes.includes('bot') && (!q.permissions || !/^\d+$/.test(q.permissions))) return err(reply, 400, 50035, 'Invalid Form Body: permissions');
      if (q.guild_id && q.guild_id !== guild.id) return err(reply, 400, 10004, 'Unknown Guild');
      return undefined;
    },
    code: () => randomBytes(15).toString('base64url'),
    grant: (q) => {
      if (q.scope.split(' ').includes('bot')) {
        // The bot joins with a managed role holding the permissions asked for.
        const perms = BigInt(q.permissions);
        if (!botRoleId) { botRoleId = snowflake(); guild.roles.push({ id: botRoleId, name: 'Herald', permissions: perms, managed: true }); }
        else guild.roles.find((r) => r.id === botRoleId)!.permissions = perms;
        guild.members.set(bot.id, [botRoleId]);
      }
      return { redirectUri: q.redirect_uri, expires: Date.now() + 60_000, scope: q.scope, guildId: q.scope.split(' ').includes('bot') ? guild.id : undefined };
    },
    back: (q, code) => [['code', code], ['state', q.state], ['guild_id', q.scope.split(' ').includes('bot') ? guild.id : undefined], ['permissions', q.permissions]],
  });

  app.post(`${API}/oauth2/token`, async (req, reply) => {
    const f = await fault('token', reply, req);
    if (f === 'handled') return reply;
    const b = (req.body ?? {}) as Record<string, string>;
    const [id, secret] = basicCredentials(req, [b.client_id, b.client_secret]);
    if (id !== clientId || secret !== clientSecret) return reply.status(401).send({ error: 'invalid_client' });
    let scope: string;
    let guildGrant: string | undefined;
    let rt: string;
    if (b.grant_type === 'authorization_code') {
      const c = takeCode(codes, b.code);
      if (!c || c.redirectUri !== b.redirect_uri) return reply.status(400).send({ error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
      scope = c.scope;
      guildGrant = c.guildId;
      rt = refresh.issue({ scope });
    } else if (b.grant_type === 'refresh_token') {
      const r = refresh.use(b.refresh_token, true);
      if (!r) return reply.status(400).send({ error: 'invalid_grant' });
      scope = r.scope;
      rt = refresh.issue({ scope });
    } else {
      return reply.status(400).send({ error: 'unsupported_grant_type' });
    }
    const token = randomBytes(20).toString('base64url');
    access.set(token, { expires: Date.now() + 604_800_000, scope });
    return {
      access_token: token, token_type: 'Bearer', expires_in: 604_800, refresh_token: rt, scope,
      ...(guildGrant ? { guild: { id: guild.id, name: guild.name, icon: guild.icon, owner_id: guild.owner_id, roles: [], features: [] } } : {}),
    };
  });

  app.get(`${API}/users/@me`, async (req, reply) => {
    if (req.headers.authorization === `Bot ${botToken}`) return { id: bot.id, username: bot.username, discriminator: '0', global_name: null, avatar: null, bot: true };
    const t = bearerToken(req);
    const a = t ? access.get(t) : undefined;
    if (!a || a.expires < Date.now()) return err(reply, 401, 0, '401: Unauthorized');
    if (!a.scope.split(' ').includes('identify')) return err(reply, 401, 0, '401: Unauthorized');
    return { id: user.id, username: user.username, discriminator: '0', global_name: user.global_name, avatar: null };
  });

  // Guilds and channels -------------------------------------------------------------------------
  const guildFor = (req: FastifyRequest, reply: FastifyReply): boolean => {
    if (!authedBot(req, reply)) return false;
    if ((req.params as { gid: string }).gid !== guild.id) { err(reply, 404, 10004, 'Unknown Guild'); return false; }
    if (!botIn()) { err(reply, 403, 50001, 'Missing Access'); return false; }
    return true;
  };
  app.get(`${API}/guilds/:gid`, async (req, reply) => {
    if (!guildFor(req, reply)) return reply;
    return { id: guild.id, name: guild.name, icon: guild.icon, owner_id: guild.owner_id, roles: guild.roles.map((r) => ({ id: r.id, name: r.name, permissions: r.permissions.toString(), managed: r.managed ?? false, position: 0 })) };
  });
  app.get(`${API}/guilds/:gid/members/:uid`, async (req, reply) => {
    if (!guildFor(req, reply)) return reply;
    const roles = guild.members.get((req.params as { uid: string }).uid);
    if (!roles) return err(reply, 404, 10007, 'Unknown Member');
    return { user: { id: (req.params as { uid: string }).uid }, roles, joined_at: new Date().toISOString() };
  });
  // "Does not include threads" (Get Guild Channels).
  app.get(`${API}/guilds/:gid/channels`, async (req, reply) => {
    const f = await fault('read', reply, req);
    if (f === 'handled') return reply;
    if (!guildFor(req, reply)) return reply;
    return allChannels.filter((c) => !isThread(c)).map(channelView);
  });
  app.get(`${API}/guilds/:gid/threads/active`, async (req, reply) => {
    const f = await fault('list', reply, req);
    if (f === 'handled') return reply;
    if (!guildFor(req, reply)) return reply;
    return { threads: allChannels.filter((c) => isThread(c) && !c.archived && botPermissions(c) & P.VIEW_CHANNEL).map(channelView), members: [] };
  });
  app.get(`${API}/channels/:cid/threads/archived/public`, async (req, reply) => {
    const c = await openChannel('list', req, reply);
    if (!c) return reply;
    if (!(botPermissions(c) & P.READ_MESSAGE_HISTORY)) return lacks(reply);
    const q = req.query as Record<string, string>;
    const limit = Math.min(100, Math.max(2, Number(q.limit ?? 50) || 50));
    const before = q.before ? Date.parse(q.before) : Infinity;
    const archived = allChannels.filter((t) => isThread(t) && t.parent_id === c.id && t.archived && Date.parse(t.archive_timestamp!) < before)
      .sort((a, b) => Date.parse(b.archive_timestamp!) - Date.parse(a.archive_timestamp!));
    return { threads: archived.slice(0, limit).map(channelView), members: [], has_more: archived.length > limit };
  });
  app.get(`${API}/channels/:cid`, async (req, reply) => {
    if (!authedBot(req, reply)) return reply;
    const c = channelFor(req, reply, (req.params as { cid: string }).cid);
    return c ? channelView(c) : reply;
  });

  // Messages ------------------------------------------------------------------------------------
  interface Upload { field: string; filename: string; contentType: string; bytes: Buffer }
  /** The JSON body and files of a create call (JSON, or multipart with payload_json and files[n]). */
  async function readBody(req: FastifyRequest): Promise<{ body: Record<string, unknown>; files: Upload[]; total: number }> {
    if (!req.isMultipart()) return { body: (req.body ?? {}) as Record<string, unknown>, files: [], total: 0 };
    let body: Record<string, unknown> = {};
    const files: Upload[] = [];
    let total = 0;
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        total += bytes.length;
        files.push({ field: part.fieldname, filename: part.filename, contentType: part.mimetype, bytes });
      } else if (part.fieldname === 'payload_json') {
        body = JSON.parse(String(part.value)) as Record<string, unknown>;
      }
    }
    return { body, files, total };
  }

  /** Checks a message's fields and files; the error answered, or the message's parts. */
  function checkMessage(reply: FastifyReply, b: Record<string, unknown>, files: Upload[], total: number, prefix = ''): { content: string; flags: number; attachments: SimAttachment[] } | null {
    const content = typeof b.content === 'string' ? b.content : '';
    if (b.content !== undefined && typeof b.content !== 'string') { formError(reply, `${prefix}content`, 'STRING_TYPE_CONVERT', 'Could not interpret the value as string.'); return null; }
    if (content.length > 2000) { formError(reply, `${prefix}content`, 'BASE_TYPE_MAX_LENGTH', 'Must be 2000 or fewer in length.'); return null; }
    const flags = b.flags === undefined ? 0 : Number(b.flags);
    if (!Number.isInteger(flags) || (flags & ~CREATE_FLAGS) !== 0) { formError(reply, `${prefix}flags`, 'MESSAGE_FLAGS_INVALID', 'Invalid flags.'); return null; }
    if (files.length > 10) { err(reply, 400, 30015, 'Maximum number of attachments in a message reached (10)'); return null; }
    if (total > requestMax) { err(reply, 413, 40005, 'Request entity too large'); return null; }
    const big = files.find((f) => f.bytes.length > fileMax);
    if (big) { err(reply, 400, 50045, 'File uploaded exceeds the maximum size'); return null; }
    const meta = Array.isArray(b.attachments) ? (b.attachments as Array<{ id: number | string; filename?: string; description?: string }>) : [];
    const attachments: SimAttachment[] = [];
    for (const f of files) {
      const n = /^files\[(\d+)\]$/.exec(f.field)?.[1];
      if (n === undefined) { formError(reply, 'files', 'BASE_TYPE_BAD', 'Files must be named files[n].'); return null; }
      const m = meta.find((x) => String(x.id) === n);
      const id = snowflake();
      const filename = m?.filename ?? f.filename;
      attachments.push({ id, filename, size: f.bytes.length, content_type: f.contentType, url: `https://cdn.discordapp.com/attachments/sim/${id}/${encodeURIComponent(filename)}`, ...(m?.description ? { description: m.description } : {}) });
    }
    if (!content.trim() && attachments.length === 0) { err(reply, 400, 50006, 'Cannot send an empty message'); return null; }
    return { content, flags, attachments };
  }

  /** The channel's message bucket: false (429 answered) when it is spent. */
  function bucketAllows(channelId: string, reply: FastifyReply): boolean {
    const now = Date.now();
    const hits = (buckets.get(channelId) ?? []).filter((t) => now - t < windowMs);
    if (hits.length >= perWindow) { rateLimited(reply, Math.max(0.001, (windowMs - (now - hits[0])) / 1000)); return false; }
    hits.push(now);
    buckets.set(channelId, hits);
    return true;
  }

  const create = (channelId: string, author: SimMessage['author'], content: string, flags: number, attachments: SimAttachment[], nonce?: string | number, at?: Date): SimMessage => {
    const m: SimMessage = { id: snowflake(at?.getTime()), channel_id: channelId, author, content, flags, attachments, timestamp: (at ?? new Date()).toISOString(), type: 0, ...(nonce !== undefined ? { nonce } : {}) };
    messages.push(m);
    return m;
  };

  app.post(`${API}/channels/:cid/messages`, async (req, reply) => {
    const f = await fault('message', reply, req);
    if (f === 'handled') return reply;
    if (!authedBot(req, reply)) return reply;
    const c = channelFor(req, reply, (req.params as { cid: string }).cid);
    if (!c) return reply;
    const { body: b, files, total } = await readBody(req);
    if (c.type === 15 || c.type === 16) return err(reply, 400, 40058, 'Cannot send a message in a forum channel');
    if (c.type !== 0 && c.type !== 5 && !isThread(c)) return err(reply, 400, 50008, 'Cannot send messages in a non-text channel');
    const perms = botPermissions(c);
    if (!(perms & (isThread(c) ? P.SEND_MESSAGES_IN_THREADS : P.SEND_MESSAGES))) return lacks(reply);
    if (files.length && !(perms & P.ATTACH_FILES)) return lacks(reply);
    if (b.nonce !== undefined && (typeof b.nonce === 'string' ? b.nonce.length > 25 : !Number.isInteger(b.nonce))) return formError(reply, 'nonce', 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
    const parts = checkMessage(reply, b, files, total);
    if (!parts) return reply;
    if (b.enforce_nonce === true && b.nonce !== undefined) {
      const same = messages.find((m) => m.channel_id === c.id && m.author.id === bot.id && m.nonce === b.nonce && Date.now() - Date.parse(m.timestamp) < nonceWindow);
      if (same) return messageView(same, true);
    }
    if (!bucketAllows(c.id, reply)) return reply;
    const m = create(c.id, { id: bot.id, username: bot.username, bot: true }, parts.content, parts.flags, parts.attachments, b.nonce as string | undefined);
    if (droppedAfterCreate(f, req)) return reply;
    return messageView(m, true);
  });

  app.get(`${API}/channels/:cid/messages`, async (req, reply) => {
    const c = await openChannel('list', req, reply);
    if (!c) return reply;
    const q = req.query as Record<string, string>;
    const limit = q.limit === undefined ? 50 : Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return formError(reply, 'limit', 'NUMBER_TYPE_MAX', 'int value should be less than or equal to 100.');
    // "If the current user is missing the READ_MESSAGE_HISTORY permission in the channel, then no messages will be returned."
    if (!(botPermissions(c) & P.READ_MESSAGE_HISTORY)) return [];
    const all = inChannel(c.id).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    let out: SimMessage[];
    if (q.after) out = all.filter((m) => BigInt(m.id) > BigInt(q.after)).slice(0, limit).reverse();
    else if (q.before) out = all.filter((m) => BigInt(m.id) < BigInt(q.before)).slice(-limit).reverse();
    else if (q.around) {
      const i = all.findIndex((m) => BigInt(m.id) >= BigInt(q.around));
      out = all.slice(Math.max(0, i - Math.floor(limit / 2)), Math.max(0, i - Math.floor(limit / 2)) + limit).reverse();
    } else out = all.slice(-limit).reverse();
    return out.map((m) => messageView(m));
  });

  app.get(`${API}/channels/:cid/messages/:mid`, async (req, reply) => {
    const c = await openChannel('read', req, reply);
    if (!c) return reply;
    if (!(botPermissions(c) & P.READ_MESSAGE_HISTORY)) return err(reply, 403, 50001, 'Missing Access');
    const m = messageOf(c, req);
    return m ? messageView(m) : err(reply, 404, 10008, 'Unknown Message');
  });

  // Edit (https://discord.com/developers/docs/resources/message#edit-message): the author's own message
  // only (content, no time limit; another user's message takes MANAGE_MESSAGES and only its flags);
  // content at most 2,000 characters; attachments left out of the body are kept.
  app.patch(`${API}/channels/:cid/messages/:mid`, async (req, reply) => {
    const c = await openChannel('edit', req, reply);
    if (!c) return reply;
    const m = messageOf(c, req);
    if (!m) return err(reply, 404, 10008, 'Unknown Message');
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (m.author.id !== bot.id) return err(reply, 403, 50005, 'Cannot edit a message authored by another user');
    if (b.content !== undefined && b.content !== null && typeof b.content !== 'string') return formError(reply, 'content', 'STRING_TYPE_CONVERT', 'Could not interpret the value as string.');
    const content = typeof b.content === 'string' ? b.content : m.content;
    if (content.length > 2000) return formError(reply, 'content', 'BASE_TYPE_MAX_LENGTH', 'Must be 2000 or fewer in length.');
    if (!content.trim() && m.attachments.length === 0) return err(reply, 400, 50006, 'Cannot send an empty message');
    m.content = content;
    m.edited_timestamp = new Date().toISOString();
    return messageView(m);
  });

  app.delete(`${API}/channels/:cid/messages/:mid`, async (req, reply) => {
    const c = await openChannel('delete', req, reply);
    if (!c) return reply;
    const m = messageOf(c, req);
    if (!m) return err(reply, 404, 10008, 'Unknown Message');
    if (m.author.id !== bot.id && !(botPermissions(c) & P.MANAGE_MESSAGES)) return lacks(reply);
    m.deleted = true;
    return reply.status(204).send();
  });

  app.post(`${API}/channels/:cid/messages/:mid/crosspost`, async (req, reply) => {
    const c = await openChannel('crosspost', req, reply);
    if (!c) return reply;
    const m = messageOf(c, req);
    if (!m) return err(reply, 404, 10008, 'Unknown Message');
    if (c.type !== 5) return err(reply, 400, 50024, 'Cannot execute action on this channel type');
    if (!(botPermissions(c) & (m.author.id === bot.id ? P.SEND_MESSAGES : P.MANAGE_MESSAGES))) return lacks(reply);
    if (m.flags & CROSSPOSTED) return err(reply, 400, 40033, 'This message has already been crossposted');
    m.flags |= CROSSPOSTED;
    return messageView(m);
  });

  const threadName = (reply: FastifyReply, name: unknown, field = 'name'): string | null => {
    if (typeof name !== 'string' || name.length < 1 || name.length > 100) { formError(reply, field, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.'); return null; }
    return name;
  };
  const DURATIONS = [60, 1440, 4320, 10080];

  app.post(`${API}/channels/:cid/messages/:mid/threads`, async (req, reply) => {
    const c = await openChannel('thread', req, reply);
    if (!c) return reply;
    if (c.type !== 0 && c.type !== 5) return err(reply, 400, 50024, 'Cannot execute action on this channel type');
    if (!(botPermissions(c) & P.CREATE_PUBLIC_THREADS)) return lacks(reply);
    const m = messageOf(c, req);
    if (!m) return err(reply, 404, 10008, 'Unknown Message');
    const b = (req.body ?? {}) as Record<string, unknown>;
    const name = threadName(reply, b.name);
    if (name === null) return reply;
    if (b.auto_archive_duration !== undefined && !DURATIONS.includes(Number(b.auto_archive_duration))) return formError(reply, 'auto_archive_duration', 'BASE_TYPE_CHOICES', 'Value must be one of {60, 1440, 4320, 10080}.');
    if (m.thread) return err(reply, 400, 160004, 'A thread has already been created for this message');
    // The thread's id is the message's.
    const t: SimChannel = { id: m.id, guild_id: guild.id, name, type: c.type === 5 ? 10 : 11, parent_id: c.id, position: 0, overwrites: [], owner_id: bot.id, auto_archive_duration: Number(b.auto_archive_duration ?? 4320) };
    allChannels.push(t);
    m.thread = t.id;
    return reply.status(201).send(channelView(t));
  });

  // Start Thread in Forum or Media Channel: the thread with its starter message, whose id is the thread's.
  app.post(`${API}/channels/:cid/threads`, async (req, reply) => {
    const f = await fault('thread', reply, req);
    if (f === 'handled') return reply;
    if (!authedBot(req, reply)) return reply;
    const c = channelFor(req, reply, (req.params as { cid: string }).cid);
    if (!c) return reply;
    const { body: b, files, total } = await readBody(req);
    if (c.type !== 15 && c.type !== 16) return err(reply, 400, 50024, 'Cannot execute action on this channel type');
    const perms = botPermissions(c);
    if (!(perms & P.SEND_MESSAGES)) return lacks(reply);
    if (files.length && !(perms & P.ATTACH_FILES)) return lacks(reply);
    const name = threadName(reply, b.name);
    if (name === null) return reply;
    const msg = (b.message ?? {}) as Record<string, unknown>;
    const parts = checkMessage(reply, { ...msg, attachments: msg.attachments ?? b.attachments }, files, total, 'message.');
    if (!parts) return reply;
    const tags = b.applied_tags === undefined ? [] : b.applied_tags;
    if (!Array.isArray(tags) || tags.length > 5) return formError(reply, 'applied_tags', 'BASE_TYPE_MAX_LENGTH', 'Must be 5 or fewer in length.');
    if (tags.some((t) => !c.available_tags?.some((x) => x.id === t))) return formError(reply, 'applied_tags', 'FORUM_TAG_UNKNOWN', 'Unknown tag.');
    if (c.requireTag && tags.length === 0) return err(reply, 400, 40067, 'A tag is required to create a forum post in this channel');
    if (!bucketAllows(c.id, reply)) return reply;
    const id = snowflake();
    const t: SimChannel = { id, guild_id: guild.id, name, type: 11, parent_id: c.id, position: 0, overwrites: [], owner_id: bot.id, applied_tags: tags as string[], auto_archive_duration: Number(b.auto_archive_duration ?? 4320) };
    allChannels.push(t);
    const m: SimMessage = { id, channel_id: id, author: { id: bot.id, username: bot.username, bot: true }, content: parts.content, flags: parts.flags, attachments: parts.attachments, timestamp: new Date().toISOString(), type: 0 };
    messages.push(m);
    if (droppedAfterCreate(f, req)) return reply;
    return reply.status(201).send({ ...channelView(t), message: messageView(m) });
  });

  // Test control ----------------------------------------------------------------------
  faults.route(app);

  const simUrl = await listen(app);
  return {
    url: simUrl, app, clientId, clientSecret, botToken, user, bot, guild, channels, allChannels, messages, calls,
    botInGuild: botIn,
    removeBot: () => { guild.members.delete(bot.id); },
    addMessage(channelId, content, o = {}) {
      return create(channelId, o.asBot ? { id: bot.id, username: bot.username, bot: true } : { id: user.id, username: user.username }, content, 0, [], undefined, o.at);
    },
    inChannel: (id) => inChannel(id).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1)),
    ...simControls(app, faults, access, () => { access.clear(); refresh.clear(); guild.members.delete(bot.id); }),
  };
}

export { timeOfSnowflake };
/** The creation time (ms) a snowflake carries. */
function timeOfSnowflake(id: string): number {
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH);
}

await runAsMain(import.meta.url, 'discord', startDiscordSimulator, (s) => ({ clientId: s.clientId, clientSecret: s.clientSecret, botToken: s.botToken }));
