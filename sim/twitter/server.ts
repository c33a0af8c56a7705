/**
 * X (Twitter) API v2 simulator: a real HTTP server on loopback that speaks the parts of
 * the X API Herald uses, with X's paths, id formats, status codes, error bodies and
 * rules (https://docs.x.com/x-api/posts/create-post,
 * https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code):
 * - OAuth 2.0 authorization code with PKCE (S256 verified), codes valid 30 s and single
 *   use, Basic client authentication, 2-hour access tokens, rotating refresh tokens
 *   (an old refresh token is refused), revocation.
 * - GET /2/users/me, GET /2/users/:id/tweets, POST /2/tweets (weighted 280 characters via
 *   twitter-text, at most 4 media ids: up to 4 photos or 1 GIF or 1 video, never mixed;
 *   a video over the user's duration limit is refused with 403; media must belong to the user and be processed,
 *   duplicate text refused with X's 403 body, replies must point to an existing post),
 *   media upload (simple for images; initialize/append/finalize/STATUS for video and GIF,
 *   with processing states pending -> in_progress -> succeeded), formats read from the bytes
 *   (mediaInfo): photos JPG/PNG/GIF/WebP up to 5 MB, GIFs up to 15 MB, videos of at least 0.5 s.
 * - Rate limit on POST /2/tweets (per user, 15-minute window) with x-rate-limit-* headers.
 * - Faults for tests (POST /__sim/faults): next calls answer 429, 500/503, an expired
 *   token (401), a slow answer, a dropped connection, or a dropped answer after the post
 *   was created; processing failure for media.
 * The authorize page approves at once as the simulator's user (no UI).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import twitterText from 'twitter-text';
import { listen, runAsMain, simApp, simControls, type SimulatorBase } from '../common/app.ts';
import { droppedAfterCreate, FaultQueue, type SimFault } from '../common/faults.ts';
import { mediaInfo, type MediaInfo } from '../common/media-info.ts';
import { MetricsBook } from '../common/metrics.ts';
import { authorizeRoute, basicCredentials, bearerToken, pkceMatches, RefreshTokens, takeCode } from '../common/oauth.ts';

export interface XSimUser { id: string; username: string; name: string }
export interface XSimOptions {
  clientId?: string;
  clientSecret?: string;
  /** Posts per user per 15 minutes on POST /2/tweets (X: 100). */
  tweetLimit?: number;
  /** Access token lifetime in seconds (X: 7200). */
  accessTtlSeconds?: number;
  /** Polls of STATUS before a video is processed. */
  processingPolls?: number;
  /** Port to listen on (0: a free port). */
  port?: number;
  /** Latency of POST /2/tweets after the post exists and before the answer leaves (ms). */
  tweetDelayMs?: number;
  /** Photo (`tweet_image`) and animated GIF (`tweet_gif`) caps in bytes (X: 5 MB and 15 MB, https://docs.x.com/x-api/media). */
  imageMaxBytes?: number;
  gifMaxBytes?: number;
  /** Video duration bounds in seconds for the user (X without Premium: 0.5 s to 20 minutes, best-practices page). */
  videoMinSeconds?: number;
  videoMaxSeconds?: number;
}

/** A fault for the next `count` matching calls, after letting `after` of them through. */
type Fault = SimFault<'tweet' | 'media' | 'token' | 'timeline' | 'metrics' | 'any', 'rate_limit' | 'server_error' | 'expired_token' | 'slow' | 'drop' | 'drop_after_create' | 'processing_failed'>;

/** `text` as X shows it (links wrapped as t.co), `sent` as the client sent it (X's duplicate check compares content). */
interface Tweet { id: string; text: string; sent: string; author_id: string; created_at: string; media_ids: string[]; in_reply_to: string | null; urls: TweetUrl[] }
interface TweetUrl { start: number; end: number; url: string; expanded_url: string; display_url: string }
interface Media {
  id: string; owner: string; type: string; total: number; received: number; state: 'uploading' | 'pending' | 'in_progress' | 'succeeded' | 'failed'; polls: number; category: string;
  /** Appended chunks (chunked uploads), read at finalize. */
  chunks?: Buffer[];
  /** What the bytes are (mediaInfo at upload or finalize). */
  info?: MediaInfo;
  error?: string;
}

export interface XSimulator extends SimulatorBase<Fault> {
  user: XSimUser;
  tweets: Tweet[];
  /** Second POST /2/tweets calls refused as duplicate content. */
  readonly duplicatesRefused: number;
  /** Creates a post directly, as if the user posted it elsewhere. */
  addTweet(text: string, at?: Date): Tweet;
  /** Revokes every token (refresh fails with invalid_grant). */
  revokeAll(): void;
  /** The posts' metrics (GET /2/tweets with public_metrics). */
  metrics: MetricsBook;
}

let snow = BigInt(Date.now()) << 22n;
/** Snowflake-like numeric string ids. */
const snowflake = () => (snow += 1n + BigInt(Math.floor(Math.random() * 4096))).toString();
const mediaKey = (m: { id: string; category: string }) => `${m.category === 'tweet_video' ? 13 : m.category === 'tweet_gif' ? 16 : 3}_${m.id}`;

/**
 * X wraps every link in a post as a 23-character t.co link and lists the original in
 * `entities.urls` (https://docs.x.com/fundamentals/counting-characters). Indices count code points.
 */
function wrapLinks(text: string): { shown: string; urls: TweetUrl[] } {
  const found = twitterText.extractUrlsWithIndices(text);
  if (!found.length) return { shown: text, urls: [] };
  const cps = Array.from(text);
  let out = '';
  let at = 0;
  const urls: TweetUrl[] = [];
  for (const u of found) {
    const [s, e] = u.indices;
    out += cps.slice(at, s).join('');
    const short = `https://t.co/${Array.from(randomBytes(10), (b) => 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'[b % 62]).join('')}`;
    const start = Array.from(out).length;
    out += short;
    const expanded = /^https?:\/\//i.test(u.url) ? u.url : `http://${u.url}`;
    urls.push({ start, end: start + short.length, url: short, expanded_url: expanded, display_url: u.url.replace(/^https?:\/\//i, '') });
    at = e;
  }
  out += cps.slice(at).join('');
  return { shown: out, urls };
}
const problem = (reply: FastifyReply, status: number, title: string, detail: string, type = 'about:blank', headers: Record<string, string> = {}) =>
  reply.status(status).headers(headers).send({ title, detail, type, status });

export async function startXSimulator(opts: XSimOptions = {}): Promise<XSimulator> {
  const clientId = opts.clientId ?? 'sim-x-client';
  const clientSecret = opts.clientSecret ?? 'sim-x-secret';
  const user: XSimUser = { id: snowflake(), username: 'herald_sim', name: 'Herald Simulator' };
  const codes = new Map<string, { challenge: string; redirectUri: string; expires: number; scope: string }>();
  const access = new Map<string, { userId: string; expires: number; scope: string }>();
  const refresh = new RefreshTokens<{ userId: string; scope: string }>(() => randomBytes(24).toString('base64url'));
  const tweets: Tweet[] = [];
  const media = new Map<string, Media>();
  const windows = new Map<string, { start: number; count: number }>();
  const calls = new Map<string, number>();
  const metrics = new MetricsBook();
  let duplicatesRefused = 0;
  const limit = opts.tweetLimit ?? 100;
  const imageMax = opts.imageMaxBytes ?? 5 * 1024 * 1024;
  const gifMax = opts.gifMaxBytes ?? 15 * 1024 * 1024;
  const videoMin = opts.videoMinSeconds ?? 0.5;
  const videoMax = opts.videoMaxSeconds ?? 20 * 60;
  const INVALID = 'https://api.x.com/2/problems/invalid-request';
  /** A photo, an animated GIF or a video, as a post counts its media (by upload category). */
  const kindOf = (m: Media) => (m.category === 'tweet_video' ? 'video' : m.category === 'tweet_gif' ? 'gif' : 'photo');

  const app = await simApp({ calls, bodyLimit: 64 * 1024 * 1024, multipartFileSize: 64 * 1024 * 1024 });
  const faults = new FaultQueue<Fault>({
    rate_limit: (reply) => {
      const reset = Math.floor(Date.now() / 1000) + 60;
      problem(reply, 429, 'Too Many Requests', 'Too Many Requests', 'https://api.x.com/2/problems/rate-limit-exceeded',
        { 'x-rate-limit-limit': String(limit), 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(reset) });
    },
    server_error: (reply) => problem(reply, 503, 'Service Unavailable', 'Service Unavailable'),
    expired_token: (reply) => problem(reply, 401, 'Unauthorized', 'Unauthorized'),
  });
  /** Applies a pending fault: 'handled' when the response was already sent. */
  const fault = (op: Fault['op'], reply: FastifyReply, req: FastifyRequest) => faults.apply(op, reply, req);

  function authUser(req: FastifyRequest, reply: FastifyReply): string | null {
    const token = bearerToken(req);
    const t = token ? access.get(token) : undefined;
    if (!t || t.expires < Date.now()) {
      problem(reply, 401, 'Unauthorized', 'Unauthorized');
      return null;
    }
    return t.userId;
  }

  // OAuth 2.0 ----------------------------------------------------------------
  authorizeRoute(app, '/i/oauth2/authorize', codes, {
    required: ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'],
    refuse: (q, missing, reply) => {
      if (missing.length) return reply.status(400).send({ error: 'invalid_request', error_description: `missing ${missing.join(', ')}` });
      if (q.client_id !== clientId) return reply.status(400).send({ error: 'invalid_client', error_description: 'unknown client_id' });
      if (q.response_type !== 'code' || q.code_challenge_method !== 'S256') return reply.status(400).send({ error: 'invalid_request', error_description: 'response_type=code and S256 PKCE are required' });
      if (q.state.length > 500) return reply.status(400).send({ error: 'invalid_request', error_description: 'state longer than 500 characters' });
      return undefined;
    },
    code: () => randomBytes(24).toString('base64url'),
    grant: (q) => ({ challenge: q.code_challenge, redirectUri: q.redirect_uri, expires: Date.now() + 30_000, scope: q.scope }),
    back: (q, code) => [['state', q.state], ['code', code]],
  });

  app.post('/2/oauth2/token', async (req, reply) => {
    const f = await fault('token', reply, req);
    if (f === 'handled') return reply;
    const [id, secret] = basicCredentials(req);
    if (id !== clientId || secret !== clientSecret) return reply.status(401).send({ error: 'unauthorized_client', error_description: 'Missing valid authorization header' });
    const b = (req.body ?? {}) as Record<string, string>;
    let userId = user.id;
    let scope: string;
    if (b.grant_type === 'authorization_code') {
      const c = takeCode(codes, b.code);
      if (!c) return reply.status(400).send({ error: 'invalid_request', error_description: 'Value passed for the authorization code was invalid.' });
      if (c.redirectUri !== b.redirect_uri) return reply.status(400).send({ error: 'invalid_request', error_description: 'redirect_uri does not match' });
      if (!pkceMatches(b.code_verifier, c.challenge)) return reply.status(400).send({ error: 'invalid_grant', error_description: 'code_verifier does not match the challenge' });
      scope = c.scope;
    } else if (b.grant_type === 'refresh_token') {
      const r = refresh.use(b.refresh_token, true); // rotation: the old one is spent
      if (!r) return reply.status(400).send({ error: 'invalid_request', error_description: 'Value passed for the token was invalid.' });
      userId = r.userId;
      scope = r.scope;
    } else {
      return reply.status(400).send({ error: 'unsupported_grant_type' });
    }
    const accessToken = randomBytes(24).toString('base64url');
    const ttl = opts.accessTtlSeconds ?? 7200;
    access.set(accessToken, { userId, expires: Date.now() + ttl * 1000, scope });
    const out: Record<string, unknown> = { token_type: 'bearer', expires_in: ttl, access_token: accessToken, scope };
    if (scope.split(' ').includes('offline.access')) {
      out.refresh_token = refresh.issue({ userId, scope });
    }
    return out;
  });

  app.get('/2/users/me', async (req, reply) => {
    const uid = authUser(req, reply);
    if (!uid) return reply;
    return { data: { id: user.id, username: user.username, name: user.name, profile_image_url: 'https://pbs.twimg.com/profile_images/sim_normal.png' } };
  });

  // Posts ---------------------------------------------------------------------
  app.post('/2/tweets', async (req, reply) => {
    const f = await fault('tweet', reply, req);
    if (f === 'handled') return reply;
    const uid = authUser(req, reply);
    if (!uid) return reply;
    const w = windows.get(uid) ?? { start: Date.now(), count: 0 };
    if (Date.now() - w.start > 15 * 60_000) { w.start = Date.now(); w.count = 0; }
    const reset = String(Math.floor((w.start + 15 * 60_000) / 1000));
    if (w.count >= limit) {
      return problem(reply, 429, 'Too Many Requests', 'Too Many Requests', 'https://api.x.com/2/problems/rate-limit-exceeded',
        { 'x-rate-limit-limit': String(limit), 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': reset });
    }
    const body = (req.body ?? {}) as { text?: string; media?: { media_ids?: string[] }; reply?: { in_reply_to_tweet_id?: string } };
    const text = body.text ?? '';
    const ids = body.media?.media_ids ?? [];
    if (!text && ids.length === 0) return problem(reply, 400, 'Invalid Request', 'One or more parameters to your request was invalid.', 'https://api.x.com/2/problems/invalid-request');
    if (twitterText.parseTweet(text).weightedLength > 280) return problem(reply, 400, 'Invalid Request', 'The text of your Tweet is too long.', 'https://api.x.com/2/problems/invalid-request');
    if (ids.length > 4) return problem(reply, 400, 'Invalid Request', 'maximum of 4 items', 'https://api.x.com/2/problems/invalid-request');
    const attached: Media[] = [];
    for (const id of ids) {
      const m = media.get(id);
      if (!m || m.owner !== uid) return problem(reply, 400, 'Invalid Request', `Your media IDs are invalid.`, 'https://api.x.com/2/problems/invalid-request');
      if (m.state !== 'succeeded') return problem(reply, 400, 'Invalid Request', 'Your media is not ready yet.', 'https://api.x.com/2/problems/invalid-request');
      attached.push(m);
    }
    // Up to 4 photos, or 1 animated GIF, or 1 video (https://docs.x.com/x-api/media/quickstart/best-practices).
    if (attached.length > 1 && attached.some((m) => kindOf(m) !== 'photo')) {
      return problem(reply, 400, 'Invalid Request', 'Your media IDs are invalid: a Post may contain up to 4 photos, 1 animated GIF or 1 video, not a mix.', INVALID);
    }
    // Post-create limits follow the user, checked apart from the upload's (best-practices page).
    const long = attached.find((m) => kindOf(m) === 'video' && (m.info?.durationSeconds ?? 0) > videoMax);
    if (long) return problem(reply, 403, 'Forbidden', `This user is not allowed to post a video longer than ${videoMax / 60} minutes.`, 'about:blank');
    const parent = body.reply?.in_reply_to_tweet_id;
    if (parent && !tweets.some((t) => t.id === parent)) return problem(reply, 400, 'Invalid Request', 'The Tweet you are replying to does not exist.', 'https://api.x.com/2/problems/invalid-request');
    if (tweets.some((t) => t.author_id === uid && t.sent === text && text && Date.now() - Date.parse(t.created_at) < 24 * 3600_000)) {
      duplicatesRefused++;
      return problem(reply, 403, 'Forbidden', 'You are not allowed to create a Tweet with duplicate content.');
    }
    w.count++;
    windows.set(uid, w);
    const { shown, urls } = wrapLinks(text);
    const t: Tweet = { id: snowflake(), text: shown, sent: text, author_id: uid, created_at: new Date().toISOString(), media_ids: ids, in_reply_to: parent ?? null, urls };
    tweets.push(t);
    if (opts.tweetDelayMs) await new Promise((r) => setTimeout(r, opts.tweetDelayMs));
    if (droppedAfterCreate(f, req)) return reply;
    return reply.status(201).headers({ 'x-rate-limit-limit': String(limit), 'x-rate-limit-remaining': String(limit - w.count), 'x-rate-limit-reset': reset })
      .send({ data: { id: t.id, text: t.text, edit_history_tweet_ids: [t.id] } });
  });

  /**
   * User Post timeline, as documented (https://docs.x.com/x-api/posts/timelines/introduction):
   * newest first; max_results 5-100 (400 outside); start_time/end_time RFC 3339 at second
   * granularity, inclusive; pagination_token from meta.next_token; only the 3,200 most
   * recent posts are reachable; only the requested tweet.fields are returned (id, text and
   * edit_history_tweet_ids always).
   */
  app.get('/2/users/:id/tweets', async (req, reply) => {
    const f = await fault('timeline', reply, req);
    if (f === 'handled') return reply;
    const uid = authUser(req, reply);
    if (!uid) return reply;
    const { id } = req.params as { id: string };
    const q = req.query as Record<string, string | undefined>;
    const invalid = (detail: string) => reply.status(400).send({
      errors: [{ parameters: {}, message: detail }], title: 'Invalid Request', detail: 'One or more parameters to your request was invalid.', type: 'https://api.x.com/2/problems/invalid-request',
    });
    const max = q.max_results === undefined ? 10 : Number(q.max_results);
    if (!Number.isInteger(max) || max < 5 || max > 100) return invalid(`The \`max_results\` query parameter value [${q.max_results}] is not between 5 and 100`);
    const time = (name: 'start_time' | 'end_time'): number | null | 'bad' => {
      const v = q[name];
      if (v === undefined) return null;
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/.test(v) || Number.isNaN(Date.parse(v))) return 'bad';
      return Math.floor(Date.parse(v) / 1000) * 1000;
    };
    const start = time('start_time');
    const end = time('end_time');
    if (start === 'bad') return invalid(`Invalid 'start_time':'${q.start_time}'. 'start_time' must be a valid RFC 3339 date-time`);
    if (end === 'bad') return invalid(`Invalid 'end_time':'${q.end_time}'. 'end_time' must be a valid RFC 3339 date-time`);
    const fields = new Set((q['tweet.fields'] ?? '').split(',').filter(Boolean));
    const unknownField = [...fields].find((f) => !['created_at', 'referenced_tweets', 'attachments', 'entities', 'author_id'].includes(f));
    if (unknownField) return invalid(`The query parameter [tweet.fields] value [${unknownField}] is not one of the supported fields`);
    let offset = 0;
    if (q.pagination_token !== undefined) {
      const decoded = /^p([0-9]+)$/.exec(Buffer.from(q.pagination_token, 'base64url').toString());
      if (!decoded) return invalid(`The \`pagination_token\` query parameter value [${q.pagination_token}] is not valid`);
      offset = Number(decoded[1]);
    }
    const reachable = tweets.filter((t) => t.author_id === id).reverse().slice(0, 3200)
      .filter((t) => { const at = Math.floor(Date.parse(t.created_at) / 1000) * 1000; return (start === null || at >= start) && (end === null || at <= end); });
    const pageItems = reachable.slice(offset, offset + max);
    const data = pageItems.map((t) => ({
      id: t.id, text: t.text, edit_history_tweet_ids: [t.id],
      ...(fields.has('created_at') ? { created_at: t.created_at } : {}),
      ...(fields.has('author_id') ? { author_id: t.author_id } : {}),
      ...(fields.has('referenced_tweets') && t.in_reply_to ? { referenced_tweets: [{ type: 'replied_to', id: t.in_reply_to }] } : {}),
      ...(fields.has('attachments') && t.media_ids.length ? { attachments: { media_keys: t.media_ids.map((m) => mediaKey(media.get(m)!)) } } : {}),
      ...(fields.has('entities') && t.urls.length ? { entities: { urls: t.urls } } : {}),
    }));
    const next = offset + max < reachable.length ? Buffer.from(`p${offset + max}`).toString('base64url') : undefined;
    const meta = { result_count: data.length, ...(data.length ? { newest_id: data[0].id, oldest_id: data[data.length - 1].id } : {}), ...(next ? { next_token: next } : {}) };
    return data.length ? { data, meta } : { meta };
  });

  // Public metrics (https://docs.x.com/x-api/fundamentals/metrics): GET /2/tweets?ids=…&tweet.fields=public_metrics, up to 100 ids.
  app.get('/2/tweets', async (req, reply) => {
    const f = await fault('metrics', reply, req);
    if (f === 'handled') return reply;
    const uid = authUser(req, reply);
    if (!uid) return reply;
    const q = req.query as { ids?: string; 'tweet.fields'?: string };
    const ids = (q.ids ?? '').split(',').filter(Boolean);
    if (!ids.length || ids.length > 100) return problem(reply, 400, 'Invalid Request', 'ids must name 1 to 100 posts', INVALID);
    const withMetrics = (q['tweet.fields'] ?? '').split(',').includes('public_metrics');
    const found = ids.map((id) => tweets.find((t) => t.id === id)).filter((t): t is Tweet => !!t);
    const data = found.map((t) => {
      if (!withMetrics) return { id: t.id, text: t.text };
      const c = metrics.read(t.id);
      return { id: t.id, text: t.text, public_metrics: { retweet_count: c.shares, reply_count: c.comments, like_count: c.likes, quote_count: c.quotes, bookmark_count: c.saves, impression_count: c.impressions } };
    });
    const errors = ids.filter((id) => !found.some((t) => t.id === id))
      .map((id) => ({ value: id, detail: `Could not find tweet with ids: [${id}].`, title: 'Not Found Error', resource_type: 'tweet', parameter: 'ids', resource_id: id, type: 'https://api.x.com/2/problems/resource-not-found' }));
    return { ...(data.length ? { data } : {}), ...(errors.length ? { errors } : {}) };
  });

  /**
   * Delete a Post (https://docs.x.com/x-api/posts/delete-post): only the author may, answering
   * `{ data: { deleted: true } }`; a Post that does not exist is a 404 problem.
   */
  app.delete('/2/tweets/:id', async (req, reply) => {
    const uid = authUser(req, reply);
    if (!uid) return reply;
    const id = (req.params as { id: string }).id;
    const i = tweets.findIndex((x) => x.id === id);
    if (i < 0) return problem(reply, 404, 'Not Found Error', `Could not find tweet with id: [${id}].`, 'https://api.x.com/2/problems/resource-not-found');
    if (tweets[i].author_id !== uid) return problem(reply, 403, 'Forbidden', 'You are not allowed to delete this Tweet.', 'about:blank');
    tweets.splice(i, 1);
    return { data: { deleted: true } };
  });

  app.get('/2/tweets/:id', async (req, reply) => {
    const uid = authUser(req, reply);
    if (!uid) return reply;
    const t = tweets.find((x) => x.id === (req.params as { id: string }).id);
    if (!t) return reply.status(200).send({ errors: [{ title: 'Not Found Error', detail: 'Could not find tweet', type: 'https://api.x.com/2/problems/resource-not-found' }] });
    return { data: { id: t.id, text: t.text, author_id: t.author_id, created_at: t.created_at } };
  });

  // Media ---------------------------------------------------------------------
  const newMedia = (owner: string, type: string, total: number, category: string): Media => {
    const m: Media = { id: snowflake(), owner, type, total, received: 0, state: 'uploading', polls: 0, category };
    media.set(m.id, m);
    return m;
  };
  const mediaData = (m: Media) => ({
    id: m.id, media_key: mediaKey(m), size: m.total, expires_after_secs: 86400,
    ...(m.state === 'succeeded' && m.category === 'tweet_image' ? {} : { processing_info: { state: m.state, ...(m.state === 'in_progress' || m.state === 'pending' ? { check_after_secs: 1, progress_percent: m.state === 'pending' ? 0 : 50 } : {}), ...(m.state === 'failed' ? { error: { code: 1, name: 'InvalidMedia', message: m.error ?? 'Unsupported video format' } } : {}) } }),
  });

  app.post('/2/media/upload', async (req, reply) => {
    const f = await fault('media', reply, req);
    if (f === 'handled') return reply;
    const uid = authUser(req, reply);
    if (!uid) return reply;
    let data: Buffer = Buffer.alloc(0);
    let category = 'tweet_image';
    let type = 'application/octet-stream';
    for await (const part of req.parts()) {
      if (part.type === 'file' && part.fieldname === 'media') { type = part.mimetype; data = await part.toBuffer(); }
      else if (part.type === 'field' && part.fieldname === 'media_category') category = String(part.value);
    }
    const bytes = data.length;
    if (bytes === 0) return problem(reply, 400, 'Invalid Request', 'media is required', 'https://api.x.com/2/problems/invalid-request');
    if (category === 'tweet_image' && bytes > imageMax) return problem(reply, 400, 'Invalid Request', `File size exceeds ${imageMax} bytes.`, 'https://api.x.com/2/problems/invalid-request');
    // The format is read from the bytes, not the declared type: JPG, PNG, GIF or WebP (best-practices page).
    const info = mediaInfo(data);
    if (category === 'tweet_image' && !['jpeg', 'png', 'gif', 'webp'].includes(info.format)) return problem(reply, 400, 'Invalid Request', 'Unsupported media type', 'https://api.x.com/2/problems/invalid-request');
    const m = newMedia(uid, type, bytes, category);
    m.received = bytes;
    m.info = info;
    m.state = 'succeeded';
    return { data: mediaData(m) };
  });

  app.post('/2/media/upload/initialize', async (req, reply) => {
    const uid = authUser(req, reply);
    if (!uid) return reply;
    const b = (req.body ?? {}) as { media_type?: string; total_bytes?: number; media_category?: string };
    if (!b.media_type || !b.total_bytes || !b.media_category) return problem(reply, 400, 'Invalid Request', 'media_type, total_bytes and media_category are required', 'https://api.x.com/2/problems/invalid-request');
    if (b.total_bytes > 16 * 1024 ** 3) return problem(reply, 400, 'Invalid Request', 'total_bytes too large', 'https://api.x.com/2/problems/invalid-request');
    const cap = b.media_category === 'tweet_gif' ? gifMax : b.media_category === 'tweet_image' ? imageMax : null;
    if (cap !== null && b.total_bytes > cap) return problem(reply, 400, 'Invalid Request', `File size exceeds ${cap} bytes.`, INVALID);
    const m = newMedia(uid, b.media_type, b.total_bytes, b.media_category);
    return { data: { id: m.id, media_key: mediaData(m).media_key, expires_after_secs: 86400 } };
  });

  app.post('/2/media/upload/:id/append', async (req, reply) => {
    const uid = authUser(req, reply);
    if (!uid) return reply;
    const m = media.get((req.params as { id: string }).id);
    if (!m || m.owner !== uid || m.state !== 'uploading') return problem(reply, 400, 'Invalid Request', 'Invalid media id', 'https://api.x.com/2/problems/invalid-request');
    for await (const part of req.parts()) {
      if (part.type !== 'file' || part.fieldname !== 'media') continue;
      const chunk = await part.toBuffer();
      m.received += chunk.length;
      (m.chunks ??= []).push(chunk);
    }
    return reply.status(200).send({ data: { expires_at: Math.floor(Date.now() / 1000) + 86400 } });
  });

  app.post('/2/media/upload/:id/finalize', async (req, reply) => {
    const f = await fault('media', reply, req);
    if (f === 'handled') return reply;
    const uid = authUser(req, reply);
    if (!uid) return reply;
    const m = media.get((req.params as { id: string }).id);
    if (!m || m.owner !== uid) return problem(reply, 400, 'Invalid Request', 'Invalid media id', 'https://api.x.com/2/problems/invalid-request');
    if (m.received !== m.total) return problem(reply, 400, 'Invalid Request', `File size mismatch: received ${m.received} of ${m.total} bytes`, 'https://api.x.com/2/problems/invalid-request');
    m.state = f && f !== null && f.kind === 'processing_failed' ? 'failed' : 'pending';
    m.info = mediaInfo(Buffer.concat(m.chunks ?? []));
    m.chunks = undefined;
    // Photos are JPG, PNG, GIF or WebP, animated GIFs are GIFs (read from the bytes); anything else is refused.
    const formats = m.category === 'tweet_image' ? ['jpeg', 'png', 'gif', 'webp'] : m.category === 'tweet_gif' ? ['gif'] : null;
    if (formats && !formats.includes(m.info.format)) {
      m.state = 'failed';
      return problem(reply, 400, 'Invalid Request', 'Unsupported media type', INVALID);
    }
    if (m.category === 'tweet_video' && !['mp4', 'mov'].includes(m.info.format)) {
      m.state = 'failed';
      m.error = 'Unsupported video format';
    }
    if (m.category === 'tweet_video' && m.info.durationSeconds !== undefined && m.info.durationSeconds < videoMin) {
      m.state = 'failed';
      m.error = `Video duration is too short: minimum is ${videoMin * 1000} milliseconds`;
    }
    return { data: mediaData(m) };
  });

  app.get('/2/media/upload', async (req, reply) => {
    const uid = authUser(req, reply);
    if (!uid) return reply;
    const q = req.query as Record<string, string>;
    const m = media.get(q.media_id);
    if (q.command !== 'STATUS' || !m || m.owner !== uid) return problem(reply, 400, 'Invalid Request', 'Invalid media id', 'https://api.x.com/2/problems/invalid-request');
    if (m.state === 'pending' || m.state === 'in_progress') {
      m.polls++;
      m.state = m.polls >= (opts.processingPolls ?? 2) ? 'succeeded' : 'in_progress';
    }
    return { data: mediaData(m) };
  });

  // Test control ----------------------------------------------------------------
  faults.route(app);
  /** What the platform holds, for tests that run the simulator in its own process. */
  app.get('/__sim/state', async () => ({
    tweets: tweets.map((t) => ({ id: t.id, text: t.sent, author_id: t.author_id, created_at: t.created_at, in_reply_to: t.in_reply_to })),
    calls: Object.fromEntries(calls), duplicatesRefused,
  }));

  return {
    url: await listen(app, opts.port ?? 0), app, user, tweets, clientId, clientSecret, calls, metrics,
    get duplicatesRefused() { return duplicatesRefused; },
    addTweet(text: string, at = new Date()) {
      const { shown, urls } = wrapLinks(text);
      const t: Tweet = { id: snowflake(), text: shown, sent: text, author_id: user.id, created_at: at.toISOString(), media_ids: [], in_reply_to: null, urls };
      tweets.push(t);
      return t;
    },
    ...simControls(app, faults, access, () => { access.clear(); refresh.clear(); }),
  };
}

// Run on its own (its state outlives the Herald processes under test): SIM_PORT, SIM_TWEET_DELAY_MS, SIM_TWEET_LIMIT.
await runAsMain(import.meta.url, 'twitter', () => startXSimulator({
  tweetDelayMs: Number(process.env.SIM_TWEET_DELAY_MS ?? 0), tweetLimit: Number(process.env.SIM_TWEET_LIMIT ?? 100), port: Number(process.env.SIM_PORT ?? 0),
}), (s) => ({ clientId: s.clientId, clientSecret: s.clientSecret }));
