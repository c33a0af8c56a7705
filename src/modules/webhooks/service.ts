/**
 * Webhooks: a tenant's subscriptions (several per user), the test event, delivery logs and
 * redelivery, and the delivery of outbox rows (claimed by the worker, signed, retried with
 * exponential backoff, disabled after failing for days). Docs: docs/decisions/0038-webhook-outbox.md
 * and the webhooks guide section.
 */
import dns from 'node:dns/promises';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../storage/db.ts';
import type { SecretBox } from '../../core/crypto.ts';
import { AppError, FieldErrorCollector, fieldError, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { AuthContext } from '../auth/context.ts';
import type { WebhooksConfig } from '../../config.ts';
import { checkFetchUrl, isRefusedAddress, ipFamily } from '../../shared/net/address-policy.ts';
import { guardedPost } from '../../infra/guarded-post.ts';
import { FetchBlockedError } from '../../infra/ssrf.ts';
import { createWebhooksRepository, type ClaimedDelivery, type DeliveryLogRow, type WebhookRow } from './repository.ts';
import { SIGNATURE_HEADERS, newWebhookSecret, signPayload } from './signature.ts';
import type { CreateWebhookBodyT, LogsQueryT, UpdateWebhookBodyT, WebhookViewT } from './schemas.ts';

/** Webhooks per user (the official client's documented maximum). */
export const MAX_WEBHOOKS = 50;
/** Stored part of a receiver's answer (the official client: 10 KB). */
export const MAX_RESPONSE_BYTES = 10 * 1024;
/** Delivery logs and finished deliveries are kept this long. */
export const LOG_RETENTION_DAYS = 30;
const LOCK_SECONDS = 120;
/** RFC 7230 section 3.2.6 `token`: https://www.rfc-editor.org/rfc/rfc7230#section-3.2.6 (at most 64 characters here). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
const HEADER_NAME_PUNCTUATION = "!#$%&'*+-.^_`|~";
/** A header value Herald sends: visible ASCII, space and Latin-1 (one byte each), nothing else (no CR/LF, no controls). */
const HEADER_VALUE = /^[\x20-\x7e\x80-\xff]*$/;
const RESERVED_HEADERS = new Set(['content-type', 'content-length', 'host', 'user-agent', ...Object.values(SIGNATURE_HEADERS).map((h) => h.toLowerCase())]);

/** Delay before attempt `attempt + 1` after `attempt` failed: base * 4^(attempt-1), +-20 % jitter, ms. */
export function retryDelayMs(baseMs: number, attempt: number, random: () => number = Math.random): number {
  return Math.round(baseMs * 4 ** (attempt - 1) * (0.8 + 0.4 * random()));
}

/** Outcome of one delivery attempt as the API reports it. */
export interface AttemptReport {
  success: boolean;
  /** The delivery's state after the attempt: delivered, pending (a retry is scheduled) or failed for good. */
  state: 'delivered' | 'pending' | 'failed';
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

function toView(w: WebhookRow, secret: string): WebhookViewT {
  return {
    _id: w.id, name: w.name, url: w.url, secret, events: w.events, isActive: w.is_active,
    lastFiredAt: w.last_fired_at?.toISOString() ?? null, failureCount: w.failure_count, failingSince: w.failing_since?.toISOString() ?? null,
    disabledAt: w.disabled_at?.toISOString() ?? null, disabledReason: w.disabled_reason, customHeaders: w.custom_headers,
    createdAt: w.created_at.toISOString(), updatedAt: w.updated_at.toISOString(),
  };
}

function logView(l: DeliveryLogRow) {
  return {
    _id: l.id, userId: l.tenant_id, webhookId: l.webhook_id, webhookName: l.webhook_name, eventId: l.event_id, event: l.event, url: l.url,
    status: l.status, statusCode: l.status_code, requestPayload: l.payload, responseBody: l.response_body, errorMessage: l.error_message,
    attemptNumber: l.attempt_number, responseTime: l.duration_ms, createdAt: l.created_at.toISOString(),
  };
}

/**
 * `workerId`: this process's id in `workers` (the test event is sent under it); `staleMs`: a
 * delivery held by a process silent this long is taken over (HERALD_WORKER_STALE_MS).
 */
export function createWebhooksService(deps: { db: Db; secrets: SecretBox; config: WebhooksConfig; workerId: string; staleMs: number }) {
  const { db, secrets, config } = deps;
  const repo = createWebhooksRepository(db);
  const policy = { allowPrivate: config.allowPrivateUrls };

  /**
   * Checks a webhook URL against the SSRF rules: http(s), and neither the literal host nor any
   * address the name resolves to now may be private (unless the development setting allows it).
   * Every delivery checks the address it connects to again.
   */
  async function checkUrl(field: string, url: string): Promise<string> {
    const trimmed = url.trim();
    const checked = checkFetchUrl(trimmed, policy);
    if (!checked.ok) throw fieldError(field, checked.message);
    if (checked.url.username || checked.url.password) throw fieldError(field, 'must not contain credentials');
    const host = checked.url.hostname.replace(/^\[|\]$/g, '');
    if (!config.allowPrivateUrls && !ipFamily(host)) {
      const found = await dns.lookup(host, { all: true }).catch(() => null);
      if (!found) throw fieldError(field, `the host ${host} does not resolve`);
      const bad = found.find((a) => isRefusedAddress(a.address, policy));
      if (bad) throw fieldError(field, `the host ${host} resolves to a private or reserved address (${bad.address})`);
    }
    return trimmed;
  }

  /**
   * Custom headers must be sendable on every delivery: names are RFC 7230 tokens, values have no
   * control characters (CR/LF above all) and only characters a header byte can hold; Herald's own
   * headers cannot be replaced.
   */
  function checkHeaders(headers: Record<string, string> | undefined): void {
    if (!headers) return;
    const c = new FieldErrorCollector();
    for (const [name, value] of Object.entries(headers)) {
      if (!HEADER_NAME.test(name)) {
        // Named by the object, not by the (unprintable) name itself.
        c.add('customHeaders', `${JSON.stringify(name)} is not a valid header name: 1-64 letters, digits or ${HEADER_NAME_PUNCTUATION} (RFC 7230 token)`);
        continue;
      }
      if (RESERVED_HEADERS.has(name.toLowerCase())) c.add(`customHeaders.${name}`, 'is set by Herald and cannot be replaced');
      if (!HEADER_VALUE.test(value)) c.add(`customHeaders.${name}`, 'must not contain control characters (CR, LF, tab, NUL) or characters above U+00FF');
    }
    c.throwIfAny();
  }

  async function owned(auth: AuthContext, id: string | undefined, field: string): Promise<WebhookRow> {
    if (!id) throw fieldError(field, 'is required');
    const w = await repo.get(auth.tenantId, id);
    if (!w) throw notFound('Webhook');
    return w;
  }

  /** Sends one attempt of a claimed delivery and writes it down; returns what happened. */
  async function attempt(d: ClaimedDelivery, workerId: string, opts: { retry: boolean }): Promise<AttemptReport> {
    const ts = Math.floor(Date.now() / 1000);
    const secret = secrets.open(d.secret);
    let statusCode: number | null = null;
    let error: string | null = null;
    let body: string | null = null;
    let durationMs: number;
    let permanent = false;
    const started = performance.now();
    try {
      const r = await guardedPost(d.url, d.payload, {
        ...policy, timeoutMs: config.timeoutMs, maxBodyBytes: MAX_RESPONSE_BYTES,
        headers: {
          ...d.custom_headers,
          [SIGNATURE_HEADERS.signature]: signPayload(secret, ts, d.payload),
          [SIGNATURE_HEADERS.timestamp]: String(ts),
          [SIGNATURE_HEADERS.eventId]: d.event_id,
          [SIGNATURE_HEADERS.event]: d.event,
        },
      });
      statusCode = r.status;
      // PostgreSQL text cannot hold NUL: a receiver answering one must not make the attempt unwritable.
      body = r.body.replaceAll('\u0000', '');
      durationMs = r.durationMs;
      if (r.status < 200 || r.status >= 300) error = `The endpoint answered HTTP ${r.status}`;
    } catch (err) {
      durationMs = Math.round(performance.now() - started);
      permanent = err instanceof FetchBlockedError;
      error = (err as Error).message.replaceAll('\u0000', '').slice(0, 500);
    }
    const ok = error === null;
    const more = opts.retry && !ok && !permanent && d.attempts < config.maxAttempts;
    const state = ok ? 'delivered' : more ? 'pending' : 'failed';
    await repo.finishAttempt(d, workerId, {
      status: state,
      nextAttemptAt: more ? new Date(Date.now() + retryDelayMs(config.retryBaseMs, d.attempts)) : null,
      statusCode, error, responseBody: body, durationMs, disableAfterSeconds: config.disableAfterSeconds,
    });
    return { success: ok, state, statusCode, error, durationMs };
  }

  return {
    repository: repo,

    async list(auth: AuthContext) {
      const rows = await repo.list(auth.tenantId);
      return { webhooks: rows.map((w) => toView(w, secrets.open(w.secret))) };
    },

    /** @throws 400 naming the field (URL refused by the SSRF rules, reserved header); 409 over MAX_WEBHOOKS. */
    async create(auth: AuthContext, body: CreateWebhookBodyT) {
      const url = await checkUrl('url', body.url);
      checkHeaders(body.customHeaders);
      if (await repo.count(auth.tenantId) >= MAX_WEBHOOKS) throw new AppError('CONFLICT', `At most ${MAX_WEBHOOKS} webhooks per user`, { limit: MAX_WEBHOOKS });
      const secret = body.secret ?? newWebhookSecret();
      const row = await repo.insert({
        id: newId(), tenant_id: auth.tenantId, name: body.name?.trim() || new URL(url).host.slice(0, 50), url, secret: secrets.seal(secret), events: body.events,
        is_active: body.isActive ?? true, custom_headers: body.customHeaders ?? {},
      });
      return { success: true, webhook: toView(row, secret) };
    },

    async update(auth: AuthContext, body: UpdateWebhookBodyT) {
      const w = await owned(auth, body.webhookId ?? body._id, 'webhookId');
      const url = body.url !== undefined ? await checkUrl('url', body.url) : undefined;
      checkHeaders(body.customHeaders);
      const row = await repo.update(auth.tenantId, w.id, {
        name: body.name?.trim(), url, secret: body.secret ? secrets.seal(body.secret) : undefined, events: body.events,
        is_active: body.isActive, custom_headers: body.customHeaders,
      });
      if (!row) throw notFound('Webhook');
      return { success: true, webhook: toView(row, secrets.open(row.secret)) };
    },

    async remove(auth: AuthContext, id: string | undefined) {
      const w = await owned(auth, id, 'webhookId');
      if (!await repo.remove(auth.tenantId, w.id)) throw notFound('Webhook');
      return { success: true };
    },

    /** Sends a `webhook.test` event now, once (no retries), and reports the answer. */
    async test(auth: AuthContext, webhookId: string) {
      const w = await owned(auth, webhookId, 'webhookId');
      const eventId = randomUUID();
      const payload = { id: eventId, event: 'webhook.test', message: `Test event from Herald for webhook "${w.name}"`, timestamp: new Date().toISOString() };
      const d = await repo.insertClaimed(db, w, eventId, 'webhook.test', payload, deps.workerId, LOCK_SECONDS);
      const r = await attempt(d, deps.workerId, { retry: false });
      return {
        success: r.success,
        message: r.success ? `Test event delivered (HTTP ${r.statusCode}, ${r.durationMs} ms)` : `Test event failed: ${r.error}`,
        eventId, statusCode: r.statusCode,
      };
    },

    async logs(auth: AuthContext, q: LogsQueryT) {
      const limit = q.limit ?? 50;
      const skip = q.skip ?? 0;
      const { logs, total } = await repo.logs(auth.tenantId, { ...q, limit, skip });
      return { logs: logs.map(logView), pagination: { total, limit, skip, pages: Math.ceil(total / limit), hasMore: skip + logs.length < total } };
    },

    /** Queues an event again for a webhook (a fresh retry budget, same event id and payload). */
    async redeliver(auth: AuthContext, body: { webhookId: string; eventId: string }) {
      const w = await owned(auth, body.webhookId, 'webhookId');
      const r = await repo.redeliver(auth.tenantId, w.id, body.eventId);
      if (!r) throw notFound('Webhook event');
      if (!w.is_active) return { success: true, message: 'Event queued; it is delivered once the webhook is turned on again' };
      return { success: true, message: r === 'open' ? 'Event is already queued for delivery' : 'Event queued for redelivery' };
    },

    /** Claims up to `limit` due deliveries for `workerId` (see the repository's claim). */
    claimDue: (workerId: string, limit: number) => repo.claim(workerId, limit, LOCK_SECONDS, Math.ceil(deps.staleMs / 1000)),
    /** Sends a claimed delivery and writes the attempt (retry scheduled or final). */
    deliver: (d: ClaimedDelivery, workerId: string) => attempt(d, workerId, { retry: true }),
    extendLocks: (workerId: string, ids: string[]) => repo.extendLocks(workerId, ids, LOCK_SECONDS),
    /** Deletes logs and finished deliveries older than 30 days. */
    prune: () => repo.prune(LOG_RETENTION_DAYS),
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
