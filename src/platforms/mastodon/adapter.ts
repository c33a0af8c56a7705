/**
 * Mastodon adapter (any instance; https://docs.joinmastodon.org/methods/statuses/): text,
 * up to the instance's number of images (alt text from `mediaItems[].altText`), one video,
 * threads (each reply `in_reply_to_id` the previous status, posted one after the other), and the
 * options of `platformSpecificData`: `spoilerText`, `visibility` (public, unlisted, private,
 * direct), `language`, `sensitive`, `poll` `{ options, expiresIn, multiple, hideTotals }` (a
 * poll and media exclude each other).
 *
 * Every call goes to the account's instance (`credentials.instanceUrl`, stored at connect). The
 * limits are the instance's (`GET /api/v2/instance`), kept in the account's settings at connect
 * and read again at prepare, so a post is checked against the limits the instance states now.
 *
 * Two phases (docs/decisions/0002, 0055):
 * - `prepare` uploads the media (`POST /api/v2/media`; a 202 is polled with
 *   `GET /api/v1/media/:id` until 200, 206 meaning still processing; a status with an attachment
 *   not yet processed would be refused), notes the account's newest status id (the start of
 *   verify's look-back), and picks the `Idempotency-Key` of the attempt chain.
 * - `commit` posts the statuses (`POST /api/v1/statuses`), each with the key plus its position:
 *   the instance keeps a key an hour and answers the same status to a repeat
 *   (https://docs.joinmastodon.org/methods/statuses/#create), so a retry within the hour cannot
 *   duplicate.
 * - `verify` pages the account's statuses forward from the id noted at prepare
 *   (`GET /api/v1/accounts/:id/statuses?min_id=`, 40 a page, https://docs.joinmastodon.org/methods/accounts/#statuses)
 *   to the newest, and matches the root on its text, content warning, reply target and media
 *   ids, then each reply on its text and `in_reply_to_id`. Complete listing: the answer is exact.
 *
 * Tokens never expire: a 401 is `disconnected` (./http.ts).
 */
import { randomUUID } from 'node:crypto';
import {
  AdapterError, type AccountContext, type AdapterContext, type MediaRef, type PlatformAdapter, type PlatformCapabilities,
  type EditRequest, type EditResult, type PublishRequest, type PublishResult, type PublishedPost, deleteUnlessGone, type RuleViolation, type VerifyResult, VERIFY_MAX_PAGES,
  mapMetrics, type PostMetrics,
 lookupFailed,
} from '../types.ts';
import { capabilitiesOf } from '../../shared/capabilities.ts';
import { MASTODON_INSTANCE_SETTING, mastodonLimitsOf, mastodonRules, mastodonSettingsOf } from '../../shared/rules/mastodon.ts';
import { mastodonJson, type MastodonRequest } from './http.ts';
import { readInstanceLimits } from './oauth.ts';

/** Credentials as stored: the token and the instance's base URL (added by the generic instance-oauth connect). */
export interface MastodonCredentials {
  accessToken: string;
  instanceUrl: string;
  scope?: string[];
}

export interface MastodonPrepared {
  preparedAt: string;
  /** The account's newest status id before this attempt ('0': none): verify pages forward from it. */
  sinceId: string;
  /** The attempt chain's Idempotency-Key; status i of a thread is sent with `<key>-<i>`. */
  idempotencyKey: string;
  /** Uploaded attachments of the first status, in order. */
  mediaIds: string[];
  /** The texts: [root, reply 1, ...]. */
  texts: string[];
  /** What every status is sent with (the root alone gets media and the poll). */
  params: {
    spoiler_text?: string;
    visibility?: string;
    language?: string;
    sensitive?: boolean;
    poll?: { options: string[]; expires_in: number; multiple?: boolean; hide_totals?: boolean };
  };
  /** Statuses of the thread already live (set by verify, so commit resumes after them). */
  posted?: Array<{ id: string; url: string }>;
}

/** A status as the API answers it, as far as Herald reads it (https://docs.joinmastodon.org/entities/Status/). */
interface Status {
  id: string;
  url?: string | null;
  uri?: string;
  content?: string;
  spoiler_text?: string;
  in_reply_to_id?: string | null;
  media_attachments?: Array<{ id: string }>;
  poll?: unknown;
  sensitive?: boolean;
  language?: string | null;
  favourites_count?: number;
  reblogs_count?: number;
  replies_count?: number;
}

/** Options of the adapter. */
export interface MastodonOptions {
  /** Interval between media processing polls, ms (default 1,000). */
  pollIntervalMs?: number;
  /** Give up waiting for media processing after this long, ms (transient; default 5 minutes). */
  pollTimeoutMs?: number;
}

export const MASTODON_CAPABILITIES: PlatformCapabilities = capabilitiesOf('mastodon');

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", nbsp: ' ' };

/** A status's HTML `content` as plain text, whitespace collapsed (how verify compares texts). */
export function plainContent(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n').replace(/<\/p>\s*<p>/gi, '\n\n').replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') return String.fromCodePoint(e[1].toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, ' ').trim();
}

/** Sent text as the instance shows it back: a remote mention `@user@domain` reads `@user`; whitespace collapsed. */
export function shownText(text: string): string {
  return text.replace(/(^|[^\p{L}\p{N}_/])@([\p{L}\p{N}_]+(?:[.-]+[\p{L}\p{N}_]+)*)@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu, '$1@$2').replace(/\s+/g, ' ').trim();
}

const statusUrl = (s: Status, instanceUrl: string) => s.url ?? s.uri ?? `${instanceUrl}/web/statuses/${s.id}`;

export class MastodonAdapter implements PlatformAdapter<MastodonCredentials, MastodonPrepared> {
  readonly platform = 'mastodon' as const;
  readonly capabilities = MASTODON_CAPABILITIES;
  private readonly opts: Required<MastodonOptions>;

  constructor(opts: MastodonOptions = {}) {
    this.opts = { pollIntervalMs: 1000, pollTimeoutMs: 5 * 60_000, ...opts };
  }

  /** The shared rule table (src/shared/rules/mastodon.ts) with the account's instance limits (`accountSettings.mastodonInstance`). */
  validate(req: PublishRequest): RuleViolation[] {
    return mastodonRules.check(req);
  }

  private base(account: AccountContext<MastodonCredentials>): string {
    const u = account.credentials.instanceUrl;
    if (typeof u !== 'string' || !u) throw new AdapterError('disconnected', 'The Mastodon account has no server stored; reconnect it');
    return u;
  }

  private call<T>(account: AccountContext<MastodonCredentials>, path: string, req: MastodonRequest = {}) {
    return mastodonJson<T>(this.base(account), path, { ...req, token: account.credentials.accessToken });
  }

  /** Uploads one attachment and waits until the instance has processed it. */
  private async upload(ctx: AdapterContext, account: AccountContext<MastodonCredentials>, m: MediaRef, maxBytes: number, i: number): Promise<string> {
    const { bytes, mimeType } = await ctx.fetchMedia(m, maxBytes);
    const form = new FormData();
    const name = m.filename ?? new URL(m.url).pathname.split('/').pop() ?? `media-${i}`;
    form.append('file', new Blob([new Uint8Array(bytes)], { type: m.mimeType ?? mimeType }), name || `media-${i}`);
    if (m.altText) form.append('description', m.altText);
    const res = await this.call<{ id: string; url: string | null }>(account, '/api/v2/media', { method: 'POST', body: form });
    if (res.status === 200 && res.body.url) return res.body.id;
    const deadline = Date.now() + this.opts.pollTimeoutMs;
    for (;;) {
      await new Promise((r) => setTimeout(r, this.opts.pollIntervalMs));
      const p = await this.call<{ id: string; url: string | null }>(account, `/api/v1/media/${encodeURIComponent(res.body.id)}`);
      if (p.status === 200 && p.body.url) return res.body.id;
      if (Date.now() > deadline) throw new AdapterError('transient', `Mastodon is still processing attachment ${i + 1}`);
    }
  }

  /** The account's newest status id ('0' when it has none). */
  private async newestId(account: AccountContext<MastodonCredentials>): Promise<string> {
    const { body } = await this.call<Status[]>(account, `/api/v1/accounts/${encodeURIComponent(account.platformUserId)}/statuses`, { query: { limit: 1 } });
    return body[0]?.id ?? '0';
  }

  async prepare(ctx: AdapterContext, account: AccountContext<MastodonCredentials>, req: PublishRequest): Promise<MastodonPrepared> {
    // The instance's limits as it states them now: a rule its current limits break and the stored
    // ones did not (the instance lowered a limit since connect) is refused here, naming the rule.
    const stored = req.accountSettings ?? account.settings;
    let settings = stored;
    try {
      settings = { ...stored, [MASTODON_INSTANCE_SETTING]: await readInstanceLimits(this.base(account)) };
    } catch (err) {
      ctx.log('mastodon: instance limits not read; the stored ones apply', { error: (err as Error).message });
    }
    const known = new Set(mastodonRules.check({ ...req, accountSettings: stored }).map((v) => `${v.rule} ${v.field}`));
    const violations = mastodonRules.check({ ...req, accountSettings: settings }).filter((v) => !known.has(`${v.rule} ${v.field}`));
    if (violations.length) {
      throw new AdapterError('rejected', violations.map((v) => `${v.field}: ${v.message} (${v.rule})`).join('; '), { platformCode: violations[0].rule });
    }
    const limits = mastodonLimitsOf(settings);
    const s = mastodonSettingsOf(req.platformSpecificData);
    const mediaIds: string[] = [];
    for (const [i, m] of req.mediaItems.entries()) {
      mediaIds.push(await this.upload(ctx, account, m, m.type === 'video' ? limits.videoSizeLimit : limits.imageSizeLimit, i));
    }
    const visibility = s.visibility ?? (req.visibility === 'private' || req.visibility === 'unlisted' ? req.visibility : undefined);
    return {
      preparedAt: new Date().toISOString(),
      sinceId: await this.newestId(account),
      idempotencyKey: `herald-${randomUUID()}`,
      mediaIds,
      texts: req.threadItems.length > 0 ? req.threadItems.map((t) => t.content) : [req.text],
      params: {
        ...(s.spoilerText ? { spoiler_text: s.spoilerText } : {}), ...(visibility ? { visibility } : {}), ...(s.language ? { language: s.language } : {}),
        ...(s.sensitive !== undefined ? { sensitive: s.sensitive } : {}),
        ...(s.poll ? { poll: { options: s.poll.options, expires_in: s.poll.expiresIn, ...(s.poll.multiple !== undefined ? { multiple: s.poll.multiple } : {}), ...(s.poll.hideTotals !== undefined ? { hide_totals: s.poll.hideTotals } : {}) } } : {}),
      },
    };
  }

  async commit(_ctx: AdapterContext, account: AccountContext<MastodonCredentials>, _req: PublishRequest, prepared: MastodonPrepared): Promise<PublishResult> {
    const base = this.base(account);
    const thread: Array<{ platformPostId: string; platformPostUrl: string }> = (prepared.posted ?? []).map((p) => ({ platformPostId: p.id, platformPostUrl: p.url }));
    for (const [i, text] of prepared.texts.entries()) {
      if (i < thread.length) continue;
      const { poll, ...common } = prepared.params;
      const body = {
        status: text, ...common,
        ...(i === 0 && prepared.mediaIds.length ? { media_ids: prepared.mediaIds } : {}),
        ...(i === 0 && poll ? { poll } : {}),
        ...(i > 0 ? { in_reply_to_id: thread[i - 1].platformPostId } : {}),
      };
      try {
        const { body: s } = await this.call<Status>(account, '/api/v1/statuses', { method: 'POST', json: body, idempotencyKey: `${prepared.idempotencyKey}-${i}` });
        thread.push({ platformPostId: s.id, platformPostUrl: statusUrl(s, base) });
      } catch (err) {
        if (i === 0) throw err;
        // The first statuses are live: a refusal fails the target (naming them); anything else is
        // transient, so the publisher verifies (and resumes after the live statuses).
        const e = err instanceof AdapterError ? err : new AdapterError('transient', (err as Error).message);
        const live = `the first ${i} status(es) of the thread are live: ${thread.map((t) => t.platformPostUrl).join(', ')}`;
        throw new AdapterError(e.kind === 'rejected' || e.kind === 'disconnected' ? e.kind : 'transient', `${e.message} (${live})`, e.opts);
      }
    }
    return { ...thread[0], ...(thread.length > 1 ? { thread } : {}) };
  }

  /** Every own status newer than `sinceId`, oldest page first (min_id paging, 40 a call); null past VERIFY_MAX_PAGES. */
  private async statusesSince(account: AccountContext<MastodonCredentials>, sinceId: string): Promise<Status[] | null> {
    const out: Status[] = [];
    let minId = sinceId;
    for (let page = 0; page < VERIFY_MAX_PAGES; page++) {
      const { body } = await this.call<Status[]>(account, `/api/v1/accounts/${encodeURIComponent(account.platformUserId)}/statuses`, { query: { min_id: minId, limit: 40 } });
      if (body.length === 0) return out;
      out.push(...body);
      // Newest first within a page: the next page starts after its first (newest) status.
      minId = body[0].id;
    }
    return null;
  }

  /**
   * Exact check after an interrupted commit (docs/decisions/0018-exact-verify.md, 0055): every
   * status of the account newer than the one noted at prepare, read to the newest; the root is
   * the one with the sent text (as the instance shows it), content warning, no reply target and
   * the prepared attachments (or poll); each reply the one with its text replying to the
   * previous status. Several candidates, a failed read or more than VERIFY_MAX_PAGES pages:
   * 'unknown'. A chain that stops early: the rest is proven absent, `not_published` with
   * `posted`, so commit resumes after the live statuses.
   */
  async verify(_ctx: AdapterContext, account: AccountContext<MastodonCredentials>, _req: PublishRequest, prepared: MastodonPrepared): Promise<VerifyResult<MastodonPrepared>> {
    const chain = [...(prepared.posted ?? [])];
    let base: string;
    let listed: Status[] | null;
    try {
      base = this.base(account);
      listed = await this.statusesSince(account, prepared.sinceId);
    } catch (err) {
      return lookupFailed(err);
    }
    if (!listed) return { status: 'unknown', reason: `the account posted more than ${VERIFY_MAX_PAGES * 40} statuses since the attempt` };
    const textIs = (s: Status, text: string) => plainContent(s.content ?? '') === shownText(text);
    const cw = prepared.params.spoiler_text ?? '';
    for (let i = chain.length; i < prepared.texts.length; i++) {
      const candidates = listed.filter((s) => textIs(s, prepared.texts[i]) && (s.spoiler_text ?? '') === cw && (i === 0
        ? !s.in_reply_to_id && (s.media_attachments ?? []).map((m) => m.id).join(',') === prepared.mediaIds.join(',') && !!s.poll === !!prepared.params.poll
        : s.in_reply_to_id === chain[i - 1].id));
      if (candidates.length > 1) return { status: 'unknown', reason: `${candidates.length} statuses match item ${i + 1} of the post` };
      if (!candidates[0]) break;
      chain.push({ id: candidates[0].id, url: statusUrl(candidates[0], base) });
    }
    if (chain.length === prepared.texts.length) {
      const thread = chain.map((c) => ({ platformPostId: c.id, platformPostUrl: c.url }));
      return { status: 'published', result: { ...thread[0], ...(thread.length > 1 ? { thread } : {}) } };
    }
    const grew = chain.length > (prepared.posted ?? []).length;
    return { status: 'not_published', ...(grew ? { prepared: { ...prepared, posted: chain } } : {}) };
  }

  /**
   * Deletes the post, every status of a thread last first (`DELETE /api/v1/statuses/:id`,
   * https://docs.joinmastodon.org/methods/statuses/#delete; 30 per 30 minutes). A status the
   * instance no longer has (404) counts as deleted.
   */
  async unpublish(_ctx: AdapterContext, account: AccountContext<MastodonCredentials>, post: PublishedPost): Promise<void> {
    const ids = post.threadIds.length ? [...post.threadIds].reverse() : [post.platformPostId];
    for (const id of ids) await deleteUnlessGone(() => this.call(account, `/api/v1/statuses/${encodeURIComponent(id)}`, { method: 'DELETE' }));
  }

  /**
   * Edits the root status (https://docs.joinmastodon.org/methods/statuses/#edit): PUT with the new
   * text and, read from the status first, its attachments, content warning, sensitivity and
   * language, so that the edit changes the text only (the poll is left out: resending it resets its votes).
   */
  async editPublished(_ctx: AdapterContext, account: AccountContext<MastodonCredentials>, edit: EditRequest): Promise<EditResult> {
    const path = `/api/v1/statuses/${encodeURIComponent(edit.post.platformPostId)}`;
    const { body: now } = await this.call<Status>(account, path);
    const { body: s } = await this.call<Status>(account, path, {
      method: 'PUT',
      json: {
        status: edit.text, spoiler_text: now.spoiler_text ?? '', sensitive: now.sensitive === true,
        ...(now.language ? { language: now.language } : {}), media_ids: (now.media_attachments ?? []).map((m) => m.id),
      },
    });
    return { platformPostId: s.id, platformPostUrl: statusUrl(s, this.base(account)) };
  }

  /**
   * Counts from the status itself (`GET /api/v1/statuses/:id`): favourites, reblogs, replies
   * (https://docs.joinmastodon.org/entities/Status/). Mastodon has no view counts. A status
   * that is gone (404) is left out.
   */
  async fetchMetrics(_ctx: AdapterContext, account: AccountContext<MastodonCredentials>, platformPostIds: string[]): Promise<Map<string, PostMetrics>> {
    const out = new Map<string, PostMetrics>();
    for (const id of platformPostIds) {
      try {
        const { body: s } = await this.call<Status>(account, `/api/v1/statuses/${encodeURIComponent(id)}`);
        out.set(id, mapMetrics('mastodon', { favourites_count: s.favourites_count ?? 0, reblogs_count: s.reblogs_count ?? 0, replies_count: s.replies_count ?? 0 }));
      } catch (err) {
        if (err instanceof AdapterError && err.opts.status === 404) continue;
        throw err;
      }
    }
    return out;
  }
}
