/**
 * Each platform's rules in summary, as the composer's counters, the docs' platform table and
 * the landing page show them (text limit and unit, media counts, threads, first comment, how an
 * account connects), derived from src/shared/capabilities.ts. Apart from src/shared/post-rules.ts
 * (the composer's checks) so that pages showing only the summary do not load the checks. Pure.
 */
import { PLATFORM_CAPABILITIES, type TextUnit } from './capabilities.ts';
import { APP_PASSWORD_PLATFORMS, BOT_TOKEN_PLATFORMS, INSTANCE_PLATFORMS, PLATFORM_LABELS, PLATFORMS, type PlatformId } from './platforms.ts';

/** One platform's rules in the form the composer, the docs' platform table and the landing page show them. */
export interface PlatformRule {
  id: PlatformId;
  label: string;
  /** Maximum post text, in `unit`. */
  maxText: number;
  /** A longer limit for posts whose media is only images (TikTok photo descriptions: 4,000). */
  maxTextPhotos?: number;
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
  connect: 'oauth' | 'app-password' | 'bot-token' | 'instance-oauth';
}

function ruleOf(id: PlatformId): PlatformRule {
  const c = PLATFORM_CAPABILITIES[id];
  return {
    id,
    label: PLATFORM_LABELS[id],
    maxText: c.maxTextLength,
    ...(c.maxTextLengthPhotos ? { maxTextPhotos: c.maxTextLengthPhotos } : {}),
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
    connect: (APP_PASSWORD_PLATFORMS as readonly string[]).includes(id) ? 'app-password' : (BOT_TOKEN_PLATFORMS as readonly string[]).includes(id) ? 'bot-token' : INSTANCE_PLATFORMS[id] ? 'instance-oauth' : 'oauth',
  };
}

export const PLATFORM_RULES: Readonly<Record<PlatformId, PlatformRule>> = Object.fromEntries(PLATFORMS.map((id) => [id, ruleOf(id)])) as Record<PlatformId, PlatformRule>;

/** The text limit that applies to a post with `media` (photo posts may have a longer one). */
export function ruleMaxText(rule: Pick<PlatformRule, 'maxText' | 'maxTextPhotos'>, media: readonly { type: string }[]): number {
  const photosOnly = media.length > 0 && media.every((m) => m.type === 'image');
  return photosOnly && rule.maxTextPhotos ? rule.maxTextPhotos : rule.maxText;
}
