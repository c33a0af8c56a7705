/**
 * Mastodon's posting rules (https://docs.joinmastodon.org/methods/statuses/#create). Every number
 * is the instance's own: `GET /api/v2/instance` (https://docs.joinmastodon.org/entities/Instance/#configuration)
 * is read when the account connects and kept in its settings (`accountSettings.mastodonInstance`,
 * see {@link mastodonLimitsOf}); mastodon.social's values (MASTODON_DEFAULT_LIMITS) apply only
 * when an account has none stored (or no account is known yet).
 *
 * Counting (https://docs.joinmastodon.org/user/posting/#text): the content warning and the text
 * count together, in user-perceived characters (graphemes); every link counts as
 * `characters_reserved_per_url` characters; a mention `@user@domain` counts only `@user`.
 */
import { MASTODON_DEFAULT_LIMITS, type MastodonInstanceLimits } from '../capabilities.ts';
import { countGraphemes } from './text.ts';
import type { MediaRef, PlatformRuleSet, RulePost, RuleViolation } from './types.ts';
import { HERALD_RULE_SOURCE, n } from './format.ts';

const STATUSES = 'https://docs.joinmastodon.org/methods/statuses/#create';
const POSTING = 'https://docs.joinmastodon.org/user/posting/';
const INSTANCE = 'https://docs.joinmastodon.org/entities/Instance/#configuration';
const MEDIA = 'https://docs.joinmastodon.org/methods/media/#v2';

/** The `visibility` values of `POST /api/v1/statuses`. */
export const MASTODON_VISIBILITIES = ['public', 'unlisted', 'private', 'direct'] as const;
export type MastodonVisibility = (typeof MASTODON_VISIBILITIES)[number];

/** The account settings key holding the instance's limits (written at connect, refreshed on reconnect). */
export const MASTODON_INSTANCE_SETTING = 'mastodonInstance';

/**
 * The limits that apply to a post: the instance's, from `accountSettings.mastodonInstance`
 * (each field checked; a missing or malformed one falls back to mastodon.social's value).
 */
export function mastodonLimitsOf(accountSettings: Record<string, unknown> | undefined): MastodonInstanceLimits {
  const stored = accountSettings?.[MASTODON_INSTANCE_SETTING];
  const out: MastodonInstanceLimits = { ...MASTODON_DEFAULT_LIMITS, supportedMimeTypes: [...MASTODON_DEFAULT_LIMITS.supportedMimeTypes] };
  if (!stored || typeof stored !== 'object') return out;
  const s = stored as Record<string, unknown>;
  for (const k of Object.keys(out) as Array<keyof MastodonInstanceLimits>) {
    const v = s[k];
    if (k === 'supportedMimeTypes') {
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) out.supportedMimeTypes = v as string[];
    } else if (typeof v === 'number' && Number.isFinite(v) && v >= 0) {
      out[k] = v;
    }
  }
  return out;
}

const URL_RE = /https?:\/\/[^\s]+/gi;
const MENTION_RE = /(^|[^\p{L}\p{N}_/])@([\p{L}\p{N}_]+(?:[.-]+[\p{L}\p{N}_]+)*)@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;

/**
 * A status's length as the instance counts it: the content warning plus the text, in graphemes,
 * each link as `perUrl` characters (trailing punctuation is not part of a link), each remote
 * mention `@user@domain` as `@user`.
 */
export function mastodonTextLength(text: string, spoilerText = '', perUrl = MASTODON_DEFAULT_LIMITS.charactersReservedPerUrl): number {
  const countable = text
    .replace(URL_RE, (u) => {
      const trail = /[.,;:!?'")\]]+$/.exec(u)?.[0] ?? '';
      return 'x'.repeat(perUrl) + trail;
    })
    .replace(MENTION_RE, (_m, pre: string, user: string) => `${pre}@${user}`);
  return countGraphemes(spoilerText + countable);
}

/** `platformSpecificData.poll` as Herald takes it (camelCase; the adapter sends `poll[options][]`, `poll[expires_in]`, ...). */
export interface MastodonPoll {
  options: string[];
  /** Seconds the poll stays open. */
  expiresIn: number;
  multiple?: boolean;
  hideTotals?: boolean;
}

/** The Mastodon options of a post (platformSpecificData), as the adapter sends them. */
export interface MastodonSettings {
  spoilerText?: string;
  visibility?: MastodonVisibility;
  language?: string;
  sensitive?: boolean;
  poll?: MastodonPoll;
}

/** Reads the Mastodon options of `platformSpecificData` (values of the wrong type are left out; the check reports them). */
export function mastodonSettingsOf(psd: Record<string, unknown> | undefined): MastodonSettings {
  const p = psd ?? {};
  const out: MastodonSettings = {};
  if (typeof p.spoilerText === 'string' && p.spoilerText !== '') out.spoilerText = p.spoilerText;
  if (typeof p.visibility === 'string' && (MASTODON_VISIBILITIES as readonly string[]).includes(p.visibility)) out.visibility = p.visibility as MastodonVisibility;
  if (typeof p.language === 'string' && p.language !== '') out.language = p.language;
  if (typeof p.sensitive === 'boolean') out.sensitive = p.sensitive;
  const poll = p.poll as Record<string, unknown> | undefined;
  if (poll && typeof poll === 'object' && Array.isArray(poll.options)) {
    out.poll = {
      options: poll.options.map((o) => String(o)), expiresIn: Number(poll.expiresIn),
      ...(typeof poll.multiple === 'boolean' ? { multiple: poll.multiple } : {}), ...(typeof poll.hideTotals === 'boolean' ? { hideTotals: poll.hideTotals } : {}),
    };
  }
  return out;
}

export const MASTODON_RULES = [
  { id: 'mastodon.text.max_characters', summary: 'Text plus content warning: at most the instance\'s max_characters (mastodon.social: 500) graphemes; every link counts as characters_reserved_per_url (23), a mention @user@domain as @user.', source: POSTING },
  { id: 'mastodon.text.required', summary: 'A status without media needs text (a poll too); every reply of a thread needs text.', source: STATUSES },
  { id: 'mastodon.thread.media_first_only', summary: 'Threads: only the first status carries media.', source: HERALD_RULE_SOURCE },
  { id: 'mastodon.media.max_attachments', summary: 'At most the instance\'s max_media_attachments (mastodon.social: 4) per status.', source: INSTANCE },
  { id: 'mastodon.media.images_and_video', summary: 'A video (or audio) must be the only attachment of its status; images and GIFs mix.', source: STATUSES },
  { id: 'mastodon.media.type', summary: 'Images, GIFs, videos and audio of a MIME type the instance lists in supported_mime_types; no documents.', source: INSTANCE },
  { id: 'mastodon.media.image_max_bytes', summary: 'Images: at most the instance\'s image_size_limit (mastodon.social: 16 MB).', source: INSTANCE },
  { id: 'mastodon.media.image_max_pixels', summary: 'Images: width x height at most the instance\'s image_matrix_limit (mastodon.social: 33,177,600 pixels).', source: INSTANCE },
  { id: 'mastodon.media.video_max_bytes', summary: 'Videos: at most the instance\'s video_size_limit (mastodon.social: 99 MB).', source: INSTANCE },
  { id: 'mastodon.media.description_max', summary: 'Alt text: at most the instance\'s description_limit (mastodon.social: 1,500) characters.', source: MEDIA },
  { id: 'mastodon.poll.media_exclusive', summary: 'A status has media or a poll, not both.', source: STATUSES },
  { id: 'mastodon.poll.options', summary: 'Polls: 2 to the instance\'s max_options (mastodon.social: 4) options, each at most max_characters_per_option (50) characters.', source: INSTANCE },
  { id: 'mastodon.poll.expires_in', summary: 'Polls: expiresIn (seconds) between the instance\'s min_expiration (300) and max_expiration (2,629,746).', source: INSTANCE },
  { id: 'mastodon.visibility', summary: 'platformSpecificData.visibility is public, unlisted, private or direct.', source: STATUSES },
  { id: 'mastodon.language', summary: 'platformSpecificData.language is an ISO 639-1 code (two letters).', source: STATUSES },
  { id: 'mastodon.options.types', summary: 'spoilerText is text, sensitive is true or false, poll.multiple and poll.hideTotals are true or false.', source: STATUSES },
] as const;

type MastodonRuleId = (typeof MASTODON_RULES)[number]['id'];

/** The MIME type of a media item: stated, else from the file name's extension (unknown: ''). */
function mimeOf(m: MediaRef): string {
  if (m.mimeType) return m.mimeType.toLowerCase();
  let ext = '';
  try { ext = new URL(m.filename ? `https://x/${m.filename}` : m.url).pathname.toLowerCase().replace(/^.*\./, ''); } catch { /* no extension */ }
  const byExt: Record<string, string> = {
    jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', heic: 'image/heic', avif: 'image/avif',
    mp4: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', pdf: 'application/pdf',
  };
  return byExt[ext] ?? '';
}
const isAudioOrVideo = (m: MediaRef) => m.type === 'video' || mimeOf(m).startsWith('audio/');

/** Every Mastodon rule `post` breaks, with its account's instance limits; no network call. Empty array = publishable. */
function check(post: RulePost, limits: Partial<MastodonInstanceLimits> = {}): RuleViolation[] {
  const L = { ...mastodonLimitsOf(post.accountSettings), ...limits };
  const out: RuleViolation[] = [];
  const v = (field: string, rule: MastodonRuleId, message: string) => out.push({ field, rule, message });
  const psd = post.platformSpecificData ?? {};
  const s = mastodonSettingsOf(psd);
  const items = post.threadItems ?? [];
  const media = post.mediaItems ?? [];
  const texts = items.length > 0 ? items.map((t) => t.content ?? '') : [post.text ?? ''];
  const textField = (i: number) => (items.length > 0 ? `threadItems.${i}.content` : 'content');
  const spoiler = s.spoilerText ?? '';

  texts.forEach((t, i) => {
    // The content warning is sent on every status of a thread, so it counts on each.
    const len = mastodonTextLength(t, spoiler, L.charactersReservedPerUrl);
    if (len > L.maxCharacters) {
      v(textField(i), 'mastodon.text.max_characters', `This Mastodon instance takes at most ${n(L.maxCharacters)} characters per status (content warning included, links count ${L.charactersReservedPerUrl}); this one has ${n(len)}`);
    }
    if (i === 0 && media.length === 0 && !t.trim()) v(textField(0), 'mastodon.text.required', 'A Mastodon status without media needs text');
    if (i > 0 && !t.trim()) v(textField(i), 'mastodon.text.required', `Reply ${i + 1} of the thread is empty: every Mastodon status without media needs text`);
  });
  items.slice(1).forEach((t, i) => {
    if (t.mediaItems?.length) v(`threadItems.${i + 1}.mediaItems`, 'mastodon.thread.media_first_only', 'Only the first status of a Mastodon thread can carry media here');
  });

  if (media.length > L.maxMediaAttachments) v('mediaItems', 'mastodon.media.max_attachments', `This Mastodon instance takes at most ${L.maxMediaAttachments} attachments per status; this post has ${media.length}`);
  if (media.length > 1 && media.some(isAudioOrVideo)) v('mediaItems', 'mastodon.media.images_and_video', 'A Mastodon video must be the only attachment of its status');
  media.forEach((m, i) => {
    const f = `mediaItems.${i}`;
    const mime = mimeOf(m);
    if (m.type === 'document') v(f, 'mastodon.media.type', 'Mastodon does not take documents: only images, GIFs, videos and audio');
    else if (mime && !L.supportedMimeTypes.includes(mime)) v(f, 'mastodon.media.type', `This Mastodon instance does not take ${mime} files`);
    const isImage = m.type === 'image' || m.type === 'gif';
    if (isImage && m.size !== undefined && m.size > L.imageSizeLimit) v(f, 'mastodon.media.image_max_bytes', `This Mastodon instance takes images up to ${n(L.imageSizeLimit)} bytes; this one has ${n(m.size)}`);
    if (isImage && m.width && m.height && m.width * m.height > L.imageMatrixLimit) {
      v(f, 'mastodon.media.image_max_pixels', `This Mastodon instance takes images up to ${n(L.imageMatrixLimit)} pixels (width x height); this one has ${n(m.width * m.height)}`);
    }
    if (m.type === 'video' && m.size !== undefined && m.size > L.videoSizeLimit) v(f, 'mastodon.media.video_max_bytes', `This Mastodon instance takes videos up to ${n(L.videoSizeLimit)} bytes; this one has ${n(m.size)}`);
    if (m.altText && countGraphemes(m.altText) > L.descriptionLimit) v(`${f}.altText`, 'mastodon.media.description_max', `This Mastodon instance takes alt text up to ${n(L.descriptionLimit)} characters`);
  });

  const rawPoll = psd.poll;
  if (rawPoll !== undefined) {
    const p = s.poll;
    if (!p) {
      v('platformSpecificData.poll.options', 'mastodon.poll.options', 'poll needs options: a list of 2 or more texts');
    } else {
      if (media.length > 0) v('platformSpecificData.poll', 'mastodon.poll.media_exclusive', 'A Mastodon status has media or a poll, not both');
      if (p.options.length < 2 || p.options.length > L.pollMaxOptions) v('platformSpecificData.poll.options', 'mastodon.poll.options', `A poll on this Mastodon instance has 2 to ${L.pollMaxOptions} options; this one has ${p.options.length}`);
      p.options.forEach((o, i) => {
        const len = countGraphemes(o);
        if (!o.trim()) v(`platformSpecificData.poll.options.${i}`, 'mastodon.poll.options', `Poll option ${i + 1} is empty`);
        else if (len > L.pollMaxCharactersPerOption) v(`platformSpecificData.poll.options.${i}`, 'mastodon.poll.options', `Poll options on this Mastodon instance take at most ${L.pollMaxCharactersPerOption} characters; option ${i + 1} has ${len}`);
      });
      if (!Number.isInteger(p.expiresIn) || p.expiresIn < L.pollMinExpiration || p.expiresIn > L.pollMaxExpiration) {
        v('platformSpecificData.poll.expiresIn', 'mastodon.poll.expires_in', `poll.expiresIn is a whole number of seconds from ${n(L.pollMinExpiration)} to ${n(L.pollMaxExpiration)} on this Mastodon instance`);
      }
      const rp = rawPoll as Record<string, unknown>;
      for (const k of ['multiple', 'hideTotals'] as const) {
        if (rp[k] !== undefined && typeof rp[k] !== 'boolean') v(`platformSpecificData.poll.${k}`, 'mastodon.options.types', `poll.${k} is true or false`);
      }
    }
  }
  if (psd.visibility !== undefined && !s.visibility) v('platformSpecificData.visibility', 'mastodon.visibility', `visibility is one of ${MASTODON_VISIBILITIES.join(', ')}`);
  if (psd.language !== undefined && (typeof psd.language !== 'string' || !/^[a-z]{2}$/.test(psd.language))) {
    v('platformSpecificData.language', 'mastodon.language', 'language is an ISO 639-1 code: two lowercase letters (e.g. en)');
  }
  if (psd.spoilerText !== undefined && typeof psd.spoilerText !== 'string') v('platformSpecificData.spoilerText', 'mastodon.options.types', 'spoilerText is text');
  if (psd.sensitive !== undefined && typeof psd.sensitive !== 'boolean') v('platformSpecificData.sensitive', 'mastodon.options.types', 'sensitive is true or false');
  return out;
}

export const mastodonRules: PlatformRuleSet<MastodonInstanceLimits> = { platform: 'mastodon', rules: MASTODON_RULES, check, accountSettingKeys: [MASTODON_INSTANCE_SETTING] };
