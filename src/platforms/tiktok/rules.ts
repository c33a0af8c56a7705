/**
 * TikTok's posting rules and settings: the settings read from platformSpecificData, validate
 * (media, caption, settings, the creator's cached options), the privacy level picked against
 * the creator's options, capabilities and limit constants (re-exported for callers).
 */
import {
  AdapterError, type MediaRef, type PlatformCapabilities, type PublishRequest, type RuleViolation,
} from '../types.ts';
import type { TikTokCreatorInfo } from './oauth.ts';
import type { TikTokOptions } from './model.ts';
import {
  capabilitiesOf, TIKTOK_PHOTO_DESCRIPTION_MAX, TIKTOK_PHOTO_MAX_BYTES, TIKTOK_PHOTO_MAX_ITEMS, TIKTOK_VIDEO_CAPTION_MAX,
} from '../../shared/capabilities.ts';

export const TIKTOK_PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const;
export const TIKTOK_COMMERCIAL_TYPES = ['none', 'brand_organic', 'brand_content'] as const;

/** The limits live in src/shared/capabilities.ts (shared with the composer). */
export { TIKTOK_PHOTO_DESCRIPTION_MAX, TIKTOK_PHOTO_MAX_BYTES, TIKTOK_PHOTO_MAX_ITEMS, TIKTOK_VIDEO_CAPTION_MAX };
export const TIKTOK_DEFAULT_COVER_MS = 1000;
export const MB = 1024 * 1024;

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

const isPng = (m: MediaRef) => m.mimeType === 'image/png' || /\.png($|\?)/i.test(m.url);

/** All rule violations of `req` for TikTok (no network call; the creator's options come from the account settings cached at connect). */
export function validateTikTok(req: PublishRequest, opts: Pick<Required<TikTokOptions>, 'rejectPngPhotos' | 'maxVideoBytes'>): RuleViolation[] {
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
    if (m.type === 'image' && opts.rejectPngPhotos && isPng(m)) add(`mediaItems.${i}`, 'tiktok.photo.format', 'TikTok photo posts take JPEG or WEBP images, not PNG');
    if (m.type === 'image' && m.size !== undefined && m.size > TIKTOK_PHOTO_MAX_BYTES) add(`mediaItems.${i}`, 'tiktok.photo.max_bytes', 'TikTok photos are limited to 20 MB');
    if (m.type === 'video' && m.size !== undefined && m.size > opts.maxVideoBytes) add(`mediaItems.${i}`, 'tiktok.video.max_bytes', `TikTok videos are limited to ${Math.round(opts.maxVideoBytes / MB)} MB`);
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
  const creator = cachedCreator(req);
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

/** The creator info cached in the account settings at connect, when it is there. */
function cachedCreator(req: PublishRequest): TikTokCreatorInfo | undefined {
  const c = req.accountSettings?.tiktokCreator as TikTokCreatorInfo | undefined;
  return c && Array.isArray(c.privacyLevelOptions) ? c : undefined;
}

/** Picks and checks the privacy level against the creator's options. @throws AdapterError rejected naming the rule. */
export function privacyFor(s: Record<string, unknown>, creator: TikTokCreatorInfo, req: PublishRequest): string {
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
