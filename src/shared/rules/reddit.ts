/**
 * Reddit's submission rules (https://www.reddit.com/dev/api#POST_api_submit): a subreddit, a
 * title of at most 300 characters, a text, link, image or gallery post (2-20 images: JPEG, PNG
 * or GIF), flair limits; and each subreddit's own rules when they are known
 * (`accountSettings.subredditRules[<name>]`, read from `GET /r/{sr}/about` and
 * `GET /api/v1/{sr}/post_requirements` by the server before it checks a post; see
 * {@link RedditSubredditRules}). Pure: the composer applies the same rules when it has them.
 */
import {
  REDDIT_FLAIR_ID_MAX, REDDIT_FLAIR_TEXT_MAX, REDDIT_GALLERY_MAX, REDDIT_IMAGE_FORMATS, REDDIT_IMAGE_MAX_BYTES, REDDIT_SELFTEXT_MAX, REDDIT_SUBREDDIT_NAME_MAX, REDDIT_TITLE_MAX,
} from '../capabilities.ts';
import type { PlatformRuleSet, RulePost, RuleViolation } from './types.ts';
import { HERALD_RULE_SOURCE, n } from './format.ts';

const SUBMIT = 'https://www.reddit.com/dev/api#POST_api_submit';
const GALLERY = 'https://www.reddit.com/dev/api#POST_api_submit_gallery_post.json';
const ABOUT = 'https://www.reddit.com/dev/api#GET_r_{subreddit}_about';
const REQUIREMENTS = 'https://www.reddit.com/dev/api#GET_api_v1_{subreddit}_post_requirements';

/** Subreddit names: 3-21 letters, digits and underscores (2-character legacy names exist, so 2 is accepted). */
export const SUBREDDIT_NAME = new RegExp(`^[A-Za-z0-9][A-Za-z0-9_]{1,${REDDIT_SUBREDDIT_NAME_MAX - 1}}$`);

/**
 * What Herald knows of one subreddit's posting rules, from `GET /r/{sr}/about`
 * (submission_type, allow_images, allow_videos, allow_galleries) and
 * `GET /api/v1/{sr}/post_requirements` (is_flair_required, title_text_min_length,
 * title_text_max_length, body_restriction_policy, body_text_min_length, body_text_max_length).
 * A field left out is not checked.
 */
export interface RedditSubredditRules {
  submissionType?: 'any' | 'self' | 'link';
  allowImages?: boolean;
  allowGalleries?: boolean;
  flairRequired?: boolean;
  titleMinLength?: number;
  titleMaxLength?: number;
  /** 'required': text posts need a body; 'notAllowed': no body. */
  bodyPolicy?: 'required' | 'notAllowed' | 'none';
  bodyMinLength?: number;
  bodyMaxLength?: number;
}

/** `subreddit` without an `r/` prefix, or null when empty. */
export function normalizeSubreddit(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const s = v.trim().replace(/^\/?r\//i, '').replace(/\/+$/, '');
  return s || null;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** Title and body as posted: the explicit title and the whole text, or the first line and the rest. */
export function redditTitleAndBody(req: Pick<RulePost, 'text' | 'platformSpecificData'>): { title: string; body: string } {
  const explicit = str(req.platformSpecificData?.title);
  // With an explicit title, the content is the body, unless it only repeats the title.
  if (explicit) return { title: explicit, body: (req.text ?? '').trim() === explicit ? '' : (req.text ?? '').trim() };
  const [first, ...rest] = (req.text ?? '').trim().split(/\r?\n/);
  return { title: (first ?? '').trim(), body: rest.join('\n').trim() };
}

/** The kind of submission a post makes. */
export function redditKind(req: Pick<RulePost, 'mediaItems' | 'platformSpecificData'>): 'self' | 'link' | 'image' | 'gallery' {
  const n = req.mediaItems?.length ?? 0;
  if (n === 1) return 'image';
  if (n > 1) return 'gallery';
  return req.platformSpecificData?.url !== undefined ? 'link' : 'self';
}

/** The subreddit a post goes to (its own, else the account's default). */
export function redditSubredditOf(req: Pick<RulePost, 'platformSpecificData' | 'accountSettings'>): string | null {
  return normalizeSubreddit(req.platformSpecificData?.subreddit) ?? normalizeSubreddit(req.accountSettings?.defaultSubreddit);
}

export const REDDIT_RULES = [
  { id: 'reddit.threads.unsupported', summary: 'A Reddit post is one submission: threads are not accepted.', source: SUBMIT },
  { id: 'reddit.subreddit.required', summary: 'Every post goes to a subreddit: platformSpecificData.subreddit, else the account\'s default subreddit.', source: SUBMIT },
  { id: 'reddit.subreddit.name', summary: `subreddit: a name of 2 to ${REDDIT_SUBREDDIT_NAME_MAX} letters, digits and underscores ("test" or "r/test").`, source: SUBMIT },
  { id: 'reddit.title.required', summary: 'A title is required: platformSpecificData.title, else the content\'s first line.', source: SUBMIT },
  { id: 'reddit.title.max_length', summary: `Title: at most ${REDDIT_TITLE_MAX} characters.`, source: SUBMIT },
  { id: 'reddit.text.max_length', summary: `Text posts: a body of at most ${n(REDDIT_SELFTEXT_MAX)} characters.`, source: SUBMIT },
  { id: 'reddit.body.not_carried', summary: 'Link, image and gallery posts carry no body text (Reddit\'s submit drops it): such a post has only a title (the content\'s first line, or platformSpecificData.title with no other content).', source: SUBMIT },
  { id: 'reddit.link.url', summary: 'url (a link post): an absolute http(s) URL.', source: SUBMIT },
  { id: 'reddit.post.link_or_image', summary: 'A post is a link post (url) or an image post (mediaItems), not both.', source: SUBMIT },
  { id: 'reddit.media.type', summary: 'Media: images only; documents (PDF) are not accepted.', source: SUBMIT },
  { id: 'reddit.media.video_unsupported', summary: 'Video: not supported by Herald yet (Reddit video posts need an uploaded poster image); images only.', source: HERALD_RULE_SOURCE },
  { id: 'reddit.image.format', summary: 'Images: JPEG, PNG or GIF.', source: SUBMIT },
  { id: 'reddit.media.image_max_bytes', summary: `Images: at most ${n(REDDIT_IMAGE_MAX_BYTES)} bytes (20 MB) each.`, source: SUBMIT },
  { id: 'reddit.media.gallery_max', summary: `Galleries: 2 to ${REDDIT_GALLERY_MAX} images (one image is an image post).`, source: GALLERY },
  { id: 'reddit.flair.id', summary: `flairId: at most ${REDDIT_FLAIR_ID_MAX} characters.`, source: SUBMIT },
  { id: 'reddit.flair.text', summary: `flairText: at most ${REDDIT_FLAIR_TEXT_MAX} characters.`, source: SUBMIT },
  { id: 'reddit.subreddit.link_posts_not_allowed', summary: 'A subreddit whose submission_type is "self" takes only text posts (no link, image or gallery posts).', source: ABOUT },
  { id: 'reddit.subreddit.text_posts_not_allowed', summary: 'A subreddit whose submission_type is "link" takes no text posts.', source: ABOUT },
  { id: 'reddit.subreddit.images_not_allowed', summary: 'A subreddit with allow_images false takes no image posts; one with allow_galleries false takes no galleries.', source: ABOUT },
  { id: 'reddit.subreddit.flair_required', summary: 'A subreddit whose post requirements say is_flair_required needs a flair (flairId).', source: REQUIREMENTS },
  { id: 'reddit.subreddit.title_length', summary: 'A subreddit\'s title_text_min_length and title_text_max_length bound the title.', source: REQUIREMENTS },
  { id: 'reddit.subreddit.body_policy', summary: 'A subreddit\'s body_restriction_policy: "required" needs body text on text posts, "notAllowed" allows none.', source: REQUIREMENTS },
  { id: 'reddit.subreddit.body_length', summary: 'A subreddit\'s body_text_min_length and body_text_max_length bound a text post\'s body.', source: REQUIREMENTS },
] as const;

type RuleId = (typeof REDDIT_RULES)[number]['id'];

/** The rules of subreddit `sr` in `accountSettings.subredditRules`, when the server fetched them. */
export function knownSubredditRules(settings: Record<string, unknown> | undefined, sr: string | null): RedditSubredditRules | undefined {
  if (!sr || !settings) return undefined;
  const all = settings.subredditRules as Record<string, RedditSubredditRules> | undefined;
  if (!all || typeof all !== 'object') return undefined;
  return all[sr.toLowerCase()];
}

/** Every Reddit rule `req` breaks, without any network call. Empty array = publishable. */
function check(req: RulePost): RuleViolation[] {
  const out: RuleViolation[] = [];
  const add = (field: string, rule: RuleId, message: string) => out.push({ field, rule, message });
  const psd = req.platformSpecificData ?? {};
  const { title, body } = redditTitleAndBody(req);
  const titleField = str(psd.title) ? 'platformSpecificData.title' : 'content';
  if ((req.threadItems?.length ?? 0) > 0) add('platformSpecificData.threadItems', 'reddit.threads.unsupported', 'Reddit posts cannot be threads');
  if (req.accountSettings && !normalizeSubreddit(psd.subreddit) && !normalizeSubreddit(req.accountSettings.defaultSubreddit)) {
    add('platformSpecificData.subreddit', 'reddit.subreddit.required', 'No subreddit: give platformSpecificData.subreddit or set a default with PUT /v1/accounts/{accountId}/reddit-subreddits');
  }
  if (!title) add('platformSpecificData.title', 'reddit.title.required', 'A Reddit post needs a title: give platformSpecificData.title or a first line of content');
  if (title.length > REDDIT_TITLE_MAX) add(titleField, 'reddit.title.max_length', `Reddit titles are limited to ${REDDIT_TITLE_MAX} characters; this one has ${title.length}`);
  if (psd.subreddit !== undefined) {
    const sr = normalizeSubreddit(psd.subreddit);
    if (!sr || !SUBREDDIT_NAME.test(sr)) add('platformSpecificData.subreddit', 'reddit.subreddit.name', 'subreddit must be a subreddit name such as "test" or "r/test" (letters, digits, underscores, up to 21)');
  }
  const url = psd.url;
  if (url !== undefined) {
    let ok = false;
    try { ok = typeof url === 'string' && /^https?:$/.test(new URL(url).protocol); } catch { /* not a URL */ }
    if (!ok) add('platformSpecificData.url', 'reddit.link.url', 'url must be an absolute http(s) URL for a Reddit link post');
  }
  const media = req.mediaItems ?? [];
  media.forEach((m, i) => {
    const field = `mediaItems.${i}`;
    if (m.type === 'video') add(field, 'reddit.media.video_unsupported', 'Reddit does not take videos here (images only)');
    if (m.type === 'document') add(field, 'reddit.media.type', 'Reddit does not accept documents (PDF)');
    if (m.type === 'image' || m.type === 'gif') {
      const mime = m.mimeType?.toLowerCase();
      if (mime && !REDDIT_IMAGE_FORMATS.some((f) => mime === `image/${f}` || (f === 'jpeg' && mime === 'image/jpg'))) add(field, 'reddit.image.format', `Reddit images must be JPEG, PNG or GIF (this file is ${m.mimeType})`);
      if (m.size !== undefined && m.size > REDDIT_IMAGE_MAX_BYTES) add(field, 'reddit.media.image_max_bytes', `Reddit images are limited to ${REDDIT_IMAGE_MAX_BYTES / 1024 / 1024} MB`);
    }
  });
  if (media.length > REDDIT_GALLERY_MAX) add('mediaItems', 'reddit.media.gallery_max', `A Reddit gallery takes 2 to ${REDDIT_GALLERY_MAX} images; got ${media.length}`);
  if (media.length > 0 && url !== undefined) add('platformSpecificData.url', 'reddit.post.link_or_image', 'A Reddit post is either a link post (url) or an image post (mediaItems), not both');
  const kind = redditKind(req);
  if (kind === 'self' && body.length > REDDIT_SELFTEXT_MAX) add('content', 'reddit.text.max_length', `Reddit self-post text is limited to ${REDDIT_SELFTEXT_MAX} characters; this one has ${body.length}`);
  if (kind !== 'self' && body) {
    add('content', 'reddit.body.not_carried', `A Reddit ${kind} post has a title only: the text after the title would be lost; make it a text post, or keep the content to the title line`);
  }
  const flairId = psd.flairId;
  if (flairId !== undefined && (typeof flairId !== 'string' || flairId.length > REDDIT_FLAIR_ID_MAX)) {
    add('platformSpecificData.flairId', 'reddit.flair.id', `flairId must be a string of at most ${REDDIT_FLAIR_ID_MAX} characters`);
  }
  const flairText = psd.flairText;
  if (flairText !== undefined && (typeof flairText !== 'string' || flairText.length > REDDIT_FLAIR_TEXT_MAX)) {
    add('platformSpecificData.flairText', 'reddit.flair.text', `flairText must be a string of at most ${REDDIT_FLAIR_TEXT_MAX} characters`);
  }
  const sr = redditSubredditOf(req);
  const rules = knownSubredditRules(req.accountSettings, sr);
  if (rules) {
    const where = 'platformSpecificData.subreddit';
    if (rules.submissionType === 'self' && kind !== 'self') add(where, 'reddit.subreddit.link_posts_not_allowed', `r/${sr} takes only text posts (this is a ${kind} post)`);
    if (rules.submissionType === 'link' && kind === 'self') add(where, 'reddit.subreddit.text_posts_not_allowed', `r/${sr} takes no text posts`);
    if (kind === 'image' && rules.allowImages === false) add(where, 'reddit.subreddit.images_not_allowed', `r/${sr} takes no image posts`);
    if (kind === 'gallery' && (rules.allowGalleries === false || rules.allowImages === false)) add(where, 'reddit.subreddit.images_not_allowed', `r/${sr} takes no galleries`);
    if (rules.flairRequired && !str(psd.flairId)) add('platformSpecificData.flairId', 'reddit.subreddit.flair_required', `r/${sr} requires a flair: give platformSpecificData.flairId`);
    if (rules.titleMinLength !== undefined && title.length < rules.titleMinLength) add(titleField, 'reddit.subreddit.title_length', `r/${sr} wants titles of at least ${rules.titleMinLength} characters; this one has ${title.length}`);
    if (rules.titleMaxLength !== undefined && title.length > rules.titleMaxLength) add(titleField, 'reddit.subreddit.title_length', `r/${sr} wants titles of at most ${rules.titleMaxLength} characters; this one has ${title.length}`);
    if (kind === 'self') {
      if (rules.bodyPolicy === 'required' && !body) add('content', 'reddit.subreddit.body_policy', `r/${sr} requires body text on text posts`);
      if (rules.bodyPolicy === 'notAllowed' && body) add('content', 'reddit.subreddit.body_policy', `r/${sr} allows no body text (title only)`);
      if (body && rules.bodyMinLength !== undefined && body.length < rules.bodyMinLength) add('content', 'reddit.subreddit.body_length', `r/${sr} wants a body of at least ${rules.bodyMinLength} characters; this one has ${body.length}`);
      if (rules.bodyMaxLength !== undefined && body.length > rules.bodyMaxLength) add('content', 'reddit.subreddit.body_length', `r/${sr} wants a body of at most ${rules.bodyMaxLength} characters; this one has ${body.length}`);
    }
  }
  return out;
}

export const redditRules: PlatformRuleSet = { platform: 'reddit', rules: REDDIT_RULES, check };
