/**
 * TikTok simulator: a real HTTP server on loopback speaking the parts of TikTok's Login Kit
 * v2 and Content Posting API that Herald uses, with TikTok's paths, envelope
 * `{data, error:{code, message, log_id}}`, id formats (`v_pub_file~v2-1.<digits>`,
 * numeric post ids), status machine and rules
 * (https://developers.tiktok.com/doc/content-posting-api-reference-direct-post and the pages it links):
 * - OAuth: GET /v2/auth/authorize/ (client_key, comma-separated scope, response_type=code)
 *   approves at once and redirects with `code`; POST /v2/oauth/token/ (form: client_key,
 *   client_secret, code, grant_type=authorization_code, redirect_uri; or
 *   grant_type=refresh_token) answers `{open_id, scope, access_token, expires_in,
 *   refresh_token, refresh_expires_in, token_type}`. Lifetimes are options (CONFLICT
 *   upstream: 24 h / 365 d or 2 h / 180 d); refresh tokens rotate by default (the old one dies).
 * - GET /v2/user/info/?fields=...; POST /v2/post/publish/creator_info/query/ (configurable
 *   privacy_level_options, max_video_post_duration_sec, interaction switches; `unaudited`
 *   makes SELF_ONLY the only option, as for apps before TikTok's audit).
 * - POST /v2/post/publish/video/init/ and /inbox/video/init/ (FILE_UPLOAD with the chunk
 *   rules, or PULL_FROM_URL), POST /v2/post/publish/content/init/ (photos, pull only, no PNG),
 *   PUT <upload_url> (Content-Range byte-exact, chunks in order, 206 then 201),
 *   POST /v2/post/publish/status/fetch/ (PROCESSING_UPLOAD | PROCESSING_DOWNLOAD ->
 *   PUBLISH_COMPLETE | SEND_TO_USER_INBOX | FAILED with fail_reason; the public post id
 *   appears one poll after PUBLISH_COMPLETE, never for SELF_ONLY), POST /v2/video/list/
 *   (newest first; `max_count` 1-20, default 10; `cursor` a UTC Unix time in ms, answering
 *   the videos posted before it, and `has_more`; https://developers.tiktok.com/doc/tiktok-api-v2-video-list).
 * - Rules enforced at init (invalid_params): privacy_level in the creator's options
 *   (privacy_level_option_mismatch), brand content not SELF_ONLY, title/description lengths in
 *   UTF-16 code units (video title 2,200; photo title 90, description 4,000), photo count
 *   (1-35) and cover index, video_cover_timestamp_ms, the media transfer guide's chunk rules
 *   (https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide); while
 *   processing (FAILED + fail_reason), read from the bytes by mediaInfo: video format
 *   MP4/MOV/WebM and photo format JPEG/WebP (file_format_check_failed), photos over 20 MB
 *   (picture_size_check_failed), the duration (movie header, ffprobe as fallback) against
 *   max_video_post_duration_sec (duration_check_failed); media pulled from its URL through
 *   the SSRF guard (`mediaFetch` option; video_pull_failed / photo_pull_failed).
 * - Per-token per-minute limits (creator info 20, init 6, status 30; configurable) answer
 *   429 rate_limit_exceeded.
 * - Faults (addFault or POST /__sim/faults): rate limit, 5xx (internal), expired token,
 *   processing failure, too many posts (spam_risk_too_many_posts), slow, dropped connection,
 *   dropped answer after the post was accepted (`drop_after_create`).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { listen, runAsMain, simApp, simControls, type SimulatorBase } from '../common/app.ts';
import { numericIds } from '../common/ids.ts';
import { droppedAfterCreate, FaultQueue } from '../common/faults.ts';
import { MetricsBook } from '../common/metrics.ts';
import { authorizeRoute, bearerToken, takeCode } from '../common/oauth.ts';
import { fetchMedia, type SimMediaFetchPolicy } from '../common/fetch-media.ts';
import { mediaInfo } from '../common/media-info.ts';
import { mp4DurationSeconds } from '../common/media-info.ts';
import { ffprobe, withTempFile } from '../common/probe.ts';

export interface TikTokSimCreator {
  privacyLevelOptions: string[];
  maxVideoPostDurationSec: number;
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
}

export interface TikTokSimOptions {
  clientKey?: string;
  clientSecret?: string;
  /** Access token lifetime, seconds. CONFLICT upstream (86,400 or 7,200). Default 86,400. */
  accessTtlSeconds?: number;
  /** Refresh token lifetime, seconds. CONFLICT upstream (365 or 180 days). Default 365 days. */
  refreshTtlSeconds?: number;
  /** Refresh returns a new refresh token and kills the old one. Default true. */
  rotateRefreshTokens?: boolean;
  /** Per-token per-minute limits. */
  limits?: { creatorInfo?: number; init?: number; status?: number };
  /** Files below this go in one chunk; chunks are minChunkBytes..maxChunkBytes (TikTok: 5 MB / 64 MB; last up to 128 MB). */
  minChunkBytes?: number;
  maxChunkBytes?: number;
  /** Largest photo pulled for a photo post, bytes (20 MB; third-party figure). Over it: picture_size_check_failed. */
  photoMaxBytes?: number;
  /** Text limits in UTF-16 code units: video post_info.title 2,200; photo title 90, description 4,000. */
  textMax?: { videoTitle?: number; photoTitle?: number; photoDescription?: number };
  /** Status polls a publish stays PROCESSING_*. Default 1. */
  processingPolls?: number;
  /** Unaudited app: creators may only post SELF_ONLY. */
  unaudited?: boolean;
  creator?: Partial<TikTokSimCreator>;
  /** Which media URLs PULL_FROM_URL may download (default: public addresses only, through the SSRF guard). */
  mediaFetch?: SimMediaFetchPolicy;
}

type FaultOp = 'token' | 'creator_info' | 'init' | 'upload' | 'status' | 'list' | 'metrics' | 'any';
type Fault = {
  op: FaultOp;
  kind: 'rate_limit' | 'server_error' | 'expired_token' | 'slow' | 'drop' | 'drop_after_create' | 'processing_failed' | 'too_many_posts';
  count: number; delayMs?: number;
};

interface Publish {
  id: string; owner: string; kind: 'video' | 'photo'; mode: 'direct' | 'inbox'; source: string;
  postInfo: Record<string, unknown>; sourceInfo: Record<string, unknown>;
  status: 'PROCESSING_UPLOAD' | 'PROCESSING_DOWNLOAD' | 'PUBLISH_COMPLETE' | 'SEND_TO_USER_INBOX' | 'FAILED';
  failReason?: string; uploaded: Buffer[]; uploadedBytes: number; nextChunk: number; polls: number; created: number;
  forcedFail?: boolean; uploadId?: string; checked?: Promise<string | null>; postId?: string; completedPolls: number;
}
/** `createTime` in seconds as the API shows it; `createMs` the instant behind it (the list cursor's unit). */
export interface TikTokPost {
  id: string; publishId: string; owner: string; kind: 'video' | 'photo'; title: string; description: string; privacyLevel: string;
  postInfo: Record<string, unknown>; sourceInfo: Record<string, unknown>; createTime: number; createMs?: number; bytes?: number;
}

export interface TikTokSimulator extends SimulatorBase<Fault> {
  user: { openId: string; unionId: string; username: string; displayName: string };
  creator: TikTokSimCreator;
  posts: TikTokPost[];
  /** The videos' counters (POST /v2/video/query/). */
  metrics: MetricsBook;
  publishes: Map<string, Publish>;
  clientKey: string;
  /** The client key again, under the name the sandbox (src/sandbox/index.ts) reads. */
  clientId: string;
  /** Posts a public video directly, as if the creator posted it in the app. */
  addVideo(caption: string, at?: Date): TikTokPost;
}

const MB = 1024 * 1024;
const postId = numericIds(7_300_000_000_000_000_000n, 97);
const logId = () => `${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}${randomBytes(10).toString('hex').toUpperCase()}`;
const PRIVACY = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];

const ok = (data: unknown) => ({ data, error: { code: 'ok', message: '', log_id: logId() } });
const ttError = (reply: FastifyReply, status: number, code: string, message: string) =>
  reply.status(status).send({ data: {}, error: { code, message, log_id: logId() } });

/** The video's duration in seconds from the MP4 movie header, else as ffprobe reads the container's, or null. */
async function probeSeconds(bytes: Buffer): Promise<number | null> {
  // The movie header first (no ffprobe needed, docs/decisions/0025-simulators-without-ffprobe.md); ffprobe only for other layouts.
  const fromHeader = mp4DurationSeconds(bytes);
  if (fromHeader !== null) return fromHeader;
  const out = await withTempFile(bytes, 'tiktok-sim-', 'v.mp4', (file) => ffprobe(file, ['-show_entries', 'format=duration', '-of', 'csv=p=0'], { timeoutMs: 20_000 }));
  const n = Number(out?.trim() ?? NaN);
  return Number.isFinite(n) ? n : null;
}

export async function startTikTokSimulator(opts: TikTokSimOptions = {}): Promise<TikTokSimulator> {
  const clientKey = opts.clientKey ?? 'sim-tiktok-client-key';
  const clientSecret = opts.clientSecret ?? 'sim-tiktok-secret';
  const accessTtl = opts.accessTtlSeconds ?? 86_400;
  const refreshTtl = opts.refreshTtlSeconds ?? 365 * 86_400;
  const rotate = opts.rotateRefreshTokens ?? true;
  const limits = { creatorInfo: 20, init: 6, status: 30, ...(opts.limits ?? {}) };
  const minChunk = opts.minChunkBytes ?? 5 * MB;
  const maxChunk = opts.maxChunkBytes ?? 64 * MB;
  const photoMaxBytes = opts.photoMaxBytes ?? 20 * MB;
  // Counted in UTF-16 code units (a JavaScript string's length), as TikTok counts.
  const textMax = { videoTitle: 2200, photoTitle: 90, photoDescription: 4000, ...(opts.textMax ?? {}) };
  const user = { openId: `-000${randomBytes(12).toString('hex')}`, unionId: `u_${randomBytes(12).toString('hex')}`, username: 'herald.tiktok', displayName: 'Herald TikTok Sim' };
  const creator: TikTokSimCreator = {
    privacyLevelOptions: opts.unaudited ? ['SELF_ONLY'] : ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
    maxVideoPostDurationSec: 600, commentDisabled: false, duetDisabled: false, stitchDisabled: false, ...(opts.creator ?? {}),
  };
  const codes = new Map<string, { redirectUri: string; expires: number; scope: string[] }>();
  const tokens = new Map<string, { openId: string; expires: number; scope: string[] }>();
  const refreshTokens = new Map<string, { openId: string; expires: number; scope: string[] }>();
  const publishes = new Map<string, Publish>();
  const uploads = new Map<string, Publish>();
  const posts: TikTokPost[] = [];
  const metrics = new MetricsBook();
  const calls = new Map<string, number>();
  const windows = new Map<string, number[]>();

  const app = await simApp({ calls, bodyLimit: 256 * MB, raw: ['video/mp4', 'video/quicktime', 'video/webm', 'application/octet-stream'] });
  const faults = new FaultQueue<Fault>({
    rate_limit: (reply) => ttError(reply, 429, 'rate_limit_exceeded', 'API rate limit exceeded, please retry later.'),
    server_error: (reply) => ttError(reply, 500, 'internal', 'Something went wrong. Please try again later.'),
    expired_token: (reply) => ttError(reply, 401, 'access_token_invalid', 'The access token is invalid or not found in the request.'),
    too_many_posts: (reply) => ttError(reply, 403, 'spam_risk_too_many_posts', 'The daily post cap from the API is reached for the current user.'),
  });
  const fault = (op: FaultOp, reply: FastifyReply, req: FastifyRequest) => faults.apply(op, reply, req);

  function auth(req: FastifyRequest, reply: FastifyReply, scope?: string): { openId: string; token: string } | null {
    const token = bearerToken(req);
    const t = token ? tokens.get(token) : undefined;
    if (!t || t.expires < Date.now()) { ttError(reply, 401, 'access_token_invalid', 'The access token is invalid or not found in the request.'); return null; }
    if (scope && !t.scope.includes(scope)) { ttError(reply, 401, 'scope_not_authorized', `The user did not authorize the scope required for completing this request (${scope}).`); return null; }
    return { openId: t.openId, token: token! };
  }
  function limited(reply: FastifyReply, token: string, what: keyof typeof limits): boolean {
    const key = `${what}:${token}`;
    const now = Date.now();
    const w = (windows.get(key) ?? []).filter((t) => t > now - 60_000);
    if (w.length >= limits[what]) { windows.set(key, w); ttError(reply, 429, 'rate_limit_exceeded', `API rate limit exceeded: ${limits[what]} requests per minute.`); return true; }
    w.push(now);
    windows.set(key, w);
    return false;
  }
  const issue = (openId: string, scope: string[]) => {
    const access = `act.${randomBytes(24).toString('hex')}!${randomBytes(2).toString('hex')}.va`;
    const refresh = `rft.${randomBytes(24).toString('hex')}!${randomBytes(2).toString('hex')}.va`;
    tokens.set(access, { openId, expires: Date.now() + accessTtl * 1000, scope });
    refreshTokens.set(refresh, { openId, expires: Date.now() + refreshTtl * 1000, scope });
    return { open_id: openId, scope: scope.join(','), access_token: access, expires_in: accessTtl, refresh_token: refresh, refresh_expires_in: refreshTtl, token_type: 'Bearer' };
  };
  const oauthError = (reply: FastifyReply, error: string, description: string) => reply.status(400).send({ error, error_description: description, log_id: logId() });

  // OAuth ---------------------------------------------------------------------
  const scopeOf = (q: Record<string, string>) => q.scope.split(',').map((s) => s.trim());
  authorizeRoute(app, '/v2/auth/authorize/', codes, {
    required: ['client_key', 'redirect_uri', 'scope', 'response_type', 'state'],
    refuse: (q, missing, reply) => {
      if (missing.length) return oauthError(reply, 'invalid_request', `Missing parameter(s): ${missing.join(', ')}`);
      if (q.client_key !== clientKey) return oauthError(reply, 'invalid_client', 'client_key is invalid');
      if (q.response_type !== 'code') return oauthError(reply, 'unsupported_response_type', 'response_type must be code');
      if (!scopeOf(q).includes('user.info.basic')) return oauthError(reply, 'invalid_scope', 'user.info.basic is required');
      return undefined;
    },
    code: () => randomBytes(24).toString('base64url'),
    grant: (q) => ({ redirectUri: q.redirect_uri, expires: Date.now() + 10 * 60_000, scope: scopeOf(q) }),
    back: (q, code) => [['code', code], ['scopes', scopeOf(q).join(',')], ['state', q.state]],
  });

  app.post('/v2/oauth/token/', async (req, reply) => {
    const f = await fault('token', reply, req);
    if (f === 'handled') return reply;
    if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return oauthError(reply, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
    const b = (req.body ?? {}) as Record<string, string>;
    if (b.client_key !== clientKey || b.client_secret !== clientSecret) return oauthError(reply, 'invalid_client', 'Client key or secret is incorrect.');
    if (b.grant_type === 'authorization_code') {
      const c = takeCode(codes, b.code);
      if (!c) return oauthError(reply, 'invalid_grant', 'Authorization code is expired or invalid.');
      if (c.redirectUri !== b.redirect_uri) return oauthError(reply, 'invalid_grant', 'redirect_uri does not match the authorization request.');
      return issue(user.openId, c.scope);
    }
    if (b.grant_type === 'refresh_token') {
      const r = refreshTokens.get(b.refresh_token);
      if (!r || r.expires < Date.now()) return oauthError(reply, 'invalid_grant', 'Refresh token is invalid or expired.');
      if (rotate) {
        refreshTokens.delete(b.refresh_token);
        return issue(r.openId, r.scope);
      }
      const out = issue(r.openId, r.scope);
      refreshTokens.delete(out.refresh_token);
      return { ...out, refresh_token: b.refresh_token, refresh_expires_in: Math.round((r.expires - Date.now()) / 1000) };
    }
    return oauthError(reply, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  });

  // User and creator ------------------------------------------------------------
  app.get('/v2/user/info/', async (req, reply) => {
    const a = auth(req, reply, 'user.info.basic');
    if (!a) return reply;
    const fields = String((req.query as Record<string, string>).fields ?? '').split(',').filter(Boolean);
    if (!fields.length) return ttError(reply, 400, 'invalid_params', 'fields is required');
    const t = tokens.get(a.token)!;
    const all: Record<string, unknown> = { open_id: a.openId, union_id: user.unionId, avatar_url: 'https://p16-sign.tiktokcdn-us.com/sim.jpeg', display_name: user.displayName };
    if (t.scope.includes('user.info.profile')) all.username = user.username;
    return ok({ user: Object.fromEntries(Object.entries(all).filter(([k]) => fields.includes(k))) });
  });

  app.post('/v2/post/publish/creator_info/query/', async (req, reply) => {
    const f = await fault('creator_info', reply, req);
    if (f === 'handled') return reply;
    const a = auth(req, reply, 'video.publish');
    if (!a) return reply;
    if (limited(reply, a.token, 'creatorInfo')) return reply;
    return ok({
      creator_avatar_url: 'https://p16-sign.tiktokcdn-us.com/sim.jpeg', creator_username: user.username, creator_nickname: user.displayName,
      privacy_level_options: creator.privacyLevelOptions, comment_disabled: creator.commentDisabled, duet_disabled: creator.duetDisabled,
      stitch_disabled: creator.stitchDisabled, max_video_post_duration_sec: creator.maxVideoPostDurationSec,
    });
  });

  // Publishing ------------------------------------------------------------------
  const complete = (p: Publish) => {
    if (p.status === 'PUBLISH_COMPLETE' || p.status === 'SEND_TO_USER_INBOX' || p.status === 'FAILED') return;
    if (p.mode === 'inbox') { p.status = 'SEND_TO_USER_INBOX'; return; }
    p.status = 'PUBLISH_COMPLETE';
    const privacy = String(p.postInfo.privacy_level ?? 'SELF_ONLY');
    const post: TikTokPost = {
      id: postId(), publishId: p.id, owner: p.owner, kind: p.kind, title: String(p.postInfo.title ?? ''), description: String(p.postInfo.description ?? ''),
      privacyLevel: privacy, postInfo: p.postInfo, sourceInfo: p.sourceInfo, createTime: Math.floor(Date.now() / 1000), createMs: Date.now(), bytes: p.uploadedBytes || undefined,
    };
    posts.push(post);
    if (privacy !== 'SELF_ONLY') p.postId = post.id;
  };

  /**
   * Checks a video (after upload or pull): resolves a fail_reason or null. The format by its
   * magic bytes (mediaInfo: MP4, MOV or WebM, else file_format_check_failed), the duration
   * (movie header, ffprobe as fallback) against max_video_post_duration_sec (duration_check_failed).
   */
  const check = (p: Publish, bytes: Buffer | null, pullFailed: string) => {
    p.checked = (async () => {
      if (p.forcedFail) return 'file_format_check_failed';
      if (!bytes || bytes.length === 0) return pullFailed;
      const info = mediaInfo(bytes);
      if (info.format !== 'mp4' && info.format !== 'mov' && info.format !== 'webm') return 'file_format_check_failed';
      const secs = info.durationSeconds ?? await probeSeconds(bytes);
      if (secs === null) return 'file_format_check_failed';
      if (secs > creator.maxVideoPostDurationSec || secs < 1) return 'duration_check_failed';
      return null;
    })();
  };
  /**
   * Photos pulled for a photo post: the first problem as a fail_reason, or null. A photo that
   * cannot be pulled: photo_pull_failed; not JPEG or WebP by its bytes (PNG included):
   * file_format_check_failed; over `photoMaxBytes` (20 MB): picture_size_check_failed.
   */
  const photoProblem = (pulled: Array<Buffer | null>): string | null => {
    if (pulled.some((b) => b === null || b.length === 0)) return 'photo_pull_failed';
    for (const b of pulled as Buffer[]) {
      const f = mediaInfo(b).format;
      if (f !== 'jpeg' && f !== 'webp') return 'file_format_check_failed';
      if (b.length > photoMaxBytes) return 'picture_size_check_failed';
    }
    return null;
  };
  /** PULL_FROM_URL: downloads through the SSRF guard (sim/common/fetch-media.ts); null when it failed or was refused. */
  const pull = async (url: string): Promise<Buffer | null> => {
    const r = await fetchMedia(url, opts.mediaFetch);
    return r.ok ? r.bytes : null;
  };

  function checkPostInfo(reply: FastifyReply, pi: Record<string, unknown>, kind: 'video' | 'photo'): boolean {
    const privacy = pi.privacy_level;
    if (typeof privacy !== 'string' || !PRIVACY.includes(privacy)) { ttError(reply, 400, 'invalid_params', 'post_info.privacy_level is required and must be a valid privacy level'); return false; }
    if (!creator.privacyLevelOptions.includes(privacy)) {
      if (opts.unaudited) ttError(reply, 403, 'unaudited_client_can_only_post_to_private_accounts', 'Please review our integration guidelines at https://developers.tiktok.com/doc/content-sharing-guidelines/');
      else ttError(reply, 400, 'privacy_level_option_mismatch', `privacy_level ${privacy} is not in the creator's privacy_level_options`);
      return false;
    }
    if (pi.brand_content_toggle === true && privacy === 'SELF_ONLY') { ttError(reply, 400, 'invalid_params', 'Branded content cannot be posted with privacy_level SELF_ONLY'); return false; }
    for (const k of ['disable_comment', 'disable_duet', 'disable_stitch', 'brand_content_toggle', 'brand_organic_toggle', 'is_aigc', 'auto_add_music']) {
      if (pi[k] !== undefined && typeof pi[k] !== 'boolean') { ttError(reply, 400, 'invalid_params', `post_info.${k} must be a boolean`); return false; }
    }
    if (creator.commentDisabled && pi.disable_comment === false) { ttError(reply, 400, 'invalid_params', 'The creator has disabled comments: disable_comment must be true'); return false; }
    if (kind === 'video') {
      if (typeof pi.title === 'string' && pi.title.length > textMax.videoTitle) { ttError(reply, 400, 'invalid_params', `post_info.title is longer than ${textMax.videoTitle} UTF-16 runes`); return false; }
      const c = pi.video_cover_timestamp_ms;
      if (c !== undefined && (typeof c !== 'number' || !Number.isInteger(c) || c < 0)) { ttError(reply, 400, 'invalid_params', 'post_info.video_cover_timestamp_ms must be a non-negative integer'); return false; }
    } else {
      if (typeof pi.title === 'string' && pi.title.length > textMax.photoTitle) { ttError(reply, 400, 'invalid_params', `post_info.title is longer than ${textMax.photoTitle} UTF-16 runes`); return false; }
      if (typeof pi.description === 'string' && pi.description.length > textMax.photoDescription) { ttError(reply, 400, 'invalid_params', `post_info.description is longer than ${textMax.photoDescription} UTF-16 runes`); return false; }
    }
    return true;
  }

  function newPublish(owner: string, kind: 'video' | 'photo', mode: 'direct' | 'inbox', source: string, postInfo: Record<string, unknown>, sourceInfo: Record<string, unknown>, f: Fault | null): Publish {
    const p: Publish = {
      id: `${source === 'FILE_UPLOAD' ? 'v_pub_file' : kind === 'photo' ? 'p_pub_url' : 'v_pub_url'}~v2-1.${postId()}`, owner, kind, mode, source, postInfo, sourceInfo,
      status: source === 'FILE_UPLOAD' ? 'PROCESSING_UPLOAD' : 'PROCESSING_DOWNLOAD', uploaded: [], uploadedBytes: 0, nextChunk: 0, polls: 0, created: Date.now(),
      forcedFail: f?.kind === 'processing_failed', completedPolls: 0,
    };
    publishes.set(p.id, p);
    return p;
  }

  /**
   * The media transfer guide's chunk restrictions
   * (https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide), checked at
   * init: total_chunk_count = floor(video_size / chunk_size); every chunk minChunk-maxChunk
   * (5-64 MB) except the last, which takes the trailing bytes (up to 2 x maxChunk, 128 MB); a
   * video under minChunk goes whole (chunk_size = video_size); one over maxChunk in several
   * chunks; 1 to 1,000 chunks. Null when the plan is valid, else the refusal's message.
   */
  function chunkRulesBroken(size: number, chunk: number, count: number): string | null {
    if (![size, chunk, count].every((n) => Number.isInteger(n) && n >= 0) || size === 0 || chunk === 0) return 'video_size, chunk_size and total_chunk_count are required';
    if (size < minChunk) return chunk === size && count === 1 ? null : `A video under ${minChunk} bytes must be uploaded whole: chunk_size = video_size, total_chunk_count = 1`;
    if (chunk < minChunk || chunk > maxChunk) return `chunk_size must be between ${minChunk} and ${maxChunk} bytes`;
    if (count !== Math.floor(size / chunk)) return `total_chunk_count must be floor(video_size / chunk_size) = ${Math.floor(size / chunk)}`;
    if (count < 1 || count > 1000) return 'total_chunk_count must be between 1 and 1000';
    if (size > maxChunk && count < 2) return `A video over ${maxChunk} bytes must be uploaded in multiple chunks`;
    if (size - chunk * (count - 1) > 2 * maxChunk) return `The last chunk may not exceed ${2 * maxChunk} bytes`;
    return null;
  }

  async function videoInit(req: FastifyRequest, reply: FastifyReply, mode: 'direct' | 'inbox') {
    const f = await fault('init', reply, req);
    if (f === 'handled') return reply;
    const a = auth(req, reply, mode === 'direct' ? 'video.publish' : 'video.upload');
    if (!a) return reply;
    if (limited(reply, a.token, 'init')) return reply;
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) return ttError(reply, 400, 'invalid_params', 'Content-Type must be application/json');
    const b = (req.body ?? {}) as { post_info?: Record<string, unknown>; source_info?: Record<string, unknown> };
    const si = b.source_info ?? {};
    const pi = b.post_info ?? {};
    if (mode === 'direct' && !checkPostInfo(reply, pi, 'video')) return reply;
    if (mode === 'inbox' && b.post_info) return ttError(reply, 400, 'invalid_params', 'post_info is not accepted for inbox uploads');
    if (si.source === 'FILE_UPLOAD') {
      const size = Number(si.video_size); const chunk = Number(si.chunk_size); const count = Number(si.total_chunk_count);
      const refused = chunkRulesBroken(size, chunk, count);
      if (refused) return ttError(reply, 400, 'invalid_params', refused);
      const p = newPublish(a.openId, 'video', mode, 'FILE_UPLOAD', pi, si, f);
      p.uploadId = randomBytes(16).toString('hex');
      uploads.set(p.uploadId, p);
      const answer = ok({ publish_id: p.id, upload_url: `${base}/upload/?upload_id=${p.uploadId}&upload_token=${randomBytes(8).toString('hex')}` });
      if (droppedAfterCreate(f, req)) return reply;
      return answer;
    }
    if (si.source === 'PULL_FROM_URL') {
      if (typeof si.video_url !== 'string' || !/^https?:\/\//.test(si.video_url)) return ttError(reply, 400, 'invalid_params', 'source_info.video_url must be an http(s) URL');
      const p = newPublish(a.openId, 'video', mode, 'PULL_FROM_URL', pi, si, f);
      check(p, await pull(si.video_url), 'video_pull_failed');
      if (droppedAfterCreate(f, req)) return reply;
      return ok({ publish_id: p.id });
    }
    return ttError(reply, 400, 'invalid_params', 'source_info.source must be FILE_UPLOAD or PULL_FROM_URL');
  }
  app.post('/v2/post/publish/video/init/', (req, reply) => videoInit(req, reply, 'direct'));
  app.post('/v2/post/publish/inbox/video/init/', (req, reply) => videoInit(req, reply, 'inbox'));

  app.post('/v2/post/publish/content/init/', async (req, reply) => {
    const f = await fault('init', reply, req);
    if (f === 'handled') return reply;
    const b = (req.body ?? {}) as { media_type?: string; post_mode?: string; post_info?: Record<string, unknown>; source_info?: Record<string, unknown> };
    const mode = b.post_mode === 'MEDIA_UPLOAD' ? 'inbox' : 'direct';
    const a = auth(req, reply, mode === 'direct' ? 'video.publish' : 'video.upload');
    if (!a) return reply;
    if (limited(reply, a.token, 'init')) return reply;
    if (b.media_type !== 'PHOTO') return ttError(reply, 400, 'invalid_params', 'media_type must be PHOTO');
    if (b.post_mode !== 'DIRECT_POST' && b.post_mode !== 'MEDIA_UPLOAD') return ttError(reply, 400, 'invalid_params', 'post_mode must be DIRECT_POST or MEDIA_UPLOAD');
    const pi = b.post_info ?? {};
    const si = b.source_info ?? {};
    if (mode === 'direct' && !checkPostInfo(reply, pi, 'photo')) return reply;
    if (si.source !== 'PULL_FROM_URL') return ttError(reply, 400, 'invalid_params', 'Photos can only be posted with source PULL_FROM_URL');
    const images = Array.isArray(si.photo_images) ? si.photo_images as unknown[] : [];
    if (images.length < 1 || images.length > 35 || !images.every((u) => typeof u === 'string' && /^https?:\/\//.test(u))) return ttError(reply, 400, 'invalid_params', 'photo_images must hold 1 to 35 URLs');
    const idx = si.photo_cover_index;
    if (typeof idx !== 'number' || !Number.isInteger(idx) || idx < 0 || idx >= images.length) return ttError(reply, 400, 'invalid_params', 'photo_cover_index must index photo_images');
    const p = newPublish(a.openId, 'photo', mode, 'PULL_FROM_URL', pi, si, f);
    const problem = photoProblem(await Promise.all((images as string[]).map((u) => pull(u))));
    p.checked = Promise.resolve(p.forcedFail ? 'file_format_check_failed' : problem);
    if (droppedAfterCreate(f, req)) return reply;
    return ok({ publish_id: p.id });
  });

  app.put('/upload/', async (req, reply) => {
    const f = await fault('upload', reply, req);
    if (f === 'handled') return reply;
    const p = uploads.get(String((req.query as Record<string, string>).upload_id ?? ''));
    if (!p) return ttError(reply, 404, 'invalid_file_upload', 'The upload URL is invalid or expired');
    if (p.status !== 'PROCESSING_UPLOAD') return ttError(reply, 400, 'invalid_file_upload', `The upload is closed (status ${p.status})`);
    const body = req.body as Buffer | undefined;
    if (!Buffer.isBuffer(body)) return ttError(reply, 400, 'invalid_file_upload', 'Content-Type must be video/mp4, video/quicktime or video/webm');
    const size = Number(p.sourceInfo.video_size); const chunk = Number(p.sourceInfo.chunk_size); const count = Number(p.sourceInfo.total_chunk_count);
    const i = p.nextChunk;
    const first = i * chunk;
    const last = i === count - 1 ? size - 1 : first + chunk - 1;
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(req.headers['content-range'] ?? ''));
    if (!range || Number(range[1]) !== first || Number(range[2]) !== last || Number(range[3]) !== size) {
      return ttError(reply, 416, 'invalid_file_upload', `Expected Content-Range: bytes ${first}-${last}/${size} (chunk ${i + 1} of ${count})`);
    }
    if (body.length !== last - first + 1) return ttError(reply, 400, 'invalid_file_upload', `Chunk ${i + 1} must be ${last - first + 1} bytes, got ${body.length}`);
    p.uploaded.push(body);
    p.uploadedBytes += body.length;
    p.nextChunk++;
    if (p.nextChunk < count) return reply.status(206).send();
    check(p, Buffer.concat(p.uploaded), 'invalid_file_upload');
    p.uploaded = [];
    if (droppedAfterCreate(f, req)) return reply;
    return reply.status(201).send();
  });

  const advance = async (p: Publish) => {
    if (p.status === 'PUBLISH_COMPLETE' && !p.postId && String(p.postInfo.privacy_level) !== 'SELF_ONLY') {
      p.completedPolls++;
    }
    if (p.status !== 'PROCESSING_UPLOAD' && p.status !== 'PROCESSING_DOWNLOAD') return;
    if (p.status === 'PROCESSING_UPLOAD' && p.nextChunk < Number(p.sourceInfo.total_chunk_count)) return;
    p.polls++;
    if (p.polls < (opts.processingPolls ?? 1)) return;
    const reason = await p.checked;
    if (reason) { p.status = 'FAILED'; p.failReason = reason; return; }
    complete(p);
  };

  app.post('/v2/post/publish/status/fetch/', async (req, reply) => {
    const f = await fault('status', reply, req);
    if (f === 'handled') return reply;
    const a = auth(req, reply);
    if (!a) return reply;
    const t = tokens.get(a.token)!;
    if (!t.scope.includes('video.publish') && !t.scope.includes('video.upload')) return ttError(reply, 401, 'scope_not_authorized', 'video.publish or video.upload is required');
    if (limited(reply, a.token, 'status')) return reply;
    const p = publishes.get(String((req.body as { publish_id?: string } | undefined)?.publish_id ?? ''));
    if (!p || p.owner !== a.openId) return ttError(reply, 400, 'invalid_params', 'publish_id does not exist');
    const before = p.status;
    await advance(p);
    const data: Record<string, unknown> = { status: p.status, uploaded_bytes: p.uploadedBytes, downloaded_bytes: p.source === 'PULL_FROM_URL' && p.status !== 'PROCESSING_DOWNLOAD' ? 1 : 0 };
    if (p.failReason) data.fail_reason = p.failReason;
    // The public id appears after moderation: one poll after PUBLISH_COMPLETE.
    data.publicaly_available_post_id = p.postId && before === 'PUBLISH_COMPLETE' ? [p.postId] : [];
    // TikTok sends the ids as 64-bit JSON integers (beyond JavaScript's exact range): written unquoted.
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(ok(data)).replace(/"publicaly_available_post_id":\["(\d+)"\]/, '"publicaly_available_post_id":[$1]'));
  });

  app.post('/v2/video/list/', async (req, reply) => {
    const f = await fault('list', reply, req);
    if (f === 'handled') return reply;
    const a = auth(req, reply, 'video.list');
    if (!a) return reply;
    // Publishes nobody polled still finish (as on TikTok).
    for (const p of publishes.values()) if (p.owner === a.openId) await advance(p);
    const body = (req.body ?? {}) as { max_count?: number; cursor?: number };
    const max = body.max_count ?? 10;
    if (!Number.isInteger(max) || max < 1 || max > 20) return ttError(reply, 400, 'invalid_params', 'max_count must be an integer from 1 to 20');
    if (body.cursor !== undefined && !Number.isInteger(body.cursor)) return ttError(reply, 400, 'invalid_params', 'cursor must be a UTC Unix timestamp in milliseconds');
    const at = (p: TikTokPost) => p.createMs ?? p.createTime * 1000;
    const mine = posts.filter((p) => p.owner === a.openId && (body.cursor === undefined || at(p) < body.cursor)).sort((x, y) => at(y) - at(x));
    const page = mine.slice(0, max);
    const videos = page.map((p) => ({
      id: p.id, title: p.kind === 'video' ? p.title : p.description.slice(0, 90), video_description: p.kind === 'video' ? p.title : p.description,
      create_time: p.createTime, share_url: `https://www.tiktok.com/@${user.username}/video/${p.id}`,
    }));
    const cursor = page.length ? at(page[page.length - 1]) : (body.cursor ?? Date.now());
    return ok({ videos, cursor, has_more: mine.length > page.length });
  });

  /**
   * Video counters (https://developers.tiktok.com/doc/tiktok-api-v2-video-query): `filters.video_ids` (1 to 20)
   * of the user's public videos; `fields` names what comes back (view_count, like_count, comment_count, share_count).
   */
  app.post('/v2/video/query/', async (req, reply) => {
    const f = await fault('metrics', reply, req);
    if (f === 'handled') return reply;
    const a = auth(req, reply, 'video.list');
    if (!a) return reply;
    const ids = ((req.body ?? {}) as { filters?: { video_ids?: string[] } }).filters?.video_ids;
    if (!Array.isArray(ids) || ids.length < 1 || ids.length > 20) return ttError(reply, 400, 'invalid_params', 'filters.video_ids must list 1 to 20 video ids');
    const fields = String((req.query as Record<string, string>).fields ?? 'id').split(',');
    const videos = posts.filter((p) => p.owner === a.openId && ids.includes(p.id)).map((p) => {
      const c = metrics.read(p.id);
      const all: Record<string, unknown> = { id: p.id, view_count: c.views, like_count: c.likes, comment_count: c.comments, share_count: c.shares, create_time: p.createTime };
      return Object.fromEntries(Object.entries(all).filter(([k]) => k === 'id' || fields.includes(k)));
    });
    return ok({ videos, cursor: 0, has_more: false });
  });

  faults.route(app);

  const base = await listen(app);
  return {
    url: base, app, user, creator, posts, publishes, clientKey, clientId: clientKey, clientSecret, calls, metrics,
    addVideo(caption, at = new Date()) {
      const post: TikTokPost = {
        id: postId(), publishId: '', owner: user.openId, kind: 'video', title: caption, description: '', privacyLevel: 'PUBLIC_TO_EVERYONE',
        postInfo: {}, sourceInfo: {}, createTime: Math.floor(at.getTime() / 1000), createMs: at.getTime(),
      };
      posts.push(post);
      return post;
    },
    ...simControls(app, faults, tokens, () => { tokens.clear(); refreshTokens.clear(); }),
  };
}

await runAsMain(import.meta.url, 'tiktok', startTikTokSimulator, (s) => ({ clientId: s.clientKey, clientSecret: s.clientSecret }));
