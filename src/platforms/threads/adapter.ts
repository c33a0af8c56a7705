/**
 * Threads API adapter (platforms.md section 3): text (500 characters), one image, one
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
 *   publishes it. The permalink is read with `GET /{media-id}?fields=permalink`.
 * - `verify` asks for the root container's status: `PUBLISHED` -> the post exists (its id is
 *   found in the user's recent threads by text); `FINISHED` -> not published (safe to publish
 *   the same container); anything else -> unknown.
 *
 * Media is passed by public URL (`image_url`, `video_url`): Threads downloads it, so media
 * URLs must be reachable from the internet. Text length counts emoji as their UTF-8 byte
 * length (see {@link threadsTextLength}).
 */
import type { OAuthProvider, PlatformApp } from '../oauth.ts';
import { withAccessToken } from '../oauth-session.ts';
import {
  AdapterError, type AccountContext, type AdapterContext, type MediaRef, type PlatformAdapter, type PlatformCapabilities,
  type PublishRequest, type PublishResult, type RuleViolation, type VerifyResult,
} from '../types.ts';
import { graphJson } from './graph.ts';
import { THREADS_API_VERSION } from './oauth.ts';

export const THREADS_MAX_TEXT = 500;
/** Image cap in bytes (8 MB; third-party mirror of the media guidelines, AYR-TH). */
export const THREADS_IMAGE_MAX_BYTES = 8 * 1024 * 1024;
/** Video caps: 1 GB and 5 minutes (third-party mirror, AYR-TH). */
export const THREADS_VIDEO_MAX_BYTES = 1024 * 1024 * 1024;
export const THREADS_VIDEO_MAX_SECONDS = 300;

/** Tunables where platforms.md marks a fact UNCONFIRMED or CONFLICT. */
export interface ThreadsOptions {
  /**
   * Most items in a carousel. **CONFLICT / UNCONFIRMED** (platforms.md 3.3): 20 per two
   * third-party sources, 10 per another; the official sentence was not retrieved. Default 20.
   */
  carouselMax?: number;
  /** Interval between container status polls, ms (Threads advises about 30 s on average for media). Default 2,000. */
  pollIntervalMs?: number;
  /** Give up waiting for a container after this long, ms (transient: retried later). Default 5 minutes. */
  pollTimeoutMs?: number;
  /** Recent threads read by `verify`. Default 25. */
  verifyLookback?: number;
}

export const THREADS_CAPABILITIES: PlatformCapabilities = {
  maxTextLength: THREADS_MAX_TEXT, textUnit: 'characters', maxImages: 20, maxVideos: 20,
  threads: true, firstComment: false, docsUrl: 'https://developers.facebook.com/documentation/threads/posts',
};

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

/**
 * Length as Threads counts it: one per character, except emoji, which count as their UTF-8
 * byte length (e.g. 👍 counts 4). platforms.md 3.3, [TH-POSTS].
 */
export function threadsTextLength(text: string): number {
  let n = 0;
  for (const { segment } of segmenter.segment(text)) n += EMOJI.test(segment) ? Buffer.byteLength(segment, 'utf8') : [...segment].length;
  return n;
}

export interface ThreadsPrepared {
  preparedAt: string;
  /** The root container (the one published first). */
  containerId: string;
  /** Texts of the thread: [root, reply 1, ...]. */
  texts: string[];
  /** An existing Threads post the root replies to (platformSpecificData.replyToId). */
  replyToId?: string;
}

type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';

export class ThreadsAdapter implements PlatformAdapter<Record<string, unknown>, ThreadsPrepared> {
  readonly platform = 'threads' as const;
  readonly capabilities: PlatformCapabilities;
  private readonly opts: Required<ThreadsOptions>;

  constructor(private readonly provider: OAuthProvider, private readonly app: () => PlatformApp, opts: ThreadsOptions = {}) {
    this.opts = { carouselMax: 20, pollIntervalMs: 2000, pollTimeoutMs: 5 * 60_000, verifyLookback: 25, ...opts };
    this.capabilities = { ...THREADS_CAPABILITIES, maxImages: this.opts.carouselMax, maxVideos: this.opts.carouselMax };
  }

  validate(req: PublishRequest): RuleViolation[] {
    const out: RuleViolation[] = [];
    const texts = req.threadItems.length > 0 ? req.threadItems.map((t) => t.content) : [req.text];
    texts.forEach((t, i) => {
      const n = threadsTextLength(t);
      if (n > THREADS_MAX_TEXT) {
        out.push({ field: req.threadItems.length > 0 ? `threadItems.${i}.content` : 'content', rule: 'threads.text.max_length',
          message: `Threads posts are limited to ${THREADS_MAX_TEXT} characters (emoji count as their UTF-8 bytes); this text has ${n}` });
      }
    });
    if (req.mediaItems.length === 0 && !texts[0].trim()) out.push({ field: 'content', rule: 'threads.text.required', message: 'A Threads post without media needs text' });
    req.threadItems.slice(1).forEach((t, i) => {
      if (t.mediaItems?.length) out.push({ field: `threadItems.${i + 1}.mediaItems`, rule: 'threads.thread.media_first_only', message: 'Only the first post of a Threads thread can carry media here' });
    });
    req.mediaItems.forEach((m, i) => {
      if (m.type === 'document' || m.type === 'gif') out.push({ field: `mediaItems.${i}`, rule: 'threads.media.type', message: `Threads accepts images (JPEG, PNG) and videos (MP4, MOV), not ${m.type === 'gif' ? 'GIFs' : 'documents'}` });
      if (m.type === 'image' && m.size !== undefined && m.size > THREADS_IMAGE_MAX_BYTES) out.push({ field: `mediaItems.${i}`, rule: 'threads.media.image_max_bytes', message: 'Threads images are limited to 8 MB' });
      if (m.type === 'video' && m.size !== undefined && m.size > THREADS_VIDEO_MAX_BYTES) out.push({ field: `mediaItems.${i}`, rule: 'threads.media.video_max_bytes', message: 'Threads videos are limited to 1 GB' });
      if (m.type === 'video' && m.durationSeconds !== undefined && m.durationSeconds > THREADS_VIDEO_MAX_SECONDS) out.push({ field: `mediaItems.${i}`, rule: 'threads.media.video_max_duration', message: 'Threads videos are limited to 5 minutes' });
    });
    if (req.mediaItems.length > this.opts.carouselMax) {
      out.push({ field: 'mediaItems', rule: 'threads.carousel.max_items', message: `A Threads carousel takes at most ${this.opts.carouselMax} items` });
    }
    const replyTo = req.platformSpecificData.replyToId;
    if (replyTo !== undefined && (typeof replyTo !== 'string' || !/^\d+$/.test(replyTo))) {
      out.push({ field: 'platformSpecificData.replyToId', rule: 'threads.reply_to.id', message: 'replyToId must be the numeric id of a Threads post' });
    }
    return out;
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
    return { preparedAt: new Date().toISOString(), containerId, texts, ...(replyToId ? { replyToId } : {}) };
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
    const rootId = await this.publish(ctx, account, prepared.containerId);
    thread.push({ platformPostId: rootId, platformPostUrl: await this.permalink(ctx, account, rootId) });
    for (const [i, text] of prepared.texts.entries()) {
      if (i === 0) continue;
      try {
        const c = await this.createContainer(ctx, account, { media_type: 'TEXT', text, reply_to_id: thread[thread.length - 1].platformPostId });
        await this.waitFinished(ctx, account, c, `thread item ${i + 1}`);
        const id = await this.publish(ctx, account, c);
        thread.push({ platformPostId: id, platformPostUrl: await this.permalink(ctx, account, id) });
      } catch (err) {
        // The root is live: never report a retryable failure that would publish it again.
        const e = err instanceof AdapterError ? err : new AdapterError('transient', (err as Error).message);
        throw new AdapterError('rejected', `${e.message} (the first ${i} post(s) of the thread are live: ${thread.map((t) => t.platformPostUrl).join(', ')})`, e.opts);
      }
    }
    return { ...thread[0], ...(thread.length > 1 ? { thread } : {}) };
  }

  async verify(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: ThreadsPrepared): Promise<VerifyResult> {
    let status: ContainerStatus;
    try {
      status = (await this.status(ctx, account, prepared.containerId)).status;
    } catch (err) {
      return { status: 'unknown', reason: (err as Error).message };
    }
    if (status === 'FINISHED') return { status: 'not_published' };
    if (status !== 'PUBLISHED') return { status: 'unknown', reason: `the container is ${status}` };
    if (prepared.texts.length > 1) return { status: 'unknown', reason: 'the first post of the thread is live; the replies cannot be checked' };
    try {
      const recent = await this.call(ctx, account, async (token, base) => (await graphJson<{ data?: Array<{ id: string; text?: string; timestamp?: string; permalink?: string }> }>(
        base, `/${THREADS_API_VERSION}/${account.platformUserId}/threads`, { token, query: { fields: 'id,text,timestamp,permalink', limit: this.opts.verifyLookback } })).body.data ?? []);
      const since = new Date(prepared.preparedAt).getTime() - 60_000;
      const found = recent.find((t) => (t.text ?? '') === (prepared.texts[0] ?? '') && (!t.timestamp || new Date(t.timestamp).getTime() >= since));
      if (found) return { status: 'published', result: { platformPostId: found.id, platformPostUrl: found.permalink ?? `https://www.threads.net/@${account.username}` } };
      return { status: 'unknown', reason: 'the container was published but the post is not among the recent threads' };
    } catch (err) {
      return { status: 'unknown', reason: (err as Error).message };
    }
  }
}
