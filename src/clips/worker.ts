/**
 * The clip worker: runs AI clipping jobs inside the worker role, beside publishing.
 * Jobs live in `clip_jobs` (the same durable-job idea as publishing, docs/decisions/0001):
 * a job is claimed with FOR UPDATE SKIP LOCKED under a lease of `staleMs` that this
 * worker's heartbeat extends every `staleMs / 3`; when the process dies (kill -9) the lease
 * runs out and the next claim, here or in another worker, resumes the job from its saved
 * steps. At most `concurrency` jobs run at once (default 1: each one uses every core).
 * Every `cleanupMs` it also deletes expired clips.
 */
import type { VideoClipsService } from '../modules/video-clips/service.ts';

export interface ClipWorkerOptions {
  clips: VideoClipsService;
  /** Identifies this process in `clip_jobs.locked_by`. */
  workerId: string;
  concurrency: number;
  /** Lease of a claimed job, ms; a killed worker's job is taken over after it. */
  staleMs: number;
  /** Longest sleep between claims when idle, ms. */
  pollMs?: number;
  /** Time between expired-clip cleanups, ms (default 10 minutes). */
  cleanupMs?: number;
  log?: { info(o: object, m?: string): void; error(o: object, m?: string): void };
}

export interface ClipWorker {
  /** Stops claiming, stops running ffmpeg and releases the running jobs (another worker resumes them). */
  stop(): Promise<void>;
}

/** Starts the claim loop; with `concurrency` 0 only the cleanup runs. */
export function startClipWorker(opts: ClipWorkerOptions): ClipWorker {
  const pollMs = opts.pollMs ?? 1_000;
  const running = new Map<string, Promise<void>>();
  const abort = new AbortController();
  let stopping = false;
  let wake: (() => void) | null = null;

  const heartbeat = setInterval(() => {
    opts.clips.extendLeases(opts.workerId, [...running.keys()], opts.staleMs).catch((err) => opts.log?.error({ err }, 'clip lease extension failed'));
  }, Math.max(200, Math.floor(opts.staleMs / 3)));
  heartbeat.unref();

  const cleanup = () => opts.clips.cleanupExpired().then((r) => {
    if (r.deleted || r.kept) opts.log?.info(r, 'expired clips cleaned up');
  }).catch((err) => opts.log?.error({ err }, 'clip cleanup failed'));
  const cleanupTimer = setInterval(cleanup, opts.cleanupMs ?? 10 * 60_000);
  cleanupTimer.unref();
  void cleanup();

  const loop = (async () => {
    while (!stopping) {
      try {
        if (running.size < opts.concurrency) {
          const job = await opts.clips.claimJob(opts.workerId, opts.staleMs);
          if (job) {
            opts.log?.info({ jobId: job.id, attempt: job.attempts }, 'clip job claimed');
            const p = opts.clips.runJob(job, opts.workerId, abort.signal)
              .then((outcome) => opts.log?.info({ jobId: job.id, outcome }, 'clip job ended'))
              .catch((err) => opts.log?.error({ err, jobId: job.id }, 'clip job interrupted; it will be retried'))
              .finally(() => { running.delete(job.id); const w = wake; wake = null; w?.(); });
            running.set(job.id, p);
            continue;
          }
        }
        await new Promise<void>((resolve) => { wake = resolve; setTimeout(resolve, pollMs).unref(); });
      } catch (err) {
        opts.log?.error({ err }, 'clip worker loop error');
        await new Promise((r) => setTimeout(r, pollMs).unref());
      }
    }
  })();

  return {
    async stop() {
      stopping = true;
      const w = wake; wake = null; w?.();
      await loop;
      abort.abort();
      await Promise.allSettled(running.values());
      clearInterval(heartbeat);
      clearInterval(cleanupTimer);
    },
  };
}
