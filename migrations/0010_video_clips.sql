-- AI video clipping (issue 12; docs/decisions/0028-clip-scoring.md).
-- clip_jobs is the durable job table of the clip pipeline: a worker claims a job with
-- FOR UPDATE SKIP LOCKED and holds it with a lease (locked_until) that its heartbeat
-- extends; a job whose lease ran out (its worker was killed) is claimed again and resumes
-- from the saved analysis and the clips already rendered.
CREATE TABLE clip_jobs (
  id               char(24) PRIMARY KEY,
  tenant_id        char(24) NOT NULL,
  video_url        text NOT NULL,
  video_file_name  text NOT NULL,
  status           text NOT NULL DEFAULT 'processing' CHECK (status IN ('processing', 'completed', 'failed')),
  -- queued | downloading | analysing | rendering | done: where a processing job is.
  stage            text NOT NULL DEFAULT 'queued',
  progress         integer NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  watermark        boolean NOT NULL,
  -- 'free' (free tier) or 'addon' (a credit of the clips add-on): what the job counted against.
  tier             text NOT NULL CHECK (tier IN ('free', 'addon')),
  error            text,
  -- Source facts (seconds, pixels) and the chosen windows, saved as the job goes.
  source           jsonb,
  windows          jsonb,
  attempts         integer NOT NULL DEFAULT 0,
  locked_by        text,
  locked_until     timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  finished_at      timestamptz
);
CREATE INDEX clip_jobs_tenant_idx ON clip_jobs (tenant_id, created_at DESC);
CREATE INDEX clip_jobs_claim_idx ON clip_jobs (created_at) WHERE status = 'processing';

-- One rendered clip. Files live in the media storage under <tenantId>/clips/<jobId>/...;
-- they are deleted after expires_at unless a post uses them.
CREATE TABLE video_clips (
  id               char(24) PRIMARY KEY,
  job_id           char(24) NOT NULL REFERENCES clip_jobs (id) ON DELETE CASCADE,
  tenant_id        char(24) NOT NULL,
  idx              integer NOT NULL,
  start_time       double precision NOT NULL,
  end_time         double precision NOT NULL,
  score            double precision NOT NULL,
  clean_key        text,
  watermark_key    text,
  thumbnail_key    text,
  expires_at       timestamptz NOT NULL,
  -- Set when the files were deleted (expired and not used by a post).
  deleted_at       timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (job_id, idx)
);
CREATE INDEX video_clips_expiry_idx ON video_clips (expires_at) WHERE deleted_at IS NULL;
