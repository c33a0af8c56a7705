/**
 * X's rule table (ids, summaries, sources), apart from the check in ./twitter.ts so that the
 * docs page lists it without loading twitter-text.
 */
import {
  X_GIF_MAX_BYTES, X_IMAGE_MAX_BYTES, X_MAX_IMAGES, X_MAX_WEIGHTED_LENGTH, X_VIDEO_MAX_BYTES, X_VIDEO_MAX_SECONDS, X_VIDEO_MIN_SECONDS,
} from '../capabilities.ts';
import { HERALD_RULE_SOURCE } from './format.ts';

const CREATE_POST = 'https://docs.x.com/x-api/posts/create-post';
const MEDIA = 'https://docs.x.com/x-api/media/quickstart/best-practices';
const COUNTING = 'https://docs.x.com/fundamentals/counting-characters';
export const mb = (b: number) => `${b / 1024 / 1024} MB`;

export const TWITTER_RULES = [
  { id: 'twitter.text.max_weighted_length', summary: `Text: at most ${X_MAX_WEIGHTED_LENGTH} weighted characters per post (links count 23, emoji and CJK 2, most other characters 1), every post of a thread.`, source: COUNTING },
  { id: 'twitter.text.empty', summary: 'Every post of a thread needs text (the first one may have media instead).', source: CREATE_POST },
  { id: 'twitter.thread.media_first_only', summary: 'Threads: only the first post carries media.', source: HERALD_RULE_SOURCE },
  { id: 'twitter.media.type', summary: 'Media: photos (JPG, PNG, GIF, WebP), animated GIFs and videos; documents are not accepted.', source: MEDIA },
  { id: 'twitter.media.image_max_bytes', summary: `Photos: at most ${mb(X_IMAGE_MAX_BYTES)} each.`, source: 'https://docs.x.com/x-api/media' },
  { id: 'twitter.media.gif_max_bytes', summary: `Animated GIFs: at most ${mb(X_GIF_MAX_BYTES)}.`, source: 'https://docs.x.com/x-api/media' },
  { id: 'twitter.media.video_max_bytes', summary: `Videos: at most ${X_VIDEO_MAX_BYTES / 1024 ** 3} GB (accounts without Premium).`, source: MEDIA },
  { id: 'twitter.media.video_duration', summary: `Videos: ${X_VIDEO_MIN_SECONDS} seconds to ${X_VIDEO_MAX_SECONDS / 60} minutes (accounts without Premium).`, source: MEDIA },
  { id: 'twitter.media.max_images', summary: `Photos: at most ${X_MAX_IMAGES} per post.`, source: MEDIA },
  { id: 'twitter.media.one_gif_or_video', summary: 'A post takes up to 4 photos, or exactly 1 animated GIF, or exactly 1 video (no mixing).', source: MEDIA },
] as const;
