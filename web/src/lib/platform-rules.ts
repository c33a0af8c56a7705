/**
 * The composer's per-platform rules, derived from the server's own capabilities
 * (src/shared/capabilities.ts) so that they cannot drift; the checks themselves are
 * src/shared/post-rules.ts. This file adds only what the web app shows: brand colours and how
 * an account connects. test/web/composer-rules.test.ts keeps the verdicts equal to the adapters'.
 * Pure: used by the dashboard, the docs page and the tests.
 */
import { PLATFORM_CAPABILITIES } from '../../../src/shared/capabilities.ts';
import { APP_PASSWORD_PLATFORMS, PLATFORM_LABELS, PLATFORMS, type PlatformId } from '../../../src/shared/platforms.ts';
import { textLength as lengthIn, type TextUnit } from '../../../src/shared/post-rules.ts';

export { checkPost, countGraphemes, utf8Length, weightedLength, type MediaLike, type RuleProblem, type TextUnit } from '../../../src/shared/post-rules.ts';

export const PLATFORM_IDS = PLATFORMS;
export type PlatformName = PlatformId;

export interface PlatformRule {
  id: PlatformName;
  label: string;
  /** Maximum post text, in `unit`. */
  maxText: number;
  unit: TextUnit;
  /** Threads counts an emoji as its UTF-8 bytes. */
  emojiCountsAsBytes?: boolean;
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

const BRANDS: Record<PlatformName, string> = {
  facebook: '#1877f2', instagram: '#c13584', linkedin: '#0a66c2', twitter: '#0f1419', threads: '#101010',
  tiktok: '#010101', youtube: '#ff0000', pinterest: '#bd081c', reddit: '#ff4500', bluesky: '#0085ff',
};

function ruleOf(id: PlatformName): PlatformRule {
  const c = PLATFORM_CAPABILITIES[id];
  return {
    id,
    label: PLATFORM_LABELS[id],
    maxText: c.maxTextLength,
    unit: c.textUnit,
    ...(c.emojiCountsAsBytes ? { emojiCountsAsBytes: true } : {}),
    // YouTube's description limit is in bytes too, but equal to its length limit: shown once.
    ...(c.maxTextBytes !== undefined && c.maxTextBytes !== c.maxTextLength ? { maxBytes: c.maxTextBytes } : {}),
    maxImages: c.maxImages,
    maxVideos: c.maxVideos,
    ...(c.mediaRequired ? { mediaRequired: c.mediaRequired } : {}),
    ...(c.maxImagesWithVideo === 0 && c.maxImages > 0 && c.maxVideos > 0 ? { noMixedMedia: true } : {}),
    threads: c.threads,
    ...(c.firstComment && c.firstCommentMaxLength ? { firstComment: c.firstCommentMaxLength } : {}),
    connect: (APP_PASSWORD_PLATFORMS as readonly string[]).includes(id) ? 'app-password' : 'oauth',
    brand: BRANDS[id],
  };
}

export const PLATFORM_RULES: Record<PlatformName, PlatformRule> = Object.fromEntries(PLATFORMS.map((id) => [id, ruleOf(id)])) as Record<PlatformName, PlatformRule>;

/** Text length in the platform's unit (the composer's counters). */
export function textLength(rule: PlatformRule, text: string): number {
  return lengthIn({ textUnit: rule.unit, emojiCountsAsBytes: rule.emojiCountsAsBytes }, text);
}
