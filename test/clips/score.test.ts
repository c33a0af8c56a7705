/**
 * Window scoring on hand-made signals (src/clips/score.ts): the densest stretch wins, windows
 * never overlap, a much weaker stretch is left out, edges move to nearby pauses, and a source
 * under 15 s gives no window. The metadata reader is checked on ffmpeg's print format.
 */
import { describe, expect, it } from 'vitest';
import { reduceSignals, type Signals } from '../../src/clips/analyse.ts';
import { pickWindows, snapToPauses } from '../../src/clips/score.ts';

/** Signals of `n` seconds: quiet and still except the given loud, busy stretches [from, to). */
function signals(n: number, busy: Array<[number, number, number?]>, silences: Signals['silences'] = []): Signals {
  const loudness = new Array<number>(n).fill(-45);
  const motion = new Array<number>(n).fill(0.5);
  for (const [from, to, level = 1] of busy) {
    for (let i = from; i < to; i++) { loudness[i] = -45 + 30 * level; motion[i] = 0.5 + 20 * level; }
  }
  return { duration: n, loudness, motion, cuts: new Array<number>(n).fill(0), silences };
}

describe('pickWindows', () => {
  it('takes the loud, busy stretches, strongest first, without overlap, in source order', () => {
    const w = pickWindows(signals(600, [[100, 130], [400, 445, 0.9]]), { maxClips: 3 });
    expect(w.map(({ start, end }) => [start, end])).toEqual([[100, 130], [400, 445]]);
    expect(w[0].score).toBeGreaterThan(w[1].score);
  });

  it('leaves out a stretch far weaker than the best one', () => {
    const w = pickWindows(signals(600, [[100, 130], [400, 430, 0.2]]), { maxClips: 3 });
    expect(w.map(({ start, end }) => [start, end])).toEqual([[100, 130]]);
  });

  it('keeps windows between 15 and 60 s', () => {
    for (const w of pickWindows(signals(900, [[100, 300], [500, 505]]), { maxClips: 5 })) {
      expect(w.end - w.start).toBeGreaterThanOrEqual(15);
      expect(w.end - w.start).toBeLessThanOrEqual(60);
    }
  });

  it('gives no window for a source under 15 s', () => {
    expect(pickWindows(signals(14, [[0, 14]]), { maxClips: 1 })).toEqual([]);
  });
});

describe('snapToPauses', () => {
  it('starts where a nearby pause ends and ends just after one starts', () => {
    expect(snapToPauses({ start: 40, end: 70, score: 1 }, [[30, 38.5], [71.2, 75]], 100)).toEqual({ start: 38.5, end: 71.4, score: 1 });
  });
  it('leaves edges without a pause within 3 s alone', () => {
    expect(snapToPauses({ start: 40, end: 70, score: 1 }, [[10, 20], [80, 90]], 100)).toEqual({ start: 40, end: 70, score: 1 });
  });
});

describe('reduceSignals', () => {
  it('reads ffmpeg metadata prints into per-second series and pauses', () => {
    const video = [
      'frame:0    pts:0       pts_time:0', 'lavfi.scd.score=0', 'lavfi.signalstats.YDIF=0',
      'frame:1    pts:1       pts_time:1.2', 'lavfi.scd.score=40', 'lavfi.scd.time=1.2', 'lavfi.signalstats.YDIF=12',
      'frame:2    pts:2       pts_time:1.4', 'lavfi.scd.score=1', 'lavfi.signalstats.YDIF=4',
    ].join('\n');
    const audio = [
      'frame:0    pts:0       pts_time:0', 'lavfi.r128.M=-120.7', 'lavfi.silence_start=0',
      'frame:1    pts:1600    pts_time:1.1', 'lavfi.r128.M=-20', 'lavfi.silence_end=1.05', 'lavfi.silence_duration=1.05',
      'frame:2    pts:3200    pts_time:2.5', 'lavfi.r128.M=-20', 'lavfi.silence_start=2.6',
    ].join('\n');
    expect(reduceSignals(video, audio, 3)).toEqual({
      duration: 3, loudness: [-70, -20, -20], motion: [0, 8, 0], cuts: [0, 1, 0], silences: [[0, 1.05], [2.6, 3]],
    });
  });
});
