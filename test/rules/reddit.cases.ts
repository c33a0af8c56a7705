/**
 * Reddit's rule cases (src/shared/rules/reddit.ts); the platform's answers come from the Reddit
 * simulator (test/contract/reddit.test.ts), whose subreddits carry the posting rules named here
 * (selfonly, linksonly, noimages, nogalleries, flairreq, titlelen, bodyreq, nobody, bodylen).
 * A subreddit's rules reach the check through `accountSettings.subredditRules`, as the server
 * fetches them when a post is created.
 */
import { image, pdf, times, video, type RuleCase } from './cases.ts';
import type { RedditSubredditRules } from '../../src/shared/rules/reddit.ts';

const MB = 1024 * 1024;
const HERALD = 'Herald\'s own rule (docs/decisions/0026-one-rule-table.md)';
const png = () => image('png', 64, 64);
/** Account settings with the default subreddit and what Herald read of subreddit `name`. */
const rulesOf = (name: string, rules: RedditSubredditRules) => ({ defaultSubreddit: 'test', subredditRules: { [name]: rules } });
const to = (name: string, rules: RedditSubredditRules, psd: Record<string, unknown> = {}) => ({ platformSpecificData: { subreddit: name, ...psd }, accountSettings: rulesOf(name, rules) });

export const cases: RuleCase[] = [
  { rule: 'reddit.threads.unsupported', inside: { text: 'A title' }, outside: { text: 'A title', threadItems: [{ content: 'one' }, { content: 'two' }] }, platform: { notSent: 'Reddit has no threads: there is nothing to send' } },
  { rule: 'reddit.subreddit.required', inside: { text: 'A title', accountSettings: { defaultSubreddit: 'test' } }, outside: { text: 'A title', accountSettings: {} }, platform: { notSent: 'without a subreddit Herald has no sr to send' } },
  { rule: 'reddit.subreddit.name', inside: { text: 'A title', platformSpecificData: { subreddit: 'r/herald' } }, outside: { text: 'A title', platformSpecificData: { subreddit: 'no spaces here' } }, platform: { refuses: /BAD_SR_NAME/ } },
  { rule: 'reddit.title.required', inside: { text: 'a', mediaItems: [png()] }, outside: { text: '', mediaItems: [png()] }, platform: { refuses: /NO_TEXT/ } },
  { rule: 'reddit.title.max_length', inside: { text: 't'.repeat(300) }, outside: { text: 't'.repeat(301) }, platform: { refuses: /TOO_LONG.*300/ } },
  { rule: 'reddit.text.max_length', inside: { text: `Title\n${'b'.repeat(40_000)}` }, outside: { text: `Title\n${'b'.repeat(40_001)}` }, platform: { refuses: /TOO_LONG.*40000/ } },
  { rule: 'reddit.body.not_carried', inside: { text: 'Just a title', platformSpecificData: { url: 'https://example.com/not-carried' } }, outside: { text: 'A title\nand a body', platformSpecificData: { url: 'https://example.com/not-carried' } }, platform: { notSent: 'Reddit takes a link or image submit and drops the text without an error: nothing to refuse, the body is lost' } },
  { rule: 'reddit.body.not_carried', name: 'an image post', inside: { text: 'Just a title', mediaItems: [png()] }, outside: { text: 'A title\nand a body', mediaItems: [png()] }, platform: { notSent: 'Reddit drops the text of an image submit without an error' } },
  { rule: 'reddit.link.url', inside: { text: 'A link', platformSpecificData: { url: 'https://example.com/u' } }, outside: { text: 'A link', platformSpecificData: { url: 'ftp://example.com/u' } }, platform: { refuses: /BAD_URL/ } },
  { rule: 'reddit.post.link_or_image', inside: { text: 'A picture', mediaItems: [png()] }, outside: { text: 'A picture', mediaItems: [png()], platformSpecificData: { url: 'https://example.com/u' } }, platform: { notSent: 'a submit has one kind: Herald cannot send a link and an image in one post' } },
  { rule: 'reddit.media.type', inside: { text: 'A picture', mediaItems: [png()] }, outside: { text: 'A document', mediaItems: [pdf()] }, platform: { refuses: /INVALID_OPTION/ } },
  { rule: 'reddit.media.video_unsupported', inside: { text: 'A picture', mediaItems: [image('gif', 64, 64, { frames: 3 })] }, outside: { text: 'A clip', mediaItems: [video(2, 320, 240)] }, platform: { notSent: `${HERALD}: Herald does not send video posts to Reddit yet` } },
  { rule: 'reddit.image.format', inside: { text: 'A picture', mediaItems: [image('jpeg', 64, 64)] }, outside: { text: 'A picture', mediaItems: [image('webp', 64, 64)] }, platform: { refuses: /INVALID_OPTION|INVALID_MEDIA/ } },
  { rule: 'reddit.image.format', name: 'GIF', inside: { text: 'A picture', mediaItems: [image('gif', 64, 64, { frames: 3 })] }, outside: { text: 'A picture', mediaItems: [image('webp', 64, 64)] }, platform: { refuses: /INVALID_OPTION|INVALID_MEDIA/ } },
  { rule: 'reddit.media.image_max_bytes', inside: { text: 'A picture', mediaItems: [image('png', 64, 64, { bytes: 20 * MB })] }, outside: { text: 'A picture', mediaItems: [image('png', 64, 64, { bytes: 20 * MB + 1 })] }, platform: { refuses: /EntityTooLarge/ } },
  { rule: 'reddit.media.gallery_max', inside: { text: 'Pictures', mediaItems: times(20, png) }, outside: { text: 'Pictures', mediaItems: times(21, png) }, platform: { refuses: /BAD_NUMBER/ } },
  { rule: 'reddit.flair.id', inside: { text: 'A title', platformSpecificData: { flairId: 'f'.repeat(36) } }, outside: { text: 'A title', platformSpecificData: { flairId: 'f'.repeat(37) } }, platform: { refuses: /BAD_FLAIR_TEMPLATE_ID/ } },
  { rule: 'reddit.flair.text', inside: { text: 'A title', platformSpecificData: { flairText: 'f'.repeat(64) } }, outside: { text: 'A title', platformSpecificData: { flairText: 'f'.repeat(65) } }, platform: { refuses: /TOO_LONG.*64/ } },
  { rule: 'reddit.subreddit.link_posts_not_allowed', inside: { text: 'A text post', ...to('selfonly', { submissionType: 'self', allowImages: false }) }, outside: { text: 'A link', ...to('selfonly', { submissionType: 'self', allowImages: false }, { url: 'https://example.com/self-only' }) }, platform: { refuses: /NO_LINKS/ } },
  { rule: 'reddit.subreddit.text_posts_not_allowed', inside: { text: 'A link', ...to('linksonly', { submissionType: 'link' }, { url: 'https://example.com/links-only' }) }, outside: { text: 'A text post', ...to('linksonly', { submissionType: 'link' }) }, platform: { refuses: /NO_SELFS/ } },
  { rule: 'reddit.subreddit.images_not_allowed', inside: { text: 'A text post', ...to('noimages', { allowImages: false }) }, outside: { text: 'A picture', mediaItems: [png()], ...to('noimages', { allowImages: false }) }, platform: { refuses: /NO_IMAGES/ } },
  { rule: 'reddit.subreddit.images_not_allowed', name: 'galleries', inside: { text: 'A picture', mediaItems: [png()], ...to('nogalleries', { allowImages: true, allowGalleries: false }) }, outside: { text: 'Pictures', mediaItems: [png(), png()], ...to('nogalleries', { allowImages: true, allowGalleries: false }) }, platform: { refuses: /NO_IMAGES/ } },
  { rule: 'reddit.subreddit.flair_required', inside: { text: 'A title', ...to('flairreq', { flairRequired: true }, { flairId: 'a1b2c3' }) }, outside: { text: 'A title', ...to('flairreq', { flairRequired: true }) }, platform: { refuses: /SUBMIT_VALIDATION_FLAIR_REQUIRED/ } },
  { rule: 'reddit.subreddit.title_length', name: 'too short', inside: { text: 't'.repeat(10), ...to('titlelen', { titleMinLength: 10, titleMaxLength: 50 }) }, outside: { text: 't'.repeat(9), ...to('titlelen', { titleMinLength: 10, titleMaxLength: 50 }) }, platform: { refuses: /SUBMIT_VALIDATION_TITLE_TOO_SHORT/ } },
  { rule: 'reddit.subreddit.title_length', name: 'too long', inside: { text: 't'.repeat(50), ...to('titlelen', { titleMinLength: 10, titleMaxLength: 50 }) }, outside: { text: 't'.repeat(51), ...to('titlelen', { titleMinLength: 10, titleMaxLength: 50 }) }, platform: { refuses: /SUBMIT_VALIDATION_TITLE_TOO_LONG/ } },
  { rule: 'reddit.subreddit.body_policy', name: 'required', inside: { text: 'Title\nbody', ...to('bodyreq', { bodyPolicy: 'required' }) }, outside: { text: 'Title', ...to('bodyreq', { bodyPolicy: 'required' }) }, platform: { refuses: /SUBMIT_VALIDATION_BODY_REQUIRED/ } },
  { rule: 'reddit.subreddit.body_policy', name: 'not allowed', inside: { text: 'Title', ...to('nobody', { bodyPolicy: 'notAllowed' }) }, outside: { text: 'Title\nbody', ...to('nobody', { bodyPolicy: 'notAllowed' }) }, platform: { refuses: /SUBMIT_VALIDATION_BODY_NOT_ALLOWED/ } },
  { rule: 'reddit.subreddit.body_length', name: 'too short', inside: { text: `Title\n${'b'.repeat(10)}`, ...to('bodylen', { bodyMinLength: 10, bodyMaxLength: 100 }) }, outside: { text: `Title\n${'b'.repeat(9)}`, ...to('bodylen', { bodyMinLength: 10, bodyMaxLength: 100 }) }, platform: { refuses: /SUBMIT_VALIDATION_BODY_TOO_SHORT/ } },
  { rule: 'reddit.subreddit.body_length', name: 'too long', inside: { text: `Title\n${'b'.repeat(100)}`, ...to('bodylen', { bodyMinLength: 10, bodyMaxLength: 100 }) }, outside: { text: `Title\n${'b'.repeat(101)}`, ...to('bodylen', { bodyMinLength: 10, bodyMaxLength: 100 }) }, platform: { refuses: /SUBMIT_VALIDATION_BODY_TOO_LONG/ } },
];
