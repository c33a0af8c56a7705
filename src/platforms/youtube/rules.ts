/**
 * YouTube's posting rules and the request fields they read: title, description, tags, first
 * comment, visibility and scheduling; capabilities and limit constants (re-exported for callers).
 */
import type { PlatformCapabilities, PublishRequest, RuleViolation } from '../types.ts';
import {
  capabilitiesOf, YOUTUBE_DESCRIPTION_MAX_BYTES, YOUTUBE_FIRST_COMMENT_MAX, YOUTUBE_SHORT_MAX_SECONDS, YOUTUBE_TAG_MAX, YOUTUBE_TAGS_MAX_TOTAL,
  YOUTUBE_THUMBNAIL_MAX_BYTES, YOUTUBE_TITLE_MAX, YOUTUBE_VIDEO_MAX_BYTES,
} from '../../shared/capabilities.ts';
import type { YouTubeOptions } from './model.ts';

/** The limits live in src/shared/capabilities.ts (shared with the composer and the bulk CSV). */
export {
  YOUTUBE_DESCRIPTION_MAX_BYTES, YOUTUBE_FIRST_COMMENT_MAX, YOUTUBE_SHORT_MAX_SECONDS, YOUTUBE_TAG_MAX, YOUTUBE_TAGS_MAX_TOTAL,
  YOUTUBE_THUMBNAIL_MAX_BYTES, YOUTUBE_TITLE_MAX, YOUTUBE_VIDEO_MAX_BYTES,
};

export const YOUTUBE_CAPABILITIES: PlatformCapabilities = capabilitiesOf('youtube');

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);
const extOf = (url: string) => { try { return new URL(url).pathname.split('.').pop()?.toLowerCase() ?? ''; } catch { return ''; } };
const THUMB_EXT = new Set(['jpg', 'jpeg', 'png', 'gif']);

/** YouTube refuses `<` and `>` in titles and descriptions: they become their full-width forms. */
export const noAngles = (s: string) => s.replace(/</g, '\uFF1C').replace(/>/g, '\uFF1E');

/** The title: platformSpecificData.title, else the first non-empty line of the text (at most 100 characters), else the file name. */
export function titleOf(req: PublishRequest): { title: string; given: boolean } {
  const given = str(req.platformSpecificData.title);
  if (given) return { title: given.trim(), given: true };
  const line = req.text.split(/\r?\n/).map((l) => l.trim()).find(Boolean);
  const fallback = req.mediaItems[0]?.filename?.replace(/\.[^.]+$/, '') || 'Video';
  return { title: noAngles([...(line ?? fallback)].slice(0, YOUTUBE_TITLE_MAX).join('')), given: false };
}

/**
 * Tags as YouTube gets them: the post's tags, or platformSpecificData.tags;
 * trimmed, duplicates removed (case-insensitive, first spelling kept), tags over 100 characters dropped.
 * The 500-character total is a rule (see validate).
 */
export function youtubeTags(req: PublishRequest): string[] {
  const raw = Array.isArray(req.platformSpecificData.tags) ? (req.platformSpecificData.tags as unknown[]).filter((t): t is string => typeof t === 'string') : req.tags;
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
 * list fits 500 by that count (Herald's own 500-character rule counts characters only, checked in validate).
 */
export function fitYouTubeTagCount(tags: string[]): string[] {
  const out: string[] = [];
  let n = 0;
  for (const t of tags) {
    const cost = [...t].length + (t.includes(' ') ? 2 : 0) + (out.length ? 1 : 0);
    if (n + cost > YOUTUBE_TAGS_MAX_TOTAL) break;
    out.push(t);
    n += cost;
  }
  return out;
}

/**
 * True when `scheduledFor` is far enough ahead to hand to YouTube as publishAt (which must be in
 * the future). The posts service runs such targets at once when the time is over a minute ahead,
 * so the worker has 45 seconds of slack before this gives up and publishes directly.
 */
export const isAhead = (at: Date | undefined, now = Date.now()) => !!at && at.getTime() > now + 15_000;

function rule(field: string, r: string, message: string): RuleViolation {
  return { field, rule: r, message };
}

/** The requested privacy: platformSpecificData.visibility or privacyStatus when valid, else the post's visibility. */
export function privacyOf(req: PublishRequest): 'public' | 'private' | 'unlisted' {
  const v = req.platformSpecificData.visibility ?? req.platformSpecificData.privacyStatus;
  return v === 'public' || v === 'private' || v === 'unlisted' ? v : req.visibility;
}

/** All rule violations of `req` for YouTube (no network call); `opts` are the adapter's limits. */
export function validateYouTube(req: PublishRequest, opts: Pick<Required<YouTubeOptions>, 'maxVideoBytes' | 'shortMaxSeconds'>): RuleViolation[] {
  const out: RuleViolation[] = [];
  const psd = req.platformSpecificData;
  const videos = req.mediaItems.filter((m) => m.type === 'video');
  if (videos.length !== 1 || req.mediaItems.length !== 1) {
    out.push(rule('mediaItems', 'youtube.media.one_video', `A YouTube post needs exactly one video and no other media (has ${videos.length} video(s) and ${req.mediaItems.length - videos.length} other item(s)); a thumbnail goes in mediaItems[].thumbnail`));
  }
  const video = videos[0];
  if (video?.size !== undefined && video.size > opts.maxVideoBytes) {
    out.push(rule('mediaItems.0', 'youtube.video.max_bytes', 'YouTube videos are limited to 256 GB'));
  }
  if (video?.durationSeconds !== undefined && video.durationSeconds <= opts.shortMaxSeconds && video.thumbnail) {
    out.push(rule('mediaItems.0.thumbnail', 'youtube.short.no_custom_thumbnail',
      `This video is ${video.durationSeconds} seconds long, so YouTube publishes it as a Short (${opts.shortMaxSeconds / 60} minutes or less), and Shorts cannot have a custom thumbnail`));
  }
  req.mediaItems.forEach((m, i) => {
    if (m.thumbnail && extOf(m.thumbnail) && !THUMB_EXT.has(extOf(m.thumbnail)) && /^[a-z0-9]{2,5}$/.test(extOf(m.thumbnail))) {
      out.push(rule(`mediaItems.${i}.thumbnail`, 'youtube.thumbnail.type', 'YouTube thumbnails must be JPG, PNG or GIF'));
    }
  });
  const given = str(psd.title);
  if (given !== undefined) {
    if ([...given.trim()].length > YOUTUBE_TITLE_MAX) out.push(rule('platformSpecificData.title', 'youtube.title.max_length', `YouTube titles are limited to ${YOUTUBE_TITLE_MAX} characters (has ${[...given.trim()].length})`));
    if (/[<>]/.test(given)) out.push(rule('platformSpecificData.title', 'youtube.title.angle_brackets', 'YouTube titles cannot contain < or >'));
  } else if (psd.title !== undefined && psd.title !== null && typeof psd.title !== 'string') {
    out.push(rule('platformSpecificData.title', 'youtube.title.type', 'must be a string'));
  }
  const bytes = Buffer.byteLength(noAngles(req.text), 'utf8');
  if (bytes > YOUTUBE_DESCRIPTION_MAX_BYTES) out.push(rule('content', 'youtube.description.max_bytes', `YouTube descriptions are limited to ${YOUTUBE_DESCRIPTION_MAX_BYTES} bytes (UTF-8); this text has ${bytes}`));
  const total = youtubeTags(req).reduce((n, t) => n + [...t].length, 0);
  if (total > YOUTUBE_TAGS_MAX_TOTAL) {
    out.push(rule(Array.isArray(psd.tags) ? 'platformSpecificData.tags' : 'tags', 'youtube.tags.max_total', `YouTube tags may total at most ${YOUTUBE_TAGS_MAX_TOTAL} characters after removing duplicates and tags over ${YOUTUBE_TAG_MAX} characters (has ${total})`));
  }
  if (psd.firstComment !== undefined && psd.firstComment !== null) {
    if (typeof psd.firstComment !== 'string') out.push(rule('platformSpecificData.firstComment', 'youtube.first_comment.type', 'must be a string'));
    else if ([...psd.firstComment].length > YOUTUBE_FIRST_COMMENT_MAX) {
      out.push(rule('platformSpecificData.firstComment', 'youtube.first_comment.max_length', `YouTube comments are limited to ${YOUTUBE_FIRST_COMMENT_MAX.toLocaleString('en-US')} characters (has ${[...psd.firstComment].length})`));
    }
  }
  const vis = psd.visibility ?? psd.privacyStatus;
  if (vis !== undefined && vis !== null && vis !== 'public' && vis !== 'private' && vis !== 'unlisted') {
    out.push(rule(psd.visibility !== undefined ? 'platformSpecificData.visibility' : 'platformSpecificData.privacyStatus', 'youtube.visibility', 'must be public, private or unlisted'));
  }
  for (const k of ['containsSyntheticMedia', 'madeForKids', 'notifySubscribers'] as const) {
    if (psd[k] !== undefined && typeof psd[k] !== 'boolean') out.push(rule(`platformSpecificData.${k}`, `youtube.${k}.type`, 'must be true or false'));
  }
  if (psd.categoryId !== undefined && !/^\d{1,3}$/.test(String(psd.categoryId))) out.push(rule('platformSpecificData.categoryId', 'youtube.category_id', 'must be a numeric YouTube video category id (e.g. "22")'));
  if (isAhead(req.scheduledFor, Date.now() + 45_000) && privacyOf(req) === 'unlisted') {
    out.push(rule('platformSpecificData.visibility', 'youtube.schedule.public_only',
      'YouTube can only schedule a video to become public (it is uploaded private with publishAt); publish an unlisted video now, or schedule it as public'));
  }
  return out;
}
