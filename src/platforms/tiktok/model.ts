/**
 * The shapes shared by the TikTok adapter's files: its options, the prepared value handed from
 * `prepare` to `commit`/`verify`, the publish status answer, and the API call the publish
 * helpers are given by the adapter.
 */
import type { PlatformApp } from '../oauth.ts';

/**
 * Tunables. CONFLICT: sources give different values; UNCONFIRMED: only third-party media
 * guides state it, TikTok's own pages do not
 * (https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info).
 */
export interface TikTokOptions {
  /** Video upload source when the post does not say (`platformSpecificData.videoSource`). Default FILE_UPLOAD. */
  videoSource?: 'FILE_UPLOAD' | 'PULL_FROM_URL';
  /** Preferred chunk size for FILE_UPLOAD, bytes (clamped to 5-64 MB and to the file's size; upload.ts chunkPlan). Default 10 MB. */
  chunkBytes?: number;
  /** Files below this are sent in one chunk (TikTok: 5 MB). */
  minChunkBytes?: number;
  /** Largest video, bytes. **CONFLICT** (4 GB, 1 GB or 10 GB by source). Default 4 GB. */
  maxVideoBytes?: number;
  /** Refuse PNG photos (the photo endpoint takes JPEG/WEBP per third-party sources, UNCONFIRMED). Default true. */
  rejectPngPhotos?: boolean;
  /** Send content_preview_confirmed / express_consent_given in post_info when given (UNCONFIRMED API fields). Default true. */
  passConsentFlags?: boolean;
  /** First interval between status polls, ms (doubles up to pollMaxIntervalMs). Default 1,000. */
  pollIntervalMs?: number;
  pollMaxIntervalMs?: number;
  /** Give up polling after this long, ms (then verify resumes later). Default 5 minutes. */
  pollTimeoutMs?: number;
  /** Extra polls after PUBLISH_COMPLETE waiting for `publicaly_available_post_id` (appears after moderation). Default 3. */
  postIdPolls?: number;
}

export interface TikTokPrepared {
  preparedAt: string;
  kind: 'video' | 'photo';
  draft: boolean;
  source: 'FILE_UPLOAD' | 'PULL_FROM_URL';
  /** Init endpoint and body (the body is sent as is by `commit` for pull posts). */
  initPath: string;
  initBody: Record<string, unknown>;
  caption: string;
  privacyLevel: string;
  /** FILE_UPLOAD: the publish started in prepare, and the last chunk left for commit. */
  publishId?: string;
  uploadUrl?: string;
  videoSize?: number;
  chunkSize?: number;
  chunkCount?: number;
  mediaUrl?: string;
}

/** The answer of `status/fetch` (the fields Herald reads). */
export interface StatusAnswer {
  status?: string; fail_reason?: string; publicaly_available_post_id?: Array<string | number>; uploaded_bytes?: number; downloaded_bytes?: number;
}

/** A call with a fresh access token of one account, and the app (API base URL) it runs against. */
export type TikTokCall = <T>(fn: (token: string, app: PlatformApp) => Promise<T>) => Promise<T>;
