/**
 * X (Twitter) API v2 adapter: posts with up to 4 images, or 1 GIF, or 1 video; threads as
 * replies; weighted 280-character limit counted with the official `twitter-text`.
 * Sources (platforms.md section 5): https://docs.x.com/x-api/posts/create-post,
 * https://docs.x.com/x-api/media/quickstart/best-practices,
 * https://docs.x.com/fundamentals/counting-characters.
 *
 * Media is uploaded in `prepare` (invisible; media ids expire after a while, so they are
 * re-uploaded when a retry finds them stale). X has no idempotency key for posts:
 * `verify` looks for the post in the user's recent posts (same text, created after
 * prepare). When the text contains links, X rewrites them (t.co), so a missing match is
 * reported as 'unknown' rather than 'not_published'.
 */
import twitterText from 'twitter-text';
import { httpJson } from '../http.ts';
import type { OAuthProvider, PlatformApp } from '../oauth.ts';
import { withAccessToken } from '../oauth-session.ts';
import {
  AdapterError, type AccountContext, type AdapterContext, type MediaRef, type PlatformAdapter, type PlatformCapabilities,
  type PublishRequest, type PublishResult, type RuleViolation, type VerifyResult,
} from '../types.ts';

export const X_MAX_WEIGHTED_LENGTH = 280;
/**
 * Image, GIF and video size caps in bytes, and the video duration range for accounts
 * without Premium (platforms.md 5.3, docs.x.com/x-api/media/quickstart/best-practices).
 * Premium accounts may post up to 16 GB / 125 min; X checks that itself.
 */
export const X_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const X_GIF_MAX_BYTES = 15 * 1024 * 1024;
export const X_VIDEO_MAX_BYTES = 8 * 1024 ** 3;
export const X_VIDEO_MIN_SECONDS = 0.5;
export const X_VIDEO_MAX_SECONDS = 20 * 60;
const CHUNK_BYTES = 1024 * 1024;

export const X_CAPABILITIES: PlatformCapabilities = {
  maxTextLength: X_MAX_WEIGHTED_LENGTH, textUnit: 'weighted characters', maxImages: 4, maxVideos: 1,
  threads: true, firstComment: false, docsUrl: 'https://docs.x.com/x-api/posts/create-post',
};

/** Weighted length as X counts it (URLs 23, emoji and CJK 2). */
export function weightedLength(text: string): number {
  return twitterText.parseTweet(text).weightedLength;
}

export interface XPrepared {
  preparedAt: string;
  /** Media ids for the root post. */
  mediaIds: string[];
  texts: string[];
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
    const out: RuleViolation[] = [];
    const texts = req.threadItems.length > 0 ? req.threadItems.map((t) => t.content) : [req.text];
    texts.forEach((t, i) => {
      const n = weightedLength(t);
      if (n > X_MAX_WEIGHTED_LENGTH) {
        out.push({ field: req.threadItems.length > 0 ? `threadItems.${i}.content` : 'content', rule: 'twitter.text.max_weighted_length',
          message: `X posts are limited to ${X_MAX_WEIGHTED_LENGTH} weighted characters (links count 23, emoji 2); this text has ${n}` });
      }
    });
    req.threadItems.slice(1).forEach((t, i) => {
      if (t.mediaItems?.length) out.push({ field: `threadItems.${i + 1}.mediaItems`, rule: 'twitter.thread.media_first_only', message: 'Only the first post of an X thread can carry media here' });
    });
    const media = req.mediaItems;
    const images = media.filter((m) => m.type === 'image');
    const gifs = media.filter((m) => m.type === 'gif');
    const videos = media.filter((m) => m.type === 'video');
    media.forEach((m, i) => {
      if (m.type === 'document') out.push({ field: `mediaItems.${i}`, rule: 'twitter.media.type', message: 'X does not accept documents (PDF)' });
      const cap = m.type === 'image' ? X_IMAGE_MAX_BYTES : m.type === 'gif' ? X_GIF_MAX_BYTES : X_VIDEO_MAX_BYTES;
      if (m.size !== undefined && m.size > cap) out.push({ field: `mediaItems.${i}`, rule: `twitter.media.${m.type}_max_bytes`, message: `X ${m.type}s are limited to ${cap / 1024 / 1024} MB` });
      if (m.type === 'video' && m.durationSeconds !== undefined && (m.durationSeconds < X_VIDEO_MIN_SECONDS || m.durationSeconds > X_VIDEO_MAX_SECONDS)) {
        out.push({ field: `mediaItems.${i}`, rule: 'twitter.media.video_duration', message: `X videos must last ${X_VIDEO_MIN_SECONDS} s to ${X_VIDEO_MAX_SECONDS / 60} minutes (this one lasts ${m.durationSeconds} s)` });
      }
    });
    if (images.length > 4) out.push({ field: 'mediaItems', rule: 'twitter.media.max_images', message: 'X posts take at most 4 images' });
    if ((gifs.length > 0 || videos.length > 0) && media.length > 1) {
      out.push({ field: 'mediaItems', rule: 'twitter.media.one_gif_or_video', message: 'An X post takes up to 4 images, or exactly 1 GIF, or exactly 1 video' });
    }
    return out;
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

  async prepare(ctx: AdapterContext, account: AccountContext, req: PublishRequest): Promise<XPrepared> {
    const mediaIds: string[] = [];
    for (const m of req.mediaItems) mediaIds.push(await this.upload(ctx, account, m));
    const texts = req.threadItems.length > 0 ? req.threadItems.map((t) => t.content) : [req.text];
    return { preparedAt: new Date().toISOString(), mediaIds, texts };
  }

  async commit(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: XPrepared): Promise<PublishResult> {
    const base = this.app().apiBaseUrl;
    const thread: Array<{ platformPostId: string; platformPostUrl: string }> = [];
    let previous: string | null = null;
    for (const [i, text] of prepared.texts.entries()) {
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
      thread.push({ platformPostId: created.data.id, platformPostUrl: `https://x.com/${account.username}/status/${created.data.id}` });
    }
    return { ...thread[0], ...(thread.length > 1 ? { thread } : {}) };
  }

  async verify(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: XPrepared): Promise<VerifyResult> {
    const base = this.app().apiBaseUrl;
    let recent;
    try {
      recent = (await this.call(ctx, account, (token) => httpJson<{ data?: Array<{ id: string; text: string; created_at?: string }> }>(
        base, `/2/users/${account.platformUserId}/tweets`, { token, query: { max_results: 20, 'tweet.fields': 'created_at' } }, xMessage))).body.data ?? [];
    } catch (err) {
      return { status: 'unknown', reason: (err as Error).message };
    }
    const since = new Date(prepared.preparedAt).getTime() - 60_000;
    const found = recent.find((t) => t.text === prepared.texts[0] && (!t.created_at || new Date(t.created_at).getTime() >= since));
    if (found && prepared.texts.length === 1) {
      return { status: 'published', result: { platformPostId: found.id, platformPostUrl: `https://x.com/${account.username}/status/${found.id}` } };
    }
    if (found) return { status: 'unknown', reason: 'the first post of the thread exists; the rest cannot be checked' };
    if (twitterText.extractUrls(prepared.texts[0]).length > 0) return { status: 'unknown', reason: 'X rewrites links, so a post with links cannot be matched' };
    return { status: 'not_published' };
  }
}

