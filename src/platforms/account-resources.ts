/**
 * What a platform exposes about a connected account beyond publishing, as data the generic code
 * serves without naming the platform (docs/decisions/0053-account-resources-contract.md): the
 * per-account lists of the API (Facebook Pages, LinkedIn organizations, Pinterest boards, Reddit
 * subreddits, their rules, the Reddit feed and search), each with its list and, where the API has
 * one, its select; the extra step of cloning a connection (publishing as another Page or
 * organization with the same authorization); and settings a post's check reads from the platform
 * (a subreddit's own rules).
 *
 * A platform declares {@link AccountResources} in its folder (`platforms/<p>/resources.ts`); the
 * registry answers them (`AdapterRegistry.resources`). `src/modules/account-resources` registers
 * every operation under `/v1` at the Late-compatible path the platform names, with the platform's
 * schemas, and runs it with a {@link ResourceContext}: the account the caller may see (404
 * otherwise), checked to be of the platform (400 naming `accountId` otherwise), with platform
 * failures answered as API errors (a revoked authorization marks the account for reconnection).
 *
 * This file imports only the contract's types (no platform folder), like connect-shape.ts.
 */
import type { TObject, TProperties } from 'typebox';
import type { PlatformApp } from './connect-shape.ts';

/** The connected account an operation works on, as stored (credentials opened). */
export interface ResourceAccount {
  id: string;
  profileId: string;
  /** The platform's id of what the account publishes as (a Page id, a member id). */
  platformUserId: string;
  username: string;
  isActive: boolean;
  settings: Record<string, unknown>;
  credentials: Record<string, unknown>;
}

/**
 * A change to the stored account, made by a select. Applied in this order: `dropSettings`,
 * `settings` (merged), `moveTo`.
 */
export interface AccountChange {
  /** Settings keys to remove (a previous choice that no longer applies). */
  dropSettings?: string[];
  /** Settings to set (merged into the stored ones). */
  settings?: Record<string, unknown>;
  /**
   * The account publishes as another identity of the same authorization (a Facebook Page switch):
   * its platform id, name, picture (null: none) and credentials replace the stored ones.
   */
  moveTo?: { platformUserId: string; name: string; profilePicture: string | null; credentials: Record<string, unknown> };
}

/** What an operation works with. Every method answers platform failures as API errors (see the header). */
export interface ResourceContext {
  readonly account: ResourceAccount;
  /** The platform app (from configuration). */
  readonly app: PlatformApp;
  /**
   * Runs `fn` with a valid access token of the account (refreshed and stored first when it is
   * about to expire, as the publisher does).
   */
  call<T>(fn: (token: string, app: PlatformApp) => Promise<T>): Promise<T>;
  /**
   * Runs `fn`, which calls the platform with a credential it takes from `account.credentials`
   * itself (e.g. Facebook's user token kept beside the Page token), with the same failure handling
   * as {@link call}.
   */
  guard<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * True when another account of the same profile and platform already publishes as
   * `platformUserId` (a switch to it would make two accounts of one identity).
   */
  isTaken(platformUserId: string): Promise<boolean>;
  /** Stores the change (see {@link AccountChange}); the answer's `account` shows the result. */
  update(change: AccountChange): Promise<void>;
}

/** What an operation gets from the request (validated against its schemas). */
export interface ResourceInput {
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

/**
 * One call of the API on an account's resource. Its path is Late-compatible and unchanged on the
 * wire: with `:accountId` in it (`/accounts/:accountId/pinterest-boards`), or without, the account
 * then named by the `accountId` query parameter (`/reddit/feed`).
 */
export interface ResourceOperation {
  readonly method: 'GET' | 'PUT';
  /** Path under `/v1` (Fastify syntax). */
  readonly path: string;
  /** `accounts:read` for lists, `accounts:write` for a select. */
  readonly permission: 'accounts:read' | 'accounts:write';
  /** OpenAPI: tag, summary, description. */
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  /** When the path has no `:accountId`: the description of the `accountId` query parameter. */
  readonly accountInQuery?: string;
  /**
   * With {@link accountInQuery}: `accountId` may be left out, and the caller's oldest connected
   * account of the platform is used (400 naming `accountId` when there is none).
   */
  readonly accountOptional?: boolean;
  /** The query parameters (besides `accountId`). */
  readonly querystring?: TObject;
  /** The JSON body (PUT). */
  readonly body?: TObject;
  /** The 200 answer. With {@link answersAccount} the generic code adds `account` to it. */
  readonly response: TObject;
  /** The answer ends with `account`: the account as `GET /v1/accounts` shows it after the change. */
  readonly answersAccount?: boolean;
  /** Error statuses beyond the ones every route has (OpenAPI), e.g. `[429, 502]`. */
  readonly errors: number[];
  /**
   * Serve an account that needs reconnecting too (its stored credential is used as it is);
   * by default such an account is refused with 400 naming `accountId`.
   */
  readonly inactiveAllowed?: boolean;
  /**
   * Platform refusals of the account's authorization answer 400 with this wording, and a refusal of
   * the request 400 with the platform's message, instead of 502 (a list that authorizes a choice:
   * Pages, organizations). By default a rate limit answers 429 and other failures 502.
   */
  readonly authorization?: boolean;
  /**
   * Checks the input before the account is loaded (a bad field is answered 400 whoever's account
   * it names). Optional.
   * @throws AppError 400 naming the field.
   */
  readonly check?: (input: ResourceInput) => void;
  /**
   * Runs the operation. Answers the response's fields (without `account`).
   * @throws AppError for bad input (400 naming the field), a choice the account may not make (403);
   *   platform failures through the context.
   */
  run(ctx: ResourceContext, input: ResourceInput): Promise<Record<string, unknown>>;
}

/** What a clone of the account stores instead of the source's identity (see {@link CloneStep}). */
export interface CloneTarget {
  /** Another identity of the same authorization (a Page): its id, name and picture. */
  identity?: { platformUserId: string; name: string; profilePicture: string | null };
  /** Settings keys of the source the clone does not keep. */
  dropSettings?: string[];
  /** Settings to set on the clone (merged into the source's). */
  settings?: Record<string, unknown>;
  /** The clone keeps credentials of its own (a Page token) instead of sharing the source's. */
  credentials?: Record<string, unknown>;
  /** Body fields the step ignored, each with why (added to the answer's `warnings`). */
  warnings?: string[];
}

/**
 * The platform's part of `POST /v1/profiles/{profileId}/clone-connection`: body fields that make
 * the clone publish as something else with the same authorization, checked with the platform.
 */
export interface CloneStep {
  /**
   * The body fields that apply only to this platform, with their schemas (each optional; the
   * first is named when they are sent for another platform's account).
   */
  readonly fields: TProperties;
  /** What the fields do, for the call's OpenAPI description (e.g. "Facebook: targetPageId points the clone at ..."). */
  readonly description: string;
  /**
   * The clone's target for the body (the context is the source account's), or null when the body
   * asks for a plain clone.
   * @throws AppError 400 naming the field for bad input, 403 for a target the authorization cannot manage.
   */
  target(ctx: ResourceContext, body: Record<string, unknown>): Promise<CloneTarget | null>;
}

/**
 * Settings a post's check reads from the platform through the account (a subreddit's own rules),
 * merged into the account settings the rule table is given.
 */
export interface RuleSettingsSource {
  /**
   * Answers the settings for a post with `platformSpecificData` on this account, or undefined when
   * there is nothing to read or the platform cannot be read in time (the post is not blocked then:
   * the platform checks at publish time). Never throws.
   */
  read(ctx: ResourceContext, platformSpecificData: Record<string, unknown>): Promise<Record<string, unknown> | undefined>;
}

/** A platform's account resources (every part optional: most platforms have none). */
export interface AccountResources {
  readonly operations?: readonly ResourceOperation[];
  readonly clone?: CloneStep;
  readonly ruleSettings?: RuleSettingsSource;
}

/** The resources of a platform that has none. */
export const NO_ACCOUNT_RESOURCES: AccountResources = {};
