/**
 * YouTube Data API v3 simulator (https://developers.google.com/youtube/v3/docs): a real HTTP server on loopback that
 * speaks Google OAuth 2.0 and the parts of the YouTube API Herald uses, with their paths,
 * parameters, 11-character video ids, status values and Google's error envelope
 * `{error:{code, message, errors:[{message, domain, reason}], status}}`:
 * - OAuth: `/o/oauth2/v2/auth` (approves at once as the simulator's user; a refresh token only
 *   with access_type=offline, and again only with prompt=consent; PKCE S256 checked when sent),
 *   `POST /token` (client_secret_basic or _post; authorization_code single use 30 s;
 *   refresh_token without rotation; revoked -> invalid_grant "Token has been expired or revoked.").
 * - `GET /youtube/v3/channels?mine=true` (id UC + 22, snippet, contentDetails.relatedPlaylists.uploads).
 * - Resumable upload: `POST /upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`
 *   checks the metadata (title 1-100 characters without < >, description <= 5,000 bytes without < >,
 *   tags <= 500 characters counted as YouTube does, privacyStatus, publishAt only when private and
 *   in the future, X-Upload-Content-Length/-Type) and answers 200 with the session URI in
 *   `Location`. `PUT <session>` with `Content-Range: bytes a-b/total` (non-final chunks multiples of
 *   `granularity`, 256 KiB by default; `a` must be the next byte) answers 308 + `Range: bytes=0-N`,
 *   and 201 with the video resource when complete; `bytes * /total` probes. Unknown or expired
 *   sessions answer 404.
 * - Videos: duration and pixel size read from the uploaded bytes with mediaInfo (the MP4/MOV
 *   movie and track headers; ffprobe as a fallback for other containers; or `durationOverride`);
 *   a Short is square or vertical AND at most `shortMaxSeconds` (180 s), as YouTube's Shorts page
 *   says (https://support.google.com/youtube/answer/15424877; docs/decisions/0027-youtube-shorts.md).
 *   `shortsNeedVertical: false` makes the duration alone decide (Herald's rule before 0027).
 *   `GET /youtube/v3/videos?id=` shows status.uploadStatus uploaded -> processed after
 *   `processingPolls` reads (or failed on the processing fault), plus privacyStatus/publishAt.
 * - `POST /upload/youtube/v3/thumbnails/set?videoId=` (https://developers.google.com/youtube/v3/docs/thumbnails/set):
 *   JPEG or PNG by the bytes (mediaInfo; anything else, GIF and WebP included: 400 invalidImage
 *   "The provided image content is invalid."), at most `thumbnailMaxBytes` (2 MB per that page;
 *   CONFLICT 50 MB on the newer reference, configurable; over it: 400 failedPrecondition),
 *   refused on Shorts (400 invalidVideo; UNCONFIRMED wording) and on unverified channels (403 forbidden).
 * - `POST/GET /youtube/v3/commentThreads` (textOriginal <= 10,000: commentTextTooLong;
 *   videoNotFound), `GET /youtube/v3/playlistItems` (the uploads playlist, newest first;
 *   `maxResults` 0-50, default 5, more refused; `pageToken` from `nextPageToken`, which is
 *   absent on the last page; https://developers.google.com/youtube/v3/docs/playlistItems/list).
 * - Quota (CONFLICT: the videos.insert reference charges 1,600 units, the newer
 *   https://developers.google.com/youtube/data/determine_quota_cost a separate insert bucket;
 *   so both models): `quotaModel: 'units'` charges
 *   videos.insert 1,600 of `dailyUnits` (10,000); `'buckets'` gives `dailyInserts` (100) inserts
 *   in their own bucket; other calls 1 unit, comments and thumbnails 50. The day ends at
 *   midnight Pacific; over quota -> 403 quotaExceeded.
 * - Faults (POST /__sim/faults or addFault): rate limit (403 rateLimitExceeded), quota, 5xx,
 *   expired token, slow, dropped connection, an upload answer dropped after the video was
 *   created, a processing failure, the channel's upload limit.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { listen, runAsMain, simApp, simControls, type SimulatorBase } from '../common/app.ts';
import { droppedAfterCreate, FaultQueue } from '../common/faults.ts';
import { MetricsBook } from '../common/metrics.ts';
import { newestFirst } from '../common/lists.ts';
import { bearerToken, RefreshTokens } from '../common/oauth.ts';
import { googleOAuthRoutes } from '../common/google-oauth.ts';
import { mediaInfo } from '../common/media-info.ts';
import { probeVideo } from '../common/probe.ts';

export interface YouTubeSimOptions {
  clientId?: string;
  clientSecret?: string;
  accessTtlSeconds?: number;
  /** Non-final chunks must be multiples of this (Google: 256 KiB). */
  granularity?: number;
  thumbnailMaxBytes?: number;
  quotaModel?: 'units' | 'buckets';
  dailyUnits?: number;
  dailyInserts?: number;
  /** Custom thumbnails need a verified channel (403 otherwise). Default true. */
  verifiedChannel?: boolean;
  /** Comments on a private video (scheduled uploads) are accepted (UNCONFIRMED upstream). Default true. */
  commentsOnPrivate?: boolean;
  /** A Short must be square or vertical as well as short (YouTube's Shorts page). Default true. */
  shortsNeedVertical?: boolean;
  /** Longest Short, seconds. Default 180. */
  shortMaxSeconds?: number;
  /** Duration in seconds for every uploaded video instead of ffprobe. */
  durationOverride?: number;
  processingPolls?: number;
  ffprobePath?: string;
}

export type YouTubeFaultOp = 'token' | 'session' | 'chunk' | 'final' | 'probe' | 'thumbnail' | 'comment' | 'list' | 'metrics' | 'update' | 'any';
export interface YouTubeFault {
  op: YouTubeFaultOp;
  kind: 'rate_limit' | 'quota' | 'server_error' | 'expired_token' | 'slow' | 'drop' | 'drop_after_create' | 'processing_failed' | 'upload_limit';
  count: number;
  delayMs?: number;
}

export interface SimVideo {
  id: string;
  channelId: string;
  title: string;
  description: string;
  tags: string[];
  categoryId: string;
  privacyStatus: string;
  publishAt: string | null;
  selfDeclaredMadeForKids: boolean;
  containsSyntheticMedia: boolean | null;
  notifySubscribers: boolean;
  bytes: number;
  sha256: string;
  durationSeconds: number | null;
  isShort: boolean;
  uploadStatus: 'uploaded' | 'processed' | 'failed';
  polls: number;
  processingFails: boolean;
  thumbnail: { bytes: number; type: string } | null;
  publishedAt: string;
}
interface Session { id: string; channelId: string; total: number; type: string; chunks: Buffer[]; received: number; meta: Record<string, unknown>; notify: boolean; videoId: string | null; expired: boolean }
export interface SimComment { id: string; videoId: string; channelId: string; text: string; publishedAt: string }

export interface YouTubeSimulator extends SimulatorBase<YouTubeFault> {
  channel: { id: string; title: string; handle: string; uploads: string };
  videos: SimVideo[];
  comments: SimComment[];
  /** The videos' statistics (GET /youtube/v3/videos?part=statistics). */
  metrics: MetricsBook;
  sessions: Map<string, Session>;
  /** Chunk PUTs seen (with the Content-Range), in order. */
  puts: string[];
  /** videos.update calls that changed a video: its id and the parts sent, in order. */
  updates: Array<{ id: string; parts: string[] }>;
  quotaUsed(): { units: number; inserts: number };
  expireSessions(): void;
  /** Adds an uploaded video directly, as if the channel uploaded it on youtube.com. */
  addVideo(title: string, at?: Date): SimVideo;
}

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const randomId = (n: number) => Array.from(randomBytes(n), (b) => ID_CHARS[b & 63]).join('');

/** Google's error envelope. */
function gerr(reply: FastifyReply, code: number, reason: string, message: string, domain = 'youtube.api', headers: Record<string, string> = {}) {
  const status = code === 400 ? 'INVALID_ARGUMENT' : code === 401 ? 'UNAUTHENTICATED' : code === 403 ? 'PERMISSION_DENIED' : code === 404 ? 'NOT_FOUND' : code === 429 ? 'RESOURCE_EXHAUSTED' : 'UNAVAILABLE';
  return reply.status(code).headers(headers).send({ error: { code, message, errors: [{ message, domain, reason }], status } });
}

/** The current quota day (midnight to midnight Pacific). */
function pacificDay(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export async function startYouTubeSimulator(opts: YouTubeSimOptions = {}): Promise<YouTubeSimulator> {
  const clientId = opts.clientId ?? 'sim-youtube-client.apps.googleusercontent.com';
  const clientSecret = opts.clientSecret ?? 'sim-youtube-secret';
  const channelId = `UC${randomId(22)}`;
  const channel = { id: channelId, title: 'Herald YouTube Sim', handle: '@heraldsim', uploads: `UU${channelId.slice(2)}` };
  const access = new Map<string, { expires: number; scope: string }>();
  const refresh = new RefreshTokens<{ scope: string }>(() => `1//0${randomBytes(30).toString('base64url')}`);
  const sessions = new Map<string, Session>();
  const videos: SimVideo[] = [];
  const updates: Array<{ id: string; parts: string[] }> = [];
  const metrics = new MetricsBook();
  const comments: SimComment[] = [];
  const calls = new Map<string, number>();
  const puts: string[] = [];
  const granularity = opts.granularity ?? 256 * 1024;
  const thumbMax = opts.thumbnailMaxBytes ?? 2 * 1024 * 1024;
  const quota = { day: pacificDay(), units: 0, inserts: 0 };

  // Upload bodies (video chunks, thumbnails) arrive raw.
  const app = await simApp({ calls, bodyLimit: 512 * 1024 * 1024, raw: /^(application\/octet-stream|video\/.*|image\/.*)$/ });
  const faults = new FaultQueue<YouTubeFault>({
    rate_limit: (reply) => gerr(reply, 403, 'rateLimitExceeded', 'The request cannot be completed because you have exceeded your quota.', 'youtube.quota', { 'retry-after': '30' }),
    quota: (reply) => gerr(reply, 403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.', 'youtube.quota'),
    upload_limit: (reply) => gerr(reply, 400, 'uploadLimitExceeded', 'The user has exceeded the number of videos they may upload.', 'youtube.video'),
    server_error: (reply) => gerr(reply, 503, 'backendError', 'Backend Error', 'global'),
    expired_token: (reply) => gerr(reply, 401, 'authError', 'Invalid Credentials', 'global'),
  });
  const fault = (op: YouTubeFaultOp, reply: FastifyReply, req: FastifyRequest) => faults.apply(op, reply, req);

  function authed(req: FastifyRequest, reply: FastifyReply): boolean {
    const token = bearerToken(req);
    const t = token ? access.get(token) : undefined;
    if (!t || t.expires < Date.now()) {
      gerr(reply, 401, 'authError', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', 'global');
      return false;
    }
    return true;
  }

  /** Charges quota; false (and 403 quotaExceeded sent) when over. */
  function charge(reply: FastifyReply, units: number, insert = false): boolean {
    const day = pacificDay();
    if (day !== quota.day) { quota.day = day; quota.units = 0; quota.inserts = 0; }
    const model = opts.quotaModel ?? 'units';
    if (insert && model === 'buckets') {
      if (quota.inserts + 1 > (opts.dailyInserts ?? 100)) { gerr(reply, 403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your quota.', 'youtube.quota'); return false; }
      quota.inserts++;
      return true;
    }
    const cost = insert ? 1600 : units;
    if (quota.units + cost > (opts.dailyUnits ?? 10_000)) { gerr(reply, 403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your quota.', 'youtube.quota'); return false; }
    quota.units += cost;
    return true;
  }

  // OAuth -----------------------------------------------------------------------
  googleOAuthRoutes(app, { clientId, clientSecret, access, refresh, accessTtlSeconds: opts.accessTtlSeconds, tokenFault: (reply, req) => fault('token', reply, req) });

  // Channels ---------------------------------------------------------------------
  app.get('/youtube/v3/channels', async (req, reply) => {
    if (!authed(req, reply)) return reply;
    const q = req.query as Record<string, string>;
    if (!q.part) return gerr(reply, 400, 'required', 'Required parameter: part', 'global');
    if (q.mine !== 'true' && !q.id) return gerr(reply, 400, 'missingRequiredParameter', 'No filter selected. Expected one of: mine, id, forHandle', 'youtube.parameter');
    if (!charge(reply, 1)) return reply;
    const parts = q.part.split(',');
    return {
      kind: 'youtube#channelListResponse', etag: randomId(27), pageInfo: { totalResults: 1, resultsPerPage: 5 },
      items: [{
        kind: 'youtube#channel', etag: randomId(27), id: channel.id,
        ...(parts.includes('snippet') ? { snippet: { title: channel.title, description: '', customUrl: channel.handle, publishedAt: '2020-01-01T00:00:00Z', thumbnails: { default: { url: 'https://yt3.ggpht.com/sim=s88-c-k', width: 88, height: 88 } } } } : {}),
        ...(parts.includes('contentDetails') ? { contentDetails: { relatedPlaylists: { likes: '', uploads: channel.uploads } } } : {}),
        ...(parts.includes('statistics') ? { statistics: { viewCount: '0', subscriberCount: '0', hiddenSubscriberCount: false, videoCount: String(videos.length) } } : {}),
      }],
    };
  });

  // Resumable upload ---------------------------------------------------------------
  /**
   * YouTube makes a private video with publishAt public at that time, and the scheduled time
   * is gone from its status afterwards (https://developers.google.com/youtube/v3/docs/videos#status.publishAt).
   * Applied whenever a video is read.
   */
  const promote = (v: SimVideo) => {
    if (v.privacyStatus === 'private' && v.publishAt && Date.parse(v.publishAt) <= Date.now()) {
      v.privacyStatus = 'public';
      v.publishAt = null;
    }
    return v;
  };
  const videoResource = (v0: SimVideo) => { const v = promote(v0); return {
    kind: 'youtube#video', etag: randomId(27), id: v.id,
    snippet: { publishedAt: v.publishedAt, channelId: v.channelId, title: v.title, description: v.description, tags: v.tags.length ? v.tags : undefined, categoryId: v.categoryId, channelTitle: channel.title },
    status: {
      uploadStatus: v.uploadStatus, ...(v.uploadStatus === 'failed' ? { failureReason: 'codec' } : {}), privacyStatus: v.privacyStatus,
      ...(v.publishAt ? { publishAt: v.publishAt } : {}), license: 'youtube', embeddable: true, publicStatsViewable: true,
      selfDeclaredMadeForKids: v.selfDeclaredMadeForKids, ...(v.containsSyntheticMedia !== null ? { containsSyntheticMedia: v.containsSyntheticMedia } : {}),
    },
  }; };

  app.post('/upload/youtube/v3/videos', async (req, reply) => {
    const f = await fault('session', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    const q = req.query as Record<string, string>;
    if (q.uploadType !== 'resumable') return gerr(reply, 400, 'invalidParameter', 'uploadType must be resumable here', 'global');
    const parts = (q.part ?? '').split(',');
    if (!parts.includes('snippet') || !parts.includes('status')) return gerr(reply, 400, 'invalidPart', "The part parameter must include 'snippet' and 'status' for this request", 'youtube.part');
    const total = Number(req.headers['x-upload-content-length']);
    const type = String(req.headers['x-upload-content-type'] ?? '');
    if (!Number.isInteger(total) || total <= 0) return gerr(reply, 400, 'mediaBodyRequired', 'The request does not include the video content.', 'youtube.video');
    if (total > 256 * 1024 ** 3) return gerr(reply, 400, 'uploadTooLarge', 'Media larger than 256 GB', 'global');
    if (!/^video\//.test(type) && type !== 'application/octet-stream') return gerr(reply, 400, 'invalidContentType', `Media type '${type}' is not supported.`, 'global');
    const body = (req.body ?? {}) as { snippet?: Record<string, unknown>; status?: Record<string, unknown> };
    const s = body.snippet ?? {};
    const st = body.status ?? {};
    const title = typeof s.title === 'string' ? s.title : '';
    if (!title.trim() || [...title].length > 100 || /[<>]/.test(title)) return gerr(reply, 400, 'invalidTitle', 'The request metadata specifies an invalid video title.', 'youtube.video');
    const description = typeof s.description === 'string' ? s.description : '';
    if (Buffer.byteLength(description) > 5000 || /[<>]/.test(description)) return gerr(reply, 400, 'invalidDescription', 'The request metadata specifies an invalid video description.', 'youtube.video');
    const tags = Array.isArray(s.tags) ? (s.tags as string[]) : [];
    // YouTube counts a tag with a space as quoted, plus commas between tags.
    const tagChars = tags.reduce((n, t) => n + [...t].length + (t.includes(' ') ? 2 : 0), 0) + Math.max(0, tags.length - 1);
    if (tags.some((t) => typeof t !== 'string' || [...t].length > 100) || tagChars > 500) {
      return gerr(reply, 400, 'invalidTags', 'The request metadata specifies invalid video keywords.', 'youtube.video');
    }
    if (s.categoryId !== undefined && !/^\d+$/.test(String(s.categoryId))) return gerr(reply, 400, 'invalidCategoryId', 'The snippet.categoryId property specifies an invalid category ID.', 'youtube.video');
    const privacy = st.privacyStatus ?? 'public';
    if (!['public', 'private', 'unlisted'].includes(String(privacy))) return gerr(reply, 400, 'invalidVideoMetadata', 'The request metadata is invalid.', 'youtube.video');
    if (st.publishAt !== undefined) {
      const at = Date.parse(String(st.publishAt));
      if (privacy !== 'private' || !Number.isFinite(at) || at <= Date.now()) {
        return gerr(reply, 400, 'invalidPublishAt', 'The request metadata specifies an invalid scheduled publishing time.', 'youtube.video');
      }
    }
    if (!charge(reply, 0, true)) return reply;
    const id = randomId(40);
    sessions.set(id, { id, channelId: channel.id, total, type, chunks: [], received: 0, meta: { snippet: s, status: { ...st, privacyStatus: privacy } }, notify: q.notifySubscribers !== 'false', videoId: null, expired: false });
    const base = `${req.protocol}://${req.headers.host}`;
    return reply.status(200).header('location', `${base}/upload/youtube/v3/videos?uploadType=resumable&upload_id=${id}`).header('x-guploader-uploadid', id).send();
  });

  async function complete(sess: Session, processingFails: boolean): Promise<SimVideo> {
    const bytes = Buffer.concat(sess.chunks);
    const info = mediaInfo(bytes);
    const probe: { duration: number | null; width?: number; height?: number } = opts.durationOverride !== undefined
      ? { duration: opts.durationOverride, width: info.width, height: info.height }
      : info.durationSeconds !== undefined ? { duration: info.durationSeconds, width: info.width, height: info.height } : await probeVideo(bytes, opts.ffprobePath);
    const s = sess.meta.snippet as Record<string, unknown>;
    const st = sess.meta.status as Record<string, unknown>;
    // Square or vertical; an unknown shape is not a Short.
    const vertical = probe.width !== undefined && probe.height !== undefined && probe.height >= probe.width;
    const v: SimVideo = {
      id: randomId(11), channelId: sess.channelId, title: String(s.title), description: String(s.description ?? ''),
      tags: Array.isArray(s.tags) ? (s.tags as string[]) : [], categoryId: String(s.categoryId ?? '22'),
      privacyStatus: String(st.privacyStatus), publishAt: st.publishAt ? new Date(String(st.publishAt)).toISOString() : null,
      selfDeclaredMadeForKids: st.selfDeclaredMadeForKids === true,
      containsSyntheticMedia: typeof st.containsSyntheticMedia === 'boolean' ? st.containsSyntheticMedia : null,
      notifySubscribers: sess.notify, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'),
      durationSeconds: probe.duration,
      isShort: probe.duration !== null && probe.duration <= (opts.shortMaxSeconds ?? 180) && (opts.shortsNeedVertical === false || vertical),
      uploadStatus: 'uploaded', polls: 0, processingFails, thumbnail: null, publishedAt: new Date().toISOString(),
    };
    videos.push(v);
    sess.videoId = v.id;
    return v;
  }

  app.put('/upload/youtube/v3/videos', async (req, reply) => {
    const q = req.query as Record<string, string>;
    const sess = sessions.get(q.upload_id ?? '');
    if (!authed(req, reply)) return reply;
    if (!sess || sess.expired) return gerr(reply, 404, 'notFound', 'The upload session was not found or has expired.', 'global');
    const cr = String(req.headers['content-range'] ?? '');
    const rangeHeader = () => (sess.received > 0 ? { range: `bytes=0-${sess.received - 1}` } : {});
    const probe = /^bytes \*\/(\d+)$/.exec(cr);
    if (probe) {
      const pf = await fault('probe', reply, req);
      if (pf === 'handled') return reply;
      puts.push(cr);
      if (Number(probe[1]) !== sess.total) return gerr(reply, 400, 'badRequest', 'Content-Range total does not match X-Upload-Content-Length', 'global');
      if (sess.videoId) return reply.status(201).send(videoResource(videos.find((v) => v.id === sess.videoId)!));
      return reply.status(308).headers(rangeHeader()).send();
    }
    const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(cr);
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (!m) return gerr(reply, 400, 'badRequest', 'Content-Range is required (bytes a-b/total)', 'global');
    const [a, b, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const final = b + 1 === sess.total;
    const f = await fault(final ? 'final' : 'chunk', reply, req);
    if (f === 'handled') return reply;
    puts.push(cr);
    if (sess.videoId) return reply.status(201).send(videoResource(videos.find((v) => v.id === sess.videoId)!));
    if (total !== sess.total || b < a || b - a + 1 !== body.length) return gerr(reply, 400, 'badRequest', 'Content-Range does not match the body', 'global');
    if (a !== sess.received) return reply.status(308).headers(rangeHeader()).send(); // not the next byte: tell where to resume
    if (!final && body.length % granularity !== 0) return gerr(reply, 400, 'badRequest', `Chunks must be a multiple of ${granularity} bytes except the last`, 'global');
    sess.chunks.push(Buffer.from(body));
    sess.received += body.length;
    if (!final) return reply.status(308).headers(rangeHeader()).send();
    const v = await complete(sess, f !== null && f.kind === 'processing_failed');
    if (droppedAfterCreate(f, req)) return reply;
    return reply.status(201).send(videoResource(v));
  });

  app.get('/youtube/v3/videos', async (req, reply) => {
    const q = req.query as Record<string, string>;
    // part=statistics is what analytics reads (https://developers.google.com/youtube/v3/docs/videos#statistics).
    if (String(q.part ?? '').split(',').includes('statistics')) {
      const f = await fault('metrics', reply, req);
      if (f === 'handled') return reply;
    }
    if (!authed(req, reply)) return reply;
    if (!charge(reply, 1)) return reply;
    const ids = (q.id ?? '').split(',');
    const items = videos.filter((v) => ids.includes(v.id)).map((v) => {
      if (v.uploadStatus === 'uploaded') {
        v.polls++;
        if (v.polls >= (opts.processingPolls ?? 1)) v.uploadStatus = v.processingFails ? 'failed' : 'processed';
      }
      const stats = String(q.part ?? '').split(',').includes('statistics') ? (() => { const c = metrics.read(v.id); return { statistics: { viewCount: String(c.views), likeCount: String(c.likes), favoriteCount: '0', commentCount: String(c.comments) } }; })() : {};
      return { ...videoResource(v), ...stats, processingDetails: { processingStatus: v.uploadStatus === 'processed' ? 'succeeded' : v.uploadStatus === 'failed' ? 'failed' : 'processing' } };
    });
    return { kind: 'youtube#videoListResponse', items, pageInfo: { totalResults: items.length, resultsPerPage: items.length } };
  });

  /**
   * videos.delete (https://developers.google.com/youtube/v3/docs/videos/delete): `DELETE
   * /youtube/v3/videos?id=…` needs the youtube, youtube.force-ssl or youtubepartner scope (else 403
   * insufficientPermissions), only the channel's own video (else 403 forbidden), answers 204 and
   * charges 50 units; a missing video is 404 videoNotFound. The video, its comments and its
   * statistics are gone afterwards.
   */
  app.delete('/youtube/v3/videos', async (req, reply) => {
    if (!authed(req, reply)) return reply;
    const granted = (access.get(bearerToken(req)!)?.scope ?? '').split(' ');
    const may = ['youtube', 'youtube.force-ssl', 'youtubepartner'].some((x) => granted.includes(`https://www.googleapis.com/auth/${x}`));
    if (!may) return gerr(reply, 403, 'insufficientPermissions', 'Request had insufficient authentication scopes.', 'global');
    const id = (req.query as Record<string, string>).id;
    if (!id) return gerr(reply, 400, 'required', 'No filter selected. Expected one of: id', 'global');
    const i = videos.findIndex((v) => v.id === id);
    if (i < 0) return gerr(reply, 404, 'videoNotFound', 'The video that you are trying to delete cannot be found.', 'youtube.video');
    if (videos[i].channelId !== channel.id) return gerr(reply, 403, 'forbidden', 'The video that you are trying to delete cannot be deleted. The request might not be properly authorized.', 'youtube.video');
    if (!charge(reply, 50)) return reply;
    videos.splice(i, 1);
    for (let c = comments.length - 1; c >= 0; c--) if (comments[c].videoId === id) comments.splice(c, 1);
    return reply.status(204).send();
  });

  /**
   * videos.update (https://developers.google.com/youtube/v3/docs/videos/update): `PUT
   * /youtube/v3/videos?part=snippet,status` with the video resource. Same scopes and ownership as
   * delete; 50 units. Every writable field of a part sent is replaced (a field left out is cleared),
   * and a snippet must carry `title` and `categoryId` (400 invalidTitle / invalidCategoryId); the
   * title, description and tags follow the upload's rules; publishAt only on a private video.
   */
  app.put('/youtube/v3/videos', async (req, reply) => {
    const f = await fault('update', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    const granted = (access.get(bearerToken(req)!)?.scope ?? '').split(' ');
    const may = ['youtube', 'youtube.force-ssl', 'youtubepartner'].some((x) => granted.includes(`https://www.googleapis.com/auth/${x}`));
    if (!may) return gerr(reply, 403, 'insufficientPermissions', 'Request had insufficient authentication scopes.', 'global');
    const parts = String((req.query as Record<string, string>).part ?? '').split(',').filter(Boolean);
    if (parts.length === 0 || parts.some((x) => !['snippet', 'status', 'localizations', 'recordingDetails'].includes(x))) {
      return gerr(reply, 400, 'invalidPart', "The part parameter must name the video resource's writable parts", 'youtube.part');
    }
    const body = (req.body ?? {}) as { id?: string; snippet?: Record<string, unknown>; status?: Record<string, unknown> };
    const v = videos.find((x) => x.id === body.id);
    if (!v) return gerr(reply, 404, 'videoNotFound', 'The video that you are trying to update cannot be found.', 'youtube.video');
    if (v.channelId !== channel.id) return gerr(reply, 403, 'forbidden', 'The video that you are trying to update cannot be updated. The request might not be properly authorized.', 'youtube.video');
    const next = { ...v };
    if (parts.includes('snippet')) {
      const s = body.snippet ?? {};
      const title = typeof s.title === 'string' ? s.title : '';
      if (!title.trim() || [...title].length > 100 || /[<>]/.test(title)) return gerr(reply, 400, 'invalidTitle', 'The request metadata specifies an invalid or empty video title.', 'youtube.video');
      if (s.categoryId === undefined || !/^\d+$/.test(String(s.categoryId))) return gerr(reply, 400, 'invalidCategoryId', 'The snippet.categoryId property specifies an invalid category ID.', 'youtube.video');
      const description = typeof s.description === 'string' ? s.description : '';
      if (Buffer.byteLength(description) > 5000 || /[<>]/.test(description)) return gerr(reply, 400, 'invalidDescription', 'The request metadata specifies an invalid video description.', 'youtube.video');
      const tags = Array.isArray(s.tags) ? (s.tags as string[]) : [];
      const tagChars = tags.reduce((n, t) => n + [...String(t)].length + (String(t).includes(' ') ? 2 : 0), 0) + Math.max(0, tags.length - 1);
      if (tags.some((t) => typeof t !== 'string' || [...t].length > 100) || tagChars > 500) return gerr(reply, 400, 'invalidTags', 'The request metadata specifies invalid video keywords.', 'youtube.video');
      Object.assign(next, { title, description, tags, categoryId: String(s.categoryId) });
    }
    if (parts.includes('status')) {
      const st = body.status ?? {};
      const privacy = String(st.privacyStatus ?? '');
      if (!['public', 'private', 'unlisted'].includes(privacy)) return gerr(reply, 400, 'invalidVideoMetadata', 'The request metadata is invalid.', 'youtube.video');
      if (st.publishAt !== undefined && privacy !== 'private') return gerr(reply, 400, 'invalidPublishAt', 'The request metadata specifies an invalid scheduled publishing time.', 'youtube.video');
      Object.assign(next, {
        privacyStatus: privacy, publishAt: st.publishAt !== undefined ? String(st.publishAt) : null,
        selfDeclaredMadeForKids: st.selfDeclaredMadeForKids === true, containsSyntheticMedia: typeof st.containsSyntheticMedia === 'boolean' ? st.containsSyntheticMedia : null,
      });
    }
    if (!charge(reply, 50)) return reply;
    Object.assign(v, next);
    updates.push({ id: v.id, parts });
    return videoResource(v);
  });

  // Thumbnails ---------------------------------------------------------------------
  app.post('/upload/youtube/v3/thumbnails/set', async (req, reply) => {
    const f = await fault('thumbnail', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    const v = videos.find((x) => x.id === (req.query as Record<string, string>).videoId);
    if (!v) return gerr(reply, 404, 'videoNotFound', 'The video that you are trying to update cannot be found.', 'youtube.thumbnail');
    if (opts.verifiedChannel === false) return gerr(reply, 403, 'forbidden', 'The authenticated user doesnt have permissions for uploading and setting custom video thumbnails.', 'youtube.thumbnail');
    if (v.isShort) return gerr(reply, 400, 'invalidVideo', 'Custom thumbnails cannot be set on Shorts.', 'youtube.thumbnail');
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (body.length === 0) return gerr(reply, 400, 'mediaBodyRequired', 'The request does not include the image content.', 'youtube.thumbnail');
    if (body.length > thumbMax) return gerr(reply, 400, 'failedPrecondition', `The thumbnail image file is too large: the maximum file size is ${thumbMax} bytes.`, 'youtube.thumbnail');
    const format = mediaInfo(body).format;
    const type = format === 'jpeg' ? 'image/jpeg' : format === 'png' ? 'image/png' : null;
    if (!type) return gerr(reply, 400, 'invalidImage', 'The provided image content is invalid.', 'youtube.thumbnail');
    if (!charge(reply, 50)) return reply;
    v.thumbnail = { bytes: body.length, type };
    return { kind: 'youtube#thumbnailSetResponse', items: [{ default: { url: `https://i.ytimg.com/vi/${v.id}/default.jpg`, width: 120, height: 90 } }] };
  });

  // Comments and uploads playlist -----------------------------------------------------
  app.post('/youtube/v3/commentThreads', async (req, reply) => {
    const f = await fault('comment', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    const b = (req.body ?? {}) as { snippet?: { channelId?: string; videoId?: string; topLevelComment?: { snippet?: { textOriginal?: string } } } };
    const text = b.snippet?.topLevelComment?.snippet?.textOriginal;
    const v = videos.find((x) => x.id === b.snippet?.videoId);
    if (!v) return gerr(reply, 404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.', 'youtube.commentThread');
    if (!text) return gerr(reply, 400, 'commentTextRequired', 'The comment resource that is being inserted must specify a value for the snippet.topLevelComment.snippet.textOriginal property.', 'youtube.commentThread');
    if ([...text].length > 10_000) return gerr(reply, 400, 'commentTextTooLong', 'The comment resource that is being inserted or updated contains too many characters in the snippet.topLevelComment.snippet.textOriginal property.', 'youtube.commentThread');
    if (v.privacyStatus === 'private' && opts.commentsOnPrivate === false) return gerr(reply, 403, 'forbidden', 'The comment thread could not be created due to insufficient permissions.', 'youtube.commentThread');
    if (!charge(reply, 50)) return reply;
    const c: SimComment = { id: `Ug${randomId(24)}4AaABAg`, videoId: v.id, channelId: channel.id, text, publishedAt: new Date().toISOString() };
    comments.push(c);
    return { kind: 'youtube#commentThread', id: c.id, snippet: { channelId: v.channelId, videoId: v.id, topLevelComment: { kind: 'youtube#comment', id: c.id, snippet: { textOriginal: text, textDisplay: text, authorChannelId: { value: channel.id } } }, canReply: true, totalReplyCount: 0, isPublic: v.privacyStatus === 'public' } };
  });

  app.get('/youtube/v3/commentThreads', async (req, reply) => {
    const f = await fault('list', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    if (!charge(reply, 1)) return reply;
    const q = req.query as Record<string, string>;
    const items = comments.filter((c) => c.videoId === q.videoId).map((c) => ({
      kind: 'youtube#commentThread', id: c.id,
      snippet: { videoId: c.videoId, topLevelComment: { id: c.id, snippet: { textOriginal: c.text, authorChannelId: { value: c.channelId }, publishedAt: c.publishedAt } } },
    }));
    return { kind: 'youtube#commentThreadListResponse', items, pageInfo: { totalResults: items.length, resultsPerPage: 100 } };
  });

  app.get('/youtube/v3/playlistItems', async (req, reply) => {
    const f = await fault('list', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    const q = req.query as Record<string, string>;
    if (q.playlistId !== channel.uploads) return gerr(reply, 404, 'playlistNotFound', 'The playlist identified with the request\'s playlistId parameter cannot be found.', 'youtube.playlistItem');
    if (!charge(reply, 1)) return reply;
    const max = q.maxResults === undefined ? 5 : Number(q.maxResults);
    if (!Number.isInteger(max) || max < 0 || max > 50) return gerr(reply, 400, 'invalidParameter', `Invalid value '${q.maxResults}' for query parameter 'maxResults': 0 to 50.`, 'youtube.parameter');
    let start = 0;
    if (q.pageToken !== undefined) {
      const m = /^p(\d+)$/.exec(Buffer.from(q.pageToken, 'base64url').toString());
      if (!m) return gerr(reply, 400, 'invalidPageToken', 'The request specifies an invalid page token.', 'youtube.parameter');
      start = Number(m[1]);
    }
    const all = newestFirst(videos, (v) => Date.parse(v.publishedAt));
    const items = all.slice(start, start + max).map((v) => ({
      kind: 'youtube#playlistItem', id: randomId(40),
      snippet: { publishedAt: v.publishedAt, channelId: v.channelId, title: v.title, playlistId: channel.uploads, resourceId: { kind: 'youtube#video', videoId: v.id } },
    }));
    const token = (n: number) => Buffer.from(`p${n}`).toString('base64url');
    return {
      kind: 'youtube#playlistItemListResponse', items, pageInfo: { totalResults: videos.length, resultsPerPage: max },
      ...(max > 0 && start + max < all.length ? { nextPageToken: token(start + max) } : {}),
      ...(start > 0 ? { prevPageToken: token(Math.max(0, start - max)) } : {}),
    };
  });

  faults.route(app);

  return {
    url: await listen(app), app, channel, clientId, clientSecret, videos, comments, sessions, calls, puts, metrics, updates,
    quotaUsed: () => ({ units: quota.units, inserts: quota.inserts }),
    ...simControls(app, faults, access, () => { access.clear(); refresh.clear(); }),
    expireSessions: () => { for (const s of sessions.values()) s.expired = true; },
    addVideo(title, at = new Date()) {
      const v: SimVideo = {
        id: randomId(11), channelId: channel.id, title, description: '', tags: [], categoryId: '22', privacyStatus: 'public', publishAt: null,
        selfDeclaredMadeForKids: false, containsSyntheticMedia: null, notifySubscribers: false, bytes: 0, sha256: '', durationSeconds: null, isShort: false,
        uploadStatus: 'processed', polls: 0, processingFails: false, thumbnail: null, publishedAt: at.toISOString(),
      };
      videos.push(v);
      return v;
    },
  };
}

await runAsMain(import.meta.url, 'youtube', startYouTubeSimulator, (s) => ({ clientId: s.clientId, clientSecret: s.clientSecret }));
