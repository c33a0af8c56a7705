/**
 * Reddit simulator: a real HTTP server on loopback speaking the parts of Reddit's API
 * Herald uses, with Reddit's paths, ids, envelopes and error shapes (https://www.reddit.com/dev/api,
 * https://github.com/reddit-archive/reddit/wiki/OAuth2):
 * - OAuth 2.0 authorization code (the authorize page approves at once as the simulator's
 *   user), Basic client authentication, `duration=permanent` grants a refresh token that
 *   does not rotate, `temporary` none; 60-minute access tokens; revocation.
 * - `GET /api/v1/me`; `GET /subreddits/mine/subscriber`; `GET /r/{sr}/about` (submission_type,
 *   allow_images, allow_galleries, allow_videos); `GET /api/v1/{sr}/post_requirements`
 *   (is_flair_required, title/body lengths, body_restriction_policy), configurable per subreddit;
 *   listings `GET /{sort}`, `/r/{sr}/{sort}` (hot|new|top|rising, `t` for top), `/search`,
 *   `/r/{sr}/search`, `/user/{name}/submitted` in the Listing envelope with
 *   after/before fullnames and `limit` 1-100; base36 ids and `t3_` fullnames.
 * - `POST /api/submit` (form, api_type=json): kinds self/link/image, Reddit's rules
 *   (title required and <= 300, self text <= 40,000, sub exists, submission_type and
 *   allow_images, url needed for link/image, ALREADY_SUB when resubmit is false, BAD_SR_NAME,
 *   http(s) urls only, uploaded images JPEG/PNG/GIF by their bytes (INVALID_MEDIA), the
 *   subreddit's post requirements as SUBMIT_VALIDATION_* errors) answered
 *   as HTTP 200 `{"json":{"errors":[[CODE, message, field]]}}`; image posts answer only a
 *   websocket_url and appear in the submitted listing after `imageDelayMs`.
 * - `POST /api/submit_gallery_post.json` (JSON): 2-20 (`galleryMax`) items whose media_id is an
 *   uploaded asset; NO_IMAGES when the subreddit takes no galleries.
 * - `POST /api/media/asset(.json)` lease + an S3-style presigned POST (`/__s3/reddit-uploaded-media`)
 *   answering XML with `<Location>`; the lease takes image/jpeg, png and gif (INVALID_OPTION
 *   otherwise), the upload refuses an image over `imageMaxBytes` (20 MB) with EntityTooLarge.
 * - Every API call needs a User-Agent (403 otherwise) and answers `x-ratelimit-used`,
 *   `-remaining`, `-reset` (seconds until the window ends); over the limit -> 429.
 * - Faults (`addFault` or POST /__sim/faults): 429, 5xx, expired token (401), RATELIMIT
 *   error array, slow, dropped connection, or a dropped answer after the post was created. *
 * Error codes: those Reddit's API documents (BAD_SR_NAME, INVALID_OPTION, NO_TEXT, TOO_LONG,
 * NO_SELFS, NO_LINKS, ALREADY_SUB, RATELIMIT) are Reddit's own. SUBMIT_VALIDATION_FLAIR_REQUIRED
 * ("Your post must contain post flair.", field flair) is what Reddit answers as clients observe it;
 * the other SUBMIT_VALIDATION_* names (title and body requirements), NO_IMAGES, INVALID_MEDIA
 * and BAD_NUMBER follow that pattern but are the simulator's own names: Reddit's are not published.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { listen, runAsMain, simApp, simControls, type SimulatorBase } from '../common/app.ts';
import { droppedAfterCreate, FaultQueue } from '../common/faults.ts';
import { MetricsBook } from '../common/metrics.ts';
import { mediaInfo } from '../common/media-info.ts';
import { authorizeRoute, basicCredentials, bearerToken, RefreshTokens, takeCode } from '../common/oauth.ts';

export interface RedditSimOptions {
  clientId?: string;
  clientSecret?: string;
  /** Access token lifetime in seconds (Reddit: 3600). */
  accessTtlSeconds?: number;
  /** Requests per rate-limit window per client (Reddit free tier: 100 per minute, averaged over 10 minutes). */
  requestsPerWindow?: number;
  /** Window length in seconds (Reddit: 600). */
  windowSeconds?: number;
  /** Delay before an uploaded-image post shows in listings (ms). */
  imageDelayMs?: number;
  /** Largest image upload, bytes (20 MB is the commonly cited figure). */
  imageMaxBytes?: number;
  /** Title and self-text limits in characters (300 and 40,000). */
  titleMax?: number;
  selftextMax?: number;
  /** Most images in a gallery (20). */
  galleryMax?: number;
}

/** Image formats Reddit's media upload takes, as mediaInfo names them. */
const IMAGE_FORMATS = new Set(['jpeg', 'png', 'gif']);

export type RedditFault = {
  op: 'submit' | 'media' | 'token' | 'read' | 'metrics' | 'edit' | 'any';
  kind: 'rate_limit' | 'ratelimit_error' | 'server_error' | 'expired_token' | 'slow' | 'drop' | 'drop_after_create';
  count: number;
  delayMs?: number;
};

/** A subreddit's post requirements (`GET /api/v1/{sr}/post_requirements`), the fields the simulator applies. */
export interface SimPostRequirements {
  is_flair_required?: boolean;
  title_text_min_length?: number | null;
  title_text_max_length?: number | null;
  body_restriction_policy?: 'required' | 'notAllowed' | 'none';
  body_text_min_length?: number | null;
  body_text_max_length?: number | null;
}
export interface SimSubreddit {
  name: string; title: string; submission_type: 'any' | 'self' | 'link'; allow_images: boolean; over18: boolean; subscribed: boolean; private?: boolean;
  /**
   * subreddit_type "restricted": publicly visible, only approved users submit
   * (https://support.reddithelp.com/hc/en-us/articles/15484466715284-User-Management-approved-users);
   * the simulated user is not one.
   */
  restricted?: boolean;
  allow_galleries?: boolean; allow_videos?: boolean; requirements?: SimPostRequirements;
}
export interface SimPost {
  id: string; subreddit: string; author: string; title: string; kind: string; selftext: string; url: string;
  created_utc: number; score: number; num_comments: number; over_18: boolean; spoiler: boolean; stickied: boolean;
  link_flair_text: string | null; visibleAt: number;
  /** Unix time of the last edit of the body (POST /api/editusertext), else absent. */
  edited?: number;
}

export interface RedditSimulator extends SimulatorBase<RedditFault> {
  user: { id: string; name: string };
  posts: SimPost[];
  /** The posts' growing score and comment count (GET /api/info). */
  metrics: MetricsBook;
  subreddits: Map<string, SimSubreddit>;
  /** User-Agent of the last API call. */
  lastUserAgent: () => string | undefined;
  /** Creates a text post by the simulator's user directly, as if posted on reddit.com. */
  addPost(subreddit: string, title: string, selftext?: string, at?: Date): SimPost;
}

let seq = 36 ** 5;
const base36 = () => (seq += 1 + Math.floor(Math.random() * 50)).toString(36);

export async function startRedditSimulator(opts: RedditSimOptions = {}): Promise<RedditSimulator> {
  const clientId = opts.clientId ?? 'sim-reddit-client';
  const clientSecret = opts.clientSecret ?? 'sim-reddit-secret';
  const user = { id: base36(), name: 'herald_sim' };
  const codes = new Map<string, { redirectUri: string; expires: number; scope: string; permanent: boolean }>();
  const access = new Map<string, { expires: number; scope: string }>();
  const refresh = new RefreshTokens<{ scope: string }>(() => randomBytes(24).toString('base64url'));
  const posts: SimPost[] = [];
  const metrics = new MetricsBook();
  const uploads = new Map<string, { key: string; received: boolean; format?: string }>();
  const assets = new Map<string, string>(); // asset_id -> upload key
  const calls = new Map<string, number>();
  let lastUa: string | undefined;
  const windowMs = (opts.windowSeconds ?? 600) * 1000;
  const perWindow = opts.requestsPerWindow ?? 1000;
  let win = { start: Date.now(), used: 0 };
  const subreddits = new Map<string, SimSubreddit>([
    ['test', { name: 'test', title: 'Testing ground', submission_type: 'any', allow_images: true, over18: false, subscribed: true }],
    ['herald', { name: 'herald', title: 'Herald users', submission_type: 'any', allow_images: true, over18: false, subscribed: true }],
    ['selfonly', { name: 'selfonly', title: 'Text posts only', submission_type: 'self', allow_images: false, over18: false, subscribed: true }],
    ['linksonly', { name: 'linksonly', title: 'Links only', submission_type: 'link', allow_images: false, over18: false, subscribed: false }],
    // Subreddits with posting rules (about and post_requirements), for the rule cases.
    ['noimages', { name: 'noimages', title: 'No images', submission_type: 'any', allow_images: false, over18: false, subscribed: false }],
    ['nogalleries', { name: 'nogalleries', title: 'No galleries', submission_type: 'any', allow_images: true, allow_galleries: false, over18: false, subscribed: false }],
    ['flairreq', { name: 'flairreq', title: 'Flair required', submission_type: 'any', allow_images: true, over18: false, subscribed: false, requirements: { is_flair_required: true } }],
    ['titlelen', { name: 'titlelen', title: 'Titles 10-50', submission_type: 'any', allow_images: true, over18: false, subscribed: false, requirements: { title_text_min_length: 10, title_text_max_length: 50 } }],
    ['bodyreq', { name: 'bodyreq', title: 'Body required', submission_type: 'any', allow_images: true, over18: false, subscribed: false, requirements: { body_restriction_policy: 'required' } }],
    ['nobody', { name: 'nobody', title: 'Titles only', submission_type: 'any', allow_images: true, over18: false, subscribed: false, requirements: { body_restriction_policy: 'notAllowed' } }],
    ['approvedonly', { name: 'approvedonly', title: 'Approved submitters only', submission_type: 'any', allow_images: true, over18: false, subscribed: false, restricted: true }],
    ['bodylen', { name: 'bodylen', title: 'Bodies 10-100', submission_type: 'any', allow_images: true, over18: false, subscribed: false, requirements: { body_text_min_length: 10, body_text_max_length: 100 } }],
  ]);
  // A few posts by others for the feed and search.
  const now = Date.now() / 1000;
  for (let i = 0; i < 30; i++) {
    posts.push({
      id: base36(), subreddit: i % 2 ? 'test' : 'herald', author: `user${i}`, title: `Seed post ${i}${i % 5 === 0 ? ' about cats' : ''}`, kind: 'self',
      selftext: `Body ${i}`, url: '', created_utc: now - 3600 * (30 - i), score: (i * 7) % 31, num_comments: i % 4, over_18: false, spoiler: false,
      stickied: i === 3, link_flair_text: i % 3 === 0 ? 'Discussion' : null, visibleAt: 0,
    });
  }

  const app = await simApp({ calls, bodyLimit: 64 * 1024 * 1024, multipartFileSize: 64 * 1024 * 1024 });
  const faults = new FaultQueue<RedditFault>({
    rate_limit: (reply) => reply.status(429).headers({ 'x-ratelimit-used': String(perWindow), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '90' })
      .send({ message: 'Too Many Requests', error: 429 }),
    ratelimit_error: (reply) => reply.send({ json: { errors: [['RATELIMIT', 'Looks like you\'ve been doing that a lot. Take a break for 2 minutes before trying again.', 'ratelimit']] } }),
    server_error: (reply) => reply.status(503).send({ message: 'Service Unavailable', error: 503 }),
    expired_token: (reply) => reply.status(401).send({ message: 'Unauthorized', error: 401 }),
  });
  const fault = (op: RedditFault['op'], reply: FastifyReply, req: FastifyRequest) => faults.apply(op, reply, req);

  /** Bearer check, User-Agent check and the rate-limit window. Returns false when answered. */
  function api(req: FastifyRequest, reply: FastifyReply): boolean {
    const ua = req.headers['user-agent'];
    lastUa = ua;
    if (!ua || /^(node|undici|python-requests|curl)\b/i.test(ua)) {
      reply.status(403).send({ message: 'Forbidden', error: 403, reason: 'a unique and descriptive User-Agent is required' });
      return false;
    }
    const token = bearerToken(req, /^bearer (.+)$/i);
    const t = token ? access.get(token) : undefined;
    if (!t || t.expires < Date.now()) {
      reply.status(401).send({ message: 'Unauthorized', error: 401 });
      return false;
    }
    if (Date.now() - win.start > windowMs) win = { start: Date.now(), used: 0 };
    const reset = Math.max(0, Math.ceil((win.start + windowMs - Date.now()) / 1000));
    if (win.used >= perWindow) {
      reply.status(429).headers({ 'x-ratelimit-used': String(win.used), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) })
        .send({ message: 'Too Many Requests', error: 429 });
      return false;
    }
    win.used++;
    reply.headers({ 'x-ratelimit-used': String(win.used), 'x-ratelimit-remaining': String(perWindow - win.used), 'x-ratelimit-reset': String(reset) });
    return true;
  }

  const thing = (p: SimPost) => ({
    kind: 't3',
    data: {
      id: p.id, name: `t3_${p.id}`, title: p.title, author: p.author, subreddit: p.subreddit, subreddit_name_prefixed: `r/${p.subreddit}`,
      url: p.kind === 'self' ? `https://www.reddit.com/r/${p.subreddit}/comments/${p.id}/` : p.url,
      permalink: `/r/${p.subreddit}/comments/${p.id}/${p.title.toLowerCase().replace(/[^a-z0-9]+/g, '_').slice(0, 50)}/`,
      selftext: p.selftext, created_utc: p.created_utc, score: p.score, ups: p.score, upvote_ratio: 1, num_comments: p.num_comments,
      over_18: p.over_18, spoiler: p.spoiler, stickied: p.stickied, link_flair_text: p.link_flair_text, is_self: p.kind === 'self',
      is_video: false, locked: false, domain: p.kind === 'self' ? `self.${p.subreddit}` : (() => { try { return new URL(p.url).host; } catch { return ''; } })(),
    },
  });

  /** The Listing envelope over `items` with after/before/limit/count paging by fullname. */
  function listing(items: SimPost[], q: Record<string, string>, reply: FastifyReply) {
    const limit = Math.min(100, Math.max(1, Number(q.limit ?? 25) || 25));
    let start = 0;
    if (q.after) {
      const i = items.findIndex((p) => `t3_${p.id}` === q.after);
      start = i < 0 ? items.length : i + 1;
    } else if (q.before) {
      const i = items.findIndex((p) => `t3_${p.id}` === q.before);
      start = Math.max(0, (i < 0 ? 0 : i) - limit);
    }
    const page = items.slice(start, start + limit);
    const after = start + limit < items.length && page.length ? `t3_${page[page.length - 1].id}` : null;
    const before = start > 0 && page.length ? `t3_${page[0].id}` : null;
    return reply.send({ kind: 'Listing', data: { after, before, dist: page.length, modhash: '', geo_filter: null, children: page.map(thing) } });
  }

  const visible = () => posts.filter((p) => p.visibleAt <= Date.now());
  const TIMES: Record<string, number> = { hour: 3600, day: 86400, week: 7 * 86400, month: 31 * 86400, year: 366 * 86400, all: Infinity };
  function sorted(items: SimPost[], sort: string, t?: string): SimPost[] {
    let out = [...items];
    if (sort === 'top' || sort === 'controversial') {
      const span = TIMES[t ?? 'all'] ?? Infinity; // Reddit's default t is all
      out = out.filter((p) => Date.now() / 1000 - p.created_utc <= span).sort((a, b) => b.score - a.score);
    } else if (sort === 'new') out.sort((a, b) => b.created_utc - a.created_utc);
    else if (sort === 'rising') out.sort((a, b) => b.num_comments - a.num_comments || b.created_utc - a.created_utc);
    else out.sort((a, b) => Number(b.stickied) - Number(a.stickied) || (b.score + b.created_utc / 3600) - (a.score + a.created_utc / 3600));
    return out;
  }
  const badSort = (reply: FastifyReply) => reply.status(400).send({ message: 'Bad Request', error: 400 });

  // OAuth 2.0 ----------------------------------------------------------------
  authorizeRoute(app, '/api/v1/authorize', codes, {
    required: ['client_id', 'response_type', 'state', 'redirect_uri', 'duration', 'scope'],
    refuse: (q, missing, reply) => {
      if (missing.length) return reply.status(400).send({ message: `missing ${missing.join(', ')}`, error: 400 });
      if (q.client_id !== clientId) return reply.status(400).send({ message: 'invalid client id', error: 400 });
      if (q.response_type !== 'code' || !['permanent', 'temporary'].includes(q.duration)) return reply.status(400).send({ message: 'invalid request', error: 400 });
      return undefined;
    },
    code: () => randomBytes(18).toString('base64url'),
    grant: (q) => ({ redirectUri: q.redirect_uri, expires: Date.now() + 60_000, scope: q.scope, permanent: q.duration === 'permanent' }),
    back: (q, code) => [['state', q.state], ['code', code]],
  });

  app.post('/api/v1/access_token', async (req, reply) => {
    const f = await fault('token', reply, req);
    if (f === 'handled') return reply;
    const [id, secret] = basicCredentials(req);
    if (id !== clientId || secret !== clientSecret) return reply.status(401).send({ message: 'Unauthorized', error: 401 });
    const b = (req.body ?? {}) as Record<string, string>;
    let scope: string;
    let rt: string | undefined;
    if (b.grant_type === 'authorization_code') {
      const c = takeCode(codes, b.code);
      if (!c || c.redirectUri !== b.redirect_uri) return reply.status(400).send({ error: 'invalid_grant' });
      scope = c.scope;
      if (c.permanent) rt = refresh.issue({ scope });
    } else if (b.grant_type === 'refresh_token') {
      const r = refresh.use(b.refresh_token, false);
      if (!r) return reply.status(400).send({ error: 'invalid_grant' });
      scope = r.scope; // Reddit keeps the same refresh token: none is sent back
    } else {
      return reply.status(400).send({ error: 'unsupported_grant_type' });
    }
    const token = randomBytes(24).toString('base64url');
    const ttl = opts.accessTtlSeconds ?? 3600;
    access.set(token, { expires: Date.now() + ttl * 1000, scope });
    return { access_token: token, token_type: 'bearer', expires_in: ttl, scope, ...(rt ? { refresh_token: rt } : {}) };
  });

  app.get('/api/v1/me', async (req, reply) => {
    if (!api(req, reply)) return reply;
    return { id: user.id, name: user.name, icon_img: 'https://styles.redditmedia.com/sim/avatar.png?width=256&amp;s=1', created_utc: 1500000000, subreddit: { title: 'Herald Simulator', display_name_prefixed: `u/${user.name}` } };
  });

  // Subreddits ------------------------------------------------------------------
  const t5 = (s: SimSubreddit) => ({
    kind: 't5',
    data: { id: Buffer.from(s.name).toString('hex').slice(0, 6), name: `t5_${Buffer.from(s.name).toString('hex').slice(0, 6)}`, display_name: s.name,
      display_name_prefixed: `r/${s.name}`, title: s.title, url: `/r/${s.name}/`, over18: s.over18, submission_type: s.submission_type,
      allow_images: s.allow_images, allow_galleries: s.allow_galleries ?? s.allow_images, allow_videos: s.allow_videos ?? true, subscribers: 1000, public_description: s.title,
      subreddit_type: s.private ? 'private' : s.restricted ? 'restricted' : 'public', user_is_contributor: false },
  });
  app.get('/subreddits/mine/subscriber', async (req, reply) => {
    const f = await fault('read', reply, req);
    if (f === 'handled') return reply;
    if (!api(req, reply)) return reply;
    const subs = [...subreddits.values()].filter((s) => s.subscribed);
    return { kind: 'Listing', data: { after: null, before: null, dist: subs.length, children: subs.map(t5) } };
  });
  app.get('/r/:sr/about', async (req, reply) => {
    const f = await fault('read', reply, req);
    if (f === 'handled') return reply;
    if (!api(req, reply)) return reply;
    const s = subreddits.get((req.params as { sr: string }).sr.toLowerCase());
    if (!s) return reply.status(404).send({ message: 'Not Found', error: 404 });
    if (s.private) return reply.status(403).send({ message: 'Forbidden', error: 403, reason: 'private' });
    return t5(s);
  });

  app.get('/api/v1/:sr/post_requirements', async (req, reply) => {
    const f = await fault('read', reply, req);
    if (f === 'handled') return reply;
    if (!api(req, reply)) return reply;
    const s = subreddits.get((req.params as { sr: string }).sr.toLowerCase());
    if (!s) return reply.status(404).send({ message: 'Not Found', error: 404 });
    const r = s.requirements ?? {};
    return {
      title_regexes: [], body_blacklisted_strings: [], title_blacklisted_strings: [], body_text_max_length: r.body_text_max_length ?? null,
      title_required_strings: [], guidelines_text: null, gallery_min_items: null, domain_blacklist: [], domain_whitelist: [],
      title_text_max_length: r.title_text_max_length ?? null, body_restriction_policy: r.body_restriction_policy ?? 'none', link_restriction_policy: 'none',
      guidelines_display_policy: null, body_required_strings: [], title_text_min_length: r.title_text_min_length ?? null, gallery_captions_requirement: 'none',
      is_flair_required: r.is_flair_required ?? false, gallery_max_items: null, gallery_urls_requirement: 'none', body_regexes: [], link_repost_age: null,
      body_text_min_length: r.body_text_min_length ?? null,
    };
  });

  /** A post requirement the submission breaks, as Reddit's SUBMIT_VALIDATION_* error; null when none. */
  function requirementError(s: SimSubreddit, kind: string, title: string, body: string, flairId: string | undefined): [string, string, string] | null {
    const r = s.requirements ?? {};
    if (r.is_flair_required && !flairId) return ['SUBMIT_VALIDATION_FLAIR_REQUIRED', 'Your post must contain post flair.', 'flair'];
    if (r.title_text_min_length && title.length < r.title_text_min_length) return ['SUBMIT_VALIDATION_TITLE_TOO_SHORT', `Your post title must be at least ${r.title_text_min_length} characters.`, 'title'];
    if (r.title_text_max_length && title.length > r.title_text_max_length) return ['SUBMIT_VALIDATION_TITLE_TOO_LONG', `Your post title must be at most ${r.title_text_max_length} characters.`, 'title'];
    if (kind === 'self') {
      if (r.body_restriction_policy === 'required' && !body) return ['SUBMIT_VALIDATION_BODY_REQUIRED', 'Your post must have body text.', 'text'];
      if (r.body_restriction_policy === 'notAllowed' && body) return ['SUBMIT_VALIDATION_BODY_NOT_ALLOWED', 'Body text is not allowed in this community.', 'text'];
      if (body && r.body_text_min_length && body.length < r.body_text_min_length) return ['SUBMIT_VALIDATION_BODY_TOO_SHORT', `Your post body must be at least ${r.body_text_min_length} characters.`, 'text'];
      if (r.body_text_max_length && body.length > r.body_text_max_length) return ['SUBMIT_VALIDATION_BODY_TOO_LONG', `Your post body must be at most ${r.body_text_max_length} characters.`, 'text'];
    }
    return null;
  }

  // Listings --------------------------------------------------------------------
  const feed = (sr: string | null) => async (req: FastifyRequest, reply: FastifyReply) => {
    const f = await fault('read', reply, req);
    if (f === 'handled') return reply;
    if (!api(req, reply)) return reply;
    const { sort } = req.params as { sort: string };
    const q = req.query as Record<string, string>;
    if (!['hot', 'new', 'top', 'rising', 'controversial', 'best'].includes(sort)) return badSort(reply);
    if (q.t && !TIMES[q.t]) return badSort(reply);
    const name = sr ?? (req.params as { sr?: string }).sr;
    if (name && !subreddits.has(name.toLowerCase())) return reply.status(404).send({ message: 'Not Found', error: 404 });
    const items = visible().filter((p) => !name || p.subreddit === name.toLowerCase());
    return listing(sorted(items, sort, q.t), q, reply);
  };
  /** Posts by fullname (https://www.reddit.com/dev/api#GET_api_info): `id=t3_a,t3_b`, up to 100; score and num_comments grow. */
  app.get('/api/info', async (req, reply) => {
    const f = await fault('metrics', reply, req);
    if (f === 'handled') return reply;
    if (!api(req, reply)) return reply;
    const ids = String((req.query as Record<string, string>).id ?? '').split(',').filter((x) => x.startsWith('t3_')).map((x) => x.slice(3));
    const found = posts.filter((p) => ids.includes(p.id));
    for (const p of found) {
      const c = metrics.read(p.id);
      p.score = c.likes;
      p.num_comments = c.comments;
    }
    return listing(found, {}, reply);
  });

  /**
   * Delete a post or comment (https://www.reddit.com/dev/api#POST_api_del): form `id` = fullname,
   * scope `edit` (else 403 `{message: 'Forbidden', error: 403}`). Reddit answers `{}` whatever
   * happened: only the user's own post is deleted (someone else's, or a missing one, is left as
   * it is). A deleted post keeps its id but shows author and text `[deleted]`, so it leaves the
   * user's submitted listing.
   */
  /**
   * Edit a self post's body (https://www.reddit.com/dev/api#POST_api_editusertext): form `thing_id`
   * = fullname and `text` (markdown), scope `edit` (else 403). Only the author's own post
   * (NOT_AUTHOR), only a self post (NOT_SELF: link and media posts have no body), the self-text
   * limit (TOO_LONG); errors in `json.errors` with HTTP 200, as the other form endpoints.
   */
  app.post('/api/editusertext', async (req, reply) => {
    const f = await fault('edit', reply, req);
    if (f === 'handled') return reply;
    if (!api(req, reply)) return reply;
    const granted = (access.get(bearerToken(req, /^bearer (.+)$/i)!)?.scope ?? '').split(/[ ,]/);
    if (!granted.includes('edit')) return reply.status(403).send({ message: 'Forbidden', error: 403 });
    const b = (req.body ?? {}) as Record<string, string>;
    const err = (code: string, msg: string, field: string) => reply.send({ json: { errors: [[code, msg, field]] } });
    const id = String(b.thing_id ?? '');
    const p = id.startsWith('t3_') ? posts.find((x) => x.id === id.slice(3)) : undefined;
    if (!p || p.author === '[deleted]') return err('NO_THING_ID', 'that thing doesn\'t exist', 'thing_id');
    if (p.author !== user.name) return err('NOT_AUTHOR', 'you can\'t do that', 'thing_id');
    if (p.kind !== 'self') return err('NOT_SELF', 'only text posts can be edited', 'thing_id');
    const textMax = opts.selftextMax ?? 40_000;
    if ((b.text ?? '').length > textMax) return err('TOO_LONG', `this is too long (max: ${textMax})`, 'text');
    p.selftext = b.text ?? '';
    p.edited = Math.floor(Date.now() / 1000);
    return { json: { errors: [], data: { things: [{ kind: 't3', data: { id: p.id, name: `t3_${p.id}`, selftext: p.selftext, edited: p.edited } }] } } };
  });

  app.post('/api/del', async (req, reply) => {
    if (!api(req, reply)) return reply;
    const granted = (access.get(bearerToken(req, /^bearer (.+)$/i)!)?.scope ?? '').split(/[ ,]/);
    if (!granted.includes('edit')) return reply.status(403).send({ message: 'Forbidden', error: 403 });
    const id = String(((req.body ?? {}) as Record<string, string>).id ?? '');
    const p = id.startsWith('t3_') ? posts.find((x) => x.id === id.slice(3)) : undefined;
    if (p && p.author === user.name) {
      p.author = '[deleted]';
      p.selftext = '[deleted]';
    }
    return {};
  });

  app.get('/:sort', feed(null));
  app.get('/r/:sr/:sort', feed(null));

  const search = async (req: FastifyRequest, reply: FastifyReply) => {
    const f = await fault('read', reply, req);
    if (f === 'handled') return reply;
    if (!api(req, reply)) return reply;
    const q = req.query as Record<string, string>;
    const sr = (req.params as { sr?: string }).sr?.toLowerCase();
    if (!q.q || q.q.length > 512) return reply.status(400).send({ message: 'Bad Request', error: 400 });
    const sort = q.sort ?? 'relevance';
    if (!['relevance', 'hot', 'top', 'new', 'comments'].includes(sort)) return badSort(reply);
    const words = q.q.toLowerCase().split(/\s+/).filter(Boolean);
    let items = visible().filter((p) => words.every((w) => `${p.title} ${p.selftext}`.toLowerCase().includes(w)));
    if (sr && (q.restrict_sr === 'true' || q.restrict_sr === '1' || q.restrict_sr === 'on')) items = items.filter((p) => p.subreddit === sr);
    items = sort === 'comments' ? items.sort((a, b) => b.num_comments - a.num_comments) : sorted(items, sort === 'relevance' ? 'top' : sort, q.t ?? 'all');
    return listing(items, q, reply);
  };
  app.get('/search', search);
  app.get('/r/:sr/search', search);

  app.get('/user/:name/submitted', async (req, reply) => {
    const f = await fault('read', reply, req);
    if (f === 'handled') return reply;
    if (!api(req, reply)) return reply;
    const { name } = req.params as { name: string };
    const mine = visible().filter((p) => p.author.toLowerCase() === name.toLowerCase()).sort((a, b) => b.created_utc - a.created_utc);
    return listing(mine, req.query as Record<string, string>, reply);
  });

  // Media -----------------------------------------------------------------------
  const asset = async (req: FastifyRequest, reply: FastifyReply) => {
    const f = await fault('media', reply, req);
    if (f === 'handled') return reply;
    if (!api(req, reply)) return reply;
    const b = (req.body ?? {}) as Record<string, string>;
    if (!b.filepath || !b.mimetype) return reply.send({ json: { errors: [['BAD_REQUEST', 'filepath and mimetype are required', 'filepath']] } });
    if (!/^image\/(jpeg|png|gif)$/.test(b.mimetype) && !/^video\//.test(b.mimetype)) return reply.send({ json: { errors: [['INVALID_OPTION', 'unsupported mimetype', 'mimetype']] } });
    const assetId = randomBytes(8).toString('hex');
    const key = `rte_images/${assetId}/${b.filepath.replace(/[^\w.-]/g, '_')}`;
    uploads.set(key, { key, received: false });
    assets.set(assetId, key);
    const host = new URL(simUrl).host;
    return {
      args: { action: `//${host}/__s3/reddit-uploaded-media`, fields: [
        { name: 'acl', value: 'public-read' }, { name: 'key', value: key }, { name: 'Content-Type', value: b.mimetype },
        { name: 'x-amz-algorithm', value: 'AWS4-HMAC-SHA256' }, { name: 'policy', value: Buffer.from(key).toString('base64') }, { name: 'x-amz-signature', value: 'sim' },
      ] },
      asset: { asset_id: assetId, processing_state: 'incomplete', payload: { filepath: b.filepath }, websocket_url: `wss://ws.sim.redditmedia.com/${assetId}` },
    };
  };
  app.post('/api/media/asset', asset);
  app.post('/api/media/asset.json', asset);

  app.post('/__s3/reddit-uploaded-media', async (req, reply) => {
    const fields: Record<string, string> = {};
    let size = 0;
    let file: Buffer = Buffer.alloc(0);
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') return reply.status(400).type('application/xml').send('<Error><Code>InvalidArgument</Code></Error>');
        file = await part.toBuffer();
        size = file.length;
      } else fields[part.fieldname] = String(part.value);
    }
    const maxBytes = opts.imageMaxBytes ?? 20 * 1024 * 1024;
    if (/^image\//.test(fields['Content-Type'] ?? '') && size > maxBytes) {
      return reply.status(400).type('application/xml').send(`<Error><Code>EntityTooLarge</Code><Message>Your proposed upload exceeds the maximum allowed size</Message><ProposedSize>${size}</ProposedSize><MaxSizeAllowed>${maxBytes}</MaxSizeAllowed></Error>`);
    }
    const u = uploads.get(fields.key);
    if (!u || fields.policy !== Buffer.from(fields.key).toString('base64') || size === 0) {
      return reply.status(403).type('application/xml').send('<Error><Code>AccessDenied</Code><Message>Invalid according to Policy</Message></Error>');
    }
    u.received = true;
    u.format = mediaInfo(file).format;
    const location = `${simUrl}/__s3/reddit-uploaded-media/${encodeURIComponent(fields.key)}`;
    return reply.status(201).type('application/xml')
      .send(`<?xml version="1.0" encoding="UTF-8"?><PostResponse><Location>${location}</Location><Bucket>reddit-uploaded-media</Bucket><Key>${fields.key}</Key></PostResponse>`);
  });

  // Submit ----------------------------------------------------------------------
  app.post('/api/submit', async (req, reply) => {
    const f = await fault('submit', reply, req);
    if (f === 'handled') return reply;
    if (!api(req, reply)) return reply;
    const b = (req.body ?? {}) as Record<string, string>;
    const err = (code: string, msg: string, field: string) => reply.send({ json: { errors: [[code, msg, field]] } });
    if (b.api_type !== 'json') return reply.status(400).send({ message: 'api_type=json expected by this simulator', error: 400 });
    if (!b.sr || !/^[A-Za-z0-9][A-Za-z0-9_]{1,20}$/.test(b.sr)) return err('BAD_SR_NAME', 'that name isn\'t going to work', 'sr');
    const s = subreddits.get(b.sr.toLowerCase());
    if (!s) return err('SUBREDDIT_NOEXIST', 'that community doesn\'t exist', 'sr');
    if (s.private) return reply.status(404).send({ message: 'Not Found', error: 404 });
    // A restricted subreddit takes posts from approved users only (the simulated user is none); the code and
    // text are what Reddit answers as clients observe them (its API reference lists no error codes).
    if (s.restricted) return err('SUBREDDIT_NOTALLOWED', 'you aren\'t allowed to post there.', 'sr');
    if (!['self', 'link', 'image'].includes(b.kind)) return err('INVALID_OPTION', 'that option is not valid', 'kind');
    if (!b.title) return err('NO_TEXT', 'we need something here', 'title');
    const [titleMax, textMax] = [opts.titleMax ?? 300, opts.selftextMax ?? 40_000];
    if (b.title.length > titleMax) return err('TOO_LONG', `this is too long (max: ${titleMax})`, 'title');
    if (b.kind === 'self' && (b.text ?? '').length > textMax) return err('TOO_LONG', `this is too long (max: ${textMax})`, 'text');
    if (b.kind === 'self' && s.submission_type === 'link') return err('NO_SELFS', 'This community doesn\'t allow text posts', 'sr');
    if (b.kind !== 'self' && s.submission_type === 'self') return err('NO_LINKS', 'This community only allows text posts', 'sr');
    if (b.kind === 'image' && !s.allow_images) return err('NO_IMAGES', 'This community doesn\'t allow images', 'sr');
    if (b.kind !== 'self') {
      if (!b.url) return err('NO_URL', 'a url is required', 'url');
      let ok = false;
      try { ok = /^https?:$/.test(new URL(b.url).protocol); } catch { /* not a URL */ }
      if (!ok) return err('BAD_URL', 'you should check that url', 'url');
    }
    if (b.kind === 'image') {
      const key = decodeURIComponent(b.url.split('/__s3/reddit-uploaded-media/')[1] ?? '');
      const u = uploads.get(key);
      if (!u?.received) return err('BAD_URL', 'the image was not uploaded', 'url');
      if (!IMAGE_FORMATS.has(u.format ?? '')) return err('INVALID_MEDIA', 'the image must be a JPEG, PNG or GIF', 'url');
    }
    const requirement = requirementError(s, b.kind, b.title, b.kind === 'self' ? (b.text ?? '') : '', b.flair_id);
    if (requirement) return err(...requirement);
    if (b.kind === 'link' && b.resubmit !== 'true' && posts.some((p) => p.subreddit === s.name && p.url === b.url)) {
      return err('ALREADY_SUB', 'that link has already been submitted', 'url');
    }
    if (b.flair_id && b.flair_id.length > 36) return err('BAD_FLAIR_TEMPLATE_ID', 'invalid flair template id', 'flair_id');
    if (b.flair_text && b.flair_text.length > 64) return err('TOO_LONG', 'this is too long (max: 64)', 'flair_text');
    const p: SimPost = {
      id: base36(), subreddit: s.name, author: user.name, title: b.title, kind: b.kind, selftext: b.kind === 'self' ? (b.text ?? '') : '',
      url: b.kind === 'self' ? '' : b.url, created_utc: Date.now() / 1000, score: 1, num_comments: 0, over_18: b.nsfw === 'true',
      spoiler: b.spoiler === 'true', stickied: false, link_flair_text: b.flair_text ?? null,
      visibleAt: b.kind === 'image' ? Date.now() + (opts.imageDelayMs ?? 300) : 0,
    };
    posts.push(p);
    if (droppedAfterCreate(f, req)) return reply;
    if (b.kind === 'image') {
      return { json: { errors: [], data: { websocket_url: `wss://ws.sim.redditmedia.com/rte_images/${p.id}`, user_submitted_page: `https://www.reddit.com/user/${user.name}/submitted/` } } };
    }
    return { json: { errors: [], data: { url: `https://www.reddit.com/r/${s.name}/comments/${p.id}/`, drafts_count: 0, id: p.id, name: `t3_${p.id}` } } };
  });

  const gallery = async (req: FastifyRequest, reply: FastifyReply) => {
    const f = await fault('submit', reply, req);
    if (f === 'handled') return reply;
    if (!api(req, reply)) return reply;
    const b = (req.body ?? {}) as { sr?: string; title?: string; items?: Array<{ media_id?: string; caption?: string }>; nsfw?: boolean; spoiler?: boolean; flair_id?: string; flair_text?: string };
    const err = (code: string, msg: string, field: string) => reply.send({ json: { errors: [[code, msg, field]] } });
    const s = b.sr ? subreddits.get(b.sr.toLowerCase()) : undefined;
    if (!s) return err('SUBREDDIT_NOEXIST', 'that community doesn\'t exist', 'sr');
    if (s.submission_type === 'self') return err('NO_LINKS', 'This community only allows text posts', 'sr');
    if (!s.allow_images || s.allow_galleries === false) return err('NO_IMAGES', 'This community doesn\'t allow galleries', 'sr');
    if (!b.title) return err('NO_TEXT', 'we need something here', 'title');
    if (b.title.length > (opts.titleMax ?? 300)) return err('TOO_LONG', `this is too long (max: ${opts.titleMax ?? 300})`, 'title');
    const items = b.items ?? [];
    const galleryMax = opts.galleryMax ?? 20;
    if (items.length < 2 || items.length > galleryMax) return err('BAD_NUMBER', `a gallery needs 2 to ${galleryMax} items`, 'items');
    const requirement = requirementError(s, 'gallery', b.title, '', b.flair_id);
    if (requirement) return err(...requirement);
    for (const it of items) {
      const key = it.media_id ? assets.get(it.media_id) : undefined;
      if (!key || !uploads.get(key)?.received) return err('MEDIA_UPLOAD_FAILED', 'one of the images was not uploaded', 'items');
      if (!IMAGE_FORMATS.has(uploads.get(key)?.format ?? '')) return err('INVALID_MEDIA', 'the images must be JPEG, PNG or GIF', 'items');
      if ((it.caption ?? '').length > 180) return err('TOO_LONG', 'this is too long (max: 180)', 'caption');
    }
    const p: SimPost = {
      id: base36(), subreddit: s.name, author: user.name, title: b.title, kind: 'gallery', selftext: '', url: '', created_utc: Date.now() / 1000,
      score: 1, num_comments: 0, over_18: b.nsfw === true, spoiler: b.spoiler === true, stickied: false, link_flair_text: b.flair_text ?? null, visibleAt: 0,
    };
    p.url = `https://www.reddit.com/gallery/${p.id}`;
    posts.push(p);
    if (droppedAfterCreate(f, req)) return reply;
    return { json: { errors: [], data: { url: p.url, id: `t3_${p.id}` } } };
  };
  app.post('/api/submit_gallery_post', gallery);
  app.post('/api/submit_gallery_post.json', gallery);

  // Test control ----------------------------------------------------------------
  faults.route(app);

  const simUrl = await listen(app);
  return {
    url: simUrl, app, user, clientId, clientSecret, posts, subreddits, calls, metrics,
    lastUserAgent: () => lastUa,
    addPost(subreddit, title, selftext = '', at = new Date()) {
      const p: SimPost = {
        id: base36(), subreddit, author: user.name, title, kind: 'self', selftext, url: '', created_utc: at.getTime() / 1000, score: 1, num_comments: 0,
        over_18: false, spoiler: false, stickied: false, link_flair_text: null, visibleAt: 0,
      };
      posts.push(p);
      return p;
    },
    ...simControls(app, faults, access, () => { access.clear(); refresh.clear(); }),
  };
}

await runAsMain(import.meta.url, 'reddit', startRedditSimulator, (s) => ({ clientId: s.clientId, clientSecret: s.clientSecret }));
