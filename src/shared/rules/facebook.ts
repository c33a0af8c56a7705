/**
 * Facebook Pages' posting rules (Pages API posts, https://developers.facebook.com/docs/pages-api/posts;
 * Page Stories API, https://developers.facebook.com/docs/page-stories-api): text and first
 * comment length, feed photos (at most 10, 4 MB each) or one video, and stories: one photo
 * (JPEG, PNG, BMP, GIF or TIFF, up to 10 MB) or one video (MP4/MOV, 3 to 60 seconds, at least
 * 540 x 960, up to 4 GB).
 */
import {
  FACEBOOK_MAX_FIRST_COMMENT, FACEBOOK_MAX_PHOTOS, FACEBOOK_MAX_TEXT, FACEBOOK_PHOTO_MAX_BYTES, FACEBOOK_STORY_PHOTO_MAX_BYTES,
  FACEBOOK_STORY_VIDEO_MAX_BYTES, FACEBOOK_STORY_VIDEO_MAX_SECONDS, FACEBOOK_STORY_VIDEO_MIN_HEIGHT, FACEBOOK_STORY_VIDEO_MIN_SECONDS,
  FACEBOOK_STORY_VIDEO_MIN_WIDTH,
} from '../capabilities.ts';
import type { MediaRef, PlatformRuleSet, RulePost, RuleViolation } from './types.ts';
import { HERALD_RULE_SOURCE, n } from './format.ts';

export interface FacebookLimits {
  maxPhotos: number;
  storyPhotoMaxBytes: number;
  /** Story media must be on a public HTTPS URL (docs/decisions/0016). */
  storyRequireHttps: boolean;
}

export const FACEBOOK_DEFAULT_LIMITS: FacebookLimits = { maxPhotos: FACEBOOK_MAX_PHOTOS, storyPhotoMaxBytes: FACEBOOK_STORY_PHOTO_MAX_BYTES, storyRequireHttps: true };

const POSTS = 'https://developers.facebook.com/docs/pages-api/posts';
const STORIES = 'https://developers.facebook.com/docs/page-stories-api';
const COMMENTS = 'https://developers.facebook.com/docs/graph-api/reference/object/comments';

const ext = (m: MediaRef) => (m.filename ?? (() => { try { return new URL(m.url).pathname; } catch { return m.url; } })()).toLowerCase().replace(/^.*\./, '');
/** Story photo formats the Page Stories API lists: .jpeg .bmp .png .gif .tiff. */
const isStoryPhotoFormat = (m: MediaRef) => (m.mimeType ? /^image\/(jpe?g|png|bmp|gif|tiff)$/i.test(m.mimeType) : ['jpg', 'jpeg', 'png', 'bmp', 'gif', 'tif', 'tiff'].includes(ext(m)));
const isMp4OrMov = (m: MediaRef) => (m.mimeType ? /^video\/(mp4|quicktime)$/i.test(m.mimeType) : ['mp4', 'mov'].includes(ext(m)));
export const isFacebookStory = (post: RulePost) => post.platformSpecificData.contentType === 'story';
const mb = (bytes: number) => Math.round(bytes / 1048576);

export const FACEBOOK_RULES = [
  { id: 'facebook.thread.unsupported', summary: 'Facebook Pages have no threads: one post per target (use firstComment for a follow-up).', source: HERALD_RULE_SOURCE },
  { id: 'facebook.text.max_length', summary: `Text: at most ${n(FACEBOOK_MAX_TEXT)} characters.`, source: POSTS },
  { id: 'facebook.text.required', summary: 'A feed post without media needs text or a link.', source: POSTS },
  { id: 'facebook.first_comment.type', summary: 'platformSpecificData.firstComment is a string.', source: HERALD_RULE_SOURCE },
  { id: 'facebook.first_comment.max_length', summary: `First comment: at most about ${n(FACEBOOK_MAX_FIRST_COMMENT)} characters.`, source: COMMENTS },
  { id: 'facebook.link.url', summary: 'platformSpecificData.link is an http(s) URL.', source: POSTS },
  { id: 'facebook.content_type', summary: 'platformSpecificData.contentType is "post" or "story".', source: HERALD_RULE_SOURCE },
  { id: 'facebook.media.type', summary: 'Feed posts take photos and videos, not documents.', source: POSTS },
  { id: 'facebook.media.image_max_bytes', summary: 'Feed photos: at most 4 MB each.', source: POSTS },
  { id: 'facebook.media.single_video', summary: 'A feed post takes one video.', source: POSTS },
  { id: 'facebook.media.mixed', summary: 'A feed post takes photos or one video, not both.', source: POSTS },
  { id: 'facebook.media.max_photos', summary: `A feed post takes at most ${FACEBOOK_MAX_PHOTOS} photos.`, source: POSTS },
  { id: 'facebook.story.single_media', summary: 'A story is exactly one photo or one video.', source: STORIES },
  { id: 'facebook.story.media_type', summary: 'Story media is a photo or a video (no documents).', source: STORIES },
  { id: 'facebook.story.image_format', summary: 'Story photos: JPEG, PNG, BMP, GIF or TIFF.', source: STORIES },
  { id: 'facebook.story.video_format', summary: 'Story videos: MP4 or MOV.', source: STORIES },
  { id: 'facebook.story.https_url', summary: 'Story media is on a public HTTPS URL.', source: 'docs/decisions/0016-facebook-instagram-and-selection.md' },
  { id: 'facebook.story.image_max_bytes', summary: 'Story photos: at most 10 MB each.', source: STORIES },
  { id: 'facebook.story.video_max_bytes', summary: 'Story videos: at most 4 GB.', source: STORIES },
  { id: 'facebook.story.video_duration', summary: `Story videos: ${FACEBOOK_STORY_VIDEO_MIN_SECONDS} to ${FACEBOOK_STORY_VIDEO_MAX_SECONDS} seconds.`, source: STORIES },
  { id: 'facebook.story.video_dimensions', summary: `Story videos: at least ${FACEBOOK_STORY_VIDEO_MIN_WIDTH} x ${FACEBOOK_STORY_VIDEO_MIN_HEIGHT} pixels (portrait, 9:16 recommended).`, source: STORIES },
  { id: 'facebook.story.first_comment', summary: 'Stories take no first comment.', source: STORIES },
] as const;

type FacebookRuleId = (typeof FACEBOOK_RULES)[number]['id'];

/** Every Facebook rule `post` breaks, without any network call. Empty array = publishable. */
function check(post: RulePost, limits: Partial<FacebookLimits> = {}): RuleViolation[] {
  const L = { ...FACEBOOK_DEFAULT_LIMITS, ...limits };
  const out: RuleViolation[] = [];
  const psd = post.platformSpecificData ?? {};
  const text = post.text ?? '';
  const media = post.mediaItems ?? [];
  const v = (field: string, rule: FacebookRuleId, message: string) => out.push({ field, rule, message });
  if ((post.threadItems?.length ?? 0) > 1) v('threadItems', 'facebook.thread.unsupported', 'Facebook Pages have no threads; publish one post (use firstComment for a follow-up)');
  if ([...text].length > FACEBOOK_MAX_TEXT) v('content', 'facebook.text.max_length', `Facebook posts are limited to ${FACEBOOK_MAX_TEXT} characters`);
  if (psd.firstComment !== undefined) {
    if (typeof psd.firstComment !== 'string') v('platformSpecificData.firstComment', 'facebook.first_comment.type', 'firstComment must be a string');
    else if ([...psd.firstComment].length > FACEBOOK_MAX_FIRST_COMMENT) v('platformSpecificData.firstComment', 'facebook.first_comment.max_length', `Facebook comments are limited to about ${FACEBOOK_MAX_FIRST_COMMENT} characters`);
  }
  if (psd.link !== undefined && (typeof psd.link !== 'string' || !/^https?:\/\//.test(psd.link))) v('platformSpecificData.link', 'facebook.link.url', 'link must be an http(s) URL');
  if (psd.contentType !== undefined && psd.contentType !== 'story' && psd.contentType !== 'post') v('platformSpecificData.contentType', 'facebook.content_type', 'contentType must be "post" or "story"');
  if (isFacebookStory(post)) {
    if (media.length !== 1) v('mediaItems', 'facebook.story.single_media', 'A Facebook story needs exactly one photo or one video');
    const m = media[0];
    if (m) {
      const photo = m.type === 'image' || m.type === 'gif';
      if (photo && !isStoryPhotoFormat(m)) v('mediaItems.0', 'facebook.story.image_format', `Facebook story photos must be JPEG, PNG, BMP, GIF or TIFF${m.mimeType ? ` (this one is ${m.mimeType})` : ''}`);
      else if (m.type === 'video' && !isMp4OrMov(m)) v('mediaItems.0', 'facebook.story.video_format', 'Facebook story videos must be MP4 or MOV (H.264 + AAC)');
      else if (!photo && m.type !== 'video') v('mediaItems.0', 'facebook.story.media_type', 'A Facebook story is one photo or one video');
      if (L.storyRequireHttps && !/^https:\/\//i.test(m.url)) v('mediaItems.0', 'facebook.story.https_url', 'Facebook story media must be on a public HTTPS URL');
      if (photo && m.size !== undefined && m.size > L.storyPhotoMaxBytes) v('mediaItems.0', 'facebook.story.image_max_bytes', `Facebook story photos are limited to ${mb(L.storyPhotoMaxBytes)} MB`);
      if (m.type === 'video') {
        if (m.size !== undefined && m.size > FACEBOOK_STORY_VIDEO_MAX_BYTES) v('mediaItems.0', 'facebook.story.video_max_bytes', 'Facebook story videos are limited to 4 GB');
        const d = m.durationSeconds;
        if (d !== undefined && (d < FACEBOOK_STORY_VIDEO_MIN_SECONDS || d > FACEBOOK_STORY_VIDEO_MAX_SECONDS)) {
          v('mediaItems.0', 'facebook.story.video_duration', `Facebook story videos must last ${FACEBOOK_STORY_VIDEO_MIN_SECONDS} to ${FACEBOOK_STORY_VIDEO_MAX_SECONDS} seconds (this one lasts ${d} s)`);
        }
        if (m.width && m.height && (m.width < FACEBOOK_STORY_VIDEO_MIN_WIDTH || m.height < FACEBOOK_STORY_VIDEO_MIN_HEIGHT)) {
          v('mediaItems.0', 'facebook.story.video_dimensions', `Facebook story videos must be at least ${FACEBOOK_STORY_VIDEO_MIN_WIDTH} x ${FACEBOOK_STORY_VIDEO_MIN_HEIGHT} pixels, portrait (this one is ${m.width} x ${m.height})`);
        }
      }
    }
    if (typeof psd.firstComment === 'string' && psd.firstComment.trim()) v('platformSpecificData.firstComment', 'facebook.story.first_comment', 'Facebook stories cannot have a first comment');
    return out;
  }
  if (media.length === 0 && !text.trim() && typeof psd.link !== 'string') v('content', 'facebook.text.required', 'A Facebook post without media needs text or a link');
  const videos = media.filter((m) => m.type === 'video');
  media.forEach((m, i) => {
    if (m.type === 'document') v(`mediaItems.${i}`, 'facebook.media.type', 'Facebook Pages posts take images and videos, not documents');
    if ((m.type === 'image' || m.type === 'gif') && m.size !== undefined && m.size > FACEBOOK_PHOTO_MAX_BYTES) v(`mediaItems.${i}`, 'facebook.media.image_max_bytes', 'Facebook photos are limited to 4 MB');
  });
  if (videos.length > 1) v('mediaItems', 'facebook.media.single_video', 'A Facebook post takes one video');
  if (videos.length > 0 && media.length > videos.length) v('mediaItems', 'facebook.media.mixed', 'A Facebook post takes either photos or one video, not both');
  if (videos.length === 0 && media.length > L.maxPhotos) v('mediaItems', 'facebook.media.max_photos', `A Facebook post takes at most ${L.maxPhotos} photos`);
  return out;
}

export const facebookRules: PlatformRuleSet<FacebookLimits> = { platform: 'facebook', rules: FACEBOOK_RULES, check };
