/**
 * Threads API adapter: text (500 characters), one image, one
 * video, carousels, and threads as replies (`reply_to_id`). Source:
 * https://developers.facebook.com/documentation/threads/posts.
 *
 * Publishing is container-based, which maps onto Herald's two phases:
 * - `prepare` creates the root container (`POST /{user-id}/threads`; carousel children
 *   first, `is_carousel_item=true`) and polls `GET /{container-id}?fields=status,error_message`
 *   until `FINISHED` (`ERROR` -> rejected with Threads' message, `EXPIRED` -> transient, so a
 *   retry prepares a new container). Containers are invisible until published.
 * - `commit` calls `POST /{user-id}/threads_publish?creation_id=<container>`, then for each
 *   further thread item creates a text container with `reply_to_id=<previous media id>` and
 *   publishes it. The permalink is read with `GET /{media-id}?fields=permalink`. A failure
 *   after the root is live is transient (unless Threads refused the item), so the publisher
 *   verifies and resumes after the live posts.
 * - `verify` asks for the root container's status: `PUBLISHED` -> the root exists (its id is
 *   found in the user's threads back to before the attempt, by text), and the replies are
 *   followed in the user's replies; `FINISHED` -> not published (safe to publish the same
 *   container); anything else -> unknown. A partly live thread resumes (see {@link ThreadsAdapter.verify}).
 *
 * Media is passed by public URL (`image_url`, `video_url`): Threads downloads it, so media
 * URLs must be reachable from the internet. Text length counts emoji as their UTF-8 byte
 * length (see {@link threadsTextLength}).
 */
import type { OAuthProvider, PlatformApp } from '../oauth.ts';
import { withAccessToken } from '../oauth-session.ts';
import {
  AdapterError, type AccountContext, type AdapterContext, type MediaRef, type PlatformAdapter, type PlatformCapabilities,
  type PublishRequest, type PublishResult, type PublishedPost, deleteUnlessGone, type RuleViolation, type VerifyResult, type VerifyWindow, VERIFY_MAX_PAGES,
  mapMetrics, type PostMetrics,
 lookupFailed,
} from '../types.ts';
import { graphJson, isGraphObjectMissing, graphLookBack, type GraphListPage, insightCounts, type GraphInsights } from '../meta/graph.ts';
import { THREADS_API_VERSION } from './oauth.ts';
import {
  capabilitiesOf, THREADS_CAROUSEL_MAX, THREADS_IMAGE_MAX_BYTES, THREADS_MAX_TEXT, THREADS_VIDEO_MAX_BYTES, THREADS_VIDEO_MAX_SECONDS,
} from '../../shared/capabilities.ts';
import { threadsRules } from '../../shared/rules/threads.ts';
import { threadsTextLength } from '../../shared/post-rules.ts';

/** The limits and Threads' text length live in src/shared/ (shared with the composer). */
export { THREADS_IMAGE_MAX_BYTES, THREADS_MAX_TEXT, THREADS_VIDEO_MAX_BYTES, THREADS_VIDEO_MAX_SECONDS, threadsTextLength };

/** Tunables for facts Threads' own pages do not state (UNCONFIRMED) or sources disagree on (CONFLICT). */
export interface ThreadsOptions {
  /**
   * Most items in a carousel: 2 to 20 (https://developers.facebook.com/docs/threads/posts;
   * third-party guides said 10 or 20). Default 20.
   */
  carouselMax?: number;
  /** Interval between container status polls, ms (Threads advises about 30 s on average for media). Default 2,000. */
  pollIntervalMs?: number;
  /** Give up waiting for a container after this long, ms (transient: retried later). Default 5 minutes. */
  pollTimeoutMs?: number;
}

export const THREADS_CAPABILITIES: PlatformCapabilities = capabilitiesOf('threads');

export interface ThreadsPrepared {
  preparedAt: string;
  /** The root container (the one published first). */
  containerId: string;
  /** Texts of the thread: [root, reply 1, ...]. */
  texts: string[];
  /** An existing Threads post the root replies to (platformSpecificData.replyToId). */
  replyToId?: string;
  /** The root container's media_type (absent in attempts prepared before it was recorded). */
  mediaType?: 'TEXT' | 'IMAGE' | 'VIDEO' | 'CAROUSEL';
  /** Ids of the thread's first posts that are already live (set by verify, so commit resumes after them). */
  posted?: string[];
}

/** A post as the threads and replies edges return it with the fields verify asks for. */
interface ListedPost { id: string; text?: string; timestamp?: string; permalink?: string; media_type?: string; replied_to?: { id?: string } }
const LISTED_TYPE: Record<NonNullable<ThreadsPrepared['mediaType']>, string> = { TEXT: 'TEXT_POST', IMAGE: 'IMAGE', VIDEO: 'VIDEO', CAROUSEL: 'CAROUSEL_ALBUM' };

type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';

export class ThreadsAdapter implements PlatformAdapter<Record<string, unknown>, ThreadsPrepared> {
  readonly platform = 'threads' as const;
  readonly capabilities: PlatformCapabilities;
  private readonly opts: Required<ThreadsOptions>;

  constructor(private readonly provider: OAuthProvider, private readonly app: () => PlatformApp, opts: ThreadsOptions = {}) {
    this.opts = { carouselMax: THREADS_CAROUSEL_MAX, pollIntervalMs: 2000, pollTimeoutMs: 5 * 60_000, ...opts };
    this.capabilities = { ...THREADS_CAPABILITIES, maxImages: this.opts.carouselMax, maxVideos: this.opts.carouselMax };
  }

  /** The shared rule table (src/shared/rules/threads.ts) with this adapter's carousel limit; every thread item is checked. */
  validate(req: PublishRequest): RuleViolation[] {
    return threadsRules.check(req, { carouselMax: this.opts.carouselMax });
  }

  /**
   * Post insights, one call per post (`GET /{media_id}/insights?metric=views,likes,replies,reposts,quotes,shares`,
   * https://developers.facebook.com/docs/threads/insights). A post without insights (a repost) answers
   * an empty list and is left out.
   */
  async fetchMetrics(ctx: AdapterContext, account: AccountContext, platformPostIds: string[]): Promise<Map<string, PostMetrics>> {
    const out = new Map<string, PostMetrics>();
    for (const id of platformPostIds) {
      const body = await this.call(ctx, account, async (token, base) => (await graphJson<GraphInsights>(base, `/${THREADS_API_VERSION}/${id}/insights`, {
        token, query: { metric: 'views,likes,replies,reposts,quotes,shares' },
      })).body);
      const counts = insightCounts(body);
      if (Object.keys(counts).length) out.set(id, mapMetrics('threads', counts));
    }
    return out;
  }

  /**
   * Deletes the post, and every post of a thread (last reply first): `DELETE /{threads-media-id}`
   * answering `{success: true, deleted_id}` (permission threads_delete; at most 100 deletes per
   * account per day; https://developers.facebook.com/docs/threads/posts/delete-posts). A post Threads
   * no longer has (Graph error 100, subcode 33: "does not exist") counts as deleted. A token from
   * before Herald asked for threads_delete is refused (403, code 10): reconnect the account.
   */
  async unpublish(ctx: AdapterContext, account: AccountContext, post: PublishedPost): Promise<void> {
    const ids = post.threadIds.length ? [...post.threadIds].reverse() : [post.platformPostId];
    for (const id of ids) {
      try {
        await deleteUnlessGone(() => this.call(ctx, account, async (token, base) => (await graphJson(base, `/${THREADS_API_VERSION}/${encodeURIComponent(id)}`, { method: 'DELETE', token })).body),
          isGraphObjectMissing);
      } catch (err) {
        if (err instanceof AdapterError && err.opts.status === 403) {
          throw new AdapterError(err.kind, `${err.message}; reconnect the Threads account to grant Herald the threads_delete permission`, err.opts);
        }
        throw err;
      }
    }
  }


  private call<T>(ctx: AdapterContext, account: AccountContext, fn: (token: string, base: string) => Promise<T>): Promise<T> {
    const app = this.app();
    return withAccessToken(ctx, account, this.provider, app, (token) => fn(token, app.apiBaseUrl));
  }

  private async createContainer(ctx: AdapterContext, account: AccountContext, params: Record<string, string>): Promise<string> {
    return this.call(ctx, account, async (token, base) => (await graphJson<{ id: string }>(base, `/${THREADS_API_VERSION}/${account.platformUserId}/threads`, {
      method: 'POST', token, form: params,
    })).body.id);
  }

  private async status(ctx: AdapterContext, account: AccountContext, id: string): Promise<{ status: ContainerStatus; error_message?: string }> {
    return this.call(ctx, account, async (token, base) => (await graphJson<{ status: ContainerStatus; error_message?: string }>(
      base, `/${THREADS_API_VERSION}/${id}`, { token, query: { fields: 'status,error_message' } })).body);
  }

  /** Polls a container until FINISHED. @throws AdapterError rejected (ERROR), transient (EXPIRED, timeout). */
  private async waitFinished(ctx: AdapterContext, account: AccountContext, id: string, what: string): Promise<void> {
    const deadline = Date.now() + this.opts.pollTimeoutMs;
    for (;;) {
      const s = await this.status(ctx, account, id);
      if (s.status === 'FINISHED' || s.status === 'PUBLISHED') return;
      if (s.status === 'ERROR') throw new AdapterError('rejected', `Threads could not process the ${what}: ${s.error_message ?? 'ERROR'}`);
      if (s.status === 'EXPIRED') throw new AdapterError('transient', `The Threads container for the ${what} expired before it was published`);
      if (Date.now() > deadline) throw new AdapterError('transient', `Threads is still processing the ${what}`);
      await new Promise((r) => setTimeout(r, this.opts.pollIntervalMs));
    }
  }

  private mediaParams(m: MediaRef): Record<string, string> {
    return m.type === 'video' ? { media_type: 'VIDEO', video_url: m.url } : { media_type: 'IMAGE', image_url: m.url, ...(m.altText ? { alt_text: m.altText } : {}) };
  }

  async prepare(ctx: AdapterContext, account: AccountContext, req: PublishRequest): Promise<ThreadsPrepared> {
    const texts = req.threadItems.length > 0 ? req.threadItems.map((t) => t.content) : [req.text];
    const replyToId = typeof req.platformSpecificData.replyToId === 'string' ? req.platformSpecificData.replyToId : undefined;
    const common: Record<string, string> = { ...(texts[0] ? { text: texts[0] } : {}), ...(replyToId ? { reply_to_id: replyToId } : {}) };
    let containerId: string;
    const mediaType: NonNullable<ThreadsPrepared['mediaType']> = req.mediaItems.length > 1 ? 'CAROUSEL' : req.mediaItems[0]?.type === 'video' ? 'VIDEO' : req.mediaItems.length ? 'IMAGE' : 'TEXT';
    if (req.mediaItems.length > 1) {
      const children: string[] = [];
      for (const m of req.mediaItems) children.push(await this.createContainer(ctx, account, { ...this.mediaParams(m), is_carousel_item: 'true' }));
      for (const [i, c] of children.entries()) await this.waitFinished(ctx, account, c, `carousel item ${i + 1}`);
      containerId = await this.createContainer(ctx, account, { media_type: 'CAROUSEL', children: children.join(','), ...common });
    } else if (req.mediaItems.length === 1) {
      containerId = await this.createContainer(ctx, account, { ...this.mediaParams(req.mediaItems[0]), ...common });
    } else {
      containerId = await this.createContainer(ctx, account, { media_type: 'TEXT', ...common });
    }
    await this.waitFinished(ctx, account, containerId, req.mediaItems.length > 1 ? 'carousel' : req.mediaItems[0]?.type ?? 'text');
    return { preparedAt: new Date().toISOString(), containerId, texts, mediaType, ...(replyToId ? { replyToId } : {}) };
  }

  private async publish(ctx: AdapterContext, account: AccountContext, creationId: string): Promise<string> {
    return this.call(ctx, account, async (token, base) => (await graphJson<{ id: string }>(
      base, `/${THREADS_API_VERSION}/${account.platformUserId}/threads_publish`, { method: 'POST', token, query: { creation_id: creationId } })).body.id);
  }

  private async permalink(ctx: AdapterContext, account: AccountContext, mediaId: string): Promise<string> {
    try {
      return await this.call(ctx, account, async (token, base) => (await graphJson<{ permalink?: string }>(
        base, `/${THREADS_API_VERSION}/${mediaId}`, { token, query: { fields: 'id,permalink' } })).body.permalink ?? `https://www.threads.net/@${account.username}`);
    } catch {
      return `https://www.threads.net/@${account.username}`; // the post is live; the URL is cosmetic
    }
  }

  async commit(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: ThreadsPrepared): Promise<PublishResult> {
    const thread: Array<{ platformPostId: string; platformPostUrl: string }> = [];
    // A resumed thread (verify found its first posts live) continues after them.
    for (const id of prepared.posted ?? []) thread.push({ platformPostId: id, platformPostUrl: await this.permalink(ctx, account, id) });
    if (thread.length === 0) {
      const rootId = await this.publish(ctx, account, prepared.containerId);
      thread.push({ platformPostId: rootId, platformPostUrl: await this.permalink(ctx, account, rootId) });
    }
    for (const [i, text] of prepared.texts.entries()) {
      if (i < thread.length) continue;
      try {
        const c = await this.createContainer(ctx, account, { media_type: 'TEXT', text, reply_to_id: thread[thread.length - 1].platformPostId });
        await this.waitFinished(ctx, account, c, `thread item ${i + 1}`);
        const id = await this.publish(ctx, account, c);
        thread.push({ platformPostId: id, platformPostUrl: await this.permalink(ctx, account, id) });
      } catch (err) {
        // The first posts are live: a refusal fails the target (naming them); anything else is
        // transient, so the publisher verifies (and resumes after the live posts) instead of preparing again.
        const e = err instanceof AdapterError ? err : new AdapterError('transient', (err as Error).message);
        const live = `the first ${i} post(s) of the thread are live: ${thread.map((t) => t.platformPostUrl).join(', ')}`;
        if (e.kind === 'rejected') throw new AdapterError('rejected', `${e.message} (${live})`, e.opts);
        throw new AdapterError('transient', `${e.message} (${live})`, e.opts);
      }
    }
    return { ...thread[0], ...(thread.length > 1 ? { thread } : {}) };
  }

  /** One edge of the user's posts (`threads` or `replies`) back to `since`, 100 a call. */
  private async lookBack(ctx: AdapterContext, account: AccountContext, edge: 'threads' | 'replies', since: Date): Promise<ListedPost[] | null> {
    const r = await graphLookBack<ListedPost>((after) => this.call(ctx, account, async (token, base) => (await graphJson<GraphListPage<ListedPost>>(
      base, `/${THREADS_API_VERSION}/${account.platformUserId}/${edge}`, {
        token, query: { fields: 'id,text,timestamp,permalink,media_type,replied_to', since: Math.floor(since.getTime() / 1000), limit: 100, ...(after ? { after } : {}) },
      })).body), (p) => (p.timestamp ? Date.parse(p.timestamp) : undefined), since, VERIFY_MAX_PAGES);
    return r.complete ? r.items : null;
  }

  /**
   * Exact check after an interrupted commit (docs/decisions/0018-exact-verify.md). The root
   * container is the marker (https://developers.facebook.com/documentation/threads/posts):
   * FINISHED proves the root was not published (publish the same container); PUBLISHED proves
   * it was, and its id is looked up in the user's threads (or, for a reply, the user's
   * replies) back to `window.since` with `since` and the `after` cursor, 100 a call
   * (https://developers.facebook.com/documentation/threads/threads-media,
   * https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies/retrieve-replies),
   * by its exact text and media type. Each further item must be a reply of the user to the
   * previous item with the exact text. When the chain stops early, the live posts are proven
   * and the rest absent: `not_published` with `posted`, so commit resumes after them.
   * Unknown: another container status, a failed call (e.g. 403 without threads_read_replies),
   * several candidates, a published root not listed, more than VERIFY_MAX_PAGES pages.
   */
  async verify(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: ThreadsPrepared, window: VerifyWindow): Promise<VerifyResult<ThreadsPrepared>> {
    const posted = prepared.posted ?? [];
    const chain = [...posted];
    const tooMany = { status: 'unknown' as const, reason: `the account posted more than ${VERIFY_MAX_PAGES * 100} posts since the attempt` };
    try {
      if (chain.length === 0) {
        const status = (await this.status(ctx, account, prepared.containerId)).status;
        if (status === 'FINISHED') return { status: 'not_published' };
        if (status !== 'PUBLISHED') return { status: 'unknown', reason: `the container is ${status}` };
        const listed = await this.lookBack(ctx, account, prepared.replyToId ? 'replies' : 'threads', window.since);
        if (!listed) return tooMany;
        const type = prepared.mediaType ? LISTED_TYPE[prepared.mediaType] : undefined;
        const roots = listed.filter((p) => (p.text ?? '') === (prepared.texts[0] ?? '') && (!type || !p.media_type || p.media_type === type)
          && (!prepared.replyToId || p.replied_to?.id === prepared.replyToId));
        if (roots.length !== 1) {
          return { status: 'unknown', reason: roots.length ? `the container was published and ${roots.length} posts match it` : 'the container was published but the post is not listed yet' };
        }
        chain.push(roots[0].id);
      }
      if (chain.length < prepared.texts.length) {
        const replies = await this.lookBack(ctx, account, 'replies', window.since);
        if (!replies) return tooMany;
        for (let i = chain.length; i < prepared.texts.length; i++) {
          const next = replies.filter((p) => p.replied_to?.id === chain[i - 1] && (p.text ?? '') === prepared.texts[i]);
          if (next.length > 1) return { status: 'unknown', reason: `${next.length} replies match item ${i + 1} of the thread` };
          if (!next[0]) break;
          chain.push(next[0].id);
        }
      }
    } catch (err) {
      return lookupFailed(err);
    }
    if (chain.length === prepared.texts.length) {
      const thread: Array<{ platformPostId: string; platformPostUrl: string }> = [];
      for (const id of chain) thread.push({ platformPostId: id, platformPostUrl: await this.permalink(ctx, account, id) });
      return { status: 'published', result: { ...thread[0], ...(thread.length > 1 ? { thread } : {}) } };
    }
    // The look-back reached `since`: the posts after the chain do not exist.
    return { status: 'not_published', ...(chain.length > posted.length ? { prepared: { ...prepared, posted: chain } } : {}) };
  }
}
