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
 * Chunk rules (media transfer guide): a file under 5 MB is sent whole; otherwise chunks of
 * `chunkBytes` (5-64 MB), `total_chunk_count = floor(size / chunk_size)`, the last chunk
 * taking the leftover (up to 128 MB); `Content-Range: bytes first-last/total`, in order.
 */
import type { OAuthProvider, PlatformApp } from '../oauth.ts';
import { withAccessToken } from '../oauth-session.ts';
import {
  AdapterError, type AccountContext, type AdapterContext, type MediaRef, type PlatformAdapter, type PlatformCapabilities,
  type PublishRequest, type PublishResult, type RuleViolation, type VerifyResult, type VerifyWindow, VERIFY_MAX_PAGES,
} from '../types.ts';
import { tiktokJson } from './api.ts';
import { queryCreatorInfo, toCreatorInfo, type TikTokCreatorInfo } from './oauth.ts';
import {
  capabilitiesOf, TIKTOK_PHOTO_DESCRIPTION_MAX, TIKTOK_PHOTO_MAX_BYTES, TIKTOK_PHOTO_MAX_ITEMS, TIKTOK_VIDEO_CAPTION_MAX, TIKTOK_VIDEO_MAX_BYTES,
} from '../../shared/capabilities.ts';

export const TIKTOK_PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const;
export const TIKTOK_COMMERCIAL_TYPES = ['none', 'brand_organic', 'brand_content'] as const;

/** The limits live in src/shared/capabilities.ts (shared with the composer). */
export { TIKTOK_PHOTO_DESCRIPTION_MAX, TIKTOK_PHOTO_MAX_BYTES, TIKTOK_PHOTO_MAX_ITEMS, TIKTOK_VIDEO_CAPTION_MAX };
export const TIKTOK_DEFAULT_COVER_MS = 1000;
const MB = 1024 * 1024;

/**
 * Tunables. CONFLICT: sources give different values; UNCONFIRMED: only third-party media
 * guides state it, TikTok's own pages do not
 * (https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info).
 */
export interface TikTokOptions {
  /** Video upload source when the post does not say (`platformSpecificData.videoSource`). Default FILE_UPLOAD. */
  videoSource?: 'FILE_UPLOAD' | 'PULL_FROM_URL';
  /** Chunk size for FILE_UPLOAD, bytes (5-64 MB). Default 10 MB. */
  chunkBytes?: number;
  /** Files below this are sent in one chunk (TikTok: 5 MB). */
  minChunkBytes?: number;
  /** Largest video, bytes. **CONFLICT** (4 GB, 1 GB or 10 GB by source). Default 4 GB. */
  maxVideoBytes?: number;
  /** Refuse PNG photos (the photo endpoint takes JPEG/WEBP per third-party sources, UNCONFIRMED). Default true. */
  rejectPngPhotos?: boolean;
  /** Send content_preview_confirmed / express_consent_given in post_info when given (UNCONFIRMED API fields). Default true. */
  passConsentFlags?: boolean;
  /** First interval between status polls, ms (doubles up to pollMaxIntervalMs). Default 1,000. */
  pollIntervalMs?: number;
  pollMaxIntervalMs?: number;
  /** Give up polling after this long, ms (then verify resumes later). Default 5 minutes. */
  pollTimeoutMs?: number;
  /** Extra polls after PUBLISH_COMPLETE waiting for `publicaly_available_post_id` (appears after moderation). Default 3. */
  postIdPolls?: number;
}

export const TIKTOK_CAPABILITIES: PlatformCapabilities = capabilitiesOf('tiktok');

/** The settings of one TikTok target, normalised to TikTok's snake_case names. */
export interface TikTokSettings {
  privacy_level?: string;
  allow_comment?: boolean;
  allow_duet?: boolean;
  allow_stitch?: boolean;
  commercial_content_type?: string;
  brand_partner_promote?: boolean;
  is_brand_organic_post?: boolean;
  content_preview_confirmed?: boolean;
  express_consent_given?: boolean;
  video_made_with_ai?: boolean;
  video_cover_timestamp_ms?: number;
  photo_cover_index?: number;
  auto_add_music?: boolean;
  description?: string;
  draft?: boolean;
  disable_comment?: boolean;
  disable_duet?: boolean;
  disable_stitch?: boolean;
  media_type?: string;
  video_source?: string;
}

const KEYS = new Set<keyof TikTokSettings>([
  'privacy_level', 'allow_comment', 'allow_duet', 'allow_stitch', 'commercial_content_type', 'brand_partner_promote', 'is_brand_organic_post',
  'content_preview_confirmed', 'express_consent_given', 'video_made_with_ai', 'video_cover_timestamp_ms', 'photo_cover_index', 'auto_add_music',
  'description', 'draft', 'disable_comment', 'disable_duet', 'disable_stitch', 'media_type', 'video_source',
]);
const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Reads the TikTok settings: flat keys of platformSpecificData (camelCase or snake_case),
 * then `tiktokSettings` (snake_case or camelCase), which wins. Unknown keys are ignored
 * (`title` among them: TikTok uses the content).
 */
export function tiktokSettingsOf(psd: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const take = (src: unknown) => {
    if (!src || typeof src !== 'object' || Array.isArray(src)) return;
    for (const [k, v] of Object.entries(src as Record<string, unknown>)) {
      const key = snake(k) as keyof TikTokSettings;
      if (KEYS.has(key) && v !== undefined && v !== null) out[key] = v;
    }
  };
  take(psd);
  take(psd.tiktokSettings ?? psd.tiktok_settings);
  if (out.privacy_level === 'FRIENDS') out.privacy_level = 'MUTUAL_FOLLOW_FRIENDS';
  return out;
}

export interface TikTokPrepared {
  preparedAt: string;
  kind: 'video' | 'photo';
  draft: boolean;
  source: 'FILE_UPLOAD' | 'PULL_FROM_URL';
  /** Init endpoint and body (the body is sent as is by `commit` for pull posts). */
  initPath: string;
  initBody: Record<string, unknown>;
  caption: string;
  privacyLevel: string;
  /** FILE_UPLOAD: the publish started in prepare, and the last chunk left for commit. */
  publishId?: string;
  uploadUrl?: string;
  videoSize?: number;
  chunkSize?: number;
  chunkCount?: number;
  mediaUrl?: string;
}

interface StatusAnswer {
  status?: string; fail_reason?: string; publicaly_available_post_id?: Array<string | number>; uploaded_bytes?: number; downloaded_bytes?: number;
}

const isPng = (m: MediaRef) => m.mimeType === 'image/png' || /\.png($|\?)/i.test(m.url);

/** Chunk plan for a file of `size` bytes. */
export function chunkPlan(size: number, chunkBytes: number, minChunkBytes: number): { chunkSize: number; chunkCount: number } {
  if (size < minChunkBytes) return { chunkSize: size, chunkCount: 1 };
  return { chunkSize: chunkBytes, chunkCount: Math.max(1, Math.floor(size / chunkBytes)) };
}

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
    const out: RuleViolation[] = [];
    const add = (field: string, rule: string, message: string) => out.push({ field, rule, message });
    const s = tiktokSettingsOf(req.platformSpecificData);
    const psd = 'platformSpecificData';
    const videos = req.mediaItems.filter((m) => m.type === 'video');
    const images = req.mediaItems.filter((m) => m.type === 'image');
    if (req.threadItems.length > 0) add(`${psd}.threadItems`, 'tiktok.thread.unsupported', 'TikTok has no threads');
    if (req.mediaItems.length === 0) add('mediaItems', 'tiktok.media.required', 'A TikTok post needs one video or 1 to 35 photos');
    req.mediaItems.forEach((m, i) => {
      if (m.type === 'gif' || m.type === 'document') add(`mediaItems.${i}`, 'tiktok.media.type', `TikTok accepts videos and photos, not ${m.type === 'gif' ? 'GIFs' : 'documents'}`);
    });
    if (videos.length > 0 && images.length > 0) add('mediaItems', 'tiktok.media.mixed', 'A TikTok post is either one video or photos, not both');
    if (videos.length > 1) add('mediaItems', 'tiktok.video.max_items', 'A TikTok post takes one video');
    if (images.length > TIKTOK_PHOTO_MAX_ITEMS) add('mediaItems', 'tiktok.photo.max_items', `A TikTok photo post takes at most ${TIKTOK_PHOTO_MAX_ITEMS} photos`);
    req.mediaItems.forEach((m, i) => {
      if (m.type === 'image' && this.opts.rejectPngPhotos && isPng(m)) add(`mediaItems.${i}`, 'tiktok.photo.format', 'TikTok photo posts take JPEG or WEBP images, not PNG');
      if (m.type === 'image' && m.size !== undefined && m.size > TIKTOK_PHOTO_MAX_BYTES) add(`mediaItems.${i}`, 'tiktok.photo.max_bytes', 'TikTok photos are limited to 20 MB');
      if (m.type === 'video' && m.size !== undefined && m.size > this.opts.maxVideoBytes) add(`mediaItems.${i}`, 'tiktok.video.max_bytes', `TikTok videos are limited to ${Math.round(this.opts.maxVideoBytes / MB)} MB`);
    });
    const isPhoto = videos.length === 0 && images.length > 0;
    const max = isPhoto ? TIKTOK_PHOTO_DESCRIPTION_MAX : TIKTOK_VIDEO_CAPTION_MAX;
    const caption = isPhoto && typeof s.description === 'string' ? s.description : req.text;
    if ([...caption].length > max) add(isPhoto && typeof s.description === 'string' ? `${psd}.tiktokSettings.description` : 'content', 'tiktok.text.max_length', `TikTok ${isPhoto ? 'photo descriptions' : 'captions'} are limited to ${max} characters; this text has ${[...caption].length}`);

    for (const k of ['allow_comment', 'allow_duet', 'allow_stitch', 'brand_partner_promote', 'is_brand_organic_post', 'content_preview_confirmed',
      'express_consent_given', 'video_made_with_ai', 'auto_add_music', 'draft', 'disable_comment', 'disable_duet', 'disable_stitch'] as const) {
      if (s[k] !== undefined && typeof s[k] !== 'boolean') add(`${psd}.tiktokSettings.${k}`, 'tiktok.settings.boolean', `${k} must be true or false`);
    }
    const privacy = s.privacy_level;
    if (privacy !== undefined && !(TIKTOK_PRIVACY_LEVELS as readonly unknown[]).includes(privacy)) {
      add(`${psd}.tiktokSettings.privacy_level`, 'tiktok.privacy_level.value', `privacy_level must be one of ${TIKTOK_PRIVACY_LEVELS.join(', ')}`);
    }
    const creator = this.cachedCreator(req);
    if (typeof privacy === 'string' && creator && creator.privacyLevelOptions.length && (TIKTOK_PRIVACY_LEVELS as readonly string[]).includes(privacy) && !creator.privacyLevelOptions.includes(privacy)) {
      add(`${psd}.tiktokSettings.privacy_level`, 'tiktok.privacy_level.option', `This TikTok creator allows privacy_level ${creator.privacyLevelOptions.join(', ')}, not ${privacy}`);
    }
    const cct = s.commercial_content_type ?? 'none';
    if (!(TIKTOK_COMMERCIAL_TYPES as readonly unknown[]).includes(cct)) {
      add(`${psd}.tiktokSettings.commercial_content_type`, 'tiktok.commercial_content_type.value', `commercial_content_type must be one of ${TIKTOK_COMMERCIAL_TYPES.join(', ')}`);
    }
    if (cct === 'brand_organic' && s.is_brand_organic_post !== true) {
      add(`${psd}.tiktokSettings.is_brand_organic_post`, 'tiktok.commercial.brand_organic_requires_flag', 'commercial_content_type brand_organic ("Promotional content") needs is_brand_organic_post true');
    }
    if (cct === 'brand_content' && s.brand_partner_promote !== true) {
      add(`${psd}.tiktokSettings.brand_partner_promote`, 'tiktok.commercial.brand_content_requires_flag', 'commercial_content_type brand_content ("Paid partnership") needs brand_partner_promote true');
    }
    if (cct === 'brand_content' && privacy === 'SELF_ONLY') {
      add(`${psd}.tiktokSettings.privacy_level`, 'tiktok.commercial.brand_content_not_private', 'Branded content ("Paid partnership") cannot be SELF_ONLY: it must be public or friends-only');
    }
    const cover = s.video_cover_timestamp_ms;
    if (cover !== undefined && (typeof cover !== 'number' || !Number.isInteger(cover) || cover < 0)) {
      add(`${psd}.tiktokSettings.video_cover_timestamp_ms`, 'tiktok.video_cover_timestamp_ms.value', 'video_cover_timestamp_ms must be a whole number of milliseconds, 0 or more');
    } else if (typeof cover === 'number' && videos[0]?.durationSeconds !== undefined && cover > videos[0].durationSeconds * 1000) {
      add(`${psd}.tiktokSettings.video_cover_timestamp_ms`, 'tiktok.video_cover_timestamp_ms.range', `video_cover_timestamp_ms is past the end of the video (${Math.round(videos[0].durationSeconds * 1000)} ms)`);
    }
    const idx = s.photo_cover_index;
    if (idx !== undefined && (typeof idx !== 'number' || !Number.isInteger(idx) || idx < 0 || (isPhoto && idx >= images.length))) {
      add(`${psd}.tiktokSettings.photo_cover_index`, 'tiktok.photo_cover_index.range', `photo_cover_index must be the index of one of the photos (0 to ${Math.max(0, images.length - 1)})`);
    }
    const src = s.video_source;
    if (src !== undefined && src !== 'FILE_UPLOAD' && src !== 'PULL_FROM_URL') add(`${psd}.videoSource`, 'tiktok.video_source.value', 'videoSource must be FILE_UPLOAD or PULL_FROM_URL');
    const dur = videos[0]?.durationSeconds;
    if (dur !== undefined && creator?.maxVideoPostDurationSec && dur > creator.maxVideoPostDurationSec) {
      add('mediaItems.0', 'tiktok.video.max_duration', `This TikTok creator can post videos up to ${creator.maxVideoPostDurationSec} seconds; this one lasts ${Math.round(dur)}`);
    }
    return out;
  }

  private cachedCreator(req: PublishRequest): TikTokCreatorInfo | undefined {
    const c = req.accountSettings?.tiktokCreator as TikTokCreatorInfo | undefined;
    return c && Array.isArray(c.privacyLevelOptions) ? c : undefined;
  }

  private call<T>(ctx: AdapterContext, account: AccountContext, fn: (token: string, app: PlatformApp) => Promise<T>): Promise<T> {
    const app = this.app();
    return withAccessToken(ctx, account, this.provider, app, (token) => fn(token, app));
  }

  /** Picks and checks the privacy level against the creator's options. @throws AdapterError rejected naming the rule. */
  private privacyFor(s: Record<string, unknown>, creator: TikTokCreatorInfo, req: PublishRequest): string {
    const allowed = creator.privacyLevelOptions;
    const brand = s.commercial_content_type === 'brand_content';
    const refuse = (rule: string, message: string) => new AdapterError('rejected', `${message} [rule ${rule}]`, { platformCode: rule });
    if (typeof s.privacy_level === 'string') {
      if (!allowed.includes(s.privacy_level)) throw refuse('tiktok.privacy_level.option', `This TikTok creator allows privacy_level ${allowed.join(', ') || '(none)'}, not ${s.privacy_level}`);
      return s.privacy_level;
    }
    const candidates = brand ? allowed.filter((p) => p !== 'SELF_ONLY') : allowed;
    if (candidates.length === 0) {
      throw brand
        ? refuse('tiktok.commercial.brand_content_not_private', `Branded content cannot be SELF_ONLY, and this TikTok creator only allows ${allowed.join(', ') || '(none)'}`)
        : refuse('tiktok.privacy_level.option', 'This TikTok creator has no privacy level available for posting');
    }
    if (req.visibility === 'private' && candidates.includes('SELF_ONLY')) return 'SELF_ONLY';
    return candidates.includes('PUBLIC_TO_EVERYONE') ? 'PUBLIC_TO_EVERYONE' : candidates[0];
  }

  async prepare(ctx: AdapterContext, account: AccountContext, req: PublishRequest): Promise<TikTokPrepared> {
    const s = tiktokSettingsOf(req.platformSpecificData);
    const creator = toCreatorInfo(await this.call(ctx, account, (token, app) => queryCreatorInfo(app, token)));
    const privacy = this.privacyFor(s, creator, req);
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
    for (let i = 0; i < chunkCount - 1; i++) await this.putChunk(prepared, bytes, i);
    return prepared;
  }

  /** PUTs chunk `i` (the last one takes the leftover bytes). @throws AdapterError (network/5xx transient, else rejected). */
  private async putChunk(p: TikTokPrepared, bytes: Buffer, i: number): Promise<void> {
    const first = i * p.chunkSize!;
    const last = i === p.chunkCount! - 1 ? bytes.length - 1 : first + p.chunkSize! - 1;
    let res: Response;
    try {
      res = await fetch(p.uploadUrl!, {
        method: 'PUT', body: bytes.subarray(first, last + 1),
        headers: { 'content-type': 'video/mp4', 'content-range': `bytes ${first}-${last}/${bytes.length}` },
        signal: AbortSignal.timeout(5 * 60_000),
      });
    } catch (err) {
      throw new AdapterError('transient', `TikTok upload of chunk ${i + 1}/${p.chunkCount} failed: ${(err as Error).message}`);
    }
    const text = await res.text();
    if (res.status === 201 || res.status === 206 || res.ok) return;
    let e: { error?: { code?: string; message?: string } } = {};
    try { e = JSON.parse(text); } catch { /* not JSON */ }
    const msg = `TikTok refused chunk ${i + 1}/${p.chunkCount}: ${e.error?.message ?? text.slice(0, 200) ?? `HTTP ${res.status}`}${e.error?.code ? ` (${e.error.code})` : ''}`;
    throw new AdapterError(res.status >= 500 || res.status === 429 ? 'transient' : 'rejected', msg, { status: res.status, platformCode: e.error?.code });
  }

  private status(ctx: AdapterContext, account: AccountContext, publishId: string): Promise<StatusAnswer> {
    return this.call(ctx, account, (token, app) => tiktokJson<StatusAnswer>(app.apiBaseUrl, '/v2/post/publish/status/fetch/', { method: 'POST', token, json: { publish_id: publishId } }));
  }

  private result(account: AccountContext, publishId: string, s: StatusAnswer, p: TikTokPrepared): PublishResult {
    const postId = s.publicaly_available_post_id?.[0];
    return {
      platformPostId: postId !== undefined ? String(postId) : publishId,
      platformPostUrl: postId !== undefined ? `https://www.tiktok.com/@${account.username}/video/${postId}` : `https://www.tiktok.com/@${account.username}`,
      extra: { publishId, status: s.status, privacyLevel: p.privacyLevel, ...(postId === undefined ? { postIdPending: true } : {}) },
    };
  }

  /**
   * Polls until a final status. Throttling and transient errors while polling are waited out.
   * @throws AdapterError rejected (FAILED), transient (timeout or persistent errors).
   */
  private async waitFinal(ctx: AdapterContext, account: AccountContext, publishId: string, p: TikTokPrepared, timeoutMs = this.opts.pollTimeoutMs): Promise<PublishResult> {
    const deadline = Date.now() + timeoutMs;
    let interval = this.opts.pollIntervalMs;
    let extra = 0;
    let lastErr: AdapterError | undefined;
    for (;;) {
      let s: StatusAnswer | undefined;
      try {
        s = await this.status(ctx, account, publishId);
      } catch (err) {
        if (!(err instanceof AdapterError) || (err.kind !== 'transient' && err.kind !== 'rate_limited')) throw err;
        lastErr = err;
      }
      if (s?.status === 'FAILED') throw new AdapterError('rejected', `TikTok could not publish the ${p.kind}: ${s.fail_reason ?? 'FAILED'}`, { platformCode: s.fail_reason });
      if (s?.status === 'SEND_TO_USER_INBOX') return this.result(account, publishId, s, p);
      if (s?.status === 'PUBLISH_COMPLETE') {
        if (s.publicaly_available_post_id?.length || p.privacyLevel === 'SELF_ONLY' || extra >= this.opts.postIdPolls || Date.now() > deadline) return this.result(account, publishId, s, p);
        extra++;
      }
      if (Date.now() > deadline) throw new AdapterError('transient', `TikTok is still processing the ${p.kind}${lastErr ? ` (${lastErr.message})` : ''}`);
      await new Promise((r) => setTimeout(r, interval));
      interval = Math.min(this.opts.pollMaxIntervalMs, interval * 2);
    }
  }

  async commit(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: TikTokPrepared): Promise<PublishResult> {
    let publishId = prepared.publishId;
    if (prepared.source === 'FILE_UPLOAD') {
      const { bytes } = await ctx.fetchMedia({ type: 'video', url: prepared.mediaUrl! }, this.opts.maxVideoBytes);
      if (bytes.length !== prepared.videoSize) throw new AdapterError('rejected', 'The video changed between the upload\'s start and its end; publish the post again');
      try {
        await this.putChunk(prepared, bytes, prepared.chunkCount! - 1);
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
        return { status: 'unknown', reason: (err as Error).message };
      }
      if (s.status === 'PROCESSING_UPLOAD' && (s.uploaded_bytes ?? 0) < (prepared.videoSize ?? 0)) return { status: 'not_published' };
      if (s.status === 'FAILED') return { status: 'not_published' };
      try {
        return { status: 'published', result: await this.waitFinal(ctx, account, prepared.publishId, prepared, Math.min(this.opts.pollTimeoutMs, 60_000)) };
      } catch (err) {
        if (err instanceof AdapterError && err.kind === 'rejected') return { status: 'not_published' };
        return { status: 'unknown', reason: (err as Error).message };
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
      return { status: 'unknown', reason: (err as Error).message };
    }
    if (found.length > 1) return { status: 'unknown', reason: `${found.length} videos posted since the attempt have this caption` };
    if (found.length === 0) return { status: 'unknown', reason: 'the post is not among the creator\'s TikTok videos since the attempt (it may still be processing or in moderation)' };
    const v = found[0];
    return { status: 'published', result: { platformPostId: String(v.id), platformPostUrl: v.share_url ?? `https://www.tiktok.com/@${account.username}/video/${v.id}`, extra: { privacyLevel: prepared.privacyLevel, foundBy: 'video.list' } } };
  }
}
