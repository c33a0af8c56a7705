/**
 * AI video clipping (docs/decisions/0028-clip-scoring.md).
 *
 * - `process` checks the source (a Herald media upload of the tenant, or an HTTPS URL read
 *   through the SSRF guard: its first MiB is fetched and probed so refused addresses, dead
 *   links, non-videos and too short or too long videos are answered at once), checks the
 *   month's allowance, and queues a `clip_jobs` row.
 * - `runJob` (the clip worker, src/clips/worker.ts) downloads the source into a work folder,
 *   probes it, analyses it in one ffmpeg pass, scores windows and renders the chosen ones,
 *   saving each step (source facts, signals, windows, every finished clip), so a job taken
 *   over after a crash resumes where the last worker stopped.
 * - `cleanupExpired` deletes the files of clips past their 3 days, unless a post uses them.
 *
 * Allowance per calendar month (UTC): the free tier renders 5 videos with a watermark; the
 * `clips` add-on gives {@link ADDON_CREDITS_PER_MONTH} credits (one per video) and clean clips.
 * Failed jobs do not count.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError, fieldError, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { FetchBlockedError, guardedFetch } from '../../infra/ssrf.ts';
import { probeBytes, probeMedia } from '../../infra/probe.ts';
import { checkFetchUrl } from '../../shared/net/address-policy.ts';
import type { ClipsConfig } from '../../config.ts';
import type { Db, Queryable } from '../../storage/db.ts';
import type { MediaStorage } from '../../storage/media-storage.ts';
import type { AuthContext } from '../auth/context.ts';
import { lockTenant } from '../usage/service.ts';
import { mediaMetadataByUrl } from '../media/lookup.ts';
import { storageKeysInUse } from '../posts/media-usage.ts';
import { analyse } from '../../clips/analyse.ts';
import { maxClipsFor, pickWindows, MIN_CLIP_SECONDS, type ClipWindow } from '../../clips/score.ts';
import { renderClip } from '../../clips/render.ts';
import { FfmpegError } from '../../clips/ffmpeg.ts';
import { clipsRepository as repo, type ClipJobRow, type ClipJobStage, type ClipSource, type VideoClipRow } from './repository.ts';

/** Videos a tenant without the add-on may submit per calendar month (decision 0028: free tier, 5 videos per month, with watermark). */
export const FREE_VIDEOS_PER_MONTH = 5;
/** Credits of the clips add-on per calendar month; one video costs one credit (docs/decisions/0028-clip-scoring.md). */
export const ADDON_CREDITS_PER_MONTH = 50;
/** Clips are deleted this long after they were rendered unless a post uses them (decision 0028: 3 days). */
export const CLIP_TTL_MS = 3 * 24 * 3600_000;
/** A clip a post uses is looked at again after this long (kept while the post exists). */
export const KEPT_RECHECK_MS = 24 * 3600_000;
/** Text drawn on free-tier clips. */
export const WATERMARK_TEXT = 'Made with Herald';
/** A job that failed for a passing reason this often is failed for good. */
export const MAX_ATTEMPTS = 3;
/** Wait before the next attempt after a passing error, times the attempts so far. */
export const RETRY_AFTER_MS = 30_000;

const PREFIX_BYTES = 1024 * 1024;

/** A reason a job cannot succeed (unreadable file, no audio track, too short, refused URL, ...): the job fails with it. */
export class ClipJobFailure extends Error {
  override readonly name = 'ClipJobFailure';
}

/** The job lost its lease (another worker took it over) or the worker is stopping: stop quietly. */
class JobStopped extends Error {}

export interface VideoClipsDeps {
  db: Db;
  storage: MediaStorage;
  clock: () => Date;
  config: ClipsConfig;
  /** Where work folders of running jobs live (`<dataDir>/clips-work`). */
  workRoot: string;
  allowPrivateUrls: boolean;
  /** The tenant's add-ons (users service). */
  addons: (tenantId: string) => Promise<string[]>;
}

/** The last segment of a URL's path (decoded, at most 255 characters), or `video`. */
function fileNameOf(url: string): string {
  try {
    const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return last.slice(0, 255) || 'video';
  } catch {
    return 'video';
  }
}

const monthStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
const nextMonthStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));

export function createVideoClipsService(deps: VideoClipsDeps) {
  const { db, storage, clock, config } = deps;

  async function allowance(tenantId: string, q: Queryable = db) {
    const hasAddon = (await deps.addons(tenantId)).includes('clips');
    const limit = hasAddon ? ADDON_CREDITS_PER_MONTH : FREE_VIDEOS_PER_MONTH;
    const current = await repo.countJobsSince(q, tenantId, monthStart(clock()));
    return { hasAddon, limit, current, remaining: Math.max(0, limit - current) };
  }

  async function clipView(c: VideoClipRow) {
    const [cleanUrl, watermarkUrl, thumbnailUrl] = await Promise.all([
      c.clean_key ? storage.urlFor(c.clean_key) : null,
      c.watermark_key ? storage.urlFor(c.watermark_key) : null,
      c.thumbnail_key ? storage.urlFor(c.thumbnail_key) : null,
    ]);
    return {
      id: c.id,
      index: c.idx,
      url: (cleanUrl ?? watermarkUrl)!,
      duration: Math.round((c.end_time - c.start_time) * 100) / 100,
      start_time: c.start_time,
      end_time: c.end_time,
      watermarkUrl,
      cleanUrl,
      thumbnailUrl,
      score: c.score,
      expiresAt: c.expires_at.toISOString(),
    };
  }

  async function jobView(j: ClipJobRow, clips: VideoClipRow[]) {
    const live = clips.filter((c) => !c.deleted_at);
    return {
      job_id: j.id,
      status: j.status,
      video_file_name: j.video_file_name,
      total_clips: live.length,
      clips: await Promise.all(live.map(clipView)),
      progress: { stage: j.stage, percent: j.progress },
      watermark: j.watermark,
      error: j.error,
      source_duration: j.source?.duration ?? null,
      created_at: j.created_at.toISOString(),
      finished_at: j.finished_at ? j.finished_at.toISOString() : null,
    };
  }

  /** Checks an external source URL: the guard, then its first MiB probed for type and duration. @throws AppError VALIDATION_ERROR on `video_url`. */
  async function preflight(url: string): Promise<void> {
    const checked = checkFetchUrl(url, { allowPrivate: deps.allowPrivateUrls });
    if (!checked.ok) throw fieldError('video_url', checked.message);
    if (checked.url.protocol !== 'https:' && !deps.allowPrivateUrls) throw fieldError('video_url', 'must be an https URL or the URL of a video uploaded to Herald (POST /v1/media)');
    let head: { bytes: Buffer; contentType: string };
    try {
      head = await guardedFetch(url, { maxBytes: PREFIX_BYTES, prefix: true, timeoutMs: 15_000, allowPrivate: deps.allowPrivateUrls });
    } catch (err) {
      if (err instanceof FetchBlockedError) throw fieldError('video_url', err.message);
      throw fieldError('video_url', `could not be read: ${(err as Error).message}`);
    }
    if (/^(text|image|audio)\/|json|xml/.test(head.contentType)) throw fieldError('video_url', `is not a video (${head.contentType})`);
    const md = await probeBytes(head.bytes, 'video/mp4', { ffprobePath: config.ffprobePath, timeoutMs: 15_000 });
    // A file whose index is at its end cannot be probed from its start: its duration is checked after the download.
    if (md.duration !== undefined) checkDuration(md.duration, (m) => fieldError('video_url', m));
  }

  function checkDuration(duration: number, fail: (message: string) => Error): void {
    if (duration < MIN_CLIP_SECONDS) throw fail(`video is too short: ${duration.toFixed(1)} s; clips need at least ${MIN_CLIP_SECONDS} s`);
    if (duration > config.maxDurationSeconds) throw fail(`video is too long: ${Math.round(duration)} s; the limit is ${config.maxDurationSeconds} s`);
  }

  /** @throws AppError PLAN_LIMIT_REACHED (403) with the month's numbers when no video is left. */
  function assertAllowance(a: { hasAddon: boolean; limit: number; current: number }): void {
    if (a.current < a.limit) return;
    const what = a.hasAddon ? `Your AI Clipping add-on gives ${a.limit} credits per month` : `The free tier allows ${a.limit} videos per month`;
    throw new AppError('PLAN_LIMIT_REACHED', `Clip limit reached. ${what}. You have used ${a.current}.`,
      { resource: 'video-clips', currentUsage: a.current, limit: a.limit, window: 'month', resetsAt: nextMonthStart(clock()).toISOString() },
      { limit: a.limit, current: a.current, remaining: 0, hasAddon: a.hasAddon });
  }

  // ---- the job ----

  async function downloadSource(job: ClipJobRow, file: string): Promise<void> {
    const own = await storage.readByUrl(job.video_url, config.maxSourceBytes).catch((err: unknown) => {
      throw new ClipJobFailure(`the uploaded video could not be read: ${(err as Error).message}`);
    });
    let bytes: Buffer;
    if (own) bytes = own.bytes;
    else {
      try {
        bytes = (await guardedFetch(job.video_url, { maxBytes: config.maxSourceBytes, timeoutMs: 30 * 60_000, allowPrivate: deps.allowPrivateUrls })).bytes;
      } catch (err) {
        if (err instanceof FetchBlockedError) throw new ClipJobFailure(err.message);
        throw err;
      }
    }
    await fs.promises.writeFile(`${file}.part`, bytes);
    await fs.promises.rename(`${file}.part`, file);
  }

  async function readSource(file: string): Promise<ClipSource> {
    const md = await probeMedia(file, 'video/mp4', { ffprobePath: config.ffprobePath, timeoutMs: 60_000 });
    if (md.probeError) throw new ClipJobFailure(`unreadable file: ${md.probeError}`);
    if (!md.videoCodec || !md.width || !md.height) throw new ClipJobFailure('unreadable file: no video track');
    if (!md.audioCodec) throw new ClipJobFailure('no audio track: clips are chosen and cut by their sound');
    if (md.duration === undefined) throw new ClipJobFailure('unreadable file: no duration');
    checkDuration(md.duration, (m) => new ClipJobFailure(m));
    return { duration: md.duration, width: md.width, height: md.height };
  }

  /**
   * Runs (or resumes) a claimed job to its end. Saves each step under the worker's lease; returns
   * quietly when the lease is lost or `signal` aborts (the job is then resumed by a later claim).
   */
  async function runJob(job: ClipJobRow, workerId: string, signal: AbortSignal): Promise<'completed' | 'failed' | 'stopped'> {
    const workDir = path.join(deps.workRoot, job.id);
    let lastSaved = 0;
    let saving: Promise<unknown> = Promise.resolve();
    const save = async (p: Parameters<typeof repo.saveProgress>[3]) => {
      if (!(await repo.saveProgress(db, workerId, job.id, p))) throw new JobStopped('lease lost');
    };
    /** Progress from inside ffmpeg callbacks: at most one write a second, never blocking. */
    const progress = (stage: ClipJobStage, percent: number) => {
      if (Date.now() - lastSaved < 1_000) return;
      lastSaved = Date.now();
      saving = saving.then(() => repo.saveProgress(db, workerId, job.id, { stage, progress: Math.floor(percent) })).catch(() => {});
    };
    try {
      await fs.promises.mkdir(workDir, { recursive: true });
      const sourceFile = path.join(workDir, 'source');
      if (!fs.existsSync(sourceFile)) {
        await save({ stage: 'downloading', progress: 1 });
        await downloadSource(job, sourceFile);
      }
      if (signal.aborted) throw new JobStopped('stopping');
      let source = job.source;
      if (!source) {
        source = await readSource(sourceFile);
        await save({ stage: 'analysing', progress: 5, source });
      }
      if (!source.signals) {
        const signals = await analyse(sourceFile, {
          ffmpegPath: config.ffmpegPath, duration: source.duration, workDir, signal,
          onProgress: (f) => progress('analysing', 5 + 35 * f),
        }).catch((err: unknown) => {
          if (err instanceof FfmpegError && err.missing) throw new ClipJobFailure(err.message);
          if (err instanceof FfmpegError && !signal.aborted) throw new ClipJobFailure(`unreadable file: ${err.message}`);
          throw err;
        });
        source = { ...source, signals };
        await saving;
        await save({ stage: 'analysing', progress: 40, source });
      }
      let windows: ClipWindow[] | null = job.windows;
      if (!windows) {
        windows = pickWindows(source.signals!, { maxClips: maxClipsFor(source.duration) });
        if (windows.length === 0) throw new ClipJobFailure(`video is too short: clips need at least ${MIN_CLIP_SECONDS} s`);
        await save({ stage: 'rendering', progress: 40, windows });
      }
      const done = new Set((await repo.clipsOfJobs(db, [job.id])).map((c) => c.idx));
      const total = windows.reduce((s, w) => s + (w.end - w.start), 0);
      let rendered = windows.filter((_, i) => done.has(i + 1)).reduce((s, w) => s + (w.end - w.start), 0);
      for (const [i, w] of windows.entries()) {
        const idx = i + 1;
        if (done.has(idx)) continue;
        if (signal.aborted) throw new JobStopped('stopping');
        const out = path.join(workDir, `clip-${idx}.mp4`);
        const thumb = path.join(workDir, `clip-${idx}.jpg`);
        await renderClip(sourceFile, w, out, thumb, {
          ffmpegPath: config.ffmpegPath, sourceWidth: source.width, sourceHeight: source.height,
          outputHeight: config.outputHeight, preset: config.preset, watermark: job.watermark ? WATERMARK_TEXT : null, signal,
          onProgress: (f) => progress('rendering', 40 + 59 * (rendered + f * (w.end - w.start)) / total),
        });
        const base = `${job.tenant_id}/${job.id}/${randomBytes(16).toString('hex')}`;
        const videoKey = `${base}-clip-${idx}.mp4`;
        const thumbKey = `${base}-clip-${idx}.jpg`;
        await storage.putFile(videoKey, out, 'video/mp4');
        await storage.putFile(thumbKey, thumb, 'image/jpeg');
        await saving;
        await repo.insertClip(db, {
          id: newId(), job_id: job.id, tenant_id: job.tenant_id, idx, start_time: w.start, end_time: w.end, score: w.score,
          clean_key: job.watermark ? null : videoKey, watermark_key: job.watermark ? videoKey : null, thumbnail_key: thumbKey,
          expires_at: new Date(clock().getTime() + CLIP_TTL_MS),
        });
        rendered += w.end - w.start;
        await save({ stage: 'rendering', progress: 40 + 59 * rendered / total });
      }
      await saving;
      await repo.finishJob(db, workerId, job.id, { status: 'completed' });
      await fs.promises.rm(workDir, { recursive: true, force: true });
      return 'completed';
    } catch (err) {
      await saving;
      if (err instanceof JobStopped || signal.aborted) {
        await repo.releaseJob(db, workerId, job.id).catch(() => {});
        return 'stopped';
      }
      const permanent = err instanceof ClipJobFailure || job.attempts >= MAX_ATTEMPTS;
      if (!permanent) {
        // A passing error (network, storage): tried again after 30 s, then 60 s.
        await repo.releaseJob(db, workerId, job.id, RETRY_AFTER_MS * job.attempts);
        throw err;
      }
      await repo.finishJob(db, workerId, job.id, { status: 'failed', error: (err as Error).message.slice(0, 500) });
      await fs.promises.rm(workDir, { recursive: true, force: true });
      return 'failed';
    }
  }

  return {
    /**
     * `POST /v1/video-clips/process`: checks the source and the month's allowance, queues the job.
     * @throws AppError VALIDATION_ERROR (400) naming `video_url`; PLAN_LIMIT_REACHED (403) with the numbers.
     */
    async process(auth: AuthContext, body: { video_url: string; video_file_name?: string }) {
      // Over the limit: answered before the source is fetched (checked again under the tenant's lock below).
      assertAllowance(await allowance(auth.tenantId));
      const url = body.video_url.trim();
      const own = await mediaMetadataByUrl(db, auth.tenantId, url);
      const fileName = body.video_file_name ?? own?.filename ?? fileNameOf(url);
      if (own) {
        if (own.type !== 'video') throw fieldError('video_url', `is a ${own.type}, not a video`);
        if (own.size > config.maxSourceBytes) throw fieldError('video_url', `video is ${own.size} bytes; the limit is ${config.maxSourceBytes}`);
        if (own.metadata.duration !== undefined) checkDuration(own.metadata.duration, (m) => fieldError('video_url', m));
      } else {
        await preflight(url);
      }
      const job = await db.tx(async (client) => {
        await lockTenant(client, auth.tenantId, 'video-clips');
        const a = await allowance(auth.tenantId, client);
        assertAllowance(a);
        return repo.insertJob(client, {
          id: newId(), tenantId: auth.tenantId, videoUrl: url, videoFileName: fileName,
          watermark: !a.hasAddon, tier: a.hasAddon ? 'addon' : 'free',
        });
      });
      return { success: true, job_id: job.id, status: job.status, message: 'Video submitted for processing' };
    },

    /** `GET /v1/video-clips/jobs`: newest first. */
    async list(auth: AuthContext, query: { page?: number; limit?: number }) {
      const page = query.page ?? 1;
      const limit = Math.min(100, query.limit ?? 20);
      const { rows, total } = await repo.listJobs(db, auth.tenantId, limit, (page - 1) * limit);
      const clips = await repo.clipsOfJobs(db, rows.map((r) => r.id));
      return {
        jobs: await Promise.all(rows.map((r) => jobView(r, clips.filter((c) => c.job_id === r.id)))),
        pagination: { page, limit, total, pages: Math.ceil(total / limit) },
      };
    },

    /** `GET /v1/video-clips/status/{jobId}`. @throws AppError NOT_FOUND for an unknown or foreign job. */
    async status(auth: AuthContext, jobId: string) {
      const job = await repo.getJob(db, auth.tenantId, jobId);
      if (!job) throw notFound('Job');
      return jobView(job, await repo.clipsOfJobs(db, [job.id]));
    },

    /** `GET /v1/video-clips/monthly-stats`. */
    async monthlyStats(auth: AuthContext) {
      const a = await allowance(auth.tenantId);
      const canCreate = a.current < a.limit;
      const message = !canCreate
        ? `Monthly limit reached (${a.current} of ${a.limit}); resets ${nextMonthStart(clock()).toISOString().slice(0, 10)}`
        : a.hasAddon ? `AI Clipping add-on (${a.limit} credits per month, no watermark)` : 'Free tier (with watermark)';
      return { current: a.current, limit: a.limit, remaining: a.remaining, canCreate, hasAddon: a.hasAddon, message };
    },

    claimJob: (workerId: string, leaseMs: number) => repo.claimJob(db, workerId, leaseMs),
    extendLeases: (workerId: string, ids: string[], leaseMs: number) => repo.extendLeases(db, workerId, ids, leaseMs),
    runJob,

    /**
     * Deletes the files of clips past their expiry (local disk or S3) unless a post of the tenant
     * uses them; a used clip is looked at again a day later. Returns what it did.
     */
    async cleanupExpired(limit = 200): Promise<{ deleted: number; kept: number }> {
      const now = clock();
      const expired = await repo.expiredClips(db, now, limit);
      let deleted = 0;
      let kept = 0;
      const byTenant = new Map<string, VideoClipRow[]>();
      for (const c of expired) byTenant.set(c.tenant_id, [...(byTenant.get(c.tenant_id) ?? []), c]);
      for (const [tenantId, clips] of byTenant) {
        const keysOf = (c: VideoClipRow) => [c.clean_key, c.watermark_key].filter((k): k is string => !!k);
        const used = await storageKeysInUse(db, tenantId, clips.flatMap(keysOf));
        for (const c of clips) {
          if (keysOf(c).some((k) => used.has(k))) {
            await repo.extendExpiry(db, c.id, new Date(now.getTime() + KEPT_RECHECK_MS));
            kept++;
            continue;
          }
          for (const key of [...keysOf(c), c.thumbnail_key].filter((k): k is string => !!k)) await storage.delete(key);
          await repo.markDeleted(db, c.id, now);
          deleted++;
        }
      }
      return { deleted, kept };
    },
  };
}

export type VideoClipsService = ReturnType<typeof createVideoClipsService>;
