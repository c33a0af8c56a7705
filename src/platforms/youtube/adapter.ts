/**
 * YouTube Data API v3 adapter (docs/decisions/0017-youtube.md): one video per
 * post, uploaded with the resumable protocol; Shorts (3 minutes or less) and regular videos;
 * custom thumbnails (regular videos only); a first comment; scheduled videos uploaded at once.
 * Sources: https://developers.google.com/youtube/v3/docs/videos/insert,
 * https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol,
 * .../docs/thumbnails/set, .../docs/commentThreads/insert, .../docs/videos#status.
 *
 * Scheduling (docs/decisions/0017: uploaded at once as private with publishAt): the
 * capability `uploadsAhead` tells the posts service to give a scheduled YouTube target
 * `run_at = now` while the post's `scheduledFor` stays the publish time. The worker runs the
 * target right away; the adapter sees `scheduledFor` in the future and uploads the video with
 * `status.privacyStatus = "private"` and `status.publishAt = scheduledFor`, and YouTube makes
 * it public at that time (giving it hours to process). The target is `published` once the
 * upload is done; its result records `privacyStatus` and `publishAt`. Only a public video can
 * be scheduled this way (publishAt always makes the video public), so a future unlisted post
 * is refused by the rules; a future private post is uploaded private without publishAt.
 *
 * Phases (docs/decisions/0002):
 * - `prepare`: fetch the video (duration from Herald's ffprobe metadata, else ffprobe on the
 *   fetched bytes through AdapterContext.probeMedia), check the Short/thumbnail rule and the thumbnail's type and size, start the
 *   resumable session (`POST /upload/youtube/v3/videos?uploadType=resumable`, session URI in
 *   `Location`; nothing exists on the channel yet) and send every chunk but the last
 *   (`PUT <session>` with `Content-Range`, 308 + `Range` until done). A dropped chunk is resumed
 *   from the last byte the session reports (`Content-Range: bytes * /total` probe).
 * - `commit`: the last chunk, the one call that creates the video (200/201 with the resource);
 *   then `thumbnails.set` and `commentThreads.insert`. A failed thumbnail or first comment does
 *   not fail the post: it is recorded on the target result (`extra.thumbnail`, `extra.firstComment`).
 *   When the last chunk's answer is lost, commit probes the session at once.
 * - `verify`: probes the session: complete -> published (the video resource), incomplete (308)
 *   -> not_published (commit resumes the same session: one session creates at most one video,
 *   so there is no duplicate). An expired session (404/410) -> the channel's uploads playlist is
 *   read back to before the attempt, paging as far as needed, for the title. When verify finds the video it sets the
 *   thumbnail (idempotent) and posts the first comment only if the video has no comment with
 *   that text from the channel yet.
 *
 * Quota (CONFLICT: the videos.insert reference says 1,600 units per call of 10,000/day, the
 * newer https://developers.google.com/youtube/data/determine_quota_cost a separate bucket of
 * 100 inserts/day) is not budgeted locally: `quotaExceeded` makes the target wait until
 * midnight Pacific time (src/platforms/youtube/google.ts).
 */
import type { OAuthProvider, PlatformApp } from '../oauth.ts';
import { withAccessToken } from '../oauth-session.ts';
import {
  AdapterError, type AccountContext, type AdapterContext, type PlatformAdapter, type PlatformCapabilities,
  type PublishRequest, type PublishResult, type RuleViolation, type VerifyResult, type VerifyWindow, VERIFY_MAX_PAGES,
} from '../types.ts';
import { googleJson, mapGoogleError } from './google.ts';
import {
  capabilitiesOf, YOUTUBE_DESCRIPTION_MAX_BYTES, YOUTUBE_FIRST_COMMENT_MAX, YOUTUBE_SHORT_MAX_SECONDS, YOUTUBE_TAG_MAX, YOUTUBE_TAGS_MAX_TOTAL,
  YOUTUBE_THUMBNAIL_MAX_BYTES, YOUTUBE_TITLE_MAX, YOUTUBE_VIDEO_MAX_BYTES,
} from '../../shared/capabilities.ts';

/** The limits live in src/shared/capabilities.ts (shared with the composer and the bulk CSV). */
export {
  YOUTUBE_DESCRIPTION_MAX_BYTES, YOUTUBE_FIRST_COMMENT_MAX, YOUTUBE_SHORT_MAX_SECONDS, YOUTUBE_TAG_MAX, YOUTUBE_TAGS_MAX_TOTAL,
  YOUTUBE_THUMBNAIL_MAX_BYTES, YOUTUBE_TITLE_MAX, YOUTUBE_VIDEO_MAX_BYTES,
};
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

export const YOUTUBE_CAPABILITIES: PlatformCapabilities = capabilitiesOf('youtube');

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

interface VideoResource { id: string; snippet?: { title?: string; channelId?: string; publishedAt?: string }; status?: { privacyStatus?: string; publishAt?: string; uploadStatus?: string } }

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);
const extOf = (url: string) => { try { return new URL(url).pathname.split('.').pop()?.toLowerCase() ?? ''; } catch { return ''; } };
const THUMB_EXT = new Set(['jpg', 'jpeg', 'png', 'gif']);

/** YouTube refuses `<` and `>` in titles and descriptions: they become their full-width forms. */
export const noAngles = (s: string) => s.replace(/</g, '\uFF1C').replace(/>/g, '\uFF1E');

/** The title: platformSpecificData.title, else the first non-empty line of the text (at most 100 characters), else the file name. */
export function titleOf(req: PublishRequest): { title: string; given: boolean } {
  const given = str(req.platformSpecificData.title);
  if (given) return { title: given.trim(), given: true };
  const line = req.text.split(/\r?\n/).map((l) => l.trim()).find(Boolean);
  const fallback = req.mediaItems[0]?.filename?.replace(/\.[^.]+$/, '') || 'Video';
  return { title: noAngles([...(line ?? fallback)].slice(0, YOUTUBE_TITLE_MAX).join('')), given: false };
}

/**
 * Tags as YouTube gets them: the post's tags, or platformSpecificData.tags;
 * trimmed, duplicates removed (case-insensitive, first spelling kept), tags over 100 characters dropped.
 * The 500-character total is a rule (see validate).
 */
export function youtubeTags(req: PublishRequest): string[] {
  const raw = Array.isArray(req.platformSpecificData.tags) ? (req.platformSpecificData.tags as unknown[]).filter((t): t is string => typeof t === 'string') : req.tags;
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of raw.map((x) => x.trim())) {
    if (!t || [...t].length > YOUTUBE_TAG_MAX || seen.has(t.toLowerCase())) continue;
    seen.add(t.toLowerCase());
    out.push(t);
  }
  return out;
}

/**
 * YouTube's own count of `snippet.tags` (videos resource docs): a tag with a space counts two
 * more (it is quoted) and tags are joined with commas. Trailing tags are left out until the
 * list fits 500 by that count (Herald's own 500-character rule counts characters only, checked in validate).
 */
export function fitYouTubeTagCount(tags: string[]): string[] {
  const out: string[] = [];
  let n = 0;
  for (const t of tags) {
    const cost = [...t].length + (t.includes(' ') ? 2 : 0) + (out.length ? 1 : 0);
    if (n + cost > YOUTUBE_TAGS_MAX_TOTAL) break;
    out.push(t);
    n += cost;
  }
  return out;
}

/** Detects JPEG, PNG and GIF by their magic bytes. */
export function imageTypeOf(b: Buffer): 'image/jpeg' | 'image/png' | 'image/gif' | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1'))) return 'image/gif';
  return null;
}

/** A video's duration from the publisher's ffprobe (AdapterContext.probeMedia), when it has one. */
async function probeDuration(ctx: AdapterContext, bytes: Buffer, mimeType: string): Promise<number | undefined> {
  return (await ctx.probeMedia?.(bytes, mimeType.startsWith('video/') ? mimeType : 'video/mp4'))?.durationSeconds;
}

/**
 * True when `scheduledFor` is far enough ahead to hand to YouTube as publishAt (which must be in
 * the future). The posts service runs such targets at once when the time is over a minute ahead,
 * so the worker has 45 seconds of slack before this gives up and publishes directly.
 */
const isAhead = (at: Date | undefined, now = Date.now()) => !!at && at.getTime() > now + 15_000;

function rule(field: string, r: string, message: string): RuleViolation {
  return { field, rule: r, message };
}

export class YouTubeAdapter implements PlatformAdapter<Record<string, unknown>, YouTubePrepared> {
  readonly platform = 'youtube' as const;
  readonly capabilities = YOUTUBE_CAPABILITIES;
  private readonly opts: Required<YouTubeOptions>;
  /** Video bytes from prepare, for the commit that follows in the same run (else fetched again). */
  private readonly pending = new Map<string, Buffer>();

  constructor(private readonly provider: OAuthProvider, private readonly app: () => PlatformApp, opts: YouTubeOptions = {}) {
    this.opts = {
      chunkBytes: 8 * 1024 * 1024, thumbnailMaxBytes: YOUTUBE_THUMBNAIL_MAX_BYTES, shortMaxSeconds: YOUTUBE_SHORT_MAX_SECONDS,
      categoryId: '22', maxResumes: 5, maxVideoBytes: YOUTUBE_VIDEO_MAX_BYTES, ...opts,
    };
    if (this.opts.chunkBytes <= 0 || this.opts.chunkBytes % RESUMABLE_GRANULARITY !== 0) {
      throw new Error(`YouTube chunkBytes must be a positive multiple of ${RESUMABLE_GRANULARITY} (256 KiB)`);
    }
  }

  private privacyOf(req: PublishRequest): 'public' | 'private' | 'unlisted' {
    const v = req.platformSpecificData.visibility ?? req.platformSpecificData.privacyStatus;
    return v === 'public' || v === 'private' || v === 'unlisted' ? v : req.visibility;
  }

  validate(req: PublishRequest): RuleViolation[] {
    const out: RuleViolation[] = [];
    const psd = req.platformSpecificData;
    const videos = req.mediaItems.filter((m) => m.type === 'video');
    if (videos.length !== 1 || req.mediaItems.length !== 1) {
      out.push(rule('mediaItems', 'youtube.media.one_video', `A YouTube post needs exactly one video and no other media (has ${videos.length} video(s) and ${req.mediaItems.length - videos.length} other item(s)); a thumbnail goes in mediaItems[].thumbnail`));
    }
    const video = videos[0];
    if (video?.size !== undefined && video.size > this.opts.maxVideoBytes) {
      out.push(rule('mediaItems.0', 'youtube.video.max_bytes', 'YouTube videos are limited to 256 GB'));
    }
    if (video?.durationSeconds !== undefined && video.durationSeconds <= this.opts.shortMaxSeconds && video.thumbnail) {
      out.push(rule('mediaItems.0.thumbnail', 'youtube.short.no_custom_thumbnail',
        `This video is ${video.durationSeconds} seconds long, so YouTube publishes it as a Short (${this.opts.shortMaxSeconds / 60} minutes or less), and Shorts cannot have a custom thumbnail`));
    }
    req.mediaItems.forEach((m, i) => {
      if (m.thumbnail && extOf(m.thumbnail) && !THUMB_EXT.has(extOf(m.thumbnail)) && /^[a-z0-9]{2,5}$/.test(extOf(m.thumbnail))) {
        out.push(rule(`mediaItems.${i}.thumbnail`, 'youtube.thumbnail.type', 'YouTube thumbnails must be JPG, PNG or GIF'));
      }
    });
    const given = str(psd.title);
    if (given !== undefined) {
      if ([...given.trim()].length > YOUTUBE_TITLE_MAX) out.push(rule('platformSpecificData.title', 'youtube.title.max_length', `YouTube titles are limited to ${YOUTUBE_TITLE_MAX} characters (has ${[...given.trim()].length})`));
      if (/[<>]/.test(given)) out.push(rule('platformSpecificData.title', 'youtube.title.angle_brackets', 'YouTube titles cannot contain < or >'));
    } else if (psd.title !== undefined && psd.title !== null && typeof psd.title !== 'string') {
      out.push(rule('platformSpecificData.title', 'youtube.title.type', 'must be a string'));
    }
    const bytes = Buffer.byteLength(noAngles(req.text), 'utf8');
    if (bytes > YOUTUBE_DESCRIPTION_MAX_BYTES) out.push(rule('content', 'youtube.description.max_bytes', `YouTube descriptions are limited to ${YOUTUBE_DESCRIPTION_MAX_BYTES} bytes (UTF-8); this text has ${bytes}`));
    const total = youtubeTags(req).reduce((n, t) => n + [...t].length, 0);
    if (total > YOUTUBE_TAGS_MAX_TOTAL) {
      out.push(rule(Array.isArray(psd.tags) ? 'platformSpecificData.tags' : 'tags', 'youtube.tags.max_total', `YouTube tags may total at most ${YOUTUBE_TAGS_MAX_TOTAL} characters after removing duplicates and tags over ${YOUTUBE_TAG_MAX} characters (has ${total})`));
    }
    if (psd.firstComment !== undefined && psd.firstComment !== null) {
      if (typeof psd.firstComment !== 'string') out.push(rule('platformSpecificData.firstComment', 'youtube.first_comment.type', 'must be a string'));
      else if ([...psd.firstComment].length > YOUTUBE_FIRST_COMMENT_MAX) {
        out.push(rule('platformSpecificData.firstComment', 'youtube.first_comment.max_length', `YouTube comments are limited to ${YOUTUBE_FIRST_COMMENT_MAX.toLocaleString('en-US')} characters (has ${[...psd.firstComment].length})`));
      }
    }
    const vis = psd.visibility ?? psd.privacyStatus;
    if (vis !== undefined && vis !== null && vis !== 'public' && vis !== 'private' && vis !== 'unlisted') {
      out.push(rule(psd.visibility !== undefined ? 'platformSpecificData.visibility' : 'platformSpecificData.privacyStatus', 'youtube.visibility', 'must be public, private or unlisted'));
    }
    for (const k of ['containsSyntheticMedia', 'madeForKids', 'notifySubscribers'] as const) {
      if (psd[k] !== undefined && typeof psd[k] !== 'boolean') out.push(rule(`platformSpecificData.${k}`, `youtube.${k}.type`, 'must be true or false'));
    }
    if (psd.categoryId !== undefined && !/^\d{1,3}$/.test(String(psd.categoryId))) out.push(rule('platformSpecificData.categoryId', 'youtube.category_id', 'must be a numeric YouTube video category id (e.g. "22")'));
    if (isAhead(req.scheduledFor, Date.now() + 45_000) && this.privacyOf(req) === 'unlisted') {
      out.push(rule('platformSpecificData.visibility', 'youtube.schedule.public_only',
        'YouTube can only schedule a video to become public (it is uploaded private with publishAt); publish an unlisted video now, or schedule it as public'));
    }
    return out;
  }

  private call<T>(ctx: AdapterContext, account: AccountContext, fn: (token: string) => Promise<T>): Promise<T> {
    return withAccessToken(ctx, account, this.provider, this.app(), fn);
  }

  /** One PUT to the session. Returns the video when done, else the next offset. @throws AdapterError (transient on network failure). */
  private async put(token: string, sessionUri: string, body: Buffer | null, from: number, total: number): Promise<{ done: VideoResource } | { next: number }> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body) {
      headers['content-range'] = `bytes ${from}-${from + body.length - 1}/${total}`;
      headers['content-type'] = 'application/octet-stream';
    } else {
      headers['content-range'] = `bytes */${total}`;
    }
    let res: Response;
    try {
      res = await fetch(sessionUri, { method: 'PUT', headers, body: body ?? undefined, redirect: 'manual', signal: AbortSignal.timeout(10 * 60_000) });
    } catch (err) {
      throw new AdapterError('transient', `YouTube upload: ${(err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message}`);
    }
    const text = await res.text().catch(() => '');
    if (res.status === 308) {
      const range = /bytes=0-(\d+)/.exec(res.headers.get('range') ?? '');
      return { next: range ? Number(range[1]) + 1 : 0 };
    }
    let parsed: unknown;
    try { parsed = text ? JSON.parse(text) : {}; } catch { parsed = { error: { message: text.slice(0, 300) } }; }
    if (res.status === 200 || res.status === 201) return { done: parsed as VideoResource };
    if (res.status === 404 || res.status === 410) {
      throw new AdapterError('transient', 'YouTube upload session expired or not found', { status: res.status, platformCode: 'sessionExpired' });
    }
    throw mapGoogleError(res.status, parsed, res.headers, 'YouTube upload');
  }

  /**
   * Sends bytes [from, until) (until = total completes the upload), resuming from the session's
   * reported offset after a failed PUT.
   */
  private async send(ctx: AdapterContext, account: AccountContext, p: Pick<YouTubePrepared, 'sessionUri' | 'totalBytes'>, bytes: Buffer, from: number, until: number, probeFirst = false): Promise<VideoResource | null> {
    let offset = from;
    let failures = 0;
    let probe = probeFirst;
    for (;;) {
      if (!probe && offset >= until) return null;
      try {
        const r = await this.call(ctx, account, (token) => (probe
          ? this.put(token, p.sessionUri, null, 0, p.totalBytes)
          : this.put(token, p.sessionUri, bytes.subarray(offset, Math.min(until, offset + this.opts.chunkBytes)), offset, p.totalBytes)));
        probe = false;
        if ('done' in r) return r.done;
        if (r.next > until) throw new AdapterError('transient', `YouTube upload session holds ${r.next} bytes, more than expected (${until})`);
        if (r.next > offset) failures = 0; // progress; a probe alone does not reset the count
        offset = r.next;
      } catch (err) {
        if (!(err instanceof AdapterError) || err.kind !== 'transient' || err.opts.platformCode === 'sessionExpired' || ++failures > this.opts.maxResumes) throw err;
        ctx.log('youtube: upload chunk failed; asking the session where to resume', { offset, error: err.message });
        probe = true;
      }
    }
  }

  /** Fetches and checks the thumbnail. @throws AdapterError rejected naming the rule. */
  private async thumbnail(ctx: AdapterContext, url: string): Promise<{ bytes: Buffer; mimeType: string }> {
    const max = this.opts.thumbnailMaxBytes;
    let got;
    try {
      got = await ctx.fetchMedia({ type: 'image', url }, max + 1);
    } catch (err) {
      if (err instanceof AdapterError && err.kind === 'rejected' && /large|exceed|limit|bytes/i.test(err.message)) {
        throw new AdapterError('rejected', `The YouTube thumbnail is larger than ${max / 1024 / 1024} MB [rule youtube.thumbnail.max_bytes]`);
      }
      throw err;
    }
    if (got.bytes.length > max) throw new AdapterError('rejected', `The YouTube thumbnail is ${got.bytes.length} bytes; the limit is ${max / 1024 / 1024} MB [rule youtube.thumbnail.max_bytes]`);
    const type = imageTypeOf(got.bytes);
    if (!type) throw new AdapterError('rejected', 'The YouTube thumbnail is not a JPG, PNG or GIF image [rule youtube.thumbnail.type]');
    return { bytes: got.bytes, mimeType: type };
  }

  async prepare(ctx: AdapterContext, account: AccountContext, req: PublishRequest): Promise<YouTubePrepared> {
    const video = req.mediaItems[0];
    const psd = req.platformSpecificData;
    const { bytes, mimeType } = await ctx.fetchMedia(video, this.opts.maxVideoBytes);
    if (bytes.length === 0) throw new AdapterError('rejected', 'The video file is empty');
    const durationSeconds = video.durationSeconds ?? await probeDuration(ctx, bytes, mimeType);
    const isShort = durationSeconds !== undefined && durationSeconds <= this.opts.shortMaxSeconds;
    if (isShort && video.thumbnail) {
      throw new AdapterError('rejected', `This video is ${durationSeconds} seconds long, so YouTube publishes it as a Short (3 minutes or less), and Shorts cannot have a custom thumbnail [rule youtube.short.no_custom_thumbnail]`);
    }
    if (video.thumbnail) await this.thumbnail(ctx, video.thumbnail);
    const { title } = titleOf(req);
    const requested = this.privacyOf(req);
    const ahead = isAhead(req.scheduledFor) && requested === 'public';
    const status: Record<string, unknown> = {
      privacyStatus: ahead ? 'private' : requested,
      ...(ahead ? { publishAt: req.scheduledFor!.toISOString() } : {}),
      selfDeclaredMadeForKids: psd.madeForKids === true,
      ...(typeof psd.containsSyntheticMedia === 'boolean' ? { containsSyntheticMedia: psd.containsSyntheticMedia } : {}),
      ...(typeof psd.embeddable === 'boolean' ? { embeddable: psd.embeddable } : {}),
      ...(psd.license === 'creativeCommon' || psd.license === 'youtube' ? { license: psd.license } : {}),
    };
    const tags = fitYouTubeTagCount(youtubeTags(req));
    const snippet = {
      title, description: noAngles(req.text), ...(tags.length ? { tags } : {}),
      categoryId: psd.categoryId !== undefined ? String(psd.categoryId) : this.opts.categoryId,
    };
    const uploadType = mimeType.startsWith('video/') ? mimeType : 'application/octet-stream';
    const base = this.app().apiBaseUrl;
    const res = await this.call(ctx, account, (token) => googleJson<unknown>(base, '/upload/youtube/v3/videos', {
      method: 'POST', token, query: { uploadType: 'resumable', part: 'snippet,status', notifySubscribers: psd.notifySubscribers === false ? 'false' : 'true' },
      headers: { 'x-upload-content-type': uploadType, 'x-upload-content-length': String(bytes.length) },
      json: { snippet, status },
    }));
    const sessionUri = res.headers.get('location');
    if (!sessionUri) throw new AdapterError('transient', 'YouTube started no upload session (no Location header)');
    const total = bytes.length;
    const finalFrom = Math.floor((total - 1) / this.opts.chunkBytes) * this.opts.chunkBytes;
    const prepared: YouTubePrepared = {
      preparedAt: new Date().toISOString(), sessionUri, totalBytes: total, finalFrom, videoUrl: video.url, title,
      privacyStatus: status.privacyStatus as YouTubePrepared['privacyStatus'],
      ...(ahead ? { publishAt: status.publishAt as string } : {}),
      isShort, ...(durationSeconds !== undefined ? { durationSeconds } : {}),
      ...(video.thumbnail ? { thumbnailUrl: video.thumbnail } : {}),
      ...(str(psd.firstComment) ? { firstComment: psd.firstComment as string } : {}),
    };
    // Everything but the last chunk: the video does not exist until the upload completes.
    const early = await this.send(ctx, account, prepared, bytes, 0, finalFrom);
    if (early) throw new AdapterError('rejected', 'YouTube completed the upload before the last chunk; check the channel before retrying');
    this.pending.set(sessionUri, bytes);
    // Bounded: a prepare whose commit never ran (a crash in between) must not pin its bytes forever.
    for (const k of [...this.pending.keys()].slice(0, Math.max(0, this.pending.size - 4))) this.pending.delete(k);
    return prepared;
  }

  /** Thumbnail and first comment after the video exists; failures are recorded, never thrown. */
  private async afterUpload(ctx: AdapterContext, account: AccountContext, prepared: YouTubePrepared, videoId: string, checkExistingComment: boolean): Promise<Record<string, unknown>> {
    const extra: Record<string, unknown> = {};
    const base = this.app().apiBaseUrl;
    if (prepared.thumbnailUrl) {
      try {
        const t = await this.thumbnail(ctx, prepared.thumbnailUrl);
        const r = await this.call(ctx, account, (token) => googleJson<{ items?: Array<{ default?: { url?: string } }> }>(base, '/upload/youtube/v3/thumbnails/set', {
          method: 'POST', token, query: { videoId, uploadType: 'media' }, headers: { 'content-type': t.mimeType }, body: t.bytes,
        }));
        extra.thumbnail = { status: 'published', url: r.body.items?.[0]?.default?.url ?? null };
      } catch (err) {
        extra.thumbnail = { status: 'failed', error: (err as Error).message };
        ctx.log('youtube: thumbnail failed', { videoId, error: (err as Error).message });
      }
    }
    if (prepared.firstComment) {
      try {
        if (checkExistingComment) {
          const list = await this.call(ctx, account, (token) => googleJson<{ items?: Array<{ id: string; snippet?: { topLevelComment?: { snippet?: { textOriginal?: string; authorChannelId?: { value?: string } } } } }> }>(
            base, '/youtube/v3/commentThreads', { token, query: { part: 'snippet', videoId, maxResults: 100 } }));
          const mine = list.body.items?.find((c) => c.snippet?.topLevelComment?.snippet?.textOriginal === prepared.firstComment
            && c.snippet?.topLevelComment?.snippet?.authorChannelId?.value === account.platformUserId);
          if (mine) {
            extra.firstComment = { status: 'published', id: mine.id };
            return extra;
          }
        }
        const r = await this.call(ctx, account, (token) => googleJson<{ id?: string }>(base, '/youtube/v3/commentThreads', {
          method: 'POST', token, query: { part: 'snippet' },
          json: { snippet: { channelId: account.platformUserId, videoId, topLevelComment: { snippet: { textOriginal: prepared.firstComment } } } },
        }));
        extra.firstComment = { status: 'published', id: r.body.id ?? null };
      } catch (err) {
        extra.firstComment = { status: 'failed', error: (err as Error).message };
        ctx.log('youtube: first comment failed', { videoId, error: (err as Error).message });
      }
    }
    return extra;
  }

  private async result(ctx: AdapterContext, account: AccountContext, prepared: YouTubePrepared, video: VideoResource, fromVerify: boolean): Promise<PublishResult> {
    const extra = {
      isShort: prepared.isShort,
      ...(prepared.durationSeconds !== undefined ? { durationSeconds: prepared.durationSeconds } : {}),
      privacyStatus: video.status?.privacyStatus ?? prepared.privacyStatus,
      ...(prepared.publishAt ? { publishAt: video.status?.publishAt ?? prepared.publishAt } : {}),
      ...(await this.afterUpload(ctx, account, prepared, video.id, fromVerify)),
    };
    const url = prepared.isShort ? `https://www.youtube.com/shorts/${video.id}` : `https://www.youtube.com/watch?v=${video.id}`;
    return { platformPostId: video.id, platformPostUrl: url, extra };
  }

  async commit(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: YouTubePrepared): Promise<PublishResult> {
    let bytes = this.pending.get(prepared.sessionUri);
    this.pending.delete(prepared.sessionUri);
    const resumed = !bytes;
    if (!bytes) bytes = (await ctx.fetchMedia({ type: 'video', url: prepared.videoUrl }, this.opts.maxVideoBytes)).bytes;
    if (bytes.length !== prepared.totalBytes) throw new AdapterError('rejected', 'The video file changed since the upload started; retry the post');
    let video: VideoResource | null;
    try {
      // A commit after verify said "not published" first asks the session where it stands.
      video = await this.send(ctx, account, prepared, bytes, prepared.finalFrom, prepared.totalBytes, resumed);
    } catch (err) {
      if (err instanceof AdapterError && err.opts.platformCode === 'sessionExpired') {
        throw new AdapterError('rejected', 'The YouTube upload session expired before the video was complete; retry the post to upload it again');
      }
      throw err;
    }
    if (!video?.id) throw new AdapterError('transient', 'YouTube did not return the uploaded video');
    return this.result(ctx, account, prepared, video, false);
  }

  /**
   * Exact check after an interrupted commit (docs/decisions/0018-exact-verify.md). The upload
   * session is the marker (https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol):
   * a probe answering the video -> published; 308 (incomplete) -> not_published (commit
   * resumes the same session, which can create at most one video). An expired session
   * (404/410): the channel's uploads playlist is read, newest first, 50 a call with
   * `pageToken` (https://developers.google.com/youtube/v3/docs/playlistItems/list), until an
   * item is older than `window.since` or the list ends (no time filter exists), matching the
   * exact title. None -> not_published (commit then reports the expired session); several, a
   * failed call, more than VERIFY_MAX_PAGES pages -> unknown.
   */
  async verify(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: YouTubePrepared, window: VerifyWindow): Promise<VerifyResult<YouTubePrepared>> {
    try {
      const r = await this.call(ctx, account, (token) => this.put(token, prepared.sessionUri, null, 0, prepared.totalBytes));
      if ('done' in r && r.done.id) return { status: 'published', result: await this.result(ctx, account, prepared, r.done, true) };
      if ('next' in r) return { status: 'not_published' };
    } catch (err) {
      if (!(err instanceof AdapterError) || err.opts.platformCode !== 'sessionExpired') return { status: 'unknown', reason: (err as Error).message };
    }
    // The session is gone: look for the video among the channel's uploads.
    type Item = { snippet?: { title?: string; publishedAt?: string; resourceId?: { videoId?: string } } };
    const found: Item[] = [];
    try {
      const base = this.app().apiBaseUrl;
      const playlist = typeof account.settings?.uploadsPlaylistId === 'string' ? account.settings.uploadsPlaylistId
        : (await this.call(ctx, account, (token) => googleJson<{ items?: Array<{ contentDetails?: { relatedPlaylists?: { uploads?: string } } }> }>(
          base, '/youtube/v3/channels', { token, query: { part: 'contentDetails', mine: 'true' } }))).body.items?.[0]?.contentDetails?.relatedPlaylists?.uploads;
      if (!playlist) return { status: 'unknown', reason: 'the channel has no uploads playlist' };
      let pageToken: string | undefined;
      for (let page = 0; ; page++) {
        if (page >= VERIFY_MAX_PAGES) return { status: 'unknown', reason: `the channel uploaded more than ${VERIFY_MAX_PAGES * 50} videos since the attempt` };
        const { body } = await this.call(ctx, account, (token) => googleJson<{ items?: Item[]; nextPageToken?: string }>(
          base, '/youtube/v3/playlistItems', { token, query: { part: 'snippet', playlistId: playlist, maxResults: 50, ...(pageToken ? { pageToken } : {}) } }));
        let older = false;
        for (const i of body.items ?? []) {
          if (i.snippet?.publishedAt && Date.parse(i.snippet.publishedAt) < window.since.getTime()) { older = true; continue; }
          if (i.snippet?.title === prepared.title) found.push(i);
        }
        pageToken = body.nextPageToken;
        if (older || !pageToken) break;
      }
    } catch (err) {
      return { status: 'unknown', reason: (err as Error).message };
    }
    if (found.length > 1) return { status: 'unknown', reason: `${found.length} videos uploaded since the attempt have this title` };
    const videoId = found[0]?.snippet?.resourceId?.videoId;
    if (found.length === 1 && !videoId) return { status: 'unknown', reason: 'the uploads playlist lists the video without its id' };
    if (videoId) return { status: 'published', result: await this.result(ctx, account, prepared, { id: videoId }, true) };
    return { status: 'not_published' };
  }
}
