/**
 * Threads' posting rules (https://developers.facebook.com/docs/threads/posts and the text
 * attachments / links page): 500 characters (emoji count as their UTF-8 bytes) and at most 5
 * links per post, text on every post of a thread, JPEG/PNG images up to 8 MB, MP4/MOV videos
 * up to 1 GB and 5 minutes, carousels of 2 to 20 items.
 */
import {
  THREADS_CAROUSEL_MAX, THREADS_IMAGE_MAX_BYTES, THREADS_MAX_LINKS, THREADS_MAX_TEXT, THREADS_VIDEO_MAX_BYTES, THREADS_VIDEO_MAX_SECONDS,
} from '../capabilities.ts';
import { threadsTextLength } from './text.ts';
import type { MediaRef, PlatformRuleSet, RulePost, RuleViolation } from './types.ts';
import { HERALD_RULE_SOURCE } from './format.ts';

export interface ThreadsLimits {
  carouselMax: number;
}

export const THREADS_DEFAULT_LIMITS: ThreadsLimits = { carouselMax: THREADS_CAROUSEL_MAX };

const POSTS = 'https://developers.facebook.com/docs/threads/posts';
const LINKS = 'https://developers.facebook.com/documentation/threads/create-posts/text-attachments';
const MEDIA = 'https://developers.facebook.com/docs/threads/overview#media-specifications';

/**
 * The links of a post's text as the link limit counts them ("all unique URLs found in the text
 * field"): each distinct `http(s)://...` or `www....` run up to the next space.
 */
export function threadsLinks(text: string): number {
  return new Set(text.match(/(?:https?:\/\/|\bwww\.)[^\s]+/gi)?.map((u) => u.toLowerCase()) ?? []).size;
}

const ext = (m: MediaRef) => { try { return new URL(m.filename ? `https://x/${m.filename}` : m.url).pathname.toLowerCase().replace(/^.*\./, ''); } catch { return ''; } };
/** JPEG or PNG by MIME type, else by file name (unknown: left to the platform). */
const imageFormatOk = (m: MediaRef) => (m.mimeType ? /^image\/(jpeg|jpg|pjpeg|png)$/i.test(m.mimeType) : !['webp', 'gif', 'heic', 'heif', 'bmp', 'tif', 'tiff', 'avif'].includes(ext(m)));
/** MP4 or MOV by MIME type, else by file name. */
const videoFormatOk = (m: MediaRef) => (m.mimeType ? /^video\/(mp4|quicktime)$/i.test(m.mimeType) : !['webm', 'mkv', 'avi', 'wmv', 'flv'].includes(ext(m)));

export const THREADS_RULES = [
  { id: 'threads.text.max_length', summary: `Text: at most ${THREADS_MAX_TEXT} characters per post; emoji count as their UTF-8 bytes.`, source: POSTS },
  { id: 'threads.text.max_links', summary: `Text: at most ${THREADS_MAX_LINKS} links per post (more fail with THREADS_API__LINK_LIMIT_EXCEEDED).`, source: LINKS },
  { id: 'threads.text.required', summary: 'A post without media needs text; every reply of a thread needs text.', source: POSTS },
  { id: 'threads.thread.media_first_only', summary: 'Threads: only the first post carries media.', source: HERALD_RULE_SOURCE },
  { id: 'threads.media.type', summary: 'Media: images and videos (no GIFs, no documents).', source: MEDIA },
  { id: 'threads.media.format', summary: 'Images are JPEG or PNG; videos are MP4 or MOV.', source: MEDIA },
  { id: 'threads.media.image_max_bytes', summary: 'Images: at most 8 MB each.', source: MEDIA },
  { id: 'threads.media.video_max_bytes', summary: 'Videos: at most 1 GB each.', source: MEDIA },
  { id: 'threads.media.video_max_duration', summary: `Videos: at most ${THREADS_VIDEO_MAX_SECONDS / 60} minutes.`, source: MEDIA },
  { id: 'threads.carousel.max_items', summary: `Carousels: 2 to ${THREADS_CAROUSEL_MAX} images and videos.`, source: POSTS },
  { id: 'threads.reply_to.id', summary: 'platformSpecificData.replyToId is the numeric id of a Threads post.', source: HERALD_RULE_SOURCE },
] as const;

type ThreadsRuleId = (typeof THREADS_RULES)[number]['id'];

/** Every Threads rule `post` breaks, without any network call. Empty array = publishable. */
function check(post: RulePost, limits: Partial<ThreadsLimits> = {}): RuleViolation[] {
  const L = { ...THREADS_DEFAULT_LIMITS, ...limits };
  const out: RuleViolation[] = [];
  const v = (field: string, rule: ThreadsRuleId, message: string) => out.push({ field, rule, message });
  const items = post.threadItems ?? [];
  const media = post.mediaItems ?? [];
  const texts = items.length > 0 ? items.map((t) => t.content ?? '') : [post.text ?? ''];
  const textField = (i: number) => (items.length > 0 ? `threadItems.${i}.content` : 'content');
  texts.forEach((t, i) => {
    const len = threadsTextLength(t);
    if (len > THREADS_MAX_TEXT) v(textField(i), 'threads.text.max_length', `Threads posts are limited to ${THREADS_MAX_TEXT} characters (emoji count as their UTF-8 bytes); this text has ${len}`);
    const links = threadsLinks(t);
    if (links > THREADS_MAX_LINKS) v(textField(i), 'threads.text.max_links', `Threads posts take at most ${THREADS_MAX_LINKS} links; this one has ${links}`);
    if (i === 0 && media.length === 0 && !t.trim()) v(textField(0), 'threads.text.required', 'A Threads post without media needs text');
    if (i > 0 && !t.trim()) v(textField(i), 'threads.text.required', `Reply ${i + 1} of the thread is empty: every Threads reply needs text`);
  });
  items.slice(1).forEach((t, i) => {
    if (t.mediaItems?.length) v(`threadItems.${i + 1}.mediaItems`, 'threads.thread.media_first_only', 'Only the first post of a Threads thread can carry media here');
  });
  media.forEach((m, i) => {
    const f = `mediaItems.${i}`;
    if (m.type === 'document' || m.type === 'gif') v(f, 'threads.media.type', `Threads accepts images (JPEG, PNG) and videos (MP4, MOV), not ${m.type === 'gif' ? 'GIFs' : 'documents'}`);
    if (m.type === 'image' && !imageFormatOk(m)) v(f, 'threads.media.format', `Threads images must be JPEG or PNG (this one is ${m.mimeType ?? ext(m)})`);
    if (m.type === 'video' && !videoFormatOk(m)) v(f, 'threads.media.format', `Threads videos must be MP4 or MOV (this one is ${m.mimeType ?? ext(m)})`);
    if (m.type === 'image' && m.size !== undefined && m.size > THREADS_IMAGE_MAX_BYTES) v(f, 'threads.media.image_max_bytes', 'Threads images are limited to 8 MB');
    if (m.type === 'video' && m.size !== undefined && m.size > THREADS_VIDEO_MAX_BYTES) v(f, 'threads.media.video_max_bytes', 'Threads videos are limited to 1 GB');
    if (m.type === 'video' && m.durationSeconds !== undefined && m.durationSeconds > THREADS_VIDEO_MAX_SECONDS) v(f, 'threads.media.video_max_duration', 'Threads videos are limited to 5 minutes');
  });
  if (media.length > L.carouselMax) v('mediaItems', 'threads.carousel.max_items', `A Threads carousel takes at most ${L.carouselMax} items`);
  const replyTo = post.platformSpecificData?.replyToId;
  if (replyTo !== undefined && (typeof replyTo !== 'string' || !/^\d+$/.test(replyTo))) {
    v('platformSpecificData.replyToId', 'threads.reply_to.id', 'replyToId must be the numeric id of a Threads post');
  }
  return out;
}

export const threadsRules: PlatformRuleSet<ThreadsLimits> = { platform: 'threads', rules: THREADS_RULES, check };
