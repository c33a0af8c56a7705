/**
 * Media metadata read with ffprobe (Debian's ffmpeg package): duration, displayed
 * dimensions and codecs, so that platform rules (YouTube Shorts up to 3 minutes,
 * 9:16 stories, codec requirements) can be checked before publishing.
 *
 * Only files Herald itself staged are probed (a local path, never a user's URL), with
 * a time cap; a missing ffprobe or an unreadable file yields `probeError` instead of
 * failing the upload (the bytes already matched an allowed format).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { metadataFromFfprobe, type FfprobeOutput, type MediaMetadata } from '../shared/media/ffprobe.ts';

export { metadataFromFfprobe, type MediaMetadata };

/**
 * Probes a local file. Documents (PDF) are not probed and give `{}`.
 * Never throws: failures come back as `{ probeError }`.
 * @param file absolute path of a file Herald staged (read through ffprobe's `file:` protocol only)
 * @param mimeType the checked content type (decides what is kept: still images get no duration)
 */
export function probeMedia(file: string, mimeType: string, opts: { ffprobePath?: string; timeoutMs?: number } = {}): Promise<MediaMetadata> {
  if (!mimeType.startsWith('video/') && !mimeType.startsWith('image/')) return Promise.resolve({});
  return new Promise((resolve) => {
    execFile(
      opts.ffprobePath ?? 'ffprobe',
      ['-v', 'error', '-hide_banner', '-print_format', 'json', '-show_format', '-show_streams', `file:${file}`],
      { timeout: opts.timeoutMs ?? 60_000, maxBuffer: 4 * 1024 * 1024, killSignal: 'SIGKILL' },
      (err, stdout, stderr) => {
        if (err) {
          const e = err as NodeJS.ErrnoException & { killed?: boolean };
          const why = e.code === 'ENOENT' ? `ffprobe not found (${opts.ffprobePath ?? 'ffprobe'}); install ffmpeg`
            : e.killed ? 'ffprobe timed out'
              : (String(stderr).trim().split('\n').pop() || e.message).slice(0, 300);
          resolve({ probeError: why });
          return;
        }
        try {
          resolve(metadataFromFfprobe(JSON.parse(stdout) as FfprobeOutput, mimeType));
        } catch (parseErr) {
          resolve({ probeError: `unreadable ffprobe output: ${(parseErr as Error).message}` });
        }
      },
    );
  });
}

/**
 * Probes bytes already in memory (media fetched for publishing that has no stored metadata):
 * they are written to a private temporary file, probed, and the file removed.
 */
export async function probeBytes(bytes: Buffer, mimeType: string, opts: { ffprobePath?: string; timeoutMs?: number } = {}): Promise<MediaMetadata> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-probe-'));
  const file = path.join(dir, 'media');
  try {
    fs.writeFileSync(file, bytes);
    return await probeMedia(file, mimeType, opts);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
