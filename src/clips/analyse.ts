/**
 * One decode pass over the source that measures everything the scoring needs
 * (docs/decisions/0028-clip-scoring.md):
 *
 * - video, thinned to 5 frames/s and shrunk to 96x54 grey before any filter runs:
 *   `scdet` (scene-change score and detected cuts) and `signalstats` (`YDIF`, the mean
 *   absolute luma difference to the previous frame: motion);
 * - audio, mono at 16 kHz in 100 ms blocks: `ebur128` momentary loudness (EBU R128 `M`,
 *   LUFS) and `silencedetect` (pauses, where clips are cut).
 *
 * The per-frame values are written by `metadata`/`ametadata` print to two text files and
 * reduced here to one value per second, so the result is small enough to save with the job.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runFfmpeg } from './ffmpeg.ts';

/** Silence below this level for at least {@link SILENCE_MIN_SECONDS} is a pause. */
export const SILENCE_THRESHOLD_DB = -40;
export const SILENCE_MIN_SECONDS = 0.4;
/** scdet threshold (0-100): a frame whose scene score passes it is a cut. */
export const SCENE_THRESHOLD = 10;
/** Floor of the loudness series, LUFS (ebur128 reports about -120 for digital silence). */
export const LOUDNESS_FLOOR = -70;

/** What the analysis measured, one entry per second of the source (index i covers [i, i+1)). */
export interface Signals {
  /** Seconds of the source. */
  duration: number;
  /** Momentary loudness (EBU R128 M, 400 ms window), energy-averaged over the second, LUFS, floored at -70. */
  loudness: number[];
  /** Mean luma difference between consecutive sampled frames (0-255 scale). */
  motion: number[];
  /** Scene cuts detected in the second. */
  cuts: number[];
  /** Pauses: [start, end] in seconds, sorted. */
  silences: Array<[number, number]>;
}

export interface AnalyseOptions {
  ffmpegPath: string;
  /** Source duration, seconds (from ffprobe). */
  duration: number;
  /** Scratch folder for the two metadata files. */
  workDir: string;
  /** Fraction 0..1 of the source read so far. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * Measures `file` in one ffmpeg pass. The source must have a video and an audio stream.
 * @throws FfmpegError when ffmpeg cannot read the file.
 */
export async function analyse(file: string, opts: AnalyseOptions): Promise<Signals> {
  const vFile = path.join(opts.workDir, 'analysis-video.txt');
  const aFile = path.join(opts.workDir, 'analysis-audio.txt');
  // ffmpeg filter arguments escape ':' and '\' in paths; the work directory is Herald's own.
  const esc = (p: string) => p.replace(/\\/g, '\\\\').replace(/:/g, '\\:').replace(/'/g, "\\'");
  const graph = [
    `[0:v]fps=5,scale=96:54:flags=fast_bilinear,format=gray,scdet=t=${SCENE_THRESHOLD},signalstats,metadata=mode=print:file='${esc(vFile)}'[v]`,
    `[0:a]aresample=16000,aformat=sample_fmts=fltp:channel_layouts=mono,asetnsamples=n=1600:p=0,ebur128=metadata=1,` +
      `silencedetect=n=${SILENCE_THRESHOLD_DB}dB:d=${SILENCE_MIN_SECONDS},ametadata=mode=print:file='${esc(aFile)}'[a]`,
  ].join(';');
  await runFfmpeg([
    // Frames nothing else refers to (most B-frames) are not decoded: the analysis samples 5 frames/s anyway.
    '-skip_frame:v', 'noref', '-threads', '0', '-i', `file:${file}`,
    '-filter_complex', graph, '-map', '[v]', '-map', '[a]', '-f', 'null', '-',
  ], {
    ffmpegPath: opts.ffmpegPath, signal: opts.signal,
    onProgress: (s) => opts.onProgress?.(Math.min(1, s / Math.max(opts.duration, 0.001))),
  });
  const [vText, aText] = await Promise.all([fs.promises.readFile(vFile, 'utf8'), fs.promises.readFile(aFile, 'utf8')]);
  return reduceSignals(vText, aText, opts.duration);
}

/** Reads ffmpeg's `metadata=mode=print` output: one entry per frame with its time and keys. Pure; exported for tests. */
export function parseMetadataPrint(text: string): Array<{ t: number; values: Record<string, string> }> {
  const frames: Array<{ t: number; values: Record<string, string> }> = [];
  let cur: { t: number; values: Record<string, string> } | null = null;
  for (const line of text.split('\n')) {
    const head = /^frame:\d+\s+pts:\S+\s+pts_time:(\S+)/.exec(line);
    if (head) {
      cur = { t: Number(head[1]), values: {} };
      frames.push(cur);
      continue;
    }
    const eq = line.indexOf('=');
    if (cur && eq > 0) cur.values[line.slice(0, eq)] = line.slice(eq + 1).trim();
  }
  return frames;
}

/** Reduces the two metadata prints to per-second series. Pure; exported for tests. */
export function reduceSignals(videoText: string, audioText: string, duration: number): Signals {
  const n = Math.max(1, Math.ceil(duration));
  const energy = new Array<number>(n).fill(0);
  const energyCount = new Array<number>(n).fill(0);
  const motion = new Array<number>(n).fill(0);
  const motionCount = new Array<number>(n).fill(0);
  const cuts = new Array<number>(n).fill(0);
  const sec = (t: number) => Math.min(n - 1, Math.max(0, Math.floor(t)));

  for (const f of parseMetadataPrint(videoText)) {
    if (!Number.isFinite(f.t)) continue;
    const i = sec(f.t);
    const ydif = Number(f.values['lavfi.signalstats.YDIF']);
    if (Number.isFinite(ydif)) { motion[i] += ydif; motionCount[i]++; }
    if (f.values['lavfi.scd.time'] !== undefined && f.t > 0) cuts[i]++;
  }
  const silences: Array<[number, number]> = [];
  let open: number | null = null;
  for (const f of parseMetadataPrint(audioText)) {
    if (!Number.isFinite(f.t)) continue;
    const m = Number(f.values['lavfi.r128.M']);
    if (Number.isFinite(m)) {
      const i = sec(f.t);
      energy[i] += 10 ** (Math.max(m, LOUDNESS_FLOOR) / 10);
      energyCount[i]++;
    }
    const start = f.values['lavfi.silence_start'];
    const end = f.values['lavfi.silence_end'];
    if (start !== undefined && Number.isFinite(Number(start))) open = Math.max(0, Number(start));
    if (end !== undefined && Number.isFinite(Number(end))) {
      silences.push([open ?? 0, Number(end)]);
      open = null;
    }
  }
  if (open !== null) silences.push([open, duration]);
  return {
    duration,
    loudness: energy.map((e, i) => (energyCount[i] ? round(10 * Math.log10(e / energyCount[i])) : LOUDNESS_FLOOR)),
    motion: motion.map((m, i) => (motionCount[i] ? round(m / motionCount[i]) : 0)),
    cuts,
    silences: silences.map(([a, b]) => [round(a), round(b)] as [number, number]),
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
