/**
 * What the composer checks before saving, per platform (spec.md section 5 and platforms.md):
 * text length in the platform's own unit, media counts and types. The server validates
 * again with each adapter's own rules (400 with details.fields), so this table only makes
 * the feedback live; test/web/platform-rules.test.ts keeps it equal to the adapters' capabilities.
 * Pure: used by the dashboard, the docs page and the tests.
 */

export const PLATFORM_IDS = ['facebook', 'instagram', 'linkedin', 'twitter', 'threads', 'tiktok', 'youtube', 'pinterest', 'reddit', 'bluesky'] as const;
export type PlatformName = (typeof PLATFORM_IDS)[number];

export type TextUnit = 'characters' | 'graphemes' | 'weighted characters';

export interface PlatformRule {
  id: PlatformName;
  label: string;
  /** Maximum post text, in `unit`. */
  maxText: number;
  unit: TextUnit;
  /** Extra byte cap (Bluesky: 3000 UTF-8 bytes). */
  maxBytes?: number;
  maxImages: number;
  maxVideos: number;
  /** Media is required (Instagram, TikTok, YouTube, Pinterest). */
  mediaRequired?: 'image-or-video' | 'video';
  /** Images and videos cannot be mixed in one post. */
  noMixedMedia?: boolean;
  threads: boolean;
  /** First comment limit, when the platform supports one. */
  firstComment?: number;
  /** How an account connects. */
  connect: 'oauth' | 'app-password';
  brand: string;
}

export const PLATFORM_RULES: Record<PlatformName, PlatformRule> = {
  facebook: { id: 'facebook', label: 'Facebook', maxText: 63_206, unit: 'characters', maxImages: 10, maxVideos: 1, noMixedMedia: true, threads: false, firstComment: 8000, connect: 'oauth', brand: '#1877f2' },
  instagram: { id: 'instagram', label: 'Instagram', maxText: 2200, unit: 'characters', maxImages: 10, maxVideos: 10, mediaRequired: 'image-or-video', threads: false, firstComment: 2200, connect: 'oauth', brand: '#c13584' },
  linkedin: { id: 'linkedin', label: 'LinkedIn', maxText: 3000, unit: 'characters', maxImages: 20, maxVideos: 1, noMixedMedia: true, threads: false, firstComment: 1250, connect: 'oauth', brand: '#0a66c2' },
  twitter: { id: 'twitter', label: 'X (Twitter)', maxText: 280, unit: 'weighted characters', maxImages: 4, maxVideos: 1, noMixedMedia: true, threads: true, connect: 'oauth', brand: '#0f1419' },
  threads: { id: 'threads', label: 'Threads', maxText: 500, unit: 'characters', maxImages: 20, maxVideos: 20, threads: true, connect: 'oauth', brand: '#101010' },
  tiktok: { id: 'tiktok', label: 'TikTok', maxText: 2200, unit: 'characters', maxImages: 35, maxVideos: 1, mediaRequired: 'image-or-video', noMixedMedia: true, threads: false, connect: 'oauth', brand: '#010101' },
  youtube: { id: 'youtube', label: 'YouTube', maxText: 5000, unit: 'characters', maxImages: 0, maxVideos: 1, mediaRequired: 'video', threads: false, firstComment: 10_000, connect: 'oauth', brand: '#ff0000' },
  pinterest: { id: 'pinterest', label: 'Pinterest', maxText: 500, unit: 'characters', maxImages: 5, maxVideos: 1, mediaRequired: 'image-or-video', noMixedMedia: true, threads: false, connect: 'oauth', brand: '#bd081c' },
  reddit: { id: 'reddit', label: 'Reddit', maxText: 40_000, unit: 'characters', maxImages: 20, maxVideos: 1, threads: false, connect: 'oauth', brand: '#ff4500' },
  bluesky: { id: 'bluesky', label: 'Bluesky', maxText: 300, unit: 'graphemes', maxBytes: 3000, maxImages: 4, maxVideos: 0, threads: true, connect: 'app-password', brand: '#0085ff' },
};

let segmenter: Intl.Segmenter | null = null;

/** User-perceived characters (extended grapheme clusters), as Bluesky counts them. */
export function countGraphemes(text: string): number {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let n = 0;
  for (const _ of segmenter.segment(text)) n++;
  return n;
}

export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

const URL_RE = /https?:\/\/[^\s]+/g;
// Characters X counts as 1: Latin, general punctuation and a few other ranges (twitter-text's default config).
const WEIGHT_ONE = [[0x0000, 0x10ff], [0x2000, 0x200d], [0x2010, 0x201f], [0x2032, 0x2037]] as const;

/** X's weighted length: URLs count 23, most Latin characters 1, CJK and emoji 2 (after NFC). */
export function weightedLength(text: string): number {
  let n = 0;
  const withoutUrls = text.normalize('NFC').replace(URL_RE, () => { n += 23; return ''; });
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of segmenter.segment(withoutUrls)) {
    const cp = segment.codePointAt(0)!;
    const light = segment.length <= 2 && [...segment].length === 1 && WEIGHT_ONE.some(([a, b]) => cp >= a && cp <= b);
    n += light ? 1 : 2;
  }
  return n;
}

/** Text length in the platform's unit. */
export function textLength(rule: PlatformRule, text: string): number {
  if (rule.unit === 'graphemes') return countGraphemes(text);
  if (rule.unit === 'weighted characters') return weightedLength(text);
  return [...text].length;
}

export interface MediaLike {
  type: 'image' | 'video' | 'gif' | 'document';
  size?: number;
}

export interface RuleProblem {
  platform: PlatformName;
  field: 'content' | 'media';
  message: string;
}

/** Every rule a post breaks on one platform, before anything is sent. */
export function checkPost(platform: PlatformName, text: string, media: MediaLike[]): RuleProblem[] {
  const rule = PLATFORM_RULES[platform];
  const out: RuleProblem[] = [];
  const len = textLength(rule, text);
  if (len > rule.maxText) out.push({ platform, field: 'content', message: `${rule.label} allows ${rule.maxText.toLocaleString('en-US')} ${rule.unit}; this text has ${len.toLocaleString('en-US')}` });
  if (rule.maxBytes !== undefined) {
    const bytes = utf8Length(text);
    if (bytes > rule.maxBytes) out.push({ platform, field: 'content', message: `${rule.label} allows ${rule.maxBytes.toLocaleString('en-US')} bytes of text; this text has ${bytes.toLocaleString('en-US')}` });
  }
  const images = media.filter((m) => m.type === 'image' || m.type === 'gif').length;
  const videos = media.filter((m) => m.type === 'video').length;
  const docs = media.filter((m) => m.type === 'document').length;
  if (!text.trim() && media.length === 0) out.push({ platform, field: 'content', message: `${rule.label} needs text or media` });
  if (images > rule.maxImages) out.push({ platform, field: 'media', message: rule.maxImages === 0 ? `${rule.label} does not take images` : `${rule.label} allows at most ${rule.maxImages} images (${images} attached)` });
  if (videos > rule.maxVideos) out.push({ platform, field: 'media', message: rule.maxVideos === 0 ? `${rule.label} does not take videos here (images only)` : `${rule.label} allows at most ${rule.maxVideos} video${rule.maxVideos === 1 ? '' : 's'} (${videos} attached)` });
  if (rule.noMixedMedia && images > 0 && videos > 0) out.push({ platform, field: 'media', message: `${rule.label} cannot mix images and videos in one post` });
  if (docs > 0 && platform !== 'linkedin') out.push({ platform, field: 'media', message: `${rule.label} does not take documents (PDF posts are LinkedIn only)` });
  if (docs > 1) out.push({ platform, field: 'media', message: 'LinkedIn takes one document per post' });
  if (rule.mediaRequired === 'video' && videos === 0) out.push({ platform, field: 'media', message: `${rule.label} needs a video` });
  if (rule.mediaRequired === 'image-or-video' && images + videos === 0) out.push({ platform, field: 'media', message: `${rule.label} needs an image or a video` });
  if (platform === 'bluesky') {
    for (const m of media) if ((m.type === 'image' || m.type === 'gif') && m.size !== undefined && m.size > 1_000_000) out.push({ platform, field: 'media', message: 'Bluesky images are limited to 1,000,000 bytes' });
  }
  return out;
}
