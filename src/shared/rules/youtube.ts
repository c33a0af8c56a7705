/**
 * YouTube's posting rules (Data API v3: videos.insert, the videos resource, thumbnails.set,
 * commentThreads.insert) and the request fields they read: one video, title, description,
 * tags, first comment, visibility, the Short/thumbnail rule (docs/decisions/0027-youtube-shorts.md:
 * a Short is square or vertical AND at most 3 minutes) and the thumbnail's type. Pure: the
 * adapter builds its request with the same helpers (titleOf, youtubeTags, ...).
 */
import {
  YOUTUBE_DESCRIPTION_MAX_BYTES, YOUTUBE_FIRST_COMMENT_MAX, YOUTUBE_SHORT_MAX_SECONDS, YOUTUBE_TAG_MAX, YOUTUBE_TAGS_MAX_TOTAL,
  YOUTUBE_TITLE_MAX, YOUTUBE_VIDEO_MAX_BYTES,
} from '../capabilities.ts';
import { utf8Length } from './text.ts';
import type { PlatformRuleSet, RulePost, RuleViolation } from './types.ts';
import { HERALD_RULE_SOURCE, n } from './format.ts';

const INSERT = 'https://developers.google.com/youtube/v3/docs/videos/insert';
const VIDEOS = 'https://developers.google.com/youtube/v3/docs/videos';
const THUMBNAILS_SET = 'https://developers.google.com/youtube/v3/docs/thumbnails/set';
const COMMENT_THREADS = 'https://developers.google.com/youtube/v3/docs/commentThreads/insert';
const SHORTS = 'https://support.google.com/youtube/answer/15424877';

/** The limits an adapter may override (YouTubeOptions). */
export interface YouTubeLimits {
  maxVideoBytes: number;
  /** Longest Short, seconds (3 minutes). */
  shortMaxSeconds: number;
}
export const YOUTUBE_DEFAULT_LIMITS: YouTubeLimits = { maxVideoBytes: YOUTUBE_VIDEO_MAX_BYTES, shortMaxSeconds: YOUTUBE_SHORT_MAX_SECONDS };

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);
const extOf = (url: string) => { try { return new URL(url).pathname.split('.').pop()?.toLowerCase() ?? ''; } catch { return ''; } };
/** thumbnails.set accepts image/jpeg and image/png (https://developers.google.com/youtube/v3/docs/thumbnails/set). */
const THUMB_EXT = new Set(['jpg', 'jpeg', 'png']);

/** YouTube refuses `<` and `>` in titles and descriptions: they become their full-width forms. */
export const noAngles = (s: string) => s.replace(/</g, '\uFF1C').replace(/>/g, '\uFF1E');

/**
 * Whether YouTube makes a video a Short (docs/decisions/0027-youtube-shorts.md): square or
 * vertical (height >= width) AND at most `maxSeconds` long. `undefined` when the duration or the
 * pixel size is not known (then it cannot be told before YouTube has the video).
 */
export function isYouTubeShort(durationSeconds: number | undefined, width: number | undefined, height: number | undefined, maxSeconds = YOUTUBE_SHORT_MAX_SECONDS): boolean | undefined {
  if (durationSeconds !== undefined && durationSeconds > maxSeconds) return false;
  if (width !== undefined && height !== undefined && width > height) return false;
  if (durationSeconds === undefined || width === undefined || height === undefined) return undefined;
  return true;
}

/** The title: platformSpecificData.title, else the first non-empty line of the text (at most 100 characters), else the file name. */
export function titleOf(req: RulePost): { title: string; given: boolean } {
  const given = str(req.platformSpecificData.title);
  if (given) return { title: given.trim(), given: true };
  const line = req.text.split(/\r?\n/).map((l) => l.trim()).find(Boolean);
  const fallback = req.mediaItems[0]?.filename?.replace(/\.[^.]+$/, '') || 'Video';
  return { title: noAngles([...(line ?? fallback)].slice(0, YOUTUBE_TITLE_MAX).join('')), given: false };
}

/**
 * Tags as YouTube gets them: the post's tags, or platformSpecificData.tags;
 * trimmed, duplicates removed (case-insensitive, first spelling kept), tags over 100 characters dropped.
 * The 500-character total is a rule (youtube.tags.max_total).
 */
export function youtubeTags(req: RulePost): string[] {
  const raw = Array.isArray(req.platformSpecificData.tags) ? (req.platformSpecificData.tags as unknown[]).filter((t): t is string => typeof t === 'string') : (req.tags ?? []);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of raw.map((x) => x.trim())) {
    if (!t || [...t].length > YOUTUBE_TAG_MAX || seen.has(t.toLowerCase())) continue;
    seen.add(t.toLowerCase());
    out.push(t);
  }
  return out;
}

/**
 * YouTube's own count of `snippet.tags` (videos resource docs): a tag with a space counts two
 * more (it is quoted) and tags are joined with commas. Trailing tags are left out until the
 * list fits 500 by that count (Herald's own 500-character rule counts characters only).
 */
export function fitYouTubeTagCount(tags: string[]): string[] {
  const out: string[] = [];
  let total = 0;
  for (const t of tags) {
    const cost = [...t].length + (t.includes(' ') ? 2 : 0) + (out.length ? 1 : 0);
    if (total + cost > YOUTUBE_TAGS_MAX_TOTAL) break;
    out.push(t);
    total += cost;
  }
  return out;
}

/** The requested privacy: platformSpecificData.visibility or privacyStatus when valid, else the post's visibility. */
export function privacyOf(req: RulePost): 'public' | 'private' | 'unlisted' {
  const v = req.platformSpecificData.visibility ?? req.platformSpecificData.privacyStatus;
  return v === 'public' || v === 'private' || v === 'unlisted' ? v : (req.visibility ?? 'public');
}

export const YOUTUBE_RULES = [
  { id: 'youtube.media.one_video', summary: 'A YouTube post is exactly one video and no other media (a thumbnail goes in mediaItems[].thumbnail).', source: INSERT },
  { id: 'youtube.video.max_bytes', summary: 'Videos: at most 256 GB.', source: INSERT },
  { id: 'youtube.short.no_custom_thumbnail', summary: `A Short (square or vertical AND at most ${YOUTUBE_SHORT_MAX_SECONDS / 60} minutes) cannot have a custom thumbnail; a horizontal video, or one over ${YOUTUBE_SHORT_MAX_SECONDS / 60} minutes, can.`, source: SHORTS },
  { id: 'youtube.thumbnail.type', summary: 'Thumbnails: JPEG or PNG (GIF and WebP are refused).', source: THUMBNAILS_SET },
  { id: 'youtube.title.max_length', summary: `Title (platformSpecificData.title): at most ${YOUTUBE_TITLE_MAX} characters.`, source: VIDEOS },
  { id: 'youtube.title.angle_brackets', summary: 'Title: no < or > characters.', source: VIDEOS },
  { id: 'youtube.title.type', summary: 'platformSpecificData.title is a string.', source: HERALD_RULE_SOURCE },
  { id: 'youtube.description.max_bytes', summary: `Description (the text): at most ${n(YOUTUBE_DESCRIPTION_MAX_BYTES)} bytes of UTF-8 (< and > are sent as their full-width forms).`, source: VIDEOS },
  { id: 'youtube.tags.max_total', summary: `Tags: at most ${YOUTUBE_TAGS_MAX_TOTAL} characters in total, after duplicates and tags over ${YOUTUBE_TAG_MAX} characters are dropped.`, source: VIDEOS },
  { id: 'youtube.first_comment.type', summary: 'platformSpecificData.firstComment is a string.', source: HERALD_RULE_SOURCE },
  { id: 'youtube.first_comment.max_length', summary: `First comment: at most ${n(YOUTUBE_FIRST_COMMENT_MAX)} characters.`, source: COMMENT_THREADS },
  { id: 'youtube.visibility', summary: 'platformSpecificData.visibility / privacyStatus is public, private or unlisted.', source: VIDEOS },
  { id: 'youtube.containsSyntheticMedia.type', summary: 'platformSpecificData.containsSyntheticMedia is true or false.', source: HERALD_RULE_SOURCE },
  { id: 'youtube.madeForKids.type', summary: 'platformSpecificData.madeForKids is true or false.', source: HERALD_RULE_SOURCE },
  { id: 'youtube.notifySubscribers.type', summary: 'platformSpecificData.notifySubscribers is true or false.', source: HERALD_RULE_SOURCE },
  { id: 'youtube.category_id', summary: 'platformSpecificData.categoryId is a numeric YouTube video category id (e.g. "22").', source: VIDEOS },
  { id: 'youtube.schedule.public_only', summary: 'A scheduled video can only become public at its time (YouTube\'s publishAt); an unlisted video is published now, not scheduled.', source: 'https://developers.google.com/youtube/v3/docs/videos#status.publishAt' },
] as const;
export type YouTubeRuleId = (typeof YOUTUBE_RULES)[number]['id'];

/** Every YouTube rule `post` breaks (no network call). */
/**
 * True when `scheduledFor` is far enough ahead to hand to YouTube as publishAt (which must be in
 * the future). The posts service runs such targets at once when the time is over a minute ahead,
 * so the worker has 45 seconds of slack before the adapter gives up and publishes directly.
 */
export const isAhead = (at: Date | undefined, now = Date.now()) => !!at && at.getTime() > now + 15_000;

function check(post: RulePost, limits: Partial<YouTubeLimits> = {}): RuleViolation[] {
  const lim = { ...YOUTUBE_DEFAULT_LIMITS, ...limits };
  const out: RuleViolation[] = [];
  const add = (field: string, rule: YouTubeRuleId, message: string) => out.push({ field, rule, message });
  const psd = post.platformSpecificData ?? {};
  const media = post.mediaItems ?? [];
  const videos = media.filter((m) => m.type === 'video');
  if (videos.length !== 1 || media.length !== 1) {
    add('mediaItems', 'youtube.media.one_video', `A YouTube post needs exactly one video and no other media (has ${videos.length} video(s) and ${media.length - videos.length} other item(s)); a thumbnail goes in mediaItems[].thumbnail`);
  }
  const video = videos[0];
  if (video?.size !== undefined && video.size > lim.maxVideoBytes) add('mediaItems.0', 'youtube.video.max_bytes', 'YouTube videos are limited to 256 GB');
  if (video?.thumbnail && isYouTubeShort(video.durationSeconds, video.width, video.height, lim.shortMaxSeconds) === true) {
    add('mediaItems.0.thumbnail', 'youtube.short.no_custom_thumbnail',
      `This video is ${video.width}x${video.height} and ${video.durationSeconds} seconds long, so YouTube publishes it as a Short (square or vertical, ${lim.shortMaxSeconds / 60} minutes or less), and Shorts cannot have a custom thumbnail`);
  }
  media.forEach((m, i) => {
    const ext = m.thumbnail ? extOf(m.thumbnail) : '';
    if (m.thumbnail && ext && !THUMB_EXT.has(ext) && /^[a-z0-9]{2,5}$/.test(ext)) {
      add(`mediaItems.${i}.thumbnail`, 'youtube.thumbnail.type', `YouTube thumbnails must be JPEG or PNG (this one is .${ext})`);
    }
  });
  const given = str(psd.title);
  if (given !== undefined) {
    if ([...given.trim()].length > YOUTUBE_TITLE_MAX) add('platformSpecificData.title', 'youtube.title.max_length', `YouTube titles are limited to ${YOUTUBE_TITLE_MAX} characters (has ${[...given.trim()].length})`);
    if (/[<>]/.test(given)) add('platformSpecificData.title', 'youtube.title.angle_brackets', 'YouTube titles cannot contain < or >');
  } else if (psd.title !== undefined && psd.title !== null && typeof psd.title !== 'string') {
    add('platformSpecificData.title', 'youtube.title.type', 'must be a string');
  }
  const bytes = utf8Length(noAngles(post.text ?? ''));
  if (bytes > YOUTUBE_DESCRIPTION_MAX_BYTES) add('content', 'youtube.description.max_bytes', `YouTube descriptions are limited to ${n(YOUTUBE_DESCRIPTION_MAX_BYTES)} bytes (UTF-8); this text has ${n(bytes)}`);
  const total = youtubeTags(post).reduce((sum, t) => sum + [...t].length, 0);
  if (total > YOUTUBE_TAGS_MAX_TOTAL) {
    add(Array.isArray(psd.tags) ? 'platformSpecificData.tags' : 'tags', 'youtube.tags.max_total', `YouTube tags may total at most ${YOUTUBE_TAGS_MAX_TOTAL} characters after removing duplicates and tags over ${YOUTUBE_TAG_MAX} characters (has ${total})`);
  }
  if (psd.firstComment !== undefined && psd.firstComment !== null) {
    if (typeof psd.firstComment !== 'string') add('platformSpecificData.firstComment', 'youtube.first_comment.type', 'must be a string');
    else if ([...psd.firstComment].length > YOUTUBE_FIRST_COMMENT_MAX) {
      add('platformSpecificData.firstComment', 'youtube.first_comment.max_length', `YouTube comments are limited to ${n(YOUTUBE_FIRST_COMMENT_MAX)} characters (has ${n([...psd.firstComment].length)})`);
    }
  }
  const vis = psd.visibility ?? psd.privacyStatus;
  if (vis !== undefined && vis !== null && vis !== 'public' && vis !== 'private' && vis !== 'unlisted') {
    add(psd.visibility !== undefined ? 'platformSpecificData.visibility' : 'platformSpecificData.privacyStatus', 'youtube.visibility', 'must be public, private or unlisted');
  }
  for (const k of ['containsSyntheticMedia', 'madeForKids', 'notifySubscribers'] as const) {
    if (psd[k] !== undefined && typeof psd[k] !== 'boolean') add(`platformSpecificData.${k}`, `youtube.${k}.type`, 'must be true or false');
  }
  if (psd.categoryId !== undefined && !/^\d{1,3}$/.test(String(psd.categoryId))) add('platformSpecificData.categoryId', 'youtube.category_id', 'must be a numeric YouTube video category id (e.g. "22")');
  if (isAhead(post.scheduledFor, Date.now() + 45_000) && privacyOf(post) === 'unlisted') {
    add('platformSpecificData.visibility', 'youtube.schedule.public_only',
      'YouTube can only schedule a video to become public (it is uploaded private with publishAt); publish an unlisted video now, or schedule it as public');
  }
  return out;
}

export const youtubeRules: PlatformRuleSet<YouTubeLimits> = {
  platform: 'youtube', rules: YOUTUBE_RULES, check,
  tags: { field: 'tags', fit: fitYouTubeTagCount, why: 'YouTube counts quotes around tags with spaces and a comma between tags' },
};
