/**
 * The clip tables (migrations/0010_video_clips.sql): `clip_jobs`, the durable job table of
 * the clip pipeline, and `video_clips`, one row per rendered clip. Only this file reads or
 * writes them.
 */
import type { Queryable } from '../../storage/db.ts';
import type { ClipWindow } from '../../clips/score.ts';
import type { Signals } from '../../clips/analyse.ts';

export type ClipJobStatus = 'processing' | 'completed' | 'failed';
export type ClipJobStage = 'queued' | 'downloading' | 'analysing' | 'rendering' | 'done';

/** Source facts saved once the source is read: seconds, displayed pixels, and the analysis. */
export interface ClipSource {
  duration: number;
  width: number;
  height: number;
  signals?: Signals;
}

export interface ClipJobRow {
  id: string;
  tenant_id: string;
  video_url: string;
  video_file_name: string;
  status: ClipJobStatus;
  stage: ClipJobStage;
  progress: number;
  watermark: boolean;
  tier: 'free' | 'addon';
  error: string | null;
  source: ClipSource | null;
  windows: ClipWindow[] | null;
  attempts: number;
  locked_by: string | null;
  locked_until: Date | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

export interface VideoClipRow {
  id: string;
  job_id: string;
  tenant_id: string;
  idx: number;
  start_time: number;
  end_time: number;
  score: number;
  clean_key: string | null;
  watermark_key: string | null;
  thumbnail_key: string | null;
  expires_at: Date;
  deleted_at: Date | null;
  created_at: Date;
}

/** SQL of the clip tables; every function takes the connection or transaction to run on. */
export const clipsRepository = {
  async insertJob(q: Queryable, j: { id: string; tenantId: string; videoUrl: string; videoFileName: string; watermark: boolean; tier: 'free' | 'addon' }): Promise<ClipJobRow> {
    const { rows } = await q.query<ClipJobRow>(
      `INSERT INTO clip_jobs (id, tenant_id, video_url, video_file_name, watermark, tier) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [j.id, j.tenantId, j.videoUrl, j.videoFileName, j.watermark, j.tier]);
    return rows[0];
  },

  /** Jobs of a tenant that count against a month's allowance since `since` (failed jobs do not count). */
  async countJobsSince(q: Queryable, tenantId: string, since: Date): Promise<number> {
    const { rows } = await q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM clip_jobs WHERE tenant_id = $1 AND created_at >= $2 AND status <> 'failed'`, [tenantId, since]);
    return rows[0].n;
  },

  async getJob(q: Queryable, tenantId: string, id: string): Promise<ClipJobRow | null> {
    const { rows } = await q.query<ClipJobRow>('SELECT * FROM clip_jobs WHERE id = $1 AND tenant_id = $2', [id, tenantId]);
    return rows[0] ?? null;
  },

  async listJobs(q: Queryable, tenantId: string, limit: number, offset: number): Promise<{ rows: ClipJobRow[]; total: number }> {
    const [{ rows }, { rows: count }] = await Promise.all([
      q.query<ClipJobRow>('SELECT * FROM clip_jobs WHERE tenant_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3', [tenantId, limit, offset]),
      q.query<{ n: number }>('SELECT count(*)::int AS n FROM clip_jobs WHERE tenant_id = $1', [tenantId]),
    ]);
    return { rows, total: count[0].n };
  },

  async clipsOfJobs(q: Queryable, jobIds: string[]): Promise<VideoClipRow[]> {
    if (jobIds.length === 0) return [];
    const { rows } = await q.query<VideoClipRow>('SELECT * FROM video_clips WHERE job_id = ANY($1::char(24)[]) ORDER BY job_id, idx', [jobIds]);
    return rows;
  },

  async getClip(q: Queryable, tenantId: string, id: string): Promise<VideoClipRow | null> {
    const { rows } = await q.query<VideoClipRow>('SELECT * FROM video_clips WHERE id = $1 AND tenant_id = $2', [id, tenantId]);
    return rows[0] ?? null;
  },

  /**
   * Claims the oldest processing job whose lease is free or ran out (its worker stopped or was
   * killed), taking a lease of `leaseMs`. Concurrent workers skip each other's rows.
   */
  async claimJob(q: Queryable, workerId: string, leaseMs: number): Promise<ClipJobRow | null> {
    const { rows } = await q.query<ClipJobRow>(
      `UPDATE clip_jobs SET locked_by = $1, locked_until = now() + make_interval(secs => $2), attempts = attempts + 1, updated_at = now()
        WHERE id = (
          SELECT id FROM clip_jobs
           WHERE status = 'processing' AND (locked_until IS NULL OR locked_until < now())
           ORDER BY created_at, id
           FOR UPDATE SKIP LOCKED
           LIMIT 1)
       RETURNING *`, [workerId, leaseMs / 1000]);
    return rows[0] ?? null;
  },

  /** Extends the leases of the jobs `workerId` holds. */
  async extendLeases(q: Queryable, workerId: string, ids: string[], leaseMs: number): Promise<void> {
    if (ids.length === 0) return;
    await q.query(`UPDATE clip_jobs SET locked_until = now() + make_interval(secs => $3) WHERE locked_by = $1 AND id = ANY($2::char(24)[]) AND status = 'processing'`,
      [workerId, ids, leaseMs / 1000]);
  },

  /**
   * Releases a job's lease (a worker stopping before finishing, or a passing error): another
   * claim resumes it, at once or after `retryAfterMs`.
   */
  async releaseJob(q: Queryable, workerId: string, id: string, retryAfterMs = 0): Promise<void> {
    await q.query(
      `UPDATE clip_jobs SET locked_by = NULL, locked_until = CASE WHEN $3 > 0 THEN now() + make_interval(secs => $3) END WHERE id = $1 AND locked_by = $2`,
      [id, workerId, retryAfterMs / 1000]);
  },

  /** Saves progress of a job this worker holds. False when the lease was lost (another worker has the job). */
  async saveProgress(q: Queryable, workerId: string, id: string, p: { stage?: ClipJobStage; progress?: number; source?: ClipSource; windows?: ClipWindow[] }): Promise<boolean> {
    const { rowCount } = await q.query(
      `UPDATE clip_jobs SET stage = COALESCE($3, stage), progress = GREATEST(progress, COALESCE($4, progress)),
              source = COALESCE($5::jsonb, source), windows = COALESCE($6::jsonb, windows), updated_at = now()
        WHERE id = $1 AND locked_by = $2 AND status = 'processing'`,
      [id, workerId, p.stage ?? null, p.progress === undefined ? null : Math.min(100, Math.max(0, Math.floor(p.progress))), p.source ? JSON.stringify(p.source) : null, p.windows ? JSON.stringify(p.windows) : null]);
    return (rowCount ?? 0) > 0;
  },

  async finishJob(q: Queryable, workerId: string, id: string, result: { status: 'completed' } | { status: 'failed'; error: string }): Promise<void> {
    await q.query(
      `UPDATE clip_jobs SET status = $3, stage = 'done', progress = CASE WHEN $3 = 'completed' THEN 100 ELSE progress END, error = $4,
              locked_by = NULL, locked_until = NULL, finished_at = now(), updated_at = now()
        WHERE id = $1 AND locked_by = $2 AND status = 'processing'`,
      [id, workerId, result.status, result.status === 'failed' ? result.error : null]);
  },

  async insertClip(q: Queryable, c: Omit<VideoClipRow, 'created_at' | 'deleted_at'>): Promise<void> {
    await q.query(
      `INSERT INTO video_clips (id, job_id, tenant_id, idx, start_time, end_time, score, clean_key, watermark_key, thumbnail_key, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (job_id, idx) DO NOTHING`,
      [c.id, c.job_id, c.tenant_id, c.idx, c.start_time, c.end_time, c.score, c.clean_key, c.watermark_key, c.thumbnail_key, c.expires_at]);
  },

  /** Clips whose files are past their expiry and not yet deleted, oldest first. */
  async expiredClips(q: Queryable, now: Date, limit: number): Promise<VideoClipRow[]> {
    const { rows } = await q.query<VideoClipRow>(
      'SELECT * FROM video_clips WHERE deleted_at IS NULL AND expires_at <= $1 ORDER BY expires_at LIMIT $2', [now, limit]);
    return rows;
  },

  /** Moves a clip's expiry (a clip a post uses is looked at again then). */
  async extendExpiry(q: Queryable, id: string, until: Date): Promise<void> {
    await q.query('UPDATE video_clips SET expires_at = $2 WHERE id = $1', [id, until]);
  },

  async markDeleted(q: Queryable, id: string, now: Date): Promise<void> {
    await q.query('UPDATE video_clips SET deleted_at = $2 WHERE id = $1', [id, now]);
  },
};
