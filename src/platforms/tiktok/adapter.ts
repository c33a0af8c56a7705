/**
 * TikTok Content Posting API adapter, Direct Post (docs/decisions/0015-tiktok.md): one video, or
 * 1-35 photos, with the caption from the post's content (a `title` in platformSpecificData
 * is ignored). Sources: https://developers.tiktok.com/doc/content-posting-api-reference-direct-post,
 * .../content-posting-api-reference-photo-post, .../content-posting-api-media-transfer-guide,
 * .../content-posting-api-reference-get-video-status, .../content-posting-api-reference-query-creator-info.
 *
 * Settings come from `platformSpecificData.tiktokSettings` (snake_case, the seed format;
 * camelCase accepted too) or from flat camelCase keys on platformSpecificData (the newer
 * Late format); nested values win. Missing settings get safe defaults:
 * - privacy_level: must be one of the creator's `privacy_level_options` (queried first, in
 *   `prepare`, and cached in the account settings at connect so `validate` can check it).
 *   Absent: SELF_ONLY when the post's visibility is private and allowed, else
 *   PUBLIC_TO_EVERYONE when allowed, else the first allowed level (never SELF_ONLY for
 *   brand_content). `FRIENDS` (the compatible API's wording) means MUTUAL_FOLLOW_FRIENDS.
 * - commercial_content_type none | brand_organic (needs is_brand_organic_post true) |
 *   brand_content (needs brand_partner_promote true, cannot be SELF_ONLY); sent as
 *   brand_organic_toggle / brand_content_toggle.
 * - allow_comment / allow_duet / allow_stitch default true (sent as disable_*), forced off
 *   when the creator has that interaction disabled; video_made_with_ai -> is_aigc;
 *   video_cover_timestamp_ms default 1,000; photo_cover_index default 0; auto_add_music and
 *   description (photos) passed through; content_preview_confirmed and express_consent_given
 *   are TikTok UX-guideline consents, not documented API fields (UNCONFIRMED): they are
 *   passed through in post_info when given (`TikTokOptions.passConsentFlags`).
 * - draft true: video to the creator's inbox (`/v2/post/publish/inbox/video/init/`, scope
 *   video.upload), photos with post_mode MEDIA_UPLOAD; the status ends at SEND_TO_USER_INBOX.
 *
 * Two phases (docs/decisions/0002):
 * - Video, FILE_UPLOAD (default: works without verifying a media domain with TikTok):
 *   `prepare` queries the creator info, checks the rules, fetches the file, calls
 *   `video/init` and uploads every chunk but the last (nothing is posted before the upload
 *   completes); `commit` uploads the last chunk and polls `status/fetch` until
 *   PUBLISH_COMPLETE (FAILED -> rejected with fail_reason). `verify` reads the publish_id's
 *   status: incomplete upload -> not_published (re-send the last chunk), complete -> published.
 * - Video PULL_FROM_URL (`TikTokOptions.videoSource` or `platformSpecificData.videoSource`)
 *   and photos (pull only; the URL's domain must be verified with TikTok): the init call is
 *   the visible call, so `commit` makes it and polls; when its answer is lost there is no
 *   publish_id, and `verify` reads the creator's videos (`/v2/video/list/`, paging with the
 *   cursor) back to before the attempt for the same caption; not found -> unknown.
 * Any failure after the visible call is reported as transient (never rate_limited or
 * disconnected), so the publisher verifies instead of posting twice.
 *
 * Chunk rules (media transfer guide, upload.ts `chunkPlan`): a file under 5 MB is sent whole;
 * otherwise chunks of `chunkBytes` (clamped to 5-64 MB, and to the file's size: a file smaller
 * than one chunk goes whole), `total_chunk_count = floor(size / chunk_size)`, the last chunk
 * taking the leftover (up to 128 MB); a file over 64 MB in 2 or more chunks, never over 1,000;
 * `Content-Range: bytes first-last/total`, in order.
 */
import type { OAuthProvider, PlatformApp } from '../oauth.ts';
import { withAccessToken } from '../oauth-session.ts';
import {
  AdapterError, type AccountContext, type AdapterContext, type PlatformAdapter,
  type PublishRequest, type PublishResult, type RuleViolation, type VerifyResult, type VerifyWindow, VERIFY_MAX_PAGES,
  mapMetrics, type PostMetrics,
 lookupFailed,
} from '../types.ts';
import { tiktokJson } from './api.ts';
import type { TikTokCall, TikTokOptions, TikTokPrepared, StatusAnswer } from './model.ts';
import { queryCreatorInfo, toCreatorInfo } from './oauth.ts';
import { fetchStatus, waitFinal as pollUntilFinal } from './publish.ts';
import { MB, privacyFor, TIKTOK_CAPABILITIES, TIKTOK_DEFAULT_COVER_MS, tiktokSettingsOf, validateTikTok } from './rules.ts';
import { chunkPlan, putChunk } from './upload.ts';
import { TIKTOK_VIDEO_MAX_BYTES } from '../../shared/capabilities.ts';

// The adapter's pieces: rules.ts (settings, validate, privacy level, capabilities, limits),
// upload.ts (chunk plan and chunk PUTs), publish.ts (status polling and result), model.ts (shapes).
export {
  TIKTOK_CAPABILITIES, TIKTOK_COMMERCIAL_TYPES, TIKTOK_DEFAULT_COVER_MS, TIKTOK_PHOTO_DESCRIPTION_MAX, TIKTOK_PHOTO_MAX_BYTES, TIKTOK_PHOTO_MAX_ITEMS,
  TIKTOK_PRIVACY_LEVELS, TIKTOK_VIDEO_CAPTION_MAX, tiktokSettingsOf, type TikTokSettings,
} from './rules.ts';
export type { TikTokOptions, TikTokPrepared } from './model.ts';
export { chunkPlan } from './upload.ts';

export class TikTokAdapter implements PlatformAdapter<Record<string, unknown>, TikTokPrepared> {
  readonly platform = 'tiktok' as const;
  readonly capabilities = TIKTOK_CAPABILITIES;
  private readonly opts: Required<TikTokOptions>;

  constructor(private readonly provider: OAuthProvider, private readonly app: () => PlatformApp, opts: TikTokOptions = {}) {
    this.opts = {
      videoSource: 'FILE_UPLOAD', chunkBytes: 10 * MB, minChunkBytes: 5 * MB, maxVideoBytes: TIKTOK_VIDEO_MAX_BYTES, rejectPngPhotos: true,
      passConsentFlags: true, pollIntervalMs: 1000, pollMaxIntervalMs: 5000, pollTimeoutMs: 5 * 60_000, postIdPolls: 3, ...opts,
    };
  }

  validate(req: PublishRequest): RuleViolation[] {
    return validateTikTok(req, this.opts);
  }

  /**
   * Video counters, 20 videos a call (`POST /v2/video/query/?fields=id,view_count,like_count,comment_count,share_count`,
   * https://developers.tiktok.com/doc/tiktok-api-v2-video-query). Only public videos have an id: a post
   * still known by its publish_id (private, or not yet public) is not found and is left out.
   */
  async fetchMetrics(ctx: AdapterContext, account: AccountContext, platformPostIds: string[]): Promise<Map<string, PostMetrics>> {
    const out = new Map<string, PostMetrics>();
    const ids = platformPostIds.filter((id) => /^\d+$/.test(id));
    for (let i = 0; i < ids.length; i += 20) {
      const batch = ids.slice(i, i + 20);
      const data = await this.call(ctx, account, (token, app) => tiktokJson<{ videos?: Array<Record<string, unknown> & { id: string | number }> }>(
        app.apiBaseUrl, '/v2/video/query/', { method: 'POST', token, query: { fields: 'id,view_count,like_count,comment_count,share_count' }, json: { filters: { video_ids: batch } } }));
      for (const v of data.videos ?? []) out.set(String(v.id), mapMetrics('tiktok', v));
    }
    return out;
  }

  private call<T>(ctx: AdapterContext, account: AccountContext, fn: (token: string, app: PlatformApp) => Promise<T>): Promise<T> {
    const app = this.app();
    return withAccessToken(ctx, account, this.provider, app, (token) => fn(token, app));
  }

  /** The account's `call`, for the status helpers (publish.ts). */
  private bound(ctx: AdapterContext, account: AccountContext): TikTokCall {
    return (fn) => this.call(ctx, account, fn);
  }

  async prepare(ctx: AdapterContext, account: AccountContext, req: PublishRequest): Promise<TikTokPrepared> {
    const s = tiktokSettingsOf(req.platformSpecificData);
    const creator = toCreatorInfo(await this.call(ctx, account, (token, app) => queryCreatorInfo(app, token)));
    const privacy = privacyFor(s, creator, req);
    const video = req.mediaItems.find((m) => m.type === 'video');
    if (video?.durationSeconds !== undefined && creator.maxVideoPostDurationSec && video.durationSeconds > creator.maxVideoPostDurationSec) {
      throw new AdapterError('rejected', `This TikTok creator can post videos up to ${creator.maxVideoPostDurationSec} seconds; this one lasts ${Math.round(video.durationSeconds)} [rule tiktok.video.max_duration]`, { platformCode: 'tiktok.video.max_duration' });
    }
    const cct = s.commercial_content_type ?? 'none';
    const draft = s.draft === true;
    const allow = (k: 'comment' | 'duet' | 'stitch', creatorDisabled?: boolean) =>
      !creatorDisabled && s[`allow_${k}`] !== false && s[`disable_${k}`] !== true;
    const consent = this.opts.passConsentFlags
      ? Object.fromEntries((['content_preview_confirmed', 'express_consent_given'] as const).filter((k) => typeof s[k] === 'boolean').map((k) => [k, s[k]]))
      : {};
    const caption = req.text;
    const base = { preparedAt: new Date().toISOString(), draft, caption, privacyLevel: privacy };

    if (!video) {
      const images = req.mediaItems.filter((m) => m.type === 'image');
      const postInfo: Record<string, unknown> = {
        description: typeof s.description === 'string' ? s.description : caption,
        privacy_level: privacy,
        disable_comment: !allow('comment', creator.commentDisabled),
        brand_content_toggle: cct === 'brand_content', brand_organic_toggle: cct === 'brand_organic',
        ...(typeof s.auto_add_music === 'boolean' ? { auto_add_music: s.auto_add_music } : {}),
        ...(s.video_made_with_ai === true ? { is_aigc: true } : {}),
        ...consent,
      };
      return {
        ...base, kind: 'photo', source: 'PULL_FROM_URL', initPath: '/v2/post/publish/content/init/',
        initBody: {
          media_type: 'PHOTO', post_mode: draft ? 'MEDIA_UPLOAD' : 'DIRECT_POST', post_info: postInfo,
          source_info: { source: 'PULL_FROM_URL', photo_cover_index: typeof s.photo_cover_index === 'number' ? s.photo_cover_index : 0, photo_images: images.map((m) => m.url) },
        },
      };
    }

    const postInfo: Record<string, unknown> = {
      title: caption,
      privacy_level: privacy,
      disable_duet: !allow('duet', creator.duetDisabled),
      disable_comment: !allow('comment', creator.commentDisabled),
      disable_stitch: !allow('stitch', creator.stitchDisabled),
      video_cover_timestamp_ms: typeof s.video_cover_timestamp_ms === 'number' ? s.video_cover_timestamp_ms : TIKTOK_DEFAULT_COVER_MS,
      brand_content_toggle: cct === 'brand_content', brand_organic_toggle: cct === 'brand_organic',
      is_aigc: s.video_made_with_ai === true,
      ...consent,
    };
    const source = (s.video_source as TikTokPrepared['source'] | undefined) ?? this.opts.videoSource;
    const initPath = draft ? '/v2/post/publish/inbox/video/init/' : '/v2/post/publish/video/init/';
    if (source === 'PULL_FROM_URL') {
      const sourceInfo = { source, video_url: video.url };
      return { ...base, kind: 'video', source, initPath, initBody: draft ? { source_info: sourceInfo } : { post_info: postInfo, source_info: sourceInfo } };
    }
    const { bytes } = await ctx.fetchMedia(video, this.opts.maxVideoBytes);
    const { chunkSize, chunkCount } = chunkPlan(bytes.length, this.opts.chunkBytes, this.opts.minChunkBytes);
    const sourceInfo = { source, video_size: bytes.length, chunk_size: chunkSize, total_chunk_count: chunkCount };
    const initBody = draft ? { source_info: sourceInfo } : { post_info: postInfo, source_info: sourceInfo };
    const init = await this.call(ctx, account, (token, app) => tiktokJson<{ publish_id: string; upload_url: string }>(app.apiBaseUrl, initPath, { method: 'POST', token, json: initBody }));
    const prepared: TikTokPrepared = {
      ...base, kind: 'video', source, initPath, initBody, publishId: init.publish_id, uploadUrl: init.upload_url,
      videoSize: bytes.length, chunkSize, chunkCount, mediaUrl: video.url,
    };
    for (let i = 0; i < chunkCount - 1; i++) await putChunk(prepared, bytes, i);
    return prepared;
  }

  private status(ctx: AdapterContext, account: AccountContext, publishId: string): Promise<StatusAnswer> {
    return fetchStatus(this.bound(ctx, account), publishId);
  }

  /**
   * Polls until a final status. Throttling and transient errors while polling are waited out.
   * @throws AdapterError rejected (FAILED), transient (timeout or persistent errors).
   */
  private waitFinal(ctx: AdapterContext, account: AccountContext, publishId: string, p: TikTokPrepared, timeoutMs = this.opts.pollTimeoutMs): Promise<PublishResult> {
    return pollUntilFinal(this.bound(ctx, account), account, publishId, p, this.opts, timeoutMs);
  }

  async commit(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: TikTokPrepared): Promise<PublishResult> {
    let publishId = prepared.publishId;
    if (prepared.source === 'FILE_UPLOAD') {
      const { bytes } = await ctx.fetchMedia({ type: 'video', url: prepared.mediaUrl! }, this.opts.maxVideoBytes);
      if (bytes.length !== prepared.videoSize) throw new AdapterError('rejected', 'The video changed between the upload\'s start and its end; publish the post again');
      try {
        await putChunk(prepared, bytes, prepared.chunkCount! - 1);
      } catch (err) {
        // A re-commit after verify found the publish FAILED: report TikTok's reason, not the closed upload.
        if (err instanceof AdapterError && err.kind === 'rejected') {
          const s = await this.status(ctx, account, publishId!).catch(() => undefined);
          if (s?.status === 'FAILED') throw new AdapterError('rejected', `TikTok could not publish the video: ${s.fail_reason ?? 'FAILED'}`, { platformCode: s.fail_reason });
        }
        throw err;
      }
    } else {
      // The visible call: refused -> nothing posted (errors as they are); no answer -> transient, verify decides.
      publishId = (await this.call(ctx, account, (token, app) => tiktokJson<{ publish_id: string }>(app.apiBaseUrl, prepared.initPath, { method: 'POST', token, json: prepared.initBody }))).publish_id;
    }
    try {
      return await this.waitFinal(ctx, account, publishId!, prepared);
    } catch (err) {
      const e = err instanceof AdapterError ? err : new AdapterError('transient', (err as Error).message);
      if (e.kind === 'rejected') throw e;
      // The post may be live: never a kind that would make the publisher post again.
      throw new AdapterError('transient', `${e.message} (publish_id ${publishId})`, e.opts);
    }
  }

  /**
   * Exact check after an interrupted commit (docs/decisions/0018-exact-verify.md).
   * FILE_UPLOAD: the publish_id is the marker (https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status):
   * an upload still incomplete (PROCESSING_UPLOAD, fewer bytes than the file) or FAILED proves
   * nothing was posted (not_published; commit re-sends the last chunk); otherwise the status is
   * followed to its end (published) or answers unknown.
   * PULL_FROM_URL and photos: the init call's answer, and its publish_id, were lost, so the
   * creator's videos are read (`POST /v2/video/list/`, `max_count` 20, `cursor` and `has_more`;
   * https://developers.tiktok.com/doc/tiktok-api-v2-video-list) back to `window.since`,
   * matching the exact caption. One match -> published. None is never proof: a pulled post
   * is processed and moderated before it is listed (and drafts go to the inbox), so it may
   * still appear -> unknown; so are several matches, a failed call, more than VERIFY_MAX_PAGES pages.
   */
  async verify(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: TikTokPrepared, window: VerifyWindow): Promise<VerifyResult<TikTokPrepared>> {
    if (prepared.publishId) {
      let s: StatusAnswer;
      try {
        s = await this.status(ctx, account, prepared.publishId);
      } catch (err) {
        return lookupFailed(err);
      }
      if (s.status === 'PROCESSING_UPLOAD' && (s.uploaded_bytes ?? 0) < (prepared.videoSize ?? 0)) return { status: 'not_published' };
      if (s.status === 'FAILED') return { status: 'not_published' };
      try {
        return { status: 'published', result: await this.waitFinal(ctx, account, prepared.publishId, prepared, Math.min(this.opts.pollTimeoutMs, 60_000)) };
      } catch (err) {
        if (err instanceof AdapterError && err.kind === 'rejected') return { status: 'not_published' };
        return lookupFailed(err);
      }
    }
    // Pull posts: the init call's answer (and its publish_id) was lost; look for the post.
    type Listed = { id: string; title?: string; video_description?: string; create_time?: number; share_url?: string };
    const found: Listed[] = [];
    try {
      let cursor: number | undefined;
      for (let page = 0; ; page++) {
        if (page >= VERIFY_MAX_PAGES) return { status: 'unknown', reason: `the creator posted more than ${VERIFY_MAX_PAGES * 20} videos since the attempt` };
        const d = await this.call(ctx, account, (token, app) => tiktokJson<{ videos?: Listed[]; cursor?: number; has_more?: boolean }>(
          app.apiBaseUrl, '/v2/video/list/', { method: 'POST', token, query: { fields: 'id,title,video_description,create_time,share_url' }, json: { max_count: 20, ...(cursor !== undefined ? { cursor } : {}) } }));
        let older = false;
        for (const v of d.videos ?? []) {
          // create_time has second granularity.
          if (v.create_time !== undefined && v.create_time < Math.floor(window.since.getTime() / 1000)) { older = true; continue; }
          if (v.video_description === prepared.caption || v.title === prepared.caption) found.push(v);
        }
        if (older || !d.has_more || d.cursor === undefined || d.cursor === cursor) break;
        cursor = d.cursor;
      }
    } catch (err) {
      return lookupFailed(err);
    }
    if (found.length > 1) return { status: 'unknown', reason: `${found.length} videos posted since the attempt have this caption` };
    if (found.length === 0) return { status: 'unknown', reason: 'the post is not among the creator\'s TikTok videos since the attempt (it may still be processing or in moderation)' };
    const v = found[0];
    return { status: 'published', result: { platformPostId: String(v.id), platformPostUrl: v.share_url ?? `https://www.tiktok.com/@${account.username}/video/${v.id}`, extra: { privacyLevel: prepared.privacyLevel, foundBy: 'video.list' } } };
  }
}
