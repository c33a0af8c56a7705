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
  type ConnectedAccount,
  type MediaRef,
  type PlatformAdapter,
  type PlatformCapabilities,
  type PublishRequest,
  type PublishResult,
  type RuleViolation,
  type VerifyResult,
  type VerifyWindow,
} from '../types.ts';
import {
  BLUESKY_DOCS_URL, BLUESKY_MAX_IMAGE_BYTES as MAX_IMAGE_BYTES, BLUESKY_MAX_IMAGES as MAX_IMAGES, BLUESKY_MAX_LANGS as MAX_LANGS, capabilitiesOf,
} from '../../shared/capabilities.ts';
import { imageDimensions } from './media.ts';
import { MAX_GRAPHEMES, MAX_TEXT_BYTES, buildFacets, countGraphemes, externalEmbed, firstLink, utf8Length, type Facet } from './richtext.ts';
import {
  type BlueskyCredentials,
  type BlueskySession,
  type HttpOptions,
  SessionStore,
  jwtClaims,
  jwtExpiry,
  loginWithAppPassword,
  parseCredentials,
} from './session.ts';
import { nextTid } from './tid.ts';
import { type FetchFn, XrpcRequestError, toAdapterError, xrpc } from './xrpc.ts';

export type { BlueskyCredentials } from './session.ts';
export { countGraphemes, utf8Length } from './richtext.ts';

/** The limits (and the docs page they come from) live in src/shared/capabilities.ts, shared with the composer. */
export { BLUESKY_DOCS_URL, MAX_IMAGE_BYTES, MAX_IMAGES, MAX_LANGS };
/** Default service (entryway) for app-password logins. */
export const DEFAULT_BLUESKY_SERVICE = 'https://bsky.social';
const POST_COLLECTION = 'app.bsky.feed.post';

/** Bluesky capabilities. */
export const BLUESKY_CAPABILITIES: PlatformCapabilities = Object.freeze(capabilitiesOf('bluesky'));

/** A blob reference as returned by `com.atproto.repo.uploadBlob` (JSON form). */
export interface BlobRefJson {
  $type: 'blob';
  ref: { $link: string };
  mimeType: string;
  /** Bytes. */
  size: number;
}

export interface BlueskyImagesEmbed {
  $type: 'app.bsky.embed.images';
  images: Array<{ image: BlobRefJson; alt: string; aspectRatio?: { width: number; height: number } }>;
}

export interface BlueskyExternalEmbed {
  $type: 'app.bsky.embed.external';
  external: { uri: string; title: string; description: string };
}

/** An `app.bsky.feed.post` record as prepared (the `reply` ref is added at commit, once parent CIDs are known). */
export interface BlueskyPostRecord {
  $type: 'app.bsky.feed.post';
  text: string;
  /** ISO 8601 UTC; thread items are 1 ms apart so they sort in order. */
  createdAt: string;
  facets?: Facet[];
  embed?: BlueskyImagesEmbed | BlueskyExternalEmbed;
  langs?: string[];
}

/**
 * What `prepare` hands to `commit`/`verify` (JSON, stored on the attempt row).
 * - `did`/`handle`: the account the records belong to.
 * - `posts`: one per post, in thread order (index 0 = root); `rkey` is the pre-generated TID record
 *   key, `record` the full record minus `reply`. Images are already uploaded (blob refs inside).
 * - `thread`: whether the request was a thread (the result then lists every item).
 */
export interface BlueskyPrepared {
  version: 1;
  did: string;
  handle: string;
  thread: boolean;
  posts: Array<{ rkey: string; record: BlueskyPostRecord }>;
}

interface StrongRef {
  uri: string;
  cid: string;
}

/** Options for {@link BlueskyAdapter}; all optional. */
export interface BlueskyAdapterOptions {
  /** fetch implementation (tests wrap it to count calls). Default: global fetch. */
  fetch?: FetchFn;
  /** Per-request timeout in ms (default 30,000; blob uploads get 4×). */
  timeoutMs?: number;
  /** Clock in ms since epoch (default Date.now). */
  now?: () => number;
}

/** One post to create, with where its fields live in the request (for violation paths). */
interface PlannedItem {
  text: string;
  textField: string;
  media: MediaRef[];
  mediaField: string;
}

function planItems(req: PublishRequest): PlannedItem[] {
  if (!req.threadItems?.length) {
    return [{ text: req.text ?? '', textField: 'content', media: req.mediaItems ?? [], mediaField: 'mediaItems' }];
  }
  return req.threadItems.map((it, i) => {
    if (i > 0) return { text: it.content ?? '', textField: `threadItems.${i}.content`, media: it.mediaItems ?? [], mediaField: `threadItems.${i}.mediaItems` };
    const own = (it.mediaItems?.length ?? 0) > 0;
    return {
      text: it.content ?? '',
      textField: 'threadItems.0.content',
      media: own ? it.mediaItems! : (req.mediaItems ?? []),
      mediaField: own ? 'threadItems.0.mediaItems' : 'mediaItems',
    };
  });
}

function langsOf(req: PublishRequest): unknown {
  return req.platformSpecificData?.langs;
}

function postUrl(handleOrDid: string, uri: string): string {
  const rkey = uri.slice(uri.lastIndexOf('/') + 1);
  const who = !handleOrDid || handleOrDid === 'handle.invalid' ? uri.slice(5, uri.indexOf('/', 5)) : handleOrDid;
  return `https://bsky.app/profile/${who}/post/${rkey}`;
}

function buildResult(handle: string, refs: StrongRef[], thread: boolean): PublishResult {
  const entries = refs.map((r) => ({ platformPostId: r.uri, platformPostUrl: postUrl(handle, r.uri) }));
  return {
    platformPostId: entries[0].platformPostId,
    platformPostUrl: entries[0].platformPostUrl,
    ...(thread ? { thread: entries } : {}),
    extra: { cid: refs[0].cid, uris: refs.map((r) => r.uri), cids: refs.map((r) => r.cid) },
  };
}

function assertPrepared(p: BlueskyPrepared): void {
  if (!p || p.version !== 1 || typeof p.did !== 'string' || !Array.isArray(p.posts) || p.posts.length === 0) {
    throw new AdapterError('rejected', 'Invalid prepared Bluesky post (unknown version or no posts); prepare again');
  }
}

/**
 * Reads one post record (`com.atproto.repo.getRecord`, public, no auth) from the PDS.
 * @returns the strong ref, or `null` when the PDS answers `RecordNotFound`.
 * @throws XrpcRequestError for any other failure.
 */
async function getPostRecord(http: HttpOptions, pdsUrl: string, did: string, rkey: string): Promise<StrongRef | null> {
  try {
    const r = await xrpc<{ uri: string; cid: string }>(http.fetch, pdsUrl, 'com.atproto.repo.getRecord', {
      query: { repo: did, collection: POST_COLLECTION, rkey },
      timeoutMs: http.timeoutMs,
    });
    return { uri: r.uri, cid: r.cid };
  } catch (e) {
    if (e instanceof XrpcRequestError && e.error === 'RecordNotFound') return null;
    throw e;
  }
}

/**
 * The Bluesky adapter. Credentials: {@link BlueskyCredentials}; prepared value: {@link BlueskyPrepared}.
 *
 * - `validate`: text ≤ 300 graphemes and ≤ 3000 UTF-8 bytes (root and every thread item), ≤ 4 images,
 *   images/GIFs only (no video, no documents), media only on the first thread item, images ≤ 1,000,000
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
  }

  /** All rule violations of `req`, without any network call. Empty array = publishable. */
  validate(req: PublishRequest): RuleViolation[] {
    const out: RuleViolation[] = [];
    const items = planItems(req);
    items.forEach((item, i) => {
      const graphemes = countGraphemes(item.text);
      if (graphemes > MAX_GRAPHEMES) {
        out.push({
          field: item.textField,
          rule: 'bluesky.text.max_graphemes',
          message: `Bluesky posts are limited to ${MAX_GRAPHEMES} graphemes (this text has ${graphemes})`,
        });
      }
      const bytes = utf8Length(item.text);
      if (bytes > MAX_TEXT_BYTES) {
        out.push({
          field: item.textField,
          rule: 'bluesky.text.max_bytes',
          message: `Bluesky posts are limited to ${MAX_TEXT_BYTES} bytes of UTF-8 text (this text has ${bytes})`,
        });
      }
      if (i > 0 && item.media.length > 0) {
        out.push({
          field: item.mediaField,
          rule: 'bluesky.thread.media_on_reply',
          message: 'On Bluesky only the first post of a thread can carry media (Herald attaches media to the first item only)',
        });
        return;
      }
      if (item.text.trim() === '' && item.media.length === 0) {
        out.push({ field: item.textField, rule: 'bluesky.text.empty', message: 'A Bluesky post needs text or at least one image' });
      }
      if (item.media.length > MAX_IMAGES) {
        out.push({
          field: item.mediaField,
          rule: 'bluesky.images.max_count',
          message: `Bluesky posts can carry at most ${MAX_IMAGES} images (this post has ${item.media.length})`,
        });
      }
      item.media.forEach((m, j) => {
        const field = `${item.mediaField}.${j}`;
        if (m.type === 'video') {
          out.push({
            field,
            rule: 'bluesky.media.video_unsupported',
            message: 'Video on Bluesky is not supported by Herald yet (it needs the video.bsky.app upload service); only images are allowed',
          });
        } else if (m.type !== 'image' && m.type !== 'gif') {
          out.push({ field, rule: 'bluesky.media.type', message: `Bluesky posts accept only images (image/*); a ${m.type} cannot be attached` });
        } else if (m.mimeType && !m.mimeType.toLowerCase().startsWith('image/')) {
          out.push({ field, rule: 'bluesky.media.type', message: `Bluesky images must be image/* (this file is ${m.mimeType})` });
        }
        if ((m.type === 'image' || m.type === 'gif') && typeof m.size === 'number' && m.size > MAX_IMAGE_BYTES) {
          out.push({
            field,
            rule: 'bluesky.image.max_bytes',
            message: `Bluesky images are limited to ${MAX_IMAGE_BYTES.toLocaleString('en-US')} bytes (this one has ${m.size.toLocaleString('en-US')})`,
          });
        }
      });
    });
    const langs = langsOf(req);
    if (langs !== undefined && (!Array.isArray(langs) || langs.length > MAX_LANGS || langs.some((l) => typeof l !== 'string' || !l))) {
      out.push({
        field: 'platformSpecificData.langs',
        rule: 'bluesky.langs.max_count',
        message: `Bluesky post languages must be a list of at most ${MAX_LANGS} language tags (e.g. ["en"])`,
      });
    }
    return out;
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
    const items = planItems(req);
    const langs = langsOf(req) as string[] | undefined;
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
        for (const [j, m] of item.media.entries()) images.push(await this.uploadImage(ctx, session, m, `${item.mediaField}.${j}`));
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

  private async uploadImage(ctx: AdapterContext, session: BlueskySession, item: MediaRef, field: string): Promise<BlueskyImagesEmbed['images'][number]> {
    let media: { bytes: Buffer; mimeType: string };
    try {
      media = await ctx.fetchMedia(item, MAX_IMAGE_BYTES);
    } catch (e) {
      if (e instanceof AdapterError) throw e;
      throw new AdapterError('transient', `Could not read ${field} (${item.url}): ${(e as Error)?.message ?? String(e)}`);
    }
    if (media.bytes.length > MAX_IMAGE_BYTES) {
      throw new AdapterError(
        'rejected',
        `Bluesky images are limited to ${MAX_IMAGE_BYTES.toLocaleString('en-US')} bytes (${field} has ${media.bytes.length.toLocaleString('en-US')})`,
        { platformCode: 'bluesky.image.max_bytes' },
      );
    }
    const mimeType = (media.mimeType || item.mimeType || '').toLowerCase();
    if (!mimeType.startsWith('image/')) {
      throw new AdapterError('rejected', `Bluesky images must be image/* (${field} is ${mimeType || 'of unknown type'})`, { platformCode: 'bluesky.media.type' });
    }
    const res = await session.call<{ blob: BlobRefJson }>('com.atproto.repo.uploadBlob', {
      bytes: media.bytes,
      contentType: mimeType,
      timeoutMs: this.http.timeoutMs * 4,
    });
    const dims = imageDimensions(media.bytes);
    return { image: res.blob, alt: item.altText ?? '', ...(dims ? { aspectRatio: dims } : {}) };
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
        refs.push(await this.createOrRecover(ctx, session, prepared.did, post.rkey, record));
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

  private async createOrRecover(ctx: AdapterContext, session: BlueskySession, did: string, rkey: string, record: object): Promise<StrongRef> {
    try {
      const r = await session.call<{ uri: string; cid: string }>('com.atproto.repo.createRecord', {
        json: { repo: did, collection: POST_COLLECTION, rkey, record },
      });
      return { uri: r.uri, cid: r.cid };
    } catch (e) {
      const err = toAdapterError(e, this.http.now());
      if (err.kind !== 'transient' && err.kind !== 'rejected') throw err;
      // The rkey may already be taken by an earlier commit of this same prepared post (the PDS
      // refuses it), or the create went through but its answer was lost: look the record up.
      let existing: StrongRef | null;
      try {
        existing = await getPostRecord(this.http, session.creds.pdsUrl, did, rkey);
      } catch {
        throw err;
      }
      if (!existing) throw err;
      ctx.log('bluesky: record already exists, reusing it', { did, rkey, uri: existing.uri });
      return existing;
    }
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

/** Options for {@link connectBluesky}. */
export interface ConnectBlueskyOptions {
  fetch?: FetchFn;
  /** Per-request timeout in ms (default 30,000). */
  timeoutMs?: number;
}

/**
 * Connects a Bluesky account with an app password.
 *
 * Calls `com.atproto.server.createSession` at `serviceUrl` (`https://bsky.social` for bsky.social
 * accounts, or a self-hosted PDS), takes the account's PDS from the session's didDoc, and reads the
 * profile with `app.bsky.actor.getProfile` (falling back to the `app.bsky.actor.profile/self` record,
 * then to the handle, since a PDS without an AppView cannot serve it).
 *
 * @param serviceUrl http(s) base URL of the entryway/PDS.
 * @param identifier handle (a leading `@` is ignored), email or DID.
 * @param appPassword an app password (`xxxx-xxxx-xxxx-xxxx`). The account's main password is refused.
 * @returns platformUserId = DID, username = handle, credentials = {@link BlueskyCredentials},
 *   tokenExpiresAt = refresh JWT expiry (or null), settings `{ pdsUrl, did, serviceUrl }`.
 * @throws AdapterError('disconnected') wrong identifier/password, main password, 2FA, takedown;
 *   'rejected' invalid service URL; 'rate_limited'; 'transient' (service unreachable).
 */
export async function connectBluesky(serviceUrl: string, identifier: string, appPassword: string, opts: ConnectBlueskyOptions = {}): Promise<ConnectedAccount> {
  const http: HttpOptions = {
    fetch: opts.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs: opts.timeoutMs ?? 30_000,
    now: Date.now,
  };
  let service: string;
  try {
    const u = new URL((serviceUrl || DEFAULT_BLUESKY_SERVICE).trim());
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('not http(s)');
    service = u.origin;
  } catch {
    throw new AdapterError('rejected', `Invalid Bluesky service URL: ${serviceUrl}`);
  }
  const id = (identifier ?? '').trim().replace(/^@/, '');
  const password = (appPassword ?? '').trim();
  if (!id || !password) throw new AdapterError('disconnected', 'A Bluesky handle (or email/DID) and an app password are required');

  const creds = await loginWithAppPassword(http, { identifier: id, appPassword: password, serviceUrl: service }, 'connect');
  if (jwtClaims(creds.accessJwt)?.scope === 'com.atproto.access') {
    // Full-access session: the user typed the account password. Don't store it; end that session.
    await xrpc(http.fetch, service, 'com.atproto.server.deleteSession', { method: 'POST', token: creds.refreshJwt, timeoutMs: http.timeoutMs }).catch(() => undefined);
    throw new AdapterError(
      'disconnected',
      'That is the Bluesky account password; create an app password instead (Bluesky settings → Privacy and security → App passwords)',
      { platformCode: 'MainPasswordRefused' },
    );
  }

  let displayName: string | undefined;
  let profilePicture: string | undefined;
  try {
    const p = await xrpc<{ displayName?: string; avatar?: string }>(http.fetch, creds.pdsUrl, 'app.bsky.actor.getProfile', {
      query: { actor: creds.did },
      token: creds.accessJwt,
      timeoutMs: Math.min(http.timeoutMs, 10_000),
    });
    displayName = p.displayName || undefined;
    profilePicture = p.avatar || undefined;
  } catch {
    try {
      const r = await xrpc<{ value?: { displayName?: string; avatar?: BlobRefJson } }>(http.fetch, creds.pdsUrl, 'com.atproto.repo.getRecord', {
        query: { repo: creds.did, collection: 'app.bsky.actor.profile', rkey: 'self' },
        timeoutMs: Math.min(http.timeoutMs, 10_000),
      });
      displayName = r.value?.displayName || undefined;
      const cid = r.value?.avatar?.ref?.$link;
      if (cid) profilePicture = `${creds.pdsUrl}/xrpc/com.atproto.sync.getBlob?did=${encodeURIComponent(creds.did)}&cid=${encodeURIComponent(cid)}`;
    } catch {
      /* no profile record: fall back to the handle */
    }
  }

  return {
    platformUserId: creds.did,
    username: creds.handle,
    displayName: displayName ?? creds.handle,
    ...(profilePicture ? { profilePicture } : {}),
    credentials: { ...creds },
    tokenExpiresAt: jwtExpiry(creds.refreshJwt),
    settings: { pdsUrl: creds.pdsUrl, did: creds.did, serviceUrl: service },
    permissions: ['posts:write', 'posts:read'],
  };
}
