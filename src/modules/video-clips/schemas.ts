/**
 * Request and response schemas of the video clip routes (TypeBox), in the field names of
 * Late's AI Video Clipping docs (snake_case job fields, camelCase clip URLs).
 */
import { Type } from 'typebox';
import { Timestamp, NullableTimestamp, Pagination } from '../../route-kit/schemas.ts';

export const ProcessBody = Type.Object({
  video_url: Type.String({ minLength: 1, maxLength: 2048, description: 'HTTPS URL of the video, or the URL of a video uploaded to Herald (POST /v1/media)' }),
  video_file_name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Name shown for the job (default: the last part of the URL path)' })),
});

export const ProcessResponse = Type.Object({
  success: Type.Boolean(),
  job_id: Type.String(),
  status: Type.String({ description: '`processing`' }),
  message: Type.String(),
});

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const ClipView = Type.Object({
  id: Type.String({ description: 'Clip id' }),
  index: Type.Integer({ description: '1-based, in source order' }),
  url: Type.String({ description: 'The clip to use: the clean file with the add-on, else the watermarked one' }),
  duration: Type.Number({ description: 'Seconds' }),
  start_time: Type.Number({ description: 'Seconds into the source' }),
  end_time: Type.Number({ description: 'Seconds into the source' }),
  watermarkUrl: NullableString,
  cleanUrl: NullableString,
  thumbnailUrl: NullableString,
  score: Type.Number({ description: 'Highlight score, 0 to about 1' }),
  expiresAt: Timestamp('Files are deleted after this unless a post uses the clip'),
});

export const JobView = Type.Object({
  job_id: Type.String(),
  status: Type.Union([Type.Literal('processing'), Type.Literal('completed'), Type.Literal('failed')]),
  video_file_name: Type.String(),
  total_clips: Type.Integer(),
  clips: Type.Array(ClipView),
  progress: Type.Object({
    stage: Type.String({ description: 'queued, downloading, analysing, rendering or done' }),
    percent: Type.Integer({ minimum: 0, maximum: 100 }),
  }),
  watermark: Type.Boolean({ description: 'Whether the clips carry the free tier watermark' }),
  error: NullableString,
  source_duration: Type.Union([Type.Number(), Type.Null()]),
  created_at: Timestamp(),
  finished_at: NullableTimestamp(),
});

export const ListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, default: 20, description: 'Page size, default 20, at most 100 (larger values are clamped)' })),
});

export const ListResponse = Type.Object({ jobs: Type.Array(JobView), pagination: Pagination });

export const MonthlyStats = Type.Object({
  current: Type.Integer({ description: 'Videos submitted this calendar month (UTC); failed jobs do not count' }),
  limit: Type.Integer(),
  remaining: Type.Integer(),
  canCreate: Type.Boolean(),
  hasAddon: Type.Boolean(),
  message: Type.String(),
});
