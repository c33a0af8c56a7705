/**
 * Pinterest's pin rules (API v5, https://developers.pinterest.com/docs/api/v5/pins-create/):
 * a board, one image, a carousel of 2-5 images, or one video (with at most one image, taken as
 * its cover); title <= 100, description <= 800, link <= 2048, alt text <= 500 characters;
 * image formats and size; video size and duration.
 */
import {
  PINTEREST_ALT_TEXT_MAX, PINTEREST_CAROUSEL_MAX, PINTEREST_CAROUSEL_MIN, PINTEREST_DESCRIPTION_MAX, PINTEREST_IMAGE_FORMATS, PINTEREST_IMAGE_MAX_BYTES,
  PINTEREST_LINK_MAX, PINTEREST_TITLE_MAX, PINTEREST_VIDEO_MAX_BYTES, PINTEREST_VIDEO_MAX_SECONDS, PINTEREST_VIDEO_MIN_SECONDS,
} from '../capabilities.ts';
import type { PlatformRuleSet, RulePost, RuleViolation } from './types.ts';
import { HERALD_RULE_SOURCE, n } from './format.ts';

const PINS_CREATE = 'https://developers.pinterest.com/docs/api/v5/pins-create/';
const MEDIA_CREATE = 'https://developers.pinterest.com/docs/api/v5/media-create/';
const BOARDS = 'https://developers.pinterest.com/docs/api/v5/boards-list/';

export interface PinterestLimits {
  imageMaxBytes: number;
  videoMaxBytes: number;
  videoMinSeconds: number;
  videoMaxSeconds: number;
}

export const PINTEREST_LIMITS: PinterestLimits = {
  imageMaxBytes: PINTEREST_IMAGE_MAX_BYTES, videoMaxBytes: PINTEREST_VIDEO_MAX_BYTES,
  videoMinSeconds: PINTEREST_VIDEO_MIN_SECONDS, videoMaxSeconds: PINTEREST_VIDEO_MAX_SECONDS,
};

export const PINTEREST_RULES = [
  { id: 'pinterest.threads.unsupported', summary: 'A pin is one post: threads are not accepted.', source: PINS_CREATE },
  { id: 'pinterest.board.required', summary: 'Every pin goes to a board: platformSpecificData.boardId, else the account\'s default board.', source: PINS_CREATE },
  { id: 'pinterest.board.id', summary: 'boardId is a Pinterest board id (digits), as the boards list gives it.', source: BOARDS },
  { id: 'pinterest.media.required', summary: 'A pin needs one image, a carousel of 2 to 5 images, or one video.', source: PINS_CREATE },
  { id: 'pinterest.media.type', summary: 'Media: images and videos only; documents (PDF) are not accepted.', source: PINS_CREATE },
  { id: 'pinterest.image.format', summary: 'Images: BMP, JPEG, PNG, TIFF, GIF or WebP.', source: PINS_CREATE },
  { id: 'pinterest.media.image_max_bytes', summary: `Images: at most ${n(PINTEREST_IMAGE_MAX_BYTES)} bytes (20 MB) each.`, source: PINS_CREATE },
  { id: 'pinterest.media.carousel_max', summary: `Carousel pins: ${PINTEREST_CAROUSEL_MIN} to ${PINTEREST_CAROUSEL_MAX} images.`, source: PINS_CREATE },
  { id: 'pinterest.media.one_video', summary: 'A video pin takes exactly one video.', source: PINS_CREATE },
  { id: 'pinterest.media.video_with_images', summary: 'A video pin takes one video and at most one image, which becomes the video\'s cover (cover_image_url).', source: PINS_CREATE },
  { id: 'pinterest.video.format', summary: 'Videos: MP4, MOV or M4V.', source: MEDIA_CREATE },
  { id: 'pinterest.media.video_duration', summary: `Videos: ${PINTEREST_VIDEO_MIN_SECONDS} seconds to ${PINTEREST_VIDEO_MAX_SECONDS / 60} minutes.`, source: MEDIA_CREATE },
  { id: 'pinterest.media.video_max_bytes', summary: `Videos: at most ${n(PINTEREST_VIDEO_MAX_BYTES)} bytes (2 GB).`, source: MEDIA_CREATE },
  { id: 'pinterest.title.max_length', summary: `Title (platformSpecificData.title): at most ${PINTEREST_TITLE_MAX} characters; without one, the content's first line cut to ${PINTEREST_TITLE_MAX}.`, source: PINS_CREATE },
  { id: 'pinterest.description.max_length', summary: `Description (the content): at most ${PINTEREST_DESCRIPTION_MAX} characters.`, source: PINS_CREATE },
  { id: 'pinterest.link.url', summary: 'link: an absolute http(s) URL.', source: PINS_CREATE },
  { id: 'pinterest.link.max_length', summary: `link: at most ${n(PINTEREST_LINK_MAX)} characters.`, source: PINS_CREATE },
  { id: 'pinterest.media.alt_text_max_length', summary: `Alt text (the first image's altText): at most ${PINTEREST_ALT_TEXT_MAX} characters.`, source: PINS_CREATE },
  { id: 'pinterest.cover.url', summary: 'coverImageUrl (a video\'s cover): an absolute http(s) URL.', source: PINS_CREATE },
  { id: 'pinterest.cover.key_frame_time', summary: 'coverImageKeyFrameTime (a video\'s cover frame): a number of seconds, 0 or more.', source: HERALD_RULE_SOURCE },
] as const;

type RuleId = (typeof PINTEREST_RULES)[number]['id'];

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const isHttpUrl = (v: unknown): boolean => {
  try { return typeof v === 'string' && /^https?:$/.test(new URL(v).protocol); } catch { return false; }
};
const VIDEO_MIME = new Set(['video/mp4', 'video/quicktime', 'video/x-m4v']);
const IMAGE_MIME = new Set(PINTEREST_IMAGE_FORMATS.map((f) => `image/${f}`).concat(['image/jpg', 'image/x-ms-bmp', 'image/tif']));

/** Every Pinterest rule `post` breaks, without any network call. Empty array = publishable. */
function check(req: RulePost, limits: Partial<PinterestLimits> = {}): RuleViolation[] {
  const lim = { ...PINTEREST_LIMITS, ...limits };
  const out: RuleViolation[] = [];
  const psd = req.platformSpecificData ?? {};
  const add = (field: string, rule: RuleId, message: string) => out.push({ field, rule, message });
  if ((req.threadItems?.length ?? 0) > 0) add('platformSpecificData.threadItems', 'pinterest.threads.unsupported', 'Pinterest pins cannot be threads');
  if (req.accountSettings && !str(psd.boardId) && !str(req.accountSettings.defaultBoardId)) {
    add('platformSpecificData.boardId', 'pinterest.board.required', 'No board: give platformSpecificData.boardId or set a default board with PUT /v1/accounts/{accountId}/pinterest-boards');
  }
  const media = req.mediaItems ?? [];
  const images = media.filter((m) => m.type === 'image' || m.type === 'gif');
  const videos = media.filter((m) => m.type === 'video');
  media.forEach((m, i) => {
    const field = `mediaItems.${i}`;
    if (m.type === 'document') add(field, 'pinterest.media.type', 'Pinterest does not accept documents (PDF)');
    if (m.type === 'image' || m.type === 'gif') {
      if (m.mimeType && !IMAGE_MIME.has(m.mimeType.toLowerCase())) add(field, 'pinterest.image.format', `Pinterest images must be BMP, JPEG, PNG, TIFF, GIF or WebP (this file is ${m.mimeType})`);
      if (m.size !== undefined && m.size > lim.imageMaxBytes) add(field, 'pinterest.media.image_max_bytes', `Pinterest images are limited to ${n(lim.imageMaxBytes)} bytes (this one has ${n(m.size)})`);
    }
    if (m.type === 'video') {
      if (m.mimeType && !VIDEO_MIME.has(m.mimeType.toLowerCase())) add(field, 'pinterest.video.format', `Pinterest videos must be MP4, MOV or M4V (this file is ${m.mimeType})`);
      if (m.size !== undefined && m.size > lim.videoMaxBytes) add(field, 'pinterest.media.video_max_bytes', `Pinterest videos are limited to ${n(lim.videoMaxBytes)} bytes (this one has ${n(m.size)})`);
      if (m.durationSeconds !== undefined && (m.durationSeconds < lim.videoMinSeconds || m.durationSeconds > lim.videoMaxSeconds)) {
        add(field, 'pinterest.media.video_duration', `Pinterest videos must last ${lim.videoMinSeconds} seconds to ${lim.videoMaxSeconds / 60} minutes; this one lasts ${m.durationSeconds} s`);
      }
    }
  });
  if (images.length === 0 && videos.length === 0) add('mediaItems', 'pinterest.media.required', 'A pin needs at least one image (image pin) or exactly one video (video pin)');
  if (videos.length > 1) add('mediaItems', 'pinterest.media.one_video', 'A video pin takes exactly one video');
  if (videos.length === 1 && images.length > 1) add('mediaItems', 'pinterest.media.video_with_images', 'A video pin takes one video and at most one image (used as its cover)');
  if (videos.length === 0 && images.length > PINTEREST_CAROUSEL_MAX) add('mediaItems', 'pinterest.media.carousel_max', `A carousel pin takes ${PINTEREST_CAROUSEL_MIN} to ${PINTEREST_CAROUSEL_MAX} images; got ${images.length}`);
  const explicitTitle = psd.title;
  if (explicitTitle !== undefined && (typeof explicitTitle !== 'string' || explicitTitle.length > PINTEREST_TITLE_MAX)) {
    add('platformSpecificData.title', 'pinterest.title.max_length', `Pin titles are strings of at most ${PINTEREST_TITLE_MAX} characters`);
  }
  const description = (req.text ?? '').trim();
  if (description.length > PINTEREST_DESCRIPTION_MAX) add('content', 'pinterest.description.max_length', `Pin descriptions are limited to ${PINTEREST_DESCRIPTION_MAX} characters; this one has ${description.length}`);
  if (psd.link !== undefined) {
    if (!isHttpUrl(psd.link)) add('platformSpecificData.link', 'pinterest.link.url', 'link must be an absolute http(s) URL');
    else if ((psd.link as string).length > PINTEREST_LINK_MAX) add('platformSpecificData.link', 'pinterest.link.max_length', `link is limited to ${PINTEREST_LINK_MAX} characters`);
  }
  if (psd.boardId !== undefined && (typeof psd.boardId !== 'string' || !/^\d{1,24}$/.test(psd.boardId))) {
    add('platformSpecificData.boardId', 'pinterest.board.id', 'boardId must be a Pinterest board id (digits); see GET /v1/accounts/{accountId}/pinterest-boards');
  }
  if (psd.coverImageUrl !== undefined && !isHttpUrl(psd.coverImageUrl)) add('platformSpecificData.coverImageUrl', 'pinterest.cover.url', 'coverImageUrl must be an absolute http(s) URL');
  const kft = psd.coverImageKeyFrameTime;
  if (kft !== undefined && (typeof kft !== 'number' || !Number.isFinite(kft) || kft < 0)) {
    add('platformSpecificData.coverImageKeyFrameTime', 'pinterest.cover.key_frame_time', 'coverImageKeyFrameTime must be a number of seconds, 0 or more');
  }
  const alt = images[0]?.altText;
  if (alt !== undefined && alt.length > PINTEREST_ALT_TEXT_MAX) add('mediaItems.0', 'pinterest.media.alt_text_max_length', `Pin alt text is limited to ${PINTEREST_ALT_TEXT_MAX} characters`);
  return out;
}

export const pinterestRules: PlatformRuleSet<PinterestLimits> = { platform: 'pinterest', rules: PINTEREST_RULES, check };
