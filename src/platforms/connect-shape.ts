/**
 * How a platform connects an account: the declarative part of the platform contract that the
 * generic connect code (the connect routes, the platform invite page, the sandbox) drives without
 * naming a platform (docs/decisions/0051-platform-connect-contract.md). Every platform declares one
 * {@link ConnectShape}; the registry answers it (`AdapterRegistry.connectShape`).
 *
 * The shapes:
 * - `{ kind: 'oauth' }`: plain OAuth 2.0 (the platform's `OAuthProvider` in its `oauth.ts`); the
 *   account is stored when the code is exchanged.
 * - `{ kind: 'oauth', choose }`: OAuth, then the user chooses what the account publishes as (a
 *   Facebook Page, a LinkedIn organization). See {@link ChooseStep}.
 * - `{ kind: 'app-password' }`: an identifier and an app password, checked by logging in
 *   (Bluesky). See {@link AppPasswordShape}.
 * - `{ kind: 'bot-token' }`: a bot token the user pastes, checked by the platform, then a choice of
 *   where the bot posts (a Telegram channel or group the bot administers). See {@link BotTokenShape}.
 * - `{ kind: 'instance-oauth' }`: OAuth against an instance the user names, with Herald's app
 *   registered on each instance on first use (Mastodon). See {@link InstanceOAuthShape}.
 * - `webhook-url`: declared for a next platform (a webhook URL); no platform uses it yet, and the
 *   generic code refuses to connect it with a 400 until it drives it.
 *
 * This file imports nothing from the rest of `src/platforms/` (types.ts and oauth.ts re-export it),
 * so that the contract has no import cycle.
 */
import type { TObject, TProperties } from 'typebox';
import type { PlatformId } from '../shared/platforms.ts';

/** Result of connecting an account (OAuth identity plus tokens, an app-password login, a choice). */
export interface ConnectedAccount {
  platformUserId: string;
  username: string;
  displayName?: string;
  profilePicture?: string;
  credentials: Record<string, unknown>;
  tokenExpiresAt?: Date | null;
  settings?: Record<string, unknown>;
  permissions?: string[];
}

/** A platform app's credentials and endpoints, from configuration. */
export interface PlatformApp {
  clientId: string;
  clientSecret: string;
  /** Base URL of the platform's API (e.g. https://api.x.com). */
  apiBaseUrl: string;
  /** Base URL of the authorization page host (e.g. https://x.com). */
  authBaseUrl: string;
  /**
   * The app's bot token (`HERALD_<PLATFORM>_BOT_TOKEN`), for a platform that publishes as the
   * app's bot rather than with the user's token (Discord: `Authorization: Bot <token>`). Absent
   * where the platform has none.
   */
  botToken?: string;
}

/** Tokens as stored (sealed) in an account's credentials. */
export interface OAuthTokens {
  accessToken: string;
  refreshToken?: string | null;
  /** Access token expiry. */
  expiresAt?: string | null;
  scope?: string[];
  /**
   * What the token response answered beyond the tokens, for the platform's own `identify` and
   * choose step (Discord's `guild`: the server its bot was just added to). Absent elsewhere.
   */
  grant?: Record<string, unknown>;
}

/** Who connected: the account fields without credentials. */
export type Identity = Omit<ConnectedAccount, 'credentials' | 'tokenExpiresAt'>;

/**
 * One thing the user may choose in a {@link ChooseStep}: `value` is what is posted back, `label`
 * and `hint` what a chooser shows (the invite page's radio list). `listed`: the choice as the
 * Late-compatible listing shows it (`GET /v1/connect/{platform}/select-{noun}`, e.g. a Page with
 * its category and tasks); absent for a choice that listing does not show (LinkedIn's personal
 * profile, which is not an organization).
 */
export interface Choice {
  value: string;
  label: string;
  hint: string;
  listed?: unknown;
}

/** What {@link ChooseStep.begin} answers: the payload kept sealed for the choice, and the list the API answers at once. */
export interface ChooseBegin<P> {
  /** Sealed under the tempToken (connect_selections, 1 hour, single use); given back to `choices` and `toAccount`. */
  payload: P;
  /** The choices as `POST /v1/connect/{platform}` answers them under {@link ChooseStep.answerKey}. */
  list: unknown[];
  /**
   * More fields of that answer, as {@link ChooseWire.beginFields} declares them (a bot-token step's
   * code to post in the chat and its instructions). Absent for the OAuth steps.
   */
  answer?: Record<string, unknown>;
}

/** What {@link ChooseStep.toAccount} answers for the chosen value. */
export interface ChosenAccount {
  /** The account to store (upserted into the profile like any connected account). */
  account: ConnectedAccount;
  /** The `message` of the answer (e.g. "Facebook page connected successfully"). */
  message: string;
  /** Settings keys a reconnect must remove from the stored account (a previous choice that no longer applies). */
  dropSettings?: string[];
}

/**
 * OAuth then a choice: after the code exchange the account is not stored at once; the user's
 * tokens are kept sealed under a tempToken, the caller lists the choices and posts one.
 *
 * Wire names (Late-compatible, unchanged): the choice is listed and posted at
 * `GET|POST /v1/connect/{platform}/select-{noun}`, the OAuth callback sends the browser to the
 * dashboard's `/dashboard/connect/{platform}/select-{noun}?tempToken&profileId`, and
 * `POST /v1/connect/{platform}` answers `{ message: answerMessage, tempToken, [answerKey]: list }`.
 *
 * `P` is the sealed payload; each step reads only the payload its own `begin` wrote.
 */
export interface ChooseStep<P = unknown> {
  /** The noun of the paths: `page` (select-page), `organization` (select-organization). */
  readonly noun: string;
  /** The key of the choices in the `POST /v1/connect/{platform}` answer: `pages`, `organizations`. */
  readonly answerKey: string;
  /** The `message` of that answer, naming the call that finishes the connection. */
  readonly answerMessage: string;
  /** The chooser's title (the invite page's heading). */
  readonly title: string;
  /** What a chooser says when there is nothing to choose. */
  readonly empty: string;
  /**
   * Right after OAuth, with the fresh tokens: reads the choices and answers the payload to seal and
   * the list to answer, or null when there is nothing to choose and the account is stored as it is
   * (a LinkedIn member without organizations).
   * @throws AdapterError when the platform refuses or cannot be reached (the connect fails as a bad code would).
   */
  begin(app: PlatformApp, tokens: OAuthTokens, identity: Identity): Promise<ChooseBegin<P> | null>;
  /**
   * What the user may choose now (read again from the platform where the choice can change).
   * @throws AdapterError when the platform refuses the stored authorization or cannot be reached.
   */
  choices(app: PlatformApp, payload: P): Promise<Choice[]>;
  /**
   * The account to store for the chosen `value`. `extra`: what the caller's body says beyond the
   * value (Late's `userProfile`, the chosen organization's `name`), used only where the platform
   * gives nothing.
   * @throws AppError FORBIDDEN for a value the user may not choose (saying why), PLATFORM_ERROR when
   *   the platform's answer lacks what the account needs; AdapterError as in {@link ChooseStep.choices}.
   */
  toAccount(app: PlatformApp, payload: P, value: string, extra?: Record<string, unknown>): Promise<ChosenAccount>;
  /** The Late-compatible select calls of this step, as data (see {@link ChooseWire}). */
  readonly wire: ChooseWire;
  /** What a chooser shows besides the choices, from the sealed payload (a bot-token step's code to post in the chat). */
  note?(payload: P): string;
}

/**
 * The select calls of a {@link ChooseStep} as the API serves them (`GET|POST
 * /v1/connect/{platform}/select-{noun}`, registered by the generic connect routes): the schema of
 * a listed choice, the OpenAPI texts, and how the POST body names the chosen value.
 */
export interface ChooseWire {
  /** A listed choice (`Choice.listed`), as `GET .../select-{noun}` and `POST /v1/connect/{platform}` answer it. */
  readonly listed: TObject;
  /** What the listed choices are (the description of `[answerKey]` in the `POST /v1/connect/{platform}` answer). */
  readonly listedDescription: string;
  /** OpenAPI summary, description and error statuses of the list call. */
  readonly list: { summary: string; description: string; errors: number[] };
  /** The same for the POST that finishes the connection. */
  readonly post: { summary: string; description: string; errors: number[] };
  /** The POST body's fields besides `profileId`, `tempToken` and `redirect_url`. */
  readonly body: TProperties;
  /**
   * The chosen value from the POST body (run after the tempToken is checked).
   * @throws AppError 400 naming the field when the body does not name a usable value.
   */
  value(body: Record<string, unknown>): string;
  /** What the body says beyond the value, given to {@link ChooseStep.toAccount} as `extra`. */
  extra(body: Record<string, unknown>): Record<string, unknown>;
  /** The schema of {@link ChooseBegin.answer}'s fields, where the step answers more than the list (all optional in the answer). */
  readonly beginFields?: TProperties;
}

/** A field of a credentials form (the platform invite page). */
export interface CredentialField {
  label: string;
  /** Shown after the label, smaller (where to find the value). */
  hint?: string;
  placeholder: string;
  /** The input's autocomplete attribute. */
  autocomplete: string;
}

/**
 * An identifier and an app password, checked by logging in (Bluesky). The Late-compatible call is
 * `POST /v1/connect/{platform}/credentials { identifier, appPassword, state, redirect_url? }`;
 * `GET|POST /v1/connect/{platform}` answer 400 pointing there.
 */
export interface AppPasswordShape {
  readonly kind: 'app-password';
  /** The OpenAPI texts of the credentials call: its summary and description, and the two fields' descriptions. */
  readonly api: { summary: string; description: string; identifier: string; secret: string };
  /** The invite page's form: the two fields, the message for an empty one, and for credentials the platform refuses. */
  readonly form: { identifier: CredentialField; secret: CredentialField; missing: string; refused: string };
  /** What the API's 400 says about the `appPassword` field when the platform refuses the login. */
  readonly refusedField: string;
  /**
   * Logs in and answers the account to store (the registry binds the configured service).
   * @throws AdapterError `disconnected`/`rejected` for refused credentials, `transient`/`rate_limited` otherwise.
   */
  login(identifier: string, secret: string): Promise<ConnectedAccount>;
}

/** Plain OAuth 2.0, or OAuth then a choice. */
export interface OAuthShape {
  readonly kind: 'oauth';
  /** Present when the user chooses what the account publishes as after OAuth. */
  readonly choose?: ChooseStep;
}

/** Herald's app as an instance registered it ({@link InstanceOAuthShape.register}). */
export interface InstanceApp {
  clientId: string;
  clientSecret: string;
}

/**
 * OAuth 2.0 against an instance the user names (Mastodon: https://docs.joinmastodon.org/client/token/).
 * `GET /v1/connect/{platform}?profileId&instance` takes the instance (a host name, e.g.
 * `mastodon.social`); the generic connect code checks it (a host name; outside sandbox mode not a
 * private or reserved address, by the SSRF guard's rules) and makes it the base URL
 * `https://{host}`, registers Herald's app there once ({@link register}, kept per instance in
 * `instance_apps`, the secret sealed), then runs the platform's `OAuthProvider` with the app
 * `{ clientId, clientSecret, apiBaseUrl: base, authBaseUrl: base }` (PKCE when the provider uses
 * it). The stored account's credentials carry the base URL as `instanceUrl` beside the tokens.
 * A token exchange the instance refuses as {@link unknownClient} drops the stored app, so the
 * next connect registers again.
 */
export interface InstanceOAuthShape {
  readonly kind: 'instance-oauth';
  /** The instance field of the connect forms (label, hint and placeholder). */
  readonly instance: CredentialField;
  /** The OpenAPI description of the `instance` query parameter. */
  readonly instanceDescription: string;
  /** Sandbox mode: every connection goes to this base URL (the simulator), whatever instance is named. */
  readonly fixedInstanceUrl?: string;
  /**
   * Registers Herald's app on the instance (once per instance and redirect URI).
   * @throws AdapterError when the instance refuses or cannot be reached.
   */
  register(instanceUrl: string, redirectUri: string): Promise<InstanceApp>;
  /** True for a token exchange error meaning the instance no longer knows the app (OAuth `invalid_client`). */
  unknownClient(err: unknown): boolean;
}

/**
 * A bot token the user pastes (a Telegram bot's, from @BotFather:
 * https://core.telegram.org/bots/api#authorizing-your-bot), then a choice of where the bot posts.
 *
 * The generic connect code drives it (docs/decisions/0057-telegram.md):
 * `POST /v1/connect/{platform}/bot-token { profileId, botToken, [directField]?, redirect_url? }` checks
 * the token with `login`; with `directField` (Late's `chatId`) the account is stored at once through
 * the choose step's `toAccount`, else the step's `begin` answers `{ message, tempToken, [answerKey],
 * ...answer }` and the choice is finished at `GET|POST /v1/connect/{platform}/select-{noun}` like an
 * OAuth choice. The token is kept sealed under the tempToken (as OAuth tokens are), then in the
 * account's credentials.
 */
export interface BotTokenShape {
  readonly kind: 'bot-token';
  /** The token field of a connect form (the platform invite page, the dashboard's dialog). */
  readonly token: CredentialField;
  /** The OpenAPI texts of the bot-token call: its summary and description, the token's and the direct field's descriptions. */
  readonly api: { summary: string; description: string; token: string; direct: string };
  /** The connect form's steps (how to create the bot and add it), and the messages for an empty and a refused token. */
  readonly form: { steps: readonly string[]; missing: string; refused: string };
  /** What the API's 400 says about the `botToken` field when the platform refuses the token. */
  readonly refusedField: string;
  /** The body field naming the destination at once (Late's `chatId`), skipping the choice. */
  readonly directField: string;
  /** The platform's API as the choose step calls it (the registry binds the configured base URL). */
  readonly app: PlatformApp;
  /**
   * Checks the token with the platform and answers it as tokens (`accessToken`) with the bot's identity.
   * @throws AdapterError `disconnected`/`rejected` for a refused token, `transient`/`rate_limited` otherwise.
   */
  login(token: string): Promise<{ tokens: OAuthTokens; identity: Identity }>;
  /** Where the bot posts: the choice after the token (its `begin` gets the tokens and identity of `login`). */
  readonly choose: ChooseStep;
}

/** Declared for the next platforms, used by none yet: a webhook URL the platform gives the user (e.g. a Discord channel's, https://discord.com/developers/docs/resources/webhook). */
export interface WebhookUrlShape {
  readonly kind: 'webhook-url';
  readonly url: CredentialField;
}

/** How a platform connects: see this file's header. */
export type ConnectShape = OAuthShape | AppPasswordShape | InstanceOAuthShape | BotTokenShape | WebhookUrlShape;

/** The shape of a platform connected with plain OAuth 2.0. */
export const PLAIN_OAUTH: OAuthShape = { kind: 'oauth' };

/**
 * How the API shows a connected account of a platform, as data (the account view reads it):
 * `profileUrl`, the public page of the account where the platform has one; `accountType`, the
 * account type shown when the stored settings name none; `fields`, fields of the view read from
 * what the platform stated at connect (in the stored settings), each declared in the account schema
 * (src/modules/accounts/schemas.ts), undefined when unknown.
 */
export interface AccountViewData {
  profileUrl?(username: string): string;
  accountType?: string;
  fields?(settings: Record<string, unknown>): Record<string, unknown>;
}

/** {@link AccountViewData} per platform (a platform without an entry has neither). */
export const ACCOUNT_VIEW_DATA: Readonly<Partial<Record<PlatformId, AccountViewData>>> = {
  // Profile pages: https://bsky.app/profile/{handle}
  bluesky: { profileUrl: (username) => `https://bsky.app/profile/${username}` },
  // A LinkedIn account publishes as the member unless an organization was chosen (decision 0051).
  linkedin: { accountType: 'personal' },
  // The privacy levels the creator may post with, from the creator info read at connect
  // (https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info).
  tiktok: {
    fields: (s) => {
      const o = (s.tiktokCreator as { privacyLevelOptions?: unknown } | undefined)?.privacyLevelOptions;
      return { tiktokPrivacyLevelOptions: Array.isArray(o) && o.every((x) => typeof x === 'string') ? o : undefined };
    },
  },
  // A Mastodon username is the full handle `user@domain`; the profile is https://{domain}/@{user}.
  mastodon: { profileUrl: (username) => { const [user, domain] = username.split('@'); return `https://${domain}/@${user}`; } },
};
