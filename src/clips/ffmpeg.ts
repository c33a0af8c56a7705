/**
 * Runs ffmpeg for the clip pipeline: arguments as a list (never a shell), progress read
 * from `-progress pipe:1` (`out_time_us`, microseconds of output written), the last lines
 * of stderr kept for the error message, and a kill (SIGKILL) on abort or time cap.
 */
import { spawn } from 'node:child_process';

/** ffmpeg failed or could not start. `message` ends with ffmpeg's last stderr line (no server paths are added). */
export class FfmpegError extends Error {
  override readonly name = 'FfmpegError';
  constructor(message: string, public readonly stderr: string, /** The executable was not found. */ public readonly missing = false) {
    super(message);
  }
}

export interface RunFfmpegOptions {
  ffmpegPath: string;
  /** Called with the seconds of output written so far (from `-progress`). */
  onProgress?: (seconds: number) => void;
  /** Kills ffmpeg (SIGKILL) when aborted. */
  signal?: AbortSignal;
  /** Time cap, ms (default 2 hours). */
  timeoutMs?: number;
}

/**
 * Runs `ffmpeg -hide_banner -nostdin -y -loglevel error -progress pipe:1 <args>`.
 * @throws FfmpegError on a non-zero exit, a missing executable, abort or the time cap.
 */
export function runFfmpeg(args: string[], opts: RunFfmpegOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(opts.ffmpegPath, ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', '-progress', 'pipe:1', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let out = '';
    let settled = false;
    const finish = (err: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve();
    };
    const onAbort = () => { child.kill('SIGKILL'); finish(new FfmpegError('ffmpeg was stopped', stderr)); };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => { child.kill('SIGKILL'); finish(new FfmpegError('ffmpeg timed out', stderr)); }, opts.timeoutMs ?? 7_200_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const lines = out.split('\n');
      out = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^out_time_us=(\d+)/.exec(line);
        if (m && opts.onProgress) opts.onProgress(Number(m[1]) / 1e6);
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => { stderr = (stderr + chunk).slice(-4_000); });
    child.on('error', (err: NodeJS.ErrnoException) => {
      const missing = err.code === 'ENOENT';
      finish(new FfmpegError(missing ? `ffmpeg not found (${opts.ffmpegPath}); install ffmpeg` : `ffmpeg could not start: ${err.message}`, stderr, missing));
    });
    child.on('close', (code, sig) => {
      if (code === 0) finish(null);
      else {
        const last = stderr.trim().split('\n').pop() ?? '';
        finish(new FfmpegError(`ffmpeg failed (${sig ?? `exit ${code}`})${last ? `: ${last.slice(0, 300)}` : ''}`, stderr));
      }
    });
  });
}
