/**
 * A Mastodon instance simulator (https://docs.joinmastodon.org/methods/), one per call with its
 * own limits: `startMastodonSimulator({ limits })` is an instance whose
 * `GET /api/v2/instance` states those limits and whose statuses and media endpoints enforce them,
 * so two simulators are two instances with different rules.
 *
 * What it serves, as the platform does:
 * - App registration `POST /api/v1/apps` (public; JSON or form) answering a CredentialApplication.
 * - OAuth: `GET /oauth/authorize` (approves at once as the simulated user and redirects with a
 *   single-use code; PKCE S256 only; `scope` must be a subset of the app's), `POST /oauth/token`
 *   (`authorization_code` with `client_id`/`client_secret` in the body or HTTP Basic; the code's
 *   `redirect_uri` and `code_verifier` checked; `invalid_client` 401 for an unknown or forgotten
 *   app, `invalid_grant` 400 otherwise), `POST /oauth/revoke`. Tokens never expire.
 * - `GET /api/v1/accounts/verify_credentials`, `GET /api/v2/instance`.
 * - `POST /api/v2/media` (multipart `file`, `description`): the file's real type is read from its
 *   bytes; images answer 200 (processed), video and GIFs 202 with `url: null`, and
 *   `GET /api/v1/media/:id` answers 206 until ready (`processingPolls` reads), then 200.
 * - `POST /api/v1/statuses` (JSON or form): the instance's character limit (content warning +
 *   text, graphemes, links as `characters_reserved_per_url`, `@user@domain` as `@user`), media
 *   count, video alone, not-ready media (422), poll rules, visibility; `Idempotency-Key`
 *   (per account, 1 hour) answers the same status again.
 * - `GET /api/v1/statuses/:id`, `DELETE /api/v1/statuses/:id` (30 per 30 minutes),
 *   `GET /api/v1/accounts/:id/statuses` (`limit` at most 40, `max_id`/`since_id`/`min_id`,
 *   `Link` header with `rel="next"` and `rel="prev"`).
 * - Throttles (config/initializers/rack_attack.rb): media uploads 30 per 30 minutes, deletes 30 per
 *   30 minutes, paged reads 300 per 15 minutes per account.
 * - Errors `{"error": "..."}` (OAuth: plus `error_description`), 401 "The access token is
 *   invalid", 403 "This action is outside the authorized scopes", 404 "Record not found", 422
 *   "Validation failed: ...", 429 with `X-RateLimit-*` on every response (300 calls per 5 minutes
 *   per token; https://docs.joinmastodon.org/api/rate-limits/).
 *
 * The 422 texts of poll and attachment validation are Mastodon's English locale strings as
 * remembered from its source (config/locales/en.yml, activerecord.en.yml): UNVERIFIED against the
 * current release; tests match on their key words. A poll sent with media answers the "too many
 * files" error, as PostStatusService raises it for both.
 *
 * Test controls: faults (`create`, `list`, `media`, `delete`, `metrics` (GET /api/v1/statuses/:id), `any`; kinds `rate_limit`,
 * `server_error`, `drop_after_create`, `drop`, `slow`), `revokeAll`, `forgetApps` (the instance
 * forgot its registered apps, as pre-4.3 vacuuming did), `addStatus`.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { listen, runAsMain, simApp, type SimulatorBase } from '../common/app.ts';
import { droppedAfterCreate, FaultQueue, type SimFault } from '../common/faults.ts';
import { mediaInfo, type MediaFormat } from '../common/media-info.ts';
import { MetricsBook } from '../common/metrics.ts';
import { pkceMatches } from '../common/oauth.ts';
import type { MastodonInstanceLimits } from '../../src/shared/capabilities.ts';

/** An instance's limits as `GET /api/v2/instance` states them (the shape Herald reads them into). */
export type MastodonSimLimits = MastodonInstanceLimits;

/** mastodon.social's configuration (the example of https://docs.joinmastodon.org/entities/Instance/). */
export const MASTODON_SOCIAL_LIMITS: MastodonSimLimits = {
  maxCharacters: 500, charactersReservedPerUrl: 23, maxMediaAttachments: 4,
  supportedMimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/heic', 'image/heif', 'image/webp', 'image/avif', 'video/webm', 'video/mp4', 'video/quicktime', 'video/ogg', 'audio/mpeg', 'audio/ogg', 'audio/wav'],
  imageSizeLimit: 16_777_216, imageMatrixLimit: 33_177_600, videoSizeLimit: 103_809_024, descriptionLimit: 1500,
  pollMaxOptions: 4, pollMaxCharactersPerOption: 50, pollMinExpiration: 300, pollMaxExpiration: 2_629_746,
};

export type MastodonFault = SimFault<'create' | 'list' | 'media' | 'delete' | 'metrics' | 'edit' | 'any', 'rate_limit' | 'server_error' | 'drop_after_create' | 'drop' | 'slow'>;

export interface SimMedia {
  id: string;
  owner: string;
  type: 'image' | 'gifv' | 'video';
  mime: string;
  size: number;
  description: string | null;
  /** Reads of GET /api/v1/media/:id left before it is processed. */
  pending: number;
  statusId: string | null;
}

export interface SimStatus {
  id: string;
  account: string;
  text: string;
  spoiler_text: string;
  in_reply_to_id: string | null;
  visibility: string;
  language: string | null;
  sensitive: boolean;
  media_ids: string[];
  poll: { options: string[]; expires_in: number; multiple: boolean; hide_totals: boolean } | null;
  created_at: string;
  application: { name: string } | null;
  /** When the status was last edited (PUT /api/v1/statuses/:id), else null. */
  edited_at?: string | null;
  /** Earlier versions of the text, oldest first (GET /api/v1/statuses/:id/history). */
  history?: string[];
}

export interface MastodonSimulator extends SimulatorBase<MastodonFault> {
  /** The instance's domain (`uri` of GET /api/v2/instance). */
  domain: string;
  limits: MastodonSimLimits;
  user: { id: string; username: string; display_name: string };
  statuses: SimStatus[];
  media: Map<string, SimMedia>;
  apps: Map<string, { client_secret: string; name: string; redirect_uris: string[]; scopes: string[] }>;
  /** Ids of the statuses deleted, in order. */
  deleted: string[];
  /** Registrations answered by POST /api/v1/apps. */
  registrations(): number;
  /** Forgets every registered app (token calls then answer invalid_client). */
  forgetApps(): void;
  /** Adds a status of the simulated user (e.g. posted from another app). */
  addStatus(text: string, extra?: Partial<SimStatus>): SimStatus;
  metrics: MetricsBook;
}

export interface MastodonSimOptions {
  limits?: Partial<MastodonSimLimits>;
  domain?: string;
  /** GET /api/v1/media/:id reads answering 206 before a video or GIF is ready (default 1). */
  processingPolls?: number;
  port?: number;
  /** Calls per 5 minutes per token (or address): Mastodon's default is 300 (https://docs.joinmastodon.org/api/rate-limits/). */
  rateLimit?: number;
  /** Media uploads per 30 minutes per account (default 30, `throttle_api_media`, which matches /api/v1 and /api/v2 media). */
  mediaRateLimit?: number;
  /** Paged reads (a `max_id`, `min_id` or `since_id`) per 15 minutes per account (default 300, `throttle_authenticated_paging`). */
  pagingRateLimit?: number;
}

const SCOPES_KNOWN = ['read', 'write', 'follow', 'push', 'profile', 'read:accounts', 'read:statuses', 'write:statuses', 'write:media', 'read:notifications'];
const FORMAT_MIME: Partial<Record<MediaFormat, string>> = {
  jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', heic: 'image/heic', mp4: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm',
};
const VISIBILITIES = ['public', 'unlisted', 'private', 'direct'];

/** `granted` covers `needed` (scopes are hierarchical: `write` covers `write:statuses`). */
const covers = (granted: string[], needed: string) => granted.includes(needed) || granted.includes(needed.split(':')[0]);

let segmenter: Intl.Segmenter | null = null;
/** The instance's count: content warning + text in graphemes, links as `perUrl` characters, `@user@domain` as `@user`. */
function statusLength(text: string, spoiler: string, perUrl: number): number {
  const countable = text
    .replace(/https?:\/\/\S+/gi, (u) => 'x'.repeat(perUrl) + (/[.,;:!?'")\]]+$/.exec(u)?.[0] ?? ''))
    .replace(/(^|[^\p{L}\p{N}_/])@([\p{L}\p{N}_]+(?:[.-]+[\p{L}\p{N}_]+)*)@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu, '$1@$2');
  return [...(segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' })).segment(spoiler + countable)].length;
}

const escapeHtml = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * A status's `content` as Mastodon's formatter writes it (app/lib/text_formatter.rb): escaped
 * text, paragraphs (`<p>`) split on blank lines and `<br />` for single line breaks; links as
 * anchors whose text is split in invisible scheme, shown start (30 characters) and invisible
 * rest; mentions as h-cards showing `@user` only; hashtags as tag links.
 */
function statusHtml(text: string, domain: string): string {
  const inline = (line: string) => {
    const parts: string[] = [];
    let last = 0;
    const re = /(https?:\/\/[^\s<]+[^\s<.,;:!?'")\]])|(?<![\p{L}\p{N}_/])@([\p{L}\p{N}_]+)(?:@([\p{L}\p{N}.-]+\.[\p{L}\p{N}-]+))?|(?<![\p{L}\p{N}_/])#([\p{L}\p{N}_]+)/gu;
    for (const m of line.matchAll(re)) {
      parts.push(escapeHtml(line.slice(last, m.index)));
      if (m[1]) {
        const [, scheme, rest] = /^(https?:\/\/(?:www\.)?)(.*)$/.exec(m[1])!;
        const shown = rest.slice(0, 30);
        parts.push(`<a href="${escapeHtml(m[1])}" target="_blank" rel="nofollow noopener" translate="no"><span class="invisible">${escapeHtml(scheme)}</span>`
          + `<span class="${rest.length > 30 ? 'ellipsis' : ''}">${escapeHtml(shown)}</span><span class="invisible">${escapeHtml(rest.slice(30))}</span></a>`);
      } else if (m[2]) {
        parts.push(`<span class="h-card" translate="no"><a href="https://${escapeHtml(m[3] ?? domain)}/@${escapeHtml(m[2])}" class="u-url mention">@<span>${escapeHtml(m[2])}</span></a></span>`);
      } else {
        parts.push(`<a href="https://${domain}/tags/${escapeHtml(m[4].toLowerCase())}" class="mention hashtag" rel="tag">#<span>${escapeHtml(m[4])}</span></a>`);
      }
      last = m.index + m[0].length;
    }
    parts.push(escapeHtml(line.slice(last)));
    return parts.join('');
  };
  return text.trim().split(/\n{2,}/).map((para) => `<p>${para.split('\n').map(inline).join('<br />')}</p>`).join('');
}

export async function startMastodonSimulator(opts: MastodonSimOptions = {}): Promise<MastodonSimulator> {
  const limits: MastodonSimLimits = { ...MASTODON_SOCIAL_LIMITS, ...opts.limits };
  const processingPolls = opts.processingPolls ?? 1;
  const rateLimit = opts.rateLimit ?? 300;
  const calls = new Map<string, number>();
  const apps: MastodonSimulator['apps'] = new Map();
  const codes = new Map<string, { clientId: string; redirectUri: string; scopes: string[]; challenge?: string; expires: number }>();
  const tokens = new Map<string, { clientId: string; scopes: string[]; account: string; appName: string }>();
  const user = { id: String(109_000_000_000_000_000n + BigInt(Math.floor(Math.random() * 1e9))), username: 'herald', display_name: 'Herald Mastodon Sim' };
  const statuses: SimStatus[] = [];
  const media = new Map<string, SimMedia>();
  const idempotency = new Map<string, { statusId: string; at: number }>();
  const metrics = new MetricsBook();
  const deleted: string[] = [];
  let registrations = 0;
  // Snowflake-like ids: the clock in the high bits, a sequence below (time-sortable, longer = newer).
  let seq = 0n;
  const nextId = () => ((BigInt(Date.now()) << 16n) + (seq++ % 65536n)).toString();
  const windows = new Map<string, { start: number; used: number }>();
  const deletes = new Map<string, number[]>();
  const uploads = new Map<string, number[]>();
  const pagedReads = new Map<string, number[]>();
  /** Counts one call of `key` in a sliding window; true when it goes over `limit` (then answered 429 with X-RateLimit-* of that window). */
  function throttled(book: Map<string, number[]>, key: string, limit: number, windowMs: number, reply: FastifyReply): boolean {
    const now = Date.now();
    const recent = (book.get(key) ?? []).filter((x) => now - x < windowMs);
    if (recent.length >= limit) {
      reply.header('x-ratelimit-limit', String(limit)).header('x-ratelimit-remaining', '0').header('x-ratelimit-reset', new Date((recent[0] ?? now) + windowMs).toISOString());
      err(reply, 429, 'Too many requests');
      return true;
    }
    book.set(key, [...recent, now]);
    return false;
  }

  const err = (reply: FastifyReply, status: number, error: string, extra: Record<string, unknown> = {}) => reply.code(status).send({ error, ...extra });
  const faults = new FaultQueue<MastodonFault>({
    rate_limit: (reply) => { reply.header('x-ratelimit-remaining', '0'); return err(reply, 429, 'Too many requests'); },
    server_error: (reply) => err(reply, 503, 'Remote data could not be fetched'),
  });
  const app = await simApp({ calls, multipartFileSize: 200 * 1024 * 1024, bodyLimit: 10 * 1024 * 1024 });
  faults.route(app);
  const domain = opts.domain ?? 'mastodon.sim';

  // X-RateLimit-* on every answer: 300 calls per 5 minutes per token (or per address).
  app.addHook('onRequest', async (req, reply) => {
    const key = bearer(req) ?? req.ip;
    const now = Date.now();
    let w = windows.get(key);
    if (!w || now - w.start >= 300_000) windows.set(key, w = { start: now, used: 0 });
    w.used++;
    reply.header('x-ratelimit-limit', String(rateLimit));
    reply.header('x-ratelimit-remaining', String(Math.max(0, rateLimit - w.used)));
    reply.header('x-ratelimit-reset', new Date(w.start + 300_000).toISOString());
    if (w.used > rateLimit) return err(reply, 429, 'Too many requests');
  });

  function bearer(req: FastifyRequest): string | undefined {
    return /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  }
  /** The token's grant, or the 401/403 answer. */
  function auth(req: FastifyRequest, reply: FastifyReply, scope: string) {
    const t = tokens.get(bearer(req) ?? '');
    if (!t) { err(reply, 401, 'The access token is invalid'); return null; }
    if (!covers(t.scopes, scope)) { err(reply, 403, 'This action is outside the authorized scopes'); return null; }
    return t;
  }
  /**
   * Reads that work without a token but check one that is sent (Mastodon's `authorize_if_got_token!`):
   * an unknown token is 401. Answers the grant (undefined without a token), or null once answered.
   */
  function optionalAuth(req: FastifyRequest, reply: FastifyReply) {
    const sent = bearer(req);
    if (sent === undefined) return undefined;
    const t = tokens.get(sent);
    if (!t) { err(reply, 401, 'The access token is invalid'); return null; }
    return t;
  }
  const body = (req: FastifyRequest) => (req.body && typeof req.body === 'object' ? req.body as Record<string, unknown> : {});
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? v.split(/[\s,]+/).filter(Boolean) : []);

  function render(s: SimStatus) {
    const c = metrics.read(s.id);
    return {
      id: s.id, created_at: s.created_at, in_reply_to_id: s.in_reply_to_id, in_reply_to_account_id: s.in_reply_to_id ? user.id : null,
      sensitive: s.sensitive, spoiler_text: s.spoiler_text, visibility: s.visibility, language: s.language,
      uri: `https://${domain}/users/${user.username}/statuses/${s.id}`, url: `https://${domain}/@${user.username}/${s.id}`,
      replies_count: c.comments, reblogs_count: c.shares, favourites_count: c.likes,
      content: statusHtml(s.text, domain), text: null, edited_at: s.edited_at ?? null,
      application: s.application, account: { id: user.id, username: user.username, acct: user.username, display_name: user.display_name },
      media_attachments: s.media_ids.map((id) => renderMedia(media.get(id)!)),
      poll: s.poll ? { id: s.id, expires_at: new Date(Date.parse(s.created_at) + s.poll.expires_in * 1000).toISOString(), multiple: s.poll.multiple, options: s.poll.options.map((title) => ({ title, votes_count: s.poll!.hide_totals ? null : 0 })) } : null,
    };
  }
  function renderMedia(m: SimMedia) {
    const ready = m.pending <= 0;
    return { id: m.id, type: m.type, url: ready ? `https://${domain}/media/${m.id}` : null, preview_url: `https://${domain}/media/${m.id}/small`, description: m.description, meta: {} };
  }

  // ---- app registration and OAuth ------------------------------------------------------------
  app.post('/api/v1/apps', async (req, reply) => {
    const b = body(req);
    const name = typeof b.client_name === 'string' ? b.client_name : '';
    const redirects = list(b.redirect_uris);
    if (!name) return err(reply, 422, "Validation failed: Application name can't be blank");
    if (!redirects.length || !redirects.every((u) => u === 'urn:ietf:wg:oauth:2.0:oob' || /^https?:\/\//.test(u))) return err(reply, 422, 'Validation failed: Redirect URI must be an absolute URI.');
    const scopes = list(b.scopes ?? 'read');
    if (!scopes.every((s) => SCOPES_KNOWN.includes(s))) return err(reply, 422, 'Validation failed: Scopes must be valid');
    const clientId = randomBytes(24).toString('base64url');
    const secret = randomBytes(24).toString('base64url');
    apps.set(clientId, { client_secret: secret, name, redirect_uris: redirects, scopes });
    registrations++;
    return { id: String(apps.size), name, website: b.website ?? null, scopes, redirect_uri: redirects.join('\n'), redirect_uris: redirects, client_id: clientId, client_secret: secret, client_secret_expires_at: 0 };
  });

  app.get('/oauth/authorize', async (req, reply) => {
    const q = req.query as Record<string, string>;
    const a = apps.get(q.client_id ?? '');
    if (!a) return err(reply, 401, 'invalid_client', { error_description: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.' });
    if (!q.redirect_uri || !a.redirect_uris.includes(q.redirect_uri)) return err(reply, 400, 'invalid_redirect_uri', { error_description: 'The redirect uri included is not valid.' });
    if (q.response_type !== 'code') return err(reply, 400, 'unsupported_response_type', { error_description: 'The authorization server does not support this response type.' });
    const scopes = list(q.scope ?? 'read');
    if (!scopes.every((s) => a.scopes.includes(s))) return err(reply, 400, 'invalid_scope', { error_description: 'The requested scope is invalid, unknown, or malformed.' });
    if (q.code_challenge && q.code_challenge_method !== 'S256') return err(reply, 400, 'invalid_request', { error_description: 'Code challenge method must be S256.' });
    const code = randomBytes(24).toString('base64url');
    codes.set(code, { clientId: q.client_id, redirectUri: q.redirect_uri, scopes, challenge: q.code_challenge, expires: Date.now() + 600_000 });
    const to = new URL(q.redirect_uri);
    to.searchParams.set('code', code);
    if (q.state) to.searchParams.set('state', q.state);
    return reply.redirect(to.toString(), 302);
  });

  function clientOf(req: FastifyRequest): { id?: string; secret?: string } {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (basic) {
      const [id, secret] = Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent);
      return { id, secret };
    }
    const b = body(req);
    return { id: b.client_id as string | undefined, secret: b.client_secret as string | undefined };
  }
  const invalidClient = (reply: FastifyReply) => err(reply, 401, 'invalid_client', { error_description: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.' });

  app.post('/oauth/token', async (req, reply) => {
    const b = body(req);
    const c = clientOf(req);
    const a = apps.get(c.id ?? '');
    if (!a || a.client_secret !== c.secret) return invalidClient(reply);
    if (b.grant_type !== 'authorization_code') return err(reply, 400, 'unsupported_grant_type', { error_description: 'The authorization grant type is not supported by the authorization server.' });
    const grant = codes.get(String(b.code ?? ''));
    codes.delete(String(b.code ?? ''));
    const invalidGrant = () => err(reply, 400, 'invalid_grant', { error_description: 'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.' });
    if (!grant || grant.expires < Date.now() || grant.clientId !== c.id || grant.redirectUri !== b.redirect_uri) return invalidGrant();
    if (grant.challenge && !pkceMatches(b.code_verifier as string | undefined, grant.challenge)) return invalidGrant();
    const token = randomBytes(32).toString('base64url');
    tokens.set(token, { clientId: c.id!, scopes: grant.scopes, account: user.id, appName: a.name });
    return { access_token: token, token_type: 'Bearer', scope: grant.scopes.join(' '), created_at: Math.floor(Date.now() / 1000) };
  });

  app.post('/oauth/revoke', async (req, reply) => {
    const c = clientOf(req);
    const a = apps.get(c.id ?? '');
    if (!a || a.client_secret !== c.secret) return err(reply, 403, 'unauthorized_client', { error_description: 'You are not authorized to revoke this token' });
    tokens.delete(String(body(req).token ?? ''));
    return {};
  });

  // ---- instance and account ------------------------------------------------------------------
  app.get('/api/v2/instance', async () => ({
    domain, title: `Simulated ${domain}`, version: '4.3.0', api_versions: { mastodon: 2 },
    configuration: {
      urls: { streaming: `wss://${domain}` },
      statuses: { max_characters: limits.maxCharacters, max_media_attachments: limits.maxMediaAttachments, characters_reserved_per_url: limits.charactersReservedPerUrl },
      media_attachments: {
        supported_mime_types: limits.supportedMimeTypes, description_limit: limits.descriptionLimit, image_size_limit: limits.imageSizeLimit,
        image_matrix_limit: limits.imageMatrixLimit, video_size_limit: limits.videoSizeLimit, video_frame_rate_limit: 120, video_matrix_limit: 8_294_400,
      },
      polls: { max_options: limits.pollMaxOptions, max_characters_per_option: limits.pollMaxCharactersPerOption, min_expiration: limits.pollMinExpiration, max_expiration: limits.pollMaxExpiration },
    },
  }));

  app.get('/api/v1/accounts/verify_credentials', async (req, reply) => {
    const t = tokens.get(bearer(req) ?? '');
    if (!t) return err(reply, 401, 'The access token is invalid');
    if (!covers(t.scopes, 'read:accounts') && !t.scopes.includes('profile')) return err(reply, 403, 'This action is outside the authorized scopes');
    return { id: user.id, username: user.username, acct: user.username, display_name: user.display_name, url: `https://${domain}/@${user.username}`, avatar: `https://${domain}/avatars/${user.id}.png` };
  });

  // ---- media ---------------------------------------------------------------------------------
  app.post('/api/v2/media', async (req, reply) => {
    const t = auth(req, reply, 'write:media');
    if (!t) return reply;
    const f = await faults.apply('media', reply, req);
    if (f === 'handled') return reply;
    if (throttled(uploads, t.account, opts.mediaRateLimit ?? 30, 1_800_000, reply)) return reply;
    if (!req.isMultipart()) return err(reply, 422, 'Validation failed: File content type is invalid, File is invalid');
    let bytes: Buffer | null = null;
    let description: string | null = null;
    for await (const part of req.parts()) {
      if (part.type === 'file' && part.fieldname === 'file') bytes = await part.toBuffer();
      else if (part.type === 'field' && part.fieldname === 'description') description = String(part.value);
    }
    if (!bytes) return err(reply, 422, 'Validation failed: File content type is invalid, File is invalid');
    const info = mediaInfo(bytes);
    const mime = FORMAT_MIME[info.format];
    if (!mime || !limits.supportedMimeTypes.includes(mime)) return err(reply, 422, 'Validation failed: File content type is invalid, File is invalid');
    const isVideo = mime.startsWith('video/');
    const type: SimMedia['type'] = isVideo ? 'video' : info.format === 'gif' ? 'gifv' : 'image';
    if (!isVideo && bytes.length > limits.imageSizeLimit) return err(reply, 422, `Validation failed: File file size must be less than ${limits.imageSizeLimit} Bytes`);
    if (isVideo && bytes.length > limits.videoSizeLimit) return err(reply, 422, `Validation failed: File file size must be less than ${limits.videoSizeLimit} Bytes`);
    if (!isVideo && info.width && info.height && info.width * info.height > limits.imageMatrixLimit) return err(reply, 422, `${info.width}x${info.height} images are not supported`);
    if (description && [...description].length > limits.descriptionLimit) return err(reply, 422, `Validation failed: Description is too long (maximum is ${limits.descriptionLimit} characters)`);
    const m: SimMedia = { id: nextId(), owner: t.account, type, mime, size: bytes.length, description, pending: type === 'image' ? 0 : processingPolls, statusId: null };
    media.set(m.id, m);
    return reply.code(m.pending > 0 ? 202 : 200).send(renderMedia(m));
  });

  app.get('/api/v1/media/:id', async (req, reply) => {
    const t = auth(req, reply, 'write:media');
    if (!t) return reply;
    const m = media.get((req.params as { id: string }).id);
    if (!m || m.owner !== t.account) return err(reply, 404, 'Record not found');
    if (m.pending > 0) { m.pending--; return reply.code(206).send(renderMedia({ ...m, pending: 1 })); }
    return renderMedia(m);
  });

  // ---- statuses ------------------------------------------------------------------------------
  app.post('/api/v1/statuses', async (req, reply) => {
    const t = auth(req, reply, 'write:statuses');
    if (!t) return reply;
    const key = req.headers['idempotency-key'];
    const idemKey = typeof key === 'string' && key ? `idempotency:status:${t.account}:${key}` : null;
    const kept = idemKey ? idempotency.get(idemKey) : undefined;
    if (kept && Date.now() - kept.at < 3_600_000) {
      const s = statuses.find((x) => x.id === kept.statusId);
      if (s) return render(s);
    }
    const f = await faults.apply('create', reply, req);
    if (f === 'handled') return reply;
    const b = body(req);
    const text = typeof b.status === 'string' ? b.status : '';
    const spoiler = typeof b.spoiler_text === 'string' ? b.spoiler_text : '';
    const mediaIds = list(b.media_ids ?? b['media_ids[]']);
    const poll = b.poll && typeof b.poll === 'object' ? b.poll as Record<string, unknown> : null;
    if (mediaIds.length > 0) {
      if (mediaIds.length > limits.maxMediaAttachments || poll) return err(reply, 422, `Cannot attach more than ${limits.maxMediaAttachments} files`);
      const items = mediaIds.map((id) => media.get(id));
      if (items.some((m) => !m || m.owner !== t.account || m.statusId)) return err(reply, 404, 'Record not found');
      if (items.length > 1 && items.some((m) => m!.type === 'video')) return err(reply, 422, 'Cannot attach a video to a post that already contains images');
      if (items.some((m) => m!.pending > 0)) return err(reply, 422, 'Cannot attach files that have not finished processing. Try again in a moment!');
    }
    if (!text.trim() && mediaIds.length === 0) return err(reply, 422, "Validation failed: Text can't be blank");
    if (statusLength(text, spoiler, limits.charactersReservedPerUrl) > limits.maxCharacters) return err(reply, 422, `Validation failed: Text character limit of ${limits.maxCharacters} exceeded`);
    const visibility = typeof b.visibility === 'string' && b.visibility ? b.visibility : 'public';
    if (!VISIBILITIES.includes(visibility)) return err(reply, 422, `'${visibility}' is not a valid visibility`);
    let pollOut: SimStatus['poll'] = null;
    if (poll) {
      const options = list(poll.options);
      const expiresIn = Number(poll.expires_in);
      if (options.length < 2) return err(reply, 422, 'Validation failed: Poll options must have more than one item');
      if (options.length > limits.pollMaxOptions) return err(reply, 422, `Validation failed: Poll options cannot contain more than ${limits.pollMaxOptions} items`);
      if (options.some((o) => [...o].length > limits.pollMaxCharactersPerOption)) return err(reply, 422, `Validation failed: Poll options cannot be longer than ${limits.pollMaxCharactersPerOption} characters each`);
      if (!(expiresIn >= limits.pollMinExpiration)) return err(reply, 422, 'Validation failed: Poll expires at is too soon');
      if (expiresIn > limits.pollMaxExpiration) return err(reply, 422, 'Validation failed: Poll expires at is too far into the future');
      pollOut = { options, expires_in: expiresIn, multiple: poll.multiple === true || poll.multiple === 'true', hide_totals: poll.hide_totals === true || poll.hide_totals === 'true' };
    }
    const inReplyTo = typeof b.in_reply_to_id === 'string' && b.in_reply_to_id ? b.in_reply_to_id : null;
    if (inReplyTo && !statuses.some((s) => s.id === inReplyTo)) return err(reply, 404, 'Record not found');
    const s: SimStatus = {
      id: nextId(), account: t.account, text, spoiler_text: spoiler, in_reply_to_id: inReplyTo, visibility,
      language: typeof b.language === 'string' && b.language ? b.language : null, sensitive: b.sensitive === true || b.sensitive === 'true',
      media_ids: mediaIds, poll: pollOut, created_at: new Date().toISOString(), application: { name: t.appName },
    };
    statuses.push(s);
    for (const id of mediaIds) media.get(id)!.statusId = s.id;
    if (idemKey) idempotency.set(idemKey, { statusId: s.id, at: Date.now() });
    if (droppedAfterCreate(f, req)) return reply;
    return render(s);
  });

  app.get('/api/v1/statuses/:id', async (req, reply) => {
    const f = await faults.apply('metrics', reply, req);
    if (f === 'handled') return reply;
    const t = optionalAuth(req, reply);
    if (t === null) return reply;
    const s = statuses.find((x) => x.id === (req.params as { id: string }).id);
    if (!s) return err(reply, 404, 'Record not found');
    if ((s.visibility === 'private' || s.visibility === 'direct') && t?.account !== s.account) return err(reply, 404, 'Record not found');
    return render(s);
  });

  // Edit (https://docs.joinmastodon.org/methods/statuses/#edit): the author's own status only (404
  // otherwise, as Mastodon answers for a status the token's account did not write); the same checks
  // as a new status: text or media, the instance's character limit, attachments owned and processed.
  // Media ids left out remove the attachments, so a client resends the ones it keeps.
  app.put('/api/v1/statuses/:id', async (req, reply) => {
    const t = auth(req, reply, 'write:statuses');
    if (!t) return reply;
    const f = await faults.apply('edit', reply, req);
    if (f === 'handled') return reply;
    const s = statuses.find((x) => x.id === (req.params as { id: string }).id && x.account === t.account);
    if (!s) return err(reply, 404, 'Record not found');
    const b = body(req);
    const text = typeof b.status === 'string' ? b.status : '';
    const spoiler = typeof b.spoiler_text === 'string' ? b.spoiler_text : s.spoiler_text;
    const mediaIds = b.media_ids !== undefined || b['media_ids[]'] !== undefined ? list(b.media_ids ?? b['media_ids[]']) : [];
    if (mediaIds.length > limits.maxMediaAttachments) return err(reply, 422, `Cannot attach more than ${limits.maxMediaAttachments} files`);
    const items = mediaIds.map((id) => media.get(id));
    if (items.some((m) => !m || m.owner !== t.account || (m.statusId && m.statusId !== s.id))) return err(reply, 404, 'Record not found');
    if (items.some((m) => m!.pending > 0)) return err(reply, 422, 'Cannot attach files that have not finished processing. Try again in a moment!');
    if (!text.trim() && mediaIds.length === 0) return err(reply, 422, "Validation failed: Text can't be blank");
    if (statusLength(text, spoiler, limits.charactersReservedPerUrl) > limits.maxCharacters) return err(reply, 422, `Validation failed: Text character limit of ${limits.maxCharacters} exceeded`);
    s.history = [...(s.history ?? []), s.text];
    s.text = text;
    s.spoiler_text = spoiler;
    if (typeof b.sensitive === 'boolean') s.sensitive = b.sensitive;
    if (typeof b.language === 'string' && b.language) s.language = b.language;
    for (const id of s.media_ids) if (!mediaIds.includes(id)) media.get(id)!.statusId = null;
    for (const id of mediaIds) media.get(id)!.statusId = s.id;
    s.media_ids = mediaIds;
    s.edited_at = new Date().toISOString();
    return render(s);
  });

  app.delete('/api/v1/statuses/:id', async (req, reply) => {
    const t = auth(req, reply, 'write:statuses');
    if (!t) return reply;
    const f = await faults.apply('delete', reply, req);
    if (f === 'handled') return reply;
    const now = Date.now();
    const recent = (deletes.get(t.account) ?? []).filter((x) => now - x < 1_800_000);
    if (recent.length >= 30) return err(reply, 429, 'Too many requests');
    const i = statuses.findIndex((x) => x.id === (req.params as { id: string }).id && x.account === t.account);
    if (i < 0) return err(reply, 404, 'Record not found');
    deletes.set(t.account, [...recent, now]);
    const [s] = statuses.splice(i, 1);
    deleted.push(s.id);
    return { ...render(s), text: s.text };
  });

  app.get('/api/v1/accounts/:id/statuses', async (req, reply) => {
    const t = optionalAuth(req, reply);
    if (t === null) return reply;
    const f = await faults.apply('list', reply, req);
    if (f === 'handled') return reply;
    const id = (req.params as { id: string }).id;
    if (id !== user.id) return err(reply, 404, 'Record not found');
    const q = req.query as Record<string, string>;
    if ((q.max_id || q.min_id || q.since_id) && throttled(pagedReads, t?.account ?? req.ip, opts.pagingRateLimit ?? 300, 900_000, reply)) return reply;
    const limit = Math.min(40, Math.max(1, Number(q.limit) || 20));
    const own = t?.account === id;
    const big = (x: string) => BigInt(/^\d+$/.test(x) ? x : '0');
    let items = statuses.filter((s) => s.account === id && (own || s.visibility === 'public' || s.visibility === 'unlisted'));
    if (q.exclude_replies === 'true') items = items.filter((s) => !s.in_reply_to_id);
    if (q.max_id) items = items.filter((s) => big(s.id) < big(q.max_id));
    if (q.since_id) items = items.filter((s) => big(s.id) > big(q.since_id));
    items.sort((a, b) => (big(b.id) > big(a.id) ? 1 : -1));
    // min_id: the statuses just after it (the oldest `limit` of the newer ones), still newest first.
    const page = q.min_id ? items.filter((s) => big(s.id) > big(q.min_id)).slice(-limit) : items.slice(0, limit);
    if (page.length) {
      const base = `http://${req.headers.host}/api/v1/accounts/${id}/statuses`;
      reply.header('link', `<${base}?limit=${limit}&max_id=${page[page.length - 1].id}>; rel="next", <${base}?limit=${limit}&min_id=${page[0].id}>; rel="prev"`);
    }
    return page.map(render);
  });

  /** What the instance holds, for tests that run the simulator in its own process. */
  app.get('/__sim/state', async () => ({ statuses, calls: Object.fromEntries(calls) }));

  const url = await listen(app, opts.port ?? 0);
  return {
    url, app, calls, domain, limits, user, statuses, media, apps, metrics, deleted,
    clientId: 'registered-per-instance', clientSecret: 'registered-per-instance',
    registrations: () => registrations,
    forgetApps: () => apps.clear(),
    addStatus(text, extra = {}) {
      const s: SimStatus = {
        id: nextId(), account: user.id, text, spoiler_text: '', in_reply_to_id: null, visibility: 'public', language: null, sensitive: false,
        media_ids: [], poll: null, created_at: new Date().toISOString(), application: { name: 'Web' }, ...extra,
      };
      statuses.push(s);
      return s;
    },
    addFault: (f) => faults.add(f),
    expireAccessTokens: () => undefined, // Mastodon tokens do not expire
    revokeAll: () => tokens.clear(),
    close: () => app.close(),
  };
}

await runAsMain(import.meta.url, 'mastodon', () => startMastodonSimulator({
  port: Number(process.env.PORT ?? 0) || 0,
  ...(process.env.MASTODON_SIM_RATE_LIMIT ? { rateLimit: Number(process.env.MASTODON_SIM_RATE_LIMIT) } : {}),
  ...(process.env.MASTODON_SIM_PAGING_RATE_LIMIT ? { pagingRateLimit: Number(process.env.MASTODON_SIM_PAGING_RATE_LIMIT) } : {}),
  ...(process.env.MASTODON_SIM_MAX_CHARACTERS ? { limits: { maxCharacters: Number(process.env.MASTODON_SIM_MAX_CHARACTERS) } } : {}),
}), (sim) => ({ domain: sim.domain, limits: sim.limits }));
