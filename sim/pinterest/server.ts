/**
 * Pinterest API v5 simulator: a real HTTP server on loopback speaking the parts of the
 * Pinterest API Herald uses, with Pinterest's paths, numeric string ids, status values
 * and `{code, message}` error bodies (https://github.com/pinterest/api-description, v5/openapi.json):
 * - OAuth 2.0: `GET /oauth/` approves at once as the simulator's user and redirects with
 *   code and state; `POST /v5/oauth/token` with HTTP Basic client auth, form
 *   authorization_code or refresh_token; 30-day access tokens (`expires_in`), a refresh
 *   token with `refresh_token_expires_in`; `continuousRefresh` rotates refresh tokens.
 * - `GET /v5/user_account`; `GET /v5/boards` and `GET /v5/boards/{id}/pins` (newest first)
 *   with `page_size` (1-250, default 25) and `bookmark` pagination, `bookmark: null` on the
 *   last page (https://developers.pinterest.com/docs/api/v5/boards-list_pins); `GET /v5/pins/{id}`.
 * - `POST /v5/pins` -> 201 Pin: board must exist and be the user's ("Board not found."),
 *   title <= 100, description <= 800, alt_text <= 500, link <= 2048, media_source
 *   image_url / multiple_image_urls (2-5: "constraint: maxItems=5") / video_id (media
 *   succeeded; a cover is required: "cover_image_url or cover_image_content_type ...").
 *   Images are fetched as Pinterest fetches them, through the SSRF guard (sim/common/fetch-media.ts,
 *   `mediaFetch` option): unreachable or refused -> "Unable to reach the URL";
 *   over `imageMaxBytes` (20 MB) or not BMP/JPEG/PNG/TIFF/GIF/WebP by their bytes (mediaInfo)
 *   -> 400 code 1.
 * - Video: `POST /v5/media` -> media_id + an S3-style presigned POST (`/__s3/pinterest-media-upload`)
 *   whose fields must all be sent, file last; `GET /v5/media/{id}` status registered ->
 *   processing -> succeeded (or failed: also when the uploaded file is not an MP4/MOV of
 *   `videoMinSeconds`-`videoMaxSeconds`, 4 s to 15 min, by its movie header).
 * - A per-minute limit on `org_write` calls (POST /v5/pins, POST /v5/media) -> 429.
 * - Trial access (`accessTier: 'trial'`): created pins are flagged visible to the creator only.
 * - Faults (`addFault` or POST /__sim/faults): 429, 5xx, expired token (401), processing
 *   failure, slow, dropped connection, or a dropped answer after the pin was created.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { listen, runAsMain, simApp, simControls, type SimulatorBase } from '../common/app.ts';
import { numericIds } from '../common/ids.ts';
import { droppedAfterCreate, FaultQueue } from '../common/faults.ts';
import { MetricsBook } from '../common/metrics.ts';
import { fetchMedia, type SimMediaFetchPolicy } from '../common/fetch-media.ts';
import { mediaInfo } from '../common/media-info.ts';
import { authorizeRoute, basicCredentials, bearerToken, RefreshTokens, takeCode } from '../common/oauth.ts';

export interface PinterestSimOptions {
  clientId?: string;
  clientSecret?: string;
  /** Access token lifetime in seconds (Pinterest: 2,592,000 = 30 days). */
  accessTtlSeconds?: number;
  /** org_write calls per user per minute (numeric value UNCONFIRMED). */
  writesPerMinute?: number;
  /** Status polls before a video is processed. */
  processingPolls?: number;
  /** Refresh tokens rotate on refresh ("continuous refresh"). */
  continuousRefresh?: boolean;
  accessTier?: 'trial' | 'standard';
  /** Which image URLs may be downloaded (default: public addresses only, through the SSRF guard). */
  mediaFetch?: SimMediaFetchPolicy;
  /** Largest image Pinterest fetches for a pin, bytes (20 MB per the media guides). */
  imageMaxBytes?: number;
  /** Field limits of POST /v5/pins in characters (title 100, description 800, alt_text 500, link 2048) and the carousel's most images (5). */
  titleMax?: number;
  descriptionMax?: number;
  altTextMax?: number;
  linkMax?: number;
  carouselMax?: number;
  /** Video duration bounds in seconds (4 s to 15 min). */
  videoMinSeconds?: number;
  videoMaxSeconds?: number;
}

/** Image formats Pinterest takes (BMP, JPEG, PNG, TIFF, GIF, WebP), as mediaInfo names them. */
const IMAGE_FORMATS = new Set(['bmp', 'jpeg', 'png', 'tiff', 'gif', 'webp']);

export type PinterestFault = {
  op: 'pin' | 'media' | 'token' | 'read' | 'metrics' | 'update' | 'any';
  kind: 'rate_limit' | 'server_error' | 'expired_token' | 'slow' | 'drop' | 'drop_after_create' | 'processing_failed';
  count: number;
  delayMs?: number;
};

export interface SimBoard { id: string; name: string; description: string; privacy: 'PUBLIC' | 'PROTECTED' | 'SECRET'; owner: string }
export interface SimPin {
  id: string; board_id: string; title: string; description: string; link: string | null; alt_text: string | null; created_at: string;
  media_source: Record<string, unknown>; media_type: 'image' | 'video' | 'multiple_images'; creator_only: boolean;
}
interface SimMedia { id: string; owner: string; status: 'registered' | 'processing' | 'succeeded' | 'failed'; polls: number; params: Record<string, string>; failNext: boolean; invalid?: string }

export interface PinterestSimulator extends SimulatorBase<PinterestFault> {
  user: { id: string; username: string };
  boards: SimBoard[];
  pins: SimPin[];
  /** The Pins' analytics (GET /v5/pins/{id}/analytics). */
  metrics: MetricsBook;
  /** Creates an image pin directly, as if the user pinned it on Pinterest. */
  addPin(boardId: string, title: string, description?: string, at?: Date): SimPin;
}

const numericId = numericIds(1_000_000_000_000_000n, 1000, false);
const err = (reply: FastifyReply, status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  reply.status(status).headers(headers).send({ code, message });

export async function startPinterestSimulator(opts: PinterestSimOptions = {}): Promise<PinterestSimulator> {
  const clientId = opts.clientId ?? 'sim-pinterest-client';
  const clientSecret = opts.clientSecret ?? 'sim-pinterest-secret';
  const user = { id: numericId(), username: 'herald_sim' };
  const codes = new Map<string, { redirectUri: string; expires: number; scope: string }>();
  const access = new Map<string, { expires: number; scope: string }>();
  const refresh = new RefreshTokens<{ scope: string }>(() => randomBytes(24).toString('base64url'));
  const boards: SimBoard[] = Array.from({ length: 30 }, (_, i) => ({
    id: numericId(), name: i === 0 ? 'Recipes' : i === 1 ? 'Travel' : `Board ${i}`, description: '', privacy: i === 2 ? 'SECRET' as const : 'PUBLIC' as const, owner: user.username,
  }));
  boards.push({ id: numericId(), name: 'Someone else\'s board', description: '', privacy: 'PUBLIC', owner: 'someone_else' });
  const pins: SimPin[] = [];
  const metrics = new MetricsBook();
  const media = new Map<string, SimMedia>();
  const calls = new Map<string, number>();
  const writes: number[] = [];
  const perMinute = opts.writesPerMinute ?? 1000;

  const app = await simApp({ calls, bodyLimit: 64 * 1024 * 1024, multipartFileSize: 64 * 1024 * 1024 });
  const faults = new FaultQueue<PinterestFault>({
    rate_limit: (reply) => err(reply, 429, 8, 'You have exceeded your rate limit. Try again later.'),
    server_error: (reply) => err(reply, 503, 3, 'Service unavailable. Please try again later.'),
    expired_token: (reply) => err(reply, 401, 2, 'Authentication failed.'),
  });
  const fault = (op: PinterestFault['op'], reply: FastifyReply, req: FastifyRequest) => faults.apply(op, reply, req);

  function authed(req: FastifyRequest, reply: FastifyReply): boolean {
    const token = bearerToken(req, /^Bearer (.+)$/i);
    const t = token ? access.get(token) : undefined;
    if (!t || t.expires < Date.now()) {
      err(reply, 401, 2, 'Authentication failed.');
      return false;
    }
    return true;
  }

  /** org_write category limit (per user per minute on Standard access). */
  function writeAllowed(reply: FastifyReply): boolean {
    const now = Date.now();
    while (writes.length && now - writes[0] > 60_000) writes.shift();
    if (writes.length >= perMinute) {
      err(reply, 429, 8, 'You have exceeded your rate limit. Try again later.');
      return false;
    }
    writes.push(now);
    return true;
  }

  // OAuth 2.0 ----------------------------------------------------------------
  authorizeRoute(app, '/oauth/', codes, {
    required: ['client_id', 'redirect_uri', 'response_type', 'scope', 'state'],
    refuse: (q, missing, reply) => {
      if (missing.length) return err(reply, 400, 1, `Missing ${missing.join(', ')}`);
      if (q.client_id !== clientId) return err(reply, 400, 1, 'Invalid client_id');
      if (q.response_type !== 'code') return err(reply, 400, 1, 'response_type must be code');
      return undefined;
    },
    code: () => randomBytes(18).toString('base64url'),
    grant: (q) => ({ redirectUri: q.redirect_uri, expires: Date.now() + 60_000, scope: q.scope }),
    back: (q, code) => [['code', code], ['state', q.state]],
  });

  app.post('/v5/oauth/token', async (req, reply) => {
    const f = await fault('token', reply, req);
    if (f === 'handled') return reply;
    const [id, secret] = basicCredentials(req);
    if (id !== clientId || secret !== clientSecret) return reply.status(401).send({ error: 'invalid_client', error_description: 'Authentication failed.' });
    const b = (req.body ?? {}) as Record<string, string>;
    let scope: string;
    let rt: string | undefined;
    if (b.grant_type === 'authorization_code') {
      const c = takeCode(codes, b.code);
      if (!c || c.redirectUri !== b.redirect_uri) return reply.status(400).send({ error: 'invalid_grant', error_description: 'Invalid authorization code' });
      scope = c.scope;
      rt = refresh.issue({ scope });
    } else if (b.grant_type === 'refresh_token') {
      const r = refresh.use(b.refresh_token, opts.continuousRefresh === true);
      if (!r) return reply.status(400).send({ error: 'invalid_grant', error_description: 'Invalid refresh token' });
      scope = r.scope;
      if (opts.continuousRefresh) rt = refresh.issue({ scope });
    } else {
      return reply.status(400).send({ error: 'unsupported_grant_type' });
    }
    const token = `pina_${randomBytes(24).toString('base64url')}`;
    const ttl = opts.accessTtlSeconds ?? 2_592_000;
    access.set(token, { expires: Date.now() + ttl * 1000, scope });
    return {
      access_token: token, token_type: 'bearer', expires_in: ttl, scope,
      ...(rt ? { refresh_token: rt, refresh_token_expires_in: 31_536_000 } : {}),
      response_type: b.grant_type === 'authorization_code' ? 'authorization_code' : 'refresh_token',
    };
  });

  app.get('/v5/user_account', async (req, reply) => {
    if (!authed(req, reply)) return reply;
    return { account_type: 'BUSINESS', id: user.id, username: user.username, business_name: 'Herald Simulator', profile_image: 'https://i.pinimg.com/sim/avatar.jpg', website_url: 'https://example.com' };
  });

  // Boards ------------------------------------------------------------------------
  const boardView = (b: SimBoard) => ({
    id: b.id, name: b.name, description: b.description, owner: { username: b.owner }, privacy: b.privacy,
    pin_count: pins.filter((p) => p.board_id === b.id).length, follower_count: 0, collaborator_count: 0, created_at: '2024-01-01T00:00:00', is_ads_only: false,
  });
  const page = <T>(items: T[], q: Record<string, string>, reply: FastifyReply, max = 250) => {
    const size = Number(q.page_size ?? 25);
    if (!Number.isInteger(size) || size < 1 || size > max) return err(reply, 400, 1, `Invalid page_size: must be between 1 and ${max}`);
    const start = q.bookmark ? Number(Buffer.from(q.bookmark, 'base64url').toString()) || 0 : 0;
    const slice = items.slice(start, start + size);
    const next = start + size < items.length ? Buffer.from(String(start + size)).toString('base64url') : null;
    return reply.send({ items: slice, bookmark: next });
  };
  app.get('/v5/boards', async (req, reply) => {
    const f = await fault('read', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    const q = req.query as Record<string, string>;
    const mine = boards.filter((b) => b.owner === user.username && (!q.privacy || b.privacy === q.privacy));
    return page(mine.map(boardView), q, reply);
  });
  app.get('/v5/boards/:id/pins', async (req, reply) => {
    const f = await fault('read', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    const b = boards.find((x) => x.id === (req.params as { id: string }).id && x.owner === user.username);
    if (!b) return err(reply, 404, 40, 'Board not found.');
    return page(pins.filter((p) => p.board_id === b.id).reverse().map(pinView), req.query as Record<string, string>, reply, 250);
  });

  // Pins ----------------------------------------------------------------------------
  const pinView = (p: SimPin) => ({
    id: p.id, created_at: p.created_at, link: p.link, title: p.title, description: p.description, alt_text: p.alt_text, board_id: p.board_id,
    board_owner: { username: user.username }, creative_type: p.media_type === 'video' ? 'VIDEO' : p.media_type === 'multiple_images' ? 'CAROUSEL' : 'REGULAR',
    media: { media_type: p.media_type }, is_standard: true,
  });
  /**
   * Pin analytics (https://developers.pinterest.com/docs/api/v5/pins-analytics): start_date at most 90 days back,
   * `metric_types` named; answers `all.lifetime_metrics`, `all.summary_metrics` and `all.daily_metrics`.
   */
  app.get('/v5/pins/:id/analytics', async (req, reply) => {
    const f = await fault('metrics', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    const p = pins.find((x) => x.id === (req.params as { id: string }).id);
    if (!p) return err(reply, 404, 50, 'Pin not found.');
    const q = req.query as Record<string, string>;
    if (!q.start_date || !q.end_date || !q.metric_types) return err(reply, 400, 1, 'start_date, end_date and metric_types are required.');
    if (Date.parse(q.start_date) < Date.now() - 91 * 86_400_000) return err(reply, 400, 1, 'start_date cannot be more than 90 days ago.');
    const c = metrics.read(p.id);
    const all: Record<string, number> = { IMPRESSION: c.impressions, SAVE: c.saves, PIN_CLICK: c.clicks, OUTBOUND_CLICK: c.outboundClicks, TOTAL_REACTIONS: c.likes, TOTAL_COMMENTS: c.comments };
    const asked = Object.fromEntries(q.metric_types.split(',').filter((m) => m in all).map((m) => [m, all[m]]));
    return { all: { lifetime_metrics: asked, summary_metrics: asked, daily_metrics: [{ date: new Date().toISOString().slice(0, 10), data_status: 'READY', metrics: asked }] } };
  });

  app.get('/v5/pins/:id', async (req, reply) => {
    if (!authed(req, reply)) return reply;
    const p = pins.find((x) => x.id === (req.params as { id: string }).id);
    if (!p) return err(reply, 404, 50, 'Pin not found.');
    return pinView(p);
  });

  /**
   * Delete a Pin (https://developers.pinterest.com/docs/api/v5/pins-delete/): `DELETE
   * /v5/pins/{pin_id}` needs the pins:write scope and only the user's own Pin (a Pin on a board
   * the user does not own); 204 with no body, and a read then answers 404. A missing Pin is 404
   * code 50. The status and code for a missing scope or someone else's Pin are UNCONFIRMED (403
   * here, so that it is refused rather than refreshed).
   */
  app.delete('/v5/pins/:id', async (req, reply) => {
    if (!authed(req, reply)) return reply;
    const scope = (access.get(bearerToken(req, /^Bearer (.+)$/i)!)?.scope ?? '').split(/[ ,]/);
    if (!scope.includes('pins:write')) return err(reply, 403, 3, 'Not authorized to access this resource: the token lacks the pins:write scope.');
    const i = pins.findIndex((x) => x.id === (req.params as { id: string }).id);
    if (i < 0) return err(reply, 404, 50, 'Pin not found.');
    if (boards.find((b) => b.id === pins[i].board_id)?.owner !== user.username) return err(reply, 403, 29, 'You are not permitted to access that resource.');
    if (!writeAllowed(reply)) return reply;
    pins.splice(i, 1);
    return reply.status(204).send();
  });

  /**
   * Update a Pin (https://developers.pinterest.com/docs/api/v5/pins-update/): `PATCH
   * /v5/pins/{pin_id}` with any of title, description, link, alt_text, board_id, note; the media
   * cannot change (media_source is refused). Scope pins:write and the user's own Pin, as delete;
   * the same length limits as a new Pin. Answers the Pin.
   */
  app.patch('/v5/pins/:id', async (req, reply) => {
    const f = await fault('update', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    const scope = (access.get(bearerToken(req, /^Bearer (.+)$/i)!)?.scope ?? '').split(/[ ,]/);
    if (!scope.includes('pins:write')) return err(reply, 403, 3, 'Not authorized to access this resource: the token lacks the pins:write scope.');
    const pin = pins.find((x) => x.id === (req.params as { id: string }).id);
    if (!pin) return err(reply, 404, 50, 'Pin not found.');
    if (boards.find((b) => b.id === pin.board_id)?.owner !== user.username) return err(reply, 403, 29, 'You are not permitted to access that resource.');
    const b = (req.body ?? {}) as Record<string, unknown>;
    const known = ['title', 'description', 'link', 'alt_text', 'board_id', 'board_section_id', 'note', 'carousel_slots'];
    const unknown = Object.keys(b).find((k) => !known.includes(k));
    if (unknown) return err(reply, 400, 1, `Invalid request body: additional property ${unknown} is not allowed`);
    for (const [k, max] of [['title', opts.titleMax ?? 100], ['description', opts.descriptionMax ?? 800], ['alt_text', opts.altTextMax ?? 500], ['link', opts.linkMax ?? 2048]] as const) {
      if (b[k] !== undefined && b[k] !== null && (typeof b[k] !== 'string' || (b[k] as string).length > max)) return err(reply, 400, 1, `Invalid request body: ${k} exceeds maxLength=${max}`);
    }
    if (b.link && !isUrl(b.link)) return err(reply, 400, 1, 'Invalid request body: link is not a valid URL');
    if (b.board_id !== undefined) {
      const board = boards.find((x) => x.id === b.board_id);
      if (!board || board.owner !== user.username) return err(reply, 404, 40, 'Board not found.');
      pin.board_id = board.id;
    }
    if (!writeAllowed(reply)) return reply;
    if (typeof b.title === 'string') pin.title = b.title;
    if (typeof b.description === 'string') pin.description = b.description;
    if (b.link !== undefined) pin.link = (b.link as string | null) ?? null;
    if (b.alt_text !== undefined) pin.alt_text = (b.alt_text as string | null) ?? null;
    return pinView(pin);
  });

  const isUrl = (v: unknown) => { try { return typeof v === 'string' && /^https?:$/.test(new URL(v).protocol); } catch { return false; } };
  /** Fetches an image as Pinterest does and checks it; the error message, or null when it is fine. */
  async function imageProblem(url: string): Promise<string | null> {
    const max = opts.imageMaxBytes ?? 20 * 1024 * 1024;
    // Through the SSRF guard (sim/common/fetch-media.ts); one byte over the cap is enough to tell.
    const r = await fetchMedia(url, opts.mediaFetch, { maxBytes: max + 1, timeoutMs: 30_000 });
    if (!r.ok) return r.refused && !/larger than the limit|bytes; the limit is/.test(r.error) ? `Unable to reach the URL (${r.error})` : r.refused ? `Invalid request body: image file is too large (maximum ${max} bytes)` : 'Unable to reach the URL';
    const bytes = r.bytes;
    if (bytes.length > max) return `Invalid request body: image file is too large (${bytes.length} bytes; maximum ${max})`;
    const info = mediaInfo(bytes);
    if (!IMAGE_FORMATS.has(info.format)) return 'Invalid request body: image format not supported (BMP, JPEG, PNG, TIFF, GIF or WEBP expected)';
    return null;
  }
  app.post('/v5/pins', async (req, reply) => {
    const f = await fault('pin', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (typeof b.board_id !== 'string' || !/^\d+$/.test(b.board_id)) return err(reply, 400, 1, 'Invalid request body: board_id is required');
    const board = boards.find((x) => x.id === b.board_id);
    if (!board || board.owner !== user.username) return err(reply, 404, 40, 'Board not found.');
    for (const [k, max] of [['title', opts.titleMax ?? 100], ['description', opts.descriptionMax ?? 800], ['alt_text', opts.altTextMax ?? 500], ['link', opts.linkMax ?? 2048]] as const) {
      if (b[k] !== undefined && b[k] !== null && (typeof b[k] !== 'string' || (b[k] as string).length > max)) return err(reply, 400, 1, `Invalid request body: ${k} exceeds maxLength=${max}`);
    }
    if (b.link && !isUrl(b.link)) return err(reply, 400, 1, 'Invalid request body: link is not a valid URL');
    const ms = b.media_source as Record<string, unknown> | undefined;
    if (!ms || typeof ms.source_type !== 'string') return err(reply, 400, 1, 'Invalid request body: media_source is required');
    let mediaType: SimPin['media_type'];
    if (ms.source_type === 'image_url') {
      if (!isUrl(ms.url)) return err(reply, 400, 1, 'Unable to reach the URL');
      const problem = await imageProblem(ms.url as string);
      if (problem) return err(reply, 400, 1, problem);
      mediaType = 'image';
    } else if (ms.source_type === 'multiple_image_urls') {
      const items = ms.items as Array<{ url?: string }> | undefined;
      if (!Array.isArray(items) || items.length < 2) return err(reply, 400, 1, 'Invalid request body: media_source.items constraint: minItems=2');
      const carouselMax = opts.carouselMax ?? 5;
      if (items.length > carouselMax) return err(reply, 400, 1, `Invalid request body: media_source.items constraint: maxItems=${carouselMax}`);
      if (!items.every((i) => isUrl(i.url))) return err(reply, 400, 1, 'Unable to reach the URL');
      for (const i of items) {
        const problem = await imageProblem(i.url as string);
        if (problem) return err(reply, 400, 1, problem);
      }
      mediaType = 'multiple_images';
    } else if (ms.source_type === 'video_id') {
      const m = media.get(String(ms.media_id));
      if (!m || m.owner !== user.username) return err(reply, 400, 1, 'Invalid media_id');
      if (m.status !== 'succeeded') return err(reply, 400, 1, 'Media upload not yet processed');
      const hasCover = isUrl(ms.cover_image_url) || (ms.cover_image_content_type && ms.cover_image_data) || typeof ms.cover_image_key_frame_time === 'number';
      if (!hasCover) return err(reply, 400, 1, 'Invalid request body: a video pin needs cover_image_url or cover_image_content_type and cover_image_data, or cover_image_key_frame_time');
      mediaType = 'video';
    } else {
      return err(reply, 400, 1, `Invalid request body: unsupported source_type ${ms.source_type}`);
    }
    if (!writeAllowed(reply)) return reply;
    const pin: SimPin = {
      id: numericId(), board_id: board.id, title: (b.title as string) ?? '', description: (b.description as string) ?? '', link: (b.link as string) ?? null,
      alt_text: (b.alt_text as string) ?? null, created_at: new Date().toISOString().replace(/\.\d+Z$/, ''), media_source: ms, media_type: mediaType,
      creator_only: opts.accessTier === 'trial',
    };
    pins.push(pin);
    if (droppedAfterCreate(f, req)) return reply;
    return reply.status(201).send(pinView(pin));
  });

  // Media -----------------------------------------------------------------------------
  app.post('/v5/media', async (req, reply) => {
    const f = await fault('media', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (b.media_type !== 'video') return err(reply, 400, 1, 'Invalid request body: media_type must be video');
    if (!writeAllowed(reply)) return reply;
    const id = numericId();
    const params = { 'x-amz-date': '20260101T000000Z', 'x-amz-signature': randomBytes(8).toString('hex'), 'x-amz-security-token': 'sim', 'x-amz-algorithm': 'AWS4-HMAC-SHA256', key: `uploads/${id}/video.mp4`, policy: Buffer.from(id).toString('base64'), 'x-amz-credential': 'sim/20260101/us-east-1/s3/aws4_request', 'Content-Type': 'multipart/form-data' };
    media.set(id, { id, owner: user.username, status: 'registered', polls: 0, params, failNext: f !== null && f.kind === 'processing_failed' });
    return reply.status(201).send({ media_id: id, media_type: 'video', upload_url: `${simUrl}/__s3/pinterest-media-upload`, upload_parameters: params });
  });

  app.post('/__s3/pinterest-media-upload', async (req, reply) => {
    const fields: Record<string, string> = {};
    let size = 0;
    let fileLast = false;
    let file: Buffer = Buffer.alloc(0);
    for await (const part of req.parts()) {
      if (part.type === 'file') { file = await part.toBuffer(); size = file.length; fileLast = true; } else { fields[part.fieldname] = String(part.value); fileLast = false; }
    }
    const m = [...media.values()].find((x) => x.params.key === fields.key);
    const xml = (code: string, msg: string) => `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${msg}</Message></Error>`;
    if (!m || Object.entries(m.params).some(([k, v]) => fields[k] !== v)) return reply.status(403).type('application/xml').send(xml('AccessDenied', 'Invalid according to Policy: Policy Condition failed'));
    if (!fileLast || size === 0) return reply.status(400).type('application/xml').send(xml('InvalidArgument', 'POST requires exactly one file upload per request, as the last field'));
    // Processing checks the video: MP4/MOV (M4V is an MP4), 4 s to 15 min; otherwise the media fails.
    const info = mediaInfo(file);
    const [min, max] = [opts.videoMinSeconds ?? 4, opts.videoMaxSeconds ?? 15 * 60];
    if (info.format !== 'mp4' && info.format !== 'mov') m.invalid = 'unsupported video format (MP4, MOV or M4V expected)';
    else if (info.durationSeconds === undefined || info.durationSeconds < min || info.durationSeconds > max) m.invalid = `video duration ${info.durationSeconds ?? '?'} s is outside ${min} s to ${max} s`;
    m.status = m.failNext || m.invalid ? 'failed' : 'processing';
    return reply.status(204).send();
  });

  app.get('/v5/media/:id', async (req, reply) => {
    if (!authed(req, reply)) return reply;
    const m = media.get((req.params as { id: string }).id);
    if (!m || m.owner !== user.username) return err(reply, 404, 4, 'Media not found.');
    if (m.status === 'processing') {
      m.polls++;
      if (m.polls >= (opts.processingPolls ?? 1)) m.status = 'succeeded';
    }
    return { media_id: m.id, media_type: 'video', status: m.status };
  });

  // Test control ----------------------------------------------------------------------
  faults.route(app);
  /** Static bytes for tests (a fake video), so media URLs resolve without Herald's storage. */
  app.get('/__sim/files/:name', async (req, reply) => {
    const name = (req.params as { name: string }).name;
    return reply.type(name.endsWith('.mp4') ? 'video/mp4' : 'application/octet-stream').send(Buffer.alloc(4096, 7));
  });

  const simUrl = await listen(app);
  return {
    url: simUrl, app, user, clientId, clientSecret, boards, pins, calls, metrics,
    addPin(boardId, title, description = '', at = new Date()) {
      const pin: SimPin = {
        id: numericId(), board_id: boardId, title, description, link: null, alt_text: null, created_at: at.toISOString().replace(/\.\d+Z$/, ''),
        media_source: { source_type: 'image_url', url: 'https://i.pinimg.com/sim.jpg' }, media_type: 'image', creator_only: false,
      };
      pins.push(pin);
      return pin;
    },
    ...simControls(app, faults, access, () => { access.clear(); refresh.clear(); }),
  };
}

await runAsMain(import.meta.url, 'pinterest', startPinterestSimulator, (s) => ({ clientId: s.clientId, clientSecret: s.clientSecret }));
