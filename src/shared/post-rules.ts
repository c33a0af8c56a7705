/**
 * What the composer checks before saving, per platform: text length in the platform's own
 * unit, media counts, types and sizes, and required settings (Reddit subreddit, Pinterest
 * board), all read from {@link PLATFORM_CAPABILITIES}. The server validates again with each
 * adapter's own rules (400 with details.fields), so these checks only make the feedback live;
 * test/web/composer-rules.test.ts keeps their verdicts equal to the adapters' `validate`.
 * Pure (no I/O, no Node APIs): used by the dashboard, the docs page and the tests.
 */
import { PLATFORM_CAPABILITIES, type TextUnit } from './capabilities.ts';
import { APP_PASSWORD_PLATFORMS, PLATFORM_LABELS, PLATFORMS, type PlatformId } from './platforms.ts';
import { RULE_SETS } from './rules/index.ts';
import type { MediaRef, RulePost, ThreadItem } from './rules/types.ts';

export type { TextUnit };

export { countGraphemes, textLength, threadsTextLength, utf8Length, weightedLength } from './rules/text.ts';
import { textLength, utf8Length } from './rules/text.ts';

/** A media item as the composer knows it: its kind, and whatever of size, format, pixels and duration is known. */
export type MediaLike = Pick<MediaRef, 'type'> & Partial<Omit<MediaRef, 'type'>>;

export interface RuleProblem {
  platform: PlatformId;
  field: 'content' | 'media' | 'settings';
  message: string;
  /** The rule's id in the platform's table (src/shared/rules/), when it comes from there. */
  rule?: string;
}

/** What the composer knows besides text and media. */
export interface PostContext {
  platformSpecificData?: Record<string, unknown>;
  /** Thread items (X, Threads, Bluesky), when the post is a thread. */
  threadItems?: ThreadItem[];
  /** The account's settings (default subreddit, default board); absent: required settings are not checked. */
  accountSettings?: Record<string, unknown>;
}

const n = (v: number) => v.toLocaleString('en-US');
const given = (v: unknown) => typeof v === 'string' && v.trim() !== '' && v.trim().replace(/^\/?r\//i, '').replace(/\/+$/, '') !== '';
const mb = (bytes: number) => (bytes >= 1024 ** 3 ? `${bytes / 1024 ** 3} GB` : bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${n(bytes)} bytes`);

/** Where a violation's field belongs in the composer: the text, the media, or the platform's settings. */
function composerField(field: string): RuleProblem['field'] {
  if (field.startsWith('mediaItems') || /^threadItems\.\d+\.mediaItems/.test(field)) return 'media';
  if (field.startsWith('platformSpecificData') || field.startsWith('settings')) return 'settings';
  return 'content';
}

/**
 * Every rule a post breaks on one platform, before anything is sent: the platform's rule table
 * (src/shared/rules/, the same checks the server runs), and that a post needs text or media.
 */
export function checkPost(platform: PlatformId, text: string, media: MediaLike[], ctx: PostContext = {}): RuleProblem[] {
  const set = RULE_SETS[platform];
  if (set) {
    const post: RulePost = {
      text, mediaItems: media.map((m) => ({ url: '', ...m })), threadItems: ctx.threadItems ?? [],
      platformSpecificData: ctx.platformSpecificData ?? {}, ...(ctx.accountSettings ? { accountSettings: ctx.accountSettings } : {}),
    };
    const out: RuleProblem[] = set.check(post).map((v) => ({ platform, field: composerField(v.field), message: v.message, rule: v.rule }));
    if (!text.trim() && media.length === 0 && !ctx.threadItems?.length && !out.some((p) => p.field === 'content')) {
      out.push({ platform, field: 'content', message: `${PLATFORM_LABELS[platform]} needs text or media`, rule: 'content.required' });
    }
    return out;
  }
  return checkPostByCapabilities(platform, text, media, ctx);
}

/** The coarse checks from {@link PLATFORM_CAPABILITIES}, for a platform not yet in the rule table. */
function checkPostByCapabilities(platform: PlatformId, text: string, media: MediaLike[], ctx: PostContext): RuleProblem[] {
  const caps = PLATFORM_CAPABILITIES[platform];
  const label = PLATFORM_LABELS[platform];
  const out: RuleProblem[] = [];
  const add = (field: RuleProblem['field'], message: string) => out.push({ platform, field, message });

  const gifsAsVideos = caps.gif === 'video';
  const images = media.filter((m) => m.type === 'image' || (m.type === 'gif' && !gifsAsVideos)).length;
  const videos = media.filter((m) => m.type === 'video' || (m.type === 'gif' && gifsAsVideos)).length;
  const gifs = media.filter((m) => m.type === 'gif').length;
  const docs = media.filter((m) => m.type === 'document').length;

  // Text: Reddit's first line is the title, the rest the body the limit applies to.
  let body = text;
  if (caps.titleFromFirstLine) {
    const [first, ...rest] = text.trim().split(/\r?\n/);
    const title = (first ?? '').trim();
    body = rest.join('\n').trim();
    if (!title) add('content', `${label} needs a title: the first line of the text`);
    else if (title.length > caps.titleFromFirstLine.max) add('content', `${label} titles are limited to ${n(caps.titleFromFirstLine.max)} characters; this one has ${n(title.length)}`);
  }
  const photoPost = videos === 0 && images > 0;
  const maxText = photoPost && caps.maxTextLengthPhotos ? caps.maxTextLengthPhotos : caps.maxTextLength;
  const len = textLength(caps, body);
  if (len > maxText && !(caps.titleFromFirstLine && media.length > 0)) add('content', `${label} allows ${n(maxText)} ${caps.textUnit}; this text has ${n(len)}`);
  if (caps.maxTextBytes !== undefined) {
    const bytes = utf8Length(text);
    if (bytes > caps.maxTextBytes) add('content', `${label} allows ${n(caps.maxTextBytes)} bytes of text; this text has ${n(bytes)}`);
  }
  if (caps.maxHashtags !== undefined) {
    const tags = text.match(/(^|\s)#[^\s#]+/g)?.length ?? 0;
    if (tags > caps.maxHashtags) add('content', `${label} allows at most ${caps.maxHashtags} hashtags (${tags} in the text)`);
  }
  if (!text.trim() && media.length === 0) add('content', `${label} needs text or media`);

  // Media counts and kinds.
  if (images > caps.maxImages) add('media', caps.maxImages === 0 ? `${label} does not take images` : `${label} allows at most ${caps.maxImages} images (${images} attached)`);
  if (videos > caps.maxVideos) {
    const what = gifsAsVideos && gifs > 0 ? 'GIF or video' : `video${caps.maxVideos === 1 ? '' : 's'}`;
    add('media', caps.maxVideos === 0 ? `${label} does not take videos here (images only)` : `${label} allows at most ${caps.maxVideos} ${what} (${videos} attached)`);
  }
  if (caps.maxMediaItems !== undefined && media.length > caps.maxMediaItems) add('media', `${label} allows at most ${caps.maxMediaItems} media items (${media.length} attached)`);
  if (videos > 0 && images > caps.maxImagesWithVideo) {
    add('media', caps.maxImagesWithVideo === 0
      ? `${label} cannot mix images and videos in one post`
      : `${label} takes at most ${caps.maxImagesWithVideo} image${caps.maxImagesWithVideo === 1 ? '' : 's'} with a video`);
  }
  if (gifs > 0 && caps.gif === 'refused') add('media', `${label} does not take GIFs`);
  if (docs > 0 && caps.maxDocuments === 0) add('media', `${label} does not take documents (PDF posts are LinkedIn only)`);
  if (docs > caps.maxDocuments && caps.maxDocuments > 0) add('media', `${label} takes one document per post`);
  if (docs > 0 && caps.maxDocuments > 0 && docs !== media.length) add('media', `${label} cannot combine a document with images or videos`);
  if (caps.mediaRequired === 'video' && (videos === 0 || media.length !== videos)) add('media', `${label} needs a video`);
  if (caps.mediaRequired === 'image-or-video' && images + videos === 0) add('media', `${label} needs an image or a video`);

  // Sizes, when known.
  for (const m of media) {
    if (m.size === undefined) continue;
    const cap = m.type === 'gif' ? caps.gifMaxBytes ?? caps.imageMaxBytes : m.type === 'image' ? caps.imageMaxBytes : m.type === 'video' ? caps.videoMaxBytes : undefined;
    if (cap !== undefined && m.size > cap) add('media', `${label} ${m.type === 'video' ? 'videos' : m.type === 'gif' ? 'GIFs' : 'images'} are limited to ${mb(cap)}`);
  }

  // Settings the post cannot go without (checked only when the account's settings are known).
  const req = caps.requiredSetting;
  if (req && ctx.accountSettings && !given(ctx.platformSpecificData?.[req.field]) && !given(ctx.accountSettings[req.accountSetting])) {
    add('settings', `${label} needs a ${req.label}: choose one, or set the account's default ${req.label}`);
  }
  return out;
}

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
  connect: 'oauth' | 'app-password';
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
    connect: (APP_PASSWORD_PLATFORMS as readonly string[]).includes(id) ? 'app-password' : 'oauth',
  };
}

export const PLATFORM_RULES: Readonly<Record<PlatformId, PlatformRule>> = Object.fromEntries(PLATFORMS.map((id) => [id, ruleOf(id)])) as Record<PlatformId, PlatformRule>;

/** The text limit that applies to a post with `media` (photo posts may have a longer one). */
export function ruleMaxText(rule: Pick<PlatformRule, 'maxText' | 'maxTextPhotos'>, media: readonly Pick<MediaLike, 'type'>[]): number {
  const photosOnly = media.length > 0 && media.every((m) => m.type === 'image');
  return photosOnly && rule.maxTextPhotos ? rule.maxTextPhotos : rule.maxText;
}

/** Text length in the platform's unit, for a rule (the composer's counters). */
export function ruleTextLength(rule: Pick<PlatformRule, 'unit' | 'emojiCountsAsBytes'>, text: string): number {
  return textLength({ textUnit: rule.unit, emojiCountsAsBytes: rule.emojiCountsAsBytes }, text);
}
