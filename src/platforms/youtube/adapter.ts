/**
 * YouTube Data API v3 adapter (docs/decisions/0017-youtube.md): one video per
 * post, uploaded with the resumable protocol; Shorts (square or vertical and 3 minutes or less,
 * docs/decisions/0027-youtube-shorts.md) and regular videos; custom thumbnails (regular videos only); a first comment; scheduled videos uploaded at once.
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
 * - `prepare`: fetch the video (duration and pixel size from Herald's ffprobe metadata, else ffprobe
 *   on the fetched bytes through AdapterContext.probeMedia), check the Short/thumbnail rule and the
 *   thumbnail's type (JPEG/PNG) and size, start the
 *   resumable session (`POST /upload/youtube/v3/videos?uploadType=resumable`, session URI in
 *   `Location`; nothing exists on the channel yet) and send every chunk but the last
 *   (`PUT <session>` with `Content-Range`, 308 + `Range` until done). A dropped chunk is resumed
 *   from the last byte the session reports (`Content-Range: bytes * /total` probe).
 * - `commit`: the last chunk, the one call that creates the video (200/201 with the resource);
 *   then `thumbnails.set` and `commentThreads.insert`. A failed thumbnail or first comment does
 *   not fail the post: it is recorded on the target result (`extra.thumbnail`, `extra.firstComment`).
 *   When the last chunk's answer is lost, commit probes the session at once.
 * - `confirmLive`: a video uploaded ahead becomes public at its publishAt; the post stays scheduled
 *   until then, and the publisher confirms it with videos.list at that time.
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
  AdapterError, type AccountContext, type AdapterContext, type EditRequest, type EditResult, type PlatformAdapter, type VideoMetadataPatch,
  type PublishRequest, type PublishResult, type PublishedPost, deleteUnlessGone, type RuleViolation, type VerifyResult, type VerifyWindow, VERIFY_MAX_PAGES,
  mapMetrics, type PostMetrics, type LiveCheck,
 lookupFailed,
} from '../types.ts';
import { googleJson } from './google.ts';
import { RESUMABLE_GRANULARITY, type VideoResource, type YouTubeApi, type YouTubeOptions, type YouTubePrepared } from './model.ts';
import { updateVideoMetadata } from './metadata.ts';
import { buildResult } from './publish.ts';
import {
  fitYouTubeTagCount, isAhead, isYouTubeShort, noAngles, privacyOf, str, titleOf, validateYouTube, youtubeTags,
  YOUTUBE_CAPABILITIES, YOUTUBE_SHORT_MAX_SECONDS, YOUTUBE_THUMBNAIL_MAX_BYTES, YOUTUBE_VIDEO_MAX_BYTES,
} from './rules.ts';
import { fetchThumbnail, probeVideo, putSession, sendBytes } from './upload.ts';

// The adapter's pieces: rules.ts (validate, title/tags, capabilities, limits), upload.ts (duration,
// thumbnail, resumable upload), publish.ts (thumbnail, first comment, result), model.ts (shapes).
export {
  YOUTUBE_CAPABILITIES, YOUTUBE_DESCRIPTION_MAX_BYTES, YOUTUBE_FIRST_COMMENT_MAX, YOUTUBE_SHORT_MAX_SECONDS, YOUTUBE_TAG_MAX, YOUTUBE_TAGS_MAX_TOTAL,
  YOUTUBE_THUMBNAIL_MAX_BYTES, YOUTUBE_TITLE_MAX, YOUTUBE_VIDEO_MAX_BYTES, fitYouTubeTagCount, noAngles, titleOf, youtubeTags,
} from './rules.ts';
export { RESUMABLE_GRANULARITY, type YouTubeOptions, type YouTubePrepared } from './model.ts';
export { imageTypeOf } from './upload.ts';

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

  validate(req: PublishRequest): RuleViolation[] {
    return validateYouTube(req, this.opts);
  }

  /**
   * Video statistics, 50 videos a call (`GET /youtube/v3/videos?part=statistics&id=…`, 1 quota unit,
   * https://developers.google.com/youtube/v3/docs/videos#statistics). Counts are strings; a hidden like
   * count is absent (null). Deleted videos are left out.
   */
  async fetchMetrics(ctx: AdapterContext, account: AccountContext, platformPostIds: string[]): Promise<Map<string, PostMetrics>> {
    const out = new Map<string, PostMetrics>();
    const base = this.app().apiBaseUrl;
    for (let i = 0; i < platformPostIds.length; i += 50) {
      const ids = platformPostIds.slice(i, i + 50);
      const { body } = await this.call(ctx, account, (token) => googleJson<{ items?: Array<{ id: string; statistics?: Record<string, string> }> }>(
        base, '/youtube/v3/videos', { token, query: { part: 'statistics', id: ids.join(',') } }));
      for (const v of body.items ?? []) if (v.statistics) out.set(v.id, mapMetrics('youtube', v.statistics));
    }
    return out;
  }

  /**
   * Deletes the video: `DELETE /youtube/v3/videos?id=…` (204, 50 quota units; scope youtube or
   * youtube.force-ssl, which Herald asks for; https://developers.google.com/youtube/v3/docs/videos/delete).
   * A video YouTube no longer has (404 `videoNotFound`) counts as deleted; 403 `forbidden` (not the
   * channel's video) is refused.
   */
  async unpublish(ctx: AdapterContext, account: AccountContext, post: PublishedPost): Promise<void> {
    const base = this.app().apiBaseUrl;
    await deleteUnlessGone(() => this.call(ctx, account, (token) => googleJson(base, '/youtube/v3/videos', { method: 'DELETE', token, query: { id: post.platformPostId } })));
  }

  /** The post's text is the video's description: an edit changes it (videos.update, see ./metadata.ts). */
  async editPublished(ctx: AdapterContext, account: AccountContext, edit: EditRequest): Promise<EditResult> {
    await updateVideoMetadata(this.api(ctx, account), edit.post.platformPostId, { description: edit.text });
    return { platformPostId: edit.post.platformPostId, platformPostUrl: edit.post.platformPostUrl };
  }

  /** Title, description, tags, category and privacy of a published video (./metadata.ts). */
  updateVideoMetadata(ctx: AdapterContext, account: AccountContext, videoId: string, patch: VideoMetadataPatch): Promise<{ updatedFields: string[] }> {
    return updateVideoMetadata(this.api(ctx, account), videoId, patch);
  }

  private call<T>(ctx: AdapterContext, account: AccountContext, fn: (token: string) => Promise<T>): Promise<T> {
    return withAccessToken(ctx, account, this.provider, this.app(), fn);
  }

  /** The account's API access for the upload and publish helpers (upload.ts, publish.ts). */
  private api(ctx: AdapterContext, account: AccountContext): YouTubeApi {
    return { call: <T>(fn: (token: string) => Promise<T>) => this.call(ctx, account, fn), apiBaseUrl: () => this.app().apiBaseUrl };
  }

  /**
   * Sends bytes [from, until) (until = total completes the upload), resuming from the session's
   * reported offset after a failed PUT.
   */
  private send(ctx: AdapterContext, account: AccountContext, p: Pick<YouTubePrepared, 'sessionUri' | 'totalBytes'>, bytes: Buffer, from: number, until: number, probeFirst = false): Promise<VideoResource | null> {
    return sendBytes(ctx, this.api(ctx, account), this.opts, p, bytes, from, until, probeFirst);
  }

  async prepare(ctx: AdapterContext, account: AccountContext, req: PublishRequest): Promise<YouTubePrepared> {
    const video = req.mediaItems[0];
    const psd = req.platformSpecificData;
    const { bytes, mimeType } = await ctx.fetchMedia(video, this.opts.maxVideoBytes);
    if (bytes.length === 0) throw new AdapterError('rejected', 'The video file is empty');
    // A Short is square or vertical AND at most 3 minutes (docs/decisions/0027-youtube-shorts.md):
    // Herald's metadata, else ffprobe on the fetched bytes; unknown shape -> not treated as a Short.
    const known = video.durationSeconds !== undefined && video.width !== undefined && video.height !== undefined;
    const probed = known ? undefined : await probeVideo(ctx, bytes, mimeType);
    const durationSeconds = video.durationSeconds ?? probed?.durationSeconds;
    const width = video.width ?? probed?.width;
    const height = video.height ?? probed?.height;
    const isShort = isYouTubeShort(durationSeconds, width, height, this.opts.shortMaxSeconds) === true;
    if (isShort && video.thumbnail) {
      throw new AdapterError('rejected', `This video is ${width}x${height} and ${durationSeconds} seconds long, so YouTube publishes it as a Short (square or vertical, 3 minutes or less), and Shorts cannot have a custom thumbnail [rule youtube.short.no_custom_thumbnail]`);
    }
    if (video.thumbnail) await fetchThumbnail(ctx, video.thumbnail, this.opts.thumbnailMaxBytes);
    const { title } = titleOf(req);
    const requested = privacyOf(req);
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

  private result(ctx: AdapterContext, account: AccountContext, prepared: YouTubePrepared, video: VideoResource, fromVerify: boolean): Promise<PublishResult> {
    return buildResult(ctx, account, this.api(ctx, account), this.opts.thumbnailMaxBytes, prepared, video, fromVerify);
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
  /**
   * A video uploaded private with `publishAt` (result.goesLiveAt): reads its status with
   * `videos.list?part=status&id=` (https://developers.google.com/youtube/v3/docs/videos/list).
   * `public` -> live; still `private` with a `publishAt` ahead -> waiting until it; still private
   * after its time -> waiting a minute more (YouTube publishes within minutes of publishAt; the
   * publisher fails it after an hour); not in the answer -> gone (deleted on the channel).
   * @throws AdapterError from the call (rate limited, transient, disconnected).
   */
  async confirmLive(ctx: AdapterContext, account: AccountContext, result: PublishResult): Promise<LiveCheck> {
    const { body } = await this.call(ctx, account, (token) => googleJson<{ items?: VideoResource[] }>(
      this.app().apiBaseUrl, '/youtube/v3/videos', { token, query: { part: 'status', id: result.platformPostId } }));
    const video = body.items?.find((v) => v.id === result.platformPostId);
    if (!video) return { status: 'gone', reason: `the video ${result.platformPostId} is no longer on the channel (deleted on YouTube before its publish time)` };
    const privacy = video.status?.privacyStatus;
    if (privacy === 'public') {
      const { goesLiveAt: _, ...rest } = result;
      return { status: 'live', result: { ...rest, extra: { ...(rest.extra ?? {}), privacyStatus: 'public' } } };
    }
    const at = video.status?.publishAt ? Date.parse(video.status.publishAt) : NaN;
    if (privacy === 'private' && Number.isFinite(at) && at > Date.now()) {
      return { status: 'waiting', until: new Date(at), reason: `YouTube publishes the video at ${new Date(at).toISOString()}` };
    }
    return { status: 'waiting', until: new Date(Date.now() + 60_000), reason: `the video is still ${privacy ?? 'not public'} on YouTube after its publish time` };
  }

  async verify(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: YouTubePrepared, window: VerifyWindow): Promise<VerifyResult<YouTubePrepared>> {
    try {
      const r = await this.call(ctx, account, (token) => putSession(token, prepared.sessionUri, null, 0, prepared.totalBytes));
      if ('done' in r && r.done.id) return { status: 'published', result: await this.result(ctx, account, prepared, r.done, true) };
      if ('next' in r) return { status: 'not_published' };
    } catch (err) {
      if (!(err instanceof AdapterError) || err.opts.platformCode !== 'sessionExpired') return lookupFailed(err);
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
      return lookupFailed(err);
    }
    if (found.length > 1) return { status: 'unknown', reason: `${found.length} videos uploaded since the attempt have this title` };
    const videoId = found[0]?.snippet?.resourceId?.videoId;
    if (found.length === 1 && !videoId) return { status: 'unknown', reason: 'the uploads playlist lists the video without its id' };
    if (videoId) return { status: 'published', result: await this.result(ctx, account, prepared, { id: videoId }, true) };
    return { status: 'not_published' };
  }
}
