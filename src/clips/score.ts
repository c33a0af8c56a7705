/**
 * Highlight scoring (docs/decisions/0028-clip-scoring.md). Pure: signals in, windows out.
 *
 * Each second gets a score in 0..1 from what ffmpeg measured:
 *   0.45 x loudness + 0.35 x motion + 0.20 x scene cuts, times (1 - 0.7 x silence share),
 * where loudness and motion are scaled between their 5th and 99th percentile over the whole
 * video (so a quiet lecture and a loud match are each judged against themselves) and cuts
 * count within +-2 s (two or more: 1). Windows of 15 to 60 s (5 s steps) are ranked by their
 * mean second score plus a small bonus for length (0.05 at 60 s), so a longer window wins
 * only when it is nearly as dense; the best non-overlapping windows are taken while they
 * score at least 60% of the best one and more than the video's mean second. Each chosen
 * window's start and end move to the nearest pause (silence) within 3 s, so clips start and
 * stop between sentences.
 */
import type { Signals } from './analyse.ts';

export const MIN_CLIP_SECONDS = 15;
export const MAX_CLIP_SECONDS = 60;
/** How far a window edge moves to meet a pause, seconds. */
export const SNAP_SECONDS = 3;

const WEIGHTS = { loudness: 0.45, motion: 0.35, cuts: 0.2 } as const;
const LENGTH_BONUS = 0.05;
const RELATIVE_CUTOFF = 0.6;

/** A chosen highlight: seconds of the source and its score (mean second score plus length bonus). */
export interface ClipWindow {
  start: number;
  end: number;
  score: number;
}

/** How many clips a video of `duration` seconds gives at most: one per 3 minutes, 1 to 5. */
export function maxClipsFor(duration: number): number {
  return Math.max(1, Math.min(5, Math.round(duration / 180)));
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.round(p * (sorted.length - 1))));
  return sorted[i];
}

/** Scales a series to 0..1 between its 5th and 99th percentile; a flat series (spread below `minSpread`) scores 0. */
function scaled(xs: number[], minSpread: number): number[] {
  const sorted = [...xs].sort((a, b) => a - b);
  const lo = percentile(sorted, 0.05);
  const hi = percentile(sorted, 0.99);
  if (hi - lo < minSpread) return xs.map(() => 0);
  return xs.map((x) => Math.min(1, Math.max(0, (x - lo) / (hi - lo))));
}

/** Share of each second [i, i+1) covered by pauses. */
function silenceShare(silences: Signals['silences'], n: number): number[] {
  const share = new Array<number>(n).fill(0);
  for (const [a, b] of silences) {
    for (let i = Math.max(0, Math.floor(a)); i < Math.min(n, Math.ceil(b)); i++) {
      share[i] += Math.max(0, Math.min(b, i + 1) - Math.max(a, i));
    }
  }
  return share.map((s) => Math.min(1, s));
}

/** The score of each second, 0..1. */
export function secondScores(s: Signals): number[] {
  const n = s.loudness.length;
  const loud = scaled(s.loudness, 1);
  const motion = scaled(s.motion, 0.5);
  const cuts = s.cuts.map((_, i) => {
    let c = 0;
    for (let j = Math.max(0, i - 2); j <= Math.min(n - 1, i + 2); j++) c += s.cuts[j] ?? 0;
    return Math.min(1, c / 2);
  });
  const silent = silenceShare(s.silences, n);
  return loud.map((l, i) => (WEIGHTS.loudness * l + WEIGHTS.motion * (motion[i] ?? 0) + WEIGHTS.cuts * cuts[i]) * (1 - 0.7 * silent[i]));
}

/**
 * The best non-overlapping windows of 15 to 60 s, in source order, at most `maxClips`.
 * A source shorter than 15 s gives none.
 */
export function pickWindows(s: Signals, opts: { maxClips: number }): ClipWindow[] {
  const duration = s.duration;
  if (duration < MIN_CLIP_SECONDS) return [];
  const scores = secondScores(s);
  const n = scores.length;
  const prefix = [0];
  for (const x of scores) prefix.push(prefix[prefix.length - 1] + x);
  const mean = prefix[n] / n;
  const candidates: ClipWindow[] = [];
  const maxLen = Math.min(MAX_CLIP_SECONDS, Math.floor(duration));
  for (let len = MIN_CLIP_SECONDS; len <= maxLen; len += 5) {
    const bonus = LENGTH_BONUS * (len - MIN_CLIP_SECONDS) / (MAX_CLIP_SECONDS - MIN_CLIP_SECONDS);
    for (let start = 0; start + len <= n; start++) {
      const avg = (prefix[start + len] - prefix[start]) / len;
      candidates.push({ start, end: Math.min(duration, start + len), score: avg + bonus });
    }
  }
  if (maxLen % 5 !== 0 && maxLen > MIN_CLIP_SECONDS && maxLen === Math.floor(duration)) {
    // A source between two steps can still be clipped whole.
    candidates.push({ start: 0, end: duration, score: prefix[n] / n + LENGTH_BONUS * (maxLen - MIN_CLIP_SECONDS) / (MAX_CLIP_SECONDS - MIN_CLIP_SECONDS) });
  }
  candidates.sort((a, b) => b.score - a.score || a.start - b.start);
  const best = candidates[0]?.score ?? 0;
  const chosen: ClipWindow[] = [];
  const overlaps = (w: ClipWindow) => chosen.some((c) => w.start < c.end && c.start < w.end);
  for (const c of candidates) {
    if (chosen.length >= opts.maxClips) break;
    if (c.score < RELATIVE_CUTOFF * best) break;
    if (chosen.length > 0 && c.score - (c.end - c.start - MIN_CLIP_SECONDS) / (MAX_CLIP_SECONDS - MIN_CLIP_SECONDS) * LENGTH_BONUS <= mean) continue;
    if (overlaps(c)) continue;
    const snapped = snapToPauses(c, s.silences, duration);
    chosen.push(overlaps(snapped) ? c : snapped);
  }
  return chosen
    .sort((a, b) => a.start - b.start)
    .map((w) => ({ start: round2(w.start), end: round2(w.end), score: Math.round(w.score * 1000) / 1000 }));
}

/** Moves a window's edges to the nearest pause within {@link SNAP_SECONDS}: the start to where a pause ends, the end to where one starts; the length stays within 15 to 60 s. */
export function snapToPauses(w: ClipWindow, silences: Signals['silences'], duration: number): ClipWindow {
  const nearest = (points: number[], at: number) => {
    let bestPoint: number | null = null;
    for (const p of points) if (Math.abs(p - at) <= SNAP_SECONDS && (bestPoint === null || Math.abs(p - at) < Math.abs(bestPoint - at))) bestPoint = p;
    return bestPoint;
  };
  const startAt = nearest(silences.map(([, e]) => e).filter((e) => e < duration), w.start);
  const endAt = nearest(silences.map(([a]) => a).filter((a) => a > 0), w.end);
  let start = startAt ?? w.start;
  let end = endAt !== null ? Math.min(duration, endAt + 0.2) : w.end;
  if (end - start < MIN_CLIP_SECONDS || end - start > MAX_CLIP_SECONDS) { start = w.start; end = w.end; }
  return { start: Math.max(0, start), end, score: w.score };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
