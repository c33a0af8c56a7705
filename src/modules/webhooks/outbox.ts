/**
 * The webhook outbox: SQL that writes the deliveries of an event in the statement or transaction
 * of the state change that causes it (docs/decisions/0038-webhook-outbox.md). One row per event
 * and active subscription of the tenant that lists the event: a tenant without webhooks gets no
 * row, and the statements below cost it one probe of the `webhooks_tenant_active` index.
 *
 * The webhooks module owns these tables; the publishing pipeline and the posts and accounts
 * modules embed the SQL built here (a CTE of their own statement, or one statement in their
 * transaction) instead of writing the tables themselves.
 */
import type { Queryable } from '../../storage/db.ts';
import { errorCategorySql, errorSourceSql } from '../../shared/failure-categories.ts';


/** An SQL timestamptz expression as ISO 8601 UTC text with milliseconds and `Z` (null stays null). */
export const isoSql = (expr: string) => `to_char((${expr}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** SQL condition: the tenant (an SQL expression) has an active webhook (one index probe). */
export const hasWebhooksSql = (tenant: string) => `EXISTS (SELECT 1 FROM webhooks w0 WHERE w0.tenant_id = ${tenant} AND w0.is_active)`;

/**
 * `errorCategory` and `errorSource` of a failed target alias `t` (null otherwise, then stripped):
 * the client's enums from the stored category (src/shared/failure-categories.ts, decision 0063).
 */
const failureFieldsSql = (t: string) => `'errorCategory', CASE WHEN ${t}.status = 'failed' THEN ${errorCategorySql(`${t}.error_category`)} END,
  'errorSource', CASE WHEN ${t}.status = 'failed' THEN ${errorSourceSql(`${t}.error_category`)} END`;

/**
 * The `platforms[]` item of a post payload for a target row alias `t` (columns of post_targets).
 */
export const targetItemSql = (t: string) => `jsonb_strip_nulls(jsonb_build_object('platform', ${t}.platform, 'status', ${t}.status,
  'accountId', ${t}.account_id, 'platformPostId', ${t}.platform_post_id, 'publishedUrl', ${t}.platform_post_url, 'error', ${t}.error_message,
  ${failureFieldsSql(t)}))`;

/**
 * The `{ post: {...} }` part of a post payload: `p` is an alias with the posts columns id,
 * content, status, scheduled_for, published_at and metadata; `platforms` an SQL jsonb array.
 */
export const postBodySql = (p: string, platforms: string) => `jsonb_build_object('post', jsonb_strip_nulls(jsonb_build_object(
  'id', ${p}.id, 'content', ${p}.content, 'status', ${p}.status, 'scheduledFor', ${isoSql(`${p}.scheduled_for`)},
  'publishedAt', ${isoSql(`${p}.published_at`)}, 'platforms', ${platforms},
  'metadata', CASE WHEN ${p}.metadata = '{}'::jsonb THEN NULL ELSE ${p}.metadata END)))`;

/** The platforms array of post `p` read from post_targets (in the statement's snapshot). */
export const postPlatformsSql = (p: string) =>
  `(SELECT coalesce(jsonb_agg(${targetItemSql('t9')} ORDER BY t9.position), '[]'::jsonb) FROM post_targets t9 WHERE t9.post_id = ${p}.id)`;

/** The extra blocks of a `post.platform.*` payload for target alias `t`. */
export const platformBlockSql = (t: string) => `jsonb_build_object(
  'platform', jsonb_strip_nulls(jsonb_build_object('name', ${t}.platform, 'status', ${t}.status, 'platformPostId', ${t}.platform_post_id,
    'publishedUrl', ${t}.platform_post_url, 'error', ${t}.error_message, ${failureFieldsSql(t)})),
  'account', jsonb_build_object('accountId', ${t}.account_id, 'platform', ${t}.platform))`;

/**
 * An INSERT of deliveries for the events that `source` yields. `source` is an SQL query with
 * the columns tenant_id, event (text), order_key (text: deliveries with the same webhook and
 * key go out in order), event_key (text: unique for the event within the transaction), rank
 * (int: order of the events of one key in this statement) and body (jsonb: the payload fields
 * besides id, event and timestamp). Usable as a statement or as a data-modifying CTE.
 * The event id is derived from (event, event_key, transaction time), so every subscription
 * receives an event under the same id.
 */
export function outboxInsertSql(source: string): string {
  return `INSERT INTO webhook_deliveries (event_id, webhook_id, tenant_id, event, order_key, payload)
   SELECT e.event_id, w.id, e.tenant_id, e.event, e.order_key,
          jsonb_build_object('id', e.event_id, 'event', e.event) || e.body || jsonb_build_object('timestamp', ${isoSql('now()')})
     FROM (SELECT s.*, md5(s.event || ':' || s.event_key || ':' || now()::text)::uuid AS event_id FROM (${source}) s) e
     JOIN webhooks w ON w.tenant_id = e.tenant_id AND w.is_active AND e.event = ANY(w.events)
    ORDER BY e.order_key, e.rank, w.id`;
}

/**
 * The events of targets finished in one statement, for the publisher's group-committed finish:
 * `tgt` is a CTE of finished targets (post_targets columns id, post_id, tenant_id, status,
 * platform, account_id, platform_post_id, platform_post_url, error_message, error_category) and `pst` a CTE of
 * their posts after the update (posts columns plus `old_status`, the status before it). Each
 * target published or failed gives `post.platform.<status>`, and each post whose status became
 * published, failed or partial gives `post.<status>` after it. The platforms array holds the
 * finished target (posts with one target).
 */
export function finishedSinglesOutboxSql(tgt: string, pst: string): string {
  const platforms = `jsonb_build_array(${targetItemSql(tgt)})`;
  return outboxInsertSql(`
    SELECT ${pst}.tenant_id, 'post.platform.' || ${tgt}.status AS event, ${pst}.id::text AS order_key, ${tgt}.id::text AS event_key, 1 AS rank,
           ${postBodySql(pst, platforms)} || ${platformBlockSql(tgt)} AS body
      FROM ${tgt} JOIN ${pst} ON ${pst}.id = ${tgt}.post_id
     WHERE ${tgt}.status IN ('published', 'failed') AND ${hasWebhooksSql(`${pst}.tenant_id`)}
    UNION ALL
    SELECT ${pst}.tenant_id, 'post.' || ${pst}.status, ${pst}.id::text, ${pst}.id::text, 2, ${postBodySql(pst, platforms)}
      FROM ${pst} JOIN ${tgt} ON ${tgt}.post_id = ${pst}.id
     WHERE ${pst}.status IN ('published', 'failed', 'partial') AND ${pst}.status IS DISTINCT FROM ${pst}.old_status
       AND ${hasWebhooksSql(`${pst}.tenant_id`)}`);
}

/**
 * `post.scheduled` for posts inserted in one statement: `np` is a CTE of new posts (posts
 * columns, status, publish_now) and `nt` one of their new targets (post_targets columns).
 * Posts published at once (publishNow) and drafts give none.
 */
export function scheduledPostsOutboxSql(np: string, nt: string, tenant: string): string {
  return outboxInsertSql(`
    SELECT ${tenant}::char(24) AS tenant_id, 'post.scheduled' AS event, ${np}.id::text AS order_key, ${np}.id::text AS event_key, 0 AS rank,
           ${postBodySql(np, `(SELECT coalesce(jsonb_agg(${targetItemSql('t8')} ORDER BY t8.position), '[]'::jsonb) FROM ${nt} t8 WHERE t8.post_id = ${np}.id)`)} AS body
      FROM ${np}
     WHERE ${np}.status = 'scheduled' AND NOT ${np}.publish_now AND ${hasWebhooksSql(`${tenant}::char(24)`)}`);
}

/**
 * Writes the deliveries of a post event from the post's current state (as `q`'s transaction
 * sees it): for changes outside the publisher's hot path (post.cancelled, post.scheduled after
 * an edit). With `whenStatus`, only if the post now has that status. Returns the number of
 * deliveries written (0: no subscription, or another status).
 */
export async function enqueuePostEvent(
  q: Queryable, postId: string, event: 'post.scheduled' | 'post.cancelled' | 'post.published' | 'post.failed' | 'post.partial', opts: { whenStatus?: string } = {},
): Promise<number> {
  const r = await q.query(outboxInsertSql(`
    SELECT p.tenant_id, $2::text AS event, p.id::text AS order_key, p.id::text AS event_key, 0 AS rank,
           ${postBodySql('p', postPlatformsSql('p'))} AS body
      FROM posts p WHERE p.id = $1 AND ($3::text IS NULL OR p.status = $3::text) AND ${hasWebhooksSql('p.tenant_id')}`), [postId, event, opts.whenStatus ?? null]);
  return r.rowCount ?? 0;
}

/**
 * The events of one finished target of a post with several targets, after its finish and the
 * post's recomputed status were written in `q`'s transaction: `post.platform.<status>` when the
 * target is published or failed, then `post.<status>` when the post's status changed from
 * `oldPostStatus` to published, failed or partial.
 */
export async function enqueueTargetFinishEvents(q: Queryable, targetId: string, oldPostStatus: string | null): Promise<number> {
  const r = await q.query(outboxInsertSql(`
    SELECT p.tenant_id, 'post.platform.' || t.status AS event, p.id::text AS order_key, t.id::text AS event_key, 1 AS rank,
           ${postBodySql('p', postPlatformsSql('p'))} || ${platformBlockSql('t')} AS body
      FROM post_targets t JOIN posts p ON p.id = t.post_id
     WHERE t.id = $1 AND t.status IN ('published', 'failed') AND ${hasWebhooksSql('p.tenant_id')}
    UNION ALL
    SELECT p.tenant_id, 'post.' || p.status, p.id::text, p.id::text, 2, ${postBodySql('p', postPlatformsSql('p'))}
      FROM post_targets t JOIN posts p ON p.id = t.post_id
     WHERE t.id = $1 AND p.status IN ('published', 'failed', 'partial') AND p.status IS DISTINCT FROM $2::text
       AND ${hasWebhooksSql('p.tenant_id')}`), [targetId, oldPostStatus]);
  return r.rowCount ?? 0;
}

/** An account as the account events describe it. */
export interface AccountEventSubject {
  id: string;
  tenant_id: string;
  profile_id: string;
  platform: string;
  username: string;
  display_name?: string | null;
}

/**
 * Writes `account.connected` or `account.disconnected` deliveries for an account (in `q`'s
 * transaction, beside the change). A disconnection says whether the user asked for it
 * (`intentional`) or the platform refused the token (`unintentional`), and why.
 */
export async function enqueueAccountEvent(
  q: Queryable, account: AccountEventSubject, event: 'account.connected' | 'account.disconnected',
  disconnection?: { type: 'intentional' | 'unintentional'; reason: string },
): Promise<number> {
  const block: Record<string, unknown> = {
    accountId: account.id, profileId: account.profile_id, platform: account.platform, username: account.username,
    ...(account.display_name ? { displayName: account.display_name } : {}),
    ...(disconnection ? { disconnectionType: disconnection.type, reason: disconnection.reason } : {}),
  };
  const r = await q.query(outboxInsertSql(`
    SELECT $1::char(24) AS tenant_id, $2::text AS event, $3::text AS order_key, $3::text AS event_key, 0 AS rank,
           jsonb_build_object('account', $4::jsonb) AS body
     WHERE ${hasWebhooksSql('$1::char(24)')}`), [account.tenant_id, event, `account:${account.id}`, JSON.stringify(block)]);
  return r.rowCount ?? 0;
}

/**
 * `account.disconnected` (unintentional: the platform refused the token) for the accounts of
 * `cte` (accounts columns id, tenant_id, profile_id, platform, username, display_name and
 * `was_active`, the state before the change) that were active; `reason` is an SQL text expression.
 */
export function accountsDisconnectedOutboxSql(cte: string, reason: string): string {
  return outboxInsertSql(`
    SELECT ${cte}.tenant_id, 'account.disconnected' AS event, 'account:' || ${cte}.id AS order_key, ${cte}.id::text AS event_key, 0 AS rank,
           jsonb_build_object('account', jsonb_strip_nulls(jsonb_build_object('accountId', ${cte}.id, 'profileId', ${cte}.profile_id,
             'platform', ${cte}.platform, 'username', ${cte}.username, 'displayName', ${cte}.display_name,
             'disconnectionType', 'unintentional', 'reason', ${reason}))) AS body
      FROM ${cte} WHERE ${cte}.was_active AND ${hasWebhooksSql(`${cte}.tenant_id`)}`);
}

/**
 * `post.platform.duplicate` for a target of which a second copy reached the platform (a worker that
 * had lost the target published anyway: decision 0045). The payload is the post, the target's
 * platform block, and `duplicate` (`platformPostId`, `platformPostUrl`, `attemptId`, `detectedAt`)
 * naming the extra copy, so that a receiver can unpublish it.
 */
export async function enqueueDuplicateEvent(q: Queryable, targetId: string, duplicate: Record<string, unknown>): Promise<number> {
  const r = await q.query(outboxInsertSql(`
    SELECT p.tenant_id, 'post.platform.duplicate' AS event, p.id::text AS order_key, t.id::text || ':' || ($2::jsonb->>'platformPostId') AS event_key, 3 AS rank,
           ${postBodySql('p', postPlatformsSql('p'))} || ${platformBlockSql('t')} || jsonb_build_object('duplicate', $2::jsonb) AS body
      FROM post_targets t JOIN posts p ON p.id = t.post_id
     WHERE t.id = $1 AND ${hasWebhooksSql('p.tenant_id')}`), [targetId, JSON.stringify(duplicate)]);
  return r.rowCount ?? 0;
}

/**
 * An approvals event of a post (decision 0059): `post.submitted`, `post.approved`,
 * `post.changes_requested` or `post.commented`, with the post as it now is and `block` (the
 * `review` or `comment` object: who, when, the comment) beside it, in `q`'s transaction.
 */
export async function enqueueReviewEvent(
  q: Queryable, postId: string, event: 'post.submitted' | 'post.approved' | 'post.changes_requested' | 'post.commented', eventKey: string, block: Record<string, unknown>,
): Promise<number> {
  const r = await q.query(outboxInsertSql(`
    SELECT p.tenant_id, $2::text AS event, p.id::text AS order_key, $3::text AS event_key, 4 AS rank,
           ${postBodySql('p', postPlatformsSql('p'))} || $4::jsonb AS body
      FROM posts p WHERE p.id = $1 AND ${hasWebhooksSql('p.tenant_id')}`), [postId, event, eventKey, JSON.stringify(block)]);
  return r.rowCount ?? 0;
}

/**
 * `post.recycled` (decision 0061): the recycling job created a copy of a post, in `q`'s transaction.
 * The payload's `post` is the copy (status scheduled, its time the due time) and `recycling` says
 * which post it copies and where the series stands (`sourcePostId`, `dueAt`, `recycleCount`,
 * `contentVariationIndex`, `nextRecycleAt`: null once recycling has ended).
 */
export async function enqueueRecycledEvent(q: Queryable, copyId: string, recycling: Record<string, unknown>): Promise<number> {
  const r = await q.query(outboxInsertSql(`
    SELECT p.tenant_id, 'post.recycled' AS event, p.id::text AS order_key, p.id::text AS event_key, 1 AS rank,
           ${postBodySql('p', postPlatformsSql('p'))} || jsonb_build_object('recycling', $2::jsonb) AS body
      FROM posts p WHERE p.id = $1 AND ${hasWebhooksSql('p.tenant_id')}`), [copyId, JSON.stringify(recycling)]);
  return r.rowCount ?? 0;
}
