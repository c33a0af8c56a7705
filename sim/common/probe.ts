/**
 * Video facts the simulators read from uploaded bytes with ffprobe (YouTube: duration and
 * displayed shape for Shorts; TikTok: duration against the creator's maximum). The simulators run ffprobe themselves,
 * `ffprobe -v error -print_format json -show_format -show_streams <file>` on a temporary
 * copy of the bytes, and read its output with the shared pure parser
 * (src/shared/media/ffprobe.ts), so they do not depend on Herald's media module.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { metadataFromFfprobe, type FfprobeOutput } from '../../src/shared/media/ffprobe.ts';
import { mp4DurationSeconds } from './media-info.ts';

/** Runs `fn` on a temporary file holding `bytes`; the file is removed afterwards. */
export async function withTempFile<T>(bytes: Buffer, prefix: string, name: string, fn: (file: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  try {
    const file = path.join(dir, name);
    await fs.writeFile(file, bytes);
    return await fn(file);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Runs ffprobe on `file`; its output, or null when it failed. */
export function ffprobe(file: string, args: string[], o: { path?: string; timeoutMs?: number } = {}): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(o.path ?? 'ffprobe', ['-v', 'error', ...args, file], { timeout: o.timeoutMs ?? 60_000, maxBuffer: 4 * 1024 * 1024, killSignal: 'SIGKILL' }, (err, stdout) => resolve(err ? null : stdout));
  });
}

/**
 * Duration in seconds (null when unreadable) and displayed size of a video (after the
 * rotation in its side data or tags). Never throws.
 */
export async function probeVideo(bytes: Buffer, ffprobePath?: string): Promise<{ duration: number | null; width?: number; height?: number }> {
  const out = await withTempFile(bytes, 'yt-sim-', 'v', (file) => ffprobe(file, ['-print_format', 'json', '-show_format', '-show_streams'], { path: ffprobePath }));
  let parsed: FfprobeOutput;
  try {
    parsed = JSON.parse(out ?? '') as FfprobeOutput;
  } catch {
    // No ffprobe (or unreadable output): the MP4 movie header still gives the duration, not the shape.
    return { duration: mp4DurationSeconds(bytes) };
  }
  const md = metadataFromFfprobe(parsed, 'video/mp4');
  return { duration: md.duration ?? null, width: md.width, height: md.height };
}
