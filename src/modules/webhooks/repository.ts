/**
 * The webhooks module's tables: `webhooks` (subscriptions), `webhook_deliveries` (the outbox:
 * one row per event and subscription, also the delivery job) and `webhook_delivery_logs` (one
 * row per attempt, kept 30 days). Outbox rows are written by the SQL of ./outbox.ts inside the
 * statements of the state changes; everything else on these tables is here.
 */
import { prepared, type Db, type Queryable } from '../../storage/db.ts';

/** A subscription as stored (the secret sealed). */
export interface WebhookRow {
  id: string;
  tenant_id: string;
  name: string;
  url: string;
  secret: string;
  events: string[];
  is_active: boolean;
  custom_headers: Record<string, string>;
  failure_count: number;
  failing_since: Date | null;
  last_fired_at: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A claimed delivery with what sending it needs. `payload` is the exact JSON text to send. */
export interface ClaimedDelivery {
  id: string;
  event_id: string;
  webhook_id: string;
  tenant_id: string;
  event: string;
  payload: string;
  /** This attempt's number (1 for the first). */
  attempts: number;
  url: string;
  secret: string;
  custom_headers: Record<string, string>;
}

/** A delivery attempt's outcome as written down. */
export interface AttemptOutcome {
  /** The delivery's state after this attempt. */
  status: 'pending' | 'delivered' | 'failed';
  /** For `pending`: when to try again. */
  nextAttemptAt: Date | null;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  durationMs: number;
  /** A webhook failing without a success for this long is disabled, seconds. */
  disableAfterSeconds: number;
}

/** A delivery log row as the API lists it. */
export interface DeliveryLogRow {
  id: string;
  tenant_id: string;
  webhook_id: string;
  webhook_name: string;
  event_id: string;
  event: string;
  url: string;
  status: 'success' | 'failed';
  status_code: number | null;
  response_body: string | null;
  error_message: string | null;
  attempt_number: number;
  duration_ms: number;
  created_at: Date;
  payload: Record<string, unknown> | null;
}

const WEBHOOK_COLUMNS = `id, tenant_id, name, url, secret, events, is_active, custom_headers, failure_count, failing_since, last_fired_at,
  disabled_at, disabled_reason, created_at, updated_at`;

/**
 * Claims due deliveries ($2 at most) for worker $1 for $3 seconds: pending ones whose time has
 * come, and delivering ones whose lock ran out or whose process stopped heartbeating for $4
 * seconds (killed: its row in `workers` is stale or gone). A delivery waits while an earlier
 * one of the same webhook and order key is open, so a post's events arrive in order.
 */
const CLAIM = prepared('webhooks.claim', `WITH c AS (
    SELECT d.id FROM webhook_deliveries d
     WHERE d.status IN ('pending', 'delivering') AND d.next_attempt_at <= now()
       AND (d.status = 'pending' OR d.locked_until < now()
            OR NOT EXISTS (SELECT 1 FROM workers k WHERE k.id = d.locked_by AND k.heartbeat_at > now() - make_interval(secs => $4)))
       AND EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id AND w.is_active)
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
                        WHERE e.webhook_id = d.webhook_id AND e.order_key = d.order_key AND e.id < d.id AND e.status IN ('pending', 'delivering'))
     ORDER BY d.next_attempt_at, d.id LIMIT $2 FOR UPDATE OF d SKIP LOCKED)
  UPDATE webhook_deliveries d SET status = 'delivering', locked_by = $1, locked_until = now() + make_interval(secs => $3), attempts = d.attempts + 1
    FROM c, webhooks w WHERE d.id = c.id AND w.id = d.webhook_id
  RETURNING d.id::text, d.event_id::text, d.webhook_id, d.tenant_id, d.event, d.payload::text AS payload, d.attempts, w.url, w.secret, w.custom_headers`);

/**
 * Writes an attempt: the delivery's new state (if $6 still holds it), its log row, and the
 * webhook's health (success: failures reset; failure: counted, and the webhook disabled once it
 * has failed without a success for $10 seconds). Returns whether the webhook was disabled now.
 */
const FINISH = prepared('webhooks.finish-attempt', `WITH d AS (
    UPDATE webhook_deliveries SET status = $2, next_attempt_at = COALESCE($3, next_attempt_at), locked_by = NULL, locked_until = NULL,
           last_status_code = $4, last_error = $5, delivered_at = CASE WHEN $2 = 'delivered' THEN now() ELSE delivered_at END
     WHERE id = $1 AND locked_by = $6
     RETURNING id, tenant_id, webhook_id, event_id, event, attempts),
  log AS (
    INSERT INTO webhook_delivery_logs (tenant_id, webhook_id, webhook_name, delivery_id, event_id, event, url, status, status_code,
                                       response_body, error_message, attempt_number, duration_ms)
    SELECT d.tenant_id, d.webhook_id, w.name, d.id, d.event_id, d.event, w.url, $7, $4, $8, $5, d.attempts, $9
      FROM d JOIN webhooks w ON w.id = d.webhook_id)
  UPDATE webhooks w SET
         last_fired_at = CASE WHEN $7 = 'success' THEN now() ELSE w.last_fired_at END,
         failure_count = CASE WHEN $7 = 'success' THEN 0 WHEN $2 = 'failed' THEN w.failure_count + 1 ELSE w.failure_count END,
         failing_since = CASE WHEN $7 = 'success' THEN NULL ELSE COALESCE(w.failing_since, now()) END,
         is_active = w.is_active AND NOT ($7 = 'failed' AND COALESCE(w.failing_since < now() - make_interval(secs => $10), false)),
         disabled_at = CASE WHEN w.is_active AND $7 = 'failed' AND COALESCE(w.failing_since < now() - make_interval(secs => $10), false)
                            THEN now() ELSE w.disabled_at END,
         disabled_reason = CASE WHEN w.is_active AND $7 = 'failed' AND COALESCE(w.failing_since < now() - make_interval(secs => $10), false)
                                THEN 'Disabled after failing since ' || ${'to_char(w.failing_since AT TIME ZONE \'UTC\', \'YYYY-MM-DD HH24:MI "UTC"\')'} || ' without a successful delivery'
                                ELSE w.disabled_reason END,
         updated_at = now()
    FROM d WHERE w.id = d.webhook_id
  RETURNING (w.disabled_at = now()) AS disabled_now`);

export function createWebhooksRepository(db: Db) {
  return {
    async list(tenantId: string): Promise<WebhookRow[]> {
      return (await db.query<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE tenant_id = $1 ORDER BY created_at, id`, [tenantId])).rows;
    },
    async get(tenantId: string, id: string): Promise<WebhookRow | null> {
      return (await db.query<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE tenant_id = $1 AND id = $2`, [tenantId, id])).rows[0] ?? null;
    },
    async count(tenantId: string): Promise<number> {
      return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks WHERE tenant_id = $1', [tenantId])).rows[0].n;
    },
    async insert(w: Pick<WebhookRow, 'id' | 'tenant_id' | 'name' | 'url' | 'secret' | 'events' | 'is_active' | 'custom_headers'>): Promise<WebhookRow> {
      return (await db.query<WebhookRow>(
        `INSERT INTO webhooks (id, tenant_id, name, url, secret, events, is_active, custom_headers) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         RETURNING ${WEBHOOK_COLUMNS}`,
        [w.id, w.tenant_id, w.name, w.url, w.secret, w.events, w.is_active, JSON.stringify(w.custom_headers)])).rows[0];
    },
    /** Changes the given fields; turning a webhook on clears its failure state and disable notice. */
    async update(tenantId: string, id: string, f: Partial<Pick<WebhookRow, 'name' | 'url' | 'secret' | 'events' | 'is_active' | 'custom_headers'>>): Promise<WebhookRow | null> {
      const { rows } = await db.query<WebhookRow>(
        `UPDATE webhooks SET name = COALESCE($3, name), url = COALESCE($4, url), secret = COALESCE($5, secret), events = COALESCE($6, events),
                custom_headers = COALESCE($8::jsonb, custom_headers),
                failure_count = CASE WHEN $7 AND NOT is_active THEN 0 ELSE failure_count END,
                failing_since = CASE WHEN $7 AND NOT is_active THEN NULL ELSE failing_since END,
                disabled_at = CASE WHEN $7 THEN NULL ELSE disabled_at END,
                disabled_reason = CASE WHEN $7 THEN NULL ELSE disabled_reason END,
                is_active = COALESCE($7, is_active), updated_at = now()
          WHERE tenant_id = $1 AND id = $2 RETURNING ${WEBHOOK_COLUMNS}`,
        [tenantId, id, f.name ?? null, f.url ?? null, f.secret ?? null, f.events ?? null, f.is_active ?? null,
          f.custom_headers ? JSON.stringify(f.custom_headers) : null]);
      return rows[0] ?? null;
    },
    /** Deletes a webhook with its deliveries (logs stay until pruned). False when absent. */
    async remove(tenantId: string, id: string): Promise<boolean> {
      const { rows } = await db.query<{ n: number }>(
        `WITH w AS (DELETE FROM webhooks WHERE tenant_id = $1 AND id = $2 RETURNING id),
              d AS (DELETE FROM webhook_deliveries WHERE webhook_id IN (SELECT id FROM w))
         SELECT count(*)::int AS n FROM w`, [tenantId, id]);
      return rows[0].n > 0;
    },

    /** Writes a delivery of an event built here (webhook.test), claimed by `workerId`, and returns it claimed. */
    async insertClaimed(q: Queryable, w: WebhookRow, eventId: string, event: string, payload: Record<string, unknown>, workerId: string, lockSeconds: number): Promise<ClaimedDelivery> {
      const { rows } = await q.query<ClaimedDelivery>(
        `INSERT INTO webhook_deliveries (event_id, webhook_id, tenant_id, event, order_key, payload, status, attempts, locked_by, locked_until)
         VALUES ($1::uuid, $2, $3, $4, $8, $5, 'delivering', 1, $6, now() + make_interval(secs => $7))
         RETURNING id::text, event_id::text, webhook_id, tenant_id, event, payload::text AS payload, attempts`,
        [eventId, w.id, w.tenant_id, event, JSON.stringify(payload), workerId, lockSeconds, `test:${eventId}`]);
      return { ...rows[0], url: w.url, secret: w.secret, custom_headers: w.custom_headers };
    },

    /** See {@link CLAIM}. */
    async claim(workerId: string, limit: number, lockSeconds: number, staleSeconds: number): Promise<ClaimedDelivery[]> {
      if (limit <= 0) return [];
      return (await db.query<ClaimedDelivery>(CLAIM, [workerId, limit, lockSeconds, staleSeconds])).rows;
    },

    /** See {@link FINISH}. Returns true when this attempt disabled the webhook. */
    async finishAttempt(d: ClaimedDelivery, workerId: string, o: AttemptOutcome): Promise<boolean> {
      const { rows } = await db.query<{ disabled_now: boolean }>(FINISH, [
        d.id, o.status, o.nextAttemptAt, o.statusCode, o.error, workerId, o.status === 'delivered' ? 'success' : 'failed',
        o.responseBody, o.durationMs, o.disableAfterSeconds,
      ]);
      return rows[0]?.disabled_now ?? false;
    },

    /** Extends the locks `workerId` holds on these deliveries (long receivers). */
    async extendLocks(workerId: string, ids: string[], lockSeconds: number): Promise<void> {
      if (ids.length === 0) return;
      await db.query(`UPDATE webhook_deliveries SET locked_until = now() + make_interval(secs => $3)
                       WHERE id = ANY($2::bigint[]) AND locked_by = $1 AND status = 'delivering'`, [workerId, ids, lockSeconds]);
    },

    /**
     * Queues an event again for a webhook: its latest delivery row goes back to pending with a
     * fresh retry budget. 'open': it is still queued; null: no such event for this webhook.
     */
    async redeliver(tenantId: string, webhookId: string, eventId: string): Promise<'queued' | 'open' | null> {
      const { rows } = await db.query<{ id: string; status: string }>(
        `SELECT id::text, status FROM webhook_deliveries WHERE tenant_id = $1 AND webhook_id = $2 AND event_id = $3 ORDER BY id DESC LIMIT 1`,
        [tenantId, webhookId, eventId]);
      if (!rows[0]) return null;
      if (rows[0].status === 'pending' || rows[0].status === 'delivering') return 'open';
      await db.query(`UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = now(), last_error = NULL
                       WHERE id = $1 AND status IN ('delivered', 'failed')`, [rows[0].id]);
      return 'queued';
    },

    /** The tenant's delivery logs, newest first, with each event's payload. */
    async logs(tenantId: string, f: { webhookId?: string; event?: string; eventId?: string; status?: 'success' | 'failed'; limit: number; skip: number }):
      Promise<{ logs: DeliveryLogRow[]; total: number }> {
      const where = ['l.tenant_id = $1'];
      const params: unknown[] = [tenantId];
      const add = (sql: string, v: unknown) => { params.push(v); where.push(sql.replace('?', `$${params.length}`)); };
      if (f.webhookId) add('l.webhook_id = ?', f.webhookId);
      if (f.event) add('l.event = ?', f.event);
      if (f.eventId) add('l.event_id = ?::uuid', f.eventId);
      if (f.status) add('l.status = ?', f.status);
      const cond = where.join(' AND ');
      const [page, total] = await Promise.all([
        db.query<DeliveryLogRow>(
          `SELECT l.id::text, l.tenant_id, l.webhook_id, l.webhook_name, l.event_id::text, l.event, l.url, l.status, l.status_code, l.response_body,
                  l.error_message, l.attempt_number, l.duration_ms, l.created_at, d.payload
             FROM webhook_delivery_logs l LEFT JOIN webhook_deliveries d ON d.id = l.delivery_id
            WHERE ${cond} ORDER BY l.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [...params, f.limit, f.skip]),
        db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_delivery_logs l WHERE ${cond}`, params),
      ]);
      return { logs: page.rows, total: total.rows[0].n };
    },

    /** Deletes logs and finished deliveries older than `days`, and deliveries of deleted webhooks. Returns the rows deleted. */
    async prune(days: number): Promise<{ logs: number; deliveries: number }> {
      const logs = await db.query(`DELETE FROM webhook_delivery_logs WHERE created_at < now() - make_interval(days => $1)`, [days]);
      // Finished ones past the retention, and any of a deleted webhook (written while it was being deleted).
      const deliveries = await db.query(
        `DELETE FROM webhook_deliveries d
          WHERE (d.created_at < now() - make_interval(days => $1) AND d.status IN ('delivered', 'failed'))
             OR NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id)`, [days]);
      return { logs: logs.rowCount ?? 0, deliveries: deliveries.rowCount ?? 0 };
    },
  };
}

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
