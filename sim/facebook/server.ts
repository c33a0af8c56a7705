/**
 * Facebook Graph API simulator (Pages): a real HTTP server on loopback speaking the parts of
 * the Graph API Herald uses, with versioned paths (`/v25.0/...`), numeric string ids,
 * `<pageid>_<postid>` feed post ids and the Graph error envelope
 * `{error:{message, type, code, error_subcode, fbtrace_id}}`
 * (https://developers.facebook.com/docs/graph-api/guides/error-handling):
 * - Login: GET /{v}/dialog/oauth approves at once and redirects with `code`;
 *   GET /{v}/oauth/access_token exchanges the code (query client_id, redirect_uri,
 *   client_secret, code; short-lived token, 1 h) or, with grant_type=fb_exchange_token, gives a
 *   60-day user token. GET /{v}/me, GET /{v}/me/permissions.
 * - GET /{v}/me/accounts: the user's Pages with their `tasks` (an admin's are ANALYZE, ADVERTISE,
 *   MODERATE, CREATE_CONTENT, MANAGE) and Page tokens, paged (`limit`, `paging.next`); one Page has
 *   only ANALYZE, one only ANALYZE and CREATE_CONTENT (an editor: not administered).
 * - POST /{v}/{page}/feed (message, link, attached_media[i]), /photos (url, published),
 *   /videos (file_url, description), /photo_stories?photo_id, /video_stories
 *   (upload_phase=start|finish), POST /video-upload/{v}/{video} (rupload: header file_url),
 *   GET /{v}/{video}?fields=status (in_progress -> ready | error), POST and GET /{v}/{object}/comments,
 *   GET /{v}/{page}/feed|videos|stories (newest first; Graph cursor paging with `limit`, `after`,
 *   `paging.next`, and the `since`/`until` time filters; the feed refuses a limit over 100),
 *   GET /{v}/{post}?fields=permalink_url.
 * - Media is downloaded from its URL like Facebook does; an unreachable URL is refused with
 *   code 324 "Missing or invalid image file" (photos) or turns the video to `error`. The bytes
 *   are checked (sim/common/media-info.ts): a photo that is not an image or is over 10 MB is
 *   refused with subcode 1366046, as is a feed post attaching a photo over 4 MB or more than
 *   10 photos, or a story photo that is not JPEG, PNG, BMP, GIF or TIFF; a story video that is
 *   not MP4/MOV, lasts outside 3-60 s or is smaller than 540x960 turns to `error` with the
 *   reason (Page Stories API). Empty messages without media and links that are not URLs are refused.
 * - Every answer carries `x-app-usage` / `x-page-usage` JSON headers; a throttled call answers
 *   code 32 (Page) or 4 (app) with the usage at 100.
 * - Faults (addFault): rate limit, 5xx, expired token (190/463), revoked (190/460), slow,
 *   dropped connection, dropped answer after the post was created, processing error,
 *   comment failure, a failing list call (`op: 'list'`).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest, FastifyInstance } from 'fastify';
import { listen, runAsMain, simApp } from '../common/app.ts';
import { graphErrors, graphTime } from '../common/graph.ts';
import { numericIds } from '../common/ids.ts';
import { droppedAfterCreate, FaultQueue } from '../common/faults.ts';
import { graphInsights, MetricsBook } from '../common/metrics.ts';
import { newestFirst } from '../common/lists.ts';
import { authorizeRoute, takeCode } from '../common/oauth.ts';
import { graphPage } from '../common/graph-paging.ts';
import { fetchMedia, mediaFetchable, type SimMediaFetchPolicy } from '../common/fetch-media.ts';
import { mediaInfo, type MediaFormat } from '../common/media-info.ts';

export interface FacebookSimPage { id: string; name: string; category: string; tasks: string[] }
/** `mediaFetch`: which photo/video URLs may be downloaded (default: public addresses only, through the SSRF guard). */
export interface FacebookSimOptions {
  clientId?: string; clientSecret?: string; version?: string; pageSize?: number; processingPolls?: number; mediaFetch?: SimMediaFetchPolicy;
  /** Photos per feed post (attached_media; 10). */
  maxPhotos?: number;
  /** Largest feed photo, bytes (4 MB; subcode 1366046 otherwise). */
  photoMaxBytes?: number;
  /** Largest story photo, bytes (Page Stories API: 10 MB). */
  storyPhotoMaxBytes?: number;
  /** Story video duration bounds, seconds (Page Stories API: 3 to 60). */
  storyVideoMinSeconds?: number;
  storyVideoMaxSeconds?: number;
  /** Smallest story video, pixels (Page Stories API: 540 x 960). */
  storyVideoMinWidth?: number;
  storyVideoMinHeight?: number;
}

export type FacebookFault = {
  op: 'photo' | 'publish' | 'comment' | 'status' | 'token' | 'pages' | 'list' | 'metrics' | 'update' | 'any';
  kind: 'rate_limit' | 'server_error' | 'expired_token' | 'revoked' | 'slow' | 'drop' | 'drop_after_create' | 'processing_failed' | 'fail';
  count: number; delayMs?: number;
};

export interface FacebookSimPost {
  id: string; pageId: string; kind: 'feed' | 'video' | 'photo_story' | 'video_story'; message: string; link?: string; photos: string[]; videoUrl?: string; mediaId?: string; created: string;
  /** When the message was last changed (POST /{post-id}). */
  updated?: string;
}
interface Photo { id: string; pageId: string; url: string; published: boolean; format: MediaFormat; bytes: number }
interface Video { id: string; pageId: string; url?: string; status: 'in_progress' | 'ready' | 'error'; polls: number; forcedError?: boolean; fetched?: Promise<boolean>; story: boolean; error?: string }

export interface FacebookSimulator {
  url: string; app: FastifyInstance; clientId: string; clientSecret: string; version: string;
  user: { id: string; name: string };
  pages: FacebookSimPage[];
  posts: FacebookSimPost[];
  comments: Array<{ id: string; objectId: string; message: string }>;
  /** The posts' insights and counters (GET /{post}/insights, GET /{post}?fields=shares,comments). */
  metrics: MetricsBook;
  photos: Map<string, Photo>;
  calls: Map<string, number>;
  addFault(f: FacebookFault): void;
  /** Creates a post directly, as if the Page posted it elsewhere (feed: `message`; video: its description). */
  addPost(pageId: string, kind: 'feed' | 'video', message: string, at?: Date): FacebookSimPost;
  revokeAll(): void;
  close(): Promise<void>;
}

const numericId = numericIds(100_000_000_000_000n, 89);

export async function startFacebookSimulator(opts: FacebookSimOptions = {}): Promise<FacebookSimulator> {
  const clientId = opts.clientId ?? 'sim-facebook-app';
  const clientSecret = opts.clientSecret ?? 'sim-facebook-secret';
  const V = opts.version ?? 'v25.0';
  const user = { id: numericId(), name: 'Herald FB User' };
  const pages: FacebookSimPage[] = [
    { id: numericId(), name: 'Herald Bakery', category: 'Bakery', tasks: ['ANALYZE', 'ADVERTISE', 'MODERATE', 'CREATE_CONTENT', 'MANAGE'] },
    { id: numericId(), name: 'Herald Books', category: 'Book Store', tasks: ['ANALYZE', 'ADVERTISE', 'MODERATE', 'CREATE_CONTENT', 'MANAGE'] },
    { id: numericId(), name: 'Someone Else\'s Page', category: 'Community', tasks: ['ANALYZE'] },
    // An editor's role: creates content, no admin rights (MANAGE); Herald does not connect it.
    { id: numericId(), name: 'Herald Press', category: 'Publisher', tasks: ['ANALYZE', 'CREATE_CONTENT'] },
  ];
  const codes = new Map<string, { redirectUri: string; expires: number }>();
  type Tok = { kind: 'user' | 'page'; pageId?: string; expires: number; longLived: boolean };
  const tokens = new Map<string, Tok>();
  const posts: FacebookSimPost[] = [];
  const metrics = new MetricsBook();
  const photos = new Map<string, Photo>();
  const videos = new Map<string, Video>();
  const comments: Array<{ id: string; objectId: string; message: string }> = [];
  const calls = new Map<string, number>();
  let base = '';

  const usage = JSON.stringify({ call_count: 1, total_cputime: 1, total_time: 1 });
  const app = await simApp({ calls, raw: '*', onRequest: (_req, reply) => { reply.header('x-app-usage', usage); reply.header('x-page-usage', usage); } });

  const graphError = graphErrors('GraphMethodException');

  const faults = new FaultQueue<FacebookFault>({
    rate_limit: (reply) => {
      reply.header('x-page-usage', JSON.stringify({ call_count: 100, total_cputime: 40, total_time: 60, estimated_time_to_regain_access: 1 }));
      graphError(reply, 400, 32, 'Page request limit reached', { is_transient: true });
    },
    server_error: (reply) => graphError(reply, 500, 2, 'An unexpected error has occurred. Please retry your request later.', { is_transient: true }),
    expired_token: (reply) => graphError(reply, 400, 190, 'Error validating access token: Session has expired.', { error_subcode: 463 }),
    revoked: (reply) => graphError(reply, 400, 190, 'Error validating access token: The session has been invalidated because the user changed their password.', { error_subcode: 460 }),
    fail: (reply) => graphError(reply, 400, 368, 'The action attempted has been deemed abusive or is otherwise disallowed'),
  });
  const fault = (op: FacebookFault['op'], reply: FastifyReply, req: FastifyRequest) => faults.apply(op, reply, req);

  const params = (req: FastifyRequest) => ({ ...(req.query as Record<string, string>), ...((req.body && !Buffer.isBuffer(req.body) ? req.body : {}) as Record<string, string>) });
  function auth(req: FastifyRequest, reply: FastifyReply): Tok | null {
    const h = req.headers.authorization ?? '';
    const token = /^(?:Bearer|OAuth) (.+)$/.exec(h)?.[1] ?? params(req).access_token;
    const t = token ? tokens.get(token) : undefined;
    if (!t) { graphError(reply, 400, 190, 'Invalid OAuth access token - Cannot parse access token'); return null; }
    if (t.expires < Date.now()) { graphError(reply, 400, 190, 'Error validating access token: Session has expired.', { error_subcode: 463 }); return null; }
    return t;
  }
  function pageAuth(req: FastifyRequest, reply: FastifyReply, pageId: string): Tok | null {
    const t = auth(req, reply);
    if (!t) return null;
    if (t.kind !== 'page' || t.pageId !== pageId) { graphError(reply, 403, 200, '(#200) The permission(s) pages_manage_posts are not available. A Page access token is required for this call for the new Pages experience.'); return null; }
    return t;
  }
  const issue = (t: Tok) => { const tk = `EAA${randomBytes(24).toString('base64url')}`; tokens.set(tk, t); return tk; };
  // Photo and video URLs are downloaded through the SSRF guard (sim/common/fetch-media.ts).
  const fetchable = async (url: string) => (await mediaFetchable(url, opts.mediaFetch)).ok;

  // Login ---------------------------------------------------------------------
  authorizeRoute(app, '/:v/dialog/oauth', codes, {
    required: ['client_id', 'redirect_uri', 'state'],
    refuse: (q, missing, reply) => (missing.length || q.client_id !== clientId ? graphError(reply, 400, 100, `Invalid request: ${missing.join(', ') || 'client_id'}`) : undefined),
    code: () => randomBytes(24).toString('base64url'),
    grant: (q) => ({ redirectUri: q.redirect_uri, expires: Date.now() + 10 * 60_000 }),
    back: (q, code) => [['code', code], ['state', q.state]],
  });

  app.get('/:v/oauth/access_token', async (req, reply) => {
    const f = await fault('token', reply, req);
    if (f === 'handled') return reply;
    const q = req.query as Record<string, string>;
    if (q.client_id !== clientId || q.client_secret !== clientSecret) return graphError(reply, 400, 101, 'Error validating client secret.');
    if (q.grant_type === 'fb_exchange_token') {
      const t = tokens.get(q.fb_exchange_token);
      if (!t || t.expires < Date.now()) return graphError(reply, 400, 190, 'Error validating access token: Session has expired.', { error_subcode: 463 });
      return { access_token: issue({ kind: 'user', expires: Date.now() + 5_183_944_000, longLived: true }), token_type: 'bearer', expires_in: 5_183_944 };
    }
    const c = takeCode(codes, q.code);
    if (!c) return graphError(reply, 400, 100, 'This authorization code has been used.', { error_subcode: 36009 });
    if (c.redirectUri !== q.redirect_uri) return graphError(reply, 400, 100, 'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request', { error_subcode: 36008 });
    return { access_token: issue({ kind: 'user', expires: Date.now() + 3600_000, longLived: false }), token_type: 'bearer', expires_in: 3600 };
  });

  app.get('/:v/me', async (req, reply) => {
    const t = auth(req, reply);
    if (!t) return reply;
    if (t.kind === 'page') { const p = pages.find((x) => x.id === t.pageId)!; return { id: p.id, name: p.name }; }
    return { id: user.id, name: user.name, picture: { data: { url: 'https://scontent.xx.fbcdn.net/sim-user.jpg' } } };
  });
  app.get('/:v/me/permissions', async (req, reply) => {
    if (!auth(req, reply)) return reply;
    return { data: ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'pages_manage_engagement', 'business_management', 'publish_video', 'read_insights'].map((permission) => ({ permission, status: 'granted' })) };
  });

  app.get('/:v/me/accounts', async (req, reply) => {
    const f = await fault('pages', reply, req);
    if (f === 'handled') return reply;
    const t = auth(req, reply);
    if (!t) return reply;
    if (t.kind !== 'user') return graphError(reply, 400, 100, 'A user access token is required');
    const q = req.query as Record<string, string>;
    const limit = Math.min(Number(q.limit ?? 25), opts.pageSize ?? 2);
    const after = Number(q.after ?? 0);
    const slice = pages.slice(after, after + limit);
    const token = /^(?:Bearer|OAuth) (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? q.access_token;
    const data = slice.map((p) => ({
      id: p.id, name: p.name, category: p.category, category_list: [{ id: '1', name: p.category }], tasks: p.tasks,
      access_token: issue({ kind: 'page', pageId: p.id, expires: Number.MAX_SAFE_INTEGER, longLived: true }),
      picture: { data: { url: `https://scontent.xx.fbcdn.net/${p.id}.jpg` } },
    }));
    const next = after + limit < pages.length
      ? `${base}/${V}/me/accounts?${new URLSearchParams({ fields: q.fields ?? 'id,name', limit: String(limit), after: String(after + limit), access_token: token })}` : undefined;
    return { data, paging: { cursors: { before: String(after), after: String(after + limit) }, ...(next ? { next } : {}) } };
  });

  // Publishing ----------------------------------------------------------------
  const pageOf = (req: FastifyRequest) => (req.params as { page: string }).page;
  const finishPost = (req: FastifyRequest, reply: FastifyReply, f: FacebookFault | null, p: FacebookSimPost, answer: unknown) => {
    posts.push(p);
    if (droppedAfterCreate(f, req)) return reply;
    return answer;
  };
  /** A Page route: the fault for `op`, then a Page token for the path's Page; `handle` gets the Page id, the parameters and the fault. */
  const pageRoute = (op: FacebookFault['op'], handle: (req: FastifyRequest, reply: FastifyReply, page: string, b: Record<string, string>, f: FacebookFault | null) => unknown) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      const f = await fault(op, reply, req);
      if (f === 'handled') return reply;
      const page = pageOf(req);
      if (!pageAuth(req, reply, page)) return reply;
      return handle(req, reply, page, params(req), f);
    };

  const MB = 1024 * 1024;
  const PHOTO_FORMATS: MediaFormat[] = ['jpeg', 'png', 'gif', 'bmp', 'tiff', 'webp'];
  /** Story photo formats (Page Stories API: .jpeg .bmp .png .gif .tiff). */
  const STORY_PHOTO_FORMATS: MediaFormat[] = ['jpeg', 'png', 'gif', 'bmp', 'tiff'];
  const tooBig = (reply: FastifyReply, what: string) => graphError(reply, 400, 100, `(#100) ${what}`, { error_subcode: 1366046, error_user_title: 'Photo too big or wrong format' });

  app.post('/:v/:page/photos', pageRoute('photo', async (req, reply, page, b, f) => {
    if (!b.url) return graphError(reply, 400, 100, '(#100) Requires one of the params: source, url');
    const got = await fetchMedia(b.url, opts.mediaFetch);
    if (!got.ok || got.bytes.length === 0) return graphError(reply, 400, 324, '(#324) Missing or invalid image file', { error_subcode: 2069019 });
    const info = mediaInfo(got.bytes);
    if (!PHOTO_FORMATS.includes(info.format)) return tooBig(reply, `The photo is in an unsupported format (${info.format})`);
    const storyMax = opts.storyPhotoMaxBytes ?? 10 * MB;
    if (got.bytes.length > storyMax) return tooBig(reply, `The photo is too big: ${got.bytes.length} bytes (at most ${storyMax})`);
    const ph: Photo = { id: numericId(), pageId: page, url: b.url, published: b.published !== 'false', format: info.format, bytes: got.bytes.length };
    photos.set(ph.id, ph);
    if (ph.published) return finishPost(req, reply, f, { id: `${page}_${numericId()}`, pageId: page, kind: 'feed', message: b.caption ?? '', photos: [ph.id], created: graphTime(new Date()) }, { id: ph.id, post_id: posts.at(-1)?.id });
    return { id: ph.id };
  }));

  app.post('/:v/:page/feed', pageRoute('publish', async (req, reply, page, b, f) => {
    const attached: string[] = [];
    for (const [k, v] of Object.entries(b)) {
      if (!/^attached_media\[\d+\]$/.test(k)) continue;
      let id: string | undefined;
      try { id = (JSON.parse(v) as { media_fbid?: string }).media_fbid; } catch { /* invalid */ }
      const ph = id ? photos.get(id) : undefined;
      if (!ph || ph.pageId !== page) return graphError(reply, 400, 100, `(#100) Invalid media_fbid in ${k}`);
      if (ph.published) return graphError(reply, 400, 100, '(#100) The photo has already been published', { error_subcode: 1366051 });
      const max = opts.photoMaxBytes ?? 4 * MB;
      if (ph.bytes > max) return tooBig(reply, `The photo in ${k} is too big for a feed post: ${ph.bytes} bytes (at most ${max})`);
      attached.push(ph.id);
    }
    if (attached.length > (opts.maxPhotos ?? 10)) return graphError(reply, 400, 100, `(#100) attached_media: a post can have at most ${opts.maxPhotos ?? 10} photos`);
    if (b.link !== undefined && !/^https?:\/\/\S+$/i.test(b.link)) return graphError(reply, 400, 100, '(#100) Param link must be a valid URL');
    if (!b.message?.trim() && !b.link && attached.length === 0) return graphError(reply, 400, 100, '(#100) Posts where the message is empty need a link or attached_media');
    if (b.message && b.message.length > 63_206) return graphError(reply, 400, 100, '(#100) The message is too long');
    const last = posts.filter((p) => p.pageId === page && p.kind === 'feed').at(-1);
    if (last && last.message && last.message === b.message && attached.length === 0 && Date.now() - Date.parse(last.created) < 60_000 && f?.kind !== 'drop_after_create') {
      return graphError(reply, 400, 506, '(#506) Duplicate status message');
    }
    for (const id of attached) photos.get(id)!.published = true;
    const p: FacebookSimPost = { id: `${page}_${numericId()}`, pageId: page, kind: 'feed', message: b.message ?? '', link: b.link, photos: attached, created: graphTime(new Date()) };
    return finishPost(req, reply, f, p, { id: p.id });
  }));

  app.post('/:v/:page/videos', pageRoute('publish', async (req, reply, page, b, f) => {
    if (!b.file_url) return graphError(reply, 400, 100, '(#100) Requires file_url or source');
    if (!(await fetchable(b.file_url))) return graphError(reply, 400, 351, '(#351) There was a problem with your video file', { error_subcode: 1363030 });
    const v: Video = { id: numericId(), pageId: page, url: b.file_url, status: 'in_progress', polls: 0, story: false };
    videos.set(v.id, v);
    const p: FacebookSimPost = { id: v.id, pageId: page, kind: 'video', message: b.description ?? '', photos: [], videoUrl: b.file_url, created: graphTime(new Date()) };
    return finishPost(req, reply, f, p, { id: v.id });
  }));

  app.post('/:v/:page/photo_stories', pageRoute('publish', async (req, reply, page, b, f) => {
    const ph = photos.get(b.photo_id ?? '');
    if (!ph || ph.pageId !== page) return graphError(reply, 400, 100, '(#100) Invalid photo_id');
    if (ph.published) return graphError(reply, 400, 100, '(#100) The photo must be uploaded with published=false');
    if (!STORY_PHOTO_FORMATS.includes(ph.format)) return tooBig(reply, `Unsupported story photo format (${ph.format}): use JPEG, PNG, BMP, GIF or TIFF`);
    ph.published = true;
    const p: FacebookSimPost = { id: numericId(), pageId: page, kind: 'photo_story', message: '', photos: [ph.id], mediaId: ph.id, created: graphTime(new Date()) };
    return finishPost(req, reply, f, p, { success: true, post_id: p.id });
  }));

  app.post('/:v/:page/video_stories', async (req, reply) => {
    const page = pageOf(req);
    const b = params(req);
    const f = await fault(b.upload_phase === 'finish' ? 'publish' : 'photo', reply, req);
    if (f === 'handled') return reply;
    if (!pageAuth(req, reply, page)) return reply;
    if (b.upload_phase === 'start') {
      const v: Video = { id: numericId(), pageId: page, status: 'in_progress', polls: 0, story: true, forcedError: f?.kind === 'processing_failed' };
      videos.set(v.id, v);
      return { video_id: v.id, upload_url: `${base}/video-upload/${V}/${v.id}` };
    }
    if (b.upload_phase !== 'finish') return graphError(reply, 400, 100, '(#100) upload_phase must be start or finish');
    const v = videos.get(b.video_id ?? '');
    if (!v || v.pageId !== page || !v.story) return graphError(reply, 400, 100, '(#100) Invalid video_id');
    if (v.status !== 'ready') return graphError(reply, 400, 100, `(#100) The video is not ready (${v.status})`);
    if (posts.some((p) => p.mediaId === v.id)) return graphError(reply, 400, 100, '(#100) This video story was already published');
    const p: FacebookSimPost = { id: numericId(), pageId: page, kind: 'video_story', message: '', photos: [], mediaId: v.id, videoUrl: v.url, created: graphTime(new Date()) };
    return finishPost(req, reply, f, p, { success: true, post_id: p.id });
  });

  app.post('/video-upload/:v/:video', async (req, reply) => {
    const v = videos.get((req.params as { video: string }).video);
    const token = /^OAuth (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const t = token ? tokens.get(token) : undefined;
    if (!t || t.kind !== 'page' || !v || t.pageId !== v.pageId) return graphError(reply, 400, 190, 'Invalid OAuth access token for this upload');
    const fileUrl = req.headers.file_url as string | undefined;
    if (!fileUrl) return graphError(reply, 400, 100, 'The file_url header is required for hosted uploads');
    v.url = fileUrl;
    v.fetched = v.story ? fetchStoryVideo(v, fileUrl) : fetchable(fileUrl);
    return { success: true };
  });

  /**
   * Downloads a story video and checks it against the Page Stories API's video specifications
   * (https://developers.facebook.com/docs/page-stories-api): MP4 or MOV, 3 to 60 seconds, at
   * least 540 x 960. A breach turns the video to `error` with the reason.
   */
  const fetchStoryVideo = async (v: Video, url: string): Promise<boolean> => {
    const got = await fetchMedia(url, opts.mediaFetch);
    if (!got.ok || got.bytes.length === 0) return false;
    const info = mediaInfo(got.bytes);
    const [minS, maxS] = [opts.storyVideoMinSeconds ?? 3, opts.storyVideoMaxSeconds ?? 60];
    const [minW, minH] = [opts.storyVideoMinWidth ?? 540, opts.storyVideoMinHeight ?? 960];
    if (info.format !== 'mp4' && info.format !== 'mov') v.error = `The video format is not supported (${info.format}): story videos must be MP4 or MOV`;
    else if (info.durationSeconds !== undefined && (info.durationSeconds < minS || info.durationSeconds > maxS)) v.error = `Story videos must be ${minS} to ${maxS} seconds long (this one lasts ${info.durationSeconds} s)`;
    else if (info.width && info.height && (info.width < minW || info.height < minH)) v.error = `The video resolution is too low: story videos must be at least ${minW}x${minH} (this one is ${info.width}x${info.height})`;
    return true;
  };

  /**
   * Deleting a Page post (https://developers.facebook.com/docs/graph-api/reference/post/#deleting):
   * `DELETE /{post-id}` with the Page's token answers `{ success: true }`; another token is refused
   * (#200), and an id that does not exist answers the Graph "does not exist" error (100/33).
   */
  app.delete('/:v/:id', async (req, reply) => {
    const t = auth(req, reply);
    if (!t) return reply;
    const id = (req.params as { id: string }).id;
    const i = posts.findIndex((x) => x.id === id);
    if (i < 0) {
      return graphError(reply, 400, 100, `Unsupported delete request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`, { error_subcode: 33 });
    }
    if (t.kind !== 'page' || t.pageId !== posts[i].pageId) return graphError(reply, 403, 200, '(#200) The user does not have permission to delete this post');
    posts.splice(i, 1);
    return { success: true };
  });

  /**
   * Updating a Page post (https://developers.facebook.com/docs/graph-api/reference/post/#updating):
   * `POST /{post-id}` with `message`, with the Page's token (#200 otherwise), answers `{ success: true }`;
   * the message keeps the create limits; a story has no message (#100); a missing post is 100/33.
   */
  app.post('/:v/:id', async (req, reply) => {
    const f = await fault('update', reply, req);
    if (f === 'handled') return reply;
    const t = auth(req, reply);
    if (!t) return reply;
    const id = (req.params as { id: string }).id;
    const p = posts.find((x) => x.id === id);
    if (!p) return graphError(reply, 400, 100, `Unsupported post request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`, { error_subcode: 33 });
    if (t.kind !== 'page' || t.pageId !== p.pageId) return graphError(reply, 403, 200, '(#200) The user does not have permission to edit this post');
    if (p.kind === 'photo_story' || p.kind === 'video_story') return graphError(reply, 400, 100, '(#100) A story cannot be edited');
    const b = params(req);
    if (b.message === undefined) return graphError(reply, 400, 100, '(#100) Requires one of the params: message');
    if (b.message.length > 63_206) return graphError(reply, 400, 100, '(#100) The message is too long');
    if (!b.message.trim() && !p.link && p.photos.length === 0 && p.kind === 'feed') return graphError(reply, 400, 100, '(#100) Posts where the message is empty need a link or attached_media');
    p.message = b.message;
    p.updated = graphTime(new Date());
    return { success: true };
  });

  app.get('/:v/:id', async (req, reply) => {
    const f = await fault('status', reply, req);
    if (f === 'handled') return reply;
    const t = auth(req, reply);
    if (!t) return reply;
    const id = (req.params as { id: string }).id;
    const v = videos.get(id);
    if (v) {
      if (v.status === 'in_progress') {
        v.polls++;
        if (v.forcedError) v.status = 'error';
        else if (v.polls >= (opts.processingPolls ?? 1)) v.status = (await (v.fetched ?? fetchable(v.url ?? ''))) ? 'ready' : 'error';
      }
      if (v.status === 'ready' && v.error) v.status = 'error';
      return { id, status: { video_status: v.status, ...(v.status === 'error' ? { processing_phase: { status: 'error', error: { message: v.error ?? 'The video could not be processed' } } } : {}) } };
    }
    const p = posts.find((x) => x.id === id);
    const fields = String((req.query as Record<string, string>).fields ?? '').split(',');
    if (p && fields.includes('shares')) {
      const c = metrics.last(id) ?? metrics.read(id);
      return { id, shares: { count: c.shares }, comments: { data: [], summary: { order: 'chronological', total_count: c.comments, can_comment: true } } };
    }
    if (p) return { id, permalink_url: `https://www.facebook.com/${p.pageId}/posts/${p.id.split('_')[1] ?? p.id}`, message: p.message, created_time: p.created };
    return graphError(reply, 400, 100, `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`, { error_subcode: 33 });
  });

  /**
   * A post's comments, oldest first, with Graph cursor paging (`limit` up to 100, `after`);
   * comments made with a Page token are `from` the Page
   * (https://developers.facebook.com/docs/graph-api/reference/object/comments/).
   */
  /**
   * A Page post's insights (https://developers.facebook.com/docs/graph-api/reference/insights): unique media
   * views, reactions by type, clicks. Stories have none (an empty list).
   */
  app.get('/:v/:object/insights', async (req, reply) => {
    const f = await fault('metrics', reply, req);
    if (f === 'handled') return reply;
    const t = auth(req, reply);
    if (!t) return reply;
    const id = (req.params as { object: string }).object;
    const p = posts.find((x) => x.id === id);
    if (!p) return graphError(reply, 400, 100, `Unsupported get request. Object with ID '${id}' does not exist`, { error_subcode: 33 });
    if (p.kind === 'photo_story' || p.kind === 'video_story') return { data: [] };
    const asked = String((req.query as Record<string, string>).metric ?? '').split(',').filter(Boolean);
    const c = metrics.read(id);
    const love = Math.floor(c.likes / 5);
    return graphInsights(id, asked, { post_total_media_view_unique: c.reach, post_reactions_by_type_total: { like: c.likes - love, love }, post_clicks: c.clicks });
  });

  app.get('/:v/:object/comments', async (req, reply) => {
    const f = await fault('list', reply, req);
    if (f === 'handled') return reply;
    const t = auth(req, reply);
    if (!t) return reply;
    const obj = (req.params as { object: string }).object;
    const p = posts.find((x) => x.id === obj);
    if (!p) return graphError(reply, 400, 100, `Unsupported get request. Object with ID '${obj}' does not exist`, { error_subcode: 33 });
    const q = req.query as Record<string, string>;
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? q.access_token;
    const page = pages.find((x) => x.id === p.pageId);
    const r = graphPage(comments.filter((c) => c.objectId === obj), q, {
      time: () => 0, key: (c) => c.id, maxLimit: 100,
      link: (qq) => `http://${req.headers.host}/${(req.params as { v: string }).v}/${obj}/comments?${new URLSearchParams({ ...qq, access_token: token })}`,
    });
    if (!r.ok) return graphError(reply, 400, 100, r.message);
    return { data: r.data.map((c) => ({ id: c.id, message: c.message, from: { id: p.pageId, name: page?.name ?? '' } })), paging: r.paging };
  });

  app.post('/:v/:object/comments', async (req, reply) => {
    const f = await fault('comment', reply, req);
    if (f === 'handled') return reply;
    const t = auth(req, reply);
    if (!t) return reply;
    const obj = (req.params as { object: string }).object;
    const p = posts.find((x) => x.id === obj);
    if (!p) return graphError(reply, 400, 100, `Unsupported post request. Object with ID '${obj}' does not exist`, { error_subcode: 33 });
    if (t.kind !== 'page' || t.pageId !== p.pageId) return graphError(reply, 403, 200, '(#200) pages_manage_engagement is required');
    const message = params(req).message ?? '';
    if (!message) return graphError(reply, 400, 100, '(#100) message is required');
    if (message.length > 8000) return graphError(reply, 400, 100, '(#100) The comment is too long');
    const c = { id: `${obj.split('_').pop()}_${numericId()}`, objectId: obj, message };
    comments.push(c);
    return { id: c.id };
  });

  /**
   * Page feed, videos and stories, newest first, with Graph cursor paging and the since/until
   * time filters (https://developers.facebook.com/docs/graph-api/results). The feed reads at
   * most 100 posts per call and refuses a larger `limit`
   * (https://developers.facebook.com/docs/graph-api/reference/page/feed); the other edges
   * return at most 100. Feed posts carry `attachments` (photo ids as `target.id`, several in
   * `subattachments`) when the fields ask for them.
   */
  const list = (kind: FacebookSimPost['kind'][], edge: string) => pageRoute('list', (req, reply, page) => {
    const q = req.query as Record<string, string>;
    const token = /^(?:Bearer|OAuth) (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? q.access_token;
    const mine = newestFirst(posts.filter((p) => p.pageId === page && kind.includes(p.kind)), (p) => Date.parse(p.created));
    const r = graphPage(mine, q, {
      time: (p) => Date.parse(p.created), key: (p) => p.id, maxLimit: 100, overLimit: edge === 'feed' ? 'error' : 'clamp',
      link: (qq) => `${base}/${(req.params as { v: string }).v}/${page}/${edge}?${new URLSearchParams({ ...qq, access_token: token })}`,
    });
    if (!r.ok) return graphError(reply, 400, 100, r.message);
    const withAttachments = (q.fields ?? '').includes('attachments');
    const attachments = (p: FacebookSimPost) => (p.photos.length === 1 ? { data: [{ media_type: 'photo', target: { id: p.photos[0] } }] }
      : { data: [{ media_type: 'album', subattachments: { data: p.photos.map((id) => ({ media_type: 'photo', target: { id } })) } }] });
    return {
      data: r.data.map((p) => p.kind === 'video' ? { id: p.id, description: p.message, created_time: p.created, permalink_url: `/${page}/videos/${p.id}/` }
        : p.kind === 'feed' ? { id: p.id, message: p.message, created_time: p.created, permalink_url: `https://www.facebook.com/${page}/posts/${p.id.split('_')[1]}`, ...(withAttachments && p.photos.length ? { attachments: attachments(p) } : {}) }
          : { post_id: p.id, status: 'PUBLISHED', creation_time: p.created, media_type: p.kind === 'photo_story' ? 'photo' : 'video', media_id: p.mediaId, url: `https://www.facebook.com/stories/${page}/${p.id}` }),
      paging: r.paging,
    };
  });
  app.get('/:v/:page/feed', list(['feed'], 'feed'));
  app.get('/:v/:page/videos', list(['video'], 'videos'));
  app.get('/:v/:page/stories', list(['photo_story', 'video_story'], 'stories'));

  /** What the platform holds, for tests that run the simulator in its own process. */
  app.get('/__sim/state', async () => ({ posts, calls: Object.fromEntries(calls) }));

  base = await listen(app);
  return {
    url: base, app, clientId, clientSecret, version: V, user, pages, posts, comments, photos, calls, metrics,
    addFault: (f) => faults.add(f),
    addPost(pageId, kind, message, at = new Date()) {
      const p: FacebookSimPost = { id: kind === 'feed' ? `${pageId}_${numericId()}` : numericId(), pageId, kind, message, photos: [], created: graphTime(at) };
      posts.push(p);
      return p;
    },
    revokeAll: () => tokens.clear(),
    close: () => app.close(),
  };
}

await runAsMain(import.meta.url, 'facebook', startFacebookSimulator, (s) => ({ clientId: s.clientId, clientSecret: s.clientSecret, user: s.user, pages: s.pages }));
