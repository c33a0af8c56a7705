/**
 * AI clipping benchmark: a generated 10-minute 720p30 H.264/AAC video (moving test pattern,
 * noise whose level changes every 30 s, so loud and quiet stretches alternate) goes through
 * the clip pipeline exactly as a clip job runs it (src/clips: ffprobe, one analysis pass,
 * scoring, then one encode per chosen window at the configured preset and output height),
 * without the database and storage steps (a few milliseconds). Prints the time of each step
 * and the total as a ratio to the video's duration; the goal is under 3 minutes (ratio 0.3).
 *
 *   node --import tsx bench/clips.ts [--minutes 10] [--height 720] [--preset veryfast] [--output-height 1280]
 *
 * The generated source is kept in the system's temporary folder and reused by later runs.
 * From another script: `import { runClipsBench, printClipsBench } from './clips.ts'`.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { probeMedia } from '../src/infra/probe.ts';
import { analyse } from '../src/clips/analyse.ts';
import { maxClipsFor, pickWindows, type ClipWindow } from '../src/clips/score.ts';
import { renderClip } from '../src/clips/render.ts';

const run = promisify(execFile);

export interface ClipsBenchOptions {
  /** Source length in minutes (default 10). */
  minutes?: number;
  /** Source height in pixels, 16:9 (default 720). */
  height?: number;
  /** x264 preset of the clips (default veryfast, Herald's default). */
  preset?: string;
  /** Clip height (default 1280, Herald's default). */
  outputHeight?: number;
  /** Renders with the free tier's watermark (default true: the slower case). */
  watermark?: boolean;
  log?: (line: string) => void;
}

export interface ClipsBenchResult {
  sourceSeconds: number;
  probeMs: number;
  analyseMs: number;
  renderMs: number;
  totalMs: number;
  /** Total time over the source's duration. */
  ratio: number;
  windows: ClipWindow[];
}

/** Generates (once) the source video and returns its path. */
async function source(minutes: number, height: number, log: (l: string) => void): Promise<string> {
  const width = Math.round((height * 16) / 9 / 2) * 2;
  const file = path.join(os.tmpdir(), `herald-bench-clips-${minutes}m-${height}p.mp4`);
  if (fs.existsSync(file)) return file;
  log(`generating ${minutes} min ${width}x${height} source (once) at ${file}`);
  const d = minutes * 60;
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=s=${width}x${height}:r=30:d=${d}`,
    '-f', 'lavfi', '-i', `anoisesrc=r=48000:a=0.3:d=${d},volume='if(lt(mod(t\\,90)\\,30)\\,1\\,0.03)':eval=frame,aformat=channel_layouts=stereo`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-g', '60', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k', `${file}.part.mp4`]);
  fs.renameSync(`${file}.part.mp4`, file);
  return file;
}

export async function runClipsBench(opts: ClipsBenchOptions = {}): Promise<ClipsBenchResult> {
  const log = opts.log ?? (() => {});
  const file = await source(opts.minutes ?? 10, opts.height ?? 720, log);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-clips-work-'));
  try {
    const t0 = performance.now();
    const md = await probeMedia(file, 'video/mp4');
    const t1 = performance.now();
    const signals = await analyse(file, { ffmpegPath: 'ffmpeg', duration: md.duration!, workDir: work });
    const windows = pickWindows(signals, { maxClips: maxClipsFor(md.duration!) });
    const t2 = performance.now();
    for (const [i, w] of windows.entries()) {
      await renderClip(file, w, path.join(work, `clip-${i}.mp4`), path.join(work, `clip-${i}.jpg`), {
        ffmpegPath: 'ffmpeg', sourceWidth: md.width!, sourceHeight: md.height!, outputHeight: opts.outputHeight ?? 1280,
        preset: opts.preset ?? 'veryfast', watermark: opts.watermark === false ? null : 'Made with Herald',
      });
    }
    const t3 = performance.now();
    return {
      sourceSeconds: md.duration!, probeMs: t1 - t0, analyseMs: t2 - t1, renderMs: t3 - t2, totalMs: t3 - t0,
      ratio: (t3 - t0) / 1000 / md.duration!, windows,
    };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export function printClipsBench(r: ClipsBenchResult, print: (l: string) => void = console.log): void {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  print(`clips: ${r.sourceSeconds.toFixed(0)} s source -> ${r.windows.length} clips (${r.windows.map((w) => `${w.start}-${w.end}`).join(', ')})`);
  print(`clips: probe ${s(r.probeMs)}, analysis ${s(r.analyseMs)}, render ${s(r.renderMs)}, total ${s(r.totalMs)}`);
  print(`clips: total / video duration = ${r.ratio.toFixed(3)} (goal: 10 min in under 3 min, 0.300)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: {
    minutes: { type: 'string' }, height: { type: 'string' }, preset: { type: 'string' }, 'output-height': { type: 'string' },
  } });
  const r = await runClipsBench({
    minutes: values.minutes ? Number(values.minutes) : undefined, height: values.height ? Number(values.height) : undefined,
    preset: values.preset, outputHeight: values['output-height'] ? Number(values['output-height']) : undefined, log: console.log,
  });
  printClipsBench(r);
}
