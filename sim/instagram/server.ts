/**
 * Instagram API (Instagram Login) simulator: a real HTTP server on loopback speaking the
 * parts of graph.instagram.com / api.instagram.com Herald uses, with numeric string ids, the
 * container status machine and the Graph error envelope
 * (https://developers.facebook.com/docs/instagram-platform/content-publishing):
 * - OAuth: GET /oauth/authorize approves at once as `nextLogin` ('business' by default,
 *   'personal' or 'creator') and redirects with `code`; POST /oauth/access_token (form) gives a
 *   1-hour token with `user_id` and `permissions`; GET /access_token?grant_type=ig_exchange_token
 *   a 60-day token; GET /refresh_access_token?grant_type=ig_refresh_token extends it.
 * - GET /{v}/me (user_id, username, name, account_type BUSINESS | MEDIA_CREATOR | PERSONAL).
 * - POST /{v}/{ig-user}/media: image (image_url), REELS (video_url, cover_url, share_to_feed),
 *   STORIES, carousel children (is_carousel_item; VIDEO children) and CAROUSEL (children 2-10);
 *   caption 2,200 characters, 30 hashtags and 20 @-mentions; user_tags JSON with x, y in 0-1
 *   (images only); collaborators JSON (at most 3; not on stories). Media URLs are downloaded
 *   through the SSRF guard (sim/common/fetch-media.ts, `mediaFetch` option): an unreachable or
 *   refused URL turns the container to ERROR with subcode text 2207052. The bytes are checked
 *   (sim/common/media-info.ts) against the IG User Media reference's specifications: an image
 *   (fetched while the container is created) must be JPEG (else 36001/2207005), at most 8 MB
 *   (36000/2207004) and, outside stories, 4:5 to 1.91:1 (36003/2207009), answered at once; more
 *   than 20 @-mentions: 100/2207040; a caption over 2,200 characters or 30 hashtags: 36004/2207010; a video
 *   must be MP4/MOV, a reel 3 s to 15 min, a story or carousel video at most 60 s, else the
 *   container turns to ERROR with 2207026.
 * - GET /{v}/{container}?fields=status_code,status: IN_PROGRESS -> FINISHED | ERROR;
 *   PUBLISHED after media_publish; EXPIRED when not published within 24 h of its creation
 *   (the IG Container reference's status codes,
 *   https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-container);
 *   `ageContainers(ms)` lets that time pass for the containers.
 * - POST /{v}/{ig-user}/media_publish?creation_id: publishing an EXPIRED container fails with
 *   code -2, subcode 2207020 (the error code table: generate a new container), any other that is
 *   not FINISHED with code 9007, subcode 2207027; over the 24 h quota (50) subcode 2207042;
 *   personal accounts cannot publish.
 * - GET /{v}/{ig-user}/media | stories (newest first; Graph cursor paging, at most 100 a call,
 *   `since`/`until` time filters), GET /{v}/{media}?fields=permalink,
 *   POST and GET /{v}/{media}/comments, GET /{v}/{ig-user}/content_publishing_limit.
 * - Faults (addFault): rate limit (code 4 with x-business-use-case-usage), 5xx, expired token,
 *   slow, dropped connection, dropped answer after publish, processing error, comment failure,
 *   a failing list call (`op: 'list'`), and a publish that fails inside Instagram with the
 *   connection dropped (`error_dropped`: no media, the container turns to ERROR).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { listen, runAsMain, simApp, simControls, type SimulatorBase } from '../common/app.ts';
import { graphErrors, graphTime } from '../common/graph.ts';
import { numericIds } from '../common/ids.ts';
import { droppedAfterCreate, FaultQueue } from '../common/faults.ts';
import { graphInsights, MetricsBook } from '../common/metrics.ts';
import { newestFirst } from '../common/lists.ts';
import { authorizeRoute, takeCode } from '../common/oauth.ts';
import { graphPage } from '../common/graph-paging.ts';
import { fetchMedia, type SimMediaFetchPolicy } from '../common/fetch-media.ts';
import { mediaInfo } from '../common/media-info.ts';

export type InstagramAccountType = 'BUSINESS' | 'MEDIA_CREATOR' | 'PERSONAL';
export interface InstagramSimUser { id: string; username: string; name: string; account_type: InstagramAccountType }
export interface InstagramSimOptions {
  clientId?: string; clientSecret?: string; version?: string; processingPolls?: number; publishLimit?: number; minRefreshAgeSeconds?: number;
  /** Which media URLs may be downloaded (default: public addresses only, through the SSRF guard). */
  mediaFetch?: SimMediaFetchPolicy;
  /** Collaborators per post (Instagram: 3). */
  maxCollaborators?: number;
  /** Carousel children, 2 to this (Instagram: 10). */
  carouselMax?: number;
  /** Hashtags and @-mentions per caption (Instagram: 30 and 20). */
  maxHashtags?: number;
  maxMentions?: number;
  /** Largest image, bytes (Instagram: 8 MB). */
  imageMaxBytes?: number;
  /** Reel duration bounds, seconds (3 s to 15 min). */
  reelMinSeconds?: number;
  reelMaxSeconds?: number;
  /** Longest story or carousel video, seconds (Instagram: 60). */
  storyVideoMaxSeconds?: number;
  /** Largest video, bytes (300 MB). */
  videoMaxBytes?: number;
}

export type InstagramFault = {
  op: 'create' | 'publish' | 'status' | 'comment' | 'token' | 'list' | 'metrics' | 'any';
  kind: 'rate_limit' | 'server_error' | 'expired_token' | 'slow' | 'drop' | 'drop_after_create' | 'processing_failed' | 'error_dropped';
  count: number; delayMs?: number;
};

export interface InstagramContainer {
  id: string; owner: string; media_type: string; caption: string; url?: string; cover_url?: string; is_carousel_item: boolean; children: string[];
  user_tags?: Array<{ username: string; x: number; y: number }>; collaborators?: string[]; share_to_feed?: boolean;
  status_code: 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED'; status?: string; polls: number; created: number;
  fetched?: Promise<boolean>; forcedError?: boolean; mediaId?: string;
  /** Why the downloaded video breaks Instagram's video rules (format, size, duration): the container turns to ERROR with it. */
  mediaError?: string;
  /** Why the SSRF guard refused a media URL (sim/common/fetch-media.ts). */
  fetchRefused?: string;
}
/** `external`: posted in the app, not through the API (does not count toward the API publishing limit). */
export interface InstagramMedia { id: string; owner: string; media_type: string; media_product_type: string; caption: string; timestamp: string; shortcode: string; container: string; children: string[]; comments: Array<{ id: string; text: string; from?: string }>; external?: boolean }

export interface InstagramSimulator extends SimulatorBase<InstagramFault> {
  users: Record<'business' | 'personal' | 'creator', InstagramSimUser>;
  nextLogin: 'business' | 'personal' | 'creator';
  media: InstagramMedia[];
  containers: Map<string, InstagramContainer>;
  /** The media's insights (GET /{media}/insights). */
  metrics: MetricsBook;
  /** Publishes media directly, as if the user posted it in the app (an IMAGE feed post by default). */
  addMedia(owner: string, caption: string, kind?: { media_type?: string; media_product_type?: string }, at?: Date): InstagramMedia;
  /** Lets `ms` pass for the existing containers: one not published within 24 h of its creation is then EXPIRED. */
  ageContainers(ms: number): void;
}

const numericId = numericIds(17_900_000_000_000_000n, 97);

export async function startInstagramSimulator(opts: InstagramSimOptions = {}): Promise<InstagramSimulator> {
  const clientId = opts.clientId ?? 'sim-instagram-app';
  const clientSecret = opts.clientSecret ?? 'sim-instagram-secret';
  const V = opts.version ?? 'v25.0';
  const users = {
    business: { id: numericId(), username: 'herald_business', name: 'Herald Business', account_type: 'BUSINESS' as const },
    personal: { id: numericId(), username: 'herald_personal', name: 'Herald Personal', account_type: 'PERSONAL' as const },
    creator: { id: numericId(), username: 'herald_creator', name: 'Herald Creator', account_type: 'MEDIA_CREATOR' as const },
  };
  const byId = (id: string) => Object.values(users).find((u) => u.id === id)!;
  const codes = new Map<string, { redirectUri: string; expires: number; scope: string[]; userId: string }>();
  const tokens = new Map<string, { userId: string; expires: number; issued: number; longLived: boolean; scope: string[] }>();
  const containers = new Map<string, InstagramContainer>();
  const media: InstagramMedia[] = [];
  const metrics = new MetricsBook();
  const calls = new Map<string, number>();
  const limit = opts.publishLimit ?? 50;

  const sim = { nextLogin: 'business' as 'business' | 'personal' | 'creator' };
  const app = await simApp({
    calls, onRequest: (_req, reply) => { reply.header('x-business-use-case-usage', JSON.stringify({ sim: [{ type: 'instagram', call_count: 1, total_cputime: 1, total_time: 1, estimated_time_to_regain_access: 0 }] })); },
  });

  const graphError = graphErrors('IGApiException');

  const faults = new FaultQueue<InstagramFault>({
    rate_limit: (reply) => {
      reply.header('x-business-use-case-usage', JSON.stringify({ sim: [{ type: 'instagram', call_count: 100, total_cputime: 20, total_time: 30, estimated_time_to_regain_access: 1 }] }));
      graphError(reply, 400, 4, 'Application request limit reached', { is_transient: true });
    },
    server_error: (reply) => graphError(reply, 500, 2, 'An unexpected error has occurred. Please retry your request later.', { is_transient: true }),
    expired_token: (reply) => graphError(reply, 400, 190, 'Error validating access token: Session has expired.', { error_subcode: 463 }),
  });
  const fault = (op: InstagramFault['op'], reply: FastifyReply, req: FastifyRequest) => faults.apply(op, reply, req);

  const params = (req: FastifyRequest) => ({ ...(req.query as Record<string, string>), ...((req.body ?? {}) as Record<string, string>) });
  function authUser(req: FastifyRequest, reply: FastifyReply): string | null {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? params(req).access_token;
    const t = token ? tokens.get(token) : undefined;
    if (!t) { graphError(reply, 400, 190, 'Invalid OAuth access token - Cannot parse access token'); return null; }
    if (t.expires < Date.now()) { graphError(reply, 400, 190, 'Error validating access token: Session has expired.', { error_subcode: 463 }); return null; }
    return t.userId;
  }
  const issue = (userId: string, ttl: number, longLived: boolean, scope: string[]) => {
    const tk = `IGAA${randomBytes(24).toString('base64url')}`;
    tokens.set(tk, { userId, expires: Date.now() + ttl * 1000, issued: Date.now(), longLived, scope });
    return tk;
  };
  const MB = 1024 * 1024;
  /**
   * An image's problems by Instagram's image specifications (IG User Media reference,
   * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media):
   * JPEG only, at most 8 MB, aspect ratio 4:5 to 1.91:1 (feed and carousel images). Read from the
   * bytes; answered with the codes of Instagram's error code table
   * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/error-codes):
   * 36001/2207005, 36000/2207004, 36003/2207009.
   */
  const imageProblem = (bytes: Buffer, story: boolean): { code: number; message: string; extra: Record<string, unknown> } | undefined => {
    const info = mediaInfo(bytes);
    if (info.format === 'unknown' || info.format === 'mp4' || info.format === 'mov' || info.format === 'webm') {
      return { code: 9004, message: 'Only photo or video can be accepted as media type.', extra: { error_subcode: 2207052, error_user_title: 'Media download has failed.' } };
    }
    if (info.format !== 'jpeg') {
      return { code: 36001, message: 'The image format is not supported.', extra: { error_subcode: 2207005, error_user_title: 'Unsupported image format', error_user_msg: `The image format ${info.format} is not supported. Supported formats are: jpeg.` } };
    }
    const max = opts.imageMaxBytes ?? 8 * MB;
    if (bytes.length > max) {
      return { code: 36000, message: 'The image size is too large.', extra: { error_subcode: 2207004, error_user_title: 'Image size too large', error_user_msg: `The image is too large to download. It should be less than ${max / MB} MiB.` } };
    }
    const { width: w, height: h } = info;
    if (!story && w && h && (w * 5 < h * 4 || w * 100 > h * 191)) {
      const ratio = (w / h).toFixed(4).replace(/0+$/, '');
      return { code: 36003, message: 'The aspect ratio is not supported.', extra: { error_subcode: 2207009, error_user_title: 'Cannot Publish Image', error_user_msg: `The submitted image with aspect ratio ('${ratio}') cannot be published. Please submit an image with a valid aspect ratio.` } };
    }
    return undefined;
  };
  /** A video's problems: MP4 or MOV, at most 300 MB; reels 3 s to 15 min, story and carousel videos at most 60 s. */
  const videoProblem = (c: InstagramContainer, bytes: Buffer): string | undefined => {
    const info = mediaInfo(bytes);
    if (info.format !== 'mp4' && info.format !== 'mov') return `Error: 2207026 The video format is not supported. Please check spec for supported video format (this file is ${info.format}; MOV or MP4)`;
    const maxBytes = opts.videoMaxBytes ?? 300 * MB;
    if (bytes.length > maxBytes) return `Error: 2207026 The video is too large (${bytes.length} bytes; at most ${maxBytes})`;
    const d = info.durationSeconds;
    if (d === undefined) return undefined;
    if (c.media_type === 'REELS') {
      const min = opts.reelMinSeconds ?? 3;
      const max = opts.reelMaxSeconds ?? 900;
      if (d < min || d > max) return `Error: 2207026 The video duration is not supported: reels last ${min} seconds to ${max / 60} minutes (this one lasts ${d} s)`;
    } else {
      const max = opts.storyVideoMaxSeconds ?? 60;
      if (d > max) return `Error: 2207026 The video duration is not supported: ${c.media_type === 'STORIES' ? 'story' : 'carousel'} videos can be at most ${max} seconds (this one lasts ${d} s)`;
    }
    return undefined;
  };
  /** Downloads a container's video like Instagram does (through the SSRF guard) and checks it; notes a refusal or a broken rule on the container. */
  const fetchVideo = async (c: InstagramContainer, url: string) => {
    const r = await fetchMedia(url, opts.mediaFetch);
    if (!r.ok) { if (r.refused) c.fetchRefused ??= r.error; return false; }
    if (r.bytes.length === 0) return false;
    c.mediaError ??= videoProblem(c, r.bytes);
    return true;
  };
  /** Downloads a reel's cover (`cover_url`): a JPEG of at most 8 MB (the IG User Media reference's cover photo specifications). */
  const fetchCover = async (c: InstagramContainer, url: string) => {
    const r = await fetchMedia(url, opts.mediaFetch);
    if (!r.ok) { if (r.refused) c.fetchRefused ??= r.error; return false; }
    if (r.bytes.length === 0) return false;
    const info = mediaInfo(r.bytes);
    if (info.format !== 'jpeg') c.mediaError ??= `Error: 2207005 The cover image format ${info.format} is not supported. Supported formats are: jpeg.`;
    else if (r.bytes.length > (opts.imageMaxBytes ?? 8 * MB)) c.mediaError ??= `Error: 2207004 The cover image is too large to download. It should be less than ${(opts.imageMaxBytes ?? 8 * MB) / MB} MiB.`;
    return true;
  };

  // OAuth ---------------------------------------------------------------------
  authorizeRoute(app, '/oauth/authorize', codes, {
    required: ['client_id', 'redirect_uri', 'scope', 'response_type', 'state'],
    refuse: (q, missing, reply) => (missing.length || q.client_id !== clientId ? graphError(reply, 400, 100, `Invalid request: ${missing.join(', ') || 'client_id'}`) : undefined),
    code: () => randomBytes(24).toString('base64url'),
    grant: (q) => ({ redirectUri: q.redirect_uri, expires: Date.now() + 10 * 60_000, scope: q.scope.split(','), userId: users[sim.nextLogin].id }),
    back: (q, code) => [['code', code], ['state', q.state]],
  });
  app.post('/oauth/access_token', async (req, reply) => {
    const f = await fault('token', reply, req);
    if (f === 'handled') return reply;
    const b = params(req);
    if (b.client_id !== clientId || b.client_secret !== clientSecret) return graphError(reply, 400, 101, 'Error validating client secret.');
    if (b.grant_type !== 'authorization_code') return graphError(reply, 400, 100, 'Unsupported grant_type');
    const c = takeCode(codes, b.code);
    if (!c) return reply.status(400).send({ error_type: 'OAuthException', code: 400, error_message: 'This authorization code has been used' });
    if (c.redirectUri !== b.redirect_uri) return reply.status(400).send({ error_type: 'OAuthException', code: 400, error_message: 'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request' });
    return { access_token: issue(c.userId, 3600, false, c.scope), user_id: c.userId, permissions: c.scope };
  });
  app.get('/access_token', async (req, reply) => {
    const q = req.query as Record<string, string>;
    if (q.grant_type !== 'ig_exchange_token' || q.client_secret !== clientSecret) return graphError(reply, 400, 100, 'Invalid ig_exchange_token request');
    const t = tokens.get(q.access_token);
    if (!t || t.expires < Date.now()) return graphError(reply, 400, 190, 'Error validating access token: Session has expired.', { error_subcode: 463 });
    return { access_token: issue(t.userId, 5_184_000, true, t.scope), token_type: 'bearer', expires_in: 5_184_000 };
  });
  app.get('/refresh_access_token', async (req, reply) => {
    const f = await fault('token', reply, req);
    if (f === 'handled') return reply;
    const q = req.query as Record<string, string>;
    if (q.grant_type !== 'ig_refresh_token') return graphError(reply, 400, 100, 'grant_type must be ig_refresh_token');
    const t = tokens.get(q.access_token);
    if (!t) return graphError(reply, 400, 190, 'Invalid OAuth access token - Cannot parse access token');
    if (t.expires < Date.now()) return graphError(reply, 400, 190, 'Error validating access token: Session has expired.', { error_subcode: 463 });
    if (!t.longLived || Date.now() - t.issued < (opts.minRefreshAgeSeconds ?? 86_400) * 1000) return graphError(reply, 400, 190, 'The access token must be long-lived and at least 24 hours old to be refreshed');
    return { access_token: issue(t.userId, 5_184_000, true, t.scope), token_type: 'bearer', expires_in: 5_184_000 };
  });

  app.get(`/${V}/me`, async (req, reply) => {
    const uid = authUser(req, reply);
    if (!uid) return reply;
    const u = byId(uid);
    return { id: u.id, user_id: u.id, username: u.username, name: u.name, account_type: u.account_type, profile_picture_url: 'https://scontent.cdninstagram.com/sim.jpg' };
  });

  // Containers ----------------------------------------------------------------
  app.post(`/${V}/:user/media`, async (req, reply) => {
    const f = await fault('create', reply, req);
    if (f === 'handled') return reply;
    const uid = authUser(req, reply);
    if (!uid) return reply;
    if ((req.params as { user: string }).user !== uid) return graphError(reply, 400, 100, 'Unsupported post request. Object does not exist or cannot be loaded due to missing permissions', { error_subcode: 33 });
    const b = params(req);
    const type = b.media_type ?? 'IMAGE';
    const isItem = b.is_carousel_item === 'true';
    if (!['IMAGE', 'VIDEO', 'REELS', 'STORIES', 'CAROUSEL'].includes(type)) return graphError(reply, 400, 100, 'Param media_type must be one of {IMAGE, VIDEO, REELS, STORIES, CAROUSEL}');
    if (type === 'VIDEO' && !isItem) return graphError(reply, 400, 100, 'The VIDEO media type is only for carousel items; publish single videos as REELS', { error_subcode: 2207023 });
    const caption = b.caption ?? '';
    if (caption.length > 2200) {
      return graphError(reply, 400, 36004, 'The caption is too long', { error_subcode: 2207010, error_user_title: 'Caption too long',
        error_user_msg: `The submitted image's caption was ${caption.length} characters long. The maximum number of characters permitted for a caption is 2200. Please submit media with a shorter caption.` });
    }
    const hashtags = caption.match(/(^|\s)#[^\s#]+/g)?.length ?? 0;
    if (hashtags > (opts.maxHashtags ?? 30)) return graphError(reply, 400, 36004, `The caption can contain at most ${opts.maxHashtags ?? 30} hashtags (this one has ${hashtags})`, { error_subcode: 2207010 });
    const mentions = caption.match(/(^|\s)@[A-Za-z0-9._]+/g)?.length ?? 0;
    if (mentions > (opts.maxMentions ?? 20)) return graphError(reply, 400, 100, `Cannot use more than ${opts.maxMentions ?? 20} tags per created media.`, { error_subcode: 2207040 });
    if (isItem && b.caption) return graphError(reply, 400, 100, 'Carousel items cannot have a caption');
    const url = b.image_url ?? b.video_url;
    if (type !== 'CAROUSEL' && !url) return graphError(reply, 400, 100, 'Param image_url or video_url is required');
    if ((type === 'REELS' || type === 'VIDEO') && !b.video_url) return graphError(reply, 400, 100, 'Param video_url is required for videos');
    let userTags: InstagramContainer['user_tags'];
    if (b.user_tags) {
      if (b.video_url || type === 'CAROUSEL') return graphError(reply, 400, 100, 'Param user_tags is only supported on images');
      try { userTags = JSON.parse(b.user_tags); } catch { return graphError(reply, 400, 100, 'Param user_tags must be a JSON array'); }
      for (const [i, t] of (userTags ?? []).entries()) {
        for (const k of ['x', 'y'] as const) if (typeof t[k] !== 'number' || t[k] > 1 || t[k] < 0) return graphError(reply, 400, 100, `(#100) Param user_tags[${i}]['${k}'] must be a number less than or equal to 1`);
      }
    }
    let collaborators: string[] | undefined;
    if (b.collaborators) {
      if (type === 'STORIES' || isItem) return graphError(reply, 400, 100, 'Param collaborators is not allowed for this media type');
      collaborators = JSON.parse(b.collaborators) as string[];
      if (collaborators.length > (opts.maxCollaborators ?? 3)) return graphError(reply, 400, 100, `A post can have at most ${opts.maxCollaborators ?? 3} collaborators`);
    }
    let children: string[] = [];
    if (type === 'CAROUSEL') {
      children = (b.children ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      if (children.length < 2 || children.length > (opts.carouselMax ?? 10)) {
        return graphError(reply, 400, 100, `Your post won't work as a carousel. Carousels need at least 2 photos/videos and no more than ${opts.carouselMax ?? 10} photos/videos.`, { error_subcode: 2207028 });
      }
      for (const id of children) {
        const ch = containers.get(id);
        if (!ch || ch.owner !== uid || !ch.is_carousel_item) return graphError(reply, 400, 100, `Invalid child container ${id}`, { error_subcode: 2207028 });
        if (ch.status_code !== 'FINISHED') return graphError(reply, 400, 9007, `Child container ${id} is not ready`, { error_subcode: 2207027 });
      }
    }
    const c: InstagramContainer = {
      id: numericId(), owner: uid, media_type: isItem ? (b.video_url ? 'VIDEO' : 'IMAGE') : type, caption: b.caption ?? '', url, cover_url: b.cover_url, is_carousel_item: isItem, children,
      user_tags: userTags, collaborators, share_to_feed: b.share_to_feed !== 'false',
      status_code: type === 'CAROUSEL' ? 'FINISHED' : 'IN_PROGRESS', polls: 0, created: Date.now(), forcedError: f !== null && f.kind === 'processing_failed',
    };
    if (b.image_url) {
      // Instagram downloads an image while it creates the container and answers a bad one at once.
      const r = await fetchMedia(b.image_url, opts.mediaFetch);
      if (r.ok && r.bytes.length > 0) {
        const bad = imageProblem(r.bytes, type === 'STORIES');
        if (bad) return graphError(reply, 400, bad.code, bad.message, bad.extra);
        c.fetched = Promise.resolve(true);
      } else {
        if (!r.ok && r.refused) c.fetchRefused = r.error;
        c.fetched = Promise.resolve(false);
      }
    } else if (url) {
      c.fetched = Promise.all([fetchVideo(c, url), c.cover_url ? fetchCover(c, c.cover_url) : Promise.resolve(true)]).then(([a, b2]) => a && b2);
    }
    containers.set(c.id, c);
    return { id: c.id };
  });

  const advance = async (c: InstagramContainer) => {
    if (c.status_code !== 'PUBLISHED' && Date.now() - c.created > 24 * 3600_000) c.status_code = 'EXPIRED';
    if (c.status_code !== 'IN_PROGRESS') return;
    c.polls++;
    if (c.forcedError) { c.status_code = 'ERROR'; c.status = 'Error: 2207026 Unsupported video format'; return; }
    if (c.polls < (opts.processingPolls ?? 1)) return;
    c.status_code = (await c.fetched) ? 'FINISHED' : 'ERROR';
    if (c.status_code === 'ERROR') c.status = `Error: 2207052 The media could not be fetched from the URI${c.fetchRefused ? ` (${c.fetchRefused})` : ''}`;
    else if (c.mediaError) { c.status_code = 'ERROR'; c.status = c.mediaError; }
  };

  app.get(`/${V}/:id`, async (req, reply) => {
    const f = await fault('status', reply, req);
    if (f === 'handled') return reply;
    const uid = authUser(req, reply);
    if (!uid) return reply;
    const id = (req.params as { id: string }).id;
    const fields = String((req.query as Record<string, string>).fields ?? 'id').split(',');
    const c = containers.get(id);
    if (c && c.owner === uid) {
      await advance(c);
      return { id, ...(fields.includes('status_code') ? { status_code: c.status_code } : {}), ...(fields.includes('status') && c.status ? { status: c.status } : {}) };
    }
    const m = media.find((x) => x.id === id && x.owner === uid);
    if (m) return { id, permalink: `https://www.instagram.com/p/${m.shortcode}/`, caption: m.caption, timestamp: m.timestamp, media_type: m.media_type };
    return graphError(reply, 400, 100, `Unsupported get request. Object with ID '${id}' does not exist`, { error_subcode: 33 });
  });

  app.post(`/${V}/:user/media_publish`, async (req, reply) => {
    const f = await fault('publish', reply, req);
    if (f === 'handled') return reply;
    const uid = authUser(req, reply);
    if (!uid) return reply;
    if (byId(uid).account_type === 'PERSONAL') return graphError(reply, 403, 10, 'Application does not have permission for this action: personal accounts cannot publish');
    const c = containers.get(params(req).creation_id ?? '');
    if (!c || c.owner !== uid || c.is_carousel_item) return graphError(reply, 400, 100, 'Param creation_id must be a valid container id');
    await advance(c);
    if (c.status_code === 'EXPIRED') return graphError(reply, 400, -2, 'The media you are trying to access has expired. Please try to upload again.', { error_subcode: 2207020 });
    if (c.status_code !== 'FINISHED') return graphError(reply, 400, 9007, `Media ID is not available (status ${c.status_code})`, { error_subcode: 2207027 });
    if (f?.kind === 'error_dropped') {
      // Publishing failed inside Instagram: nothing is published, and no answer comes back.
      c.status_code = 'ERROR';
      c.status = 'Error: 2207001 Instagram server error. Try again.';
      req.raw.socket.destroy();
      return reply;
    }
    const dayAgo = Date.now() - 24 * 3600_000;
    if (media.filter((m) => m.owner === uid && !m.external && Date.parse(m.timestamp) > dayAgo).length >= limit) return graphError(reply, 400, 4, 'The daily publishing limit was reached', { error_subcode: 2207042 });
    const m: InstagramMedia = {
      id: numericId(), owner: uid, media_type: c.media_type === 'REELS' ? 'VIDEO' : c.media_type === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : c.media_type === 'STORIES' ? (c.url && /\.(mp4|mov)/.test(c.url) ? 'VIDEO' : 'IMAGE') : c.media_type,
      media_product_type: c.media_type === 'REELS' ? 'REELS' : c.media_type === 'STORIES' ? 'STORY' : 'FEED',
      caption: c.caption, timestamp: graphTime(new Date()), shortcode: randomBytes(8).toString('base64url'), container: c.id, children: c.children, comments: [],
    };
    media.push(m);
    c.status_code = 'PUBLISHED';
    c.mediaId = m.id;
    if (droppedAfterCreate(f, req)) return reply;
    return { id: m.id };
  });

  /**
   * The user's media and stories, newest first, with Graph cursor paging (at most 100 a call)
   * and the since/until time filters, as the IG User Media edge documents
   * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media).
   */
  const list = (story: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
    const f = await fault('list', reply, req);
    if (f === 'handled') return reply;
    const uid = authUser(req, reply);
    if (!uid) return reply;
    const q = req.query as Record<string, string>;
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? q.access_token;
    const mine = newestFirst(media.filter((m) => m.owner === uid && (m.media_product_type === 'STORY') === story), (m) => Date.parse(m.timestamp));
    const r = graphPage(mine, q, {
      time: (m) => Date.parse(m.timestamp), key: (m) => m.id, maxLimit: 100,
      link: (qq) => `http://${req.headers.host}/${V}/${(req.params as { user: string }).user}/${story ? 'stories' : 'media'}?${new URLSearchParams({ ...qq, access_token: token })}`,
    });
    if (!r.ok) return graphError(reply, 400, 100, r.message);
    const data = r.data.map((m) => ({ id: m.id, caption: m.caption, timestamp: m.timestamp, media_type: m.media_type, media_product_type: m.media_product_type, permalink: `https://www.instagram.com/p/${m.shortcode}/` }));
    return { data, paging: r.paging };
  };
  app.get(`/${V}/:user/media`, list(false));
  app.get(`/${V}/:user/stories`, list(true));

  /**
   * A media's comments, oldest first, with cursor paging (`limit` up to 100, `after`), each with
   * the commenter's `from {id, username}` and `username`
   * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-media/comments).
   */
  /**
   * Media insights (https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights):
   * views, reach, likes, comments, shares, saved. Children of a carousel have none (an empty list, not 0).
   */
  app.get(`/${V}/:media/insights`, async (req, reply) => {
    const f = await fault('metrics', reply, req);
    if (f === 'handled') return reply;
    const uid = authUser(req, reply);
    if (!uid) return reply;
    const id = (req.params as { media: string }).media;
    const m = media.find((x) => x.id === id && x.owner === uid);
    if (!m) return graphError(reply, 400, 100, `Unsupported get request. Object with ID '${id}' does not exist`, { error_subcode: 33 });
    const asked = String((req.query as Record<string, string>).metric ?? '').split(',').filter(Boolean);
    const c = metrics.read(id);
    return graphInsights(id, asked, { views: c.views, reach: c.reach, likes: c.likes, comments: m.comments.length + c.comments, shares: c.shares, saved: c.saves });
  });

  app.get(`/${V}/:media/comments`, async (req, reply) => {
    const f = await fault('list', reply, req);
    if (f === 'handled') return reply;
    const uid = authUser(req, reply);
    if (!uid) return reply;
    const id = (req.params as { media: string }).media;
    const m = media.find((x) => x.id === id);
    if (!m) return graphError(reply, 400, 100, 'Object does not exist', { error_subcode: 33 });
    const q = req.query as Record<string, string>;
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? q.access_token;
    const r = graphPage(m.comments, q, {
      time: () => 0, key: (c) => c.id, maxLimit: 100,
      link: (qq) => `http://${req.headers.host}/${V}/${id}/comments?${new URLSearchParams({ ...qq, access_token: token })}`,
    });
    if (!r.ok) return graphError(reply, 400, 100, r.message);
    const nameOf = (userId: string) => Object.values(users).find((u) => u.id === userId)?.username ?? '';
    return {
      data: r.data.map((c) => ({ id: c.id, text: c.text, username: nameOf(c.from ?? m.owner), from: { id: c.from ?? m.owner, username: nameOf(c.from ?? m.owner) } })),
      paging: r.paging,
    };
  });

  app.post(`/${V}/:media/comments`, async (req, reply) => {
    const f = await fault('comment', reply, req);
    if (f === 'handled') return reply;
    const uid = authUser(req, reply);
    if (!uid) return reply;
    const m = media.find((x) => x.id === (req.params as { media: string }).media);
    if (!m) return graphError(reply, 400, 100, 'Object does not exist', { error_subcode: 33 });
    if (m.media_product_type === 'STORY') return graphError(reply, 400, 100, 'Comments are not supported on stories');
    const text = params(req).message ?? '';
    if (!text || text.length > 2200) return graphError(reply, 400, 100, 'The comment must have 1 to 2,200 characters');
    const c = { id: numericId(), text, from: uid };
    m.comments.push(c);
    return { id: c.id };
  });

  app.get(`/${V}/:user/content_publishing_limit`, async (req, reply) => {
    const uid = authUser(req, reply);
    if (!uid) return reply;
    const dayAgo = Date.now() - 24 * 3600_000;
    return { data: [{ quota_usage: media.filter((m) => m.owner === uid && !m.external && Date.parse(m.timestamp) > dayAgo).length, config: { quota_total: limit, quota_duration: 86400 } }] };
  });

  const out: InstagramSimulator = {
    url: await listen(app), app, clientId, clientSecret, users, media, containers, calls, metrics,
    get nextLogin() { return sim.nextLogin; },
    set nextLogin(v) { sim.nextLogin = v; },
    addMedia(owner, caption, kind = {}, at = new Date()) {
      const m: InstagramMedia = {
        id: numericId(), owner, media_type: kind.media_type ?? 'IMAGE', media_product_type: kind.media_product_type ?? 'FEED', caption, timestamp: graphTime(at),
        shortcode: randomBytes(8).toString('base64url'), container: '', children: [], comments: [], external: true,
      };
      media.push(m);
      return m;
    },
    ageContainers(ms) {
      for (const c of containers.values()) c.created -= ms;
    },
    ...simControls(app, faults, tokens, () => tokens.clear()),
  };
  return out;
}

await runAsMain(import.meta.url, 'instagram', startInstagramSimulator, (s) => ({ clientId: s.clientId, clientSecret: s.clientSecret }));
