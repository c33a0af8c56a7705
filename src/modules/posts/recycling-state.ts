/**
 * A post's recycling config and state as stored (`posts.recycling`, jsonb) and as the API shows
 * it (the Late API's RecyclingState), and how a request's `recycling` changes it. No I/O: the
 * checks that need the post's targets and the database are in ./recycling.ts.
 * Decision record: docs/decisions/0061-recycling.md.
 */
import type { FieldErrorCollector } from '../../core/errors.ts';
import {
  RECYCLE_DUPLICATE_WINDOWS, RECYCLE_EXCLUDED_PLATFORMS, nextRecycleTime, recycleIntervalHours, type RecycleUnit,
} from '../../shared/recycling.ts';
import type { PlatformId } from '../../shared/platforms.ts';
import type { RecyclingInput } from './schemas.ts';

/** `posts.recycling`: the config and the counters the recycling job advances. Times are ISO 8601 UTC. */
export interface StoredRecycling {
  /** The user's switch (false: paused, or finished by expireCount/expireDate). */
  enabled: boolean;
  gap: number;
  gapFreq: RecycleUnit;
  /** Start of the series: copies are due at startDate + k * gap units, k >= 1. */
  startDate: string;
  expireCount: number | null;
  expireDate: string | null;
  /** Texts of the copies, used in turn; empty: every copy takes the post's content. */
  contentVariations: string[];
  /** The variation the next copy takes. */
  contentVariationIndex: number;
  /** Copies created so far. */
  recycleCount: number;
  lastRecycledAt: string | null;
}

/** The API view of a stored config (RecyclingState); `nextAt` is the `recycle_next_at` column. */
export function recyclingView(r: StoredRecycling, nextAt: Date | string | null) {
  return {
    enabled: r.enabled,
    gap: r.gap,
    gapFreq: r.gapFreq,
    startDate: r.startDate,
    ...(r.expireCount !== null ? { expireCount: r.expireCount } : {}),
    ...(r.expireDate !== null ? { expireDate: r.expireDate } : {}),
    ...(r.contentVariations.length ? { contentVariations: r.contentVariations } : {}),
    contentVariationIndex: r.contentVariationIndex,
    recycleCount: r.recycleCount,
    ...(nextAt ? { nextRecycleAt: new Date(nextAt).toISOString() } : {}),
    ...(r.lastRecycledAt ? { lastRecycledAt: r.lastRecycledAt } : {}),
  };
}

/** A date field of the input: ISO 8601 with a time zone or a date (UTC), years 2000 to 9999. */
function parseDate(v: string, field: string, errors: FieldErrorCollector): Date | null {
  const d = /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T00:00:00Z`) : /(Z|[+-]\d{2}:?\d{2})$/i.test(v) ? new Date(v) : new Date(NaN);
  if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 2000 || d.getUTCFullYear() > 9999) {
    errors.add(field, 'must be an ISO 8601 date-time with a time zone (e.g. 2030-01-01T09:00:00Z) or a date');
    return null;
  }
  return d;
}

/** What a new recycling config is computed from. */
export interface RecyclingContext {
  /** The stored config before this request (null: none). */
  current: StoredRecycling | null;
  /** The post's time after this request (scheduledFor, or now for publishNow); null for a draft without one. */
  postAt: Date | null;
  now: Date;
}

/** A config after a request: what to store and the next due time (null: not active). */
export interface RecyclingChange {
  stored: StoredRecycling | null;
  nextAt: Date | null;
}

/**
 * Applies a request's `recycling` to the current config: `null` removes it; otherwise the given
 * fields replace the current ones (an enabled config needs `gap`). Errors are added to `errors`
 * under `recycling.<field>` naming the rule. The next due time is the first of the series after
 * now and after the last copy; a paused config has none.
 */
export function applyRecyclingInput(input: RecyclingInput | null, ctx: RecyclingContext, errors: FieldErrorCollector): RecyclingChange {
  if (input === null) return { stored: null, nextAt: null };
  const cur = ctx.current;
  const enabled = input.enabled ?? true;
  const gap = input.gap ?? cur?.gap;
  if (gap === undefined) {
    if (enabled) errors.add('recycling.gap', 'is required when enabling recycling [rule recycling.gap]');
    return { stored: null, nextAt: null };
  }
  const gapFreq: RecycleUnit = input.gapFreq ?? cur?.gapFreq ?? 'month';
  let start: Date | null = null;
  if (typeof input.startDate === 'string') start = parseDate(input.startDate, 'recycling.startDate', errors);
  else if (input.startDate === undefined && cur) start = new Date(cur.startDate);
  else if (ctx.postAt) start = ctx.postAt;
  else errors.add('recycling.startDate', 'is required for a post without scheduledFor (a draft) [rule recycling.gap]');
  const expireCount = input.expireCount !== undefined ? input.expireCount : cur?.expireCount ?? null;
  const expireDate = input.expireDate === undefined ? (cur?.expireDate ? new Date(cur.expireDate) : null)
    : input.expireDate === null ? null : parseDate(input.expireDate, 'recycling.expireDate', errors);
  const variations = input.contentVariations !== undefined ? input.contentVariations.map((v) => v.trim()) : cur?.contentVariations ?? [];
  if (input.contentVariations !== undefined) checkVariations(variations, errors);
  if (!start || !errors.empty) return { stored: null, nextAt: null };
  const recycleCount = cur?.recycleCount ?? 0;
  const lastAt = cur?.lastRecycledAt ? new Date(cur.lastRecycledAt) : null;
  const after = new Date(Math.max(ctx.now.getTime(), lastAt?.getTime() ?? 0, start.getTime() - 1));
  const next = nextRecycleTime(start, gap, gapFreq, after);
  if (enabled && expireCount !== null && recycleCount >= expireCount) {
    errors.add('recycling.expireCount', `${recycleCount} copies were created already: give a larger expireCount to recycle again [rule recycling.expire]`);
  }
  if (enabled && expireDate && next.getTime() > expireDate.getTime()) {
    errors.add('recycling.expireDate', `is before the first repost (due ${next.toISOString()}): no copy would be created [rule recycling.expire]`);
  }
  const keepIndex = input.contentVariations === undefined && cur ? cur.contentVariationIndex : 0;
  const stored: StoredRecycling = {
    enabled, gap, gapFreq, startDate: start.toISOString(), expireCount, expireDate: expireDate?.toISOString() ?? null,
    contentVariations: variations, contentVariationIndex: variations.length ? keepIndex % variations.length : 0,
    recycleCount, lastRecycledAt: cur?.lastRecycledAt ?? null,
  };
  return { stored, nextAt: enabled ? next : null };
}

/** Variations: none, or 2 or more different non-empty texts (the Late API: "Must have 2+ entries"). */
function checkVariations(variations: string[], errors: FieldErrorCollector): void {
  if (variations.length === 1) errors.add('recycling.contentVariations', 'must have 2 or more entries (or [] to clear them) [rule recycling.variations]');
  variations.forEach((v, i) => {
    if (!v) errors.add(`recycling.contentVariations.${i}`, 'must not be empty [rule recycling.variations]');
    else if (variations.indexOf(v) !== i) errors.add(`recycling.contentVariations.${i}`, `repeats entry ${variations.indexOf(v)}: variations must differ [rule recycling.variations]`);
  });
}

/** A target as the platform checks of a config read it. */
export interface RecyclingTarget {
  platform: PlatformId;
  customContent: string | null;
}

/**
 * The checks of an enabled config against the post's targets: excluded platforms (YouTube,
 * TikTok), and platforms that refuse identical content within a window not shorter than the
 * interval (X: always), which need variations different from the post's `content` and no
 * customContent on their target.
 */
export function checkRecyclingTargets(stored: StoredRecycling, targets: RecyclingTarget[], errors: FieldErrorCollector, content?: string): void {
  const interval = recycleIntervalHours(stored.gap, stored.gapFreq);
  targets.forEach((t, i) => {
    if (RECYCLE_EXCLUDED_PLATFORMS.includes(t.platform)) {
      errors.add(`platforms.${i}.platform`, `${t.platform} posts cannot be recycled: remove recycling or this platform [rule recycling.platform_excluded]`);
      return;
    }
    const w = RECYCLE_DUPLICATE_WINDOWS[t.platform];
    if (!w || (w.hours !== null && interval > w.hours)) return;
    const why = w.hours === null ? `${t.platform} refuses duplicate content` : `${t.platform} refuses identical content within ${w.hours} hours, longer than the interval`;
    if (stored.contentVariations.length < 2) {
      errors.add('recycling.contentVariations', `${why}: give 2 or more content variations for the copies [rule ${w.rule}]`);
    } else if (t.customContent !== null) {
      errors.add(`platforms.${i}.customContent`, `${why} and customContent overrides the variations, so every copy would be identical: remove it [rule ${w.rule}]`);
    } else if (content !== undefined && stored.contentVariations.includes(content.trim())) {
      const k = stored.contentVariations.indexOf(content.trim());
      const field = `recycling.contentVariations.${k}`;
      if (!errors.fields[field]?.some((m) => m.includes(w.rule))) errors.add(field, `${why}: this variation repeats the post's own text; change it [rule ${w.rule}]`);
    }
  });
}
