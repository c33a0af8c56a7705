/** TikTok's rule cases (src/shared/rules/tiktok.ts); the platform's answers come from the TikTok simulator (test/contract/tiktok.test.ts). */
import { image, pdf, times, video, type CasePost, type RuleCase } from './cases.ts';

const HERALD = 'Herald\'s own rule (docs/decisions/0026-one-rule-table.md)';
const MB = 1024 * 1024;
/** The creator info cached at connect, as the contract test's simulator answers it (max 60 s videos there). */
export const TIKTOK_CASE_CREATOR = { privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'], maxVideoPostDurationSec: 60 };
const account = { accountSettings: { tiktokCreator: TIKTOK_CASE_CREATOR } };
const clip = () => video(2, 320, 240);
const photo = () => image('jpeg', 64, 64);
/** A video post with these settings (platformSpecificData.tiktokSettings). */
const withSettings = (s: Record<string, unknown>, p: CasePost = {}): CasePost => ({ text: 'clip', mediaItems: [clip()], ...account, ...p, platformSpecificData: { tiktokSettings: s } });

export const cases: RuleCase[] = [
  { rule: 'tiktok.media.required', inside: { text: 'clip', mediaItems: [clip()] }, outside: { text: 'no media' }, platform: { refuses: /invalid_params|photo_images/ } },
  { rule: 'tiktok.media.type', inside: { text: 'photo', mediaItems: [photo()] }, outside: { text: 'doc', mediaItems: [pdf()] }, platform: { notSent: 'TikTok\'s API has no field for a document (photo_images take image URLs only); Herald cannot send one' } },
  { rule: 'tiktok.media.type', name: 'a GIF', inside: { text: 'photo', mediaItems: [image('webp', 64, 64)] }, outside: { text: 'gif', mediaItems: [image('gif', 64, 64, { frames: 3 })] }, platform: { notSent: 'Herald sends only videos and photos (type image) to TikTok' } },
  { rule: 'tiktok.media.mixed', inside: { text: 'photos', mediaItems: [photo(), photo()] }, outside: { text: 'mixed', mediaItems: [clip(), photo()] }, platform: { notSent: 'a TikTok request is either a video init or a photo init: the mix cannot be sent' } },
  { rule: 'tiktok.video.max_items', inside: { text: 'one', mediaItems: [clip()] }, outside: { text: 'two', mediaItems: [clip(), clip()] }, platform: { notSent: 'a video init takes one video: a second cannot be sent' } },
  { rule: 'tiktok.photo.max_items', inside: { text: 'many', mediaItems: times(35, photo) }, outside: { text: 'too many', mediaItems: times(36, photo) }, platform: { refuses: /invalid_params|1 to 35/ } },
  { rule: 'tiktok.photo.format', inside: { text: 'webp', mediaItems: [image('webp', 64, 64)] }, outside: { text: 'png', mediaItems: [image('png', 64, 64)] }, platform: { refuses: /file_format_check_failed/ } },
  { rule: 'tiktok.photo.max_bytes', inside: { text: 'big', mediaItems: [image('jpeg', 64, 64, { bytes: 20 * MB })] }, outside: { text: 'too big', mediaItems: [image('jpeg', 64, 64, { bytes: 20 * MB + 1 })] }, platform: { refuses: /picture_size_check_failed/ } },
  { rule: 'tiktok.video.max_bytes', inside: { text: 'big', mediaItems: [video(2, 320, 240, { bytes: 4 * 1024 * MB })] }, outside: { text: 'too big', mediaItems: [video(2, 320, 240, { bytes: 4 * 1024 * MB + 1 })] }, platform: { notSent: 'a 4 GB file is not generated in tests, and TikTok\'s own maximum is a CONFLICT (1, 4 or 10 GB by source)' } },
  { rule: 'tiktok.video.max_duration', inside: { text: 'long', mediaItems: [video(60, 320, 240)], ...account }, outside: { text: 'too long', mediaItems: [video(61, 320, 240)], ...account }, platform: { refuses: /duration_check_failed/ } },
  { rule: 'tiktok.text.max_length', name: 'video caption, 2,200 UTF-16 units', inside: { text: 'a'.repeat(2200), mediaItems: [clip()] }, outside: { text: 'a'.repeat(2201), mediaItems: [clip()] }, platform: { refuses: /invalid_params|2200/ } },
  { rule: 'tiktok.text.max_length', name: 'video caption: an emoji counts 2', inside: { text: '😀'.repeat(1100), mediaItems: [clip()] }, outside: { text: '😀'.repeat(1101), mediaItems: [clip()] }, platform: { refuses: /invalid_params|2200/ } },
  { rule: 'tiktok.text.max_length', name: 'photo description, 4,000 UTF-16 units', inside: { text: '😀'.repeat(2000), mediaItems: [photo()] }, outside: { text: `a${'😀'.repeat(2000)}`, mediaItems: [photo()] }, platform: { refuses: /invalid_params|4000/ } },
  { rule: 'tiktok.thread.unsupported', inside: { text: 'clip', mediaItems: [clip()] }, outside: { text: 'clip', mediaItems: [clip()], threadItems: [{ content: 'one' }, { content: 'two' }] }, platform: { notSent: `${HERALD}: TikTok has no threads, so there is nothing to send them to` } },
  { rule: 'tiktok.settings.boolean', inside: withSettings({ allow_comment: false }), outside: withSettings({ allow_comment: 'no' }), platform: { notSent: `${HERALD}: Herald turns these settings into TikTok's booleans (disable_comment, ...)` } },
  { rule: 'tiktok.privacy_level.value', inside: withSettings({ privacy_level: 'SELF_ONLY' }), outside: withSettings({ privacy_level: 'EVERYONE' }), platform: { refuses: /invalid_params|privacy_level/ } },
  { rule: 'tiktok.privacy_level.option', inside: withSettings({ privacy_level: 'MUTUAL_FOLLOW_FRIENDS' }), outside: withSettings({ privacy_level: 'FOLLOWER_OF_CREATOR' }), platform: { refuses: /privacy_level_option_mismatch/ } },
  { rule: 'tiktok.commercial_content_type.value', inside: withSettings({ commercial_content_type: 'none' }), outside: withSettings({ commercial_content_type: 'ads' }), platform: { notSent: `${HERALD}: Herald's setting becomes TikTok's brand_content_toggle / brand_organic_toggle` } },
  { rule: 'tiktok.commercial.brand_organic_requires_flag', inside: withSettings({ commercial_content_type: 'brand_organic', is_brand_organic_post: true }), outside: withSettings({ commercial_content_type: 'brand_organic' }), platform: { notSent: `${HERALD}: the confirmation flag is Herald's; TikTok gets brand_organic_toggle` } },
  { rule: 'tiktok.commercial.brand_content_requires_flag', inside: withSettings({ commercial_content_type: 'brand_content', brand_partner_promote: true }), outside: withSettings({ commercial_content_type: 'brand_content' }), platform: { notSent: `${HERALD}: the confirmation flag is Herald's; TikTok gets brand_content_toggle` } },
  { rule: 'tiktok.commercial.brand_content_not_private', inside: withSettings({ commercial_content_type: 'brand_content', brand_partner_promote: true, privacy_level: 'PUBLIC_TO_EVERYONE' }), outside: withSettings({ commercial_content_type: 'brand_content', brand_partner_promote: true, privacy_level: 'SELF_ONLY' }), platform: { refuses: /invalid_params|SELF_ONLY/ } },
  { rule: 'tiktok.video_cover_timestamp_ms.value', inside: withSettings({ video_cover_timestamp_ms: 0 }), outside: withSettings({ video_cover_timestamp_ms: -1 }), platform: { refuses: /invalid_params|video_cover_timestamp_ms/ } },
  { rule: 'tiktok.video_cover_timestamp_ms.range', inside: withSettings({ video_cover_timestamp_ms: 2000 }), outside: withSettings({ video_cover_timestamp_ms: 2001 }), platform: { notSent: `${HERALD}: TikTok's reference does not say it checks the cover time against the video` } },
  { rule: 'tiktok.photo_cover_index.range', inside: withSettings({ photo_cover_index: 1 }, { mediaItems: [photo(), photo()] }), outside: withSettings({ photo_cover_index: 2 }, { mediaItems: [photo(), photo()] }), platform: { refuses: /invalid_params|photo_cover_index/ } },
  { rule: 'tiktok.video_source.value', inside: withSettings({ video_source: 'PULL_FROM_URL' }), outside: withSettings({ video_source: 'S3' }), platform: { notSent: `${HERALD}: videoSource chooses Herald's way of sending; an unknown one cannot be sent` } },
];
