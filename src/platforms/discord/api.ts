/**
 * Discord HTTP API v10 calls as Herald's bot (https://discord.com/developers/docs/reference):
 * `Authorization: Bot <token>` (the application's bot token, HERALD_DISCORD_BOT_TOKEN), the
 * versioned base `/api/v10`, Discord's error bodies (`{code, message[, errors]}`) turned into
 * {@link AdapterError}s, snowflakes, and the bot's permissions in a channel.
 *
 * Errors (https://discord.com/developers/docs/topics/opcodes-and-status-codes):
 * - 403 code 50001 "Missing Access" (the bot was removed from the server, or cannot see the
 *   channel), 404 code 10003 "Unknown Channel" (deleted), 403 code 50013 "Missing Permissions":
 *   `disconnected` (the account needs reconnecting: the bot added again with its permissions).
 * - 429: `rate_limited`, after the body's `retry_after` (seconds), else `Retry-After` or
 *   `X-RateLimit-Reset-After` (https://discord.com/developers/docs/topics/rate-limits). A short
 *   wait (at most {@link DISCORD_SHORT_WAIT_MS}) is waited here and the call sent again: a 429
 *   was not processed, so sending it again cannot duplicate anything.
 * - 401: the bot token is refused: `rejected`, naming the setting (a server configuration error,
 *   not the account's).
 * - other 4xx `rejected` with Discord's message, code and field errors; 5xx and network `transient`.
 */
import { guardVisibleCall } from '../call-guard.ts';
import { retryAfterFrom } from '../http.ts';
import { AdapterError, responseExcerpt, type PlatformApp } from '../types.ts';

/** API path prefix: always versioned ("the unversioned default is deprecated"; v10 is current). */
export const DISCORD_API_PREFIX = '/api/v10';
/** Snowflakes count ms from the Discord epoch, the first second of 2015 (https://discord.com/developers/docs/reference#snowflakes). */
export const DISCORD_EPOCH_MS = 1420070400000n;
/** A 429 asking to wait at most this long is waited out inside the call (ms). */
export const DISCORD_SHORT_WAIT_MS = 5_000;

/** Permission bits Herald uses (https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags). */
export const PERMISSIONS = {
  ADMINISTRATOR: 1n << 3n,
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  EMBED_LINKS: 1n << 14n,
  ATTACH_FILES: 1n << 15n,
  READ_MESSAGE_HISTORY: 1n << 16n,
  CREATE_PUBLIC_THREADS: 1n << 35n,
  SEND_MESSAGES_IN_THREADS: 1n << 38n,
} as const;
export type PermissionName = keyof typeof PERMISSIONS;

/**
 * What Herald's bot asks for when it is added to a server: view the channel, send messages (and in
 * threads), start public threads, attach files, embed links, read the history (verify needs it).
 * Not MANAGE_MESSAGES: the bot deletes and crossposts only its own messages, which needs none.
 * The integer: 1024 + 2048 + 16384 + 32768 + 65536 + 2^35 + 2^38 = 309237763072.
 */
export const DISCORD_BOT_PERMISSIONS: bigint = PERMISSIONS.VIEW_CHANNEL | PERMISSIONS.SEND_MESSAGES | PERMISSIONS.SEND_MESSAGES_IN_THREADS
  | PERMISSIONS.CREATE_PUBLIC_THREADS | PERMISSIONS.ATTACH_FILES | PERMISSIONS.EMBED_LINKS | PERMISSIONS.READ_MESSAGE_HISTORY;

/** What a channel must allow the bot for Herald to publish there and verify exactly. */
export const REQUIRED_PERMISSIONS: readonly PermissionName[] = ['VIEW_CHANNEL', 'SEND_MESSAGES', 'READ_MESSAGE_HISTORY'];

/** The snowflake of an instant: `(ms - epoch) << 22` (https://discord.com/developers/docs/reference#snowflake-ids-in-pagination). */
export function snowflakeAt(at: Date): string {
  const ms = BigInt(at.getTime()) - DISCORD_EPOCH_MS;
  return (ms > 0n ? ms << 22n : 0n).toString();
}

/** The creation instant a snowflake carries. */
export function snowflakeTime(id: string): Date {
  return new Date(Number((BigInt(id) >> 22n) + DISCORD_EPOCH_MS));
}

interface DiscordErrorBody { code?: number; message?: string; errors?: unknown; retry_after?: number }

/** Field errors of a 50035 body as `path: message` lines. */
function fieldErrors(errors: unknown, path: string[] = []): string[] {
  if (!errors || typeof errors !== 'object') return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(errors as Record<string, unknown>)) {
    if (k === '_errors' && Array.isArray(v)) out.push(`${path.join('.')}: ${v.map((e: { message?: string }) => e.message).join(' ')}`);
    else out.push(...fieldErrors(v, [...path, k]));
  }
  return out;
}

/** Discord's error body as one message: `Discord: Invalid Form Body (code 50035): content: Must be 2000 or fewer in length.` */
export function discordMessage(body: unknown, status: number): string {
  const b = body as DiscordErrorBody | null;
  if (!b || typeof b.message !== 'string') return `Discord answered HTTP ${status}`;
  const fields = fieldErrors(b.errors);
  return `Discord: ${b.message}${typeof b.code === 'number' ? ` (code ${b.code})` : ''}${fields.length ? `: ${fields.join('; ')}` : ''}`;
}

/** The error code of a Discord answer an {@link AdapterError} carries (`platformCode`), as a number. */
export const codeOf = (err: AdapterError): number | undefined => (err.opts.platformCode ? Number(err.opts.platformCode) : undefined);

export interface DiscordRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  form?: FormData;
  timeoutMs?: number;
}

/**
 * Calls `path` (after /api/v10) as the app's bot and parses the JSON answer (undefined for 204).
 * @throws AdapterError as in this file's header.
 */
export async function discordBot<T>(app: PlatformApp, path: string, req: DiscordRequest = {}): Promise<T> {
  if (!app.botToken) throw new AdapterError('rejected', 'Discord is not configured on this server: set HERALD_DISCORD_BOT_TOKEN (the Discord application\'s bot token)');
  return discordCall<T>(app, path, { ...req, authorization: `Bot ${app.botToken}` });
}

/** Calls `path` (after /api/v10) with the given Authorization header (a user's `Bearer` token, or the bot's). */
export async function discordCall<T>(app: PlatformApp, path: string, req: DiscordRequest & { authorization?: string }, attempt = 1): Promise<T> {
  const url = new URL(app.apiBaseUrl.replace(/\/+$/, '') + DISCORD_API_PREFIX + path);
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'DiscordBot (https://github.com/herald, 1.0)' };
  if (req.authorization) headers.authorization = req.authorization;
  let body: RequestInit['body'];
  if (req.json !== undefined) { headers['content-type'] = 'application/json'; body = JSON.stringify(req.json); }
  else if (req.form) body = req.form;
  const method = req.method ?? (body ? 'POST' : 'GET');
  const timeoutMs = req.timeoutMs ?? 30_000;
  const endpoint = `${method} ${url.pathname}`;
  const fence = await guardVisibleCall(method, timeoutMs);
  let res: Response;
  try {
    res = await fetch(url, { ...fence, method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new AdapterError('transient', `Discord: ${(err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message}`, { endpoint });
  }
  const text = await res.text();
  let parsed: unknown;
  if (text) {
    try { parsed = JSON.parse(text); } catch { parsed = { message: text.slice(0, 300) }; }
  }
  if (res.ok) return parsed as T;
  const b = (parsed ?? {}) as DiscordErrorBody;
  const message = discordMessage(parsed, res.status);
  const log = { status: res.status, endpoint, excerpt: responseExcerpt(text), ...(typeof b.code === 'number' ? { platformCode: String(b.code) } : {}) };
  if (res.status === 429) {
    const retryAfterMs = typeof b.retry_after === 'number' ? Math.ceil(b.retry_after * 1000)
      : retryAfterFrom(res.headers) ?? (Number(res.headers.get('x-ratelimit-reset-after')) * 1000 || undefined);
    if (retryAfterMs !== undefined && retryAfterMs <= DISCORD_SHORT_WAIT_MS && attempt < 3) {
      await new Promise((r) => setTimeout(r, retryAfterMs));
      return discordCall<T>(app, path, req, attempt + 1);
    }
    throw new AdapterError('rate_limited', message, { ...log, retryAfterMs });
  }
  if (res.status === 401) {
    throw new AdapterError('rejected', `${message}: Discord refused the ${req.authorization?.startsWith('Bot ') ? 'bot token (check HERALD_DISCORD_BOT_TOKEN)' : 'authorization'}`, log);
  }
  if ((res.status === 403 && (b.code === 50001 || b.code === 50013)) || (res.status === 404 && b.code === 10003)) {
    const why = b.code === 50013 ? 'Herald\'s bot lacks a permission it needs in this channel' : b.code === 10003 ? 'the channel no longer exists' : 'Herald\'s bot was removed from the server or can no longer see the channel';
    throw new AdapterError('disconnected', `${message}: ${why}; reconnect the Discord account`, log);
  }
  if (res.status >= 500) throw new AdapterError('transient', message, log);
  throw new AdapterError('rejected', message, log);
}

/** A channel as Discord answers it (the fields Herald reads). */
export interface DiscordChannel {
  id: string;
  type: number;
  guild_id?: string;
  name?: string;
  position?: number;
  parent_id?: string | null;
  owner_id?: string;
  permission_overwrites?: Array<{ id: string; type: number; allow: string; deny: string }>;
  available_tags?: Array<{ id: string; name: string }>;
  thread_metadata?: { archived: boolean; archive_timestamp: string };
}

/** The bot's user id (`GET /users/@me` as the bot), kept per app for the process. */
const botIds = new Map<string, string>();
export async function botUserId(app: PlatformApp): Promise<string> {
  const key = `${app.apiBaseUrl} ${app.botToken}`;
  const hit = botIds.get(key);
  if (hit) return hit;
  const me = await discordBot<{ id: string }>(app, '/users/@me');
  botIds.set(key, me.id);
  return me.id;
}

/** What the permission computation needs of a guild: @everyone's and the bot's roles' permissions. */
export interface BotGuildView { guildId: string; base: bigint; botId: string; roleIds: string[] }

/** Reads the guild's roles and the bot's membership (`GET /guilds/{id}`, `GET /guilds/{id}/members/{bot}`). */
export async function botGuildView(app: PlatformApp, guildId: string): Promise<BotGuildView> {
  const botId = await botUserId(app);
  const [guild, member] = await Promise.all([
    discordBot<{ roles: Array<{ id: string; permissions: string }> }>(app, `/guilds/${guildId}`),
    discordBot<{ roles: string[] }>(app, `/guilds/${guildId}/members/${botId}`),
  ]);
  let base = 0n;
  for (const r of guild.roles) if (r.id === guildId || member.roles.includes(r.id)) base |= BigInt(r.permissions);
  return { guildId, base, botId, roleIds: member.roles };
}

/**
 * The bot's permissions in a channel, computed as Discord documents
 * (https://discord.com/developers/docs/topics/permissions#permission-overwrites): the base from
 * @everyone and its roles, ADMINISTRATOR grants all, then the channel's @everyone overwrite, its
 * role overwrites together, then the member overwrite.
 */
export function channelPermissions(g: BotGuildView, channel: DiscordChannel): bigint {
  if (g.base & PERMISSIONS.ADMINISTRATOR) return ~0n;
  let perms = g.base;
  const ow = channel.permission_overwrites ?? [];
  const every = ow.find((o) => o.id === g.guildId);
  if (every) perms = (perms & ~BigInt(every.deny)) | BigInt(every.allow);
  let allow = 0n;
  let deny = 0n;
  for (const o of ow) if (o.type === 0 && g.roleIds.includes(o.id)) { allow |= BigInt(o.allow); deny |= BigInt(o.deny); }
  perms = (perms & ~deny) | allow;
  const member = ow.find((o) => o.type === 1 && o.id === g.botId);
  if (member) perms = (perms & ~BigInt(member.deny)) | BigInt(member.allow);
  return perms;
}

/** The names of `needed` permissions that `perms` lacks. */
export function missingPermissions(perms: bigint, needed: readonly PermissionName[] = REQUIRED_PERMISSIONS): PermissionName[] {
  return needed.filter((p) => !(perms & PERMISSIONS[p]));
}
