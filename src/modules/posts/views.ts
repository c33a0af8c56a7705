/**
 * Post and target rows: their types, how one post or a few are read (with their targets, from
 * one snapshot), and the API view of a post. Writes are in ./storage.ts, the status rule in
 * ./status.ts, the list in ./list-queries.ts; ./repository.ts exports them all.
 */
import { asErrorCategory, errorSourceOf } from '../../shared/failure-categories.ts';
import { type Queryable } from '../../storage/db.ts';
import type { MediaRef } from '../../platforms/types.ts';
import type { PostStatus } from './schemas.ts';
import { recyclingView, type StoredRecycling } from './recycling-state.ts';

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
  hashtags: string[];
  mentions: string[];
  media_items: MediaRef[];
  queued_from_profile: string | null;
  /** The queue whose slot a queued post holds (migration 0031); null outside a queue. */
  queue_id: string | null;
  hidden: boolean;
  metadata: Record<string, unknown>;
  usage_counted_at: Date | null;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** Recycling config and state (docs/decisions/0061-recycling.md); null when the post has none. */
  recycling: StoredRecycling | null;
  /** Due time of the next recycled copy; null when recycling is paused, finished or absent. */
  recycle_next_at: Date | null;
  /** On a recycled copy: the post it copies (null once that post is deleted). */
  recycled_from_post_id: string | null;
}

/** The columns of {@link PostRow}, for statements that must not say `*` (prepared ones, see PreparedStatement). */
const POST_COLUMNS = ['id', 'tenant_id', 'created_by', 'title', 'content', 'status', 'scheduled_for', 'timezone', 'publish_now', 'is_draft',
  'visibility', 'tags', 'hashtags', 'mentions', 'media_items', 'queued_from_profile', 'queue_id', 'hidden', 'metadata', 'usage_counted_at',
  'published_at', 'created_at', 'updated_at', 'recycling', 'recycle_next_at', 'recycled_from_post_id'] as const satisfies ReadonlyArray<keyof PostRow>;
/** What a post's view reads of its row (the list selects only these: every column is parsed on every row). */
export const P_COLUMNS = POST_COLUMNS.filter((c) => c !== 'usage_counted_at').map((c) => `p.${c}`).join(', ');

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
  /** The target's own time (decision 0064), or null: it follows its post's scheduled_for. */
  scheduled_for: Date | null;
  attempts: number;
  locked_by: string | null;
  locked_until: Date | null;
  platform_post_id: string | null;
  platform_post_url: string | null;
  published_at: Date | null;
  error_message: string | null;
  error_category: string | null;
  /**
   * `thread`: each item of a published thread; `duplicates`: extra copies a worker that had lost the
   * target published (decision 0045), for the user to unpublish.
   */
  result: {
    thread?: Array<{ platformPostId: string; platformPostUrl: string }>;
    duplicates?: Array<{ platformPostId: string; platformPostUrl: string | null }>;
    /** The platform publishes the post itself at this time (PublishResult.goesLiveAt); the target waits in `pending` with its platform id. */
    goesLiveAt?: string;
  } | null;
  updated_at: Date;
}

interface TargetWithAccount extends TargetRow {
  acc_username: string | null;
  acc_display_name: string | null;
  acc_is_active: boolean | null;
}

/** What a target's view needs of its row and its account. */
type TargetViewRow = Pick<TargetWithAccount, 'id' | 'platform' | 'account_id' | 'acc_username' | 'acc_display_name' | 'acc_is_active'
  | 'custom_content' | 'platform_specific_data' | 'status' | 'platform_post_id' | 'platform_post_url' | 'published_at' | 'error_message'
  | 'error_category' | 'attempts' | 'result'> & {
  /** The target's own time; text when read through JSON; absent from rows that never have one (see postView). */
  scheduled_for?: Date | string | null;
  /** Set once unpublish removed the post from the platform (unpublish.ts); text when read through JSON. */
  removed_from_platform_at?: Date | string | null;
  /** Why unpublish could not remove it (the platform's answer or not_supported). */
  unpublish_error?: string | null;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Seconds between when a target was due (its own time, else the post's scheduled time) and when it was published,
 * rounded, never negative; null unless published with a scheduled time. A publishNow post is due
 * when it was created.
 */
function lateSeconds(t: TargetViewRow, scheduledFor: Date | null): number | null {
  const due = t.scheduled_for ?? scheduledFor;
  if (t.status !== 'published' || !t.published_at || !due) return null;
  return Math.max(0, Math.round((new Date(t.published_at).getTime() - new Date(due).getTime()) / 1000));
}

function targetView(t: TargetViewRow, scheduledFor: Date | null) {
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
    // The client's enums (decision 0063): the category stored at the failure, its source derived.
    errorCategory: asErrorCategory(t.error_category),
    errorSource: errorSourceOf(t.error_category),
    attempts: t.attempts,
    ...(t.scheduled_for ? { scheduledFor: new Date(t.scheduled_for).toISOString() } : {}),
    ...(t.result?.thread ? { thread: t.result.thread } : {}),
    ...(t.result?.duplicates?.length ? { duplicates: t.result.duplicates } : {}),
    ...((late) => (late === null ? {} : { lateSeconds: late }))(lateSeconds(t, scheduledFor)),
    ...(t.status === 'pending' && t.result?.goesLiveAt ? { goesLiveAt: t.result.goesLiveAt } : {}),
    // Only for targets unpublish touched: every other answer stays as it was.
    ...(t.removed_from_platform_at ? { removedFromPlatformAt: new Date(t.removed_from_platform_at).toISOString() } : {}),
    ...(t.unpublish_error ? { unpublishError: t.unpublish_error } : {}),
  };
}

export function postView(p: PostRow, targets: TargetViewRow[]) {
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
    platforms: targets.map((t) => targetView(t, p.scheduled_for)),
    scheduledFor: iso(p.scheduled_for),
    timezone: p.timezone,
    status: p.status,
    publishNow: p.publish_now,
    isDraft: p.is_draft,
    visibility: p.visibility,
    tags: p.tags,
    hashtags: p.hashtags ?? [],
    mentions: p.mentions ?? [],
    queuedFromProfile: p.queued_from_profile,
    queueId: p.queue_id,
    hidden: p.hidden,
    metadata: p.metadata,
    ...(threads.length ? { thread: threads } : {}),
    ...(p.recycling ? { recycling: recyclingView(p.recycling, p.recycle_next_at) } : {}),
    ...(p.recycled_from_post_id ? { recycledFromPostId: p.recycled_from_post_id } : {}),
    publishedAt: iso(p.published_at),
    createdAt: p.created_at.toISOString(),
    updatedAt: p.updated_at.toISOString(),
  };
}

export type PostViewT = ReturnType<typeof postView>;

/** A target as its post's view reads it (one element of the `targets` array {@link loadPostViews} selects). */
type TargetJson = Omit<TargetViewRow, 'published_at'> & { published_at: string | null };

/**
 * Loads the API views of the given posts (of one tenant), in the order of `ids`: each post
 * with its targets in one statement, so a post and its targets come from the same snapshot
 * (two separate reads could show a published post whose target still says publishing).
 */
export async function loadPostViews(q: Queryable, tenantId: string, ids: string[]): Promise<PostViewT[]> {
  if (ids.length === 0) return [];
  const { rows } = await q.query<PostWithTargets>(
    `SELECT p.*, ${TARGETS_JSON} AS targets FROM posts p WHERE p.tenant_id = $1 AND p.id = ANY($2::char(24)[])`,
    [tenantId, ids],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.filter((id) => byId.has(id)).map((id) => viewWithTargets(byId.get(id)!));
}

/** A post row with its targets as {@link TARGETS_JSON} selects them. */
export type PostWithTargets = PostRow & { targets: TargetJson[] };

/**
 * The targets of post row `p`, with their accounts, as one JSON array ordered by position. Built
 * from a row (`json_agg(x)`), which costs PostgreSQL about a quarter less CPU than naming every
 * key in `json_build_object`.
 */
export const TARGETS_JSON = `COALESCE((
       SELECT json_agg(x ORDER BY x.position) FROM (
         SELECT t.position, t.id, t.account_id, t.platform, t.custom_content, t.platform_specific_data, t.status, t.attempts,
                t.platform_post_id, t.platform_post_url, t.published_at, t.error_message, t.error_category, t.result,
                t.removed_from_platform_at, t.unpublish_error, t.scheduled_for,
                a.username AS acc_username, a.display_name AS acc_display_name, a.is_active AS acc_is_active
           FROM post_targets t LEFT JOIN accounts a ON a.id = t.account_id
          WHERE t.post_id = p.id AND t.tenant_id = p.tenant_id) x), '[]'::json)`;

/** The view of a post row read with {@link TARGETS_JSON} (postView reads only the row's own fields, so extra columns do no harm). */
export function viewWithTargets(row: PostWithTargets): PostViewT {
  const targets = row.targets as unknown as TargetViewRow[];
  // JSON has no dates: published_at comes as text (kept as a Date for the view, like a row's).
  for (const t of row.targets) if (t.published_at !== null) (t as unknown as TargetViewRow).published_at = new Date(t.published_at);
  return postView(row, targets);
}

/** The tenant's post, locked FOR UPDATE in the caller's transaction; null when absent. */
export async function lockPost(q: Queryable, tenantId: string, id: string): Promise<PostRow | null> {
  const { rows } = await q.query<PostRow>('SELECT * FROM posts WHERE id = $1 AND tenant_id = $2 FOR UPDATE', [id, tenantId]);
  return rows[0] ?? null;
}

export async function getPostRow(q: Queryable, id: string): Promise<PostRow | null> {
  const { rows } = await q.query<PostRow>('SELECT * FROM posts WHERE id = $1', [id]);
  return rows[0] ?? null;
}

/** The profiles of the accounts a post targets (for team members scoped to profiles). */
export async function targetProfileIds(q: Queryable, postId: string): Promise<string[]> {
  const { rows } = await q.query<{ profile_id: string }>(
    'SELECT a.profile_id FROM post_targets t JOIN accounts a ON a.id = t.account_id WHERE t.post_id = $1', [postId]);
  return rows.map((r) => r.profile_id);
}

/** The post's targets in order, without locking (a read ahead of the transaction that locks them). */
export async function readTargets(q: Queryable, postId: string): Promise<TargetRow[]> {
  return (await q.query<TargetRow>('SELECT * FROM post_targets WHERE post_id = $1 ORDER BY position', [postId])).rows;
}

/** The post's targets in order, locked FOR UPDATE. */
export async function lockTargets(q: Queryable, postId: string): Promise<TargetRow[]> {
  return (await q.query<TargetRow>('SELECT * FROM post_targets WHERE post_id = $1 ORDER BY position FOR UPDATE', [postId])).rows;
}

/**
 * Whether a target's post is on the platform already: published, or held by the platform to
 * publish at its time (a YouTube video uploaded ahead: pending with its platform id). An edit
 * keeps such targets as they are (it cannot move or re-create what the platform holds).
 */
export const isOnPlatform = (t: Pick<TargetRow, 'status' | 'platform_post_id'>): boolean =>
  t.status === 'published' || (t.status === 'pending' && t.platform_post_id !== null);

/** Whether a post has a target published on its platform (live content a delete would lose track of). */
export async function hasPublishedTarget(q: Queryable, postId: string): Promise<boolean> {
  const { rows } = await q.query<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM post_targets WHERE post_id = $1 AND status = 'published') AS found`, [postId]);
  return rows[0].found;
}
