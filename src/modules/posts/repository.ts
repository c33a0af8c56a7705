/**
 * Posts and targets in PostgreSQL: rows, the API view, listing with filters, and the
 * status derivation shared by the API and the publisher.
 */
import type { Queryable } from '../../storage/db.ts';
import type { MediaRef } from '../../platforms/types.ts';
import type { PostStatus } from './schemas.ts';

export interface PostRow {
  id: string;
  tenant_id: string;
  created_by: string;
  title: string | null;
  content: string;
  status: PostStatus;
  scheduled_for: Date | null;
  timezone: string;
  publish_now: boolean;
  is_draft: boolean;
  visibility: 'public' | 'private' | 'unlisted';
  tags: string[];
  media_items: MediaRef[];
  queued_from_profile: string | null;
  hidden: boolean;
  metadata: Record<string, unknown>;
  usage_counted_at: Date | null;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type TargetStatus = 'draft' | 'pending' | 'publishing' | 'published' | 'failed' | 'cancelled';

export interface TargetRow {
  id: string;
  post_id: string;
  tenant_id: string;
  position: number;
  account_id: string;
  platform: string;
  custom_content: string | null;
  platform_specific_data: Record<string, unknown>;
  status: TargetStatus;
  run_at: Date | null;
  attempts: number;
  locked_by: string | null;
  locked_until: Date | null;
  platform_post_id: string | null;
  platform_post_url: string | null;
  published_at: Date | null;
  error_message: string | null;
  error_category: string | null;
  result: { thread?: Array<{ platformPostId: string; platformPostUrl: string }> } | null;
  updated_at: Date;
}

interface TargetWithAccount extends TargetRow {
  acc_username: string | null;
  acc_display_name: string | null;
  acc_is_active: boolean | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function targetView(t: TargetWithAccount) {
  return {
    _id: t.id,
    platform: t.platform,
    accountId: t.acc_username !== null
      ? { _id: t.account_id, platform: t.platform, username: t.acc_username, displayName: t.acc_display_name ?? t.acc_username, isActive: t.acc_is_active ?? false }
      : t.account_id,
    customContent: t.custom_content,
    platformSpecificData: t.platform_specific_data,
    status: t.status,
    platformPostId: t.platform_post_id,
    platformPostUrl: t.platform_post_url,
    publishedAt: iso(t.published_at),
    errorMessage: t.error_message,
    errorCategory: t.error_category,
    attempts: t.attempts,
    ...(t.result?.thread ? { thread: t.result.thread } : {}),
  };
}

export function postView(p: PostRow, targets: TargetWithAccount[]) {
  const threads = targets
    .filter((t) => t.result?.thread && t.result.thread.length > 0)
    .map((t) => ({ platform: t.platform, accountId: t.account_id, items: t.result!.thread! }));
  return {
    _id: p.id,
    userId: p.tenant_id,
    createdBy: p.created_by,
    title: p.title,
    content: p.content,
    mediaItems: p.media_items as unknown as Record<string, unknown>[],
    platforms: targets.map(targetView),
    scheduledFor: iso(p.scheduled_for),
    timezone: p.timezone,
    status: p.status,
    publishNow: p.publish_now,
    isDraft: p.is_draft,
    visibility: p.visibility,
    tags: p.tags,
    queuedFromProfile: p.queued_from_profile,
    hidden: p.hidden,
    metadata: p.metadata,
    ...(threads.length ? { thread: threads } : {}),
    publishedAt: iso(p.published_at),
    createdAt: p.created_at.toISOString(),
    updatedAt: p.updated_at.toISOString(),
  };
}

export type PostViewT = ReturnType<typeof postView>;

/** Loads the API views of the given posts (of one tenant), in the order of `ids`. */
export async function loadPostViews(q: Queryable, tenantId: string, ids: string[]): Promise<PostViewT[]> {
  if (ids.length === 0) return [];
  const [{ rows: posts }, { rows: targets }] = await Promise.all([
    q.query<PostRow>('SELECT * FROM posts WHERE tenant_id = $1 AND id = ANY($2::char(24)[])', [tenantId, ids]),
    q.query<TargetWithAccount>(
      `SELECT t.*, a.username AS acc_username, a.display_name AS acc_display_name, a.is_active AS acc_is_active
         FROM post_targets t LEFT JOIN accounts a ON a.id = t.account_id
        WHERE t.tenant_id = $1 AND t.post_id = ANY($2::char(24)[])
        ORDER BY t.post_id, t.position`,
      [tenantId, ids],
    ),
  ]);
  const byPost = new Map<string, TargetWithAccount[]>();
  for (const t of targets) {
    const list = byPost.get(t.post_id) ?? [];
    list.push(t);
    byPost.set(t.post_id, list);
  }
  const byId = new Map(posts.map((p) => [p.id, p]));
  return ids.filter((id) => byId.has(id)).map((id) => postView(byId.get(id)!, byPost.get(id) ?? []));
}

/**
 * The one rule deriving a post's status from its targets (docs/decisions/0004-status-table.md),
 * as a SQL expression over a row `a` of counts: total, published, failed (failed or
 * cancelled), publishing, retrying (pending after an attempt). All published: published;
 * all finished with some published: partial; all failed: failed; anything started: publishing;
 * else scheduled. Used by recomputePostStatus and by the publisher's single-target finish.
 */
export const POST_STATUS_FROM_TARGET_COUNTS = (a: string) => `CASE
         WHEN ${a}.total = 0 THEN p.status
         WHEN ${a}.published = ${a}.total THEN 'published'
         WHEN ${a}.published + ${a}.failed = ${a}.total AND ${a}.published > 0 THEN 'partial'
         WHEN ${a}.failed = ${a}.total THEN 'failed'
         WHEN ${a}.publishing > 0 OR ${a}.retrying > 0 OR ${a}.published + ${a}.failed > 0 THEN 'publishing'
         ELSE 'scheduled' END`;

/**
 * Derives a post's status from its targets with {@link POST_STATUS_FROM_TARGET_COUNTS} and
 * stores it; drafts and cancelled posts are left alone. The caller must hold the post row
 * lock (SELECT ... FOR UPDATE) in its transaction, so that concurrent target updates are
 * all visible to this statement.
 */
export async function recomputePostStatus(q: Queryable, postId: string): Promise<PostStatus | null> {
  const { rows } = await q.query<{ status: PostStatus }>(
    `WITH agg AS (
       SELECT count(*) AS total,
              count(*) FILTER (WHERE status = 'published') AS published,
              count(*) FILTER (WHERE status IN ('failed', 'cancelled')) AS failed,
              count(*) FILTER (WHERE status = 'publishing') AS publishing,
              count(*) FILTER (WHERE status = 'pending' AND attempts > 0) AS retrying,
              max(published_at) AS last_published
         FROM post_targets WHERE post_id = $1)
     UPDATE posts p SET
       status = ${POST_STATUS_FROM_TARGET_COUNTS('agg')},
       published_at = COALESCE(p.published_at, agg.last_published),
       updated_at = now()
       FROM agg
      WHERE p.id = $1 AND p.status NOT IN ('draft', 'cancelled')
     RETURNING p.status`,
    [postId],
  );
  return rows[0]?.status ?? null;
}

/**
 * Recomputes the status of up to `limit` scheduled or publishing posts none of whose targets
 * is still pending or publishing (a status left behind by a crash). Returns how many.
 */
export async function repairPostStatuses(client: Queryable, limit: number): Promise<number> {
  const { rows } = await client.query<{ id: string }>(
    `SELECT p.id FROM posts p
      WHERE p.status IN ('scheduled', 'publishing')
        AND NOT EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = p.id AND t.status IN ('pending', 'publishing'))
      LIMIT $1`, [limit]);
  for (const { id } of rows) {
    await client.query('SELECT 1 FROM posts WHERE id = $1 FOR UPDATE', [id]);
    await recomputePostStatus(client, id);
  }
  return rows.length;
}
