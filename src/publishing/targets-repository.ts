/**
 * Every statement of the publishing pipeline on `post_targets`, `publish_attempts` and
 * `workers`: claiming due targets, recording attempts, finishing a target with its post's
 * derived status, lock heartbeats and releasing the targets of stopped processes
 * (docs/decisions/0001-job-queue-is-the-targets-table.md, 0002 and 0018). The posts module
 * writes targets when posts are created or edited; from then on only this file changes them.
 */
import { prepared, unseen, unseenEach, type Db, type Queryable } from '../storage/db.ts';
import { grouped } from './grouped.ts';
import type { AccountRow } from '../modules/accounts/service.ts';
import { LAST_ATTEMPT_UNANSWERED, POST_STATUS_FROM_TARGET_COUNTS, recomputePostStatus, type PostRow, type TargetRow } from '../modules/posts/repository.ts';
import type { PublishResult } from '../platforms/types.ts';
import { enqueueDuplicateEvent, enqueueTargetFinishEvents, finishedSinglesOutboxSql, hasWebhooksSql } from '../modules/webhooks/outbox.ts';

/** The latest attempt of a target, as the next run reads it. */
export interface AttemptRow {
  id: number;
  attempt: number;
  phase: 'prepare' | 'commit' | 'verify';
  prepared: Record<string, unknown> | null;
  outcome: string | null;
}

/** What a run needs to publish a target, read in one round trip. */
export interface TargetContext {
  post: PostRow;
  account: AccountRow | null;
  prev: AttemptRow | null;
  /** Targets of the post (1 lets finishTarget use its single-statement path). */
  targetCount: number;
  /** Start of the target's first commit attempt: verify looks back to before it. */
  firstCommitAt: Date | null;
  /**
   * Milliseconds since the target's latest commit attempt started, or since the lease of the claim
   * that made it ended when that is later (a paused process may send until then), by the
   * database's clock (null: no commit, or the target is not in doubt). A verify that finds nothing
   * sooner than the platform's settle time after it proves nothing yet: the request may still land
   * (decision 0045).
   */
  sinceLastCommitMs: number | null;
}

/** A target's final or retry state. */
export interface TargetFinish {
  status: 'published' | 'failed' | 'pending';
  result?: PublishResult;
  error?: string;
  category?: string;
  runAt?: Date | null;
  attemptOutcome: 'published' | 'retry' | 'failed' | 'unknown';
  /** What the platform answered, for the publishing log (from the adapter's typed error). */
  http?: { status: number | null; endpoint: string | null; excerpt: string | null };
}

/** Crashes after which a crashed run counts as an attempt again (a post that kills every worker must still end). */
/**
 * A claimed target with what its run needs, read in the claiming statement (so the run needs
 * no statement of its own to load it); `context` null: the post is gone.
 */
export interface ClaimedTarget extends TargetRow {
  context: TargetContext | null;
}

export const MAX_FREE_CRASHES = 10;

// The worker's statements run once or more per target, so PostgreSQL plans each once per
// connection (prepared statements; see PreparedStatement in src/storage/db.ts).

/** The columns of TargetRow, for prepared statements (which must not return `*`). */
const TARGET_COLUMNS = ['id', 'post_id', 'tenant_id', 'position', 'account_id', 'platform', 'custom_content', 'platform_specific_data',
  'status', 'run_at', 'attempts', 'locked_by', 'locked_until', 'platform_post_id', 'platform_post_url', 'published_at', 'error_message',
  'error_category', 'result', 'updated_at', 'scheduled_for'] as const satisfies ReadonlyArray<keyof TargetRow>;

/**
 * What a run needs besides the target row (a {@link TargetContext}), as columns over `p` (the
 * post, null when gone) and `a` (the account), for the target given by these SQL expressions.
 *
 * The target's attempts (`ctx_prev`, `ctx_first_commit_at`) are read only when `inDoubt` (an SQL
 * boolean) holds. A run uses them only to verify an unanswered commit or verify, and a pending
 * target whose last attempt is such a one is exactly a target in doubt: the finish marks it when it
 * records an unknown outcome, releasing a crashed claim and retrying a failed post mark it by the
 * same test over its last attempt (`LAST_ATTEMPT_UNANSWERED`). Fresh targets, nearly every claimed
 * one, then read nothing from `publish_attempts`; this also keeps the claim's cost independent of
 * that table's planner statistics (a plan cached while the table was empty scans it whole for every
 * claimed row: `npm run bench -- --drains-only --pg-stats`, bench/README.md).
 *
 * The post comes as `row_to_json` (JSON text, built in 6.5 µs a post) rather than `to_jsonb` (11.7 µs: the
 * binary form, converted to text for the wire); node-postgres parses both alike.
 */
const contextColumns = (postId: string, targetId: string, inDoubt = 'true') => `row_to_json(p) AS ctx_post,
          -- A clone's credential is its owner's (decision 0037): read only for clones.
          CASE WHEN a.credential_owner IS NULL THEN to_jsonb(a)
               ELSE to_jsonb(a) || jsonb_build_object('credentials', (SELECT o.credentials FROM accounts o WHERE o.id = a.credential_owner)) END AS ctx_account,
          CASE WHEN ${inDoubt} THEN (SELECT to_jsonb(x) FROM (SELECT id, attempt, phase, prepared, outcome FROM publish_attempts
                                     WHERE target_id = ${targetId} ORDER BY id DESC LIMIT 1) x) END AS ctx_prev,
          CASE WHEN ${inDoubt} THEN (SELECT min(started_at) FROM publish_attempts WHERE target_id = ${targetId} AND phase = 'commit') END AS ctx_first_commit_at,
          CASE WHEN ${inDoubt} THEN (SELECT (extract(epoch FROM now() - GREATEST(max(a9.started_at), (SELECT t9.lease_ended_at FROM post_targets t9 WHERE t9.id = ${targetId}))) * 1000)::float8
                                       FROM publish_attempts a9 WHERE a9.target_id = ${targetId} AND a9.phase = 'commit') END AS ctx_since_last_commit_ms,
          (SELECT count(*)::int FROM post_targets t WHERE t.post_id = ${postId}) AS ctx_target_count`;

interface ContextColumns {
  ctx_post: PostRow | null; ctx_account: AccountRow | null; ctx_prev: AttemptRow | null; ctx_target_count: number; ctx_first_commit_at: Date | null;
  ctx_since_last_commit_ms: number | null;
}

function toContext(r: ContextColumns): TargetContext | null {
  if (!r.ctx_post) return null;
  // jsonb turns timestamps into strings: restore the Date fields that are used.
  const post = { ...r.ctx_post, scheduled_for: r.ctx_post.scheduled_for ? new Date(r.ctx_post.scheduled_for as unknown as string) : null } as PostRow;
  return { post, account: r.ctx_account, prev: r.ctx_prev, targetCount: r.ctx_target_count, firstCommitAt: r.ctx_first_commit_at,
    sinceLastCommitMs: r.ctx_since_last_commit_ms };
}

/**
 * Whether any target is in doubt (pending, whether due or not). Without a condition on `run_at`,
 * the only cheap plan is the tiny partial index `post_targets_in_doubt_idx`; with one, PostgreSQL
 * took the due index whenever its statistics predated a burst of due targets, and filtered every
 * due row (1 ms per claim during a 10,000-target drain). Claiming in-doubt-first while an in-doubt
 * target waits for its backoff gives the same targets, with the heavier plan.
 */
const DOUBT_ANY = prepared('targets.doubt-any',
  `SELECT EXISTS (SELECT 1 FROM post_targets WHERE status = 'pending' AND in_doubt) AS any`);

/** $1 worker id, $2 limit, $3 lock seconds: locks the `due` rows, marks them publishing and their posts publishing. */
const claimStatement = (name: string, due: string) => prepared(name,
  `WITH due AS (${due}),
   claimed AS (
     UPDATE post_targets t
        SET status = 'publishing', locked_by = $1, locked_until = now() + make_interval(secs => $3),
            attempts = t.attempts + 1, updated_at = now()
       FROM due WHERE t.id = due.id
     RETURNING ${TARGET_COLUMNS.map((c) => `t.${c}`).join(', ')}, t.in_doubt),
   posts_publishing AS (
     UPDATE posts SET status = 'publishing', updated_at = now()
      WHERE id IN (SELECT post_id FROM claimed) AND status = 'scheduled')
   SELECT ${TARGET_COLUMNS.map((col) => `c.${col}`).join(', ')}, ${contextColumns('c.post_id', 'c.id', 'c.in_doubt')}
     FROM claimed c LEFT JOIN posts p ON p.id = c.post_id LEFT JOIN accounts a ON a.id = c.account_id`);

const CLAIM_IDS = claimStatement('targets.claim-ids',
  `SELECT id FROM post_targets WHERE status = 'pending' AND id = ANY($4::char(24)[]) LIMIT $2 FOR UPDATE SKIP LOCKED`);
const CLAIM_DUE = claimStatement('targets.claim-due',
  `SELECT id FROM post_targets WHERE status = 'pending' AND run_at <= now() ORDER BY run_at LIMIT $2 FOR UPDATE SKIP LOCKED`);
const CLAIM_DOUBT_FIRST = claimStatement('targets.claim-doubt-first',
  `WITH doubt AS (
     SELECT id, run_at FROM post_targets
      WHERE status = 'pending' AND in_doubt AND run_at <= now()
      ORDER BY run_at LIMIT $2 FOR UPDATE SKIP LOCKED),
   fresh AS (
     SELECT id, run_at FROM post_targets t
      WHERE status = 'pending' AND run_at <= now() AND NOT in_doubt
        AND NOT EXISTS (SELECT 1 FROM post_targets d
                         WHERE d.account_id = t.account_id AND d.status = 'pending' AND d.in_doubt AND d.run_at <= now())
      ORDER BY run_at LIMIT $2 FOR UPDATE SKIP LOCKED)
   SELECT id FROM (SELECT id, 0 AS k, run_at FROM doubt UNION ALL SELECT id, 1 AS k, run_at FROM fresh) c
    ORDER BY k, run_at LIMIT $2`);

/**
 * `status = 'publishing'` for statements that reach their targets by id: written {@link unseen}, a value the planner does
 * not see, so that it cannot use post_targets_running_idx (partial, WHERE status = 'publishing'). That index's
 * statistics, taken when few targets run, make it look like one row, and the planner walked every running
 * target (and the index's dead entries) for each target of the batch instead of looking each up by its key:
 * the grouped attempt rows took 4.5 ms a statement at 200 targets in flight and 34-111 ms at 500
 * (`npm run bench -- --ceiling --pg-stats`; docs/decisions/0073-generic-plans-for-hot-statements.md).
 */
const PUBLISHING_BY_ID = unseen("'publishing'::text");

/** $1 post id, $2 target id, $3 account id. */
const LOAD_CONTEXT = prepared('targets.load-context',
  `SELECT ${contextColumns('$1', '$2')} FROM posts p LEFT JOIN accounts a ON a.id = $3 WHERE p.id = $1`);

/**
 * Attempt rows of several targets (one each), fenced (decision 0045): $1 target ids, $2 attempts, $3 workers,
 * $4 phases, $5 prepared states, $6 log actions, $7 tenants, $8 posts, $9 accounts, $10 platforms (the
 * publishing log's columns, from the claimed target), $11 lease seconds each needs from now.
 *
 * A row is written only while its worker holds the target: publishing, locked by it, and its lease
 * unexpired by the database's clock. The same statement extends that lease to at least $11 seconds
 * from now, so the visible call that follows the attempt row is covered whole. A target its worker
 * lost (the reconciler released it while the worker was paused, and another process may hold it
 * now) gets no row, and its run stops before calling the platform.
 *
 * The arrays are values the planner does not see ({@link unseenEach}): with their sizes known, a group of one
 * or two rows looked cheaper planned with its values, and a drain of 10,000 targets planned the statement in
 * 4,746 of its 6,078 calls (0.22 ms each; docs/decisions/0073-generic-plans-for-hot-statements.md).
 */
const START_ATTEMPTS = prepared('targets.start-attempts',
  `WITH u AS (
     SELECT * FROM unnest(${unseenEach('$1::char(24)[]', '$2::int[]', '$3::text[]', '$4::text[]', '$5::jsonb[]', '$6::text[]', '$7::char(24)[]', '$8::char(24)[]',
                                       '$9::char(24)[]', '$10::text[]', '$11::float8[]')})
         AS u(target_id, attempt, worker_id, phase, prepared, action, tenant_id, post_id, account_id, platform, lease_secs)),
   held AS (
     UPDATE post_targets t SET locked_until = GREATEST(t.locked_until, now() + make_interval(secs => u.lease_secs))
       FROM u WHERE t.id = u.target_id AND t.locked_by = u.worker_id AND t.status = ${PUBLISHING_BY_ID} AND t.locked_until > now()
     RETURNING t.id)
   INSERT INTO publish_attempts (target_id, attempt, worker_id, phase, prepared, action, tenant_id, post_id, account_id, platform)
   SELECT u.target_id, u.attempt, u.worker_id, u.phase, u.prepared, u.action, u.tenant_id, u.post_id, u.account_id, u.platform
     FROM u JOIN held ON held.id = u.target_id
   RETURNING id, target_id`);

/**
 * The publishing log's columns an attempt's finish writes (`u` holds the finish, `a` is the
 * attempt): the platform's answer, the duration, the error category, and a rate-limited retry
 * logged as a rate-limit pause.
 */
const attemptLogSet = (u: string) => `http_status = ${u}.http_status, endpoint = ${u}.endpoint, response_excerpt = ${u}.excerpt,
            platform_post_id = ${u}.ppid, platform_post_url = ${u}.ppurl,
            error_category = ${u}.category, duration_ms = (extract(epoch FROM now() - a.started_at) * 1000)::int,
            action = CASE WHEN ${u}.category = 'platform_rate_limit' AND ${u}.outcome = 'retry' THEN 'rate_limit_pause' ELSE a.action END`;

/**
 * The SET list of a finished target. $2 status, $3 run_at, $4 error, $5 category, $6 platform
 * post id, $7 its URL, $8 result; `outcome` is the placeholder of the attempt's outcome.
 */
const setTarget = (outcome: string) => `status = $2, locked_by = NULL, locked_until = NULL, updated_at = now(),
                  run_at = $3, error_message = $4, error_category = $5, in_doubt = ($2 = 'pending' AND ${outcome} = 'unknown'),
                  platform_post_id = COALESCE($6, platform_post_id), platform_post_url = COALESCE($7, platform_post_url),
                  published_at = CASE WHEN $2 = 'published' THEN now() ELSE published_at END,
                  result = CASE WHEN $8::jsonb IS NULL THEN result ELSE COALESCE(result, '{}'::jsonb) || $8::jsonb END`;

/** The finish arrays ($1-$14, in the order of {@link finishArgs}) as rows. */
const FINISH_ROWS = `unnest($1::char(24)[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::jsonb[],
                          $9::text[], $10::bigint[], $11::text[], $12::int[], $13::text[], $14::text[])
       AS u(id, status, run_at, error, category, ppid, ppurl, result, worker, attempt_id, outcome, http_status, endpoint, excerpt)`;

/**
 * Targets that are their posts' only target: each one's attempt, the target and the derived
 * post status, for several targets in one statement (rows `u`), then `tail`: what the statement
 * ends with. `oldStatus` adds the post's status before the finish to `agg` and `pst`.
 */
const finishSinglesSql = (u: string, oldStatus: boolean, tail: string) => `WITH u AS (${u}),
   att AS (
     UPDATE publish_attempts a SET outcome = u.outcome, error = u.error, finished_at = now(), ${attemptLogSet('u')},
            stale = NOT EXISTS (SELECT 1 FROM post_targets t1 WHERE t1.id = u.id AND t1.locked_by = u.worker)
       FROM u WHERE a.id = u.attempt_id RETURNING a.id),
   tgt AS (
     UPDATE post_targets t
        SET status = u.status, locked_by = NULL, locked_until = NULL, updated_at = now(),
            run_at = u.run_at, error_message = u.error, error_category = u.category, in_doubt = (u.status = 'pending' AND u.outcome = 'unknown'),
            platform_post_id = COALESCE(u.ppid, t.platform_post_id), platform_post_url = COALESCE(u.ppurl, t.platform_post_url),
            published_at = CASE WHEN u.status = 'published' THEN now() ELSE t.published_at END,
            result = CASE WHEN u.result IS NULL THEN t.result ELSE COALESCE(t.result, '{}'::jsonb) || u.result END
       FROM u WHERE t.id = u.id AND t.locked_by = u.worker
     RETURNING t.post_id, t.status, t.attempts, t.published_at,
               t.id, t.tenant_id, t.platform, t.account_id, t.platform_post_id, t.platform_post_url, t.error_message, t.error_category),
   agg AS (
     SELECT ${oldStatus ? '(SELECT p0.status FROM posts p0 WHERE p0.id = tgt.post_id) AS old_status, ' : ''}tgt.post_id, 1 AS total, (tgt.status = 'published')::int AS published,
            (tgt.status IN ('failed', 'cancelled'))::int AS failed, (tgt.status = 'publishing')::int AS publishing,
            (tgt.status = 'pending' AND tgt.attempts > 0 AND tgt.platform_post_id IS NULL)::int AS retrying, tgt.published_at AS last_published
       FROM tgt),
   pst AS (
     UPDATE posts p SET status = ${POST_STATUS_FROM_TARGET_COUNTS('agg')},
          published_at = COALESCE(p.published_at, agg.last_published), updated_at = now()
     FROM agg WHERE p.id = agg.post_id AND p.status NOT IN ('draft', 'cancelled')
     RETURNING p.id, p.tenant_id, p.status, p.content, p.scheduled_for, p.published_at, p.metadata${oldStatus ? ', agg.old_status' : ''})
   ${tail}`;

/** The finish statements' answer: each finish it took (`u`) and whether its worker still held the target (decision 0045). */
const HELD_TAIL = 'SELECT u.id, EXISTS (SELECT 1 FROM tgt WHERE tgt.id = u.id) AS held FROM u';

/**
 * The finish of targets whose tenant has no active webhook, which therefore writes no outbox
 * rows (the outbox part costs the drains a fifth even when it writes nothing: bench/README.md).
 * Rows of a tenant that has one are left out here; answers the ids it took (`u`), so the caller
 * finishes the others with {@link FINISH_SINGLES}. Exact: a webhook committed before this
 * statement's snapshot sends its targets to the full statement; one committed after it comes
 * after these finishes.
 *
 * Both finish statements are plain text, so pg sends them unnamed and PostgreSQL plans them on every
 * call with the batch's arrays instead of caching a generic plan: they join their rows to
 * `publish_attempts`, which grows by one row per publish, and a generic plan cached while it was
 * small kept scanning it whole after it had grown (the finish of a 10,000-target drain went from
 * 0.5 ms a call to 7 ms two rounds later, until autovacuum analyzed the table:
 * docs/decisions/0069-custom-plans-for-growing-joins.md).
 */
const FINISH_SINGLES_NO_HOOKS = finishSinglesSql(
  `SELECT * FROM ${FINISH_ROWS}
    WHERE NOT EXISTS (SELECT 1 FROM post_targets t0 JOIN webhooks w0 ON w0.tenant_id = t0.tenant_id AND w0.is_active WHERE t0.id = u.id)`,
  false, HELD_TAIL);

/** The finish with the webhook events of these finishes (outbox, decision 0038). */
const FINISH_SINGLES = finishSinglesSql(`SELECT * FROM ${FINISH_ROWS}`, true,
  `, outbox AS (${finishedSinglesOutboxSql('tgt', 'pst')}) ${HELD_TAIL}`);

/**
 * One finish as the statements take it: target id, status, run_at, error, category, post id, URL, result, worker, attempt id,
 * outcome, then the log's platform HTTP status, endpoint and answer excerpt.
 */
type FinishArgs = [string, string, Date | null, string | null, string | null, string | null, string | null, string | null, string, number | null, string,
  number | null, string | null, string | null];

function finishArgs(target: TargetRow, workerId: string, attemptId: number | null, update: TargetFinish): FinishArgs {
  const r = update.result;
  return [target.id, update.status, update.status === 'pending' ? (update.runAt ?? null) : null,
    update.error ?? null, update.category ?? null, r?.platformPostId ?? null, r?.platformPostUrl ?? null,
    r ? JSON.stringify({ thread: r.thread, extra: r.extra, goesLiveAt: r.goesLiveAt ?? null }) : null, workerId, attemptId, update.attemptOutcome,
    update.http?.status ?? null, update.http?.endpoint ?? null, update.http?.excerpt ?? null];
}

/** Column arrays of rows (unnest's parameters). */
const columns = <T extends unknown[]>(rows: T[], width: number): unknown[][] => Array.from({ length: width }, (_, c) => rows.map((r) => r[c]));

/** A target of a post with several: $9 worker, $10 outcome (the post's status is recomputed after). */
const FINISH_TARGET = prepared('targets.finish', `UPDATE post_targets SET ${setTarget('$10')} WHERE id = $1 AND locked_by = $9`);

const MS_UNTIL_NEXT_DUE = prepared('targets.ms-until-next-due',
  `SELECT (extract(epoch FROM min(run_at) - now()) * 1000)::float8 AS ms FROM post_targets WHERE status = 'pending'`);

export function createTargetsRepository(db: Db) {
  // Group commit of the two statements every publish runs (see grouped.ts).
  const startAttempts = grouped<[string, number, string, string, string | null, string, string, string, string, string, number], number | null>(async (rows) => {
    const { rows: out } = await db.query<{ id: number; target_id: string }>(START_ATTEMPTS, columns(rows, 11));
    const byTarget = new Map(out.map((r) => [r.target_id, Number(r.id)]));
    return rows.map((r) => byTarget.get(r[0]) ?? null);
  }, 100, 3);
  const finishSingles = grouped<FinishArgs, boolean>(async (rows) => {
    // Most tenants have no webhook: their finishes skip the outbox part; the others get it.
    const { rows: done } = await db.query<{ id: string; held: boolean }>(FINISH_SINGLES_NO_HOOKS, columns(rows, 14));
    const held = new Map(done.map((r) => [r.id, r.held]));
    if (done.length < rows.length) {
      const { rows: rest } = await db.query<{ id: string; held: boolean }>(FINISH_SINGLES, columns(rows.filter((r) => !held.has(r[0])), 14));
      for (const r of rest) held.set(r.id, r.held);
    }
    return rows.map((r) => held.get(r[0]) ?? false);
  });

  return {
    /**
     * Claims up to `limit` due targets (all pending targets with run_at <= now when `ids`
     * is null, else only those ids) in ONE statement: lock with SKIP LOCKED, mark them
     * publishing under `workerId`'s lock for `lockSeconds`, and move their posts from
     * scheduled to publishing. Targets in doubt (an unanswered commit to verify) come
     * first, and while one is due no fresh target of its account is claimed: the crashed
     * commit is verified before anything new is committed there (decision 0018).
     */
    async claim(workerId: string, limit: number, lockSeconds: number, ids: string[] | null): Promise<ClaimedTarget[]> {
      if (limit <= 0) return [];
      // The in-doubt ordering costs a heavier plan; take it only while some target is in doubt
      // (rare: after a crash or an unanswered call). Checked on a tiny partial index.
      const doubt = !ids && (await db.query<{ any: boolean }>(DOUBT_ANY)).rows[0].any;
      const { rows } = await db.query<TargetRow & ContextColumns>(
        ids ? CLAIM_IDS : doubt ? CLAIM_DOUBT_FIRST : CLAIM_DUE,
        ids ? [workerId, limit, lockSeconds, ids] : [workerId, limit, lockSeconds],
      );
      return rows.map(({ ctx_post, ctx_account, ctx_prev, ctx_target_count, ctx_first_commit_at, ctx_since_last_commit_ms, ...target }) =>
        ({ ...target, context: toContext({ ctx_post, ctx_account, ctx_prev, ctx_target_count, ctx_first_commit_at, ctx_since_last_commit_ms }) }));
    },

    /** The post, the account, the target's latest attempt, its first commit and the post's target count. Null: the post is gone. */
    async loadContext(target: TargetRow): Promise<TargetContext | null> {
      const { rows } = await db.query<ContextColumns>(LOAD_CONTEXT, [target.post_id, target.id, target.account_id]);
      return rows[0] ? toContext(rows[0]) : null;
    },

    /**
     * Writes an attempt row (for commit: BEFORE the visible call) if `workerId` still holds the
     * target (publishing, locked by it, lease unexpired by the database's clock), extending the
     * lease to at least `leaseSeconds` from now; returns the row's id, or null when the target is
     * no longer held (nothing was written: the run must stop without calling the platform).
     * `action` is its publishing-log action (publish, retry, verify, media_upload).
     */
    async startAttempt(target: TargetRow, workerId: string, phase: AttemptRow['phase'], prepared: Record<string, unknown> | null, action: string,
      leaseSeconds = 0): Promise<number | null> {
      return startAttempts([target.id, target.attempts, workerId, phase, prepared === null ? null : JSON.stringify(prepared), action,
        target.tenant_id, target.post_id, target.account_id, target.platform, leaseSeconds]);
    },

    /**
     * Extends `workerId`'s lease on a target it holds to at least `leaseSeconds` from now (by the
     * database's clock). Answers false when the target is no longer held (lease expired, or released
     * and claimed elsewhere): then nothing is extended.
     */
    async renewLease(targetId: string, workerId: string, leaseSeconds: number): Promise<boolean> {
      const { rowCount } = await db.query(
        `UPDATE post_targets SET locked_until = GREATEST(locked_until, now() + make_interval(secs => $3))
          WHERE id = $1 AND locked_by = $2 AND status = ${PUBLISHING_BY_ID} AND locked_until > now()`, [targetId, workerId, leaseSeconds]);
      return (rowCount ?? 0) > 0;
    },

    /**
     * Gives claimed targets back before anything was done with them (a claim that waited for a slot
     * until its lease was too short to run, or a run the database interrupted before its visible call): pending and
     * due now, the claim's attempt given back. Only targets `workerId` still holds; returns their ids.
     */
    async giveBack(ids: string[], workerId: string): Promise<string[]> {
      if (ids.length === 0) return [];
      const { rows } = await db.query<{ id: string }>(
        `UPDATE post_targets t SET status = 'pending', run_at = now(), locked_by = NULL, locked_until = NULL, updated_at = now(),
                attempts = GREATEST(t.attempts - 1, 0), in_doubt = ${LAST_ATTEMPT_UNANSWERED}
          WHERE t.id = ANY($1::char(24)[]) AND t.locked_by = $2 AND t.status = ${PUBLISHING_BY_ID}
          RETURNING t.id`, [ids, workerId]);
      return rows.map((r) => r.id);
    },

    /**
     * Gives back every target `workerId` holds except `keep` (those it knows it runs or holds for a slot):
     * claims whose statement committed but whose answer the worker never got. Returns their ids.
     */
    async giveBackAllExcept(workerId: string, keep: string[]): Promise<string[]> {
      const { rows } = await db.query<{ id: string }>(
        `UPDATE post_targets t SET status = 'pending', run_at = now(), locked_by = NULL, locked_until = NULL, updated_at = now(),
                attempts = GREATEST(t.attempts - 1, 0), in_doubt = ${LAST_ATTEMPT_UNANSWERED}
          WHERE t.locked_by = $1 AND t.status = 'publishing' AND NOT (t.id = ANY($2::char(24)[]))
          RETURNING t.id`, [workerId, keep]);
      return rows.map((r) => r.id);
    },

    /**
     * A publish that reached the platform although its worker had lost the target (its finish was
     * refused): the attempt already carries the platform's post id (the finish statements write it,
     * marked `stale`). When the target's own post is another one (or none), this is a second copy on
     * the platform: it is added to the target's `result.duplicates` (shown on the post, so it can be
     * unpublished) and announced as `post.platform.duplicate`. Answers whether it was a duplicate.
     */
    async recordStalePublish(target: TargetRow, attemptId: number | null, result: PublishResult): Promise<boolean> {
      return db.tx(async (client) => {
        const { rows } = await client.query<{ platform_post_id: string | null }>(
          'SELECT platform_post_id FROM post_targets WHERE id = $1 FOR UPDATE', [target.id]);
        if (!rows[0] || rows[0].platform_post_id === result.platformPostId) return false;
        const duplicate = { platformPostId: result.platformPostId, platformPostUrl: result.platformPostUrl ?? null, attemptId, detectedAt: new Date().toISOString() };
        await client.query(
          `UPDATE post_targets SET result = jsonb_set(COALESCE(result, '{}'::jsonb), '{duplicates}',
                                    COALESCE(result->'duplicates', '[]'::jsonb) || jsonb_build_array($2::jsonb)), updated_at = now()
            WHERE id = $1`, [target.id, JSON.stringify(duplicate)]);
        await enqueueDuplicateEvent(client, target.id, duplicate);
        return true;
      });
    },

    /** Records that verify proved the attempt's post absent. */
    async markNotPublished(attemptId: number): Promise<void> {
      await db.query(`UPDATE publish_attempts SET outcome = 'not_published', finished_at = now(),
                              duration_ms = (extract(epoch FROM now() - started_at) * 1000)::int WHERE id = $1`, [attemptId]);
    },

    /**
     * Writes the target's final or retry state, its attempt's outcome and the post's derived
     * status, atomically, if `workerId` still holds the target. A retry whose outcome is
     * unknown leaves the target in doubt.
     */
    async finish(target: TargetRow, workerId: string, attemptId: number | null, update: TargetFinish, single: boolean): Promise<boolean> {
      const args = finishArgs(target, workerId, attemptId, update);
      // One target: nothing else can change the post's status concurrently, so one atomic
      // statement records the attempt, the target and the derived post status.
      if (single) return finishSingles(args);
      return db.tx(async (client) => {
        const { rows } = await client.query<{ id: string; status: string; hooks: boolean }>(
          `SELECT id, status, ${hasWebhooksSql('tenant_id')} AS hooks FROM posts WHERE id = $1 FOR UPDATE`, [target.post_id]);
        if (attemptId !== null) {
          await client.query(`UPDATE publish_attempts a SET outcome = u.outcome, error = u.error, finished_at = now(), ${attemptLogSet('u')},
                                     stale = NOT EXISTS (SELECT 1 FROM post_targets t1 WHERE t1.id = $10 AND t1.locked_by = $11)
                                FROM (SELECT $2::text AS outcome, $3::text AS error, $4::text AS category, $5::int AS http_status,
                                             $6::text AS endpoint, $7::text AS excerpt, $8::text AS ppid, $9::text AS ppurl) u WHERE a.id = $1`,
          [attemptId, update.attemptOutcome, update.error ?? null, update.category ?? null, ...args.slice(11), args[5], args[6], target.id, workerId]);
        }
        if (!rows[0]) return false; // the post was deleted while publishing
        const { rowCount } = await client.query(FINISH_TARGET, [...args.slice(0, 9), update.attemptOutcome]);
        if (!rowCount) return false; // another process holds the target now (decision 0045)
        await recomputePostStatus(client, target.post_id);
        // Webhook events (outbox, decision 0038), only for tenants with an active webhook.
        if (rows[0].hooks) await enqueueTargetFinishEvents(client, target.id, rows[0].status);
        return true;
      });
    },

    /**
     * How many of these targets are being published or about to be: publishing, or pending and
     * due (a worker's claim may hold the row while its statement commits). A retry waiting for
     * its backoff is not counted.
     */
    async countUnfinished(ids: string[]): Promise<number> {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM post_targets
          WHERE id = ANY($1::char(24)[]) AND (status = 'publishing' OR (status = 'pending' AND run_at <= now()))`, [ids]);
      return rows[0].n;
    },

    /**
     * Extends the leases that `workerId` still holds on these targets to at least `lockSeconds`
     * from now (a longer lease taken for a long call is kept); answers the ids it extended. A lease
     * that already ran out is not revived: the reconciler may have handed the target on.
     */
    async extendLocks(workerId: string, ids: string[], lockSeconds: number): Promise<string[]> {
      const { rows } = await db.query<{ id: string }>(
        `UPDATE post_targets SET locked_until = GREATEST(locked_until, now() + make_interval(secs => $3))
          WHERE id = ANY($2::char(24)[]) AND locked_by = $1 AND status = ${PUBLISHING_BY_ID} AND locked_until > now()
          RETURNING id`,
        [workerId, ids, lockSeconds]);
      return rows.map((r) => r.id);
    },

    /** Milliseconds until the next pending target is due (negative: overdue), null when none is pending. */
    async msUntilNextDue(): Promise<number | null> {
      const { rows } = await db.query<{ ms: number | null }>(MS_UNTIL_NEXT_DUE);
      return rows[0]?.ms ?? null;
    },

    /** Wakes the worker processes (LISTEN herald_due) for targets due now. */
    async wakeWorkers(): Promise<void> {
      await db.query(`SELECT pg_notify('herald_due', '')`);
    },

    /** Registers (or refreshes) a process in `workers`. */
    async registerProcess(p: { id: string; hostname: string; pid: number; instance: string | null }): Promise<void> {
      await db.query(`INSERT INTO workers (id, hostname, pid, instance) VALUES ($1, $2, $3, $4)
                      ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`, [p.id, p.hostname, p.pid, p.instance]);
    },
    async heartbeat(id: string): Promise<void> {
      await db.query('UPDATE workers SET heartbeat_at = now() WHERE id = $1', [id]);
    },
    async deregisterProcess(id: string): Promise<void> {
      await db.query('DELETE FROM workers WHERE id = $1', [id]);
    },
    /** Other processes of an installation on a host. */
    async processesOf(hostname: string, instance: string, exceptId: string): Promise<Array<{ id: string; pid: number }>> {
      const { rows } = await db.query<{ id: string; pid: number }>(
        'SELECT id, pid FROM workers WHERE hostname = $1 AND instance = $2 AND id <> $3', [hostname, instance, exceptId]);
      return rows;
    },
    /** Releases the targets these (dead) processes held and forgets the processes. Returns the number released. */
    async releaseProcesses(ids: string[]): Promise<number> {
      return db.tx(async (client) => {
        const released = await releaseTargets(client, 't.locked_by = ANY($2::text[])', [ids]);
        await client.query('DELETE FROM workers WHERE id = ANY($1::text[])', [ids]);
        return released.length;
      });
    },
  };
}

export type TargetsRepository = ReturnType<typeof createTargetsRepository>;

/**
 * Puts claimed targets matching `where` (SQL over alias `t`, parameters from $2 on) back to
 * pending, due now. A crash does not spend the retry budget (the claim's attempt is given
 * back, up to MAX_FREE_CRASHES), and an unanswered last commit or verify marks the target in doubt.
 */
export async function releaseTargets(client: Queryable, where: string, params: unknown[]): Promise<Array<{ post_id: string }>> {
  const { rows } = await client.query<{ post_id: string }>(
    `UPDATE post_targets t SET status = 'pending', run_at = now(), locked_by = NULL, locked_until = NULL, updated_at = now(),
            crash_count = t.crash_count + 1, lease_ended_at = LEAST(t.locked_until, now()),
            attempts = CASE WHEN t.crash_count < $1 THEN GREATEST(t.attempts - 1, 0) ELSE t.attempts END,
            in_doubt = ${LAST_ATTEMPT_UNANSWERED}
      WHERE t.status = 'publishing' AND (${where})
      RETURNING t.post_id`, [MAX_FREE_CRASHES, ...params]);
  return rows;
}

/**
 * Releases targets whose lease ran out by the database's clock (their owner stopped extending it:
 * its heartbeat extends its leases every third of the stale time). The lease is the only test: a
 * worker may hold a target longer than the stale time while one long platform call runs (it renewed
 * the lease to cover that call's timeout), and is fenced by the same lease (decision 0045).
 */
export function releaseStaleTargets(client: Queryable): Promise<Array<{ post_id: string }>> {
  return releaseTargets(client, 't.locked_until < now() OR t.locked_by IS NULL', []);
}

/** Forgets processes silent for `seconds` (their targets were released long before). */
export async function forgetSilentProcesses(client: Queryable, seconds: number): Promise<void> {
  await client.query(`DELETE FROM workers WHERE heartbeat_at < now() - make_interval(secs => $1)`, [seconds]);
}
