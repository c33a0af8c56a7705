/**
 * Bulk CSV upload (POST /v1/posts/bulk-upload): turning CSV rows into post requests.
 * Pure functions, no I/O.
 *
 * Columns (header names are case-insensitive; unknown columns are reported as warnings):
 * | column | meaning |
 * |---|---|
 * | `platforms` (required) | platform ids, separated by `,` `;` `|` or spaces (e.g. `bluesky,twitter`) |
 * | `profiles` (required) | profile ids or exact profile names, separated by `;` `|` or `,` |
 * | `schedule_time` + `tz` | `YYYY-MM-DD HH:mm` (or `T`) local time in the IANA zone `tz` (default UTC), or ISO UTC ending in `Z` |
 * | `publish_now`, `is_draft`, `use_queue` | `true`/`false` (also `1`/`0`, `yes`/`no`); one timing is required |
 * | `post_content` | the text; `title` is used when it is empty |
 * | `title` | post title; also the title on YouTube, Reddit and Pinterest |
 * | `media_urls` | http(s) URLs separated by spaces, `,` `;` or `|` |
 * | `tags` | separated by `,` `;` or `|` |
 * | `visibility` | public, private or unlisted |
 * | `custom_content_<platform>` | text for that platform only |
 * | `<platform>_thread_items` | a thread, for each platform with threads (`threads` in src/shared/capabilities.ts: twitter, threads, bluesky, discord, telegram, mastodon): items separated by a line `---`; another platform's column is ignored with a warning |
 * | `first_comment` | first comment on the platforms that take one (facebook, instagram, linkedin and youtube: `firstComment` in src/shared/capabilities.ts) |
 * | `subreddit` | Reddit subreddit (else the account default) |
 * | `board_id` | Pinterest board (else the account default) |
 * | `link` | Pinterest pin link / Reddit link post URL |
 *
 * `use_queue=true` takes the next free slot of the (exactly one) profile's queue.
 */
import { unstorableText } from '../../core/storable.ts';
import { isPlatformId, PLATFORMS, type PlatformId } from '../../platforms/types.ts';
import { BULK_COLUMNS, BULK_OPTION_COLUMNS, PLATFORM_ALIASES } from '../../shared/bulk-columns.ts';
import { FIRST_COMMENT_PLATFORMS } from '../../shared/capabilities.ts';

/** One row error: a machine code, a message, and the column when there is one. */
export interface RowError {
  code: string;
  message: string;
  column?: string;
}

/** The columns read (src/shared/bulk-columns.ts: the dashboard's CSV template is built from the same list). */
export const KNOWN_COLUMNS: ReadonlySet<string> = new Set(BULK_COLUMNS);

/** A row after parsing: which profiles and platforms it targets, and the post body fields. */
export interface ParsedRow {
  profileRefs: string[];
  platforms: PlatformId[];
  timing: { kind: 'schedule'; scheduledFor: string; timezone: string } | { kind: 'now' } | { kind: 'draft' } | { kind: 'queue' };
  content: string;
  title: string | null;
  mediaUrls: string[];
  tags: string[];
  visibility?: 'public' | 'private' | 'unlisted';
  customContent: Partial<Record<PlatformId, string>>;
  platformSpecificData: Partial<Record<PlatformId, Record<string, unknown>>>;
}

const split = (v: string, seps: RegExp) => v.split(seps).map((x) => x.trim()).filter(Boolean);

function bool(v: string | undefined): boolean | null {
  if (v === undefined || v.trim() === '') return false;
  const s = v.trim().toLowerCase();
  if (['true', '1', 'yes', 'y'].includes(s)) return true;
  if (['false', '0', 'no', 'n'].includes(s)) return false;
  return null;
}

/** Parses one CSV record (lower-cased header -> cell). Returns the row or its errors. */
export function parseRow(rec: Record<string, string>): { ok: true; row: ParsedRow } | { ok: false; errors: RowError[] } {
  const errors: RowError[] = [];
  const cell = (k: string) => (rec[k] ?? '').trim();

  // PostgreSQL cannot store NUL: such a row is invalid (in the dry run too), not a failed upload of every row.
  for (const [column, value] of Object.entries(rec)) {
    const problem = KNOWN_COLUMNS.has(column) && typeof value === 'string' ? unstorableText(value) : null;
    if (problem) errors.push({ code: `${column}_invalid`, message: `${column} ${problem}`, column });
  }

  const profileRefs = split(cell('profiles'), /[;|,]/);
  if (profileRefs.length === 0) errors.push({ code: 'profiles_missing', message: 'profiles is required: profile ids or exact names', column: 'profiles' });
  const platformNames = split(cell('platforms').toLowerCase(), /[\s,;|]+/);
  const platforms: PlatformId[] = [];
  if (platformNames.length === 0) errors.push({ code: 'platforms_missing', message: 'platforms is required (e.g. "bluesky" or "bluesky,twitter")', column: 'platforms' });
  for (const p of platformNames) {
    const id = PLATFORM_ALIASES[p] ?? p;
    if (!isPlatformId(id)) errors.push({ code: 'platform_invalid', message: `unknown platform "${p}" (one of ${PLATFORMS.join(', ')})`, column: 'platforms' });
    else if (!platforms.includes(id)) platforms.push(id);
  }

  const flags: Record<string, boolean> = {};
  for (const k of ['publish_now', 'is_draft', 'use_queue']) {
    const b = bool(rec[k]);
    if (b === null) errors.push({ code: 'boolean_invalid', message: `${k} must be true or false`, column: k });
    flags[k] = b === true;
  }
  const scheduleTime = cell('schedule_time');
  const chosen = [scheduleTime ? 'schedule_time' : null, ...['publish_now', 'is_draft', 'use_queue'].filter((k) => flags[k])].filter(Boolean);
  let timing: ParsedRow['timing'] = { kind: 'draft' };
  if (chosen.length === 0) {
    errors.push({ code: 'timing_missing', message: 'give schedule_time (with tz), or set one of publish_now, is_draft or use_queue to true' });
  } else if (chosen.length > 1) {
    errors.push({ code: 'timing_conflict', message: `choose one timing; this row sets ${chosen.join(' and ')}` });
  } else if (scheduleTime) {
    timing = { kind: 'schedule', scheduledFor: scheduleTime.replace(' ', 'T'), timezone: cell('tz') || 'UTC' };
  } else if (flags.publish_now) timing = { kind: 'now' };
  else if (flags.is_draft) timing = { kind: 'draft' };
  else timing = { kind: 'queue' };
  if (timing.kind === 'queue' && profileRefs.length !== 1) {
    errors.push({ code: 'use_queue_profiles', message: 'use_queue needs exactly one profile', column: 'profiles' });
  }

  const mediaUrls = split(cell('media_urls'), /[\s,;|]+/);
  for (const u of mediaUrls) {
    let ok: boolean;
    try { ok = ['http:', 'https:'].includes(new URL(u).protocol); } catch { ok = false; }
    if (!ok) errors.push({ code: 'media_url_invalid', message: `media_urls must be http(s) URLs ("${u}" is not)`, column: 'media_urls' });
  }

  const visibility = cell('visibility').toLowerCase();
  if (visibility && !['public', 'private', 'unlisted'].includes(visibility)) {
    errors.push({ code: 'visibility_invalid', message: 'visibility must be public, private or unlisted', column: 'visibility' });
  }

  const title = cell('title') || null;
  const content = cell('post_content') || title || '';
  const customContent: ParsedRow['customContent'] = {};
  const psd: ParsedRow['platformSpecificData'] = {};
  const psdOf = (p: PlatformId) => (psd[p] ??= {});
  for (const p of platforms) {
    const custom = rec[`custom_content_${p}`]?.trim();
    if (custom) customContent[p] = custom;
    // Only a platform with threads has the column (BULK_COLUMNS); another's is ignored, as the warning says.
    const thread = KNOWN_COLUMNS.has(`${p}_thread_items`) ? rec[`${p}_thread_items`]?.trim() : undefined;
    if (thread) psdOf(p).threadItems = thread.split(/\r?\n---\r?\n/).map((c) => ({ content: c.trim() })).filter((i) => i.content);
    if (cell('first_comment') && FIRST_COMMENT_PLATFORMS.includes(p)) psdOf(p).firstComment = cell('first_comment');
    // The shared columns that are an option on this platform (title, subreddit, board_id, link: src/shared/bulk-columns.ts).
    for (const o of BULK_OPTION_COLUMNS[p] ?? []) {
      const v = cell(o.column);
      if (v) psdOf(p)[o.field] = o.clean ? o.clean(v) : v;
    }
  }
  if (!content && mediaUrls.length === 0 && Object.keys(customContent).length === 0 && timing.kind !== 'draft') {
    errors.push({ code: 'content_missing', message: 'post_content (or title) is required unless media_urls are given', column: 'post_content' });
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    row: {
      profileRefs, platforms, timing, content, title, mediaUrls,
      tags: split(cell('tags'), /[,;|]/),
      ...(visibility ? { visibility: visibility as 'public' | 'private' | 'unlisted' } : {}),
      customContent, platformSpecificData: psd,
    },
  };
}
