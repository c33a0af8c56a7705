/**
 * How each platform shows a post in its feed, as data for the composer's live preview
 * (web/src/dashboard/composer/Preview.tsx): where the text is cut before "more", how media are
 * laid out, whether the post has a title and where, and what names the post's author. The
 * preview reads only this, so a new platform's preview is its entry in {@link PLATFORM_PREVIEWS}.
 * Approximate by nature: the rules themselves are the rule table's (./rules/). Pure.
 */
import type { PlatformId } from './platforms.ts';

/** The box a single item is shown in until its size is known: vertical 9:16, square 1:1, landscape 16:9. */
export type PreviewShape = 'vertical' | 'square' | 'landscape';

/**
 * One platform's feed, as the preview draws it.
 *
 * - `feedCut`: characters shown before the feed cuts the text with its "more" link (none: whole).
 * - `media`: `carousel` shows the first item (in a `carouselShape` box until its size is known)
 *   with a dot per item; `grid` shows one item whole (landscape box) or two to four in a grid,
 *   and from `carouselOver` items on, a carousel instead; `single` shows the first item whole
 *   (landscape box), above the text (`mediaFirst`).
 * - `title`: the post has a title, the option `title` else the text's first line; `above` the
 *   text (with "(no title)" when empty) or `below` the media (only when there is one);
 *   `firstLineIsTitle`: without the option, the first line is the title and not part of the body.
 * - `handle`: what follows the author's name: the `@username`, or a `{ option, accountDefault,
 *   prefix }` destination (Reddit's `r/<subreddit>`: the option, else the account's default, else "…").
 * - `linkPreviewOff`: the option (a checkbox of `platformSpecificData`) that turns the platform's link
 *   preview off for the post (Discord's `suppressEmbeds`, Telegram's `disableWebPagePreview`): when it is
 *   on, no link card is drawn.
 * - `linkCard`: the feed turns the first link of a post without media into a card (Instagram,
 *   TikTok, YouTube and Pinterest do not: their posts are media).
 * - `contentWarning`: the option holding a content warning, shown in place of the post; the text and
 *   media stay behind "Show more" (Mastodon's `spoiler_text`,
 *   https://docs.joinmastodon.org/methods/statuses/#create).
 * - `poll`: the options holding a poll's choices (a list) and whether several may be chosen, drawn
 *   below the text (Mastodon's `poll[options]` and `poll[multiple]`).
 * - `event`: the options of an event or offer drawn above the text: its kind (a select; `kinds` labels
 *   each value that is one), title and start and end (Google Business Profile's `topicType`, `event.title`,
 *   `event.schedule`; https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts).
 * - `button`: the option (a select) of a call-to-action button drawn below the post, `labels` naming each
 *   value (Google Business Profile's `callToAction.actionType`).
 * The labels are the composer's own choices (./platform-options.ts; platform-preview.test.ts holds them
 * equal): repeated here so that the preview, which a client's review page loads too, does not carry every
 * platform's options.
 */
export interface PlatformPreviewSpec {
  feedCut?: number;
  media: { layout: 'carousel'; carouselShape: PreviewShape } | { layout: 'grid'; carouselOver?: number } | { layout: 'single'; mediaFirst: true };
  title?: { position: 'above' | 'below'; firstLineIsTitle: boolean };
  handle: 'username' | { option: string; accountDefault: string; prefix: string };
  linkPreviewOff?: string;
  linkCard: boolean;
  contentWarning?: string;
  poll?: { options: string; multiple: string };
  event?: { kind: string; kinds: Readonly<Record<string, string>>; title: string; start: string; end: string };
  button?: { option: string; labels: Readonly<Record<string, string>> };
}

/** Every platform's feed as the preview draws it (`feedCut`: what each platform shows on its web feed). */
export const PLATFORM_PREVIEWS: Readonly<Record<PlatformId, PlatformPreviewSpec>> = {
  facebook: { feedCut: 480, media: { layout: 'grid', carouselOver: 4 }, handle: 'username', linkCard: true },
  instagram: { feedCut: 125, media: { layout: 'carousel', carouselShape: 'square' }, handle: 'username', linkCard: false },
  linkedin: { feedCut: 210, media: { layout: 'carousel', carouselShape: 'square' }, handle: 'username', linkCard: true },
  twitter: { media: { layout: 'grid' }, handle: 'username', linkCard: true },
  threads: { media: { layout: 'carousel', carouselShape: 'square' }, handle: 'username', linkCard: true },
  tiktok: { feedCut: 100, media: { layout: 'carousel', carouselShape: 'vertical' }, handle: 'username', linkCard: false },
  youtube: { feedCut: 160, media: { layout: 'single', mediaFirst: true }, title: { position: 'above', firstLineIsTitle: true }, handle: 'username', linkCard: false },
  pinterest: { feedCut: 100, media: { layout: 'carousel', carouselShape: 'square' }, title: { position: 'below', firstLineIsTitle: false }, handle: 'username', linkCard: false },
  reddit: { media: { layout: 'grid' }, title: { position: 'above', firstLineIsTitle: true }, handle: { option: 'subreddit', accountDefault: 'defaultSubreddit', prefix: 'r/' }, linkCard: true },
  bluesky: { media: { layout: 'grid' }, handle: 'username', linkCard: true },
  // A local post on the Business Profile: one photo or video above the summary, cut at about 300 characters ("More").
  // An event or offer shows its title and dates above the summary; a button ("Sign up") below it.
  googlebusiness: {
    feedCut: 300, media: { layout: 'single', mediaFirst: true }, handle: 'username', linkCard: true,
    event: { kind: 'topicType', kinds: { EVENT: 'Event', OFFER: 'Offer' }, title: 'event.title', start: 'event.schedule.startDate', end: 'event.schedule.endDate' },
    button: {
      option: 'callToAction.type',
      labels: { LEARN_MORE: 'Learn more', BOOK: 'Book', ORDER: 'Order online', SHOP: 'Buy', SIGN_UP: 'Sign up', CALL: 'Call now' },
    },
  },
  // Discord shows a whole message (2,000 characters at most), files below it.
  discord: { media: { layout: 'grid' }, handle: 'username', linkCard: true, linkPreviewOff: 'suppressEmbeds' },
  // A channel post: an album is a grid, the text is shown whole (4,096 characters at most).
  telegram: { media: { layout: 'grid' }, handle: 'username', linkCard: true, linkPreviewOff: 'disableWebPagePreview' },
  // Mastodon's web feed shows the whole text and up to four attachments in a grid; a content warning
  // hides both behind "Show more"; a poll's choices follow the text.
  mastodon: { media: { layout: 'grid' }, handle: 'username', linkCard: true, contentWarning: 'spoilerText', poll: { options: 'poll.options', multiple: 'poll.multiple' } },
};

/** A platform's preview (a plain grid feed with the username for a platform Herald does not know). */
export function platformPreviewOf(platform: string): PlatformPreviewSpec {
  return (PLATFORM_PREVIEWS as Readonly<Record<string, PlatformPreviewSpec>>)[platform] ?? { media: { layout: 'grid' }, handle: 'username', linkCard: true };
}
