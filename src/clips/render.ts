/**
 * Encodes one chosen window to a vertical clip: 9:16 H.264 (yuv420p, High profile) with
 * AAC audio in an MP4 whose index is at the front (`+faststart`, plays before it is fully
 * downloaded), loudness normalised to -14 LUFS integrated / -1.5 dBTP (ffmpeg `loudnorm`,
 * EBU R128), and a JPEG thumbnail from the same pass.
 *
 * A frame wider than 9:16 is shown whole on a blurred, enlarged copy of itself (blurred
 * letterbox); a narrower or equal one is scaled to fill and centre-cropped. Only the window
 * is decoded (input seeking) and encoded.
 */
import { runFfmpeg } from './ffmpeg.ts';

/** Target loudness of clips, LUFS (integrated), as the short-video platforms normalise to about this level. */
export const TARGET_LUFS = -14;

export interface RenderOptions {
  ffmpegPath: string;
  /** Source pixel size as displayed. */
  sourceWidth: number;
  sourceHeight: number;
  /** Output height in pixels (multiple of 16); width is height x 9 / 16. */
  outputHeight: number;
  /** x264 preset. */
  preset: string;
  /** Text drawn over the lower part of the frame, or null for a clean clip. */
  watermark: string | null;
  /** Fraction 0..1 of the clip encoded so far. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** The 9:16 output size for an output height (width rounded down to an even number). */
export function outputSize(outputHeight: number): { width: number; height: number } {
  return { width: Math.floor((outputHeight * 9) / 16 / 2) * 2, height: outputHeight };
}

/** The filter graph for one clip (exported for tests). Inputs `[0:v]`, `[0:a]`; outputs `[vout]`, `[thumb]`, `[aout]`. */
export function clipFilterGraph(opts: Pick<RenderOptions, 'sourceWidth' | 'sourceHeight' | 'outputHeight' | 'watermark'>, thumbAt: number): string {
  const { width: W, height: H } = outputSize(opts.outputHeight);
  const wide = opts.sourceWidth * 16 > opts.sourceHeight * 9 + 16;
  const parts: string[] = [];
  if (wide) {
    const bw = Math.max(2, Math.floor(W / 8) * 2);
    const bh = Math.max(2, Math.floor(H / 8) * 2);
    parts.push(
      '[0:v]split=2[bgsrc][fgsrc]',
      `[bgsrc]scale=${bw}:${bh}:force_original_aspect_ratio=increase:flags=fast_bilinear,crop=${bw}:${bh},boxblur=8:2,scale=${W}:${H}:flags=bilinear[bg]`,
      `[fgsrc]scale=${W}:-2[fg]`,
      '[bg][fg]overlay=(W-w)/2:(H-h)/2:shortest=1,setsar=1[base]',
    );
  } else {
    parts.push(`[0:v]scale=${W}:${H}:force_original_aspect_ratio=increase,crop=${W}:${H},setsar=1[base]`);
  }
  let last = '[base]';
  if (opts.watermark) {
    const size = Math.max(12, Math.round(H / 28));
    const text = opts.watermark.replace(/\\/g, '\\\\\\\\').replace(/'/g, '').replace(/:/g, '\\:').replace(/%/g, '\\\\%');
    parts.push(`${last}drawtext=text='${text}':fontcolor=white:fontsize=${size}:x=(w-tw)/2:y=h-th-${Math.round(H / 12)}:box=1:boxcolor=black@0.55:boxborderw=${Math.round(size / 2)}[marked]`);
    last = '[marked]';
  }
  parts.push(
    `${last}format=yuv420p,split=2[vout][tsrc]`,
    `[tsrc]select='gte(t\\,${thumbAt.toFixed(2)})',scale=${Math.floor(W / 4) * 2}:-2[thumb]`,
    `[0:a]loudnorm=I=${TARGET_LUFS}:TP=-1.5:LRA=11,aresample=48000[aout]`,
  );
  return parts.join(';');
}

/**
 * Renders `[start, end)` of `source` to `outFile` (MP4) and `thumbFile` (JPEG).
 * @throws FfmpegError when ffmpeg fails.
 */
export async function renderClip(source: string, window: { start: number; end: number }, outFile: string, thumbFile: string, opts: RenderOptions): Promise<void> {
  const duration = window.end - window.start;
  const graph = clipFilterGraph(opts, Math.min(1, duration / 2));
  await runFfmpeg([
    '-ss', window.start.toFixed(3), '-t', duration.toFixed(3), '-i', `file:${source}`,
    '-filter_complex', graph,
    '-map', '[vout]', '-map', '[aout]',
    '-c:v', 'libx264', '-preset', opts.preset, '-crf', '23', '-profile:v', 'high', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '128k', '-ac', '2', '-movflags', '+faststart', '-threads', '0', `file:${outFile}`,
    '-map', '[thumb]', '-frames:v', '1', '-update', '1', '-q:v', '4', `file:${thumbFile}`,
  ], {
    ffmpegPath: opts.ffmpegPath, signal: opts.signal,
    onProgress: (s) => opts.onProgress?.(Math.min(1, s / Math.max(duration, 0.001))),
  });
}
