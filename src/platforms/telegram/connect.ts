/**
 * How Telegram connects (connect shape `bot-token`, docs/decisions/0057-telegram.md): the user
 * creates a bot with @BotFather and pastes its token; Herald checks it with `getMe`
 * (https://core.telegram.org/bots/api#getme), then finds the chats where the bot is an
 * administrator: from the `my_chat_member` updates Telegram sends when the bot is added
 * (https://core.telegram.org/bots/api#getupdates, kept by Telegram up to 24 hours), or from a short
 * code the user posts in the chat (a `channel_post`/`message` update), as the Late API's
 * `GET /v1/connect/telegram` code does. Each found chat is checked with `getChatMember`
 * (https://core.telegram.org/bots/api#getchatmember): the bot must be an administrator, and in a
 * channel one with `can_post_messages`. The user chooses among the found chats (never types an
 * id), or names it at once (Late's `chatId`: a numeric id or `@channelusername`).
 *
 * Updates are read without an `offset`, so none is confirmed (consumed): a bot that also serves
 * other software keeps its updates. A bot with a webhook cannot be read with getUpdates (409):
 * the chat is then named with `chatId`.
 *
 * The account: platformUserId = the chat id (a string: ids can exceed 32 bits), credentials =
 * `{ botToken, botId, botUsername }` (sealed), settings = the chat (id, type, title, username) and
 * the bot's rights. The token does not expire; revoking it in @BotFather disconnects the account.
 */
import { randomBytes } from 'node:crypto';
import { Type } from 'typebox';
import { AppError, fieldError } from '../../core/errors.ts';
import type { BotTokenShape, ChooseStep, PlatformApp } from '../connect-shape.ts';
import { AdapterError } from '../types.ts';
import { botCall, type TgChat, type TgChatMember, type TgUpdate, type TgUser } from './api.ts';

/** What a chat selection keeps sealed (connect_selections, 1 hour): the bot and the code to post. */
export interface TelegramSelectionPayload {
  botToken: string;
  botId: number;
  botUsername: string;
  /** The code the user may post in the chat so that the bot finds it. */
  code: string;
}

/** The stored credentials of a Telegram account. */
export interface TelegramCredentials {
  botToken: string;
  botId: number;
  botUsername: string;
}

/** A bot token as @BotFather gives it: `<bot id>:<secret>`. */
const TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/;
/** A chat as Late's chatId names it: a numeric id (-100… for channels and supergroups) or `@username`. */
const CHAT_ID = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/;

/** A chat the bot may post to, as the connect calls list it. */
export const TelegramChatSchema = Type.Object({
  id: Type.String({ description: 'The chat id (a string: Telegram chat ids can exceed 32 bits)' }),
  title: Type.String(),
  type: Type.Union([Type.Literal('channel'), Type.Literal('group'), Type.Literal('supergroup')]),
  username: Type.Optional(Type.String({ description: 'The public @username, without @' })),
});

const opts = (app: PlatformApp, token: string) => ({ baseUrl: app.apiBaseUrl, token });

/**
 * Whether `member` may post in `chat`: an administrator, with can_post_messages in a channel
 * (https://core.telegram.org/bots/api#chatmemberadministrator).
 */
export function canPost(chat: Pick<TgChat, 'type'>, member: TgChatMember): boolean {
  if (member.status !== 'administrator' && member.status !== 'creator') return false;
  return chat.type !== 'channel' || member.can_post_messages === true;
}

const listed = (chat: TgChat) => ({ id: String(chat.id), title: chat.title ?? String(chat.id), type: chat.type as 'channel' | 'group' | 'supergroup', ...(chat.username ? { username: chat.username } : {}) });

/** The chats the updates name: the bot's own membership changes, and posts carrying the code. */
function candidates(updates: TgUpdate[], payload: TelegramSelectionPayload): Map<number, TgChat> {
  const found = new Map<number, TgChat>();
  for (const u of updates) {
    const m = u.my_chat_member;
    if (m && m.new_chat_member.user.id === payload.botId) {
      if (['administrator', 'creator'].includes(m.new_chat_member.status)) found.set(m.chat.id, m.chat);
      else found.delete(m.chat.id);
    }
    const post = u.channel_post ?? u.message;
    if (post && (post.text ?? post.caption ?? '').includes(payload.code) && post.chat.type !== 'private') found.set(post.chat.id, post.chat);
  }
  return found;
}

/** Choosing the chat. */
export const telegramChatStep: ChooseStep<TelegramSelectionPayload> = {
  noun: 'chat',
  answerKey: 'chats',
  answerMessage: 'Bot token accepted: choose the chat with POST /v1/connect/telegram/select-chat (GET lists the chats found so far)',
  title: 'Choose the Telegram channel or group',
  empty: 'No chat found yet. Add the bot as an administrator of your channel or group (allowed to post messages), or post the code in the chat, then look again.',

  async begin(app, tokens, identity) {
    const payload: TelegramSelectionPayload = {
      botToken: tokens.accessToken, botId: Number(identity.platformUserId), botUsername: identity.username,
      code: `herald-${randomBytes(4).toString('hex')}`,
    };
    // A bot with a webhook cannot be read with getUpdates (409): nothing is listed, and the chat is named with chatId.
    let webhook = false;
    const choices = await telegramChatStep.choices(app, payload).catch((err: unknown) => {
      if (err instanceof AdapterError && err.opts.status === 409) { webhook = true; return []; }
      throw err;
    });
    return {
      payload,
      list: choices.map((c) => c.listed),
      answer: {
        code: payload.code, botUsername: payload.botUsername,
        instructions: webhook ? [
          `@${payload.botUsername} has a webhook, so Herald cannot read its updates to find your chats.`,
          'Name the chat instead: POST /v1/connect/telegram/select-chat with chatId (the chat id, or @channelusername of a public channel), or remove the webhook (deleteWebhook) and start again.',
        ] : [
          `Add @${payload.botUsername} to your channel or group as an administrator allowed to post messages.`,
          `If the chat is not listed (the bot was added more than 24 hours ago), post ${payload.code} in it.`,
          'Then list the chats again (GET /v1/connect/telegram/select-chat) and choose one (POST).',
        ],
      },
    };
  },

  async choices(app, payload) {
    let updates: TgUpdate[];
    try {
      updates = await botCall<TgUpdate[]>(opts(app, payload.botToken), 'getUpdates', { allowed_updates: ['my_chat_member', 'channel_post', 'message'], timeout: 0, limit: 100 });
    } catch (err) {
      if (err instanceof AdapterError && err.opts.status === 409) {
        throw new AdapterError('rejected', 'Telegram: the bot has a webhook, so Herald cannot read its updates to find chats; name the chat with chatId instead', err.opts);
      }
      throw err;
    }
    const out = [];
    for (const chat of candidates(updates, payload).values()) {
      let member: TgChatMember;
      try {
        member = await botCall<TgChatMember>(opts(app, payload.botToken), 'getChatMember', { chat_id: chat.id, user_id: payload.botId });
      } catch (err) {
        if (err instanceof AdapterError && err.kind === 'disconnected' && err.opts.status !== 401) continue; // the bot left that chat since
        throw err;
      }
      if (!canPost(chat, member)) continue;
      out.push({ value: String(chat.id), label: chat.title ?? String(chat.id), hint: `${chat.type}${chat.username ? ` @${chat.username}` : ''}`, listed: listed(chat) });
    }
    return out;
  },

  async toAccount(app, payload, value) {
    const o = opts(app, payload.botToken);
    let chat: TgChat;
    try {
      chat = await botCall<TgChat>(o, 'getChat', { chat_id: value });
    } catch (err) {
      if (err instanceof AdapterError && err.kind === 'disconnected' && err.opts.status !== 401) {
        throw new AppError('FORBIDDEN', `The bot @${payload.botUsername} cannot see the chat ${value}: add it to the chat as an administrator first (${err.message})`, { chatId: value });
      }
      throw err;
    }
    if (chat.type === 'private') throw new AppError('FORBIDDEN', 'A private chat with a user cannot be connected: choose a channel or a group', { chatId: value });
    const member = await botCall<TgChatMember>(o, 'getChatMember', { chat_id: chat.id, user_id: payload.botId });
    if (!canPost(chat, member)) {
      throw new AppError('FORBIDDEN', `The bot @${payload.botUsername} is not an administrator allowed to post messages in ${chat.title ?? value}: give it that right, then connect again`, { chatId: String(chat.id) });
    }
    const credentials: TelegramCredentials = { botToken: payload.botToken, botId: payload.botId, botUsername: payload.botUsername };
    return {
      account: {
        platformUserId: String(chat.id),
        username: chat.username ?? chat.title ?? String(chat.id),
        displayName: chat.title ?? chat.username ?? String(chat.id),
        credentials: { ...credentials },
        tokenExpiresAt: null,
        settings: {
          chatId: String(chat.id), chatType: chat.type, chatTitle: chat.title ?? null, chatUsername: chat.username ?? null,
          botUsername: payload.botUsername, canDeleteMessages: member.can_delete_messages === true,
        },
        permissions: ['posts:write'],
      },
      message: 'Telegram chat connected successfully',
    };
  },

  note: (payload) => `Not listed? Make @${payload.botUsername} an administrator allowed to post, or post ${payload.code} in the chat, then look again.`,

  wire: {
    listed: TelegramChatSchema,
    listedDescription: 'The channels and groups where the bot is an administrator allowed to post, found so far',
    list: {
      summary: 'List the Telegram chats the bot may post to',
      description: 'Reads the bot\'s updates again (without consuming them): chats it was made administrator of, and chats where the code was posted; each checked with getChatMember.',
      errors: [400, 403, 502],
    },
    post: {
      summary: 'Connect the chosen Telegram chat',
      description: 'Checks with getChatMember that the bot is an administrator allowed to post there, then stores the account (the bot token sealed, the chat id).',
      errors: [400, 403, 502],
    },
    body: { chatId: Type.String({ minLength: 1, maxLength: 40, description: 'A chat id from the list, or @channelusername' }) },
    value(body) {
      const v = typeof body.chatId === 'string' ? body.chatId.trim() : '';
      if (!CHAT_ID.test(v)) throw fieldError('chatId', 'must be a Telegram chat id (digits, -100… for channels) or @channelusername');
      return v;
    },
    extra: () => ({}),
    beginFields: {
      code: Type.Optional(Type.String({ description: 'A code to post in the chat when the bot cannot find it otherwise' })),
      botUsername: Type.Optional(Type.String({ description: 'The bot\'s @username, without @' })),
      instructions: Type.Optional(Type.Array(Type.String(), { description: 'Step-by-step connection instructions' })),
    },
  },
};

/**
 * Telegram's connect shape, calling the Bot API at `apiBaseUrl` (https://api.telegram.org, or a
 * self-hosted Bot API server, or the simulator).
 */
export function telegramConnectShape(apiBaseUrl: string): BotTokenShape {
  const app: PlatformApp = { clientId: '', clientSecret: '', apiBaseUrl: apiBaseUrl.replace(/\/+$/, ''), authBaseUrl: '' };
  return {
    kind: 'bot-token',
    token: { label: 'Bot token', hint: '(from @BotFather: /newbot, then copy the token)', placeholder: '123456789:AA…', autocomplete: 'off' },
    api: {
      summary: 'Connect a Telegram channel or group with a bot token',
      description: 'Checks the bot token with getMe, then finds the channels and groups where the bot is an administrator. ' +
        'With chatId the chat is connected at once (the bot must already be an administrator allowed to post there); ' +
        'otherwise the answer lists the chats found so far with a tempToken, a code to post in the chat if it is not found, and the steps; finish with POST /v1/connect/telegram/select-chat.',
      token: 'The bot token from @BotFather (`<bot id>:<secret>`)',
      direct: 'The chat to connect at once: a numeric chat id or @channelusername (Late\'s chatId)',
    },
    form: {
      steps: [
        'In Telegram, open @BotFather, send /newbot and follow the steps; it answers the bot\'s token.',
        'Add the bot to your channel or group as an administrator allowed to post messages.',
        'Paste the token here; Herald lists the chats where the bot is an administrator.',
      ],
      missing: 'Paste the bot token from @BotFather.',
      refused: 'Telegram did not accept this bot token. Copy it again from @BotFather (/mybots → API Token).',
    },
    refusedField: 'was not accepted by Telegram (getMe): copy the token again from @BotFather',
    directField: 'chatId',
    app,
    async login(token) {
      const t = token.trim();
      if (!TOKEN.test(t)) throw new AdapterError('disconnected', 'Telegram: this is not a bot token (expected <bot id>:<secret>, as @BotFather gives it)');
      const me = await botCall<TgUser>({ baseUrl: app.apiBaseUrl, token: t }, 'getMe');
      return {
        tokens: { accessToken: t },
        identity: { platformUserId: String(me.id), username: me.username ?? String(me.id), displayName: me.first_name },
      };
    },
    choose: telegramChatStep as ChooseStep,
  };
}
