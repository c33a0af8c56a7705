/**
 * Posts and targets in PostgreSQL: rows, the API view, listing with filters, and the
 * status derivation shared by the API and the publisher.
 */
import { DUPLICATE_MARKER, DUPLICATE_WINDOW_HOURS, type ContentClaim } from './duplicates.ts';
import { prepared, type PreparedStatement, type Queryable } from '../../storage/db.ts';
import type { MediaRef } from '../../platforms/types.ts';
import type { PostSort, PostStatus } from './schemas.ts';
import { hasWebhooksSql, scheduledPostsOutboxSql } from '../webhooks/outbox.ts';
import { accountsUnchangedSql } from '../accounts/repository.ts';

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
  hidden: boolean;
  metadata: Record<string, unknown>;
  usage_counted_at: Date | null;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The columns of {@link PostRow}, for statements that must not say `*` (prepared ones, see PreparedStatement). */
const POST_COLUMNS = ['id', 'tenant_id', 'created_by', 'title', 'content', 'status', 'scheduled_for', 'timezone', 'publish_now', 'is_draft',
  'visibility', 'tags', 'hashtags', 'mentions', 'media_items', 'queued_from_profile', 'hidden', 'metadata', 'usage_counted_at',
  'published_at', 'created_at', 'updated_at'] as const satisfies ReadonlyArray<keyof PostRow>;
/** What a post's view reads of its row (the list selects only these: every column is parsed on every row). */
const P_COLUMNS = POST_COLUMNS.filter((c) => c !== 'usage_counted_at').map((c) => `p.${c}`).join(', ');

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
  /** Set once unpublish removed the post from the platform (unpublish.ts); text when read through JSON. */
  removed_from_platform_at?: Date | string | null;
  /** Why unpublish could not remove it (the platform's answer or not_supported). */
  unpublish_error?: string | null;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Seconds between when a target was due (the post's scheduled time) and when it was published,
 * rounded, never negative; null unless published with a scheduled time. A publishNow post is due
 * when it was created.
 */
function lateSeconds(t: TargetViewRow, scheduledFor: Date | null): number | null {
  if (t.status !== 'published' || !t.published_at || !scheduledFor) return null;
  return Math.max(0, Math.round((new Date(t.published_at).getTime() - new Date(scheduledFor).getTime()) / 1000));
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
    errorCategory: t.error_category,
    attempts: t.attempts,
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
    hidden: p.hidden,
    metadata: p.metadata,
    ...(threads.length ? { thread: threads } : {}),
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
type PostWithTargets = PostRow & { targets: TargetJson[] };

/**
 * The targets of post row `p`, with their accounts, as one JSON array ordered by position. Built
 * from a row (`json_agg(x)`), which costs PostgreSQL about a quarter less CPU than naming every
 * key in `json_build_object`.
 */
const TARGETS_JSON = `COALESCE((
       SELECT json_agg(x ORDER BY x.position) FROM (
         SELECT t.position, t.id, t.account_id, t.platform, t.custom_content, t.platform_specific_data, t.status, t.attempts,
                t.platform_post_id, t.platform_post_url, t.published_at, t.error_message, t.error_category, t.result,
                t.removed_from_platform_at, t.unpublish_error,
                a.username AS acc_username, a.display_name AS acc_display_name, a.is_active AS acc_is_active
           FROM post_targets t LEFT JOIN accounts a ON a.id = t.account_id
          WHERE t.post_id = p.id AND t.tenant_id = p.tenant_id) x), '[]'::json)`;

/** The view of a post row read with {@link TARGETS_JSON} (postView reads only the row's own fields, so extra columns do no harm). */
function viewWithTargets(row: PostWithTargets): PostViewT {
  const targets = row.targets as unknown as TargetViewRow[];
  // JSON has no dates: published_at comes as text (kept as a Date for the view, like a row's).
  for (const t of row.targets) if (t.published_at !== null) (t as unknown as TargetViewRow).published_at = new Date(t.published_at);
  return postView(row, targets);
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
              count(*) FILTER (WHERE status = 'pending' AND attempts > 0 AND platform_post_id IS NULL) AS retrying,
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

/** The fields a post row is written with, on insert and on update. */
export interface PostFields {
  title: string | null;
  content: string;
  scheduledFor: Date | null;
  timezone: string;
  publishNow: boolean;
  isDraft: boolean;
  visibility: 'public' | 'private' | 'unlisted';
  tags: string[];
  hashtags: string[];
  mentions: string[];
  media: MediaRef[];
  hidden: boolean;
  metadata: Record<string, unknown>;
  /**
   * When the post is counted against the plan's upload limit (null for drafts; on update, an
   * earlier count is kept).
   */
  countedAt: Date | null;
  queuedFromProfile: string | null;
}

/** A post row to insert (see insertPostsWithTargets). */
export interface NewPost extends PostFields {
  id: string;
  status: 'draft' | 'scheduled';
}

/** A target row to insert: with status `pending` and `runAt`, it is the publish job. */
export interface NewTarget {
  id: string;
  postId: string;
  position: number;
  accountId: string;
  platform: string;
  customContent: string | null;
  platformSpecificData: Record<string, unknown>;
  status: 'draft' | 'pending';
  runAt: Date | null;
}

const targetColumns = (rows: NewTarget[]) => [
  rows.map((r) => r.id), rows.map((r) => r.postId), rows.map((r) => r.position), rows.map((r) => r.accountId),
  rows.map((r) => r.platform), rows.map((r) => r.customContent), rows.map((r) => JSON.stringify(r.platformSpecificData)),
  rows.map((r) => r.status), rows.map((r) => r.runAt),
];

/**
 * The statement inserting posts with their targets and content claims. `hooks`: the variant for a
 * tenant with an active webhook, which also writes the post.scheduled events (outbox, decision
 * 0038); without it, the statement writes only if the tenant has no active webhook and answers
 * `hooks` (true: nothing was written, run the other variant). The outbox part costs every create
 * a seventh of its PostgreSQL time even when it writes nothing (its plan is set up on every
 * execution), so tenants without webhooks skip it; exact, since the check is in the statement's
 * own snapshot, as the outbox part's own check is.
 */
function insertPostsSql(hooks: boolean): string {
  const guard = hooks ? '' : 'WHERE NOT (SELECT h.any FROM hooks h)';
  return `WITH ${hooks ? '' : `hooks AS (SELECT ${hasWebhooksSql('$1::char(24)')} AS any),
     `}new_posts AS (
       INSERT INTO posts (id, tenant_id, created_by, title, content, status, scheduled_for, timezone, publish_now, is_draft,
                          visibility, tags, media_items, hidden, metadata, usage_counted_at, queued_from_profile, created_at, updated_at,
                          hashtags, mentions, request_id)
       SELECT u.id, $1, $2, u.title, u.content, u.status, u.scheduled_for, u.timezone, u.publish_now, u.is_draft,
              u.visibility, ARRAY(SELECT jsonb_array_elements_text(u.tags)), u.media_items, u.hidden, u.metadata, u.counted_at, u.queued, $18, $18,
              ARRAY(SELECT jsonb_array_elements_text(u.hashtags)), ARRAY(SELECT jsonb_array_elements_text(u.mentions)), $36::text
         FROM unnest($3::char(24)[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[], $9::boolean[], $10::boolean[],
                     $11::text[], $12::jsonb[], $13::jsonb[], $14::boolean[], $15::jsonb[], $16::timestamptz[], $17::char(24)[],
                     $29::jsonb[], $30::jsonb[])
           AS u(id, title, content, status, scheduled_for, timezone, publish_now, is_draft, visibility, tags, media_items, hidden, metadata, counted_at, queued,
                hashtags, mentions)
        ${guard}
       RETURNING id, status, content, scheduled_for, published_at, metadata, publish_now),
     -- Duplicate protection (duplicates.ts): $31 accounts, $32 content hashes, $33 posts. A pair an earlier post
     -- holds (within 24 hours) returns no row, and the statement then fails as a whole with DUPLICATE_MARKER.
     claims AS (
       INSERT INTO post_content_claims AS c (account_id, content_hash, post_id, claimed_at)
       SELECT u.account_id, u.hash, u.post_id, $18 FROM unnest($31::char(24)[], $32::bytea[], $33::char(24)[]) AS u(account_id, hash, post_id)
        ${guard}
       ON CONFLICT (account_id, content_hash) DO UPDATE SET post_id = EXCLUDED.post_id, claimed_at = EXCLUDED.claimed_at
        WHERE c.claimed_at < EXCLUDED.claimed_at - make_interval(hours => ${DUPLICATE_WINDOW_HOURS})
       RETURNING 1),
     new_targets AS (
     INSERT INTO post_targets (id, post_id, tenant_id, position, account_id, platform, custom_content, platform_specific_data, status, run_at, updated_at)
     SELECT u.id, u.post_id, $1, u.pos, u.account_id, u.platform, u.custom_content, u.psd, u.status, u.run_at, $18
       FROM unnest($19::char(24)[], $20::char(24)[], $21::int[], $22::char(24)[], $23::text[], $24::text[], $25::jsonb[], $26::text[], $27::timestamptz[])
         AS u(id, post_id, pos, account_id, platform, custom_content, psd, status, run_at)
      WHERE (SELECT count(*) FROM new_posts) = $28
        -- $34 account ids, $35 the row versions the post was validated against (see createAccountRowCache)
        AND (CASE WHEN ${accountsUnchangedSql('$1', '$34', '$35')} THEN true ELSE ('${STALE_ACCOUNTS_MARKER} ' || now())::int > 0 END)
        AND (SELECT CASE ${hooks ? '' : 'WHEN (SELECT h.any FROM hooks h) THEN false '}WHEN count(*) = cardinality($31::char(24)[]) THEN true
                         ELSE ('${DUPLICATE_MARKER}' || count(*))::int > 0 END FROM claims)
     RETURNING post_id, position, platform, status, account_id, platform_post_id, platform_post_url, error_message)
   ${hooks
    ? `-- post.scheduled webhook events (outbox, decision 0038).
   ${scheduledPostsOutboxSql('new_posts', 'new_targets', '$1')}`
    : 'SELECT h.any AS hooks FROM hooks h'}`;
}
/** In the error of an insert whose accounts changed after they were read (nothing was written: read them again). */
export const STALE_ACCOUNTS_MARKER = 'herald_stale_accounts';
/** True for the error of {@link insertPostsWithTargets} when an account changed since it was read. */
export const isStaleAccountsError = (err: unknown) => err instanceof Error && err.message.includes(STALE_ACCOUNTS_MARKER);

const INSERT_POSTS_NO_HOOKS = prepared('posts.insert-with-targets-no-hooks', insertPostsSql(false));
const INSERT_POSTS_WITH_TARGETS = prepared('posts.insert-with-targets', insertPostsSql(true));

/** Tenants seen with an active webhook lately: their creates go to the outbox variant first (a hint only; both variants are exact). */
const tenantsWithHooks = new Map<string, number>();
const HOOKS_HINT_MS = 60_000;

/**
 * Inserts posts and their targets (the jobs) in ONE statement, so it is atomic on its own:
 * no post is saved without its targets. `now` is their created/updated time. `claims` are the
 * (account, content) pairs the posts reserve against duplicates (duplicates.ts). A tenant with
 * an active webhook gets its post.scheduled events in the same statement (see insertPostsSql).
 * `accountVersions`: the account rows the targets were validated against, when they may be old
 * (a cache); the statement writes nothing if one changed since. `requestId`: the API request
 * creating the posts, kept for the publishing logs' `requestId` filter (src/modules/logs).
 * @throws the database error carrying DUPLICATE_MARKER when an earlier post holds a claim, or
 *   STALE_ACCOUNTS_MARKER ({@link isStaleAccountsError}) when an account in `accountVersions` changed.
 */
export async function insertPostsWithTargets(q: Queryable, tenantId: string, userId: string, posts: NewPost[], targets: NewTarget[], now: Date,
  claims: Array<ContentClaim & { postId: string }> = [], accountVersions: Array<{ id: string; version: string }> = [], requestId: string | null = null): Promise<void> {
  const params = [tenantId, userId,
    posts.map((p) => p.id), posts.map((p) => p.title), posts.map((p) => p.content), posts.map((p) => p.status),
    posts.map((p) => p.scheduledFor), posts.map((p) => p.timezone), posts.map((p) => p.publishNow), posts.map((p) => p.isDraft),
    posts.map((p) => p.visibility), posts.map((p) => JSON.stringify(p.tags)), posts.map((p) => JSON.stringify(p.media)),
    posts.map((p) => p.hidden), posts.map((p) => JSON.stringify(p.metadata)), posts.map((p) => p.countedAt), posts.map((p) => p.queuedFromProfile), now,
    ...targetColumns(targets), posts.length,
    posts.map((p) => JSON.stringify(p.hashtags)), posts.map((p) => JSON.stringify(p.mentions)),
    claims.map((c) => c.accountId), claims.map((c) => c.hash), claims.map((c) => c.postId),
    accountVersions.map((a) => a.id), accountVersions.map((a) => a.version), requestId];
  const hinted = (tenantsWithHooks.get(tenantId) ?? 0) > Date.now();
  if (!hinted) {
    const { rows } = await q.query<{ hooks: boolean }>(INSERT_POSTS_NO_HOOKS, params);
    if (!rows[0].hooks) return;
    if (tenantsWithHooks.size >= 10_000) tenantsWithHooks.clear();
    tenantsWithHooks.set(tenantId, Date.now() + HOOKS_HINT_MS);
  }
  await q.query(INSERT_POSTS_WITH_TARGETS, params);
}

/** Inserts targets of an existing post (in the caller's transaction). */
export async function insertTargets(q: Queryable, tenantId: string, targets: NewTarget[]): Promise<void> {
  if (targets.length === 0) return;
  await q.query(
    `INSERT INTO post_targets (id, post_id, tenant_id, position, account_id, platform, custom_content, platform_specific_data, status, run_at)
     SELECT u.id, u.post_id, $1, u.pos, u.account_id, u.platform, u.custom_content, u.psd, u.status, u.run_at
       FROM unnest($2::char(24)[], $3::char(24)[], $4::int[], $5::char(24)[], $6::text[], $7::text[], $8::jsonb[], $9::text[], $10::timestamptz[])
         AS u(id, post_id, pos, account_id, platform, custom_content, psd, status, run_at)`,
    [tenantId, ...targetColumns(targets)],
  );
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

/** The editable fields of a post, as an update writes them. */
export interface PostUpdate extends PostFields {
  status: PostStatus;
}

export async function updatePost(q: Queryable, id: string, u: PostUpdate): Promise<void> {
  await q.query(
    `UPDATE posts SET title = $2, content = $3, scheduled_for = $4, timezone = $5, publish_now = $6, is_draft = $7,
            visibility = $8, tags = $9, media_items = $10, hidden = $11, metadata = $12,
            usage_counted_at = COALESCE(usage_counted_at, $13), status = $14, queued_from_profile = $15, hashtags = $16, mentions = $17,
            updated_at = now()
      WHERE id = $1`,
    [id, u.title, u.content, u.scheduledFor, u.timezone, u.publishNow, u.isDraft, u.visibility, u.tags, JSON.stringify(u.media),
      u.hidden, JSON.stringify(u.metadata), u.countedAt, u.status, u.queuedFromProfile, u.hashtags, u.mentions],
  );
}

/** Deletes the post's targets that are not published (an edit replaces them). */
export async function deleteUnpublishedTargets(q: Queryable, postId: string): Promise<void> {
  await q.query(`DELETE FROM post_targets WHERE post_id = $1 AND status <> 'published' AND NOT (status = 'pending' AND platform_post_id IS NOT NULL)`, [postId]);
}

/**
 * Whether a target's post is on the platform already: published, or held by the platform to
 * publish at its time (a YouTube video uploaded ahead: pending with its platform id). An edit
 * keeps such targets as they are (it cannot move or re-create what the platform holds).
 */
export const isOnPlatform = (t: Pick<TargetRow, 'status' | 'platform_post_id'>): boolean =>
  t.status === 'published' || (t.status === 'pending' && t.platform_post_id !== null);

/** Marks targets failed with `message` (an edited failed post waits for retry or a new time). */
export async function failTargets(q: Queryable, ids: string[], message: string): Promise<void> {
  await q.query(`UPDATE post_targets SET status = 'failed', run_at = NULL, error_message = $2 WHERE id = ANY($1::char(24)[])`, [ids, message]);
}

/** Numbers the post's targets 0..n-1 in their current order. */
export async function renumberTargets(q: Queryable, postId: string): Promise<void> {
  await q.query(
    `UPDATE post_targets t SET position = s.rn - 1 FROM (
       SELECT id, row_number() OVER (ORDER BY position) AS rn FROM post_targets WHERE post_id = $1) s
      WHERE t.id = s.id`, [postId]);
}

/** Deletes a post (its targets and attempts go with it). */
export async function deletePost(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM posts WHERE id = $1', [id]);
}

/**
 * SQL over alias `t` (a post_targets row): its last attempt is a commit or verify without an
 * answer, so the next run must verify before committing (decision 0018). The one definition of "in doubt".
 */
export const LAST_ATTEMPT_UNANSWERED = `EXISTS (
              SELECT 1 FROM (SELECT phase, outcome FROM publish_attempts a WHERE a.target_id = t.id ORDER BY a.id DESC LIMIT 1) last
               WHERE last.phase IN ('commit', 'verify') AND (last.outcome IS NULL OR last.outcome = 'unknown'))`;

/**
 * Puts a failed or partial post's failed targets (`only` those ids when given) back to pending, due now, with a fresh retry
 * budget, and derives the post's status again (a failed post is scheduled; a partial one, whose
 * published targets are kept, is publishing). A target whose last commit got no answer ("may
 * have been published") stays in doubt: its next run asks the platform before committing again
 * (decision 0018). Answers how many targets were re-queued.
 */
export async function requeueFailedTargets(q: Queryable, postId: string, only?: { targetIds: readonly string[] }): Promise<number> {
  const { rowCount } = await q.query(
    `UPDATE post_targets t SET status = 'pending', run_at = now(), attempts = 0, crash_count = 0, in_doubt = ${LAST_ATTEMPT_UNANSWERED},
            error_message = NULL, error_category = NULL, locked_by = NULL, locked_until = NULL, updated_at = now()
      WHERE post_id = $1 AND status = 'failed'${only ? ' AND id = ANY($2::char(24)[])' : ''}`, only ? [postId, only.targetIds] : [postId]);
  if (!rowCount) return 0;
  const { rows } = await q.query<{ published: boolean }>(`SELECT EXISTS (SELECT 1 FROM post_targets WHERE post_id = $1 AND status = 'published') AS published`, [postId]);
  if (rows[0].published) await recomputePostStatus(q, postId);
  else await q.query(`UPDATE posts SET status = 'scheduled', updated_at = now() WHERE id = $1`, [postId]);
  return rowCount;
}

/** Whether a post has a target published on its platform (live content a delete would lose track of). */
export async function hasPublishedTarget(q: Queryable, postId: string): Promise<boolean> {
  const { rows } = await q.query<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM post_targets WHERE post_id = $1 AND status = 'published') AS found`, [postId]);
  return rows[0].found;
}

/** Filters of the post list; all optional but the tenant. */
export interface PostFilters {
  tenantId: string;
  includeHidden?: boolean;
  status?: string;
  createdBy?: string;
  platform?: string;
  profileId?: string;
  /** Team member scoped to profiles: only posts they created or that target these profiles. */
  scope?: { userId: string; profileIds: readonly string[] };
  from?: Date | null;
  to?: Date | null;
  /** Text the content contains (case-insensitive). */
  search?: string;
  /** The order (default created-desc). */
  sortBy?: PostSort;
}

/** ORDER BY of each list order; every one ends with the id, so pages never overlap. */
const LIST_ORDER: Record<PostSort, string> = {
  'created-desc': 'p.created_at DESC, p.id DESC',
  'created-asc': 'p.created_at ASC, p.id ASC',
  'scheduled-desc': 'p.scheduled_for DESC NULLS LAST, p.id DESC',
  'scheduled-asc': 'p.scheduled_for ASC NULLS LAST, p.id ASC',
  status: 'p.status ASC, p.scheduled_for DESC NULLS LAST, p.id DESC',
  platform: '(SELECT min(t.platform) FROM post_targets t WHERE t.post_id = p.id) ASC NULLS LAST, p.scheduled_for DESC NULLS LAST, p.id DESC',
};

/** A LIKE pattern matching `text` anywhere (its %, _ and \ taken literally). */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * One page of the tenant's posts (views with their targets), newest first, and the exact
 * total matching the filters.
 *
 * Without filters other than `status` and `includeHidden`, the total is the sum of the
 * tenant's `post_counters` rows (migrations/0012_post_counters.sql: kept by triggers on `posts` in the
 * writing transaction, one row per writing backend), read in the same statement (so from the same snapshot)
 * as the page: no rows are counted (docs/decisions/0034-post-counters.md). Other filters count
 * the matching rows.
 */
export async function listPostPage(q: Queryable, f: PostFilters, limit: number, offset: number): Promise<{ posts: PostViewT[]; total: number }> {
  const args: unknown[] = [f.tenantId];
  if (f.status) args.push(f.status);
  if (f.createdBy) args.push(f.createdBy);
  if (f.platform) args.push(f.platform);
  if (f.profileId) args.push(f.profileId);
  if (f.scope) args.push(f.scope.userId, f.scope.profileIds);
  if (f.from) args.push(f.from);
  if (f.to) args.push(f.to);
  if (f.search) args.push(containsPattern(f.search));
  const st = listStatements(f, limit, offset === 0);
  const pageArgs = offset === 0 ? args : [...args, offset];
  if (st.countedTotal) {
    // The total rides along on every row; a page past the end has none and asks for it alone.
    const { rows } = await q.query<PostWithTargets & { total: number }>(st.page, pageArgs);
    const total = rows[0]?.total ?? (offset === 0 ? 0 : (await q.query<{ total: number }>(st.countedTotal, f.status ? [f.tenantId, f.status] : [f.tenantId])).rows[0].total);
    return { posts: rows.map(viewWithTargets), total };
  }
  const [{ rows }, { rows: countRows }] = await Promise.all([
    q.query<PostWithTargets>(st.page, pageArgs),
    q.query<{ n: number }>(st.count!, args),
  ]);
  return { posts: rows.map(viewWithTargets), total: countRows[0].n };
}

interface ListStatements {
  /** $1 tenant, then the filters' values in PostFilters order, then the offset unless it is 0. */
  page: PreparedStatement;
  /** With counters: the total alone ($1 tenant[, $2 status]). */
  countedTotal: PreparedStatement | null;
  /** Without counters: count(*) ($1 tenant, then the filters' values). */
  count: PreparedStatement | null;
}

const listStatementCache = new Map<string, ListStatements>();

/**
 * The prepared statements of one combination of filters and page size. The page size and a
 * first page's offset are written into the text: with `LIMIT $n` PostgreSQL's generic plan
 * assumes a tenth of the rows, so it re-plans the statement on every call (custom plans),
 * which costs more than running it. With literals it keeps one generic plan per connection.
 * Later pages take the offset as a parameter (and are planned per call). At most 100 page
 * sizes (`limit` is clamped) per combination of filters.
 */
function listStatements(f: PostFilters, limit: number, firstPage: boolean): ListStatements {
  const filters = [!f.includeHidden && 'visible', f.status && 'status', f.createdBy && 'creator', f.platform && 'platform', f.profileId && 'profile',
    f.scope && 'scope', f.from && 'from', f.to && 'to', f.search && 'search'].filter(Boolean).join('.') || 'all';
  const order = f.sortBy ?? 'created-desc';
  const key = `${filters}.${order}.${limit}${firstPage ? '' : '.offset'}`;
  const cached = listStatementCache.get(key);
  if (cached) return cached;
  let n = 2;
  const where: string[] = ['p.tenant_id = $1'];
  if (!f.includeHidden) where.push('NOT p.hidden');
  if (f.status) where.push(`p.status = $${n++}`);
  if (f.createdBy) where.push(`p.created_by = $${n++}`);
  if (f.platform) where.push(`EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = p.id AND t.platform = $${n++})`);
  if (f.profileId) {
    where.push(`(p.queued_from_profile = $${n} OR EXISTS (SELECT 1 FROM post_targets t JOIN accounts a ON a.id = t.account_id WHERE t.post_id = p.id AND a.profile_id = $${n}))`);
    n++;
  }
  if (f.scope) {
    where.push(`(p.created_by = $${n} OR EXISTS (SELECT 1 FROM post_targets t JOIN accounts a ON a.id = t.account_id WHERE t.post_id = p.id AND a.profile_id = ANY($${n + 1}::char(24)[])))`);
    n += 2;
  }
  if (f.from) where.push(`COALESCE(p.scheduled_for, p.created_at) >= $${n++}`);
  if (f.to) where.push(`COALESCE(p.scheduled_for, p.created_at) <= $${n++}`);
  if (f.search) where.push(`p.content ILIKE $${n++} ESCAPE '\\'`);
  const cond = where.join(' AND ');
  const counted = !(f.createdBy || f.platform || f.profileId || f.scope || f.from || f.to || f.search);
  const counterSum = `(SELECT COALESCE(sum(c.n), 0)::int FROM post_counters c WHERE c.tenant_id = $1${f.includeHidden ? '' : ' AND NOT c.hidden'}${f.status ? ' AND c.status = $2' : ''})`;
  const page = `SELECT ${P_COLUMNS}, ${TARGETS_JSON} AS targets${counted ? `, ${counterSum} AS total` : ''}
       FROM posts p WHERE ${cond} ORDER BY ${LIST_ORDER[order]} LIMIT ${Math.trunc(limit)}${firstPage ? '' : ` OFFSET $${n}`}`;
  const st: ListStatements = {
    page: prepared(`posts.page.${key}`, page),
    countedTotal: counted ? prepared(`posts.total.${filters}`, `SELECT ${counterSum} AS total`) : null,
    count: counted ? null : prepared(`posts.count.${filters}`, `SELECT count(*)::int AS n FROM posts p WHERE ${cond}`),
  };
  listStatementCache.set(key, st);
  return st;
}

/**
 * Folds each tenant's `post_counters` rows (migrations/0012_post_counters.sql: kept by triggers on `posts` in the
 * writing transaction, one row per writing backend) into its shard-0 row, skipping rows a running
 * transaction holds (so it never waits on a writer and never deadlocks); one pass at a time
 * (advisory lock). Returns how many rows were folded.
 */
export async function compactPostCounters(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    `WITH lock AS (SELECT pg_try_advisory_xact_lock(${COUNTERS_LOCK}) AS ok),
     moved AS (
       DELETE FROM post_counters c
        WHERE (SELECT ok FROM lock) AND (c.tenant_id, c.status, c.hidden, c.shard) IN (
          SELECT tenant_id, status, hidden, shard FROM post_counters WHERE shard <> 0 LIMIT 10000 FOR UPDATE SKIP LOCKED)
       RETURNING c.tenant_id, c.status, c.hidden, c.n),
     folded AS (
       INSERT INTO post_counters (tenant_id, status, hidden, shard, n)
       SELECT tenant_id, status, hidden, 0, sum(n) FROM moved GROUP BY tenant_id, status, hidden
       ON CONFLICT (tenant_id, status, hidden, shard) DO UPDATE SET n = post_counters.n + excluded.n)
     SELECT count(*)::int AS n FROM moved`);
  return rows[0].n;
}

const COUNTERS_LOCK = 7_263_591_010;

/**
 * The platform ids of the posts a user may see on `platform`: each published target's id and the
 * items of its thread (`result.thread`). Scoped team members get those of the posts they created
 * or that target their profiles (./access.ts). For the sandbox's simulator state
 * (src/modules/sandbox/routes.ts), which shows a caller only their own posts.
 */
export async function platformPostIdsOf(q: Queryable, auth: { tenantId: string; userId: string; profileAccess: string; profileIds: readonly string[] }, platform: string): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT DISTINCT x.id FROM post_targets t
       JOIN posts p ON p.id = t.post_id
       CROSS JOIN LATERAL (
         SELECT t.platform_post_id AS id
         UNION ALL
         SELECT e->>'platformPostId' FROM jsonb_array_elements(CASE WHEN jsonb_typeof(t.result->'thread') = 'array' THEN t.result->'thread' ELSE '[]'::jsonb END) e) x
      WHERE t.tenant_id = $1 AND t.platform = $2 AND x.id IS NOT NULL
        AND ($3 OR p.created_by = $4 OR EXISTS (SELECT 1 FROM accounts a WHERE a.id = t.account_id AND a.profile_id = ANY($5::char(24)[])))`,
    [auth.tenantId, platform, auth.profileAccess === 'all', auth.userId, auth.profileIds]);
  return rows.map((r) => r.id);
}
