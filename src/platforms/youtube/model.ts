/**
 * The shapes shared by the YouTube adapter's files: its options, the prepared value handed from
 * `prepare` to `commit`/`verify`, the video resource YouTube answers, and the API access the
 * upload and publish helpers are given by the adapter.
 */

/** Chunks must be multiples of 256 KiB (except the last). */
export const RESUMABLE_GRANULARITY = 256 * 1024;

export interface YouTubeOptions {
  /** Bytes per PUT, a multiple of 256 KiB. Default 8 MiB. */
  chunkBytes?: number;
  /** Thumbnail size cap in bytes. Default {@link YOUTUBE_THUMBNAIL_MAX_BYTES} (2 MB; CONFLICT: https://developers.google.com/youtube/v3/docs/thumbnails/set says 2 MB, the newer reference pages 50 MB). */
  thumbnailMaxBytes?: number;
  /** Shorts threshold in seconds. Default 180. */
  shortMaxSeconds?: number;
  /** Default `snippet.categoryId` (22 = People & Blogs); platformSpecificData.categoryId overrides. */
  categoryId?: string;
  /** Consecutive failed chunk PUTs resumed before giving up (transient). Default 5. */
  maxResumes?: number;
  /** Largest video fetched for upload. Default 256 GB. */
  maxVideoBytes?: number;
}

export interface YouTubePrepared {
  preparedAt: string;
  sessionUri: string;
  totalBytes: number;
  /** Bytes before this offset were sent in prepare; commit sends the rest. */
  finalFrom: number;
  videoUrl: string;
  title: string;
  privacyStatus: 'public' | 'private' | 'unlisted';
  publishAt?: string;
  isShort: boolean;
  durationSeconds?: number;
  thumbnailUrl?: string;
  firstComment?: string;
}

/** The video resource YouTube answers (`videos` resource, the fields Herald reads). */
export interface VideoResource { id: string; snippet?: { title?: string; channelId?: string; publishedAt?: string }; status?: { privacyStatus?: string; publishAt?: string; uploadStatus?: string } }

/** The adapter's API access, bound to one account: calls with a fresh access token, and the API base URL (read on each use). */
export interface YouTubeApi {
  call<T>(fn: (token: string) => Promise<T>): Promise<T>;
  apiBaseUrl(): string;
}

