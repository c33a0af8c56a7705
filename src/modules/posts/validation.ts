/**
 * Post rules that need more than a schema: scheduling forms (docs/decisions/0019) and
 * time zones, tags, media items, threads, and each target platform's own rules
 * (checked with the adapter's `validate` before anything is stored or published).
 * Every failure names the field and the rule: 400 with `details.fields`.
 */
import { type FieldErrorCollector } from '../../core/errors.ts';
import { parseScheduledFor } from '../../core/time.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import { HASHTAG_PLATFORMS, MENTION_PLATFORMS } from '../../shared/capabilities.ts';
import { PLATFORM_LABELS } from '../../shared/platforms.ts';
import { RULE_SETS } from '../../shared/rules/index.ts';
import type { MediaRef, PlatformId, PublishRequest, ThreadItem } from '../../platforms/types.ts';
import type { MediaItemInput } from './schemas.ts';

/**
 * Tag rules (docs/decisions/0023-tags-over-the-limits-are-dropped.md): duplicates removed
 * (case-insensitive, first spelling kept), tags over 100 characters dropped, then the tags
 * that would take the total past 500 characters dropped; each drop adds a warning naming `field`.
 */
export const TAG_MAX_LENGTH = 100;
export const TAGS_MAX_TOTAL = 500;

export function normalizeTags(tags: unknown[] | undefined, warnings: string[], field = 'tags'): string[] {
  if (!tags) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  const long: string[] = [];
  const pastTotal: string[] = [];
  let total = 0;
  for (const raw of tags) {
    if (typeof raw !== 'string') continue;
    const tag = raw.trim();
    if (!tag) continue;
    const length = [...tag].length;
    if (length > TAG_MAX_LENGTH) {
      long.push(tag);
      continue;
    }
    const key = tag.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    if (total + length > TAGS_MAX_TOTAL) {
      pastTotal.push(tag);
      continue;
    }
    total += length;
    out.push(tag);
  }
  const shown = (list: string[]) => list.map((t) => `"${[...t].length > 20 ? `${[...t].slice(0, 20).join('')}…` : t}"`).join(', ');
  if (long.length) warnings.push(`${field}: dropped ${long.length} tag(s) over ${TAG_MAX_LENGTH} characters: ${shown(long)}`);
  if (pastTotal.length) warnings.push(`${field}: dropped ${pastTotal.length} tag(s) past the ${TAGS_MAX_TOTAL}-character total: ${shown(pastTotal)}`);
  return out;
}

/**
 * Targets on a platform that counts tags its own way (its rule table's `tags`, e.g. YouTube):
 * the option that replaces the post's tags there (`platformSpecificData.tags`) follows the same
 * drop rules, and the tags the platform's own count would leave out at upload are named in a
 * warning too (decision 0023).
 */
export function dropTagOverflow(
  targets: Array<{ platform: PlatformId; platformSpecificData: Record<string, unknown> }>, postTags: string[], warnings: string[],
): void {
  targets.forEach((t, i) => {
    const counted = RULE_SETS[t.platform]?.tags;
    if (!counted) return;
    let tags = postTags;
    let field = 'tags';
    if (Array.isArray(t.platformSpecificData[counted.field])) {
      field = `platforms.${i}.platformSpecificData.${counted.field}`;
      tags = normalizeTags(t.platformSpecificData[counted.field] as unknown[], warnings, field);
      t.platformSpecificData = { ...t.platformSpecificData, [counted.field]: tags };
    }
    const left = tags.slice(counted.fit(tags).length);
    if (left.length) {
      const label = PLATFORM_LABELS[t.platform];
      warnings.push(`${field}: ${counted.why}, so the last ${left.length} tag(s) are not sent to ${label}: ${left.map((x) => `"${x}"`).join(', ')}`);
    }
  });
}

/**
 * Hashtags and mentions (docs/decisions/0022-hashtags-and-mentions.md): stored as sent (trimmed,
 * duplicates removed case-insensitively, with or without the leading # or @) and added to the
 * text, when it does not contain them yet, on the platforms that take them as caption text
 * (`hashtagsInText` / `mentionsInText` in src/shared/capabilities.ts).
 */
export const HASHTAG_MAX_LENGTH = 100;
const HASHTAG_RE = /^[\p{L}\p{M}\p{N}_]+$/u;
const MENTION_RE = /^[\p{L}\p{M}\p{N}_.-]+$/u;

function normalizeMarked(list: string[] | undefined, field: 'hashtags' | 'mentions', errors: FieldErrorCollector): string[] {
  if (!list) return [];
  const mark = field === 'hashtags' ? '#' : '@';
  const re = field === 'hashtags' ? HASHTAG_RE : MENTION_RE;
  const seen = new Set<string>();
  const out: string[] = [];
  list.forEach((raw, i) => {
    const given = raw.trim();
    const bare = given.startsWith(mark) ? given.slice(1) : given;
    if (!bare) return;
    if ([...bare].length > HASHTAG_MAX_LENGTH) {
      errors.add(`${field}.${i}`, `must be at most ${HASHTAG_MAX_LENGTH} characters`);
      return;
    }
    if (!re.test(bare) || (field === 'mentions' && /^[.-]|[.-]$/.test(bare))) {
      errors.add(`${field}.${i}`, field === 'hashtags'
        ? 'must be one word of letters, digits or _ (with or without the leading #)'
        : 'must be one handle of letters, digits, _, . or - (with or without the leading @)');
      return;
    }
    const key = bare.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    out.push(given);
  });
  return out;
}

export const normalizeHashtags = (list: string[] | undefined, errors: FieldErrorCollector) => normalizeMarked(list, 'hashtags', errors);
export const normalizeMentions = (list: string[] | undefined, errors: FieldErrorCollector) => normalizeMarked(list, 'mentions', errors);

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The text with the platform's missing `#hashtags` and `@mentions` added on a line of their
 * own after a blank line; unchanged when the platform takes neither or all are already there.
 */
export function withHashtagsAndMentions(text: string, platform: PlatformId, hashtags: string[], mentions: string[]): string {
  const add: string[] = [];
  const has = (marked: string, tail: string) => new RegExp(`(^|[^\\p{L}\\p{M}\\p{N}_])${escapeRe(marked)}(?!${tail})`, 'iu').test(text);
  if (HASHTAG_PLATFORMS.includes(platform)) {
    for (const h of hashtags) {
      const marked = `#${h.replace(/^#/, '')}`;
      if (!has(marked, '[\\p{L}\\p{M}\\p{N}_]') && !add.includes(marked)) add.push(marked);
    }
  }
  if (MENTION_PLATFORMS.includes(platform)) {
    for (const m of mentions) {
      const marked = `@${m.replace(/^@/, '')}`;
      if (!has(marked, '[\\p{L}\\p{M}\\p{N}_-]|\\.[\\p{L}\\p{M}\\p{N}]') && !add.includes(marked)) add.push(marked);
    }
  }
  if (add.length === 0) return text;
  return text.trim() ? `${text.replace(/\s+$/u, '')}\n\n${add.join(' ')}` : add.join(' ');
}

const EXT_TYPES: Record<string, MediaRef['type']> = {
  jpg: 'image', jpeg: 'image', png: 'image', webp: 'image', gif: 'gif',
  mp4: 'video', mov: 'video', m4v: 'video', webm: 'video', avi: 'video', mpeg: 'video', mpg: 'video',
  pdf: 'document',
};

function typeFromMime(mime: string | undefined): MediaRef['type'] | undefined {
  if (!mime) return undefined;
  if (mime === 'image/gif') return 'gif';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime === 'application/pdf') return 'document';
  return undefined;
}

/** Checks and normalises `mediaItems` (http(s) URLs; `type` inferred from mimeType or extension). */
export function normalizeMedia(items: MediaItemInput[] | undefined, field: string, errors: FieldErrorCollector): MediaRef[] {
  if (!items) return [];
  const out: MediaRef[] = [];
  items.forEach((m, i) => {
    let url: URL;
    try {
      url = new URL(m.url);
    } catch {
      errors.add(`${field}.${i}.url`, 'must be an absolute http(s) URL');
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      errors.add(`${field}.${i}.url`, 'must use http or https');
      return;
    }
    const ext = url.pathname.split('.').pop()?.toLowerCase() ?? '';
    const type = m.type ?? typeFromMime(m.mimeType) ?? EXT_TYPES[ext];
    if (!type) {
      errors.add(`${field}.${i}.type`, 'is required when it cannot be inferred from mimeType or the URL extension (image, video, gif or document)');
      return;
    }
    out.push({
      type, url: url.toString(),
      ...(m.filename ? { filename: m.filename } : {}),
      ...(m.mimeType ? { mimeType: m.mimeType } : {}),
      ...(m.size !== undefined ? { size: m.size } : {}),
      ...(m.altText ? { altText: m.altText } : {}),
      ...(m.thumbnail ? { thumbnail: m.thumbnail } : {}),
      ...(m.instagramThumbnail ? { instagramThumbnail: m.instagramThumbnail } : {}),
    });
  });
  return out;
}

/** Reads `platformSpecificData.threadItems` (twitter, threads, bluesky). Only the first item may carry media. */
export function threadItemsOf(psd: Record<string, unknown>, field: string, errors: FieldErrorCollector): ThreadItem[] {
  const raw = psd.threadItems;
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    errors.add(`${field}.threadItems`, 'must be an array of { content, mediaItems? }');
    return [];
  }
  const items: ThreadItem[] = [];
  raw.forEach((it: unknown, i) => {
    const f = `${field}.threadItems.${i}`;
    if (typeof it !== 'object' || it === null || typeof (it as { content?: unknown }).content !== 'string') {
      errors.add(`${f}.content`, 'is required and must be a string');
      return;
    }
    const item = it as { content: string; mediaItems?: MediaItemInput[] };
    if (item.mediaItems !== undefined && !Array.isArray(item.mediaItems)) {
      errors.add(`${f}.mediaItems`, 'must be an array');
      return;
    }
    const media = normalizeMedia(item.mediaItems, `${f}.mediaItems`, errors);
    if (i > 0 && media.length > 0) errors.add(`${f}.mediaItems`, 'only the first thread item can carry media');
    items.push({ content: item.content, ...(media.length ? { mediaItems: media } : {}) });
  });
  return items;
}

export interface ScheduleInput {
  scheduledFor?: string | null;
  timezone?: string | null;
}

/** Zone names that are UTC itself (a `Z` time with one of these needs no warning). */
const UTC_ZONES = new Set(['utc', 'etc/utc', 'uct', 'etc/uct', 'gmt', 'etc/gmt', 'gmt0', 'etc/gmt0', 'gmt+0', 'etc/gmt+0', 'gmt-0', 'etc/gmt-0',
  'universal', 'etc/universal', 'zulu', 'etc/zulu', 'greenwich', 'etc/greenwich']);

/**
 * Parses scheduledFor/timezone into an instant or records the field error. A `Z` time with
 * a non-UTC `timezone` is accepted: the instant is the UTC one, the zone is kept for display,
 * and a warning says so when `warnings` is given (docs/decisions/0021-z-time-with-a-timezone.md).
 */
export function parseSchedule(input: ScheduleInput, errors: FieldErrorCollector, warnings?: string[]): { at: Date | null; timezone: string } {
  if (!input.scheduledFor) {
    const tz = input.timezone ?? 'UTC';
    const check = parseScheduledFor('2000-01-01T00:00', tz);
    if (!check.ok) {
      errors.add('timezone', check.message);
      return { at: null, timezone: 'UTC' };
    }
    return { at: null, timezone: check.timezone };
  }
  const r = parseScheduledFor(input.scheduledFor, input.timezone);
  if (!r.ok) {
    errors.add(r.field, r.message);
    return { at: null, timezone: 'UTC' };
  }
  if (warnings && input.scheduledFor.endsWith('Z') && !UTC_ZONES.has(r.timezone.toLowerCase())) {
    warnings.push(`scheduledFor ends in "Z", so it is a UTC time (${r.instant.toISOString()}); timezone "${r.timezone}" does not change it and is kept for display only. Send a local "YYYY-MM-DDTHH:mm" time to schedule in ${r.timezone}`);
  }
  return { at: r.instant, timezone: r.timezone };
}

/** What the publisher will send for one target, built identically at validation and publish time. */
export function buildPublishRequest(p: {
  content: string;
  customContent: string | null;
  mediaItems: MediaRef[];
  platformSpecificData: Record<string, unknown>;
  threadItems: ThreadItem[];
  tags: string[];
  visibility: 'public' | 'private' | 'unlisted';
  scheduledFor: Date | null;
  accountSettings?: Record<string, unknown>;
  /** With the platform, the missing hashtags and mentions are added to the (root) text. */
  platform?: PlatformId;
  hashtags?: string[];
  mentions?: string[];
}): PublishRequest {
  const root = p.threadItems.length > 0 ? p.threadItems[0].content : (p.customContent ?? p.content);
  const text = p.platform ? withHashtagsAndMentions(root, p.platform, p.hashtags ?? [], p.mentions ?? []) : root;
  return {
    text,
    mediaItems: p.threadItems.length > 0 ? (p.threadItems[0].mediaItems ?? p.mediaItems) : p.mediaItems,
    threadItems: p.threadItems.length > 0 && text !== root ? [{ ...p.threadItems[0], content: text }, ...p.threadItems.slice(1)] : p.threadItems,
    platformSpecificData: p.platformSpecificData,
    tags: p.tags,
    visibility: p.visibility,
    ...(p.scheduledFor ? { scheduledFor: p.scheduledFor } : {}),
    ...(p.accountSettings ? { accountSettings: p.accountSettings } : {}),
  };
}

/**
 * Runs the platform's own rules on one target and records violations under the
 * request's field names: the text under `platforms.N.customContent` when the target
 * overrides it, else `content`; media under `mediaItems.K`; thread items under
 * `platforms.N.platformSpecificData.threadItems.K`.
 */
export function checkPlatformRules(
  adapters: AdapterRegistry,
  platform: PlatformId,
  index: number,
  req: PublishRequest,
  hasCustomContent: boolean,
  errors: FieldErrorCollector,
): void {
  const adapter = adapters.get(platform);
  if (!adapter) {
    errors.add(`platforms.${index}.platform`, `publishing to ${platform} is not available on this server yet`);
    return;
  }
  for (const v of adapter.validate(req)) {
    let field: string;
    if (v.field === 'content' || v.field === 'text') {
      field = req.threadItems.length > 0 ? `platforms.${index}.platformSpecificData.threadItems.0.content` : hasCustomContent ? `platforms.${index}.customContent` : 'content';
    } else if (v.field.startsWith('threadItems')) {
      field = `platforms.${index}.platformSpecificData.${v.field}`;
    } else if (v.field.startsWith('mediaItems') || v.field.startsWith('platformSpecificData')) {
      field = v.field.startsWith('platformSpecificData') ? `platforms.${index}.${v.field}` : v.field;
    } else {
      field = `platforms.${index}.${v.field}`;
    }
    errors.add(field, `${v.message} [rule ${v.rule}]`);
  }
}
