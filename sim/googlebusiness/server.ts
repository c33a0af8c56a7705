/**
 * Google Business Profile simulator: a real HTTP server on loopback speaking Google OAuth 2.0 and
 * the parts of the Business Profile APIs Herald uses, with their paths, resource names, enums and
 * Google's error model `{error: {code, message, status, details}}` (a `google.rpc.BadRequest`
 * with `fieldViolations` for bad fields, a `google.rpc.ErrorInfo` for quota and permissions).
 * One server answers for every Google host (the adapter points all of them at it):
 * - OAuth (https://developers.google.com/identity/protocols/oauth2/web-server): `GET /o/oauth2/v2/auth`
 *   approves at once as the simulator's user (a refresh token with access_type=offline, again only
 *   with prompt=consent; PKCE S256 checked when sent); `POST /token` (client_secret_basic or
 *   _post; codes single use for 30 s; refresh tokens not rotated; revoked -> `invalid_grant`
 *   "Token has been expired or revoked."). Access tokens last `accessTtlSeconds` (3,599).
 *   API calls need the `business.manage` scope (403 ACCESS_TOKEN_SCOPE_INSUFFICIENT otherwise).
 * - Account Management API: `GET /v1/accounts` (pageSize 1-20, default 20, `pageToken`;
 *   https://developers.google.com/my-business/reference/accountmanagement/rest/v1/accounts/list).
 * - Business Information API: `GET /v1/accounts/{a}/locations` with a required `readMask` (top-level
 *   Location fields; 400 without or with an unknown field), pageSize 1-100 (default 10), `pageToken`
 *   (https://developers.google.com/my-business/reference/businessinformation/rest/v1/accounts.locations/list).
 *   Another user's account answers 403 PERMISSION_DENIED.
 * - v4 localPosts (https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts):
 *   `POST|GET /v4/accounts/{a}/locations/{l}/localPosts` (list newest first, pageSize 1-100,
 *   default 20, `nextPageToken` absent on the last page), `GET|DELETE .../localPosts/{p}` (404
 *   NOT_FOUND "Requested entity was not found." for a missing post). Create checks, as Google's
 *   rules say (the Business Profile Help Center's figures where the reference states none):
 *   topicType STANDARD | EVENT | OFFER (ALERT needs alertType), summary <= 1,500 characters, at
 *   most one media item with `mediaFormat` PHOTO | VIDEO and `sourceUrl` only, fetched through the
 *   SSRF guard (`mediaFetch`) and read from its bytes: photos JPG/PNG, 10 KB to 5 MB, at least
 *   250 x 250; videos MP4/MOV, up to 75 MB and 30 s, 720p or more; `event` (title, schedule with
 *   valid dates, end after start) required on EVENT and OFFER; `offer` only on OFFER (its
 *   redeemOnlineUrl a URL); `callToAction.actionType` BOOK | ORDER | SHOP | LEARN_MORE | SIGN_UP |
 *   CALL (GET_OFFER deprecated: refused), url required but for CALL and refused with CALL; a
 *   callToAction on an OFFER is ignored (dropped), as the reference says; languageCode BCP-47.
 * - Moderation: a post is `PROCESSING` when created and becomes `LIVE` `moderationMs` later (0:
 *   decided at once, in the create answer), or `REJECTED` when its summary contains a phone
 *   number: Google's posts content policy says not to put phone numbers in a post's text
 *   (https://support.google.com/business/answer/7213077); this is the simulator's one documented
 *   rejection. `moderate(name, state)` decides a post by hand.
 * - Quota: `writesPerMinute` creates and deletes per minute -> 429 RESOURCE_EXHAUSTED with an
 *   ErrorInfo RATE_LIMIT_EXCEEDED (Google sends no Retry-After). `quotaZero` answers every API call
 *   429 as an unapproved project does ("If your quota limit ... is 0, you have not yet been granted access").
 * - Faults (addFault or POST /__sim/faults): 429, 5xx, expired token (401), permission denied
 *   (403), slow, dropped connection, an answer dropped after the post was created.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { listen, runAsMain, simApp, simControls, type SimulatorBase } from '../common/app.ts';
import { droppedAfterCreate, FaultQueue } from '../common/faults.ts';
import { numericIds } from '../common/ids.ts';
import { newestFirst } from '../common/lists.ts';
import { fetchMedia, type SimMediaFetchPolicy } from '../common/fetch-media.ts';
import { mediaInfo } from '../common/media-info.ts';
import { bearerToken, RefreshTokens } from '../common/oauth.ts';
import { googleOAuthRoutes } from '../common/google-oauth.ts';

export const GBP_SCOPE = 'https://www.googleapis.com/auth/business.manage';

export interface GoogleBusinessSimOptions {
  clientId?: string;
  clientSecret?: string;
  accessTtlSeconds?: number;
  /** How long a new post stays PROCESSING before it is LIVE or REJECTED, ms (0: decided at creation). Mutable on the simulator. */
  moderationMs?: number;
  /** Creates and deletes per minute before 429 (Google: per project; the v4 figure is UNCONFIRMED). */
  writesPerMinute?: number;
  /** Every API call answers 429 RESOURCE_EXHAUSTED (a project whose quota is 0: not approved). */
  quotaZero?: boolean;
  /** Which media URLs may be downloaded (default: public addresses only, through the SSRF guard). */
  mediaFetch?: SimMediaFetchPolicy;
  /** Video bounds (30 s, 75 MB; Help Center). */
  videoMaxSeconds?: number;
  videoMaxBytes?: number;
  /** Locations of the personal account (default 2) and of the location group (default 1). */
  personalLocations?: number;
  groupLocations?: number;
}

export type GoogleBusinessFaultOp = 'token' | 'accounts' | 'locations' | 'create' | 'list' | 'get' | 'delete' | 'patch' | 'any';
export interface GoogleBusinessFault {
  op: GoogleBusinessFaultOp;
  kind: 'rate_limit' | 'server_error' | 'expired_token' | 'permission_denied' | 'slow' | 'drop' | 'drop_after_create';
  count: number;
  delayMs?: number;
  after?: number;
}

export type LocalPostState = 'PROCESSING' | 'LIVE' | 'REJECTED';
export interface SimAccount { name: string; accountName: string; type: 'PERSONAL' | 'LOCATION_GROUP'; mine: boolean }
export interface SimLocation { account: string; name: string; title: string; storeCode: string; locality: string; category: string; placeId: string; websiteUri: string }
export interface SimLocalPost {
  /** `accounts/{a}/locations/{l}/localPosts/{p}`. */
  name: string;
  location: string;
  body: Record<string, unknown>;
  createTime: string;
  state: LocalPostState;
  decideAt: number;
  verdict: 'LIVE' | 'REJECTED';
  /** When a PATCH last changed it. */
  updateTime?: string;
}

export interface GoogleBusinessSimulator extends SimulatorBase<GoogleBusinessFault> {
  accounts: SimAccount[];
  locations: SimLocation[];
  posts: SimLocalPost[];
  /** Current moderation delay (ms); tests change it. */
  moderation: { ms: number };
  /** The v4 parent of a location: `accounts/{a}/locations/{l}`. */
  parentOf(loc: SimLocation): string;
  /** Decides a post now (LIVE or REJECTED). */
  moderate(name: string, state: 'LIVE' | 'REJECTED'): void;
  /** Adds a post directly, as if made in the Business Profile manager. */
  addPost(loc: SimLocation, summary: string, at?: Date): SimLocalPost;
}

const STATUS: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };
/** Google's error model (https://cloud.google.com/apis/design/errors). */
function gerr(reply: FastifyReply, code: number, message: string, details: unknown[] = []) {
  return reply.status(code).send({ error: { code, message, status: STATUS[code] ?? 'UNKNOWN', ...(details.length ? { details } : {}) } });
}
const badRequest = (reply: FastifyReply, field: string, description: string) =>
  gerr(reply, 400, 'Request contains an invalid argument.', [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field, description }] }]);
const errorInfo = (reason: string, metadata: Record<string, string> = {}) => ({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com', metadata });

/** Phone numbers in a summary (the rejection policy): 7+ digits with optional separators, e.g. 555-123-4567, (030) 1234 5678, +1 555 123 4567. */
const PHONE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,5}\)[\s.-]?)?\d{3,4}[\s.-]\d{3,4}(?:[\s.-]\d{2,4})?/;
const ACTION_TYPES = ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL'];

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isUrl = (v: unknown) => { try { return typeof v === 'string' && /^https?:$/.test(new URL(v).protocol); } catch { return false; } };
function validDate(v: unknown): number | null {
  if (!isObj(v)) return null;
  const { year, month, day } = v as { year?: number; month?: number; day?: number };
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  const d = new Date(Date.UTC(year!, month! - 1, day!));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month! - 1 && d.getUTCDate() === day ? d.getTime() : null;
}
function timeMs(v: unknown, dflt: number): number | null {
  if (v === undefined) return dflt;
  if (!isObj(v)) return null;
  const h = (v.hours ?? 0) as number; const m = (v.minutes ?? 0) as number; const s = (v.seconds ?? 0) as number;
  if (![h, m, s].every(Number.isInteger) || h < 0 || h > 23 || m < 0 || m > 59 || s < 0 || s > 59) return null;
  return ((h * 60 + m) * 60 + s) * 1000;
}

export async function startGoogleBusinessSimulator(opts: GoogleBusinessSimOptions = {}): Promise<GoogleBusinessSimulator> {
  const clientId = opts.clientId ?? 'sim-gbp-client.apps.googleusercontent.com';
  const clientSecret = opts.clientSecret ?? 'sim-gbp-secret';
  const access = new Map<string, { expires: number; scope: string }>();
  const refresh = new RefreshTokens<{ scope: string }>(() => `1//0${randomBytes(30).toString('base64url')}`);
  const calls = new Map<string, number>();
  const accountId = numericIds(100_000_000_000_000_000n, 1000);
  const locationId = numericIds(1_000_000_000_000_000_000n, 1000);
  const postId = numericIds(2_000_000_000_000_000_000n, 1000);
  const moderation = { ms: opts.moderationMs ?? 0 };
  const writes: number[] = [];

  const accounts: SimAccount[] = [
    { name: `accounts/${accountId()}`, accountName: 'Herald Sim Owner', type: 'PERSONAL', mine: true },
    { name: `accounts/${accountId()}`, accountName: 'Herald Bakeries Group', type: 'LOCATION_GROUP', mine: true },
    { name: `accounts/${accountId()}`, accountName: 'Someone Else', type: 'PERSONAL', mine: false },
  ];
  const locations: SimLocation[] = [];
  const addLocation = (account: SimAccount, title: string, locality: string) => {
    const id = locationId();
    locations.push({ account: account.name, name: `locations/${id}`, title, storeCode: `S${locations.length + 1}`, locality, category: 'Bakery', placeId: `ChIJ${createHash('sha256').update(id).digest('base64url').slice(0, 23)}`, websiteUri: 'https://bakery.example' });
  };
  for (let i = 0; i < (opts.personalLocations ?? 2); i++) addLocation(accounts[0], i === 0 ? 'Herald Bakery Downtown' : `Herald Bakery ${i + 1}`, 'Springfield');
  for (let i = 0; i < (opts.groupLocations ?? 1); i++) addLocation(accounts[1], `Herald Bakery Airport${i ? ` ${i + 1}` : ''}`, 'Shelbyville');
  addLocation(accounts[2], 'Not Yours Cafe', 'Ogdenville');
  const posts: SimLocalPost[] = [];

  const app = await simApp({ calls });
  const faults = new FaultQueue<GoogleBusinessFault>({
    rate_limit: (reply) => gerr(reply, 429, 'Quota exceeded for quota metric \'Requests\' and limit \'Requests per minute\' of service \'mybusiness.googleapis.com\'.', [errorInfo('RATE_LIMIT_EXCEEDED', { service: 'mybusiness.googleapis.com' })]),
    server_error: (reply) => gerr(reply, 503, 'The service is currently unavailable.'),
    expired_token: (reply) => gerr(reply, 401, 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', [errorInfo('ACCESS_TOKEN_EXPIRED')]),
    permission_denied: (reply) => gerr(reply, 403, 'The caller does not have permission', [errorInfo('PERMISSION_DENIED')]),
  });
  const fault = (op: GoogleBusinessFaultOp, reply: FastifyReply, req: FastifyRequest) => faults.apply(op, reply, req);

  /** Bearer token valid and with the business.manage scope; answers the error otherwise. */
  function authed(req: FastifyRequest, reply: FastifyReply): boolean {
    const token = bearerToken(req);
    const t = token ? access.get(token) : undefined;
    if (!t || t.expires < Date.now()) {
      gerr(reply, 401, 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', [errorInfo('ACCESS_TOKEN_EXPIRED')]);
      return false;
    }
    if (!t.scope.split(' ').some((s) => s === GBP_SCOPE || s === 'https://www.googleapis.com/auth/plus.business.manage')) {
      gerr(reply, 403, 'Request had insufficient authentication scopes.', [errorInfo('ACCESS_TOKEN_SCOPE_INSUFFICIENT')]);
      return false;
    }
    if (opts.quotaZero) {
      gerr(reply, 429, 'Quota exceeded for quota metric \'Requests\' and limit \'Requests per minute\' of service \'mybusiness.googleapis.com\'.', [errorInfo('RATE_LIMIT_EXCEEDED', { quota_limit_value: '0' })]);
      return false;
    }
    return true;
  }
  function writeAllowed(reply: FastifyReply): boolean {
    const now = Date.now();
    while (writes.length && now - writes[0] > 60_000) writes.shift();
    if (writes.length >= (opts.writesPerMinute ?? 1000)) {
      gerr(reply, 429, 'Quota exceeded for quota metric \'Requests\' and limit \'Requests per minute\' of service \'mybusiness.googleapis.com\'.', [errorInfo('RATE_LIMIT_EXCEEDED')]);
      return false;
    }
    writes.push(now);
    return true;
  }
  const pageOf = <T>(items: T[], q: Record<string, string>, reply: FastifyReply, key: string, dflt: number, max: number) => {
    const size = q.pageSize === undefined ? dflt : Number(q.pageSize);
    if (!Number.isInteger(size) || size < 1 || size > max) return badRequest(reply, 'page_size', `pageSize must be between 1 and ${max}`);
    const start = q.pageToken ? Number(Buffer.from(q.pageToken, 'base64url').toString()) : 0;
    if (!Number.isInteger(start) || start < 0) return badRequest(reply, 'page_token', 'Invalid page token');
    const slice = items.slice(start, start + size);
    return reply.send({ [key]: slice, ...(start + size < items.length ? { nextPageToken: Buffer.from(String(start + size)).toString('base64url') } : {}) });
  };

  // OAuth --------------------------------------------------------------------
  googleOAuthRoutes(app, { clientId, clientSecret, access, refresh, accessTtlSeconds: opts.accessTtlSeconds, tokenFault: (reply, req) => fault('token', reply, req) });

  // Account Management API ---------------------------------------------------------
  app.get('/v1/accounts', async (req, reply) => {
    const f = await fault('accounts', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    const view = accounts.filter((a) => a.mine).map((a) => ({ name: a.name, accountName: a.accountName, type: a.type, role: a.type === 'PERSONAL' ? 'PRIMARY_OWNER' : 'OWNER', verificationState: 'VERIFIED', vettedState: 'NOT_VETTED' }));
    return pageOf(view, req.query as Record<string, string>, reply, 'accounts', 20, 20);
  });

  // Business Information API -------------------------------------------------------
  const LOCATION_FIELDS = new Set(['name', 'title', 'storeCode', 'storefrontAddress', 'categories', 'websiteUri', 'metadata', 'languageCode', 'phoneNumbers', 'profile', 'regularHours', 'labels']);
  const locationView = (l: SimLocation): Record<string, unknown> => ({
    name: l.name, title: l.title, storeCode: l.storeCode, languageCode: 'en',
    storefrontAddress: { regionCode: 'US', postalCode: '12345', locality: l.locality, addressLines: ['1 Main Street'] },
    categories: { primaryCategory: { name: 'categories/gcid:bakery', displayName: l.category } },
    websiteUri: l.websiteUri,
    metadata: { placeId: l.placeId, mapsUri: `https://maps.google.com/maps?cid=${BigInt(`0x${createHash('sha256').update(l.name).digest('hex').slice(0, 15)}`)}`, newReviewUri: `https://search.google.com/local/writereview?placeid=${l.placeId}` },
  });
  app.get('/v1/accounts/:a/locations', async (req, reply) => {
    const f = await fault('locations', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    const acc = accounts.find((a) => a.name === `accounts/${(req.params as { a: string }).a}`);
    if (!acc) return gerr(reply, 404, 'Requested entity was not found.');
    if (!acc.mine) return gerr(reply, 403, 'The caller does not have permission', [errorInfo('PERMISSION_DENIED')]);
    const q = req.query as Record<string, string>;
    if (!q.readMask) return badRequest(reply, 'read_mask', 'Field is required');
    const mask = q.readMask.split(',').map((s) => s.trim());
    const unknown = mask.find((m) => !LOCATION_FIELDS.has(m.split('.')[0]));
    if (unknown) return badRequest(reply, 'read_mask', `Invalid field mask: ${unknown}`);
    const view = locations.filter((l) => l.account === acc.name).map((l) => {
      const full = locationView(l);
      return Object.fromEntries(Object.entries(full).filter(([k]) => mask.some((m) => m.split('.')[0] === k)));
    });
    return pageOf(view, q, reply, 'locations', 10, 100);
  });

  // v4 localPosts ------------------------------------------------------------------
  /** The location of `accounts/{a}/locations/{l}`, or the error sent. */
  function locationOf(req: FastifyRequest, reply: FastifyReply): SimLocation | null {
    const { a, l } = req.params as { a: string; l: string };
    const acc = accounts.find((x) => x.name === `accounts/${a}`);
    const loc = locations.find((x) => x.name === `locations/${l}` && x.account === `accounts/${a}`);
    if (!acc || !loc) { gerr(reply, 404, 'Requested entity was not found.'); return null; }
    if (!acc.mine) { gerr(reply, 403, 'The caller does not have permission', [errorInfo('PERMISSION_DENIED')]); return null; }
    return loc;
  }
  const parentOf = (l: SimLocation) => `${l.account}/${l.name}`;
  function settle(p: SimLocalPost): SimLocalPost {
    if (p.state === 'PROCESSING' && Date.now() >= p.decideAt) p.state = p.verdict;
    return p;
  }
  const postView = (p: SimLocalPost) => {
    settle(p);
    const loc = locations.find((l) => parentOf(l) === p.location)!;
    return {
      ...p.body, name: p.name, createTime: p.createTime, updateTime: p.createTime, state: p.state,
      ...(p.state === 'LIVE' ? { searchUrl: `https://local.google.com/place?id=${loc.placeId}&use=posts&lpsid=${p.name.split('/').pop()}` } : {}),
    };
  };

  /** Fetches a media item as Google does and checks it; the field violation, or null when it is fine. */
  async function mediaProblem(m: Record<string, unknown>): Promise<[string, string] | null> {
    if (m.mediaFormat !== 'PHOTO' && m.mediaFormat !== 'VIDEO') return ['media[0].media_format', 'mediaFormat must be PHOTO or VIDEO'];
    const extra = Object.keys(m).filter((k) => k !== 'mediaFormat' && k !== 'sourceUrl');
    if (extra.length) return ['media[0]', `sourceUrl is the only supported data field for LocalPost MediaItem (got ${extra.join(', ')})`];
    if (!isUrl(m.sourceUrl)) return ['media[0].source_url', 'sourceUrl must be a public http(s) URL'];
    const photo = m.mediaFormat === 'PHOTO';
    const max = photo ? 5 * 1024 * 1024 : opts.videoMaxBytes ?? 75 * 1024 * 1024;
    const r = await fetchMedia(m.sourceUrl as string, opts.mediaFetch, { maxBytes: max + 1, timeoutMs: 30_000 });
    if (!r.ok) {
      if (r.refused && /larger than the limit|bytes; the limit is/.test(r.error)) return ['media[0].source_url', photo ? `The photo must be at most ${max} bytes` : `The video must be at most ${max} bytes`];
      return ['media[0].source_url', `Unable to fetch the media from sourceUrl (${r.error})`];
    }
    const info = mediaInfo(r.bytes);
    if (photo) {
      if (info.format !== 'jpeg' && info.format !== 'png') return ['media[0].source_url', `Photos must be JPG or PNG (got ${info.format})`];
      if (r.bytes.length < 10 * 1024) return ['media[0].source_url', `The photo must be at least 10240 bytes (got ${r.bytes.length})`];
      if (r.bytes.length > max) return ['media[0].source_url', `The photo must be at most ${max} bytes (got ${r.bytes.length})`];
      if ((info.width ?? 0) < 250 || (info.height ?? 0) < 250) return ['media[0].source_url', `The photo must be at least 250 x 250 pixels (got ${info.width} x ${info.height})`];
      return null;
    }
    if (info.format !== 'mp4' && info.format !== 'mov') return ['media[0].source_url', `Unsupported video format (${info.format}); MP4 or MOV expected`];
    if (r.bytes.length > max) return ['media[0].source_url', `The video must be at most ${max} bytes (got ${r.bytes.length})`];
    const maxS = opts.videoMaxSeconds ?? 30;
    if (info.durationSeconds === undefined || info.durationSeconds > maxS) return ['media[0].source_url', `The video must be at most ${maxS} seconds long (got ${info.durationSeconds ?? '?'})`];
    if (Math.min(info.width ?? 0, info.height ?? 0) < 720) return ['media[0].source_url', `The video must be 720p or higher (got ${info.width} x ${info.height})`];
    return null;
  }

  /** The LocalPost's field violation, or null (checks in the order Google's reference lists the fields). */
  async function postProblem(b: Record<string, unknown>): Promise<[string, string] | null> {
    const topic = b.topicType;
    if (!['STANDARD', 'EVENT', 'OFFER', 'ALERT'].includes(topic as string)) return ['topic_type', `Invalid value for topicType: ${String(topic ?? '(missing)')}`];
    if (topic === 'ALERT' && b.alertType !== 'COVID_19') return ['alert_type', 'alertType is required for ALERT posts'];
    if (b.summary !== undefined && (typeof b.summary !== 'string' || b.summary.length > 1500)) return ['summary', 'summary must be at most 1500 characters'];
    if (b.languageCode !== undefined && (typeof b.languageCode !== 'string' || !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(b.languageCode))) return ['language_code', 'languageCode is not a valid BCP-47 language code'];
    if (topic === 'EVENT' || topic === 'OFFER') {
      const e = b.event;
      if (!isObj(e)) return ['event', 'event is required for EVENT and OFFER posts'];
      if (typeof e.title !== 'string' || !e.title.trim()) return ['event.title', 'event.title is required'];
      const s = e.schedule;
      if (!isObj(s)) return ['event.schedule', 'event.schedule is required'];
      const sd = validDate(s.startDate);
      if (sd === null) return ['event.schedule.start_date', 'event.schedule.startDate is not a valid date'];
      const ed = validDate(s.endDate);
      if (ed === null) return ['event.schedule.end_date', 'event.schedule.endDate is not a valid date'];
      const st = timeMs(s.startTime, 0);
      const et = timeMs(s.endTime, 86_399_000);
      if (st === null || et === null) return ['event.schedule', 'startTime and endTime must be valid times of day'];
      if (ed + et <= sd + st) return ['event.schedule', 'The event\'s end must be after its start'];
    }
    if (b.offer !== undefined) {
      if (topic !== 'OFFER') return ['offer', 'offer can only be set on OFFER posts'];
      if (!isObj(b.offer)) return ['offer', 'offer must be an object'];
      if (b.offer.redeemOnlineUrl !== undefined && !isUrl(b.offer.redeemOnlineUrl)) return ['offer.redeem_online_url', 'offer.redeemOnlineUrl is not a valid URL'];
    }
    if (b.callToAction !== undefined && topic !== 'OFFER') {
      const c = b.callToAction;
      if (!isObj(c) || !ACTION_TYPES.includes(c.actionType as string)) {
        return ['call_to_action.action_type', `Invalid value for callToAction.actionType: ${isObj(c) ? String(c.actionType) : '(missing)'}${isObj(c) && c.actionType === 'GET_OFFER' ? ' (deprecated)' : ''}`];
      }
      if (c.actionType === 'CALL' && c.url !== undefined) return ['call_to_action.url', 'callToAction.url must be left unset for CALL'];
      if (c.actionType !== 'CALL' && !isUrl(c.url)) return ['call_to_action.url', `callToAction.url is required for ${c.actionType}`];
    }
    const media = b.media;
    if (media !== undefined) {
      if (!Array.isArray(media)) return ['media', 'media must be a list'];
      if (media.length > 1) return ['media', 'A local post takes at most one media item'];
      if (media.length === 1) return mediaProblem(isObj(media[0]) ? media[0] : {});
    }
    return null;
  }

  app.post('/v4/accounts/:a/locations/:l/localPosts', async (req, reply) => {
    const f = await fault('create', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    const loc = locationOf(req, reply);
    if (!loc) return reply;
    const b = { ...((req.body ?? {}) as Record<string, unknown>) };
    for (const k of ['name', 'createTime', 'updateTime', 'state', 'searchUrl']) delete b[k]; // output only
    const problem = await postProblem(b);
    if (problem) return badRequest(reply, problem[0], problem[1]);
    if (b.topicType === 'OFFER') delete b.callToAction; // "Ignored for topic type OFFER"
    if (!writeAllowed(reply)) return reply;
    const verdict = typeof b.summary === 'string' && PHONE.test(b.summary) ? 'REJECTED' : 'LIVE';
    const now = Date.now();
    const p: SimLocalPost = {
      name: `${parentOf(loc)}/localPosts/${postId()}`, location: parentOf(loc), body: b, createTime: new Date(now).toISOString(),
      state: moderation.ms <= 0 ? verdict : 'PROCESSING', decideAt: now + moderation.ms, verdict,
    };
    posts.push(p);
    if (droppedAfterCreate(f, req)) return reply;
    return postView(p);
  });

  app.get('/v4/accounts/:a/locations/:l/localPosts', async (req, reply) => {
    const f = await fault('list', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    const loc = locationOf(req, reply);
    if (!loc) return reply;
    const mine = newestFirst(posts.filter((p) => p.location === parentOf(loc)), (p) => Date.parse(p.createTime));
    return pageOf(mine.map(postView), req.query as Record<string, string>, reply, 'localPosts', 20, 100);
  });

  const findPost = (req: FastifyRequest) => {
    const { a, l, p } = req.params as { a: string; l: string; p: string };
    return posts.findIndex((x) => x.name === `accounts/${a}/locations/${l}/localPosts/${p}`);
  };
  app.get('/v4/accounts/:a/locations/:l/localPosts/:p', async (req, reply) => {
    const f = await fault('get', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    if (!locationOf(req, reply)) return reply;
    const i = findPost(req);
    if (i < 0) return gerr(reply, 404, 'Requested entity was not found.');
    return postView(posts[i]);
  });
  /**
   * Patch a local post (https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/patch):
   * `PATCH /v4/{name}?updateMask=summary,...` with the LocalPost; only the fields the mask names
   * change (a mask is required; output-only fields cannot be named); the result follows the create
   * rules and goes through moderation again (PROCESSING, then LIVE or REJECTED).
   */
  app.patch('/v4/accounts/:a/locations/:l/localPosts/:p', async (req, reply) => {
    const f = await fault('patch', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    if (!locationOf(req, reply)) return reply;
    const i = findPost(req);
    if (i < 0) return gerr(reply, 404, 'Requested entity was not found.');
    const mask = String((req.query as Record<string, string>).updateMask ?? '').split(',').map((x) => x.trim()).filter(Boolean);
    if (mask.length === 0) return badRequest(reply, 'update_mask', 'updateMask is required');
    const writable = ['summary', 'callToAction', 'event', 'offer', 'media', 'topicType', 'alertType', 'languageCode'];
    const bad = mask.find((m) => !writable.includes(m));
    if (bad) return badRequest(reply, 'update_mask', `Invalid field in updateMask: ${bad}`);
    const b = (req.body ?? {}) as Record<string, unknown>;
    const next = { ...posts[i].body };
    for (const m of mask) { if (b[m] === undefined) delete next[m]; else next[m] = b[m]; }
    const problem = await postProblem(next);
    if (problem) return badRequest(reply, problem[0], problem[1]);
    if (!writeAllowed(reply)) return reply;
    const p = posts[i];
    const now = Date.now();
    p.body = next;
    p.verdict = typeof next.summary === 'string' && PHONE.test(next.summary) ? 'REJECTED' : 'LIVE';
    p.state = moderation.ms <= 0 ? p.verdict : 'PROCESSING';
    p.decideAt = now + moderation.ms;
    p.updateTime = new Date(now).toISOString();
    return postView(p);
  });

  app.delete('/v4/accounts/:a/locations/:l/localPosts/:p', async (req, reply) => {
    const f = await fault('delete', reply, req);
    if (f === 'handled') return reply;
    if (!authed(req, reply)) return reply;
    if (!locationOf(req, reply)) return reply;
    const i = findPost(req);
    if (i < 0) return gerr(reply, 404, 'Requested entity was not found.');
    if (!writeAllowed(reply)) return reply;
    posts.splice(i, 1);
    return {};
  });

  faults.route(app);
  const url = await listen(app);
  return {
    url, app, clientId, clientSecret, calls, accounts, locations, posts, moderation, parentOf,
    moderate(name, state) {
      const p = posts.find((x) => x.name === name);
      if (!p) throw new Error(`no post ${name}`);
      p.state = state;
      p.verdict = state;
    },
    addPost(loc, summary, at = new Date()) {
      const p: SimLocalPost = {
        name: `${parentOf(loc)}/localPosts/${postId()}`, location: parentOf(loc), body: { topicType: 'STANDARD', summary, languageCode: 'en' },
        createTime: at.toISOString(), state: 'LIVE', decideAt: at.getTime(), verdict: 'LIVE',
      };
      posts.push(p);
      return p;
    },
    ...simControls(app, faults, access, () => { access.clear(); refresh.clear(); }),
  };
}

await runAsMain(import.meta.url, 'googlebusiness', startGoogleBusinessSimulator, (s) => ({ clientId: s.clientId, clientSecret: s.clientSecret }));
