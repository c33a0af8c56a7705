/**
 * How Discord connects (decision 0056): OAuth with the `bot` scope adds Herald's bot to the server
 * the user picks (./oauth.ts), then the user chooses the channel the account publishes to
 * (`GET|POST /v1/connect/discord/select-channel`): a text (type 0), announcement (5) or forum (15)
 * channel of that server, listed with the bot token (`GET /guilds/{guild.id}/channels`,
 * https://discord.com/developers/docs/resources/guild#get-guild-channels). One Herald account
 * per channel: platformUserId = the channel id; no credentials of the user are kept (Herald
 * publishes as the bot); settings: guildId, guildName, channelId, channelName, channelType.
 *
 * A channel where the bot lacks VIEW_CHANNEL, SEND_MESSAGES or READ_MESSAGE_HISTORY is listed
 * (with what it lacks) but refused with 403: without the history verify could not tell a lost
 * message from one never sent ("no messages will be returned", not an error).
 */
import { Type } from 'typebox';
import { AppError } from '../../core/errors.ts';
import type { ChooseStep, ConnectShape, PlatformApp } from '../connect-shape.ts';
import { AdapterError } from '../types.ts';
import { DISCORD_CHANNEL_TYPES } from '../../shared/rules/discord.ts';
import { botGuildView, channelPermissions, discordBot, missingPermissions, type BotGuildView, type DiscordChannel } from './api.ts';

/** What the channel choice keeps sealed: the server the bot joined and who connected (no token). */
export interface DiscordSelectionPayload {
  guild: { id: string; name: string };
  user: { id: string; username: string; displayName?: string };
}

const TYPE_NAMES: Record<number, string> = { [DISCORD_CHANNEL_TYPES.text]: 'text', [DISCORD_CHANNEL_TYPES.announcement]: 'announcement', [DISCORD_CHANNEL_TYPES.forum]: 'forum' };
const PUBLISHABLE = new Set<number>(Object.values(DISCORD_CHANNEL_TYPES));

/** A channel as the select calls list it. */
export const DiscordChannelSchema = Type.Object({
  id: Type.String({ description: 'The channel id (snowflake)' }),
  name: Type.String(),
  type: Type.Integer({ description: 'Discord channel type: 0 text, 5 announcement, 15 forum' }),
  typeName: Type.String({ description: 'text, announcement or forum' }),
  guildId: Type.String(), guildName: Type.String(),
  missingPermissions: Type.Array(Type.String(), { description: 'Permissions Herald\'s bot lacks there (VIEW_CHANNEL, SEND_MESSAGES, READ_MESSAGE_HISTORY); empty when it can publish' }),
});

interface Listed { id: string; name: string; type: number; typeName: string; guildId: string; guildName: string; missingPermissions: string[] }

function view(c: DiscordChannel, g: BotGuildView, guild: DiscordSelectionPayload['guild']): Listed {
  return {
    id: c.id, name: c.name ?? c.id, type: c.type, typeName: TYPE_NAMES[c.type], guildId: guild.id, guildName: guild.name,
    missingPermissions: missingPermissions(channelPermissions(g, c)),
  };
}

/** The server's text, announcement and forum channels in their order, with what the bot lacks in each. */
async function listChannels(app: PlatformApp, guild: DiscordSelectionPayload['guild']): Promise<Listed[]> {
  const [channels, g] = await Promise.all([discordBot<DiscordChannel[]>(app, `/guilds/${guild.id}/channels`), botGuildView(app, guild.id)]);
  return channels.filter((c) => PUBLISHABLE.has(c.type)).sort((a, b) => (a.position ?? 0) - (b.position ?? 0)).map((c) => view(c, g, guild));
}

/** Choosing the channel. */
export const discordChannelStep: ChooseStep<DiscordSelectionPayload> = {
  noun: 'channel',
  answerKey: 'channels',
  answerMessage: 'Choose the Discord channel to connect with POST /v1/connect/discord/select-channel',
  title: 'Choose the Discord channel',
  empty: 'Herald\'s bot sees no text, announcement or forum channel in this server. Check the bot\'s role and the channels\' permissions, then start again.',

  async begin(app, tokens, identity) {
    const g = tokens.grant?.guild as { id?: string; name?: string } | undefined;
    if (!g?.id) throw new AdapterError('rejected', 'Discord did not say which server Herald\'s bot was added to (the authorization needs the bot scope)');
    const payload: DiscordSelectionPayload = {
      guild: { id: g.id, name: g.name ?? g.id },
      user: { id: identity.platformUserId, username: identity.username, displayName: identity.displayName },
    };
    return { payload, list: await listChannels(app, payload.guild) };
  },

  async choices(app, payload) {
    return (await listChannels(app, payload.guild)).map((c) => ({
      value: c.id, label: `#${c.name}`,
      hint: `${c.typeName} channel${c.missingPermissions.length ? `; the bot lacks ${c.missingPermissions.join(', ')}` : ''}`, listed: c,
    }));
  },

  async toAccount(app, payload, channelId) {
    let channel: DiscordChannel;
    try {
      channel = await discordBot<DiscordChannel>(app, `/channels/${channelId}`);
    } catch (err) {
      if (err instanceof AdapterError && err.kind === 'disconnected') throw new AppError('FORBIDDEN', `Herald's bot cannot see this channel (${err.message})`, { channelId });
      throw err;
    }
    if (channel.guild_id !== payload.guild.id) throw new AppError('FORBIDDEN', 'This channel is not in the server Herald\'s bot was added to', { channelId });
    if (!PUBLISHABLE.has(channel.type)) throw new AppError('FORBIDDEN', 'Herald publishes to text, announcement and forum channels only', { channelId, type: channel.type });
    const missing = missingPermissions(channelPermissions(await botGuildView(app, payload.guild.id), channel));
    if (missing.length) {
      throw new AppError('FORBIDDEN', `Herald's bot lacks ${missing.join(', ')} in #${channel.name}: give its role these permissions there (READ_MESSAGE_HISTORY lets Herald check a post after an interruption), then choose again`, { channelId, missingPermissions: missing });
    }
    const name = channel.name ?? channel.id;
    return {
      message: 'Discord channel connected successfully',
      account: {
        platformUserId: channel.id, username: name, displayName: `#${name} (${payload.guild.name})`,
        credentials: {}, tokenExpiresAt: null,
        settings: {
          guildId: payload.guild.id, guildName: payload.guild.name, channelId: channel.id, channelName: name, channelType: channel.type,
          discordUserId: payload.user.id, discordUsername: payload.user.username,
        },
        permissions: ['posts:write', 'posts:read'],
      },
    };
  },

  wire: {
    listed: DiscordChannelSchema,
    listedDescription: 'Discord: the text, announcement and forum channels of the server Herald\'s bot was added to',
    list: {
      summary: 'List the channels of the Discord server Herald\'s bot was added to (after OAuth)',
      description: 'Text (0), announcement (5) and forum (15) channels, each with the permissions the bot lacks there. tempToken comes from the OAuth callback (1 hour, single use).',
      errors: [403, 502],
    },
    post: {
      summary: 'Connect the chosen Discord channel',
      description: 'Stores the channel as the account (one account per channel). The bot must have VIEW_CHANNEL, SEND_MESSAGES and READ_MESSAGE_HISTORY there (403 naming the missing ones otherwise). Uses up the tempToken.',
      errors: [403, 502],
    },
    body: { channelId: Type.String({ minLength: 1, maxLength: 20, pattern: '^[0-9]+$', description: 'The channel id (snowflake)' }) },
    value: (body) => body.channelId as string,
    extra: () => ({}),
  },
};

/** Discord's connect shape: OAuth (adding the bot to a server), then the channel. */
export const discordConnect: ConnectShape = { kind: 'oauth', choose: discordChannelStep };
