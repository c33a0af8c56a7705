/**
 * X (Twitter) API v2 adapter: posts with up to 4 images, or 1 GIF, or 1 video; threads as
 * replies; weighted 280-character limit counted with the official `twitter-text`.
 * Sources: https://docs.x.com/x-api/posts/create-post,
 * https://docs.x.com/x-api/media/quickstart/best-practices,
 * https://docs.x.com/fundamentals/counting-characters.
 *
 * Media is uploaded in `prepare` (invisible; media ids expire after a while, so they are
 * re-uploaded when a retry finds them stale). X has no idempotency key for posts:
 * `verify` reads the user's posts back to before the attempt and matches what was sent.
 */
import { httpJson } from '../http.ts';
import type { OAuthProvider, PlatformApp } from '../oauth.ts';
import { withAccessToken } from '../oauth-session.ts';
import {
  AdapterError, type AccountContext, type AdapterContext, type MediaRef, type PlatformAdapter, type PlatformCapabilities,
  type PublishRequest, type PublishResult, type RuleViolation, type VerifyResult, type VerifyWindow, VERIFY_MAX_PAGES,
  mapMetrics, type PostMetrics, type PublishedPost,
 lookupFailed,
} from '../types.ts';
import { twitterRules } from '../../shared/rules/twitter.ts';
import {
  capabilitiesOf, X_GIF_MAX_BYTES, X_IMAGE_MAX_BYTES, X_MAX_WEIGHTED_LENGTH, X_VIDEO_MAX_BYTES, X_VIDEO_MAX_SECONDS, X_VIDEO_MIN_SECONDS,
} from '../../shared/capabilities.ts';

/** The limits live in src/shared/capabilities.ts (shared with the composer). */
export { X_GIF_MAX_BYTES, X_IMAGE_MAX_BYTES, X_MAX_WEIGHTED_LENGTH, X_VIDEO_MAX_BYTES, X_VIDEO_MAX_SECONDS, X_VIDEO_MIN_SECONDS };
const CHUNK_BYTES = 1024 * 1024;

export const X_CAPABILITIES: PlatformCapabilities = capabilitiesOf('twitter');

/** Weighted length as X counts it (URLs 23, emoji and CJK 2): the shared rule table's count. */
export { weightedLength } from '../../shared/rules/weighted-length.ts';

export interface XPrepared {
  preparedAt: string;
  /** Media ids for the root post. */
  mediaIds: string[];
  texts: string[];
  /** Ids of the thread's first posts that are already live (set by verify to resume). */
  posted?: string[];
}

/** A post as the user timeline returns it with the tweet.fields Herald asks for. */
interface TimelinePost {
  id: string;
  text: string;
  created_at?: string;
  referenced_tweets?: Array<{ type: string; id: string }>;
  attachments?: { media_keys?: string[] };
  entities?: { urls?: Array<{ url: string; expanded_url?: string }> };
}

/** The post's text with X's t.co links replaced by the links as sent. */
function expandLinks(p: TimelinePost): string {
  let text = p.text;
  for (const u of p.entities?.urls ?? []) if (u.expanded_url) text = text.replace(u.url, u.expanded_url);
  return text;
}

/** RFC 3339 at second granularity, as X's start_time takes it (e.g. 2026-11-23T10:00:00Z). */
function rfc3339Seconds(d: Date): string {
  return `${d.toISOString().slice(0, 19)}Z`;
}

interface TweetCreated { data: { id: string; text: string } }

function xMessage(body: unknown, status: number): string {
  const b = body as { detail?: string; title?: string; errors?: Array<{ message?: string }> } | null;
  return b?.detail ?? b?.errors?.[0]?.message ?? b?.title ?? `HTTP ${status}`;
}

export class TwitterAdapter implements PlatformAdapter<Record<string, unknown>, XPrepared> {
  readonly platform = 'twitter' as const;
  readonly capabilities = X_CAPABILITIES;
  constructor(private readonly provider: OAuthProvider, private readonly app: () => PlatformApp) {}

  validate(req: PublishRequest): RuleViolation[] {
    return twitterRules.check(req);
  }

  private call<T>(ctx: AdapterContext, account: AccountContext, fn: (token: string) => Promise<T>): Promise<T> {
    return withAccessToken(ctx, account, this.provider, this.app(), fn);
  }

  private async upload(ctx: AdapterContext, account: AccountContext, m: MediaRef): Promise<string> {
    const cap = m.type === 'image' ? X_IMAGE_MAX_BYTES : m.type === 'gif' ? X_GIF_MAX_BYTES : X_VIDEO_MAX_BYTES;
    const { bytes, mimeType } = await ctx.fetchMedia(m, cap);
    const category = m.type === 'video' ? 'tweet_video' : m.type === 'gif' ? 'tweet_gif' : 'tweet_image';
    const base = this.app().apiBaseUrl;
    return this.call(ctx, account, async (token) => {
      if (m.type === 'image') {
        const form = new FormData();
        form.set('media', new Blob([bytes], { type: mimeType }));
        form.set('media_category', category);
        const { body } = await httpJson<{ data: { id: string } }>(base, '/2/media/upload', { method: 'POST', body: form, token }, xMessage);
        return body.data.id;
      }
      const init = await httpJson<{ data: { id: string } }>(base, '/2/media/upload/initialize', {
        method: 'POST', token, json: { media_type: mimeType, total_bytes: bytes.length, media_category: category },
      }, xMessage);
      const id = init.body.data.id;
      for (let i = 0, seg = 0; i < bytes.length; i += CHUNK_BYTES, seg++) {
        const form = new FormData();
        form.set('media', new Blob([bytes.subarray(i, i + CHUNK_BYTES)]));
        form.set('segment_index', String(seg));
        await httpJson(base, `/2/media/upload/${id}/append`, { method: 'POST', body: form, token }, xMessage);
      }
      let fin = (await httpJson<{ data: { processing_info?: { state: string; check_after_secs?: number; error?: { message?: string } } } }>(
        base, `/2/media/upload/${id}/finalize`, { method: 'POST', token }, xMessage)).body.data.processing_info;
      const deadline = Date.now() + 15 * 60_000;
      while (fin && fin.state !== 'succeeded') {
        if (fin.state === 'failed') throw new AdapterError('rejected', `X could not process the ${m.type}: ${fin.error?.message ?? 'processing failed'}`);
        if (Date.now() > deadline) throw new AdapterError('transient', `X is still processing the ${m.type}`);
        await new Promise((r) => setTimeout(r, Math.max(200, (fin!.check_after_secs ?? 1) * 1000)));
        fin = (await httpJson<{ data: { processing_info?: typeof fin } }>(base, '/2/media/upload', { token, query: { command: 'STATUS', media_id: id } }, xMessage)).body.data.processing_info;
      }
      return id;
    });
  }

  /** Only media is uploaded before the post is created. */
  preparesOffline(req: PublishRequest): boolean {
    return req.mediaItems.length === 0;
  }

  async prepare(ctx: AdapterContext, account: AccountContext, req: PublishRequest): Promise<XPrepared> {
    const mediaIds: string[] = [];
    for (const m of req.mediaItems) mediaIds.push(await this.upload(ctx, account, m));
    const texts = req.threadItems.length > 0 ? req.threadItems.map((t) => t.content) : [req.text];
    return { preparedAt: new Date().toISOString(), mediaIds, texts };
  }

  /**
   * Deletes the post, and every post of a thread (last first): DELETE /2/tweets/:id
   * (https://docs.x.com/x-api/posts/delete-post). A post X no longer has counts as deleted.
   */
  async unpublish(ctx: AdapterContext, account: AccountContext, post: PublishedPost): Promise<void> {
    const base = this.app().apiBaseUrl;
    const ids = post.threadIds.length ? [...post.threadIds].reverse() : [post.platformPostId];
    for (const id of ids) {
      try {
        await this.call(ctx, account, (token) => httpJson(base, `/2/tweets/${encodeURIComponent(id)}`, { method: 'DELETE', token }, xMessage));
      } catch (err) {
        if (err instanceof AdapterError && err.opts.status === 404) continue;
        throw err;
      }
    }
  }

  async commit(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: XPrepared): Promise<PublishResult> {
    const base = this.app().apiBaseUrl;
    // A resumed thread (verify found its first posts live) continues after them.
    const ids: string[] = [...(prepared.posted ?? [])];
    let previous: string | null = ids.at(-1) ?? null;
    for (const [i, text] of prepared.texts.entries()) {
      if (i < ids.length) continue;
      const body: Record<string, unknown> = { text };
      if (i === 0 && prepared.mediaIds.length) body.media = { media_ids: prepared.mediaIds };
      if (previous) body.reply = { in_reply_to_tweet_id: previous };
      let created: TweetCreated;
      try {
        created = (await this.call(ctx, account, (token) => httpJson<TweetCreated>(base, '/2/tweets', { method: 'POST', json: body, token }, xMessage))).body;
      } catch (err) {
        if (i > 0 && err instanceof AdapterError && err.kind !== 'transient') {
          throw new AdapterError(err.kind, `${err.message} (the first ${i} post(s) of the thread are live)`, err.opts);
        }
        throw err;
      }
      previous = created.data.id;
      ids.push(created.data.id);
    }
    return this.resultOf(account, ids);
  }

  /**
   * Exact check after an interrupted commit (docs/decisions/0018-exact-verify.md): reads the
   * user's posts back to `window.since` with `start_time` and `pagination_token`
   * (https://docs.x.com/x-api/posts/timelines/introduction, https://docs.x.com/x-api/fundamentals/pagination),
   * 100 a page. The root matches by its media keys when it carries media (ids uploaded
   * for this attempt only), else by its text (links compared through `entities.urls`, as X
   * wraps them in t.co). Thread items match as replies to the previous item. A thread whose
   * first items are live resumes after them (`not_published` with `posted`).
   */
  async verify(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: XPrepared, window: VerifyWindow): Promise<VerifyResult<XPrepared>> {
    const base = this.app().apiBaseUrl;
    const posts: TimelinePost[] = [];
    try {
      let token: string | undefined;
      for (let page = 0; ; page++) {
        if (page >= VERIFY_MAX_PAGES) return { status: 'unknown', reason: `the account posted more than ${VERIFY_MAX_PAGES * 100} posts since the attempt` };
        const { body } = await this.call(ctx, account, (t) => httpJson<{ data?: TimelinePost[]; meta?: { next_token?: string } }>(base, `/2/users/${account.platformUserId}/tweets`, {
          token: t,
          query: {
            max_results: 100, start_time: rfc3339Seconds(window.since), 'tweet.fields': 'created_at,referenced_tweets,attachments,entities',
            ...(token ? { pagination_token: token } : {}),
          },
        }, xMessage));
        posts.push(...(body.data ?? []));
        token = body.meta?.next_token;
        if (!token) break;
      }
    } catch (err) {
      return lookupFailed(err);
    }
    // X serves only the 3,200 newest posts: a look-back that stops there may not reach `since`.
    if (posts.length >= 3200) return { status: 'unknown', reason: 'the attempt is older than the 3,200 posts X lets a client read back' };
    const posted = prepared.posted ?? [];
    const chain: string[] = [...posted];
    for (let i = posted.length; i < prepared.texts.length; i++) {
      const previous = chain[i - 1];
      const candidates = posts.filter((p) => {
        const replyTo = p.referenced_tweets?.find((r) => r.type === 'replied_to')?.id;
        if (i === 0 ? replyTo !== undefined : replyTo !== previous) return false;
        if (i === 0 && prepared.mediaIds.length) {
          const keys = (p.attachments?.media_keys ?? []).map((k) => k.slice(k.indexOf('_') + 1)).sort();
          return keys.join(',') === [...prepared.mediaIds].sort().join(',');
        }
        return p.text === prepared.texts[i] || expandLinks(p) === prepared.texts[i];
      });
      if (candidates.length > 1) return { status: 'unknown', reason: `${candidates.length} posts on the account match item ${i + 1} of what was sent` };
      if (!candidates[0]) break;
      chain.push(candidates[0].id);
    }
    if (chain.length === prepared.texts.length) return { status: 'published', result: this.resultOf(account, chain) };
    // Proven absent: the look-back reached `since` and no post (or no reply in the chain) matches.
    return { status: 'not_published', ...(chain.length > posted.length ? { prepared: { ...prepared, posted: chain } } : {}) };
  }

  /**
   * Public metrics of up to 100 posts a call (`GET /2/tweets?ids=…&tweet.fields=public_metrics`,
   * https://docs.x.com/x-api/fundamentals/metrics): impressions, likes, replies, retweets + quotes
   * (shares) and bookmarks (saves). Posts X no longer serves are left out.
   */
  async fetchMetrics(ctx: AdapterContext, account: AccountContext, platformPostIds: string[]): Promise<Map<string, PostMetrics>> {
    const base = this.app().apiBaseUrl;
    const out = new Map<string, PostMetrics>();
    for (let i = 0; i < platformPostIds.length; i += 100) {
      const ids = platformPostIds.slice(i, i + 100);
      const { body } = await this.call(ctx, account, (token) => httpJson<{ data?: Array<{ id: string; public_metrics?: Record<string, number> }> }>(
        base, '/2/tweets', { token, query: { ids: ids.join(','), 'tweet.fields': 'public_metrics' } }, xMessage));
      for (const t of body.data ?? []) if (t.public_metrics) out.set(t.id, mapMetrics('twitter', t.public_metrics));
    }
    return out;
  }

  private resultOf(account: AccountContext, ids: string[]): PublishResult {
    const thread = ids.map((id) => ({ platformPostId: id, platformPostUrl: `https://x.com/${account.username}/status/${id}` }));
    return { ...thread[0], ...(thread.length > 1 ? { thread } : {}) };
  }
}

