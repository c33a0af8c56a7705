/**
 * The platform adapter contract. An adapter speaks one platform's API; it never touches
 * the database or the job queue. It takes plain inputs (credentials, content, media
 * references, options) and returns plain results or throws a typed {@link AdapterError}.
 *
 * Publishing is two-phase (docs/decisions/0002-two-phase-publishing-and-verify.md):
 * - `prepare`: invisible, retry-safe work (media uploads, containers, generating the
 *   ids that make the commit idempotent). Its result is JSON, stored on the attempt row.
 * - `commit`: the one call that makes the post visible. Herald writes the attempt row
 *   before calling it and never retries it blindly.
 * - `verify`: after a crash mid-commit, asks the platform whether the prepared post
 *   exists: 'published' (with the result), 'not_published' (safe to commit again), or
 *   'unknown' (Herald asks again later, and after its attempts fails the target with a
 *   "may have been published" error). The check is exact, never a recent-window guess
 *   (docs/decisions/0018-exact-verify.md): it looks back to `window.since`, paging as far
 *   as needed, matches what was sent (or a client-chosen key where the platform keeps one),
 *   and answers 'unknown' whenever it cannot tell (rate limited, history not reachable,
 *   several candidates): 'not_published' only when the platform's own record proves it.
 */

import type { PlatformCapabilities } from '../shared/capabilities.ts';
import type { PlatformId } from '../shared/platforms.ts';

/** The platform ids and each platform's capabilities live in src/shared/ (shared with the web app). */
export { PLATFORMS, isPlatformId, type PlatformId } from '../shared/platforms.ts';
export type { PlatformCapabilities } from '../shared/capabilities.ts';

/** Media, thread items and rule violations are shared with the composer (src/shared/rules/types.ts). */
export type { MediaRef, RulePost, RuleViolation, ThreadItem } from '../shared/rules/types.ts';
import type { MediaRef, RulePost, RuleViolation, ThreadItem } from '../shared/rules/types.ts';
import type { PostMetrics } from '../shared/metrics.ts';
/** How each platform connects (OAuth, OAuth then a choice, an app password, ...): src/platforms/connect-shape.ts. */
export {
  ACCOUNT_VIEW_DATA, PLAIN_OAUTH,
  type AccountViewData, type AppPasswordShape, type BotTokenShape, type ChooseBegin, type ChooseStep, type Choice, type ChosenAccount,
  type ConnectedAccount, type ConnectShape, type CredentialField, type Identity, type InstanceApp, type InstanceOAuthShape, type OAuthShape, type OAuthTokens,
  type PlatformApp, type WebhookUrlShape,
} from './connect-shape.ts';
/** Metrics in Herald's vocabulary and each platform's names for them live in src/shared/metrics.ts. */
export { mapMetrics, noMetrics, PLATFORM_METRICS, type MetricName, type PostMetrics } from '../shared/metrics.ts';

/** What an adapter needs to publish one target: a {@link RulePost} with every field set. */
export interface PublishRequest extends RulePost {
  /** The text for this target: customContent or the post's content. */
  text: string;
  mediaItems: MediaRef[];
  /** When non-empty, the post is a thread; item 0 is the root (its text replaces `text`). */
  threadItems: ThreadItem[];
  platformSpecificData: Record<string, unknown>;
  tags: string[];
  visibility: 'public' | 'private' | 'unlisted';
  /** The scheduled instant (UTC), if any. */
  scheduledFor?: Date;
  /**
   * The connected account's settings (default subreddit, default board, ...), so that rules
   * depending on them are checked before publishing. Absent: such rules are checked at publish time.
   */
  accountSettings?: Record<string, unknown>;
}

/** A connected account as an adapter sees it: public fields plus decrypted credentials. */
export interface AccountContext<C = Record<string, unknown>> {
  id: string;
  platformUserId: string;
  username: string;
  credentials: C;
  settings: Record<string, unknown>;
}

/** A published post on the platform. */
export interface PublishResult {
  platformPostId: string;
  platformPostUrl: string;
  /** For threads: one entry per item, in order. */
  thread?: Array<{ platformPostId: string; platformPostUrl: string }>;
  /** Anything else worth keeping (cid, first comment result, ...). */
  extra?: Record<string, unknown>;
  /**
   * ISO 8601 UTC: the platform holds the post and makes it public itself at this time (a YouTube
   * video uploaded private with `publishAt`), or it is still in the platform's review (a Google
   * Business Profile post in state PROCESSING: the time of the next check). Until then the target
   * stays scheduled, with its platform URL; at that time the publisher asks
   * {@link PlatformAdapter.confirmLive}.
   */
  goesLiveAt?: string;
}

/**
 * The answer of {@link PlatformAdapter.confirmLive}.
 * - `live`: the post is public now (`result`, when given, replaces the stored one).
 * - `waiting`: not yet; ask again at `until`.
 * - `gone`: the post will not go public: it no longer exists on the platform (deleted there before
 *   its time), or the platform's review refused it (a Google Business Profile post REJECTED in
 *   moderation). The target fails with `reason`.
 */
export type LiveCheck =
  | { status: 'live'; result?: PublishResult }
  | { status: 'waiting'; until: Date; reason: string }
  | { status: 'gone'; reason: string };

/**
 * The answer of {@link PlatformAdapter.verify}.
 * - `published`: the post is live; `result` is what commit would have returned.
 * - `not_published`: proven absent, so committing again cannot duplicate it. `prepared`,
 *   when given, replaces the prepared state for that commit (e.g. a thread whose first
 *   posts are live resumes after them instead of posting them again).
 * - `unknown`: the platform could not tell now; `reason` says why.
 */
export type VerifyResult<P = Record<string, unknown>> =
  | { status: 'published'; result: PublishResult }
  | { status: 'not_published'; prepared?: P }
  | { status: 'unknown'; reason: string; rateLimited?: { retryAfterMs?: number } };

/**
 * The verdict when verify's look-up failed: 'unknown', marked `rateLimited` (with the platform's
 * Retry-After) when the platform throttled the look-up, so the publisher waits for it instead of
 * spending its verify budget (src/publishing/publisher.ts).
 */
export function lookupFailed(err: unknown): { status: 'unknown'; reason: string; rateLimited?: { retryAfterMs?: number } } {
  const reason = (err as Error)?.message ?? String(err);
  return err instanceof AdapterError && err.kind === 'rate_limited' ? { status: 'unknown', reason, rateLimited: { retryAfterMs: err.opts.retryAfterMs } } : { status: 'unknown', reason };
}

/**
 * What verify knows about the attempt it checks.
 * `since`: the start of the first commit attempt of this target, less a margin for clock
 * skew between Herald and the platform (VERIFY_CLOCK_SKEW_MS). Anything the attempt
 * created is newer, so the look-back stops at the first item older than this.
 */
export interface VerifyWindow {
  since: Date;
}

/** Margin subtracted from the commit's start when looking back (platform clocks differ from ours). */
export const VERIFY_CLOCK_SKEW_MS = 2 * 60_000;

/**
 * Most pages a verify reads before answering 'unknown' (the account posted so much since the
 * attempt that the evidence is beyond what one check may read within rate limits).
 */
export const VERIFY_MAX_PAGES = 50;

/** Hooks an adapter may call; implemented by the publishing service. */
export interface AdapterContext {
  /** Persists refreshed credentials (e.g. a rotated session or token). */
  saveCredentials(credentials: Record<string, unknown>, tokenExpiresAt?: Date | null): Promise<void>;
  /** Reads a media item's bytes (local storage or the SSRF-guarded fetch). */
  fetchMedia(item: MediaRef, maxBytes: number): Promise<{ bytes: Buffer; mimeType: string }>;
  /**
   * Reads media metadata (ffprobe) from bytes fetched with `fetchMedia`, for media that
   * carries none (a URL Herald did not store). Absent where probing is not available.
   */
  probeMedia?(bytes: Buffer, mimeType: string): Promise<{ durationSeconds?: number; width?: number; height?: number }>;
  /** Structured log. */
  log(msg: string, data?: Record<string, unknown>): void;
}

export interface PlatformAdapter<C = Record<string, unknown>, P = Record<string, unknown>> {
  readonly platform: PlatformId;
  readonly capabilities: PlatformCapabilities;
  /** Checks every platform rule without any network call; returns all violations. */
  validate(req: PublishRequest): RuleViolation[];
  prepare(ctx: AdapterContext, account: AccountContext<C>, req: PublishRequest): Promise<P>;
  /**
   * Whether {@link prepare} for this request and account works without any network request (no call to
   * the platform, no media fetch, no token renewal): it only shapes the request. Then a worker may prepare
   * the target and write its attempt row while the target waits for a slot, so that its call goes out the
   * moment a slot frees (docs/decisions/0076-attempt-rows-ahead.md). Makes no request itself. Absent or
   * false: prepare runs inside a slot, like the calls it may make.
   */
  preparesOffline?(req: PublishRequest, account: AccountContext<C>): boolean;
  commit(ctx: AdapterContext, account: AccountContext<C>, req: PublishRequest, prepared: P): Promise<PublishResult>;
  /**
   * For a post the platform publishes itself later (a result with `goesLiveAt`): whether it is
   * public now. Absent: such a result is taken as live at `goesLiveAt`.
   * @throws AdapterError `rate_limited`, `transient` (asked again later), `disconnected`.
   */
  confirmLive?(ctx: AdapterContext, account: AccountContext<C>, result: PublishResult): Promise<LiveCheck>;
  /** See {@link VerifyResult} and {@link VerifyWindow}. Never throws: failures are 'unknown'. */
  verify(ctx: AdapterContext, account: AccountContext<C>, req: PublishRequest, prepared: P, window: VerifyWindow): Promise<VerifyResult<P>>;
  /**
   * Reads published posts' metrics from the platform's analytics endpoint (the endpoint and the
   * mapping of its names are data: {@link PLATFORM_METRICS}). Answers one entry per id it could
   * read; an id missing from the answer has no metrics there (deleted, or a kind without
   * metrics). Metrics the platform does not have are `null`. Absent: the platform has no metrics.
   * @throws AdapterError `rate_limited` (with retryAfterMs), `disconnected`, `transient`.
   */
  fetchMetrics?(ctx: AdapterContext, account: AccountContext<C>, platformPostIds: string[]): Promise<Map<string, PostMetrics>>;
  /**
   * Deletes a published post (every item of a thread, last first) from the platform. A post the
   * platform no longer has counts as deleted, so calling it again is harmless. Present only where
   * {@link UNPUBLISH} says the platform allows it.
   * @throws AdapterError `auth_expired`, `disconnected`, `rate_limited`, `rejected`, `transient`.
   */
  unpublish?(ctx: AdapterContext, account: AccountContext<C>, post: PublishedPost): Promise<void>;
  /**
   * Changes the text of a published post on the platform (docs/decisions/0060-edit-published-posts.md).
   * Present only where {@link PUBLISHED_EDITS} says Herald edits there. The text was checked against
   * the platform's rules before; the platform's own refusals (a closed edit window, a post the
   * account did not author) are thrown as `rejected` with the platform's message.
   * @throws AdapterError `auth_expired`, `disconnected`, `rate_limited`, `rejected`, `transient`.
   */
  editPublished?(ctx: AdapterContext, account: AccountContext<C>, edit: EditRequest): Promise<EditResult>;
  /**
   * What an edit cannot change on this platform, checked without a network call before
   * {@link editPublished} (Reddit: only a self post's body; its title stays): the post as published
   * and as it would be. Violations are answered as 400s on `content`. Absent: only `validate` applies.
   */
  checkEdit?(before: RulePost, after: RulePost): RuleViolation[];
  /**
   * YouTube's metadata of a published video (title, description, tags, category, privacy:
   * videos.update). Only the fields given change; answers the names of the fields sent.
   * @throws AdapterError as {@link editPublished}.
   */
  updateVideoMetadata?(ctx: AdapterContext, account: AccountContext<C>, videoId: string, patch: VideoMetadataPatch): Promise<{ updatedFields: string[] }>;
}

/** What {@link PlatformAdapter.editPublished} is given: the published post and the new text. */
export interface EditRequest {
  /** The new text, as the platform shows it (hashtags and mentions included). */
  text: string;
  /** The published post: its root id, every thread item's id (root first) and its URL. */
  post: PublishedPost & { platformPostUrl: string };
  /** The media it was published with (unchanged by an edit): a media post's text is its caption. */
  mediaItems: MediaRef[];
  /** The target's platform options as published. */
  platformSpecificData: Record<string, unknown>;
}

/** The post after an edit: its id (X gives an edit a new id; the others keep it) and URL. */
export interface EditResult {
  platformPostId: string;
  platformPostUrl: string;
}

/** The fields of a YouTube video that update-metadata changes; absent ones are kept as they are. */
export interface VideoMetadataPatch {
  /** At most 100 characters, no `<` or `>`. */
  title?: string;
  /** At most 5,000 bytes, no `<` or `>`. */
  description?: string;
  /** Keyword tags, at most 500 characters together (YouTube's count). */
  tags?: string[];
  categoryId?: string;
  privacyStatus?: 'public' | 'private' | 'unlisted';
  madeForKids?: boolean;
  containsSyntheticMedia?: boolean;
}

/** Which platforms' published posts can be edited, and how: src/shared/edits.ts (shared with the dashboard). */
export { PUBLISHED_EDITS, editRefusal, type PublishedEditRule } from '../shared/edits.ts';

/** A published post as unpublish is given it: the root's id and, for a thread, every item's id in order (root first). */
export interface PublishedPost {
  platformPostId: string;
  threadIds: string[];
}

/**
 * Whether each platform lets an app delete a post it published, with the documented endpoint
 * (or why not). Data, so that the API can say which platforms cannot take a post back.
 */
export const UNPUBLISH: Readonly<Record<PlatformId, { supported: boolean; how: string; doc: string }>> = {
  twitter: { supported: true, how: 'DELETE /2/tweets/:id', doc: 'https://docs.x.com/x-api/posts/delete-post' },
  bluesky: { supported: true, how: 'com.atproto.repo.deleteRecord', doc: 'https://docs.bsky.app/docs/api/com-atproto-repo-delete-record' },
  facebook: { supported: true, how: 'Graph API DELETE /{post-id} with the Page token', doc: 'https://developers.facebook.com/docs/graph-api/reference/post/#deleting' },
  linkedin: { supported: true, how: 'DELETE /rest/posts/{urn}', doc: 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#delete-posts' },
  threads: { supported: true, how: 'DELETE /{threads-media-id} (permission threads_delete; 100 deletes a day per account)', doc: 'https://developers.facebook.com/docs/threads/posts/delete-posts' },
  youtube: { supported: true, how: 'DELETE /youtube/v3/videos?id={videoId} (videos.delete)', doc: 'https://developers.google.com/youtube/v3/docs/videos/delete' },
  pinterest: { supported: true, how: 'DELETE /v5/pins/{pin_id}', doc: 'https://developers.pinterest.com/docs/api/v5/pins-delete/' },
  reddit: { supported: true, how: 'POST /api/del with id=t3_{id} (scope edit)', doc: 'https://www.reddit.com/dev/api/#POST_api_del' },
  mastodon: { supported: true, how: 'DELETE /api/v1/statuses/:id (scope write:statuses; 30 deletes per 30 minutes)', doc: 'https://docs.joinmastodon.org/methods/statuses/#delete' },
  instagram: { supported: false, how: 'the Instagram Graph API has no endpoint to delete media; remove it in the Instagram app', doc: 'https://developers.facebook.com/docs/instagram-platform/reference/instagram-media' },
  discord: { supported: true, how: 'DELETE /channels/{channel.id}/messages/{message.id} for each message (a thread\'s last first); a thread started from the message stays, empty', doc: 'https://discord.com/developers/docs/resources/message#delete-message' },
  telegram: {
    supported: true,
    how: 'deleteMessages {chat_id, message_ids} (a bot with can_post_messages deletes its own channel posts; only messages sent less than 48 hours ago)',
    doc: 'https://core.telegram.org/bots/api#deletemessage',
  },
  tiktok: { supported: false, how: 'the TikTok Content Posting API has no endpoint to delete a post; remove it in the TikTok app', doc: 'https://developers.tiktok.com/doc/content-posting-api-reference-direct-post' },
  googlebusiness: { supported: true, how: 'DELETE https://mybusiness.googleapis.com/v4/{name=accounts/*/locations/*/localPosts/*}', doc: 'https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/delete' },
};

/** Categories of adapter failure (docs/decisions/0002). */
export type AdapterErrorKind =
  | 'rate_limited'   // retry after `retryAfterMs`
  | 'auth_expired'   // refresh credentials, then retry once
  | 'rejected'       // permanent: the platform refused the content; message is the platform's
  | 'disconnected'   // the account must be reconnected (revoked token, wrong password)
  | 'transient';     // network error or 5xx: retry with backoff

/**
 * A typed failure from an adapter. `message` is the platform's own text. For the publishing
 * log, `opts` carries what the platform answered: `status` (its HTTP status), `endpoint`
 * (method and path, no query: `POST /2/tweets`) and `excerpt` (the start of its answer, secrets
 * removed, at most {@link EXCERPT_MAX_CHARS} characters; see {@link responseExcerpt}).
 * `notSent`: the failure certainly happened before anything reached the platform (a connection
 * refused, a name that does not resolve, a file that could not be read before the first call), so a
 * `transient` failure in `commit` with it is retried at once instead of verified first
 * (docs/decisions/0057-telegram.md); without it a transient commit failure is an unknown outcome.
 */
export class AdapterError extends Error {
  constructor(
    public readonly kind: AdapterErrorKind,
    message: string,
    public readonly opts: { retryAfterMs?: number; platformCode?: string; platformSubcode?: string; status?: number; endpoint?: string; excerpt?: string; notSent?: boolean } = {},
  ) {
    super(message);
    this.name = 'AdapterError';
  }
}

/**
 * Runs a platform's delete call for unpublish. A post the platform no longer has counts as deleted:
 * `gone` tells that error apart (by default an HTTP 404). Any other error is thrown.
 */
export async function deleteUnlessGone(call: () => Promise<unknown>, gone: (err: AdapterError) => boolean = (err) => err.opts.status === 404): Promise<void> {
  try {
    await call();
  } catch (err) {
    if (err instanceof AdapterError && gone(err)) return;
    throw err;
  }
}

/** Longest platform answer kept in a publishing log entry (characters). */
export const EXCERPT_MAX_CHARS = 2_000;

/** JSON keys whose values are credentials: never kept in a log. */
const SECRET_KEY = /token|secret|password|authorization|cookie|api[_-]?key|session|jwt|code_verifier|signature/i;

/**
 * A platform's answer made fit for the publishing log: values of secret-looking keys (tokens,
 * secrets, passwords, JWTs) replaced by `[redacted]`, bearer tokens in plain text likewise, and
 * the result cut to {@link EXCERPT_MAX_CHARS} characters.
 */
export function responseExcerpt(text: string): string {
  let out: string;
  try {
    out = JSON.stringify(JSON.parse(text), (k, v) => (k && SECRET_KEY.test(k) && (typeof v === 'string' || typeof v === 'number') ? '[redacted]' : v));
  } catch {
    out = text;
  }
  out = out.replace(/(bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[redacted]').replace(/eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, '[redacted]');
  return out.length > EXCERPT_MAX_CHARS ? `${out.slice(0, EXCERPT_MAX_CHARS - 1)}…` : out;
}
