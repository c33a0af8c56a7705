/**
 * LinkedIn API simulator: a real HTTP server on loopback speaking the parts of LinkedIn's
 * API Herald uses, with its paths, URN formats, status values, error bodies and rules
 * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/multiimage-post-api,
 * .../shares/videos-api, https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/rate-limits):
 * - OAuth: /oauth/v2/authorization approves at once (no UI); /oauth/v2/accessToken (form
 *   client_id/client_secret) issues 60-day tokens; refresh tokens only when `partner` is set
 *   (365 days from first consent, expiry not extended on refresh); GET /v2/userinfo.
 * - Every /rest/* call needs `LinkedIn-Version: YYYYMM` (missing: 400 VERSION_MISSING; unknown
 *   or sunset: 426 NONEXISTENT_VERSION) and a valid token (401 with serviceErrorCode 65601
 *   REVOKED_ACCESS_TOKEN for revoked ones, EXPIRED_ACCESS_TOKEN for expired ones).
 * - organizationAcls (roleAssignee finder), organizations/{id}; images, documents and videos
 *   (initializeUpload, PUT to the upload URL, video parts with ETags + finalizeUpload, status
 *   PROCESSING -> AVAILABLE or PROCESSING_FAILED; images read from the bytes on upload: JPG, GIF
 *   or PNG, fewer than 36,152,320 pixels, GIFs up to 250 frames, else 400 ILLEGAL_ARGUMENT,
 *   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/images-api);
 *   POST /rest/posts (201, empty body,
 *   x-restli-id; 3,000 characters of the escaped commentary as sent; little-text reserved characters must be escaped; mentions
 *   of organizations by numeric id; multiImage 2-20; media must belong to the author and be
 *   AVAILABLE; organization authors need an ADMINISTRATOR role; 422 DUPLICATE_POST for the same
 *   commentary from the same author); GET /rest/posts?q=author (members need the restricted
 *   r_member_social, which Herald does not request: 403; newest first by sortBy, paged with
 *   start/count, count at most 100); socialActions comments (1,250 characters).
 * - Daily post limit per member (429), faults for tests (addFault / POST /__sim/faults).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { listen, runAsMain, simApp, simControls, type SimulatorBase } from '../common/app.ts';
import { droppedAfterCreate, FaultQueue } from '../common/faults.ts';
import { MetricsBook } from '../common/metrics.ts';
import { newestFirst } from '../common/lists.ts';
import { mediaInfo } from '../common/media-info.ts';
import { authorizeRoute, bearerToken, takeCode } from '../common/oauth.ts';

export interface LinkedInSimOrg { id: number; localizedName: string; vanityName: string; role: string; state: 'APPROVED' | 'REQUESTED' | 'REVOKED' }
export interface LinkedInSimOptions {
  clientId?: string;
  clientSecret?: string;
  /** The app is an approved Community Management partner: refresh tokens are granted. */
  partner?: boolean;
  /** Posts per member per UTC day (LinkedIn does not publish the number). Default 150. */
  dailyPostLimit?: number;
  /** Status polls a video stays PROCESSING. */
  processingPolls?: number;
  /** Window in which identical commentary from the same author is a duplicate, ms. Default 1 hour (UNCONFIRMED upstream). */
  duplicateWindowMs?: number;
  /** Oldest LinkedIn-Version accepted (YYYYMM). Default 202506. */
  oldestVersion?: string;
  /** Largest video part in bytes (LinkedIn: 4 MB). */
  videoPartBytes?: number;
  /** Commentary limit in characters, counted on the little text as sent (Posts API: 3,000). */
  maxCommentary?: number;
  /** Images must have fewer pixels than this (Images API: 36,152,320). */
  imageMaxPixels?: number;
  /** Most frames of an animated GIF (Images API: 250). */
  gifMaxFrames?: number;
}

type Fault = {
  op: 'post' | 'upload' | 'comment' | 'token' | 'list' | 'metrics' | 'update' | 'any';
  kind: 'rate_limit' | 'server_error' | 'expired_token' | 'slow' | 'drop' | 'drop_after_create' | 'processing_failed';
  count: number; delayMs?: number;
};

interface Token { userId: string; expires: number; scope: string[]; revoked: boolean }
interface Asset { urn: string; kind: 'image' | 'document' | 'video'; owner: string; bytes: number; expected?: number; parts?: Array<{ first: number; last: number; etag?: string }>; uploadToken?: string; status: 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED'; reason?: string; polls: number; failOnProcess?: boolean; data?: Buffer }
export interface LinkedInSimPost {
  id: string; author: string; commentary: string; visibility: string; content?: Record<string, unknown>; createdAt: number; comments: Array<{ id: string; actor: string; text: string }>;
  /** Set by a partial update (POST /rest/posts/{urn} with X-RestLi-Method: PARTIAL_UPDATE). */
  lastModifiedAt?: number;
}

export interface LinkedInSimulator extends SimulatorBase<Fault> {
  member: { sub: string; name: string };
  orgs: LinkedInSimOrg[];
  posts: LinkedInSimPost[];
  assets: Map<string, Asset>;
  /** The organization posts' statistics (GET /rest/organizationalEntityShareStatistics). */
  metrics: MetricsBook;
  /** Creates a post directly, as if the author posted on LinkedIn itself (text only). */
  addPost(author: string, commentary: string, at?: Date): LinkedInSimPost;
  /** Revokes every access and refresh token (401 REVOKED_ACCESS_TOKEN). */
  revokeAll(): void;
}

const digits = (n: number) => Array.from({ length: n }, (_, i) => (i === 0 ? 1 + Math.floor(Math.random() * 9) : Math.floor(Math.random() * 10))).join('');
const liError = (reply: FastifyReply, status: number, message: string, code?: string, serviceErrorCode?: number, headers: Record<string, string> = {}) =>
  reply.status(status).headers(headers).send({ status, ...(serviceErrorCode !== undefined ? { serviceErrorCode } : {}), ...(code ? { code } : {}), message });

/** Reserved little-text characters outside escapes, mentions and hashtag templates; returns the first offending index or -1. */
function littleTextProblem(s: string): number {
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '\\') { i += 2; continue; }
    if (c === '@') {
      const m = /^@\[((?:\\.|[^\]\\])*)\]\((urn:li:(?:person|organization):[^)\s]+)\)/.exec(s.slice(i));
      if (!m) return i;
      i += m[0].length;
      continue;
    }
    if (c === '{') {
      const m = /^\{hashtag\|\\#\|((?:\\.|[^}\\])+)\}/.exec(s.slice(i));
      if (!m) return i;
      i += m[0].length;
      continue;
    }
    if ('|{}[]()<>#*_~'.includes(c)) return i;
    i++;
  }
  return -1;
}

export async function startLinkedInSimulator(opts: LinkedInSimOptions = {}): Promise<LinkedInSimulator> {
  const clientId = opts.clientId ?? 'sim-linkedin-client';
  const clientSecret = opts.clientSecret ?? 'sim-linkedin-secret';
  const member = { sub: randomBytes(6).toString('base64url').replace(/[-_]/g, 'x'), name: 'Herald LinkedIn Sim' };
  const orgs: LinkedInSimOrg[] = [
    { id: 2414183, localizedName: 'Herald Demo Co', vanityName: 'herald-demo', role: 'ADMINISTRATOR', state: 'APPROVED' },
    { id: 5550001, localizedName: 'Recruiting Only Inc', vanityName: 'recruiting-only', role: 'RECRUITING_POSTER', state: 'APPROVED' },
    { id: 7770002, localizedName: 'Former Admin Ltd', vanityName: 'former-admin', role: 'ADMINISTRATOR', state: 'REVOKED' },
  ];
  const codes = new Map<string, { redirectUri: string; expires: number; scope: string[] }>();
  const tokens = new Map<string, Token>();
  const refreshTokens = new Map<string, { userId: string; expires: number; scope: string[] }>();
  const assets = new Map<string, Asset>();
  const posts: LinkedInSimPost[] = [];
  const metrics = new MetricsBook();
  const calls = new Map<string, number>();
  const partSize = opts.videoPartBytes ?? 4 * 1024 * 1024;
  let base = '';

  const app = await simApp({ calls, bodyLimit: 256 * 1024 * 1024, raw: '*' });
  const faults = new FaultQueue<Fault>({
    rate_limit: (reply) => liError(reply, 429, 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.'),
    server_error: (reply) => liError(reply, 503, 'Service Unavailable'),
    expired_token: (reply) => liError(reply, 401, 'The token used in the request has expired', 'EXPIRED_ACCESS_TOKEN', 65602),
  });
  const fault = (op: Fault['op'], reply: FastifyReply, req: FastifyRequest) => faults.apply(op, reply, req);

  /** Token and version checks; returns the member id or null when answered. */
  function auth(req: FastifyRequest, reply: FastifyReply, rest = true): Token | null {
    if (rest) {
      const v = req.headers['linkedin-version'];
      if (!v) { liError(reply, 400, 'A version must be present. Please specify a version by adding the LinkedIn-Version header.', 'VERSION_MISSING'); return null; }
      if (typeof v !== 'string' || !/^\d{6}(\.\d{2})?$/.test(v) || v.slice(0, 6) < (opts.oldestVersion ?? '202506') || v.slice(0, 6) > '209912') {
        liError(reply, 426, `Requested version ${String(v)} is not active`, 'NONEXISTENT_VERSION'); return null;
      }
    }
    const token = bearerToken(req);
    const t = token ? tokens.get(token) : undefined;
    if (!t) { liError(reply, 401, 'Invalid access token', 'INVALID_ACCESS_TOKEN', 65600); return null; }
    if (t.revoked) { liError(reply, 401, 'The token used in the request has been revoked by the user', 'REVOKED_ACCESS_TOKEN', 65601); return null; }
    if (t.expires < Date.now()) { liError(reply, 401, 'The token used in the request has expired', 'EXPIRED_ACCESS_TOKEN', 65602); return null; }
    return t;
  }
  const denied = (reply: FastifyReply, what: string) => liError(reply, 403, `Not enough permissions to access: ${what}`, 'ACCESS_DENIED', 100);
  const orgOf = (urn: string) => { const m = /^urn:li:organization:(\d+)$/.exec(urn); return m ? orgs.find((o) => o.id === Number(m[1])) : undefined; };
  const isAdmin = (o: LinkedInSimOrg | undefined) => Boolean(o && o.state === 'APPROVED' && ['ADMINISTRATOR', 'CONTENT_ADMINISTRATOR', 'DIRECT_SPONSORED_CONTENT_POSTER'].includes(o.role));
  /** May this token act as `urn` (write)? Answers the 403 itself when not. */
  function mayActAs(t: Token, urn: string, reply: FastifyReply, what: string): boolean {
    if (urn === `urn:li:person:${t.userId}`) {
      if (!t.scope.includes('w_member_social')) { denied(reply, `${what} (w_member_social)`); return false; }
      return true;
    }
    const o = orgOf(urn);
    if (o && isAdmin(o) && t.scope.includes('w_organization_social')) return true;
    denied(reply, `${what} as ${urn}`);
    return false;
  }

  // OAuth ---------------------------------------------------------------------
  authorizeRoute(app, '/oauth/v2/authorization', codes, {
    required: ['response_type', 'client_id', 'redirect_uri', 'state', 'scope'],
    refuse: (q, missing, reply) => {
      if (missing.length) return reply.status(400).send({ error: 'invalid_request', error_description: `missing ${missing.join(', ')}` });
      if (q.client_id !== clientId) return reply.status(400).send({ error: 'invalid_client_id', error_description: 'The passed in client_id is invalid' });
      if (q.response_type !== 'code') return reply.status(400).send({ error: 'unsupported_response_type' });
      return undefined;
    },
    code: () => randomBytes(24).toString('base64url'),
    grant: (q) => ({ redirectUri: q.redirect_uri, expires: Date.now() + 30 * 60_000, scope: q.scope.split(/[\s,]+/).filter(Boolean) }),
    back: (q, code) => [['code', code], ['state', q.state]],
  });

  app.post('/oauth/v2/accessToken', async (req, reply) => {
    const f = await fault('token', reply, req);
    if (f === 'handled') return reply;
    const b = (req.body ?? {}) as Record<string, string>;
    if (b.client_id !== clientId || b.client_secret !== clientSecret) return reply.status(401).send({ error: 'invalid_client', error_description: 'Client authentication failed' });
    let scope: string[];
    let rt: { token: string; expires: number } | null = null;
    if (b.grant_type === 'authorization_code') {
      const c = takeCode(codes, b.code);
      if (!c) return reply.status(400).send({ error: 'invalid_request', error_description: 'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists' });
      if (c.redirectUri !== b.redirect_uri) return reply.status(400).send({ error: 'invalid_redirect_uri', error_description: 'Unable to retrieve access token: redirect_uri does not match' });
      scope = c.scope;
      if (opts.partner) {
        rt = { token: `AQ${randomBytes(24).toString('base64url')}`, expires: Date.now() + 365 * 86400_000 };
        refreshTokens.set(rt.token, { userId: member.sub, expires: rt.expires, scope });
      }
    } else if (b.grant_type === 'refresh_token') {
      if (!opts.partner) return reply.status(400).send({ error: 'unauthorized_client', error_description: 'The client is not authorized to use refresh tokens' });
      const r = refreshTokens.get(b.refresh_token);
      if (!r || r.expires < Date.now()) return reply.status(400).send({ error: 'invalid_grant', error_description: 'The provided authorization grant or refresh token is invalid, expired or revoked' });
      scope = r.scope;
      rt = { token: b.refresh_token, expires: r.expires }; // same refresh token, same fixed expiry
    } else {
      return reply.status(400).send({ error: 'unsupported_grant_type' });
    }
    const accessToken = `AQV${randomBytes(30).toString('base64url')}`;
    tokens.set(accessToken, { userId: member.sub, expires: Date.now() + 5_184_000_000, scope, revoked: false });
    return {
      access_token: accessToken, expires_in: 5_184_000, scope: scope.join(','), token_type: 'Bearer',
      ...(rt ? { refresh_token: rt.token, refresh_token_expires_in: Math.floor((rt.expires - Date.now()) / 1000) } : {}),
    };
  });

  app.get('/v2/userinfo', async (req, reply) => {
    const t = auth(req, reply, false);
    if (!t) return reply;
    if (!t.scope.includes('openid')) return denied(reply, 'userinfo (openid)');
    return { sub: member.sub, name: member.name, given_name: 'Herald', family_name: 'LinkedIn Sim', picture: 'https://media.licdn.com/dms/image/sim/profile.jpg', locale: { country: 'US', language: 'en' }, email_verified: true };
  });

  // Organizations -------------------------------------------------------------
  /**
   * An organization's post statistics (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/share-statistics):
   * `q=organizationalEntity`, the organization, and `shares=List(…)` / `ugcPosts=List(…)` of its posts;
   * one element per post with totalShareStatistics. The member must administer the organization.
   */
  app.get('/rest/organizationalEntityShareStatistics', async (req, reply) => {
    const f = await fault('metrics', reply, req);
    if (f === 'handled') return reply;
    const t = auth(req, reply);
    if (!t) return reply;
    const q = req.query as Record<string, string>;
    if (q.q !== 'organizationalEntity') return liError(reply, 400, 'q must be organizationalEntity', 'ILLEGAL_ARGUMENT');
    const org = orgOf(q.organizationalEntity ?? '');
    if (!org || org.state !== 'APPROVED' || org.role !== 'ADMINISTRATOR') return denied(reply, 'organizationalEntityShareStatistics');
    const list = (v: string | undefined) => (v ? /^List\((.*)\)$/.exec(v)?.[1]?.split(',').map((x) => decodeURIComponent(x)) ?? [] : []);
    const asked = [...list(q.shares).map((u) => ['share', u]), ...list(q.ugcPosts).map((u) => ['ugcPost', u])];
    const elements = asked.flatMap(([kind, urn]) => {
      const p = posts.find((x) => x.id === urn && x.author === q.organizationalEntity);
      if (!p) return [];
      const c = metrics.read(urn);
      const engagement = c.impressions ? (c.clicks + c.likes + c.comments + c.shares) / c.impressions : 0;
      return [{
        organizationalEntity: q.organizationalEntity, [kind]: urn,
        totalShareStatistics: { impressionCount: c.impressions, uniqueImpressionsCount: c.reach, clickCount: c.clicks, likeCount: c.likes, commentCount: c.comments, shareCount: c.shares, engagement },
      }];
    });
    return { paging: { count: 10, start: 0, links: [] }, elements };
  });

  app.get('/rest/organizationAcls', async (req, reply) => {
    const t = auth(req, reply);
    if (!t) return reply;
    const q = req.query as Record<string, string>;
    if (q.q !== 'roleAssignee') return liError(reply, 400, 'Unsupported finder', 'ILLEGAL_ARGUMENT');
    if (!t.scope.includes('rw_organization_admin') && !t.scope.includes('r_organization_admin')) return denied(reply, 'organizationAcls.FINDER-roleAssignee');
    const elements = orgs
      .filter((o) => (!q.role || o.role === q.role) && (!q.state || o.state === q.state))
      .map((o) => ({ organization: `urn:li:organization:${o.id}`, roleAssignee: `urn:li:person:${t.userId}`, role: o.role, state: o.state }));
    return { elements, paging: { start: 0, count: 10, links: [] } };
  });

  app.get('/rest/organizations/:id', async (req, reply) => {
    const t = auth(req, reply);
    if (!t) return reply;
    const id = (req.params as { id: string }).id;
    if (!/^\d+$/.test(id)) return liError(reply, 400, `Invalid organization id: ${id}`, 'ILLEGAL_ARGUMENT');
    const o = orgs.find((x) => x.id === Number(id));
    if (!o) return liError(reply, 404, `Organization ${id} does not exist`, 'NOT_FOUND');
    return { id: o.id, localizedName: o.localizedName, vanityName: o.vanityName, name: { localized: { en_US: o.localizedName }, preferredLocale: { country: 'US', language: 'en' } }, $URN: `urn:li:organization:${o.id}` };
  });

  // Media ---------------------------------------------------------------------
  const initUpload = (kind: 'image' | 'document') => async (req: FastifyRequest, reply: FastifyReply) => {
    const f = await fault('upload', reply, req);
    if (f === 'handled') return reply;
    const t = auth(req, reply);
    if (!t) return reply;
    if ((req.query as Record<string, string>).action !== 'initializeUpload') return liError(reply, 400, 'Unsupported action', 'ILLEGAL_ARGUMENT');
    const owner = (req.body as { initializeUploadRequest?: { owner?: string } })?.initializeUploadRequest?.owner ?? '';
    if (!mayActAs(t, owner, reply, `${kind}s.ACTION-initializeUpload`)) return reply;
    const a: Asset = { urn: `urn:li:${kind}:${kind === 'image' ? 'C4D' : 'D4E'}${randomBytes(10).toString('hex').toUpperCase()}`, kind, owner, bytes: 0, status: 'WAITING_UPLOAD', polls: 0, failOnProcess: f !== null && f.kind === 'processing_failed' };
    assets.set(a.urn, a);
    return { value: { uploadUrlExpiresAt: Date.now() + 86400_000, uploadUrl: `${base}/dms-uploads/${encodeURIComponent(a.urn)}`, [kind]: a.urn } };
  };
  app.post('/rest/images', initUpload('image'));
  app.post('/rest/documents', initUpload('document'));

  app.put('/dms-uploads/:urn', async (req, reply) => {
    const t = auth(req, reply, false);
    if (!t) return reply;
    const a = assets.get((req.params as { urn: string }).urn);
    if (!a || a.kind === 'video' || a.status !== 'WAITING_UPLOAD') return reply.status(400).send();
    const data = req.body as Buffer;
    if (!Buffer.isBuffer(data) || data.length === 0) return reply.status(400).send();
    a.bytes = data.length;
    if (a.kind === 'image') {
      // The Images API takes JPG, GIF and PNG, fewer than 36,152,320 pixels, GIFs up to 250 frames (read from the bytes).
      const info = mediaInfo(data);
      if (!['jpeg', 'png', 'gif'].includes(info.format)) return liError(reply, 400, `Unsupported image format: ${info.format}. Supported formats are JPG, GIF and PNG`, 'ILLEGAL_ARGUMENT');
      const maxPixels = opts.imageMaxPixels ?? 36_152_320;
      if (info.width && info.height && info.width * info.height >= maxPixels) {
        return liError(reply, 400, `Image has ${info.width * info.height} pixels (${info.width}x${info.height}); images must have fewer than ${maxPixels} pixels`, 'ILLEGAL_ARGUMENT');
      }
      const maxFrames = opts.gifMaxFrames ?? 250;
      if (info.format === 'gif' && (info.frames ?? 1) > maxFrames) return liError(reply, 400, `Animated GIF has ${info.frames} frames; at most ${maxFrames} frames are supported`, 'ILLEGAL_ARGUMENT');
    }
    if (a.kind === 'document' && data.subarray(0, 5).toString('latin1') !== '%PDF-') { a.status = 'PROCESSING_FAILED'; a.reason = 'Document is not a valid PDF'; return reply.status(201).send(); }
    a.status = a.failOnProcess ? 'PROCESSING_FAILED' : 'AVAILABLE';
    if (a.failOnProcess) a.reason = 'Media processing failed';
    return reply.status(201).send();
  });

  const assetStatus = (kind: 'image' | 'document' | 'video') => async (req: FastifyRequest, reply: FastifyReply) => {
    const t = auth(req, reply);
    if (!t) return reply;
    const a = assets.get(decodeURIComponent((req.params as { urn: string }).urn));
    if (!a || a.kind !== kind) return liError(reply, 404, 'Not found', 'NOT_FOUND');
    // Member tokens can only read videos (seen in a production scheduler's code, not in LinkedIn's docs).
    if (kind !== 'video' && !a.owner.startsWith('urn:li:organization:')) return denied(reply, `${kind}s.GET`);
    if (a.status === 'PROCESSING') {
      a.polls++;
      if (a.polls >= (opts.processingPolls ?? 1)) { a.status = a.failOnProcess ? 'PROCESSING_FAILED' : 'AVAILABLE'; if (a.failOnProcess) a.reason = 'Video codec is not supported'; }
    }
    return { id: a.urn, owner: a.owner, status: a.status, ...(a.reason ? { processingFailureReason: a.reason } : {}), ...(kind === 'video' ? { duration: 10000, aspectRatioWidth: 16, aspectRatioHeight: 9 } : {}) };
  };
  app.get('/rest/images/:urn', assetStatus('image'));
  app.get('/rest/documents/:urn', assetStatus('document'));
  app.get('/rest/videos/:urn', assetStatus('video'));

  app.post('/rest/videos', async (req, reply) => {
    const f = await fault('upload', reply, req);
    if (f === 'handled') return reply;
    const t = auth(req, reply);
    if (!t) return reply;
    const action = (req.query as Record<string, string>).action;
    if (action === 'initializeUpload') {
      const r = (req.body as { initializeUploadRequest?: { owner?: string; fileSizeBytes?: number } })?.initializeUploadRequest ?? {};
      if (!mayActAs(t, r.owner ?? '', reply, 'videos.ACTION-initializeUpload')) return reply;
      if (!r.fileSizeBytes || r.fileSizeBytes < 1) return liError(reply, 400, 'fileSizeBytes is required', 'ILLEGAL_ARGUMENT');
      if (r.fileSizeBytes > 500 * 1024 * 1024) return liError(reply, 400, 'Video file size exceeds the limit of 500 MB', 'ILLEGAL_ARGUMENT');
      const a: Asset = { urn: `urn:li:video:C5D${randomBytes(10).toString('hex').toUpperCase()}`, kind: 'video', owner: r.owner!, bytes: 0, expected: r.fileSizeBytes, parts: [], uploadToken: '', status: 'WAITING_UPLOAD', polls: 0, failOnProcess: f !== null && f.kind === 'processing_failed' };
      for (let first = 0, i = 0; first < r.fileSizeBytes; first += partSize, i++) a.parts!.push({ first, last: Math.min(first + partSize, r.fileSizeBytes) - 1 });
      assets.set(a.urn, a);
      return { value: { uploadUrlsExpireAt: Date.now() + 86400_000, video: a.urn, uploadToken: a.uploadToken,
        uploadInstructions: a.parts!.map((p, i) => ({ uploadUrl: `${base}/dms-uploads/video/${encodeURIComponent(a.urn)}/${i}`, firstByte: p.first, lastByte: p.last })) } };
    }
    if (action === 'finalizeUpload') {
      const r = (req.body as { finalizeUploadRequest?: { video?: string; uploadToken?: string; uploadedPartIds?: string[] } })?.finalizeUploadRequest ?? {};
      const a = assets.get(r.video ?? '');
      if (!a || a.kind !== 'video' || a.status !== 'WAITING_UPLOAD') return liError(reply, 400, 'Invalid video', 'ILLEGAL_ARGUMENT');
      if (r.uploadToken !== a.uploadToken) return liError(reply, 400, 'Invalid uploadToken', 'ILLEGAL_ARGUMENT');
      const expected = a.parts!.map((p) => p.etag);
      if (!Array.isArray(r.uploadedPartIds) || r.uploadedPartIds.length !== expected.length || r.uploadedPartIds.some((e, i) => e !== expected[i])) {
        return liError(reply, 400, 'uploadedPartIds do not match the uploaded parts (in order)', 'ILLEGAL_ARGUMENT');
      }
      a.status = 'PROCESSING';
      return reply.status(200).send({});
    }
    return liError(reply, 400, 'Unsupported action', 'ILLEGAL_ARGUMENT');
  });

  app.put('/dms-uploads/video/:urn/:part', async (req, reply) => {
    const t = auth(req, reply, false);
    if (!t) return reply;
    const { urn, part } = req.params as { urn: string; part: string };
    const a = assets.get(urn);
    const p = a?.parts?.[Number(part)];
    if (!a || !p || a.status !== 'WAITING_UPLOAD') return reply.status(400).send();
    const data = req.body as Buffer;
    if (!Buffer.isBuffer(data) || data.length !== p.last - p.first + 1) return reply.status(400).send({ message: `part ${part} must be bytes ${p.first}-${p.last}` });
    p.etag = `/ambry-video/signedId/${randomBytes(12).toString('hex')}`;
    a.bytes += data.length;
    return reply.status(200).header('etag', p.etag).send();
  });

  // Posts ---------------------------------------------------------------------
  const dayCount = new Map<string, { day: string; n: number }>();
  app.post('/rest/posts', async (req, reply) => {
    const f = await fault('post', reply, req);
    if (f === 'handled') return reply;
    const t = auth(req, reply);
    if (!t) return reply;
    const b = (req.body ?? {}) as { author?: string; commentary?: string; visibility?: string; distribution?: { feedDistribution?: string }; content?: Record<string, unknown>; lifecycleState?: string };
    if (!b.author || !b.distribution || !b.lifecycleState || !b.visibility) return liError(reply, 422, 'ERROR :: /author, /visibility, /distribution and /lifecycleState are required', 'MISSING_FIELD');
    if (!mayActAs(t, b.author, reply, 'partnerApiPostsExternal.CREATE')) return reply;
    const commentary = b.commentary ?? '';
    const maxCommentary = opts.maxCommentary ?? 3000;
    if ([...commentary].length > maxCommentary) return liError(reply, 422, `ERROR :: /commentary :: length of commentary exceeds ${maxCommentary}`, 'UNPROCESSABLE_ENTITY');
    const bad = littleTextProblem(commentary);
    if (bad >= 0) return liError(reply, 400, `Commentary has an unescaped reserved character "${commentary[bad]}" at ${bad} (little text format)`, 'ILLEGAL_ARGUMENT');
    for (const m of commentary.matchAll(/@\[(?:\\.|[^\]\\])*\]\(urn:li:organization:([^)]+)\)/g)) {
      if (!/^\d+$/.test(m[1])) return liError(reply, 400, `Invalid organization URN in mention: urn:li:organization:${m[1]}`, 'ILLEGAL_ARGUMENT');
    }
    if (!['PUBLIC', 'CONNECTIONS'].includes(b.visibility) || (b.visibility === 'CONNECTIONS' && b.author.startsWith('urn:li:organization:'))) {
      return liError(reply, 422, `ERROR :: /visibility :: ${b.visibility} is not allowed for this author`, 'UNPROCESSABLE_ENTITY');
    }
    const c = b.content;
    const ids: Array<{ id: string; kind: string }> = [];
    if (c) {
      const media = c.media as { id?: string; title?: string } | undefined;
      const multi = c.multiImage as { images?: Array<{ id?: string }> } | undefined;
      if (media) {
        const kind = /^urn:li:(image|video|document):/.exec(media.id ?? '')?.[1];
        if (!kind) return liError(reply, 422, 'ERROR :: /content/media/id :: invalid media URN', 'UNPROCESSABLE_ENTITY');
        if (kind === 'document' && !media.title) return liError(reply, 422, 'ERROR :: /content/media/title :: a document needs a title', 'UNPROCESSABLE_ENTITY');
        ids.push({ id: media.id!, kind });
      } else if (multi) {
        const imgs = multi.images ?? [];
        if (imgs.length < 2 || imgs.length > 20) return liError(reply, 422, 'ERROR :: /content/multiImage/images :: must contain 2 to 20 images', 'UNPROCESSABLE_ENTITY');
        for (const im of imgs) {
          if (!/^urn:li:image:/.test(im.id ?? '')) return liError(reply, 422, 'ERROR :: /content/multiImage/images :: only images are allowed', 'UNPROCESSABLE_ENTITY');
          ids.push({ id: im.id!, kind: 'image' });
        }
      } else {
        return liError(reply, 422, 'ERROR :: /content :: unsupported content', 'UNPROCESSABLE_ENTITY');
      }
      for (const m of ids) {
        const a = assets.get(m.id);
        if (!a || a.owner !== b.author) return liError(reply, 422, `ERROR :: /content :: ${m.id} does not exist or is not owned by ${b.author}`, 'UNPROCESSABLE_ENTITY');
        if (a.status !== 'AVAILABLE') return liError(reply, 422, `ERROR :: /content :: ${m.id} is not available (status ${a.status})`, 'UNPROCESSABLE_ENTITY');
      }
    } else if (!commentary) {
      return liError(reply, 422, 'ERROR :: /commentary :: a post needs commentary or content', 'UNPROCESSABLE_ENTITY');
    }
    const dup = posts.find((p) => p.author === b.author && p.commentary === commentary && Date.now() - p.createdAt < (opts.duplicateWindowMs ?? 3600_000));
    if (dup && commentary) return liError(reply, 422, `Content is a duplicate of ${dup.id}`, 'DUPLICATE_POST');
    const day = new Date().toISOString().slice(0, 10);
    const dc = dayCount.get(t.userId);
    const count = dc && dc.day === day ? dc.n : 0;
    if (count >= (opts.dailyPostLimit ?? 150)) return liError(reply, 429, 'Resource level throttle MEMBER DAY limit for calls to this resource is reached.');
    dayCount.set(t.userId, { day, n: count + 1 });
    const p: LinkedInSimPost = { id: `urn:li:share:${digits(19)}`, author: b.author, commentary, visibility: b.visibility, content: c, createdAt: Date.now(), comments: [] };
    posts.push(p);
    if (droppedAfterCreate(f, req)) return reply;
    return reply.status(201).headers({ 'x-restli-id': p.id, 'x-linkedin-id': p.id }).send();
  });

  /**
   * Find posts by author (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api):
   * `q=author`, `sortBy` LAST_MODIFIED (default) or CREATED, newest first; paged with `start`
   * and `count` (at most 100; more is refused), answering `paging {start, count, total, links}`
   * with a `next` link while more follow (https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/pagination).
   * No time filter exists.
   */
  /**
   * Delete a post (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#delete-posts):
   * `DELETE /rest/posts/{encoded post URN}` by someone who may act as its author answers 204; a post
   * that is already gone answers 204 too (the delete is idempotent).
   */
  /**
   * Update a post (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#update-posts):
   * `POST /rest/posts/{encoded URN}` with `X-RestLi-Method: PARTIAL_UPDATE` and `{patch: {$set: {...}}}`,
   * by someone who may act as its author; only commentary, contentCallToActionLabel,
   * contentLandingPage and lifecycleState may be set (422 otherwise: media, author and polls do not
   * change); the commentary follows the create rules (length, little text). 204.
   */
  app.post('/rest/posts/:urn', async (req, reply) => {
    const f = await fault('update', reply, req);
    if (f === 'handled') return reply;
    const t = auth(req, reply);
    if (!t) return reply;
    if (String(req.headers['x-restli-method'] ?? '').toUpperCase() !== 'PARTIAL_UPDATE') return liError(reply, 400, 'A POST to a post URN needs X-RestLi-Method: PARTIAL_UPDATE', 'ILLEGAL_ARGUMENT');
    const urn = decodeURIComponent((req.params as { urn: string }).urn);
    const p = posts.find((x) => x.id === urn);
    if (!p) return liError(reply, 404, `Post ${urn} not found`, 'NOT_FOUND');
    if (!mayActAs(t, p.author, reply, 'partnerApiPostsExternal.UPDATE')) return reply;
    const set = ((req.body ?? {}) as { patch?: { $set?: Record<string, unknown> } }).patch?.$set;
    if (!set || typeof set !== 'object') return liError(reply, 422, 'ERROR :: /patch/$set :: required', 'UNPROCESSABLE_ENTITY');
    const field = Object.keys(set).find((k) => !['commentary', 'contentCallToActionLabel', 'contentLandingPage', 'lifecycleState'].includes(k));
    if (field) return liError(reply, 422, `ERROR :: /patch/$set/${field} :: field cannot be updated`, 'UNPROCESSABLE_ENTITY');
    if (set.commentary !== undefined) {
      const commentary = typeof set.commentary === 'string' ? set.commentary : '';
      const maxCommentary = opts.maxCommentary ?? 3000;
      if ([...commentary].length > maxCommentary) return liError(reply, 422, `ERROR :: /commentary :: length of commentary exceeds ${maxCommentary}`, 'UNPROCESSABLE_ENTITY');
      const bad = littleTextProblem(commentary);
      if (bad >= 0) return liError(reply, 400, `Commentary has an unescaped reserved character "${commentary[bad]}" at ${bad} (little text format)`, 'ILLEGAL_ARGUMENT');
      if (!commentary && !p.content) return liError(reply, 422, 'ERROR :: /commentary :: a post needs commentary or content', 'UNPROCESSABLE_ENTITY');
      p.commentary = commentary;
    }
    p.lastModifiedAt = Date.now();
    return reply.status(204).send();
  });

  app.delete('/rest/posts/:urn', async (req, reply) => {
    const t = auth(req, reply);
    if (!t) return reply;
    const urn = decodeURIComponent((req.params as { urn: string }).urn);
    const i = posts.findIndex((p) => p.id === urn);
    if (i >= 0) {
      if (!mayActAs(t, posts[i].author, reply, 'partnerApiPostsExternal.DELETE')) return reply;
      posts.splice(i, 1);
    }
    return reply.status(204).send();
  });

  app.get('/rest/posts', async (req, reply) => {
    const f = await fault('list', reply, req);
    if (f === 'handled') return reply;
    const t = auth(req, reply);
    if (!t) return reply;
    const q = req.query as Record<string, string>;
    if (q.q !== 'author' || !q.author) return liError(reply, 400, 'Unsupported finder', 'ILLEGAL_ARGUMENT');
    if (q.author.startsWith('urn:li:person:')) {
      if (!t.scope.includes('r_member_social') || q.author !== `urn:li:person:${t.userId}`) return denied(reply, 'partnerApiPostsExternal.FINDER-author');
    } else if (!isAdmin(orgOf(q.author)) || !t.scope.includes('r_organization_social')) {
      return denied(reply, 'partnerApiPostsExternal.FINDER-author');
    }
    const count = q.count === undefined ? 10 : Number(q.count);
    const start = q.start === undefined ? 0 : Number(q.start);
    if (!Number.isInteger(count) || count < 1 || count > 100) return liError(reply, 400, `Invalid value for param 'count': ${q.count} (1 to 100)`, 'ILLEGAL_ARGUMENT');
    if (!Number.isInteger(start) || start < 0) return liError(reply, 400, `Invalid value for param 'start': ${q.start}`, 'ILLEGAL_ARGUMENT');
    const sortBy = q.sortBy ?? 'LAST_MODIFIED';
    if (sortBy !== 'LAST_MODIFIED' && sortBy !== 'CREATED') return liError(reply, 400, `Invalid value for param 'sortBy': ${sortBy}`, 'ILLEGAL_ARGUMENT');
    const all = newestFirst(posts.filter((p) => p.author === q.author), (p) => p.createdAt);
    const elements = all.slice(start, start + count)
      .map((p) => ({ id: p.id, author: p.author, commentary: p.commentary, visibility: p.visibility, createdAt: p.createdAt, lastModifiedAt: p.createdAt, lifecycleState: 'PUBLISHED', ...(p.content ? { content: p.content } : {}) }));
    const link = (s2: number) => `/rest/posts?${new URLSearchParams({ q: 'author', author: q.author, count: String(count), sortBy, start: String(s2) })}`;
    const links = [
      ...(start + count < all.length ? [{ type: 'application/json', rel: 'next', href: link(start + count) }] : []),
      ...(start > 0 ? [{ type: 'application/json', rel: 'prev', href: link(Math.max(0, start - count)) }] : []),
    ];
    return { elements, paging: { start, count, total: all.length, links } };
  });

  app.post('/rest/socialActions/:urn/comments', async (req, reply) => {
    const f = await fault('comment', reply, req);
    if (f === 'handled') return reply;
    const t = auth(req, reply);
    if (!t) return reply;
    const urn = decodeURIComponent((req.params as { urn: string }).urn);
    const p = posts.find((x) => x.id === urn);
    const b = (req.body ?? {}) as { actor?: string; object?: string; message?: { text?: string } };
    if (!p) return liError(reply, 404, `${urn} does not exist`, 'NOT_FOUND');
    if (b.object !== urn) return liError(reply, 400, 'object must be the post URN in the path', 'ILLEGAL_ARGUMENT');
    if (!mayActAs(t, b.actor ?? '', reply, 'socialActions.comments.CREATE')) return reply;
    const text = b.message?.text ?? '';
    if (!text) return liError(reply, 422, 'ERROR :: /message/text :: required', 'UNPROCESSABLE_ENTITY');
    if ([...text].length > 1250) return liError(reply, 422, 'ERROR :: /message/text :: length exceeds 1250', 'UNPROCESSABLE_ENTITY');
    const id = digits(19);
    p.comments.push({ id, actor: b.actor!, text });
    const commentUrn = `urn:li:comment:(${urn.replace('urn:li:share:', 'urn:li:activity:')},${id})`;
    return reply.status(201).header('x-restli-id', commentUrn).send({ id, actor: b.actor, object: urn, message: { text }, $URN: commentUrn });
  });

  faults.route(app);

  base = await listen(app);
  return {
    url: base, app, member, orgs, posts, assets, clientId, clientSecret, calls, metrics,
    addPost(author, commentary, at = new Date()) {
      const p: LinkedInSimPost = { id: `urn:li:share:${digits(19)}`, author, commentary, visibility: 'PUBLIC', createdAt: at.getTime(), comments: [] };
      posts.push(p);
      return p;
    },
    ...simControls(app, faults, tokens, () => { for (const t of tokens.values()) t.revoked = true; refreshTokens.clear(); }),
  };
}

await runAsMain(import.meta.url, 'linkedin', startLinkedInSimulator, (s) => ({ clientId: s.clientId, clientSecret: s.clientSecret }));
