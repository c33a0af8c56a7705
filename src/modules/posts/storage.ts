/**
 * Every statement of the posts module that writes `posts`, `post_targets`, `post_content_claims`
 * and `post_counters` (docs/architecture.md, "Who writes each table"; decision 0054): creating
 * posts with their targets, edits, deletes, the queue's reshuffle, a profile's removal and
 * unpublish. Publishing writes only the job columns of targets (src/publishing/targets-repository.ts).
 */
import { DUPLICATE_MARKER, DUPLICATE_WINDOW_HOURS, type ContentClaim } from './duplicates.ts';
import { prepared, unseen, unseenEach, type Queryable } from '../../storage/db.ts';
import type { MediaRef } from '../../platforms/types.ts';
import type { PostStatus } from './schemas.ts';
import { hasWebhooksSql, scheduledPostsOutboxSql } from '../webhooks/outbox.ts';
import { accountsUnchangedSql } from '../accounts/repository.ts';

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
  /** The queue (of `queuedFromProfile`) whose slot the post holds; null outside a queue. */
  queueId: string | null;
}

/** A post row to insert (see insertPostsWithTargets). */
export interface NewPost extends PostFields {
  id: string;
  status: 'draft' | 'pending_approval' | 'scheduled';
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
  /** The target's own time (decision 0064); null: its post's. */
  scheduledFor: Date | null;
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
 *
 * Every array is read {@link unseen}, a value the planner does not see. With bare parameters
 * the custom plan knew each array's length (one post, one target) while the generic plan assumed ten
 * rows per `unnest`, so the custom plan always looked cheaper and PostgreSQL planned this statement on
 * every call once the tables were large (0.4-0.5 ms of planning per create at a million posts, as much as
 * its execution; docs/decisions/0073-generic-plans-for-hot-statements.md). Unseen, both plans cost alike, and the
 * statement runs its generic plan after five calls, as it already did on a small database.
 */
function insertPostsSql(hooks: boolean): string {
  const guard = hooks ? '' : 'WHERE NOT (SELECT h.any FROM hooks h)';
  return `WITH ${hooks ? '' : `hooks AS (SELECT ${hasWebhooksSql('$1::char(24)')} AS any),
     `}new_posts AS (
       INSERT INTO posts (id, tenant_id, created_by, title, content, status, scheduled_for, timezone, publish_now, is_draft,
                          visibility, tags, media_items, hidden, metadata, usage_counted_at, queued_from_profile, created_at, updated_at,
                          hashtags, mentions, request_id, queue_id)
       SELECT u.id, $1, $2, u.title, u.content, u.status, u.scheduled_for, u.timezone, u.publish_now, u.is_draft,
              u.visibility, ARRAY(SELECT jsonb_array_elements_text(u.tags)), u.media_items, u.hidden, u.metadata, u.counted_at, u.queued, $18, $18,
              ARRAY(SELECT jsonb_array_elements_text(u.hashtags)), ARRAY(SELECT jsonb_array_elements_text(u.mentions)), $36::text, u.queue_id
         FROM unnest(${unseenEach('$3::char(24)[]', '$4::text[]', '$5::text[]', '$6::text[]', '$7::timestamptz[]', '$8::text[]', '$9::boolean[]', '$10::boolean[]', '$11::text[]',
                     '$12::jsonb[]', '$13::jsonb[]', '$14::boolean[]', '$15::jsonb[]', '$16::timestamptz[]', '$17::char(24)[]', '$29::jsonb[]', '$30::jsonb[]', '$37::char(24)[]')})
           AS u(id, title, content, status, scheduled_for, timezone, publish_now, is_draft, visibility, tags, media_items, hidden, metadata, counted_at, queued,
                hashtags, mentions, queue_id)
        ${guard}
       RETURNING id, status, content, scheduled_for, published_at, metadata, publish_now),
     -- Duplicate protection (duplicates.ts): $31 accounts, $32 content hashes, $33 posts. A pair an earlier post
     -- holds (within 24 hours) returns no row, and the statement then fails as a whole with DUPLICATE_MARKER.
     claims AS (
       INSERT INTO post_content_claims AS c (account_id, content_hash, post_id, claimed_at)
       SELECT u.account_id, u.hash, u.post_id, $18 FROM unnest(${unseenEach('$31::char(24)[]', '$32::bytea[]', '$33::char(24)[]')}) AS u(account_id, hash, post_id)
        ${guard}
       ON CONFLICT (account_id, content_hash) DO UPDATE SET post_id = EXCLUDED.post_id, claimed_at = EXCLUDED.claimed_at
        WHERE c.claimed_at < EXCLUDED.claimed_at - make_interval(hours => ${DUPLICATE_WINDOW_HOURS})
       RETURNING 1),
     new_targets AS (
     INSERT INTO post_targets (id, post_id, tenant_id, position, account_id, platform, custom_content, platform_specific_data, status, run_at, updated_at,
                               scheduled_for)
     SELECT u.id, u.post_id, $1, u.pos, u.account_id, u.platform, u.custom_content, u.psd, u.status, u.run_at, $18, u.own_at
       FROM unnest(${unseenEach('$19::char(24)[]', '$20::char(24)[]', '$21::int[]', '$22::char(24)[]', '$23::text[]', '$24::text[]', '$25::jsonb[]', '$26::text[]', '$27::timestamptz[]',
                     '$38::timestamptz[]')})
         AS u(id, post_id, pos, account_id, platform, custom_content, psd, status, run_at, own_at)
      WHERE (SELECT count(*) FROM new_posts) = $28
        -- $34 account ids, $35 the row versions the post was validated against (see createAccountRowCache)
        AND (CASE WHEN ${accountsUnchangedSql(unseen('$1::char(24)'), unseen('$34::char(24)[]'), unseen('$35::text[]'))} THEN true ELSE ('${STALE_ACCOUNTS_MARKER} ' || now())::int > 0 END)
        AND (SELECT CASE ${hooks ? '' : 'WHEN (SELECT h.any FROM hooks h) THEN false '}WHEN count(*) = cardinality($31::char(24)[]) THEN true
                         ELSE ('${DUPLICATE_MARKER}' || count(*))::int > 0 END FROM claims)
     RETURNING post_id, position, platform, status, account_id, platform_post_id, platform_post_url, error_message, error_category)
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
    accountVersions.map((a) => a.id), accountVersions.map((a) => a.version), requestId, posts.map((p) => p.queueId), targets.map((t) => t.scheduledFor)];
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
    `INSERT INTO post_targets (id, post_id, tenant_id, position, account_id, platform, custom_content, platform_specific_data, status, run_at, scheduled_for)
     SELECT u.id, u.post_id, $1, u.pos, u.account_id, u.platform, u.custom_content, u.psd, u.status, u.run_at, u.own_at
       FROM unnest($2::char(24)[], $3::char(24)[], $4::int[], $5::char(24)[], $6::text[], $7::text[], $8::jsonb[], $9::text[], $10::timestamptz[], $11::timestamptz[])
         AS u(id, post_id, pos, account_id, platform, custom_content, psd, status, run_at, own_at)`,
    [tenantId, ...targetColumns(targets), targets.map((t) => t.scheduledFor)],
  );
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
            queue_id = $18, updated_at = now()
      WHERE id = $1`,
    [id, u.title, u.content, u.scheduledFor, u.timezone, u.publishNow, u.isDraft, u.visibility, u.tags, JSON.stringify(u.media),
      u.hidden, JSON.stringify(u.metadata), u.countedAt, u.status, u.queuedFromProfile, u.hashtags, u.mentions, u.queueId],
  );
}

/** Deletes the post's targets that are not published (an edit replaces them). */
export async function deleteUnpublishedTargets(q: Queryable, postId: string): Promise<void> {
  await q.query(`DELETE FROM post_targets WHERE post_id = $1 AND status <> 'published' AND NOT (status = 'pending' AND platform_post_id IS NOT NULL)`, [postId]);
}
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
 * Folds each tenant's `post_counters` rows (migrations/0012_post_counters.sql: kept by triggers on `posts` in the
 * writing transaction, one row per writing backend) into its shard-0 row, and each profile's
 * `profile_post_counters` rows (migrations/0040_post_profiles.sql) alike, skipping rows a running
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
       ON CONFLICT (tenant_id, status, hidden, shard) DO UPDATE SET n = post_counters.n + excluded.n),
     moved_profiles AS (
       DELETE FROM profile_post_counters c
        WHERE (SELECT ok FROM lock) AND (c.tenant_id, c.profile_id, c.hidden, c.shard) IN (
          SELECT tenant_id, profile_id, hidden, shard FROM profile_post_counters WHERE shard <> 0 LIMIT 10000 FOR UPDATE SKIP LOCKED)
       RETURNING c.tenant_id, c.profile_id, c.hidden, c.n),
     folded_profiles AS (
       INSERT INTO profile_post_counters (tenant_id, profile_id, hidden, shard, n)
       SELECT tenant_id, profile_id, hidden, 0, sum(n) FROM moved_profiles GROUP BY tenant_id, profile_id, hidden
       ON CONFLICT (tenant_id, profile_id, hidden, shard) DO UPDATE SET n = profile_post_counters.n + excluded.n)
     SELECT (SELECT count(*) FROM moved)::int + (SELECT count(*) FROM moved_profiles)::int AS n`);
  return rows[0].n;
}

const COUNTERS_LOCK = 7_263_591_010;

/**
 * A profile is being deleted: its queued posts leave the queue (queued_from_profile NULL; they
 * keep their times). In the caller's transaction, which holds the profile row lock.
 */
export async function detachPostsFromProfile(q: Queryable, tenantId: string, profileId: string): Promise<void> {
  await q.query('UPDATE posts SET queued_from_profile = NULL, queue_id = NULL WHERE tenant_id = $1 AND queued_from_profile = $2', [tenantId, profileId]);
}

/**
 * The queued posts of a queue a reshuffle or an arrange moves: those of queue `queue.id` (for the
 * default queue also the profile's queued posts outside any queue, whose slots it counts),
 * scheduled after `after`, none of whose targets has started (all pending), in time order, locked
 * FOR UPDATE in the caller's transaction (which holds the queue's lock, modules/queue).
 */
export async function lockReshufflablePosts(q: Queryable, queue: { id: string; profileId: string; isDefault: boolean }, after: Date): Promise<Array<{ id: string; scheduled_for: Date }>> {
  const { rows } = await q.query<{ id: string; scheduled_for: Date }>(
    `SELECT p.id, p.scheduled_for FROM posts p
      WHERE (p.queue_id = $1 OR ($2 AND p.queue_id IS NULL AND p.queued_from_profile = $3))
        AND p.status = 'scheduled' AND p.scheduled_for > $4
        AND NOT EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = p.id AND t.status NOT IN ('pending'))
      ORDER BY p.scheduled_for, p.id FOR UPDATE`, [queue.id, queue.isDefault, queue.profileId, after]);
  return rows;
}

/** Frees the queue slots of these posts (scheduled_for NULL), so that the slots' unique index lets them take new ones in any order. */
export async function clearQueuedTimes(q: Queryable, ids: string[]): Promise<void> {
  await q.query('UPDATE posts SET scheduled_for = NULL WHERE id = ANY($1::char(24)[])', [ids]);
}

/**
 * Gives queued posts new times (`moves`, each post's id and time) in `timezone` and queue `queueId`, and their pending
 * targets the run_at of the one run-at rule, `runAt(platform, at)` (modules/posts/targets.ts: a
 * platform that uploads ahead, YouTube, runs at once). A target the platform holds already (a video
 * uploaded ahead, see isOnPlatform) keeps its run_at, as an edit keeps it, and so does a target with its own time
 * (decision 0064). In the caller's transaction.
 */
export async function moveQueuedPosts(q: Queryable, moves: Array<{ id: string; at: Date }>, timezone: string,
  runAt: (platform: string, at: Date) => Date | null, queueId: string): Promise<void> {
  const ids = moves.map((m) => m.id);
  await q.query(
    `UPDATE posts p SET scheduled_for = u.at, timezone = $3, queue_id = $4, updated_at = now()
       FROM unnest($1::char(24)[], $2::timestamptz[]) AS u(id, at) WHERE p.id = u.id`, [ids, moves.map((m) => m.at), timezone, queueId]);
  const { rows } = await q.query<{ id: string; post_id: string; platform: string }>(
    `SELECT id, post_id, platform FROM post_targets
      WHERE post_id = ANY($1::char(24)[]) AND status = 'pending' AND platform_post_id IS NULL AND scheduled_for IS NULL`, [ids]);
  const atOf = new Map(moves.map((m) => [m.id, m.at]));
  await q.query(
    `UPDATE post_targets t SET run_at = u.run_at, updated_at = now()
       FROM unnest($1::char(24)[], $2::timestamptz[]) AS u(id, run_at) WHERE t.id = u.id`,
    [rows.map((r) => r.id), rows.map((r) => runAt(r.platform, atOf.get(r.post_id)!))]);
}

/**
 * Unpublish took a target back (decision 0039): cancelled, no longer due nor in doubt, its
 * unpublish error cleared, and `removedFromPlatform` (the platform deleted it) stamped with
 * `now`. A target being published or already cancelled is left alone.
 */
export async function cancelTakenBackTarget(q: Queryable, targetId: string, removedFromPlatform: boolean, now: Date): Promise<void> {
  await q.query(
    `UPDATE post_targets SET status = 'cancelled', run_at = NULL, in_doubt = false, unpublish_error = NULL, updated_at = $3,
            removed_from_platform_at = CASE WHEN $2 THEN $3::timestamptz ELSE removed_from_platform_at END
      WHERE id = $1 AND status NOT IN ('publishing', 'cancelled')`, [targetId, removedFromPlatform, now]);
}

/** Unpublish could not take a published target back: why (the platform's answer, or not supported), shown on the target. */
export async function recordUnpublishError(q: Queryable, targetId: string, error: string | null, now: Date): Promise<void> {
  await q.query('UPDATE post_targets SET unpublish_error = $2, updated_at = $3 WHERE id = $1', [targetId, error, now]);
}

/**
 * A published target was edited on its platform (docs/decisions/0060-edit-published-posts.md): its
 * stored text (`custom_content`, or the thread root's in `platform_specific_data`), its platform
 * options as changed (YouTube's title, tags, privacy) and the platform's id and URL after the edit.
 * Only a published target is changed; answers whether it was.
 */
export async function recordTargetEdit(q: Queryable, targetId: string, e: {
  customContent: string | null; platformSpecificData: Record<string, unknown>; platformPostId: string; platformPostUrl: string; now: Date;
}): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE post_targets SET custom_content = $2, platform_specific_data = $3, platform_post_id = $4, platform_post_url = $5, updated_at = $6
      WHERE id = $1 AND status = 'published'`,
    [targetId, e.customContent, JSON.stringify(e.platformSpecificData), e.platformPostId, e.platformPostUrl, e.now]);
  return (rowCount ?? 0) > 0;
}
