/**
 * Recycling (re-publishing an evergreen post at a fixed interval, the Late API's `recycling`):
 * the rule table, the platforms' duplicate-content windows and the due-time series. Pure code,
 * shared by the server (validation, the recycling job), the dashboard's Recycle section and the
 * docs. Decision record: docs/decisions/0061-recycling.md.
 */
import type { PlatformId } from './platforms.ts';

/** Interval units of `recycling.gapFreq`. */
export const RECYCLE_UNITS = ['week', 'month'] as const;
export type RecycleUnit = (typeof RECYCLE_UNITS)[number];

/** Largest `recycling.gap` (in units of `gapFreq`). */
export const RECYCLE_GAP_MAX = 52;
/** Posts with active recycling one account may have (the Late API's limit). */
export const RECYCLE_MAX_ACTIVE_PER_ACCOUNT = 10;
/** Most content variations a recycling config may hold (Herald's bound). */
export const RECYCLE_MAX_VARIATIONS = 20;
/** Platforms whose posts are never recycled (the Late API excludes them). */
export const RECYCLE_EXCLUDED_PLATFORMS: readonly PlatformId[] = ['youtube', 'tiktok'];

const DECISION = 'docs/decisions/0061-recycling.md';
/** The Late API's RecyclingConfig (its official client's types, `@getlatedev/node`). */
const LATE_RECYCLING = 'https://www.npmjs.com/package/@getlatedev/node';
const X_AUTOMATION = 'https://help.x.com/en/rules-and-policies/x-automation';

/** A platform's refusal of identical content: how long it remembers a post's text. */
export interface DuplicateWindow {
  /** Hours within which identical text is refused; null: no documented bound (treated as forever). */
  hours: number | null;
  /** Rule id named in the 400. */
  rule: string;
  /** The platform's page the rule comes from. */
  source: string;
}

/**
 * Platforms that refuse identical content from the same account within a window. A recycling
 * config whose interval is not longer than the window (always, for a window without a documented
 * bound) must give content variations, and a target of such a platform may not pin its text with
 * `customContent` (which overrides the variations, so every repost would be identical).
 * - X: POST /2/tweets answers 403 "You are not allowed to create a Tweet with duplicate content";
 *   X documents no window, and its automation rules forbid posting duplicative content.
 * - Facebook refuses a Page post identical to the previous one (error 506, "Duplicate status
 *   message") only for consecutive posts a short time apart; LinkedIn's DUPLICATE_POST window is
 *   shorter than an hour; both are far below the shortest interval (1 week), so not listed.
 */
export const RECYCLE_DUPLICATE_WINDOWS: Partial<Record<PlatformId, DuplicateWindow>> = {
  twitter: { hours: null, rule: 'twitter.recycling.duplicate_content', source: X_AUTOMATION },
};

/** The recycling rules (ids, summaries, sources), for the docs and the dashboard. */
export const RECYCLING_RULES = [
  { id: 'recycling.gap', summary: `Interval: gap 1 to ${RECYCLE_GAP_MAX} weeks or months (gapFreq, default month).`, source: LATE_RECYCLING },
  { id: 'recycling.platform_excluded', summary: 'YouTube and TikTok posts are not recycled.', source: LATE_RECYCLING },
  { id: 'recycling.max_active_per_account', summary: `At most ${RECYCLE_MAX_ACTIVE_PER_ACCOUNT} posts with active recycling per account.`, source: LATE_RECYCLING },
  { id: 'recycling.variations', summary: `Content variations: none, or 2 to ${RECYCLE_MAX_VARIATIONS} different texts, used in turn; each must pass the platforms' text rules.`, source: LATE_RECYCLING },
  { id: 'recycling.expire', summary: 'expireCount (copies) or expireDate must leave at least one repost.', source: DECISION },
  { id: 'twitter.recycling.duplicate_content', summary: 'X refuses duplicate posts: recycling to X needs content variations different from the post\'s own text, and no customContent on the X target.', source: X_AUTOMATION },
] as const;

/** `start` plus `count` units (a month keeps the day of month, the last day when shorter; UTC calendar). */
export function addRecycleUnits(start: Date, count: number, unit: RecycleUnit): Date {
  if (unit === 'week') return new Date(start.getTime() + count * 7 * 86_400_000);
  const d = new Date(start.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + count);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/**
 * The first due time of the series `start + k * gap units` (k >= 1) strictly after `after`.
 * Missed due times (workers down for longer than an interval) are skipped, not caught up.
 */
export function nextRecycleTime(start: Date, gap: number, unit: RecycleUnit, after: Date): Date {
  // Estimate k from the shortest unit length, then step (months differ in length).
  const unitMs = unit === 'week' ? 7 * 86_400_000 : 28 * 86_400_000;
  let k = Math.max(1, Math.floor((after.getTime() - start.getTime()) / (gap * unitMs)) - 1);
  while (k > 1 && addRecycleUnits(start, (k - 1) * gap, unit).getTime() > after.getTime()) k--;
  let t = addRecycleUnits(start, k * gap, unit);
  while (t.getTime() <= after.getTime()) t = addRecycleUnits(start, ++k * gap, unit);
  return t;
}

/** The shortest length of an interval of `gap` units, hours (a month counts 28 days). */
export const recycleIntervalHours = (gap: number, unit: RecycleUnit): number => gap * (unit === 'week' ? 7 : 28) * 24;
