/**
 * Threads API simulator: a real HTTP server on loopback speaking the parts of the Threads
 * API Herald uses, with its paths, numeric string ids, container status machine, Graph
 * error envelope and rules (https://developers.facebook.com/documentation/threads/posts,
 * https://developers.facebook.com/docs/threads/get-started/long-lived-tokens):
 * - OAuth: GET /oauth/authorize approves at once (no UI) and redirects with `code`;
 *   POST /oauth/access_token (form client_id, client_secret, code, grant_type, redirect_uri)
 *   answers `{access_token, user_id}` valid 1 hour; GET /access_token?grant_type=th_exchange_token
 *   gives a 60-day token; GET /refresh_access_token?grant_type=th_refresh_token extends a
 *   long-lived token that is at least `minRefreshAgeSeconds` old and not expired.
 * - GET /v1.0/me, POST /v1.0/{user}/threads (TEXT, IMAGE, VIDEO, CAROUSEL containers;
 *   carousel children with is_carousel_item; reply_to_id; 500 characters with emoji counted
 *   as UTF-8 bytes), GET /v1.0/{id}?fields=status,error_message (IN_PROGRESS -> FINISHED or
 *   ERROR; PUBLISHED after publish; EXPIRED after 24 h), POST /v1.0/{user}/threads_publish,
 *   GET /v1.0/{user}/threads and /replies (newest first; Graph cursor paging, at most 100 a
 *   call, `since`/`until`), GET /v1.0/{user}/threads_publishing_limit.
 * - Media is downloaded from image_url / video_url like Threads does: an unreachable URL
 *   turns the container to ERROR "The media could not be fetched from this URI". Downloads
 *   go through the SSRF guard (sim/common/fetch-media.ts, `mediaFetch` option). The bytes are
 *   checked (sim/common/media-info.ts): images JPEG or PNG up to 8 MB, videos MP4 or MOV up to
 *   1 GB and 5 minutes; a breach turns the container to ERROR with the reason.
 * - More than 5 distinct links in `text` fail at container creation with
 *   THREADS_API__LINK_LIMIT_EXCEEDED (https://developers.facebook.com/documentation/threads/create-posts/text-attachments).
 * - 250 published posts per user per rolling 24 h (configurable); scopes enforced
 *   (threads_content_publish to publish, threads_manage_replies for replies).
 * - Faults (POST /__sim/faults or addFault): rate limit, 5xx, expired token, slow, dropped
 *   connection, dropped answer after the post was published, processing error, a failing
 *   list call (`op: 'list'`).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { listen, runAsMain, simApp, simControls, type SimulatorBase } from '../common/app.ts';
import { graphErrors, graphTime } from '../common/graph.ts';
import { numericIds } from '../common/ids.ts';
import { graphInsights, MetricsBook } from '../common/metrics.ts';
import { droppedAfterCreate, FaultQueue, type SimFault } from '../common/faults.ts';
import { newestFirst } from '../common/lists.ts';
import { authorizeRoute, takeCode } from '../common/oauth.ts';
import { graphPage } from '../common/graph-paging.ts';
import { fetchMedia, type SimMediaFetchPolicy } from '../common/fetch-media.ts';
import { mediaInfo } from '../common/media-info.ts';

export interface ThreadsSimUser { id: string; username: string; name: string }
export interface ThreadsSimOptions {
  clientId?: string;
  clientSecret?: string;
  /** Published posts per user per rolling 24 h (Threads: 250). */
  publishLimit?: number;
  /** Status polls a media container stays IN_PROGRESS. */
  processingPolls?: number;
  /** Largest carousel accepted (CONFLICT upstream: 20 or 10). Default 20. */
  carouselMax?: number;
  /** Minimum age of a long-lived token before it may be refreshed, seconds (Threads: 86,400). */
  minRefreshAgeSeconds?: number;
  /** Which media URLs may be downloaded (default: public addresses only, through the SSRF guard). */
  mediaFetch?: SimMediaFetchPolicy;
  /** Links per post; more fail with THREADS_API__LINK_LIMIT_EXCEEDED (Threads: 5). */
  maxLinks?: number;
  /** Largest image, bytes (Threads: 8 MB). */
  imageMaxBytes?: number;
  /** Largest video, bytes (Threads: 1 GB). */
  videoMaxBytes?: number;
  /** Longest video, seconds (Threads: 300). */
  videoMaxSeconds?: number;
  /** Deletes per account per rolling 24 h (Threads: 100). */
  deletesPerDay?: number;
}

/** A fault for the next `count` matching calls, after letting `after` of them through. */
type Fault = SimFault<'create' | 'publish' | 'status' | 'token' | 'list' | 'metrics' | 'any', 'rate_limit' | 'server_error' | 'expired_token' | 'slow' | 'drop' | 'drop_after_create' | 'processing_failed'>;

interface Container {
  id: string; owner: string; media_type: string; text: string; url?: string; is_carousel_item: boolean; children: string[];
  reply_to_id?: string; status: 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED'; error_message?: string;
  polls: number; created: number; fetched?: Promise<boolean>; fetchOk?: boolean; forcedError?: boolean; mediaId?: string;
  /** Why the downloaded media breaks Threads' media rules (format, size, duration). */
  mediaError?: string;
  /** Why the SSRF guard refused the media URL (sim/common/fetch-media.ts). */
  fetchRefused?: string;
}
/** `external`: posted in the app, not through the API (does not count toward the API publishing quota). */
export interface ThreadsPost { id: string; owner: string; media_type: string; text: string; timestamp: string; shortcode: string; children: string[]; reply_to_id?: string; container: string; external?: boolean }

export interface ThreadsSimulator extends SimulatorBase<Fault> {
  user: ThreadsSimUser;
  posts: ThreadsPost[];
  containers: Map<string, Container>;
  /** The posts' insights (GET /v1.0/{id}/insights). */
  metrics: MetricsBook;
  /** Publishes a TEXT post (or a reply) directly, as if the user posted it in the app. */
  addPost(text: string, opts?: { replyToId?: string; at?: Date }): ThreadsPost;
}

/** Numeric string ids, like Threads media ids. */
const numericId = numericIds(17_841_400_000_000_000n, 97);
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
/** Distinct URLs of a text, as Threads counts links ("all unique URLs found in the text field"). */
const linkCount = (t: string) => new Set(t.match(/(?:https?:\/\/|\bwww\.)\S+/gi)?.map((u) => u.toLowerCase()) ?? []).size;
const textLength = (t: string) => { let n = 0; for (const { segment } of segmenter.segment(t)) n += EMOJI.test(segment) ? Buffer.byteLength(segment) : [...segment].length; return n; };

const graphError = graphErrors('THApiException');

export async function startThreadsSimulator(opts: ThreadsSimOptions = {}): Promise<ThreadsSimulator> {
  const clientId = opts.clientId ?? 'sim-threads-app';
  const clientSecret = opts.clientSecret ?? 'sim-threads-secret';
  const user: ThreadsSimUser = { id: numericId(), username: 'herald_threads', name: 'Herald Threads Sim' };
  const codes = new Map<string, { redirectUri: string; expires: number; scope: string[] }>();
  const tokens = new Map<string, { userId: string; expires: number; issued: number; longLived: boolean; scope: string[] }>();
  const containers = new Map<string, Container>();
  const posts: ThreadsPost[] = [];
  const metrics = new MetricsBook();
  const calls = new Map<string, number>();
  const limit = opts.publishLimit ?? 250;
  const carouselMax = opts.carouselMax ?? 20;

  const app = await simApp({ calls });
  const faults = new FaultQueue<Fault>({
    rate_limit: (reply) => graphError(reply, 400, 4, 'Application request limit reached', { is_transient: true }),
    server_error: (reply) => graphError(reply, 500, 2, 'An unexpected error has occurred. Please retry your request later.', { is_transient: true }),
    expired_token: (reply) => graphError(reply, 401, 190, 'Error validating access token: Session has expired.', { error_subcode: 463 }),
  });
  const fault = (op: Fault['op'], reply: FastifyReply, req: FastifyRequest) => faults.apply(op, reply, req);

  const params = (req: FastifyRequest) => ({ ...(req.query as Record<string, string>), ...((req.body ?? {}) as Record<string, string>) });

  function authUser(req: FastifyRequest, reply: FastifyReply, needScope?: string): string | null {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? params(req).access_token;
    const t = token ? tokens.get(token) : undefined;
    if (!t) { graphError(reply, 400, 190, 'Invalid OAuth access token - Cannot parse access token'); return null; }
    if (t.expires < Date.now()) { graphError(reply, 401, 190, 'Error validating access token: Session has expired.', { error_subcode: 463 }); return null; }
    if (needScope && !t.scope.includes(needScope)) { graphError(reply, 403, 10, `Application does not have permission for this action (${needScope})`); return null; }
    return t.userId;
  }
  const issue = (userId: string, ttl: number, longLived: boolean, scope: string[]) => {
    const tk = `TH${randomBytes(24).toString('base64url')}`;
    tokens.set(tk, { userId, expires: Date.now() + ttl * 1000, issued: Date.now(), longLived, scope });
    return tk;
  };

  // OAuth ---------------------------------------------------------------------
  const scopeOf = (q: Record<string, string>) => q.scope.split(',').map((s) => s.trim());
  authorizeRoute(app, '/oauth/authorize', codes, {
    required: ['client_id', 'redirect_uri', 'scope', 'response_type', 'state'],
    refuse: (q, missing, reply) => {
      if (missing.length) return graphError(reply, 400, 100, `Missing parameter(s): ${missing.join(', ')}`);
      if (q.client_id !== clientId) return graphError(reply, 400, 100, 'Invalid platform app');
      if (q.response_type !== 'code') return graphError(reply, 400, 100, 'response_type must be code');
      if (!scopeOf(q).includes('threads_basic')) return graphError(reply, 400, 100, 'threads_basic is required');
      return undefined;
    },
    code: () => randomBytes(24).toString('base64url'),
    grant: (q) => ({ redirectUri: q.redirect_uri, expires: Date.now() + 10 * 60_000, scope: scopeOf(q) }),
    back: (q, code) => [['code', code], ['state', q.state]],
  });

  app.post('/oauth/access_token', async (req, reply) => {
    const f = await fault('token', reply, req);
    if (f === 'handled') return reply;
    const b = params(req);
    if (b.client_id !== clientId || b.client_secret !== clientSecret) return graphError(reply, 400, 101, 'Error validating client secret.');
    if (b.grant_type !== 'authorization_code') return graphError(reply, 400, 100, 'Unsupported grant_type');
    const c = takeCode(codes, b.code);
    if (!c) return graphError(reply, 400, 100, 'Invalid verification code format.', { error_subcode: 36008 });
    if (c.redirectUri !== b.redirect_uri) return graphError(reply, 400, 100, 'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request');
    return { access_token: issue(user.id, 3600, false, c.scope), user_id: Number(user.id) };
  });

  app.get('/access_token', async (req, reply) => {
    const q = req.query as Record<string, string>;
    if (q.grant_type !== 'th_exchange_token') return graphError(reply, 400, 100, 'grant_type must be th_exchange_token');
    if (q.client_secret !== clientSecret) return graphError(reply, 400, 101, 'Error validating client secret.');
    const t = tokens.get(q.access_token);
    if (!t || t.expires < Date.now()) return graphError(reply, 400, 190, 'Error validating access token: Session has expired.', { error_subcode: 463 });
    if (t.longLived) return graphError(reply, 400, 100, 'The access token is already long-lived');
    return { access_token: issue(t.userId, 5_183_944, true, t.scope), token_type: 'bearer', expires_in: 5_183_944 };
  });

  app.get('/refresh_access_token', async (req, reply) => {
    const f = await fault('token', reply, req);
    if (f === 'handled') return reply;
    const q = req.query as Record<string, string>;
    if (q.grant_type !== 'th_refresh_token') return graphError(reply, 400, 100, 'grant_type must be th_refresh_token');
    const t = tokens.get(q.access_token);
    if (!t) return graphError(reply, 400, 190, 'Invalid OAuth access token - Cannot parse access token');
    if (t.expires < Date.now()) return graphError(reply, 400, 190, 'Error validating access token: Session has expired.', { error_subcode: 463 });
    if (!t.longLived) return graphError(reply, 400, 190, 'Only long-lived tokens can be refreshed');
    if (Date.now() - t.issued < (opts.minRefreshAgeSeconds ?? 86_400) * 1000) return graphError(reply, 400, 190, 'The access token must be at least 24 hours old to be refreshed');
    return { access_token: issue(t.userId, 5_183_944, true, t.scope), token_type: 'bearer', expires_in: 5_183_944 };
  });

  // Profile -------------------------------------------------------------------
  app.get('/v1.0/me', async (req, reply) => {
    const uid = authUser(req, reply, 'threads_basic');
    if (!uid) return reply;
    return { id: user.id, username: user.username, name: user.name, threads_profile_picture_url: 'https://scontent.cdninstagram.com/sim.jpg' };
  });

  // Containers ----------------------------------------------------------------
  const MB = 1024 * 1024;
  /**
   * Threads' media specifications (https://developers.facebook.com/docs/threads/overview#media-specifications):
   * images JPEG or PNG up to 8 MB; videos MP4 or MOV up to 1 GB and 5 minutes. Read from the bytes.
   */
  const mediaProblem = (c: Container, bytes: Buffer): string | undefined => {
    const info = mediaInfo(bytes);
    if (c.media_type === 'IMAGE') {
      if (info.format !== 'jpeg' && info.format !== 'png') return `The media format is not supported: images must be JPEG or PNG (this file is ${info.format})`;
      const max = opts.imageMaxBytes ?? 8 * MB;
      if (bytes.length > max) return `The image is too large: images can be at most 8 MB (${max} bytes; this one has ${bytes.length})`;
      return undefined;
    }
    if (info.format !== 'mp4' && info.format !== 'mov') return `The media format is not supported: videos must be MP4 or MOV (this file is ${info.format})`;
    const max = opts.videoMaxBytes ?? 1024 * MB;
    if (bytes.length > max) return `The video is too large: videos can be at most 1 GB (this one has ${bytes.length} bytes)`;
    const maxSeconds = opts.videoMaxSeconds ?? 300;
    if (info.durationSeconds !== undefined && info.durationSeconds > maxSeconds) return `The video is too long: videos can be at most 5 minutes (${maxSeconds} seconds; this one lasts ${info.durationSeconds} s)`;
    return undefined;
  };
  const startFetch = (c: Container) => {
    c.fetched = fetchMedia(c.url!, opts.mediaFetch).then((r) => {
      const ok = r.ok && r.bytes.length > 0;
      c.fetchOk = ok;
      if (!r.ok && r.refused) c.fetchRefused = r.error;
      if (r.ok && ok) c.mediaError = mediaProblem(c, r.bytes);
      return ok;
    });
  };

  app.post('/v1.0/:userId/threads', async (req, reply) => {
    const f = await fault('create', reply, req);
    if (f === 'handled') return reply;
    const uid = authUser(req, reply, 'threads_basic');
    if (!uid) return reply;
    if ((req.params as { userId: string }).userId !== uid && (req.params as { userId: string }).userId !== 'me') return graphError(reply, 400, 100, 'Unsupported post request. Object does not exist or cannot be loaded due to missing permissions');
    const b = params(req);
    const type = b.media_type;
    const text = b.text ?? '';
    if (!['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'].includes(type)) return graphError(reply, 400, 100, 'Param media_type must be one of {TEXT, IMAGE, VIDEO, CAROUSEL}');
    if (textLength(text) > 500) return graphError(reply, 400, 100, 'Param text must be at most 500 characters long.');
    const isItem = b.is_carousel_item === 'true';
    const links = linkCount(text);
    if (links > (opts.maxLinks ?? 5)) return graphError(reply, 400, 100, `THREADS_API__LINK_LIMIT_EXCEEDED: a post can contain at most ${opts.maxLinks ?? 5} links (this one has ${links})`);
    if (type === 'TEXT' && !text.trim()) return graphError(reply, 400, 100, 'Param text is required for TEXT posts');
    if (type === 'IMAGE' && !b.image_url) return graphError(reply, 400, 100, 'Param image_url is required for IMAGE');
    if (type === 'VIDEO' && !b.video_url) return graphError(reply, 400, 100, 'Param video_url is required for VIDEO');
    if (isItem && (type === 'TEXT' || type === 'CAROUSEL')) return graphError(reply, 400, 100, 'Only IMAGE and VIDEO can be carousel items');
    if (isItem && text) return graphError(reply, 400, 100, 'Carousel items cannot have text');
    let children: string[] = [];
    if (type === 'CAROUSEL') {
      children = (b.children ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      if (children.length < 2 || children.length > carouselMax) return graphError(reply, 400, 100, `A carousel needs 2 to ${carouselMax} children`);
      for (const id of children) {
        const ch = containers.get(id);
        if (!ch || ch.owner !== uid || !ch.is_carousel_item) return graphError(reply, 400, 100, `Invalid child container ${id}`);
        if (ch.status !== 'FINISHED') return graphError(reply, 400, 24, `Child container ${id} is not ready (status ${ch.status})`, { error_subcode: 4279009 });
      }
    }
    if (b.reply_to_id) {
      if (!authUser(req, reply, 'threads_manage_replies')) return reply;
      if (!posts.some((p) => p.id === b.reply_to_id)) return graphError(reply, 400, 100, 'The post you are replying to does not exist', { error_subcode: 2207051 });
    }
    const c: Container = {
      id: numericId(), owner: uid, media_type: type, text, url: b.image_url ?? b.video_url, is_carousel_item: isItem, children,
      reply_to_id: b.reply_to_id, status: type === 'TEXT' || type === 'CAROUSEL' ? 'FINISHED' : 'IN_PROGRESS', polls: 0, created: Date.now(),
      forcedError: f !== null && f.kind === 'processing_failed',
    };
    if (c.url) startFetch(c);
    containers.set(c.id, c);
    return { id: c.id };
  });

  const advance = async (c: Container) => {
    if (c.status !== 'PUBLISHED' && Date.now() - c.created > 24 * 3600_000) c.status = 'EXPIRED';
    if (c.status !== 'IN_PROGRESS') return;
    c.polls++;
    if (c.forcedError) { c.status = 'ERROR'; c.error_message = 'Unsupported media: the video codec could not be processed'; return; }
    if (c.fetchOk === undefined && c.polls < (opts.processingPolls ?? 1)) return;
    const ok = await c.fetched;
    if (!ok) { c.status = 'ERROR'; c.error_message = `The media could not be fetched from this URI${c.fetchRefused ? ` (${c.fetchRefused})` : ''}`; return; }
    if (c.mediaError) { c.status = 'ERROR'; c.error_message = c.mediaError; return; }
    if (c.polls >= (opts.processingPolls ?? 1)) c.status = 'FINISHED';
  };

  /**
   * Delete a post (https://developers.facebook.com/docs/threads/posts/delete-posts): `DELETE
   * /v1.0/{threads-media-id}` needs threads_basic and threads_delete (else 403, code 10), only the
   * user's own post, at most 100 deletes per account per day; answers `{success: true, deleted_id}`
   * and the post is gone (a read answers 100/33, the lists leave it out). A missing post is 400,
   * code 100, subcode 33. UNCONFIRMED (the doc names neither): the error for someone else's post
   * (403, code 10 here) and for the 101st delete of the day (code 4, like the app rate limit).
   */
  const deletes = new Map<string, number[]>();
  app.delete('/v1.0/:id', async (req, reply) => {
    const id = (req.params as { id: string }).id;
    const uid = authUser(req, reply, 'threads_basic');
    if (!uid) return reply;
    const t = tokens.get(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? params(req).access_token);
    if (!t?.scope.includes('threads_delete')) return graphError(reply, 403, 10, 'Application does not have permission for this action (threads_delete)');
    const i = posts.findIndex((x) => x.id === id);
    if (i < 0) return graphError(reply, 400, 100, `Unsupported delete request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`, { error_subcode: 33 });
    if (posts[i].owner !== uid) return graphError(reply, 403, 10, 'Application does not have permission for this action');
    const day = (deletes.get(uid) ?? []).filter((at) => Date.now() - at < 86_400_000);
    if (day.length >= (opts.deletesPerDay ?? 100)) return graphError(reply, 400, 4, 'Application request limit reached: at most 100 deletes per day per account', { is_transient: true });
    deletes.set(uid, [...day, Date.now()]);
    posts.splice(i, 1);
    return { success: true, deleted_id: id };
  });

  app.get('/v1.0/:id', async (req, reply) => {
    const id = (req.params as { id: string }).id;
    const f = await fault('status', reply, req);
    if (f === 'handled') return reply;
    const uid = authUser(req, reply, 'threads_basic');
    if (!uid) return reply;
    const fields = String((req.query as Record<string, string>).fields ?? 'id').split(',');
    const c = containers.get(id);
    if (c && c.owner === uid) {
      await advance(c);
      const out: Record<string, unknown> = { id: c.id };
      if (fields.includes('status')) out.status = c.status;
      if (fields.includes('error_message') && c.error_message) out.error_message = c.error_message;
      return out;
    }
    const p = posts.find((x) => x.id === id);
    if (p) {
      const all: Record<string, unknown> = { id: p.id, media_type: p.media_type === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : p.media_type === 'TEXT' ? 'TEXT_POST' : p.media_type,
        text: p.text, timestamp: p.timestamp, permalink: `https://www.threads.net/@${user.username}/post/${p.shortcode}`, shortcode: p.shortcode, username: user.username };
      return Object.fromEntries(Object.entries(all).filter(([k]) => fields.includes(k) || k === 'id'));
    }
    return graphError(reply, 400, 100, `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`, { error_subcode: 33 });
  });

  app.post('/v1.0/:userId/threads_publish', async (req, reply) => {
    const f = await fault('publish', reply, req);
    if (f === 'handled') return reply;
    const uid = authUser(req, reply, 'threads_content_publish');
    if (!uid) return reply;
    const b = params(req);
    const c = containers.get(b.creation_id ?? '');
    if (!c || c.owner !== uid || c.is_carousel_item) return graphError(reply, 400, 100, 'Param creation_id must be a valid container id', { error_subcode: 4279009 });
    await advance(c);
    if (c.status === 'PUBLISHED') return graphError(reply, 400, 10, 'This media has already been published', { error_subcode: 4279012 });
    if (c.status !== 'FINISHED') return graphError(reply, 400, 24, `The media is not ready to be published (status ${c.status})`, { error_subcode: 4279009 });
    const dayAgo = Date.now() - 24 * 3600_000;
    const isReply = Boolean(c.reply_to_id);
    const used = posts.filter((p) => p.owner === uid && !p.external && Date.parse(p.timestamp) > dayAgo && Boolean(p.reply_to_id) === isReply).length;
    if (used >= (isReply ? 1000 : limit)) return graphError(reply, 400, 4, 'Application request limit reached: the publishing quota of this profile is used up', { is_transient: true });
    const p: ThreadsPost = {
      id: numericId(), owner: uid, media_type: c.media_type, text: c.text, timestamp: graphTime(new Date()), shortcode: randomBytes(8).toString('base64url'),
      children: c.children, reply_to_id: c.reply_to_id, container: c.id,
    };
    posts.push(p);
    c.status = 'PUBLISHED';
    c.mediaId = p.id;
    if (droppedAfterCreate(f, req)) return reply;
    return { id: p.id };
  });

  /**
   * The user's threads (`/threads`, top-level posts) and replies (`/replies`), newest first,
   * with Graph cursor paging (`limit` at most 100, `before`/`after`) and the `since`/`until`
   * time filters (https://developers.facebook.com/documentation/threads/threads-media,
   * https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies/retrieve-replies).
   * Replies carry `replied_to` and `root_post` when asked for, and need threads_read_replies
   * (https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies).
   */
  const list = (replies: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
    const f = await fault('list', reply, req);
    if (f === 'handled') return reply;
    const uid = authUser(req, reply, replies ? 'threads_read_replies' : 'threads_basic');
    if (!uid) return reply;
    const q = req.query as Record<string, string>;
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? q.access_token;
    const mine = newestFirst(posts.filter((p) => p.owner === uid && Boolean(p.reply_to_id) === replies), (p) => Date.parse(p.timestamp));
    const r = graphPage(mine, q, {
      time: (p) => Date.parse(p.timestamp), key: (p) => p.id, maxLimit: 100,
      link: (qq) => `http://${req.headers.host}/v1.0/${(req.params as { userId: string }).userId}/${replies ? 'replies' : 'threads'}?${new URLSearchParams({ ...qq, access_token: token })}`,
    });
    if (!r.ok) return graphError(reply, 400, 100, r.message);
    const fields = String(q.fields ?? 'id').split(',');
    const rootOf = (p: ThreadsPost): ThreadsPost => { let x = p; while (x.reply_to_id) { const up = posts.find((y) => y.id === x.reply_to_id); if (!up) break; x = up; } return x; };
    const data = r.data.map((p) => {
      const all: Record<string, unknown> = {
        id: p.id, text: p.text, timestamp: p.timestamp, media_type: p.media_type === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : p.media_type === 'TEXT' ? 'TEXT_POST' : p.media_type,
        permalink: `https://www.threads.net/@${user.username}/post/${p.shortcode}`, username: user.username, is_reply: Boolean(p.reply_to_id),
        ...(p.reply_to_id ? { replied_to: { id: p.reply_to_id }, root_post: { id: rootOf(p).id } } : {}),
      };
      return Object.fromEntries(Object.entries(all).filter(([k]) => fields.includes(k) || k === 'id'));
    });
    return { data, paging: r.paging };
  };
  app.get('/v1.0/:userId/threads', list(false));
  app.get('/v1.0/:userId/replies', list(true));

  // Media insights (https://developers.facebook.com/docs/threads/insights): views, likes, replies, reposts, quotes, shares.
  app.get('/v1.0/:userId/insights', async (req, reply) => {
    const f = await fault('metrics', reply, req);
    if (f === 'handled') return reply;
    const uid = authUser(req, reply, 'threads_manage_insights');
    if (!uid) return reply;
    const id = (req.params as { userId: string }).userId;
    const p = posts.find((x) => x.id === id && x.owner === uid);
    if (!p) return graphError(reply, 400, 100, `Unsupported get request. Object with ID '${id}' does not exist`, { error_subcode: 33 });
    const asked = String((req.query as Record<string, string>).metric ?? '').split(',').filter(Boolean);
    const c = metrics.read(id);
    return graphInsights(id, asked, { views: c.views, likes: c.likes, replies: c.comments, reposts: c.shares, quotes: c.quotes, shares: 0 });
  });

  app.get('/v1.0/:userId/threads_publishing_limit', async (req, reply) => {
    const uid = authUser(req, reply, 'threads_basic');
    if (!uid) return reply;
    const dayAgo = Date.now() - 24 * 3600_000;
    const mine = posts.filter((p) => p.owner === uid && !p.external && Date.parse(p.timestamp) > dayAgo);
    return { data: [{ quota_usage: mine.filter((p) => !p.reply_to_id).length, config: { quota_total: limit, quota_duration: 86400 },
      reply_quota_usage: mine.filter((p) => p.reply_to_id).length, reply_config: { quota_total: 1000, quota_duration: 86400 } }] };
  });

  faults.route(app);

  return {
    url: await listen(app), app, user, posts, containers, clientId, clientSecret, calls, metrics,
    addPost(text, o = {}) {
      const p: ThreadsPost = {
        id: numericId(), owner: user.id, media_type: 'TEXT', text, timestamp: graphTime(o.at ?? new Date()), shortcode: randomBytes(8).toString('base64url'),
        children: [], ...(o.replyToId ? { reply_to_id: o.replyToId } : {}), container: '', external: true,
      };
      posts.push(p);
      return p;
    },
    ...simControls(app, faults, tokens, () => tokens.clear()),
  };
}

await runAsMain(import.meta.url, 'threads', startThreadsSimulator, (s) => ({ clientId: s.clientId, clientSecret: s.clientSecret }));
