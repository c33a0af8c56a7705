/**
 * Each platform's composer options as data: the fields of a target's `platformSpecificData`
 * the dashboard's composer shows, in order, with their labels, hints, kinds and limits. The
 * composer (web/src/dashboard/composer/PlatformOptions.tsx) renders any platform from this
 * description with a few generic field components, and runs the composer-only checks declared
 * here ({@link composerChecksOf}), so a new platform's options are its entry in
 * {@link PLATFORM_OPTIONS} and nothing else.
 *
 * Limits are never written here: each is read from the rule table's constants
 * (./capabilities.ts) and names the rule of ./rules/ that enforces it ({@link Limit}), so the
 * composer and the server cannot disagree. Pure: no I/O, no Node APIs; imports only src/shared.
 */
import {
  DISCORD_FORUM_TAGS_MAX, DISCORD_THREAD_NAME_MAX,
  INSTAGRAM_MAX_COLLABORATORS, LINKEDIN_DOCUMENT_TITLE_MAX, PINTEREST_TITLE_MAX, PLATFORM_CAPABILITIES, REDDIT_FLAIR_ID_MAX, REDDIT_SUBREDDIT_NAME_MAX,
  REDDIT_TITLE_MAX, YOUTUBE_TITLE_MAX,
} from './capabilities.ts';
import { getOption } from './option-path.ts';
import type { PlatformId } from './platforms.ts';
import { normalizeSubreddit, SUBREDDIT_NAME } from './rules/reddit.ts';
import { TIKTOK_PRIVACY_LEVELS } from './rules/tiktok.ts';

/** One target's `platformSpecificData` as the composer edits it. Keys starting with `_` are the composer's own and never sent. */
export type OptionData = Record<string, unknown>;

/**
 * The connected account as the composer sees it: the API's account view (`GET /v1/accounts`),
 * whose properties (`defaultSubreddit`, `defaultBoardId`, `defaultBoardName`,
 * `tiktokPrivacyLevelOptions`, ...) a field's wording or choices may read by name.
 */
export type OptionAccount = Readonly<Record<string, unknown>>;

/**
 * A limit a field applies while typing, read from the rule table. `value` is the number the
 * input enforces (e.g. an `<input maxLength>`); `rule` is the id of the rule in
 * src/shared/rules/<platform>.ts that the server enforces it with (see `RULE_TABLES`).
 */
export interface Limit {
  value: number;
  rule: string;
}

/**
 * A condition on the target's options (`key`, a dotted path into the options such as
 * `tiktokSettings.brand_partner_promote`) or on the account view (`account`, a property name):
 * `equals` / `notEquals` compare with `===`; `truthy` tests JavaScript truthiness (true) or
 * falsiness (false); `all` holds when every one of its conditions holds.
 */
export type Condition =
  | { key: string; equals: unknown }
  | { key: string; notEquals: unknown }
  | { key: string; truthy: boolean }
  | { account: string; truthy: boolean }
  | { all: readonly Condition[] };

/**
 * Text shown to the user: a string, or one of two strings by a condition. In either, `{name}`
 * is replaced by the account view's property `name`, and `{a|b}` by the first of `a`, `b` that
 * is set (empty when none is).
 */
export type Wording = string | { when: Condition; then: string; else: string };

/**
 * A list the API answers about the account (an account resource, decision 0053), read with
 * `GET path` where `{accountId}` is the account's id. The answer's `list` property is an array
 * of objects; each item's `value` property is what the field takes, its `label` property what
 * the user reads, and its `key` property (default `value`) tells items apart.
 */
export interface AccountResourceList {
  /** E.g. `/v1/accounts/{accountId}/pinterest-boards`. */
  path: `/v1/accounts/{accountId}/${string}`;
  list: string;
  value: string;
  label: string;
  key?: string;
  /** What the list is called in the error shown when it cannot be loaded ("Could not load {errorName}: ..."); no error is shown without it. */
  errorName?: string;
}

/** A choice of a select: the value stored (`''` stores nothing), its label, and when it cannot be chosen. */
export interface Choice {
  value: string;
  label: string;
  /** When this holds the choice is disabled; a disabled choice that is chosen is cleared (see {@link settleOptions}). */
  disabledWhen?: Condition;
  /** Appended to the label while the choice is disabled. */
  disabledNote?: string;
}

/** What every field has. */
interface FieldBase {
  /** Shown only while this holds (hidden fields keep their value). */
  visibleWhen?: Condition;
}

/**
 * A field that edits one key of the options. `key` is the `platformSpecificData` key, a dotted
 * path for nested objects (`tiktokSettings.privacy_level`); `id` makes the element id
 * `o-<accountId>-<id>` (the browser tests and labels find fields by it).
 */
interface KeyedField extends FieldBase {
  key: string;
  id: string;
  label: Wording;
  /** Shown next to the label, and the input's description (`aria-describedby`). */
  hint?: Wording;
  /** A composer-only check: this message when the field is empty (unset, `''`, or a checkbox not ticked). */
  required?: string;
}

/**
 * The destination a text field names (Reddit's subreddit) has posting rules of its own, which
 * the server reads from the platform before it checks a post (decision 0040): the composer asks
 * `GET path?<query>=<name>` for the destination the post goes to (the field, else the account's
 * default) and gives the answer's `rules` to the rule table as
 * `accountSettings[setting][<name in lower case>]` before it calls the post fine.
 */
export interface DestinationRules {
  path: `/v1/accounts/{accountId}/${string}`;
  query: string;
  /** The account view property holding the default destination, used when the field is empty. */
  accountDefault: string;
  /** The account setting the rule table reads the rules from (e.g. `subredditRules`). */
  setting: string;
  /** The destination's name as the API takes it (e.g. without `r/`), or null when empty. */
  normalize: (v: unknown) => string | null;
  /** Names the platform accepts: the composer asks only about these. */
  name: RegExp;
  /** Put before the name where the composer names the destination ("Checking r/test's posting rules"). */
  prefix: string;
}

/** A one-line text input; the value is a string. */
export interface TextField extends KeyedField {
  kind: 'text';
  inputType?: 'text' | 'url';
  placeholder?: Wording;
  maxLength?: Limit;
  /** Suggestions read from the account (an `<datalist>` whose id is `o-<accountId>-<suggestionsId>`). */
  suggestions?: AccountResourceList & { listId: string };
  /** The destination this field names has rules of its own the composer asks the server for. */
  destinationRules?: DestinationRules;
}

/** A comma-separated list in one text input; the value is a string array (items trimmed, empty ones dropped). */
export interface ListField extends KeyedField {
  kind: 'list';
  /** Drop a leading `@` from each item (usernames). */
  stripAt?: boolean;
}

/** A multi-line text; the value is a string. */
export interface TextAreaField extends KeyedField {
  kind: 'textarea';
  maxLength?: Limit;
}

/** A select of fixed choices; the value is the chosen choice's value (`''`: nothing is stored). */
export interface SelectField extends KeyedField {
  kind: 'select';
  choices: readonly Choice[];
  /**
   * An account view property holding the values the account may choose (e.g. the TikTok
   * creator's privacy levels): then the choices are the `''` choice and these values in the
   * account's order, labelled from `choices` (else the raw value). Unset: all of `choices`.
   */
  choicesFromAccount?: string;
}

/** A select of a list read from the account (e.g. Pinterest boards); the first choice stores nothing. */
export interface ResourceSelectField extends KeyedField {
  kind: 'resource-select';
  resource: AccountResourceList;
  /** The label of the first choice, which stores nothing (the account's default applies). */
  emptyLabel: Wording;
}

/** A checkbox. Its label wraps it (it has no id). */
export interface CheckboxField extends FieldBase {
  kind: 'checkbox';
  key: string;
  label: Wording;
  /** Ticked while the key is unset (e.g. TikTok's "Allow comments"); default false. */
  default?: boolean;
  /** Unticking stores `false` (default) or removes the value (`'unset'`). */
  unchecked?: false | 'unset';
  /** Other keys set to the same value as this one. */
  alsoSets?: readonly string[];
  /** Keys set when the box is unticked. */
  onUncheck?: Readonly<Record<string, unknown>>;
  required?: string;
}

/** A short text, the first of `texts` whose condition holds (an empty paragraph when none does). */
export interface NoteField extends FieldBase {
  kind: 'note';
  texts: ReadonlyArray<{ when: Condition; text: string }>;
}

/** Fields shown together: `row` lays checkboxes in a row, `sub` indents options that belong to the one before. */
export interface GroupField extends FieldBase {
  kind: 'group';
  layout: 'row' | 'sub';
  fields: readonly OptionField[];
}

/** One input of a {@link RepeatField} item: `{n}` in its label is the item's number. */
export interface RepeatItemField {
  key: string;
  /** Element id `o-<accountId>-<repeat id>-<index>-<id>`. */
  id: string;
  label: string;
  kind: 'text' | 'number';
  /** Text: drop a leading `@`. */
  stripAt?: boolean;
  /** Number bounds and step. */
  min?: Limit;
  max?: Limit;
  step?: number;
  /** The input grows to fill the row. */
  grow?: boolean;
}

/** A list of objects, each edited by the same inputs (e.g. Instagram user tags), in a titled group. */
export interface RepeatField extends FieldBase {
  kind: 'repeat';
  key: string;
  id: string;
  legend: string;
  item: readonly RepeatItemField[];
  /** The object an added item starts as. */
  newItem: Readonly<Record<string, unknown>>;
  addLabel: string;
  /** `{n}` is the item's number. */
  removeLabel: string;
}

/**
 * The replies of a thread (X, Threads, Bluesky), kept under the composer's own key `_replies`
 * and sent as `threadItems` (item 0 is the post's text): see the web composer's `cleanPlatformData`.
 */
export interface ThreadRepliesField extends FieldBase {
  kind: 'thread-replies';
  /** Element ids `o-<accountId>-<id>-<index>`. */
  id: string;
}

/**
 * An image uploaded like any media and put on the post's video as `mediaItems[].thumbnail`
 * (YouTube's custom thumbnail). Kept under the composer's own `key` (starting with `_`), never
 * sent as an option: see {@link thumbnailOf}.
 */
export interface MediaThumbnailField extends FieldBase {
  kind: 'media-thumbnail';
  key: `_${string}`;
  id: string;
  label: string;
  hint?: string;
  /** The file input's `accept`. */
  accept: string;
}

/** A value the composer computes from the others after every change (not an input). */
export interface DerivedField {
  kind: 'derived';
  key: string;
  /** The value of the first case whose condition holds, else `otherwise`. */
  cases: ReadonlyArray<{ when: Condition; value: unknown }>;
  otherwise: unknown;
}

/** One entry of a platform's options. */
export type OptionField =
  | TextField | ListField | TextAreaField | SelectField | ResourceSelectField | CheckboxField | NoteField | GroupField
  | RepeatField | ThreadRepliesField | MediaThumbnailField | DerivedField;

/** A composer-only check across fields: `message` when `failsWhen` holds. */
export interface ComposerCheck {
  failsWhen: Condition;
  message: string;
}

/**
 * One platform's composer options: its `fields` in display order, and `checks` the composer
 * runs besides the rule table (what the platform asks of the posting screen itself, such as
 * TikTok's consent). The fields' own `required` messages come first, in field order.
 */
export interface PlatformOptionsSpec {
  fields: readonly OptionField[];
  checks?: readonly ComposerCheck[];
}

// ---- the descriptions ----------------------------------------------------------------------

const notStory: Condition = { key: 'contentType', notEquals: 'story' };

/** The first comment, limited as the platform's rule table says (`<platform>.first_comment.max_length`). */
function firstComment(platform: PlatformId, extra: Partial<TextAreaField> = {}): TextAreaField {
  const max = PLATFORM_CAPABILITIES[platform].firstCommentMaxLength;
  return { kind: 'textarea', key: 'firstComment', id: 'comment', label: 'First comment', ...(max ? { maxLength: { value: max, rule: `${platform}.first_comment.max_length` } } : {}), ...extra };
}

const thread: PlatformOptionsSpec = { fields: [{ kind: 'thread-replies', id: 'reply' }] };

const branded: Condition = { key: 'tiktokSettings.brand_partner_promote', equals: true };
const organic: Condition = { key: 'tiktokSettings.is_brand_organic_post', truthy: true };

/**
 * Every platform's composer options (a platform without options has `{ fields: [] }`).
 *
 * Limits: Reddit's subreddit `reddit.subreddit.name` (REDDIT_SUBREDDIT_NAME_MAX, plus 3 for a
 * typed `/r/` prefix), title `reddit.title.max_length` (REDDIT_TITLE_MAX), flair
 * `reddit.flair.id` (REDDIT_FLAIR_ID_MAX); Pinterest's title `pinterest.title.max_length`
 * (PINTEREST_TITLE_MAX); LinkedIn's document title `linkedin.document.title`
 * (LINKEDIN_DOCUMENT_TITLE_MAX); YouTube's title `youtube.title.max_length` (YOUTUBE_TITLE_MAX);
 * first comments `<platform>.first_comment.max_length` (`firstCommentMaxLength` of
 * PLATFORM_CAPABILITIES); Instagram's collaborators `instagram.collaborators.max`
 * (INSTAGRAM_MAX_COLLABORATORS, in the hint) and user tag positions
 * `instagram.user_tags.position` (fractions of the image, 0 to 1).
 */
export const PLATFORM_OPTIONS: Readonly<Record<PlatformId, PlatformOptionsSpec>> = {
  /**
   * Google Business Profile's local post (Late's GoogleBusinessPlatformData): the topic type, the
   * event (EVENT and OFFER: its title and schedule, dates as YYYY-MM-DD or YYYY-MM-DDTHH:MM in the
   * location's local time), the offer's fields, the call-to-action button (not on offers; no URL
   * for CALL) and the language. The rules are the table's (src/shared/rules/googlebusiness.ts).
   */
  googlebusiness: {
    fields: [
      { kind: 'select', key: 'topicType', id: 'gbp-topic', label: 'Post type', choices: [{ value: '', label: 'Update' }, { value: 'EVENT', label: 'Event' }, { value: 'OFFER', label: 'Offer' }] },
      {
        kind: 'group', layout: 'sub', visibleWhen: { key: 'topicType', truthy: true }, fields: [
          { kind: 'text', key: 'event.title', id: 'gbp-event-title', label: { when: { key: 'topicType', equals: 'OFFER' }, then: 'Offer title', else: 'Event title' }, required: 'Events and offers need a title' },
          { kind: 'text', key: 'event.schedule.startDate', id: 'gbp-start', label: 'Starts', placeholder: 'YYYY-MM-DD or YYYY-MM-DDTHH:MM', hint: "the location's local time", required: 'Events and offers need a start date' },
          { kind: 'text', key: 'event.schedule.endDate', id: 'gbp-end', label: 'Ends', placeholder: 'YYYY-MM-DD or YYYY-MM-DDTHH:MM', required: 'Events and offers need an end date' },
        ],
      },
      {
        kind: 'group', layout: 'sub', visibleWhen: { key: 'topicType', equals: 'OFFER' }, fields: [
          { kind: 'text', key: 'offer.couponCode', id: 'gbp-coupon', label: 'Coupon code' },
          { kind: 'text', key: 'offer.redeemOnlineUrl', id: 'gbp-redeem', label: 'Redeem online', inputType: 'url', placeholder: 'https://' },
          { kind: 'textarea', key: 'offer.termsConditions', id: 'gbp-terms', label: 'Terms and conditions' },
        ],
      },
      {
        kind: 'select', key: 'callToAction.type', id: 'gbp-cta', label: 'Button', visibleWhen: { key: 'topicType', notEquals: 'OFFER' },
        choices: [{ value: '', label: 'No button' }, { value: 'LEARN_MORE', label: 'Learn more' }, { value: 'BOOK', label: 'Book' }, { value: 'ORDER', label: 'Order online' }, { value: 'SHOP', label: 'Buy' }, { value: 'SIGN_UP', label: 'Sign up' }, { value: 'CALL', label: 'Call now' }],
      },
      {
        kind: 'text', key: 'callToAction.url', id: 'gbp-cta-url', label: 'Button link', inputType: 'url', placeholder: 'https://',
        visibleWhen: { all: [{ key: 'topicType', notEquals: 'OFFER' }, { key: 'callToAction.type', truthy: true }, { key: 'callToAction.type', notEquals: 'CALL' }] },
        required: 'This button needs a link (every button but "Call now")',
      },
      { kind: 'text', key: 'languageCode', id: 'gbp-lang', label: 'Language', hint: 'BCP-47, e.g. en, de, pt-BR', placeholder: 'en' },
    ],
  },
  twitter: thread,
  threads: thread,
  bluesky: thread,
  // Discord: message flags and the thread or forum post (src/shared/rules/discord.ts).
  discord: {
    fields: [
      { kind: 'checkbox', key: 'suppressEmbeds', label: 'No link previews (embeds)' },
      { kind: 'checkbox', key: 'silent', label: 'Silent (no push notifications)' },
      { kind: 'checkbox', key: 'crosspost', label: 'Publish to following servers (announcement channels only)' },
      { kind: 'thread-replies', id: 'reply' },
      { kind: 'text', key: 'threadName', id: 'thread', label: 'Thread name', hint: "when there are replies; else the first line", maxLength: { value: DISCORD_THREAD_NAME_MAX, rule: 'discord.thread_name.length' } },
      { kind: 'text', key: 'forumThreadName', id: 'forum', label: 'Forum post title', hint: "forum channels; else the first line", maxLength: { value: DISCORD_THREAD_NAME_MAX, rule: 'discord.thread_name.length' } },
      { kind: 'list', key: 'forumAppliedTags', id: 'tags', label: 'Forum tag ids', hint: `forum channels; up to ${DISCORD_FORUM_TAGS_MAX}, comma-separated` },
    ],
  },
  // Telegram (Late's TelegramPlatformData): the parse mode and three switches; replies make a thread.
  telegram: {
    fields: [
      {
        kind: 'select', key: 'parseMode', id: 'parse', label: 'Formatting', hint: 'how Telegram reads the text\'s markup (HTML by default: escape <, > and & as &lt; &gt; &amp;)',
        choices: [{ value: '', label: 'HTML (default)' }, { value: 'MarkdownV2', label: 'MarkdownV2' }, { value: 'Markdown', label: 'Markdown (legacy)' }],
      },
      {
        kind: 'group', layout: 'row', fields: [
          { kind: 'checkbox', key: 'disableNotification', label: 'Send silently', unchecked: 'unset' },
          { kind: 'checkbox', key: 'protectContent', label: 'Protect from forwarding and saving', unchecked: 'unset' },
          { kind: 'checkbox', key: 'disableWebPagePreview', label: 'No link preview', unchecked: 'unset' },
        ],
      },
      { kind: 'thread-replies', id: 'reply' },
    ],
  },
  // Mastodon's options (https://docs.joinmastodon.org/methods/statuses/#create); the limits are the instance's, checked by the rule table.
  mastodon: {
    fields: [
      { kind: 'thread-replies', id: 'reply' },
      { kind: 'text', key: 'spoilerText', id: 'cw', label: 'Content warning', hint: 'shown before the text, which is hidden until opened; counts toward the instance\'s character limit' },
      { kind: 'select', key: 'visibility', id: 'visibility', label: 'Visibility', choices: [
        { value: '', label: 'Account default' }, { value: 'public', label: 'Public' }, { value: 'unlisted', label: 'Quiet public (unlisted)' },
        { value: 'private', label: 'Followers only' }, { value: 'direct', label: 'Mentioned people only' },
      ] },
      { kind: 'text', key: 'language', id: 'lang', label: 'Language', hint: 'ISO 639-1 code, e.g. en', placeholder: 'en' },
      { kind: 'checkbox', key: 'sensitive', label: 'Mark media as sensitive', unchecked: 'unset' },
      { kind: 'list', key: 'poll.options', id: 'poll', label: 'Poll options', hint: 'comma-separated; a status has a poll or media, not both' },
      { kind: 'select', key: 'poll.expiresIn', id: 'poll-expires', label: 'Poll ends after', visibleWhen: { key: 'poll.options', truthy: true }, choices: [
        { value: '', label: 'Choose' }, { value: '300', label: '5 minutes' }, { value: '1800', label: '30 minutes' }, { value: '3600', label: '1 hour' },
        { value: '21600', label: '6 hours' }, { value: '86400', label: '1 day' }, { value: '259200', label: '3 days' }, { value: '604800', label: '7 days' },
      ] },
      { kind: 'checkbox', key: 'poll.multiple', label: 'Allow several choices', unchecked: 'unset', visibleWhen: { key: 'poll.options', truthy: true } },
      { kind: 'checkbox', key: 'poll.hideTotals', label: 'Hide vote counts until the poll ends', unchecked: 'unset', visibleWhen: { key: 'poll.options', truthy: true } },
    ],
  },
  facebook: {
    fields: [
      { kind: 'select', key: 'contentType', id: 'kind', label: 'Post as', hint: 'a story is one image or video, shown without its caption', choices: [{ value: '', label: 'Feed post' }, { value: 'story', label: 'Story' }] },
      { kind: 'text', key: 'link', id: 'link', label: 'Link', inputType: 'url', placeholder: 'https://', visibleWhen: notStory },
      firstComment('facebook', { visibleWhen: notStory }),
    ],
  },
  instagram: {
    fields: [
      { kind: 'select', key: 'contentType', id: 'kind', label: 'Post as', hint: 'a feed post is an image, a carousel or a video', choices: [{ value: '', label: 'Feed post' }, { value: 'reel', label: 'Reel' }, { value: 'story', label: 'Story' }] },
      { kind: 'list', key: 'collaborators', id: 'collab', label: 'Collaborators', hint: `up to ${INSTAGRAM_MAX_COLLABORATORS} usernames, comma-separated, without @`, stripAt: true, visibleWhen: notStory },
      {
        kind: 'repeat', key: 'userTags', id: 'tag', legend: 'People tagged in the image', visibleWhen: notStory,
        item: [
          { key: 'username', id: 'u', label: 'Username {n}', kind: 'text', stripAt: true, grow: true },
          { key: 'x', id: 'x', label: 'Across (0-1)', kind: 'number', min: { value: 0, rule: 'instagram.user_tags.position' }, max: { value: 1, rule: 'instagram.user_tags.position' }, step: 0.05 },
          { key: 'y', id: 'y', label: 'Down (0-1)', kind: 'number', min: { value: 0, rule: 'instagram.user_tags.position' }, max: { value: 1, rule: 'instagram.user_tags.position' }, step: 0.05 },
        ],
        newItem: { username: '', x: 0.5, y: 0.5 }, addLabel: 'Tag a person', removeLabel: 'Remove tag {n}',
      },
      firstComment('instagram', { visibleWhen: notStory }),
    ],
  },
  linkedin: {
    fields: [
      { kind: 'select', key: 'visibility', id: 'vis', label: 'Who can see it', choices: [{ value: '', label: 'Anyone (public)' }, { value: 'CONNECTIONS', label: 'Connections only' }] },
      { kind: 'text', key: 'documentTitle', id: 'doc', label: 'Document title', hint: 'when a PDF is attached', maxLength: { value: LINKEDIN_DOCUMENT_TITLE_MAX, rule: 'linkedin.document.title' } },
      firstComment('linkedin'),
    ],
  },
  youtube: {
    fields: [
      { kind: 'text', key: 'title', id: 'yt-title', label: 'Video title', hint: "else the text's first line", maxLength: { value: YOUTUBE_TITLE_MAX, rule: 'youtube.title.max_length' } },
      { kind: 'select', key: 'visibility', id: 'yt-vis', label: 'Visibility', choices: [{ value: '', label: 'Public' }, { value: 'unlisted', label: 'Unlisted' }, { value: 'private', label: 'Private' }] },
      { kind: 'list', key: 'tags', id: 'yt-tags', label: 'Tags', hint: 'comma-separated' },
      { kind: 'checkbox', key: 'madeForKids', label: 'Made for kids', unchecked: 'unset' },
      { kind: 'media-thumbnail', key: '_thumbnail', id: 'thumb', label: 'Custom thumbnail', hint: '(JPEG or PNG; not for Shorts)', accept: 'image/jpeg,image/png' },
      firstComment('youtube'),
    ],
  },
  /**
   * TikTok's posting screen as its content sharing guidelines ask: the creator's own privacy
   * options (`tiktokPrivacyLevelOptions` of the account, from the creator info) with none
   * preselected, interaction toggles, the commercial content disclosure ("Your brand" /
   * "Branded content", branded content never private) and the consent line.
   */
  tiktok: {
    fields: [
      {
        kind: 'select', key: 'tiktokSettings.privacy_level', id: 'privacy', label: 'Who can see this post', choicesFromAccount: 'tiktokPrivacyLevelOptions',
        required: 'Choose who can see this TikTok post (TikTok asks the poster to choose; there is no default)',
        choices: [
          { value: '', label: 'Choose…' },
          ...TIKTOK_PRIVACY_LEVELS.map((value): Choice => ({
            value,
            label: { PUBLIC_TO_EVERYONE: 'Everyone', MUTUAL_FOLLOW_FRIENDS: 'Friends (followers you follow back)', FOLLOWER_OF_CREATOR: 'Followers', SELF_ONLY: 'Only me' }[value],
            ...(value === 'SELF_ONLY' ? { disabledWhen: branded, disabledNote: ' (not for branded content)' } : {}),
          })),
        ],
      },
      {
        kind: 'group', layout: 'row', fields: [
          { kind: 'checkbox', key: 'tiktokSettings.allow_comment', label: 'Allow comments', default: true },
          { kind: 'checkbox', key: 'tiktokSettings.allow_duet', label: 'Allow duets', default: true },
          { kind: 'checkbox', key: 'tiktokSettings.allow_stitch', label: 'Allow stitches', default: true },
        ],
      },
      {
        kind: 'checkbox', key: '_commercial', label: 'Disclose commercial content (this post promotes a brand, product or service)',
        onUncheck: { 'tiktokSettings.is_brand_organic_post': false, 'tiktokSettings.brand_partner_promote': false },
      },
      {
        kind: 'group', layout: 'sub', visibleWhen: { key: '_commercial', equals: true }, fields: [
          { kind: 'checkbox', key: 'tiktokSettings.is_brand_organic_post', label: 'Your brand (you promote yourself or your own business)' },
          { kind: 'checkbox', key: 'tiktokSettings.brand_partner_promote', label: 'Branded content (you are paid or given something by a brand)' },
          { kind: 'note', texts: [{ when: branded, text: 'Your post will be labelled "Paid partnership".' }, { when: organic, text: 'Your post will be labelled "Promotional content".' }] },
        ],
      },
      {
        kind: 'checkbox', key: 'tiktokSettings.express_consent_given', alsoSets: ['tiktokSettings.content_preview_confirmed'],
        label: { when: branded, then: "I agree to TikTok's Branded Content Policy and Music Usage Confirmation", else: "I agree to TikTok's Music Usage Confirmation" },
        required: 'Agree to TikTok\'s Music Usage Confirmation (and the Branded Content Policy for branded content) before posting',
      },
      {
        kind: 'derived', key: 'tiktokSettings.commercial_content_type',
        cases: [{ when: { key: 'tiktokSettings.brand_partner_promote', truthy: true }, value: 'brand_content' }, { when: organic, value: 'brand_organic' }], otherwise: 'none',
      },
    ],
    checks: [{
      failsWhen: { all: [{ key: '_commercial', equals: true }, { key: 'tiktokSettings.is_brand_organic_post', truthy: false }, { key: 'tiktokSettings.brand_partner_promote', truthy: false }] },
      message: 'Commercial content is on: choose "Your brand", "Branded content" or both',
    }],
  },
  reddit: {
    fields: [
      {
        kind: 'text', key: 'subreddit', id: 'subreddit', label: 'Subreddit',
        hint: { when: { account: 'defaultSubreddit', truthy: true }, then: 'default r/{defaultSubreddit}', else: 'no default set' },
        placeholder: { when: { account: 'defaultSubreddit', truthy: true }, then: 'r/{defaultSubreddit}', else: 'r/yoursubreddit' },
        maxLength: { value: REDDIT_SUBREDDIT_NAME_MAX + '/r/'.length, rule: 'reddit.subreddit.name' },
        suggestions: { path: '/v1/accounts/{accountId}/reddit-subreddits', list: 'subreddits', value: 'name', label: 'display_name_prefixed', key: 'id', listId: 'subs' },
        destinationRules: {
          path: '/v1/accounts/{accountId}/reddit-subreddits/rules', query: 'subreddit', accountDefault: 'defaultSubreddit', setting: 'subredditRules',
          normalize: normalizeSubreddit, name: SUBREDDIT_NAME, prefix: 'r/',
        },
      },
      { kind: 'text', key: 'title', id: 'title', label: 'Title', hint: "else the text's first line", maxLength: { value: REDDIT_TITLE_MAX, rule: 'reddit.title.max_length' } },
      { kind: 'text', key: 'flairId', id: 'flair', label: 'Flair ID', hint: "the subreddit's flair template id, when it asks for one", maxLength: { value: REDDIT_FLAIR_ID_MAX, rule: 'reddit.flair.id' } },
    ],
  },
  pinterest: {
    fields: [
      {
        kind: 'resource-select', key: 'boardId', id: 'board', label: 'Board',
        resource: { path: '/v1/accounts/{accountId}/pinterest-boards', list: 'boards', value: 'id', label: 'name', errorName: 'the boards' },
        emptyLabel: { when: { account: 'defaultBoardId', truthy: true }, then: 'Default board ({defaultBoardName|defaultBoardId})', else: 'Choose a board' },
      },
      { kind: 'text', key: 'title', id: 'pin-title', label: 'Pin title', hint: 'optional', maxLength: { value: PINTEREST_TITLE_MAX, rule: 'pinterest.title.max_length' } },
      { kind: 'text', key: 'link', id: 'link', label: 'Link', hint: 'where the pin leads', inputType: 'url', placeholder: 'https://' },
    ],
  },
};

// ---- reading the descriptions --------------------------------------------------------------

/** The options of a platform (none for a platform Herald does not know). */
export function platformOptionsOf(platform: string): PlatformOptionsSpec {
  return (PLATFORM_OPTIONS as Readonly<Record<string, PlatformOptionsSpec>>)[platform] ?? { fields: [] };
}

/** The value at a dotted `key` of the options (./option-path.ts). */
export { getOption };

/** A copy of the options with the dotted `key` set to `value` (objects on the way are copied). */
export function setOption(data: OptionData, key: string, value: unknown): OptionData {
  const [head, ...rest] = key.split('.') as [string, ...string[]];
  if (!rest.length) return { ...data, [head]: value };
  const inner = data[head];
  return { ...data, [head]: setOption(inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as OptionData) : {}, rest.join('.'), value) };
}

/** Whether a condition holds for these options and this account. */
export function holds(c: Condition, data: OptionData | undefined, account: OptionAccount = {}): boolean {
  if ('all' in c) return c.all.every((x) => holds(x, data, account));
  if ('account' in c) return !!account[c.account] === c.truthy;
  const v = getOption(data, c.key);
  if ('equals' in c) return v === c.equals;
  if ('notEquals' in c) return v !== c.notEquals;
  return !!v === c.truthy;
}

/** The text of a {@link Wording}, with `{name}` / `{a|b}` replaced from the account view. */
export function wordingOf(w: Wording, data: OptionData | undefined, account: OptionAccount = {}): string {
  const s = typeof w === 'string' ? w : holds(w.when, data, account) ? w.then : w.else;
  return s.replace(/\{([A-Za-z0-9_|]+)\}/g, (_, names: string) => {
    const v = names.split('|').map((n) => account[n]).find((x) => x !== undefined && x !== null && x !== '');
    return v === undefined ? '' : String(v);
  });
}

/** Every field of a description, groups opened, in order. */
export function allFields(fields: readonly OptionField[]): OptionField[] {
  return fields.flatMap((f) => (f.kind === 'group' ? allFields(f.fields) : [f]));
}

/**
 * The choices a select shows for this account: all of `choices`, or (with `choicesFromAccount`
 * and the account property set) the `''` choice and the account's values, in its order.
 */
export function choicesOf(field: SelectField, account: OptionAccount = {}): Choice[] {
  const own = field.choicesFromAccount ? account[field.choicesFromAccount] : undefined;
  if (!Array.isArray(own)) return [...field.choices];
  const byValue = new Map(field.choices.map((c) => [c.value, c]));
  return [...field.choices.filter((c) => c.value === ''), ...own.map((v) => byValue.get(String(v)) ?? { value: String(v), label: String(v) })];
}

/**
 * The options after a change, settled: a chosen choice that is now disabled is cleared, and
 * the derived values are computed again. The composer applies it to every change.
 */
export function settleOptions(platform: string, data: OptionData, account: OptionAccount = {}): OptionData {
  let out = data;
  for (const f of allFields(platformOptionsOf(platform).fields)) {
    if (f.kind === 'select') {
      const chosen = getOption(out, f.key);
      const c = choicesOf(f, account).find((x) => x.value === chosen);
      if (c?.disabledWhen && holds(c.disabledWhen, out, account)) out = setOption(out, f.key, undefined);
    }
  }
  for (const f of allFields(platformOptionsOf(platform).fields)) {
    if (f.kind === 'derived') out = setOption(out, f.key, f.cases.find((c) => holds(c.when, out, account))?.value ?? f.otherwise);
  }
  return out;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || v === false || (Array.isArray(v) && v.length === 0);

/**
 * The composer-only checks of a target's options: each `required` field that is empty (a
 * checkbox not ticked), in field order, then the platform's `checks` that fail. Fields hidden
 * by `visibleWhen` are not required.
 */
export function composerChecksOf(platform: string, data: OptionData | undefined, account: OptionAccount = {}): string[] {
  const spec = platformOptionsOf(platform);
  const out: string[] = [];
  const walk = (fields: readonly OptionField[]) => {
    for (const f of fields) {
      if ('visibleWhen' in f && f.visibleWhen && !holds(f.visibleWhen, data, account)) continue;
      if (f.kind === 'group') walk(f.fields);
      else if ('required' in f && f.required && isEmpty(getOption(data, f.key))) out.push(f.required);
    }
  };
  walk(spec.fields);
  for (const c of spec.checks ?? []) if (holds(c.failsWhen, data, account)) out.push(c.message);
  return out;
}

/** The composer key of a platform's {@link MediaThumbnailField} (a custom video thumbnail), when it has one. */
export function thumbnailKeyOf(platform: string): string | undefined {
  return allFields(platformOptionsOf(platform).fields).find((f) => f.kind === 'media-thumbnail')?.key;
}

/** The image chosen in a platform's {@link MediaThumbnailField}, if any (it goes on the post's video as `mediaItems[].thumbnail`). */
export function thumbnailOf(platform: string, data: OptionData | undefined): string | undefined {
  for (const f of allFields(platformOptionsOf(platform).fields)) {
    if (f.kind === 'media-thumbnail') {
      const v = data?.[f.key];
      if (typeof v === 'string' && v) return v;
    }
  }
  return undefined;
}

/** The platform's text field whose destination has rules of its own, with those rules' description (none for most platforms). */
export function destinationRulesOf(platform: string): { field: TextField; rules: DestinationRules } | undefined {
  for (const f of allFields(platformOptionsOf(platform).fields)) if (f.kind === 'text' && f.destinationRules) return { field: f, rules: f.destinationRules };
  return undefined;
}
