/**
 * X's posting rules (https://docs.x.com/x-api/posts/create-post,
 * https://docs.x.com/x-api/media/quickstart/best-practices,
 * https://docs.x.com/fundamentals/counting-characters): weighted text length of every post
 * of a thread (counted by `twitter-text`, as X counts it), every post needs text or media,
 * up to 4 photos or one GIF or one video, media sizes and video duration.
 */
import {
  X_GIF_MAX_BYTES, X_IMAGE_MAX_BYTES, X_MAX_IMAGES, X_MAX_WEIGHTED_LENGTH, X_VIDEO_MAX_BYTES, X_VIDEO_MAX_SECONDS, X_VIDEO_MIN_SECONDS,
} from '../capabilities.ts';
import { weightedLength } from './weighted-length.ts';
import { TWITTER_RULES, mb } from './twitter-table.ts';
import type { MediaRef, PlatformRuleSet, RulePost, RuleViolation } from './types.ts';


export { TWITTER_RULES };

export type TwitterRuleId = (typeof TWITTER_RULES)[number]['id'];

const PHOTO_MIME = /^image\/(jpeg|jpg|pjpeg|png|gif|webp)$/i;

/** One post to create, with where its fields live in the request. */
interface Item { text: string; textField: string; media: MediaRef[] }

/** The posts a request makes: one, or one per thread item; the media (the post's) go on the first. */
function planItems(post: RulePost): Item[] {
  const thread = post.threadItems ?? [];
  if (!thread.length) return [{ text: post.text ?? '', textField: 'content', media: post.mediaItems ?? [] }];
  return thread.map((t, i) => ({ text: t.content ?? '', textField: `threadItems.${i}.content`, media: i === 0 ? post.mediaItems ?? [] : [] }));
}

/** Every X rule `post` breaks, without any network call. Empty array = publishable. */
function check(post: RulePost): RuleViolation[] {
  const out: RuleViolation[] = [];
  const add = (field: string, rule: TwitterRuleId, message: string) => out.push({ field, rule, message });
  planItems(post).forEach((item, i, all) => {
    const w = weightedLength(item.text);
    if (w > X_MAX_WEIGHTED_LENGTH) {
      add(item.textField, 'twitter.text.max_weighted_length', `X posts are limited to ${X_MAX_WEIGHTED_LENGTH} weighted characters (links count 23, emoji 2); this text has ${w}`);
    }
    if (item.text.trim() === '' && item.media.length === 0) {
      add(item.textField, 'twitter.text.empty', all.length > 1 ? `Post ${i + 1} of the X thread is empty: every post needs text${i === 0 ? ' or media' : ''}` : 'An X post needs text or media');
    }
  });
  (post.threadItems ?? []).forEach((t, i) => {
    if (i > 0 && t.mediaItems?.length) add(`threadItems.${i}.mediaItems`, 'twitter.thread.media_first_only', 'Only the first post of an X thread can carry media here');
  });
  const media = post.mediaItems ?? [];
  const images = media.filter((m) => m.type === 'image');
  const gifs = media.filter((m) => m.type === 'gif');
  const videos = media.filter((m) => m.type === 'video');
  media.forEach((m, i) => {
    const field = `mediaItems.${i}`;
    if (m.type === 'document') add(field, 'twitter.media.type', 'X does not accept documents (PDF)');
    else if (m.type === 'image' && m.mimeType && !PHOTO_MIME.test(m.mimeType.split(';')[0].trim())) add(field, 'twitter.media.type', `X photos must be JPG, PNG, GIF or WebP (this one is ${m.mimeType})`);
    if (m.type === 'document') return;
    const cap = m.type === 'image' ? X_IMAGE_MAX_BYTES : m.type === 'gif' ? X_GIF_MAX_BYTES : X_VIDEO_MAX_BYTES;
    if (m.size !== undefined && m.size > cap) add(field, `twitter.media.${m.type}_max_bytes` as TwitterRuleId, `X ${m.type}s are limited to ${cap >= 1024 ** 3 ? `${cap / 1024 ** 3} GB` : mb(cap)} (this one has ${m.size} bytes)`);
    if (m.type === 'video' && m.durationSeconds !== undefined && (m.durationSeconds < X_VIDEO_MIN_SECONDS || m.durationSeconds > X_VIDEO_MAX_SECONDS)) {
      add(field, 'twitter.media.video_duration', `X videos must last ${X_VIDEO_MIN_SECONDS} s to ${X_VIDEO_MAX_SECONDS / 60} minutes (this one lasts ${m.durationSeconds} s)`);
    }
  });
  if (images.length > X_MAX_IMAGES) add('mediaItems', 'twitter.media.max_images', `X posts take at most ${X_MAX_IMAGES} images (this one has ${images.length})`);
  if ((gifs.length > 0 || videos.length > 0) && media.length > 1) {
    add('mediaItems', 'twitter.media.one_gif_or_video', 'An X post takes up to 4 images, or exactly 1 GIF, or exactly 1 video');
  }
  return out;
}

export const twitterRules: PlatformRuleSet = { platform: 'twitter', rules: TWITTER_RULES, check };
