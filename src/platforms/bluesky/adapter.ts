/**
 * Bluesky (AT Protocol) adapter: app-password sessions, posts with links/mentions/hashtags,
 * up to 4 images, link cards and threads, published idempotently with pre-generated record keys.
 *
 * Rules come from https://docs.bsky.app/docs/advanced-guides/posts and the `app.bsky.*` lexicons
 * (https://github.com/bluesky-social/atproto/tree/main/lexicons). Video (video.bsky.app) is not supported yet.
 *
 * Idempotency: `prepare` picks one TID record key per post; `commit` creates each record with
 * `com.atproto.repo.createRecord` and that `rkey`. A repeated commit cannot duplicate a post: the
 * PDS refuses an existing rkey (the reference PDS answers `500 InternalServerError`), and any failed
 * create is followed by a `getRecord` of that rkey; a record found there counts as created.
 */
import {
  AdapterError,
  type AccountContext,
  type AdapterContext,
  type PlatformAdapter,
  type PlatformCapabilities,
  type PublishRequest,
  type PublishResult,
  type RuleViolation,
  type VerifyResult,
  type VerifyWindow,
  mapMetrics, type PostMetrics, type PublishedPost,
} from '../types.ts';
import { assertPrepared, buildResult, createOrRecover, deletePostRecords, getPostRecord } from './publish.ts';
import type { BlueskyImagesEmbed, BlueskyPostRecord, BlueskyPrepared, StrongRef } from './records.ts';
import { buildFacets, externalEmbed, firstLink, type Facet } from './richtext.ts';
import { BLUESKY_CAPABILITIES, MAX_IMAGE_BYTES } from './rules.ts';
import { blueskyRules, planBlueskyItems } from '../../shared/rules/bluesky.ts';
import { type BlueskyCredentials, type HttpOptions, SessionStore, parseCredentials } from './session.ts';
import { nextTid } from './tid.ts';
import { uploadImage } from './upload.ts';
import { type FetchFn, toAdapterError } from './xrpc.ts';

// The adapter's pieces: rules.ts (validate, capabilities, limits), upload.ts (images for prepare),
// publish.ts (createRecord/getRecord and the result), records.ts (record shapes), connect.ts (app-password login).
export type { BlueskyCredentials } from './session.ts';
export { countGraphemes, utf8Length } from './richtext.ts';
export { BLUESKY_CAPABILITIES, BLUESKY_DOCS_URL, MAX_IMAGE_BYTES, MAX_IMAGES, MAX_LANGS } from './rules.ts';
export type { BlobRefJson, BlueskyExternalEmbed, BlueskyImagesEmbed, BlueskyPostRecord, BlueskyPrepared } from './records.ts';
export { DEFAULT_BLUESKY_SERVICE, connectBluesky, type ConnectBlueskyOptions } from './connect.ts';

/** Options for {@link BlueskyAdapter}; all optional. */
export interface BlueskyAdapterOptions {
  /** fetch implementation (tests wrap it to count calls). Default: global fetch. */
  fetch?: FetchFn;
  /** Per-request timeout in ms (default 30,000; blob uploads get 4×). */
  timeoutMs?: number;
  /** Clock in ms since epoch (default Date.now). */
  now?: () => number;
  /**
   * Largest image in bytes (default 2,000,000, `maxSize` of app.bsky.embed.images). A PDS still
   * on the older lexicon refuses images over 1,000,000 ("blob too big"); set this for such a PDS.
   */
  maxImageBytes?: number;
}

/**
 * The Bluesky adapter. Credentials: {@link BlueskyCredentials}; prepared value: {@link BlueskyPrepared}.
 *
 * - `validate`: text ≤ 300 graphemes and ≤ 3000 UTF-8 bytes (root and every thread item), ≤ 4 images,
 *   images/GIFs only (no video, no documents), media only on the first thread item, images ≤ 2,000,000
 *   bytes when the size is known, `platformSpecificData.langs` ≤ 3 strings, no empty post.
 * - `prepare`: session check (refresh/login if needed), blob uploads, facets (mentions resolved on the
 *   PDS), link card for the first link when there are no images (`platformSpecificData.linkCard:
 *   false` turns it off; the page is not fetched: title = host + path), one TID rkey per post.
 * - `commit`: creates the records in order; thread item N replies to item N-1 (root = item 0).
 * - `verify`: `getRecord` for every rkey. All exist → published; otherwise → not_published, also
 *   when a thread was cut in the middle: commit is safe to run again and resumes at the first missing
 *   item (existing items are read back, never duplicated). Network trouble → unknown.
 *
 * Errors: {@link AdapterError} — `rate_limited` (429, `retryAfterMs` from `RateLimit-Reset`),
 * `auth_expired` (still expired after one refresh), `disconnected` (refresh and app-password login
 * both refused), `rejected` (4xx, the platform's message), `transient` (network, timeouts, 5xx).
 */
export class BlueskyAdapter implements PlatformAdapter<BlueskyCredentials, BlueskyPrepared> {
  readonly platform = 'bluesky' as const;
  readonly capabilities: PlatformCapabilities = BLUESKY_CAPABILITIES;
  private readonly http: HttpOptions;
  private readonly sessions: SessionStore;

  constructor(opts: BlueskyAdapterOptions = {}) {
    this.http = {
      fetch: opts.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      timeoutMs: opts.timeoutMs ?? 30_000,
      now: opts.now ?? Date.now,
    };
    this.sessions = new SessionStore(this.http);
    this.maxImageBytes = opts.maxImageBytes ?? MAX_IMAGE_BYTES;
  }

  private readonly maxImageBytes: number;

  /** All rule violations of `req`, without any network call. Empty array = publishable. */
  validate(req: PublishRequest): RuleViolation[] {
    return blueskyRules.check(req, { maxImageBytes: this.maxImageBytes });
  }

  /**
   * Post counts, 25 posts a call (`GET /xrpc/app.bsky.feed.getPosts?uris=…` on the account's PDS, which
   * serves it from the AppView it is configured with; https://docs.bsky.app/docs/api/app-bsky-feed-get-posts):
   * likes, replies (comments), reposts + quotes (shares), bookmarks (saves, where the AppView counts them).
   * Bluesky has no view or impression counts. Deleted posts are left out.
   */
  async fetchMetrics(ctx: AdapterContext, account: AccountContext<BlueskyCredentials>, platformPostIds: string[]): Promise<Map<string, PostMetrics>> {
    const out = new Map<string, PostMetrics>();
    const session = this.sessions.open(ctx, account);
    for (let i = 0; i < platformPostIds.length; i += 25) {
      const body = await session.call<{ posts?: Array<Record<string, unknown> & { uri: string }> }>('app.bsky.feed.getPosts', { query: { uris: platformPostIds.slice(i, i + 25) } });
      for (const p of body.posts ?? []) out.set(p.uri, mapMetrics('bluesky', p));
    }
    return out;
  }

  /**
   * A post without media and without `@` in any item's text, while the account's session is fresh: its
   * facets are links and tags, found in the text (only a mention is resolved on the PDS:
   * https://docs.bsky.app/docs/advanced-guides/post-richtext), nothing is uploaded and the session needs no
   * renewal, so prepare makes no request (decision 0076).
   */
  preparesOffline(req: PublishRequest, account: AccountContext<BlueskyCredentials>): boolean {
    return !this.sessions.needsRenewal(account) && planBlueskyItems(req).every((item) => item.media.length === 0 && !item.text.includes('@'));
  }

  /**
   * Uploads images and builds the records (see {@link BlueskyPrepared}). Safe to retry: uploads
   * are invisible until referenced; a retry only picks new rkeys.
   * @throws AdapterError('rejected') when `validate` finds violations or a fetched image breaks a rule.
   */
  async prepare(ctx: AdapterContext, account: AccountContext<BlueskyCredentials>, req: PublishRequest): Promise<BlueskyPrepared> {
    const violations = this.validate(req);
    if (violations.length) {
      throw new AdapterError('rejected', violations.map((v) => v.message).join('; '), { platformCode: violations[0].rule });
    }
    const session = this.sessions.open(ctx, account);
    await session.ensureFresh();
    const items = planBlueskyItems(req);
    const langs = req.platformSpecificData?.langs as string[] | undefined;
    const linkCard = req.platformSpecificData?.linkCard !== false;
    const base = this.http.now();
    const posts: BlueskyPrepared['posts'] = [];
    for (const [i, item] of items.entries()) {
      let facets: Facet[] | undefined;
      try {
        facets = await buildFacets(item.text, session.creds.pdsUrl, this.http.fetch, this.http.timeoutMs);
      } catch (e) {
        throw toAdapterError(e, this.http.now());
      }
      let embed: BlueskyPostRecord['embed'];
      if (item.media.length > 0) {
        const images: BlueskyImagesEmbed['images'] = [];
        for (const [j, m] of item.media.entries()) images.push(await uploadImage(ctx, session, m, `${item.mediaField}.${j}`, this.http.timeoutMs, this.maxImageBytes));
        embed = { $type: 'app.bsky.embed.images', images };
      } else if (linkCard) {
        const link = firstLink(facets);
        if (link) embed = externalEmbed(link);
      }
      const record: BlueskyPostRecord = {
        $type: 'app.bsky.feed.post',
        text: item.text,
        createdAt: new Date(base + i).toISOString(),
        ...(facets ? { facets } : {}),
        ...(embed ? { embed } : {}),
        ...(langs?.length ? { langs } : {}),
      };
      posts.push({ rkey: nextTid(base), record });
    }
    return { version: 1, did: session.creds.did, handle: session.creds.handle, thread: (req.threadItems?.length ?? 0) > 0, posts };
  }

  /**
   * Creates the prepared records in order (the visible step). Resumes safely after a partial run.
   * @returns platformPostId = root `at://` URI, platformPostUrl = bsky.app URL, `thread` for threads,
   *   `extra: { cid, uris, cids }`.
   * @throws AdapterError; a failure after the root was created says how many thread items are live.
   */
  async commit(ctx: AdapterContext, account: AccountContext<BlueskyCredentials>, _req: PublishRequest, prepared: BlueskyPrepared): Promise<PublishResult> {
    assertPrepared(prepared);
    const session = this.sessions.open(ctx, account);
    if (session.creds.did !== prepared.did) {
      throw new AdapterError('rejected', `This post was prepared for ${prepared.did}, but the account is now ${session.creds.did}; prepare it again`);
    }
    const refs: StrongRef[] = [];
    for (const [i, post] of prepared.posts.entries()) {
      const record = i === 0 ? post.record : { ...post.record, reply: { root: refs[0], parent: refs[i - 1] } };
      try {
        refs.push(await createOrRecover(this.http, ctx, session, prepared.did, post.rkey, record));
      } catch (e) {
        const err = toAdapterError(e, this.http.now());
        if (i === 0) throw err;
        throw new AdapterError(
          err.kind,
          `Bluesky thread partially published: ${i} of ${prepared.posts.length} posts are live (root ${refs[0].uri}); committing again resumes at post ${i + 1}. Cause: ${err.message}`,
          err.opts,
        );
      }
    }
    return buildResult(session.creds.handle, refs, prepared.thread || prepared.posts.length > 1);
  }

  /**
   * Looks up every prepared rkey (public `getRecord`, no session needed).
   * All found → `published` (result rebuilt); none or only some (a thread cut in the middle) →
   * `not_published`: committing again is safe and resumes at the first missing item;
   * any lookup failure (network, 5xx) → `unknown`.
   */
  /**
   * Exact by construction: the record keys were chosen in prepare, so this is a getRecord of
   * each key (no look-back needed, `_window` unused). Records missing from a partially
   * published thread are created by the next commit under the same keys.
   */
  /**
   * Deletes the post's records (a thread's last first) with com.atproto.repo.deleteRecord
   * (https://docs.bsky.app/docs/api/com-atproto-repo-delete-record); deleting a record that is
   * already gone succeeds.
   */
  async unpublish(ctx: AdapterContext, account: AccountContext<BlueskyCredentials>, post: PublishedPost): Promise<void> {
    const session = this.sessions.open(ctx, account);
    try {
      await deletePostRecords(session, post.threadIds.length ? post.threadIds : [post.platformPostId]);
    } catch (e) {
      throw toAdapterError(e, this.http.now());
    }
  }

  async verify(ctx: AdapterContext, account: AccountContext<BlueskyCredentials>, _req: PublishRequest, prepared: BlueskyPrepared, _window?: VerifyWindow): Promise<VerifyResult<BlueskyPrepared>> {
    try {
      assertPrepared(prepared);
    } catch (e) {
      return { status: 'unknown', reason: (e as Error).message };
    }
    let pdsUrl: string;
    let handle: string;
    try {
      const creds = this.sessions.freshest(parseCredentials(account.credentials));
      pdsUrl = creds.pdsUrl;
      handle = creds.handle;
    } catch (e) {
      return { status: 'unknown', reason: (e as Error).message };
    }
    let found: Array<StrongRef | null>;
    try {
      found = await Promise.all(prepared.posts.map((p) => getPostRecord(this.http, pdsUrl, prepared.did, p.rkey)));
    } catch (e) {
      return { status: 'unknown', reason: `Could not ask Bluesky whether the post exists: ${(e as Error)?.message ?? String(e)}` };
    }
    const present = found.filter((r): r is StrongRef => r !== null);
    if (present.length === prepared.posts.length) {
      return { status: 'published', result: buildResult(handle, present, prepared.thread || prepared.posts.length > 1) };
    }
    if (present.length > 0) {
      ctx.log('bluesky: thread partially published; a new commit resumes it', { did: prepared.did, present: present.length, total: prepared.posts.length });
    }
    return { status: 'not_published' };
  }
}
