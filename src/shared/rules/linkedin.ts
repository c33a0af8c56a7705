/**
 * LinkedIn's posting rules (Posts API, Images API, Videos API, Documents API, little text
 * format; https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api):
 * commentary length counted on the escaped little text the adapter sends, mentions, the media
 * combinations a post takes, image format, pixel count and GIF frames, video and document
 * limits, the first comment. Also the little-text conversion itself ({@link toLittleText}),
 * which the adapter sends, so the length check and the request cannot disagree.
 */
import {
  LINKEDIN_DOCUMENT_MAX_BYTES, LINKEDIN_GIF_MAX_FRAMES, LINKEDIN_IMAGE_MAX_PIXELS, LINKEDIN_IMAGES_API_URL, LINKEDIN_MAX_FIRST_COMMENT, LINKEDIN_MAX_IMAGES, LINKEDIN_DOCUMENT_TITLE_MAX,
  LINKEDIN_MAX_TEXT, LINKEDIN_VIDEO_MAX_BYTES, LINKEDIN_VIDEO_MAX_SECONDS, LINKEDIN_VIDEO_MIN_SECONDS,
} from '../capabilities.ts';
import type { MediaRef, PlatformRuleSet, RulePost, RuleViolation } from './types.ts';
import { HERALD_RULE_SOURCE, n } from './format.ts';

const LI = 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares';
const POSTS_API = `${LI}/posts-api`;
const LITTLE_TEXT = `${LI}/little-text-format`;
const MULTI_IMAGE = `${LI}/multiimage-post-api`;
const VIDEOS_API = `${LI}/videos-api`;
const DOCUMENTS_API = `${LI}/documents-api`;
const COMMENTS_API = `${LI}/comments-api`;

/** `@[Name](urn:li:person:ID)` or `@[Name](urn:li:organization:ID)`. */
export const LINKEDIN_MENTION = /@\[([^\]\n]{1,200})\]\((urn:li:(person|organization):([^)\s]+))\)/g;
const RESERVED = /[\\|{}@[\]()<>#*_~]/g;
const HASHTAG = /#([\p{L}\p{N}_]+)/gu;
const esc = (s: string) => s.replace(RESERVED, (c) => `\\${c}`);

function escapeLittle(s: string): string {
  // Hashtags become {hashtag|\#|word}; everything else reserved is backslash-escaped.
  let out = '';
  let last = 0;
  for (const m of s.matchAll(HASHTAG)) {
    out += esc(s.slice(last, m.index));
    out += `{hashtag|\\#|${esc(m[1])}}`;
    last = m.index! + m[0].length;
  }
  return out + esc(s.slice(last));
}

/**
 * Converts Herald content to LinkedIn's little-text format: mentions
 * `@[Name](urn:li:person:ID)` / `@[Name](urn:li:organization:ID)` are kept as mention markup
 * (reserved characters in the name escaped), `#word` becomes `{hashtag|\#|word}`, and the
 * reserved characters `\ | { } @ [ ] ( ) < > # * _ ~` elsewhere are backslash-escaped.
 * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/little-text-format
 */
export function toLittleText(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(LINKEDIN_MENTION)) {
    out += escapeLittle(text.slice(last, m.index));
    out += `@[${esc(m[1])}](${m[2]})`;
    last = m.index! + m[0].length;
  }
  return out + escapeLittle(text.slice(last));
}

/** Limits an adapter may override (defaults: the documented figures in src/shared/capabilities.ts). */
export interface LinkedInLimits {
  maxTextLength: number;
  maxImages: number;
  imageMaxPixels: number;
  gifMaxFrames: number;
}

export const LINKEDIN_DEFAULT_LIMITS: LinkedInLimits = {
  maxTextLength: LINKEDIN_MAX_TEXT, maxImages: LINKEDIN_MAX_IMAGES, imageMaxPixels: LINKEDIN_IMAGE_MAX_PIXELS, gifMaxFrames: LINKEDIN_GIF_MAX_FRAMES,
};

export const LINKEDIN_RULES = [
  { id: 'linkedin.text.max_length', summary: `Commentary: at most ${n(LINKEDIN_MAX_TEXT)} characters as sent, in LinkedIn's little text format (each reserved character \\ | { } @ [ ] ( ) < > # * _ ~ is sent escaped and counts 2; a #hashtag is sent as {hashtag|\\#|word}).`, source: POSTS_API },
  { id: 'linkedin.mention.organization_id', summary: 'Mentions: organizations are mentioned by numeric id, @[Name](urn:li:organization:12345).', source: LITTLE_TEXT },
  { id: 'linkedin.thread.unsupported', summary: 'Threads: LinkedIn has none; one post (a follow-up goes in firstComment).', source: HERALD_RULE_SOURCE },
  { id: 'linkedin.media.max_images', summary: `Images: at most ${LINKEDIN_MAX_IMAGES} per post (2 to ${LINKEDIN_MAX_IMAGES} make a multi-image post).`, source: MULTI_IMAGE },
  { id: 'linkedin.image.format', summary: 'Images: JPG, GIF or PNG (WebP and other formats are refused).', source: LINKEDIN_IMAGES_API_URL },
  { id: 'linkedin.image.max_pixels', summary: `Images: fewer than ${n(LINKEDIN_IMAGE_MAX_PIXELS)} pixels (width x height).`, source: LINKEDIN_IMAGES_API_URL },
  { id: 'linkedin.image.gif_frames', summary: `Animated GIFs: at most ${LINKEDIN_GIF_MAX_FRAMES} frames.`, source: LINKEDIN_IMAGES_API_URL },
  { id: 'linkedin.video.one', summary: 'Video: one per post.', source: MULTI_IMAGE },
  { id: 'linkedin.video.alone', summary: 'Video: cannot be combined with images.', source: MULTI_IMAGE },
  { id: 'linkedin.video.max_bytes', summary: `Video: at most ${n(LINKEDIN_VIDEO_MAX_BYTES / 1024 / 1024)} MB.`, source: VIDEOS_API },
  { id: 'linkedin.video.duration', summary: `Video: ${LINKEDIN_VIDEO_MIN_SECONDS} seconds to ${LINKEDIN_VIDEO_MAX_SECONDS / 60} minutes long.`, source: VIDEOS_API },
  { id: 'linkedin.document.one', summary: 'Documents: one per post.', source: DOCUMENTS_API },
  { id: 'linkedin.document.alone', summary: 'Documents: cannot be combined with images or videos.', source: DOCUMENTS_API },
  { id: 'linkedin.document.max_bytes', summary: `Documents: at most ${LINKEDIN_DOCUMENT_MAX_BYTES / 1024 / 1024} MB.`, source: DOCUMENTS_API },
  { id: 'linkedin.document.pdf', summary: 'Documents: PDF only (Herald uploads documents as PDF; LinkedIn also takes PPT, PPTX, DOC and DOCX).', source: HERALD_RULE_SOURCE },
  { id: 'linkedin.document.title', summary: `platformSpecificData.documentTitle: a string of at most ${LINKEDIN_DOCUMENT_TITLE_MAX} characters.`, source: HERALD_RULE_SOURCE },
  { id: 'linkedin.first_comment.type', summary: 'platformSpecificData.firstComment: a string.', source: HERALD_RULE_SOURCE },
  { id: 'linkedin.first_comment.max_length', summary: `First comment: at most ${n(LINKEDIN_MAX_FIRST_COMMENT)} characters.`, source: COMMENTS_API },
  { id: 'linkedin.visibility', summary: 'platformSpecificData.visibility: PUBLIC or CONNECTIONS.', source: POSTS_API },
] as const;

export type LinkedInRuleId = (typeof LINKEDIN_RULES)[number]['id'];

const IMAGE_MIME = new Set(['image/jpeg', 'image/jpg', 'image/pjpeg', 'image/png', 'image/gif']);
const IMAGE_EXT = new Set(['jpg', 'jpeg', 'png', 'gif']);

/** An image's format as far as the post knows it: its MIME type, else its URL's extension; null when unknown. */
function imageFormatOk(m: MediaRef): boolean | null {
  if (m.mimeType) return IMAGE_MIME.has(m.mimeType.toLowerCase().split(';')[0].trim());
  let ext: string | undefined;
  try {
    ext = /\.([a-z0-9]+)$/i.exec(new URL(m.url).pathname)?.[1];
  } catch {
    ext = /\.([a-z0-9]+)(?:$|\?)/i.exec(m.url)?.[1];
  }
  return ext ? IMAGE_EXT.has(ext.toLowerCase()) : null;
}

/** Every LinkedIn rule `post` breaks, without any network call. Empty array = publishable. */
function check(post: RulePost, limits: Partial<LinkedInLimits> = {}): RuleViolation[] {
  const L = { ...LINKEDIN_DEFAULT_LIMITS, ...limits };
  const out: RuleViolation[] = [];
  const add = (field: string, rule: LinkedInRuleId, message: string) => out.push({ field, rule, message });
  const text = post.text ?? '';
  const sent = [...toLittleText(text)].length;
  if (sent > L.maxTextLength) {
    const raw = [...text].length;
    add('content', 'linkedin.text.max_length', `LinkedIn posts are limited to ${n(L.maxTextLength)} characters as sent (reserved characters are escaped in LinkedIn's little text format); this text has ${n(sent)}${sent !== raw ? ` (${n(raw)} before escaping)` : ''}`);
  }
  if ((post.threadItems?.length ?? 0) > 1) add('threadItems', 'linkedin.thread.unsupported', 'LinkedIn has no threads; publish one post (use firstComment for a follow-up)');
  for (const m of text.matchAll(LINKEDIN_MENTION)) {
    if (m[3] === 'organization' && !/^\d+$/.test(m[4])) {
      add('content', 'linkedin.mention.organization_id', `Mention "${m[0]}": organizations are mentioned by numeric company id (urn:li:organization:12345), not a vanity name`);
    }
  }
  const media = post.mediaItems ?? [];
  const images = media.filter((m) => m.type === 'image' || m.type === 'gif');
  const videos = media.filter((m) => m.type === 'video');
  const docs = media.filter((m) => m.type === 'document');
  if (docs.length > 1) add('mediaItems', 'linkedin.document.one', 'A LinkedIn post takes one document');
  if (docs.length > 0 && docs.length !== media.length) add('mediaItems', 'linkedin.document.alone', 'A LinkedIn document cannot be combined with images or videos');
  if (videos.length > 1) add('mediaItems', 'linkedin.video.one', 'A LinkedIn post takes one video');
  if (videos.length > 0 && images.length > 0) add('mediaItems', 'linkedin.video.alone', 'A LinkedIn video cannot be combined with images');
  if (images.length > L.maxImages) add('mediaItems', 'linkedin.media.max_images', `A LinkedIn post takes at most ${L.maxImages} images (this one has ${images.length})`);
  media.forEach((m, i) => {
    const field = `mediaItems.${i}`;
    if (m.type === 'image' || m.type === 'gif') {
      if (imageFormatOk(m) === false) add(field, 'linkedin.image.format', `LinkedIn images must be JPG, GIF or PNG (this one is ${m.mimeType ?? m.url.split('?')[0].split('.').pop()})`);
      if (m.width && m.height && m.width * m.height >= L.imageMaxPixels) {
        add(field, 'linkedin.image.max_pixels', `LinkedIn images must have fewer than ${n(L.imageMaxPixels)} pixels (this one is ${m.width} x ${m.height} = ${n(m.width * m.height)})`);
      }
      if (m.frames !== undefined && m.frames > L.gifMaxFrames) add(field, 'linkedin.image.gif_frames', `LinkedIn GIFs are limited to ${L.gifMaxFrames} frames (this one has ${m.frames})`);
    }
    if (m.type === 'document') {
      if (m.size !== undefined && m.size > LINKEDIN_DOCUMENT_MAX_BYTES) add(field, 'linkedin.document.max_bytes', 'LinkedIn documents are limited to 100 MB');
      const pdf = (m.mimeType ?? '').toLowerCase() === 'application/pdf' || /\.pdf($|\?)/i.test(m.url) || (!m.mimeType && !/\.[a-z0-9]+($|\?)/i.test(m.url));
      if (!pdf) add(field, 'linkedin.document.pdf', 'LinkedIn documents must be PDF files');
    }
    if (m.type === 'video' && m.size !== undefined && m.size > LINKEDIN_VIDEO_MAX_BYTES) add(field, 'linkedin.video.max_bytes', 'LinkedIn videos are limited to 500 MB');
    if (m.type === 'video' && m.durationSeconds !== undefined && (m.durationSeconds < LINKEDIN_VIDEO_MIN_SECONDS || m.durationSeconds > LINKEDIN_VIDEO_MAX_SECONDS)) {
      add(field, 'linkedin.video.duration', `LinkedIn videos must be ${LINKEDIN_VIDEO_MIN_SECONDS} seconds to ${LINKEDIN_VIDEO_MAX_SECONDS / 60} minutes long (this one lasts ${m.durationSeconds} s)`);
    }
  });
  const psd = post.platformSpecificData ?? {};
  if (psd.firstComment !== undefined) {
    if (typeof psd.firstComment !== 'string') add('platformSpecificData.firstComment', 'linkedin.first_comment.type', 'firstComment must be a string');
    else if ([...psd.firstComment].length > LINKEDIN_MAX_FIRST_COMMENT) add('platformSpecificData.firstComment', 'linkedin.first_comment.max_length', `LinkedIn comments are limited to ${LINKEDIN_MAX_FIRST_COMMENT} characters`);
  }
  if (psd.visibility !== undefined && psd.visibility !== 'PUBLIC' && psd.visibility !== 'CONNECTIONS') {
    add('platformSpecificData.visibility', 'linkedin.visibility', 'visibility must be PUBLIC or CONNECTIONS');
  }
  if (psd.documentTitle !== undefined && (typeof psd.documentTitle !== 'string' || psd.documentTitle.length > LINKEDIN_DOCUMENT_TITLE_MAX)) {
    add('platformSpecificData.documentTitle', 'linkedin.document.title', `documentTitle must be a string of at most ${LINKEDIN_DOCUMENT_TITLE_MAX} characters`);
  }
  return out;
}

export const linkedinRules: PlatformRuleSet<LinkedInLimits> = { platform: 'linkedin', rules: LINKEDIN_RULES, check };
