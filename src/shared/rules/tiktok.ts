/**
 * TikTok's posting rules (Content Posting API, Direct Post: one video or 1-35 photos):
 * https://developers.tiktok.com/doc/content-posting-api-reference-direct-post,
 * .../content-posting-api-reference-photo-post, .../content-posting-api-reference-query-creator-info,
 * .../content-posting-api-media-transfer-guide. Texts are counted in UTF-16 code units (a
 * JavaScript string's length: an emoji outside the BMP counts 2), as TikTok counts them.
 * The settings reader (`tiktokSettingsOf`) lives here too: the adapter builds its request from it.
 */
import {
  TIKTOK_PHOTO_DESCRIPTION_MAX, TIKTOK_PHOTO_MAX_BYTES, TIKTOK_PHOTO_MAX_ITEMS, TIKTOK_VIDEO_CAPTION_MAX, TIKTOK_VIDEO_MAX_BYTES,
} from '../capabilities.ts';
import type { MediaRef, PlatformRuleSet, RulePost, RuleViolation } from './types.ts';
import { HERALD_RULE_SOURCE, n } from './format.ts';

const DIRECT_POST = 'https://developers.tiktok.com/doc/content-posting-api-reference-direct-post';
const PHOTO_POST = 'https://developers.tiktok.com/doc/content-posting-api-reference-photo-post';
const CREATOR_INFO = 'https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info';
const MEDIA_TRANSFER = 'https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide';
const MB = 1024 * 1024;

export const TIKTOK_PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const;
export const TIKTOK_COMMERCIAL_TYPES = ['none', 'brand_organic', 'brand_content'] as const;

/** The limits an adapter may override (TikTokOptions); defaults in {@link TIKTOK_DEFAULT_LIMITS}. */
export interface TikTokLimits {
  /** Refuse PNG photos (the photo endpoint takes JPEG/WEBP). */
  rejectPngPhotos: boolean;
  /** Largest video, bytes (CONFLICT by source: 4 GB, 1 GB or 10 GB). */
  maxVideoBytes: number;
}
export const TIKTOK_DEFAULT_LIMITS: TikTokLimits = { rejectPngPhotos: true, maxVideoBytes: TIKTOK_VIDEO_MAX_BYTES };

/** The creator info cached in the account settings at connect (`accountSettings.tiktokCreator`). */
export interface TikTokCachedCreator {
  privacyLevelOptions: string[];
  maxVideoPostDurationSec?: number;
}

const SETTING_KEYS = new Set([
  'privacy_level', 'allow_comment', 'allow_duet', 'allow_stitch', 'commercial_content_type', 'brand_partner_promote', 'is_brand_organic_post',
  'content_preview_confirmed', 'express_consent_given', 'video_made_with_ai', 'video_cover_timestamp_ms', 'photo_cover_index', 'auto_add_music',
  'description', 'draft', 'disable_comment', 'disable_duet', 'disable_stitch', 'media_type', 'video_source',
]);
const BOOLEAN_SETTINGS = ['allow_comment', 'allow_duet', 'allow_stitch', 'brand_partner_promote', 'is_brand_organic_post', 'content_preview_confirmed',
  'express_consent_given', 'video_made_with_ai', 'auto_add_music', 'draft', 'disable_comment', 'disable_duet', 'disable_stitch'] as const;
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
      const key = snake(k);
      if (SETTING_KEYS.has(key) && v !== undefined && v !== null) out[key] = v;
    }
  };
  take(psd);
  take(psd.tiktokSettings ?? psd.tiktok_settings);
  if (out.privacy_level === 'FRIENDS') out.privacy_level = 'MUTUAL_FOLLOW_FRIENDS';
  return out;
}

/** The creator info cached in the account settings at connect, when it is there. */
export function cachedTikTokCreator(post: RulePost): TikTokCachedCreator | undefined {
  const c = post.accountSettings?.tiktokCreator as TikTokCachedCreator | undefined;
  return c && Array.isArray(c.privacyLevelOptions) ? c : undefined;
}

export const TIKTOK_RULES = [
  { id: 'tiktok.media.required', summary: `A TikTok post needs one video or 1 to ${TIKTOK_PHOTO_MAX_ITEMS} photos.`, source: DIRECT_POST },
  { id: 'tiktok.media.type', summary: 'Media: videos and photos (JPEG/WEBP) only; GIFs and documents are not accepted.', source: PHOTO_POST },
  { id: 'tiktok.media.mixed', summary: 'A post is either one video or photos, not both.', source: PHOTO_POST },
  { id: 'tiktok.video.max_items', summary: 'Video posts: exactly one video.', source: DIRECT_POST },
  { id: 'tiktok.photo.max_items', summary: `Photo posts: at most ${TIKTOK_PHOTO_MAX_ITEMS} photos (source_info.photo_images).`, source: PHOTO_POST },
  { id: 'tiktok.photo.format', summary: 'Photos: JPEG or WEBP; PNG is refused by the photo endpoint.', source: MEDIA_TRANSFER },
  { id: 'tiktok.photo.max_bytes', summary: `Photos: at most ${TIKTOK_PHOTO_MAX_BYTES / MB} MB (${n(TIKTOK_PHOTO_MAX_BYTES)} bytes) each.`, source: MEDIA_TRANSFER },
  { id: 'tiktok.video.max_bytes', summary: `Videos: at most ${TIKTOK_VIDEO_MAX_BYTES / MB / 1024} GB (sources disagree: 1, 4 or 10 GB; configurable).`, source: MEDIA_TRANSFER },
  { id: 'tiktok.video.max_duration', summary: 'Videos: no longer than the creator\'s max_video_post_duration_sec (creator info, cached at connect).', source: CREATOR_INFO },
  { id: 'tiktok.text.max_length', summary: `Text, counted in UTF-16 code units (an emoji outside the BMP counts 2): video captions (post_info.title) at most ${n(TIKTOK_VIDEO_CAPTION_MAX)}, photo descriptions at most ${n(TIKTOK_PHOTO_DESCRIPTION_MAX)}.`, source: DIRECT_POST },
  { id: 'tiktok.thread.unsupported', summary: 'TikTok has no threads: a post has no thread items.', source: HERALD_RULE_SOURCE },
  { id: 'tiktok.settings.boolean', summary: 'The interaction, consent, disclosure and draft switches (allow_comment, draft, ...) are true or false.', source: HERALD_RULE_SOURCE },
  { id: 'tiktok.privacy_level.value', summary: `privacy_level is one of ${TIKTOK_PRIVACY_LEVELS.join(', ')} (FRIENDS means MUTUAL_FOLLOW_FRIENDS).`, source: DIRECT_POST },
  { id: 'tiktok.privacy_level.option', summary: 'privacy_level is one of the creator\'s privacy_level_options (creator info).', source: CREATOR_INFO },
  { id: 'tiktok.commercial_content_type.value', summary: `commercial_content_type is one of ${TIKTOK_COMMERCIAL_TYPES.join(', ')}.`, source: HERALD_RULE_SOURCE },
  { id: 'tiktok.commercial.brand_organic_requires_flag', summary: 'commercial_content_type brand_organic ("Promotional content") needs is_brand_organic_post true.', source: HERALD_RULE_SOURCE },
  { id: 'tiktok.commercial.brand_content_requires_flag', summary: 'commercial_content_type brand_content ("Paid partnership") needs brand_partner_promote true.', source: HERALD_RULE_SOURCE },
  { id: 'tiktok.commercial.brand_content_not_private', summary: 'Branded content (brand_content_toggle) cannot be posted SELF_ONLY.', source: DIRECT_POST },
  { id: 'tiktok.video_cover_timestamp_ms.value', summary: 'video_cover_timestamp_ms is a whole number of milliseconds, 0 or more.', source: DIRECT_POST },
  { id: 'tiktok.video_cover_timestamp_ms.range', summary: 'video_cover_timestamp_ms is within the video (at most its duration in ms).', source: HERALD_RULE_SOURCE },
  { id: 'tiktok.photo_cover_index.range', summary: 'photo_cover_index is the index of one of the photos (0 to count - 1).', source: PHOTO_POST },
  { id: 'tiktok.video_source.value', summary: 'videoSource is FILE_UPLOAD or PULL_FROM_URL.', source: DIRECT_POST },
] as const;
export type TikTokRuleId = (typeof TIKTOK_RULES)[number]['id'];

const isPng = (m: MediaRef) => m.mimeType === 'image/png' || /\.png($|\?)/i.test(m.url);

/** Every TikTok rule `post` breaks (no network call; the creator's options come from the account settings cached at connect). */
function check(post: RulePost, limits: Partial<TikTokLimits> = {}): RuleViolation[] {
  const lim = { ...TIKTOK_DEFAULT_LIMITS, ...limits };
  const out: RuleViolation[] = [];
  const add = (field: string, rule: TikTokRuleId, message: string) => out.push({ field, rule, message });
  const s = tiktokSettingsOf(post.platformSpecificData ?? {});
  const psd = 'platformSpecificData';
  const media = post.mediaItems ?? [];
  const videos = media.filter((m) => m.type === 'video');
  const images = media.filter((m) => m.type === 'image');
  if ((post.threadItems ?? []).length > 0) add(`${psd}.threadItems`, 'tiktok.thread.unsupported', 'TikTok has no threads');
  if (media.length === 0) add('mediaItems', 'tiktok.media.required', `A TikTok post needs one video or 1 to ${TIKTOK_PHOTO_MAX_ITEMS} photos`);
  media.forEach((m, i) => {
    if (m.type === 'gif' || m.type === 'document') add(`mediaItems.${i}`, 'tiktok.media.type', `TikTok accepts videos and photos, not ${m.type === 'gif' ? 'GIFs' : 'documents'}`);
  });
  if (videos.length > 0 && images.length > 0) add('mediaItems', 'tiktok.media.mixed', 'A TikTok post is either one video or photos, not both');
  if (videos.length > 1) add('mediaItems', 'tiktok.video.max_items', 'A TikTok post takes one video');
  if (images.length > TIKTOK_PHOTO_MAX_ITEMS) add('mediaItems', 'tiktok.photo.max_items', `A TikTok photo post takes at most ${TIKTOK_PHOTO_MAX_ITEMS} photos (this one has ${images.length})`);
  media.forEach((m, i) => {
    if (m.type === 'image' && lim.rejectPngPhotos && isPng(m)) add(`mediaItems.${i}`, 'tiktok.photo.format', 'TikTok photo posts take JPEG or WEBP images, not PNG');
    if (m.type === 'image' && m.size !== undefined && m.size > TIKTOK_PHOTO_MAX_BYTES) add(`mediaItems.${i}`, 'tiktok.photo.max_bytes', `TikTok photos are limited to ${TIKTOK_PHOTO_MAX_BYTES / MB} MB (${n(TIKTOK_PHOTO_MAX_BYTES)} bytes; this one has ${n(m.size)})`);
    if (m.type === 'video' && m.size !== undefined && m.size > lim.maxVideoBytes) add(`mediaItems.${i}`, 'tiktok.video.max_bytes', `TikTok videos are limited to ${Math.round(lim.maxVideoBytes / MB)} MB`);
  });
  const isPhoto = videos.length === 0 && images.length > 0;
  const max = isPhoto ? TIKTOK_PHOTO_DESCRIPTION_MAX : TIKTOK_VIDEO_CAPTION_MAX;
  const ownDescription = isPhoto && typeof s.description === 'string';
  const caption = ownDescription ? (s.description as string) : (post.text ?? '');
  // UTF-16 code units, as TikTok counts (a string's length).
  if (caption.length > max) {
    add(ownDescription ? `${psd}.tiktokSettings.description` : 'content', 'tiktok.text.max_length',
      `TikTok ${isPhoto ? 'photo descriptions' : 'captions'} are limited to ${n(max)} characters counted in UTF-16 units (an emoji counts 2); this text has ${n(caption.length)}`);
  }

  for (const k of BOOLEAN_SETTINGS) {
    if (s[k] !== undefined && typeof s[k] !== 'boolean') add(`${psd}.tiktokSettings.${k}`, 'tiktok.settings.boolean', `${k} must be true or false`);
  }
  const privacy = s.privacy_level;
  if (privacy !== undefined && !(TIKTOK_PRIVACY_LEVELS as readonly unknown[]).includes(privacy)) {
    add(`${psd}.tiktokSettings.privacy_level`, 'tiktok.privacy_level.value', `privacy_level must be one of ${TIKTOK_PRIVACY_LEVELS.join(', ')}`);
  }
  const creator = cachedTikTokCreator(post);
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
    add('mediaItems.0', 'tiktok.video.max_duration', `This TikTok creator can post videos up to ${creator.maxVideoPostDurationSec} seconds; this one lasts ${Math.round(dur * 10) / 10}`);
  }
  return out;
}

export const tiktokRules: PlatformRuleSet<TikTokLimits> = { platform: 'tiktok', rules: TIKTOK_RULES, check };
