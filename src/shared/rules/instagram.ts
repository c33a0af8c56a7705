/**
 * Instagram's posting rules (IG User Media reference and the Content Publishing guide):
 * caption length, hashtags and @-mentions, JPEG images of 4:5 to 1.91:1 up to 8 MB, reel
 * duration and size, 60-second story and carousel videos, carousel size, stories,
 * collaborators, user tags, the video cover and the first comment.
 */
import {
  INSTAGRAM_CAROUSEL_MAX, INSTAGRAM_IMAGE_MAX_ASPECT, INSTAGRAM_IMAGE_MAX_BYTES, INSTAGRAM_IMAGE_MIN_ASPECT, INSTAGRAM_MAX_CAPTION,
  INSTAGRAM_MAX_COLLABORATORS, INSTAGRAM_MAX_FIRST_COMMENT, INSTAGRAM_MAX_HASHTAGS, INSTAGRAM_MAX_MENTIONS, INSTAGRAM_STORY_VIDEO_MAX_SECONDS,
  INSTAGRAM_VIDEO_MAX_BYTES, INSTAGRAM_VIDEO_MAX_SECONDS, INSTAGRAM_VIDEO_MIN_SECONDS,
} from '../capabilities.ts';
import type { MediaRef, PlatformRuleSet, RulePost, RuleViolation } from './types.ts';
import { HERALD_RULE_SOURCE, n } from './format.ts';

export interface InstagramLimits {
  maxCollaborators: number;
  carouselMax: number;
  videoMaxBytes: number;
  videoMinSeconds: number;
  videoMaxSeconds: number;
}

export const INSTAGRAM_DEFAULT_LIMITS: InstagramLimits = {
  maxCollaborators: INSTAGRAM_MAX_COLLABORATORS, carouselMax: INSTAGRAM_CAROUSEL_MAX, videoMaxBytes: INSTAGRAM_VIDEO_MAX_BYTES,
  videoMinSeconds: INSTAGRAM_VIDEO_MIN_SECONDS, videoMaxSeconds: INSTAGRAM_VIDEO_MAX_SECONDS,
};

const MEDIA_REF = 'https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media';
const PUBLISHING = 'https://developers.facebook.com/docs/instagram-platform/content-publishing';
const COLLABORATORS = 'https://developers.facebook.com/documentation/instagram-platform/instagram-graph-api/reference/ig-media/collaborators';
const COMMENTS = 'https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-media/comments';

/** Hashtags of a caption as Herald counts them (`#` after a space or the start). */
export const instagramHashtags = (text: string) => text.match(/(^|\s)#[^\s#]+/g)?.length ?? 0;
/** @-mentions of a caption (`@username` after a space or the start). */
export const instagramMentions = (text: string) => text.match(/(^|\s)@[A-Za-z0-9._]+/g)?.length ?? 0;

const ext = (url: string) => { try { return new URL(url).pathname.toLowerCase().replace(/^.*\./, ''); } catch { return ''; } };
export const isInstagramStory = (post: RulePost) => post.platformSpecificData.contentType === 'story';
/** A video's cover: the item's `instagramThumbnail`, else `platformSpecificData.instagramThumbnail`. */
export const instagramThumbnailOf = (post: RulePost, m: MediaRef): unknown => m.instagramThumbnail ?? post.platformSpecificData.instagramThumbnail;

/** Whether an image is JPEG, by its stored MIME type, else by its file name. Unknown: treated as JPEG (the platform checks the bytes). */
function isJpeg(m: MediaRef): boolean {
  if (m.mimeType) return /^image\/(jpeg|jpg|pjpeg)$/i.test(m.mimeType);
  const e = ext(m.filename ? `https://x/${m.filename}` : m.url);
  return !['png', 'webp', 'gif', 'heic', 'heif', 'bmp', 'tif', 'tiff', 'avif'].includes(e);
}

export const INSTAGRAM_RULES = [
  { id: 'instagram.thread.unsupported', summary: 'Instagram has no threads: one post per target (use a carousel or the first comment).', source: HERALD_RULE_SOURCE },
  { id: 'instagram.caption.max_length', summary: `Caption: at most ${n(INSTAGRAM_MAX_CAPTION)} characters.`, source: MEDIA_REF },
  { id: 'instagram.caption.hashtags', summary: `Caption: at most ${INSTAGRAM_MAX_HASHTAGS} hashtags.`, source: MEDIA_REF },
  { id: 'instagram.caption.mentions', summary: `Caption: at most ${INSTAGRAM_MAX_MENTIONS} @-mentions.`, source: MEDIA_REF },
  { id: 'instagram.content_type', summary: 'platformSpecificData.contentType is "post", "reel" or "story".', source: HERALD_RULE_SOURCE },
  { id: 'instagram.media.required', summary: 'Every post needs at least one image or video (Instagram has no text posts).', source: PUBLISHING },
  { id: 'instagram.media.type', summary: 'Media: images and videos only (no GIFs, no documents).', source: MEDIA_REF },
  { id: 'instagram.image.format', summary: 'Images: JPEG only (PNG, WebP, GIF and others are refused).', source: MEDIA_REF },
  { id: 'instagram.image.aspect_ratio', summary: 'Feed and carousel images: aspect ratio (width / height) from 4:5 (0.8) to 1.91:1.', source: MEDIA_REF },
  { id: 'instagram.media.image_max_bytes', summary: `Images: at most 8 MB (${n(INSTAGRAM_IMAGE_MAX_BYTES)} bytes) each.`, source: MEDIA_REF },
  { id: 'instagram.media.video_max_bytes', summary: 'Reels: at most 300 MB.', source: MEDIA_REF },
  { id: 'instagram.media.video_duration', summary: 'Reels (single videos): 3 seconds to 15 minutes.', source: MEDIA_REF },
  { id: 'instagram.story.video_duration', summary: `Story videos: at most ${INSTAGRAM_STORY_VIDEO_MAX_SECONDS} seconds.`, source: MEDIA_REF },
  { id: 'instagram.carousel.video_duration', summary: `Carousel videos: at most ${INSTAGRAM_STORY_VIDEO_MAX_SECONDS} seconds each.`, source: MEDIA_REF },
  { id: 'instagram.thumbnail.url', summary: 'A video cover (instagramThumbnail) is an http(s) URL.', source: HERALD_RULE_SOURCE },
  { id: 'instagram.thumbnail.format', summary: 'A video cover (cover_url) is a JPEG (.jpg or .jpeg).', source: MEDIA_REF },
  { id: 'instagram.story.single_media', summary: 'A story is one image or one video.', source: HERALD_RULE_SOURCE },
  { id: 'instagram.story.collaborators', summary: 'Stories take no collaborators.', source: COLLABORATORS },
  { id: 'instagram.story.first_comment', summary: 'Stories take no comments, so no first comment.', source: COMMENTS },
  { id: 'instagram.carousel.max_items', summary: `Carousels: 2 to ${INSTAGRAM_CAROUSEL_MAX} images and videos.`, source: MEDIA_REF },
  { id: 'instagram.collaborators.type', summary: 'platformSpecificData.collaborators is a list of usernames.', source: HERALD_RULE_SOURCE },
  { id: 'instagram.collaborators.max', summary: `Collaborators: at most ${INSTAGRAM_MAX_COLLABORATORS} per post (feed images, reels, carousels).`, source: COLLABORATORS },
  { id: 'instagram.collaborators.no_at', summary: 'Collaborators are given without the @.', source: HERALD_RULE_SOURCE },
  { id: 'instagram.collaborators.username', summary: 'Collaborators are Instagram usernames: 1 to 30 letters, digits, dots and underscores.', source: HERALD_RULE_SOURCE },
  { id: 'instagram.user_tags.media', summary: 'User tags go on images only (single images and carousel images; not reels or stories).', source: MEDIA_REF },
  { id: 'instagram.user_tags.type', summary: 'platformSpecificData.userTags is a list of {username, x, y}.', source: HERALD_RULE_SOURCE },
  { id: 'instagram.user_tags.username', summary: 'Each user tag names a username, without the @.', source: HERALD_RULE_SOURCE },
  { id: 'instagram.user_tags.position', summary: 'User tag x and y are fractions of the image, 0.0 to 1.0.', source: MEDIA_REF },
  { id: 'instagram.user_tags.media_index', summary: 'A user tag\'s mediaIndex points at an item of the post.', source: HERALD_RULE_SOURCE },
  { id: 'instagram.first_comment.type', summary: 'platformSpecificData.firstComment is a string.', source: HERALD_RULE_SOURCE },
  { id: 'instagram.first_comment.max_length', summary: `First comment: at most ${n(INSTAGRAM_MAX_FIRST_COMMENT)} characters.`, source: COMMENTS },
] as const;

export type InstagramRuleId = (typeof INSTAGRAM_RULES)[number]['id'];
interface UserTag { username: string; x: number; y: number; mediaIndex?: number }

/** Every Instagram rule `post` breaks, without any network call. Empty array = publishable. */
function check(post: RulePost, limits: Partial<InstagramLimits> = {}): RuleViolation[] {
  const L = { ...INSTAGRAM_DEFAULT_LIMITS, ...limits };
  const out: RuleViolation[] = [];
  const v = (field: string, rule: InstagramRuleId, message: string) => out.push({ field, rule, message });
  const psd = post.platformSpecificData ?? {};
  const text = post.text ?? '';
  const media = post.mediaItems ?? [];
  const story = isInstagramStory(post);
  const carousel = !story && media.length > 1;
  if ((post.threadItems?.length ?? 0) > 1) v('threadItems', 'instagram.thread.unsupported', 'Instagram has no threads; use a carousel or firstComment');
  if ([...text].length > INSTAGRAM_MAX_CAPTION) v('content', 'instagram.caption.max_length', `Instagram captions are limited to ${INSTAGRAM_MAX_CAPTION} characters`);
  const hashtags = instagramHashtags(text);
  if (hashtags > INSTAGRAM_MAX_HASHTAGS) v('content', 'instagram.caption.hashtags', `Instagram captions take at most ${INSTAGRAM_MAX_HASHTAGS} hashtags; this one has ${hashtags}`);
  const mentions = instagramMentions(text);
  if (mentions > INSTAGRAM_MAX_MENTIONS) v('content', 'instagram.caption.mentions', `Instagram captions take at most ${INSTAGRAM_MAX_MENTIONS} @-mentions; this one has ${mentions}`);
  if (psd.contentType !== undefined && psd.contentType !== 'story' && psd.contentType !== 'post' && psd.contentType !== 'reel') v('platformSpecificData.contentType', 'instagram.content_type', 'contentType must be "post", "reel" or "story"');
  if (media.length === 0) v('mediaItems', 'instagram.media.required', 'Instagram posts need at least one image or video');
  media.forEach((m, i) => {
    const f = `mediaItems.${i}`;
    if (m.type !== 'image' && m.type !== 'video') v(f, 'instagram.media.type', `Instagram takes images (JPEG) and videos (MP4, MOV), not ${m.type === 'gif' ? 'GIFs' : 'documents'}`);
    if (m.type === 'image') {
      if (!isJpeg(m)) v(f, 'instagram.image.format', `Instagram images must be JPEG${m.mimeType ? ` (this one is ${m.mimeType})` : ''}`);
      if (!story && m.width && m.height) {
        const { w: minW, h: minH } = INSTAGRAM_IMAGE_MIN_ASPECT;
        const { w: maxW, h: maxH } = INSTAGRAM_IMAGE_MAX_ASPECT;
        if (m.width * minH < m.height * minW || m.width * maxH > m.height * maxW) {
          v(f, 'instagram.image.aspect_ratio', `Instagram feed images need an aspect ratio from 4:5 (0.8) to 1.91:1; this one is ${m.width}x${m.height} (${(m.width / m.height).toFixed(3)})`);
        }
      }
      if (m.size !== undefined && m.size > INSTAGRAM_IMAGE_MAX_BYTES) v(f, 'instagram.media.image_max_bytes', 'Instagram images are limited to 8 MB');
    }
    if (m.type === 'video') {
      if (m.size !== undefined && m.size > L.videoMaxBytes) v(f, 'instagram.media.video_max_bytes', `Instagram videos are limited to ${Math.round(L.videoMaxBytes / 1048576)} MB`);
      const d = m.durationSeconds;
      if (d !== undefined) {
        if (story) {
          if (d > INSTAGRAM_STORY_VIDEO_MAX_SECONDS) v(f, 'instagram.story.video_duration', `Instagram story videos are limited to ${INSTAGRAM_STORY_VIDEO_MAX_SECONDS} seconds (this one lasts ${d} s)`);
        } else if (carousel) {
          if (d > INSTAGRAM_STORY_VIDEO_MAX_SECONDS) v(f, 'instagram.carousel.video_duration', `Instagram carousel videos are limited to ${INSTAGRAM_STORY_VIDEO_MAX_SECONDS} seconds (this one lasts ${d} s)`);
        } else if (d < L.videoMinSeconds || d > L.videoMaxSeconds) {
          v(f, 'instagram.media.video_duration', `Instagram videos must last ${L.videoMinSeconds} seconds to ${L.videoMaxSeconds / 60} minutes`);
        }
      }
      const thumb = instagramThumbnailOf(post, m);
      if (thumb !== undefined) {
        if (typeof thumb !== 'string' || !/^https?:\/\//.test(thumb)) v(`${f}.instagramThumbnail`, 'instagram.thumbnail.url', 'instagramThumbnail must be an http(s) URL');
        else if (!['jpg', 'jpeg'].includes(ext(thumb))) v(`${f}.instagramThumbnail`, 'instagram.thumbnail.format', 'The Instagram video thumbnail must be a JPEG (.jpg or .jpeg)');
      }
    }
  });
  if (story) {
    if (media.length > 1) v('mediaItems', 'instagram.story.single_media', 'An Instagram story is one image or one video');
    if (psd.collaborators !== undefined) v('platformSpecificData.collaborators', 'instagram.story.collaborators', 'Collaborators are not allowed on Instagram stories');
    if (psd.firstComment !== undefined) v('platformSpecificData.firstComment', 'instagram.story.first_comment', 'Instagram stories cannot have a first comment');
  } else if (media.length > L.carouselMax) {
    v('mediaItems', 'instagram.carousel.max_items', `An Instagram carousel takes 2 to ${L.carouselMax} items`);
  }
  if (psd.collaborators !== undefined && !story) {
    const c = psd.collaborators;
    if (!Array.isArray(c) || c.some((x) => typeof x !== 'string')) v('platformSpecificData.collaborators', 'instagram.collaborators.type', 'collaborators must be a list of Instagram usernames');
    else {
      if (c.length > L.maxCollaborators) v('platformSpecificData.collaborators', 'instagram.collaborators.max', `An Instagram post takes at most ${L.maxCollaborators} collaborators`);
      (c as string[]).forEach((u, i) => {
        if (u.startsWith('@')) v(`platformSpecificData.collaborators.${i}`, 'instagram.collaborators.no_at', `Give collaborator usernames without the @ ("${u.slice(1)}")`);
        else if (!/^[A-Za-z0-9._]{1,30}$/.test(u)) v(`platformSpecificData.collaborators.${i}`, 'instagram.collaborators.username', `"${u}" is not an Instagram username`);
      });
    }
  }
  if (psd.userTags !== undefined) {
    const tags = psd.userTags;
    const single = media.length === 1 ? media[0] : undefined;
    if (story || (single && single.type === 'video')) v('platformSpecificData.userTags', 'instagram.user_tags.media', 'userTags are allowed on images and carousels only');
    else if (!Array.isArray(tags)) v('platformSpecificData.userTags', 'instagram.user_tags.type', 'userTags must be a list of {username, x, y}');
    else {
      (tags as UserTag[]).forEach((t, i) => {
        const f = `platformSpecificData.userTags.${i}`;
        if (!t || typeof t.username !== 'string' || !t.username || t.username.startsWith('@')) v(f, 'instagram.user_tags.username', 'Each user tag needs a username without the @');
        for (const k of ['x', 'y'] as const) {
          if (typeof t?.[k] !== 'number' || !(t[k] >= 0 && t[k] <= 1)) v(`${f}.${k}`, 'instagram.user_tags.position', `${k} must be a number from 0.0 to 1.0 (a fraction of the image, not pixels)`);
        }
        const idx = t?.mediaIndex ?? 0;
        const target = media[idx];
        if (!Number.isInteger(idx) || !target) v(`${f}.mediaIndex`, 'instagram.user_tags.media_index', 'mediaIndex must point at an item of mediaItems');
        else if (target.type !== 'image') v(`${f}.mediaIndex`, 'instagram.user_tags.media', 'userTags can only be placed on images');
      });
    }
  }
  if (psd.firstComment !== undefined && !story) {
    if (typeof psd.firstComment !== 'string') v('platformSpecificData.firstComment', 'instagram.first_comment.type', 'firstComment must be a string');
    else if ([...psd.firstComment].length > INSTAGRAM_MAX_FIRST_COMMENT) v('platformSpecificData.firstComment', 'instagram.first_comment.max_length', `Instagram comments are limited to about ${INSTAGRAM_MAX_FIRST_COMMENT} characters`);
  }
  return out;
}

export const instagramRules: PlatformRuleSet<InstagramLimits> = { platform: 'instagram', rules: INSTAGRAM_RULES, check };
