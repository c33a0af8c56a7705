/**
 * Bluesky's posting rules (app.bsky.feed.post and app.bsky.embed.images lexicons,
 * https://docs.bsky.app/docs/advanced-guides/posts): text length in graphemes and UTF-8 bytes,
 * image count, type and size, media only on the first thread item, post languages.
 */
import { BLUESKY_DOCS_URL, BLUESKY_MAX_IMAGE_BYTES, BLUESKY_MAX_IMAGES, BLUESKY_MAX_LANGS, BLUESKY_MAX_GRAPHEMES, BLUESKY_MAX_TEXT_BYTES } from '../capabilities.ts';
import { countGraphemes, utf8Length } from './text.ts';
import type { MediaRef, PlatformRuleSet, RulePost, RuleViolation } from './types.ts';
import { HERALD_RULE_SOURCE, n } from './format.ts';

const POST_LEXICON = 'https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/post.json';
const IMAGES_LEXICON = 'https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/embed/images.json';

/** One post to create, with where its fields live in the request (for violation paths). */
export interface BlueskyPlannedItem {
  text: string;
  textField: string;
  media: MediaRef[];
  mediaField: string;
}

/** The posts a request makes: one, or one per thread item (item 0 takes the post's media unless it has its own). */
export function planBlueskyItems(req: RulePost): BlueskyPlannedItem[] {
  if (!req.threadItems?.length) {
    return [{ text: req.text ?? '', textField: 'content', media: req.mediaItems ?? [], mediaField: 'mediaItems' }];
  }
  return req.threadItems.map((it, i) => {
    if (i > 0) return { text: it.content ?? '', textField: `threadItems.${i}.content`, media: it.mediaItems ?? [], mediaField: `threadItems.${i}.mediaItems` };
    const own = (it.mediaItems?.length ?? 0) > 0;
    return {
      text: it.content ?? '',
      textField: 'threadItems.0.content',
      media: own ? it.mediaItems! : (req.mediaItems ?? []),
      mediaField: own ? 'threadItems.0.mediaItems' : 'mediaItems',
    };
  });
}

export const BLUESKY_RULES = [
  { id: 'bluesky.text.max_graphemes', summary: `Text: at most ${n(BLUESKY_MAX_GRAPHEMES)} graphemes (user-perceived characters) per post.`, source: POST_LEXICON },
  { id: 'bluesky.text.max_bytes', summary: `Text: at most ${n(BLUESKY_MAX_TEXT_BYTES)} bytes of UTF-8 per post.`, source: POST_LEXICON },
  { id: 'bluesky.text.empty', summary: 'Every post of a thread needs text or at least one image.', source: BLUESKY_DOCS_URL },
  { id: 'bluesky.images.max_count', summary: `Images: at most ${BLUESKY_MAX_IMAGES} per post.`, source: IMAGES_LEXICON },
  { id: 'bluesky.image.max_bytes', summary: `Images: at most ${n(BLUESKY_MAX_IMAGE_BYTES)} bytes each.`, source: IMAGES_LEXICON },
  { id: 'bluesky.media.type', summary: 'Media: images (image/*) only; documents are not accepted.', source: IMAGES_LEXICON },
  { id: 'bluesky.media.video_unsupported', summary: 'Video: not supported by Herald yet (it needs the video.bsky.app upload service).', source: 'https://docs.bsky.app/docs/tutorials/video' },
  { id: 'bluesky.thread.media_on_reply', summary: 'Threads: only the first post carries media.', source: HERALD_RULE_SOURCE },
  { id: 'bluesky.langs.max_count', summary: `Languages: at most ${BLUESKY_MAX_LANGS} BCP-47 tags (platformSpecificData.langs).`, source: POST_LEXICON },
] as const;

/** What a Bluesky adapter may set: the largest image in bytes (a PDS on the older lexicon takes 1,000,000). */
export interface BlueskyLimits {
  maxImageBytes: number;
}

/** Every Bluesky rule `post` breaks, without any network call. Empty array = publishable. */
function check(post: RulePost, limits: Partial<BlueskyLimits> = {}): RuleViolation[] {
  const maxImageBytes = limits.maxImageBytes ?? BLUESKY_MAX_IMAGE_BYTES;
  const out: RuleViolation[] = [];
  const add = (field: string, rule: (typeof BLUESKY_RULES)[number]['id'], message: string) => out.push({ field, rule, message });
  planBlueskyItems(post).forEach((item, i) => {
    const graphemes = countGraphemes(item.text);
    if (graphemes > BLUESKY_MAX_GRAPHEMES) add(item.textField, 'bluesky.text.max_graphemes', `Bluesky posts are limited to ${BLUESKY_MAX_GRAPHEMES} graphemes (this text has ${graphemes})`);
    const bytes = utf8Length(item.text);
    if (bytes > BLUESKY_MAX_TEXT_BYTES) add(item.textField, 'bluesky.text.max_bytes', `Bluesky posts are limited to ${BLUESKY_MAX_TEXT_BYTES} bytes of UTF-8 text (this text has ${bytes})`);
    if (i > 0 && item.media.length > 0) {
      add(item.mediaField, 'bluesky.thread.media_on_reply', 'On Bluesky only the first post of a thread can carry media (Herald attaches media to the first item only)');
      return;
    }
    if (item.text.trim() === '' && item.media.length === 0) add(item.textField, 'bluesky.text.empty', 'A Bluesky post needs text or at least one image');
    if (item.media.length > BLUESKY_MAX_IMAGES) add(item.mediaField, 'bluesky.images.max_count', `Bluesky posts can carry at most ${BLUESKY_MAX_IMAGES} images (this post has ${item.media.length})`);
    item.media.forEach((m, j) => {
      const field = `${item.mediaField}.${j}`;
      if (m.type === 'video') add(field, 'bluesky.media.video_unsupported', 'Video on Bluesky is not supported by Herald yet (it needs the video.bsky.app upload service); only images are allowed');
      else if (m.type !== 'image' && m.type !== 'gif') add(field, 'bluesky.media.type', `Bluesky posts accept only images (image/*); a ${m.type} cannot be attached`);
      else if (m.mimeType && !m.mimeType.toLowerCase().startsWith('image/')) add(field, 'bluesky.media.type', `Bluesky images must be image/* (this file is ${m.mimeType})`);
      if ((m.type === 'image' || m.type === 'gif') && typeof m.size === 'number' && m.size > maxImageBytes) {
        add(field, 'bluesky.image.max_bytes', `Bluesky images are limited to ${n(maxImageBytes)} bytes (this one has ${n(m.size)})`);
      }
    });
  });
  const langs = post.platformSpecificData?.langs;
  if (langs !== undefined && (!Array.isArray(langs) || langs.length > BLUESKY_MAX_LANGS || langs.some((l) => typeof l !== 'string' || !l))) {
    add('platformSpecificData.langs', 'bluesky.langs.max_count', `Bluesky post languages must be a list of at most ${BLUESKY_MAX_LANGS} language tags (e.g. ["en"])`);
  }
  return out;
}

export const blueskyRules: PlatformRuleSet<BlueskyLimits> = { platform: 'bluesky', rules: BLUESKY_RULES, check };
