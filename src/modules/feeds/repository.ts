/**
 * The `feeds` and `feed_items` tables (their one writer, decision 0054): followed feeds, their
 * poll lease and state, and every item seen once per feed (unique on `(feed_id, item_key)`).
 */
import { newId } from '../../core/ids.ts';
import type { Db, Queryable } from '../../storage/db.ts';

/** A feed as stored. */
export interface FeedRow {
  id: string;
  tenant_id: string;
  profile_id: string;
  created_by: string;
  url: string;
  name: string | null;
  title: string | null;
  mode: 'draft' | 'queue';
  template: string;
  account_ids: string[];
  include_image: boolean;
  import_existing: boolean;
  paused: boolean;
  poll_interval_minutes: number;
  etag: string | null;
  last_modified: string | null;
  last_checked_at: Date | null;
  last_success_at: Date | null;
  last_error: string | null;
  last_error_at: Date | null;
  consecutive_failures: number;
  next_check_at: Date;
  locked_by: string | null;
  locked_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** An item as stored. */
export interface FeedItemRow {
  id: string;
  feed_id: string;
  item_key: string;
  link: string | null;
  title: string | null;
  published_at: Date | null;
  status: 'created' | 'skipped' | 'failed';
  post_id: string | null;
  error: string | null;
  created_at: Date;
}

/** The fields a create or update sets. */
export interface FeedFields {
  url: string;
  name: string | null;
  mode: 'draft' | 'queue';
  template: string;
  accountIds: string[];
  includeImage: boolean;
  importExisting: boolean;
  paused: boolean;
  pollIntervalMinutes: number;
}

/** The end of a check, written under the lease. */
export type CheckOutcome =
  | { ok: true; title?: string | null; etag?: string | null; lastModified?: string | null; nextCheckAt: Date }
  | { ok: false; error: string; nextCheckAt: Date };

/** The statements on `feeds` and `feed_items`, over `db` (or the caller's transaction where a method takes `q`). */
export function createFeedsRepository(db: Db) {
  return {
    /** The tenant's feeds (of one profile when given), oldest first. */
    async list(tenantId: string, profileIds: readonly string[] | null): Promise<FeedRow[]> {
      return (await db.query<FeedRow>(
        `SELECT * FROM feeds WHERE tenant_id = $1 AND ($2::char(24)[] IS NULL OR profile_id = ANY($2)) ORDER BY created_at, id`,
        [tenantId, profileIds])).rows;
    },

    /** The tenant's feed `id`, or null. */
    async get(tenantId: string, id: string, q: Queryable = db): Promise<FeedRow | null> {
      return (await q.query<FeedRow>('SELECT * FROM feeds WHERE tenant_id = $1 AND id = $2', [tenantId, id])).rows[0] ?? null;
    },

    /** Whether the profile follows `url` already (another feed than `exceptId`). */
    async urlTaken(profileId: string, url: string, exceptId: string | null): Promise<boolean> {
      const { rows } = await db.query('SELECT 1 FROM feeds WHERE profile_id = $1 AND url = $2 AND id IS DISTINCT FROM $3', [profileId, url, exceptId]);
      return rows.length > 0;
    },

    /** Stores a new feed, due at once. Null when the profile follows the URL already (unique index). */
    async insert(tenantId: string, profileId: string, createdBy: string, f: FeedFields): Promise<FeedRow | null> {
      const { rows } = await db.query<FeedRow>(
        `INSERT INTO feeds (id, tenant_id, profile_id, created_by, url, name, mode, template, account_ids, include_image, import_existing, paused, poll_interval_minutes)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         ON CONFLICT (profile_id, url) DO NOTHING RETURNING *`,
        [newId(), tenantId, profileId, createdBy, f.url, f.name, f.mode, f.template, f.accountIds, f.includeImage, f.importExisting, f.paused, f.pollIntervalMinutes]);
      return rows[0] ?? null;
    },

    /**
     * Replaces the settable fields. A changed URL forgets the validators and the error and is due
     * at once; resuming a paused feed makes it due at once. Null when the tenant has no such feed.
     */
    async update(tenantId: string, id: string, f: FeedFields): Promise<FeedRow | null> {
      const { rows } = await db.query<FeedRow>(
        `UPDATE feeds SET
            etag = CASE WHEN url = $3 THEN etag END, last_modified = CASE WHEN url = $3 THEN last_modified END,
            last_error = CASE WHEN url = $3 THEN last_error END, last_error_at = CASE WHEN url = $3 THEN last_error_at END,
            consecutive_failures = CASE WHEN url = $3 THEN consecutive_failures ELSE 0 END,
            next_check_at = CASE WHEN url <> $3 OR (paused AND NOT $9) THEN now() ELSE next_check_at END,
            url = $3, name = $4, mode = $5, template = $6, account_ids = $7, include_image = $8, paused = $9, poll_interval_minutes = $10,
            updated_at = now()
          WHERE tenant_id = $1 AND id = $2 RETURNING *`,
        [tenantId, id, f.url, f.name, f.mode, f.template, f.accountIds, f.includeImage, f.paused, f.pollIntervalMinutes]);
      return rows[0] ?? null;
    },

    /** Deletes the feed and its item records (its posts stay). False when the tenant has no such feed. */
    async remove(tenantId: string, id: string): Promise<boolean> {
      const { rowCount } = await db.query('DELETE FROM feeds WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
      return (rowCount ?? 0) > 0;
    },

    /** The feed's latest items, newest first. */
    async recentItems(feedId: string, limit: number): Promise<FeedItemRow[]> {
      return (await db.query<FeedItemRow>('SELECT * FROM feed_items WHERE feed_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [feedId, limit])).rows;
    },

    /** How many items the feed has recorded (0: its first check is still to come). */
    async itemCount(feedId: string, q: Queryable = db): Promise<number> {
      return Number((await q.query<{ n: string }>('SELECT count(*) AS n FROM feed_items WHERE feed_id = $1', [feedId])).rows[0].n);
    },

    /** Of these keys, those the feed has recorded already. */
    async knownKeys(feedId: string, keys: string[]): Promise<Set<string>> {
      const { rows } = await db.query<{ item_key: string }>('SELECT item_key FROM feed_items WHERE feed_id = $1 AND item_key = ANY($2::text[])', [feedId, keys]);
      return new Set(rows.map((r) => r.item_key));
    },

    /**
     * Records an item once: the row's id, or null when the feed has it already (another worker or an
     * earlier check recorded it; the unique index decides). Runs in the caller's transaction.
     */
    async recordItem(q: Queryable, feed: Pick<FeedRow, 'id' | 'tenant_id'>, item: { key: string; link: string; title: string; publishedAt: Date | null },
      outcome: { status: FeedItemRow['status']; postId?: string | null; error?: string | null }): Promise<string | null> {
      const { rows } = await q.query<{ id: string }>(
        `INSERT INTO feed_items (id, feed_id, tenant_id, item_key, link, title, published_at, status, post_id, error)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (feed_id, item_key) DO NOTHING RETURNING id`,
        [newId(), feed.id, feed.tenant_id, item.key, item.link || null, item.title || null, item.publishedAt, outcome.status, outcome.postId ?? null, outcome.error ?? null]);
      return rows[0]?.id ?? null;
    },

    /** Sets the post of a recorded item (same transaction as the post's insert). */
    async setItemPost(q: Queryable, itemId: string, postId: string, error: string | null): Promise<void> {
      await q.query(`UPDATE feed_items SET status = 'created', post_id = $2, error = $3 WHERE id = $1`, [itemId, postId, error]);
    },

    /**
     * Leases up to `limit` due, unpaused feeds to `workerId` for `leaseMs` (one worker at a time per
     * feed: a leased feed is skipped by the others until its lease ends or is released).
     */
    async claimDue(workerId: string, limit: number, leaseMs: number): Promise<FeedRow[]> {
      return (await db.query<FeedRow>(
        `UPDATE feeds f SET locked_by = $1, locked_until = now() + make_interval(secs => $3::double precision / 1000)
          WHERE f.id IN (SELECT id FROM feeds WHERE NOT paused AND next_check_at <= now()
                            AND (locked_until IS NULL OR locked_until < now())
                          ORDER BY next_check_at LIMIT $2 FOR UPDATE SKIP LOCKED)
          RETURNING f.*`, [workerId, limit, leaseMs])).rows;
    },

    /** Makes a feed due now (the "check now" of the API). False when the tenant has no such feed. */
    async makeDue(tenantId: string, id: string): Promise<boolean> {
      const { rowCount } = await db.query('UPDATE feeds SET next_check_at = now() WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
      return (rowCount ?? 0) > 0;
    },

    /**
     * Writes a check's end and releases the lease, only while `workerId` still holds it (a worker
     * whose lease ran out writes nothing). False when it no longer held it.
     */
    async finishCheck(id: string, workerId: string, o: CheckOutcome): Promise<boolean> {
      const { rowCount } = o.ok
        ? await db.query(
          `UPDATE feeds SET locked_by = NULL, locked_until = NULL, last_checked_at = now(), last_success_at = now(),
              last_error = NULL, last_error_at = NULL, consecutive_failures = 0, next_check_at = $3,
              title = CASE WHEN $4::boolean THEN $5 ELSE title END,
              etag = CASE WHEN $6::boolean THEN $7 ELSE etag END, last_modified = CASE WHEN $6::boolean THEN $8 ELSE last_modified END
            WHERE id = $1 AND locked_by = $2`,
          [id, workerId, o.nextCheckAt, o.title !== undefined, o.title ?? null, o.etag !== undefined, o.etag ?? null, o.lastModified ?? null])
        : await db.query(
          `UPDATE feeds SET locked_by = NULL, locked_until = NULL, last_checked_at = now(), last_error = $3, last_error_at = now(),
              consecutive_failures = consecutive_failures + 1, next_check_at = $4
            WHERE id = $1 AND locked_by = $2`, [id, workerId, o.error.slice(0, 1000), o.nextCheckAt]);
      return (rowCount ?? 0) > 0;
    },
  };
}

export type FeedsRepository = ReturnType<typeof createFeedsRepository>;
