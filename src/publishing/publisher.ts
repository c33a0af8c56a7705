/**
 * The publishing pipeline (docs/decisions/0001 and 0002): claims due targets and publishes each
 * in two phases, recording an attempt row before the visible call.
 *
 * Job = target row. A target in status `pending` whose `run_at` has passed is due. It is
 * claimed with `FOR UPDATE SKIP LOCKED` (status -> publishing, locked_by, locked_until),
 * so each due target runs in exactly one process. The claiming statement also reads what the
 * run needs (post, account, last attempt), so a run costs two statements of its own: the
 * attempt row before the visible call and the finish after it. While it runs, the owner's heartbeat
 * extends the lock; a crashed owner's targets are released by the reconciler and
 * re-run, and the attempt rows tell the next run what happened:
 *
 *   last attempt's phase  | outcome | next run does
 *   ----------------------+---------+-------------------------------------------------
 *   prepare               | any     | prepare again (nothing visible happened)
 *   commit                | null    | crashed mid-commit: adapter.verify() first
 *   commit                | unknown | the call failed without an answer: verify first
 *   verify                | null/unknown | verify again (bounded by MAX_ATTEMPTS)
 *
 * verify -> published: record it (no second commit); not_published: commit again with
 * the same prepared state (or the resume state verify returned), but only once the platform's
 * settle time has passed since the unanswered commit was sent (a request can land late; until
 * then verify is asked again); unknown: ask again with backoff, and after MAX_ATTEMPTS fail the
 * target with "may have been published, check before retrying". Verify looks back to before the
 * first commit attempt of the target (docs/decisions/0018-exact-verify.md); a target waiting for
 * it is `in_doubt` and goes before fresh targets of its account. A crash does not spend the retry
 * budget (reconciler.ts gives the claim back).
 *
 * A worker's run waits for one of its slots before its first platform request; a target whose
 * adapter prepares it without a request has its attempt row written while it waits, so its call goes
 * out the moment a slot frees (docs/decisions/0076-attempt-rows-ahead.md).
 *
 * Fencing (docs/decisions/0045-fencing-and-late-landings.md): a claim is a lease, valid until
 * `locked_until` by the database's clock, extended by the owner's heartbeat. The attempt row
 * before a visible call is written only while the lease holds (and extends it over the call's
 * timeout); every visible request of a commit first checks, by this process's own clocks from
 * the moment the database confirmed the lease, that the lease outlasts the request (renewing it
 * otherwise: src/platforms/call-guard.ts). A paused worker whose lease ran out therefore never
 * calls the platform again; a finish it sends anyway is refused, and if its call did create a
 * post, that copy is recorded on the target and announced (`post.platform.duplicate`).
 */
import type { Config } from '../config.ts';
import type { Db } from '../storage/db.ts';
import type { MediaStorage } from '../storage/media-storage.ts';
import type { AdapterRegistry } from '../platforms/registry.ts';
import {
  AdapterError, VERIFY_CLOCK_SKEW_MS, type LiveCheck, type MediaRef, type PlatformAdapter, type PlatformId, type PublishRequest,
  type PublishResult, type VerifyResult, lookupFailed,
} from '../platforms/types.ts';
import type { TargetRow } from '../modules/posts/repository.ts';
import type { AccountRow } from '../modules/accounts/service.ts';
import type { AccountsRepository } from '../modules/accounts/repository.ts';
import { adapterContextFor } from '../modules/accounts/adapter-context.ts';
import { probeBytes } from '../infra/probe.ts';
import { buildPublishRequest, threadItemsOf } from '../modules/posts/validation.ts';
import { FieldErrorCollector } from '../core/errors.ts';
import { publishLag, publishLateness, publishOutcomes } from '../observability/metrics.ts';
import { fetchGuarded } from './fetch-media.ts';
import { isMediaError, transientReason } from './failure-reasons.ts';
import { categoryOf } from '../shared/failure-categories.ts';
import { LeaseLostError, withCallGuard, type CallGuard } from '../platforms/call-guard.ts';
import { createTargetsRepository, type ClaimedTarget, type TargetFinish } from './targets-repository.ts';

/**
 * Time a visible call may still need on top of its own timeout before the lease must end: the
 * event loop's delay between the check and the request leaving, and the two clocks' drift.
 */
export const LEASE_MARGIN_MS = 3_000;
/** How long after its publish time a post the platform holds may take to go public before it fails (YouTube: minutes). */
export const LIVE_GRACE_MS = 60 * 60_000;
/** A target published this many seconds or more after its post's time is logged as late (warn). */
export const LATE_LOG_SECONDS = 60;
/** The timeout of one platform request unless the adapter sets another (src/platforms/http.ts). */
export const PLATFORM_CALL_TIMEOUT_MS = 30_000;
/** Transient failures are retried this many times in all before the target fails. */
export const MAX_ATTEMPTS = 5;
const BACKOFF_BASE_MS = 5_000;
const BACKOFF_MAX_MS = 10 * 60_000;

/** Exponential backoff with full jitter, bounded (attempt is 1-based). */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const cap = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(cap / 2 + random() * (cap / 2));
}

export interface PublisherDeps {
  db: Db;
  /** The accounts repository (the one the services use; built on the same database as `db`). */
  accounts: AccountsRepository;
  adapters: AdapterRegistry;
  mediaStorage: MediaStorage;
  config: Config;
  clock: () => Date;
  /** Identifies this process in locks and attempt rows. */
  workerId: string;
  /** Warnings and errors of the protocol (refused finishes, duplicates, database retries). */
  log?: { warn(o: object, m?: string): void; error(o: object, m?: string): void };
}

/**
 * A worker's slot as a run sees it (docs/decisions/0076-attempt-rows-ahead.md). `acquire` resolves
 * once the run may make platform requests (a worker lets `concurrency` runs hold a slot at once);
 * `release` gives the slot back once the platform answered (the finish is written after, grouped
 * with others) and may be called more than once. A run that needs no platform request (its post
 * was deleted, its account is inactive) never acquires one; a run given no slot runs at once.
 */
export interface RunSlot {
  acquire(): Promise<void>;
  release(): void;
}

/** A moment by this process's two clocks: monotonic (counts a pause) and wall (counts a suspended machine). */
interface Stamp { mono: number; wall: number }
const stamp = (): Stamp => ({ mono: performance.now(), wall: Date.now() });

/**
 * A lease as this process knows it: it ends `ms` after the moment the statement that set it was
 * sent (the database's `now()` in it came later), by whichever clock ends it first.
 */
class LocalLease {
  private mono = -Infinity;
  private wall = -Infinity;
  /** Records a lease of `ms` confirmed by a statement sent at `sent`. */
  confirm(sent: Stamp, ms: number): void {
    this.mono = Math.max(this.mono, sent.mono + ms);
    this.wall = Math.max(this.wall, sent.wall + ms);
  }
  /** Milliseconds the lease surely still holds (negative: it may have ended). */
  remainingMs(): number {
    return Math.min(this.mono - performance.now(), this.wall - Date.now());
  }
}

/** Whether an error comes from the database being unreachable or failing the statement (worth retrying the statement). */
function retryableDbError(err: unknown): boolean {
  return !(err instanceof LeaseLostError) && !(err instanceof AdapterError);
}

export function createPublisher(deps: PublisherDeps) {
  const { db, accounts, adapters, clock } = deps;
  let workerId = deps.workerId;
  const inFlight = new Set<string>();
  /** The leases this process holds: claimed targets, running or waiting for a worker's slot. */
  const leases = new Map<string, LocalLease>();
  /** A claim's lease: the stale time (HERALD_WORKER_STALE_MS), extended by the heartbeat. */
  const leaseMs = deps.config.workerStaleMs;
  const settleMsOf = (platform: string) => deps.config.commitSettleMs.byPlatform[platform] ?? deps.config.commitSettleMs.default;
  const log = (level: 'warn' | 'error', data: Record<string, unknown>, msg: string) => deps.log?.[level](data, msg);
  /** The scheduled time of each running target's post, for its lateness when it is published. */
  const dueAt = new Map<string, Date>();
  /** Targets per post of the running targets (1 lets finish() use its single-statement path). */
  const targetCounts = new Map<string, number>();
  const dueListeners = new Set<(at: Date) => void>();

  const targets = createTargetsRepository(db);
  const claim = async (limit: number, ids: string[] | null) => {
    const sent = stamp();
    const rows = await targets.claim(workerId, limit, leaseMs / 1000, ids);
    for (const r of rows) {
      const lease = new LocalLease();
      lease.confirm(sent, leaseMs);
      leases.set(r.id, lease);
    }
    return rows;
  };
  const claimDue = (limit: number) => claim(limit, null);
  const claimByIds = (ids: string[]) => (ids.length ? claim(ids.length, ids) : Promise.resolve([]));

  /**
   * Runs a statement of a run that must not be lost to a database outage (a finish, a give-back):
   * retried with backoff (250 ms doubling to 5 s) for as long as the lease would have lasted, and a
   * stale time more; after that the reconciler owns the target.
   */
  async function persist<T>(what: string, target: TargetRow, run: () => Promise<T>): Promise<T> {
    const until = performance.now() + Math.max(leaseMs, leases.get(target.id)?.remainingMs() ?? 0) + leaseMs;
    for (let wait = 250; ; wait = Math.min(5_000, wait * 2)) {
      try {
        return await run();
      } catch (err) {
        if (!retryableDbError(err) || performance.now() + wait > until) throw err;
        log('warn', { err: (err as Error).message, targetId: target.id, retryInMs: wait }, `${what} failed; retrying`);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  /**
   * Writes the target's final or retry state and the post's derived status, atomically, if this
   * process still holds the target. A refused finish of a publish that did create a post records
   * that copy (targets.recordStalePublish): if the target's own post is another one, it is a duplicate.
   */
  async function finishTarget(target: TargetRow, attemptId: number | null, update: TargetFinish): Promise<void> {
    const single = (targetCounts.get(target.id) ?? 2) === 1;
    const held = await persist('finishing a target', target, () =>
      targets.finish(target, workerId, attemptId, { ...update, runAt: update.status === 'pending' ? (update.runAt ?? clock()) : null }, single));
    if (held) {
      publishOutcomes.inc({ platform: target.platform, outcome: update.status === 'pending' ? 'retry' : update.status });
      const due = dueAt.get(target.id);
      if (update.status === 'published' && due) {
        const late = Math.max(0, Date.now() - due.getTime()) / 1000;
        publishLateness.observe({ platform: target.platform }, late);
        if (late >= LATE_LOG_SECONDS) log('warn', { targetId: target.id, postId: target.post_id, platform: target.platform, lateSeconds: Math.round(late) }, 'published late');
      }
      return;
    }
    log('warn', { targetId: target.id, postId: target.post_id, status: update.status }, 'finish refused: this worker no longer holds the target (its lease ran out)');
    if (update.status === 'published' && update.result) {
      const duplicate = await persist('recording a stale publish', target, () => targets.recordStalePublish(target, attemptId, update.result!));
      if (duplicate) {
        publishOutcomes.inc({ platform: target.platform, outcome: 'duplicate' });
        log('error', { targetId: target.id, postId: target.post_id, platformPostId: update.result.platformPostId },
          'a worker that had lost its lease published a second copy; recorded on the target (duplicates) and sent as post.platform.duplicate');
      }
    }
  }

  /**
   * Writes an attempt row while this process holds the target, extending the lease to cover the
   * next `needMs` (decision 0045). @throws LeaseLostError when the target is no longer held.
   */
  async function fencedAttempt(target: TargetRow, phase: 'prepare' | 'commit' | 'verify', prepared: Record<string, unknown> | null, action: string, needMs = 0): Promise<number> {
    const sent = stamp();
    const id = await targets.startAttempt(target, workerId, phase, prepared, action, needMs / 1000);
    if (id === null) throw new LeaseLostError();
    leases.get(target.id)?.confirm(sent, needMs);
    return id;
  }

  /**
   * The guard of a commit's visible calls (src/platforms/call-guard.ts): a request with a timeout of
   * `timeoutMs` goes out only if the lease surely outlasts it by LEASE_MARGIN_MS, renewed first if not.
   */
  function callGuard(target: TargetRow, state: { lost: boolean }): CallGuard {
    return {
      async beforeVisibleCall(timeoutMs: number) {
        const lease = leases.get(target.id);
        for (let tries = 0; lease && tries < 3; tries++) {
          if (lease.remainingMs() >= timeoutMs + LEASE_MARGIN_MS) return;
          const sent = stamp();
          if (!(await targets.renewLease(target.id, workerId, (timeoutMs + 2 * LEASE_MARGIN_MS) / 1000))) break;
          lease.confirm(sent, timeoutMs + 2 * LEASE_MARGIN_MS);
        }
        state.lost = true;
        throw new LeaseLostError();
      },
      holdsFor(ms: number) {
        const ok = (leases.get(target.id)?.remainingMs() ?? -1) >= ms;
        if (!ok) state.lost = true;
        return ok;
      },
    };
  }

  const finish = finishTarget;

  /** The adapter's view of the account, with media reading (SSRF-guarded) and ffprobe for media without metadata. */
  function adapterContext(account: AccountRow) {
    return adapterContextFor(accounts, account, {
      fetchMedia: (item: MediaRef, maxBytes: number) => fetchGuarded(deps.mediaStorage, item, maxBytes, { allowPrivate: deps.config.allowPrivateUrls }),
      probeMedia: async (bytes, mimeType) => {
        const md = await probeBytes(bytes, mimeType, { ffprobePath: deps.config.ffprobePath, timeoutMs: 60_000 });
        return { durationSeconds: md.duration, width: md.width, height: md.height };
      },
    });
  }

  /**
   * Runs one claimed target to a final or retry state. Never throws. With a worker's `slot`, the
   * run takes it before its first platform request and releases it once the platform has answered
   * a publish (before the answer is written down), so that the slot's next target starts while the
   * finish is written (grouped with others). A target whose adapter prepares it offline
   * (`preparesOffline`) is prepared and its attempt row written before the slot is taken, so its
   * call goes out the moment the slot frees (docs/decisions/0076-attempt-rows-ahead.md).
   *
   * A target whose lease has less than half its length left when it is about to run with no attempt
   * row written (it waited for a slot while the process was paused) is given back instead of run; a
   * run whose lease is found lost (by the fenced attempt row or a commit's call guard, which renews
   * the lease of a target that waited with its attempt row written) stops where it is and writes
   * nothing more: the target's new holder verifies whatever it may have left unanswered.
   */
  async function runTarget(target: TargetRow | ClaimedTarget, slot?: RunSlot): Promise<void> {
    inFlight.add(target.id);
    let attemptId: number | null = null;
    // Where a failure happened decides whether the next run must verify before committing.
    let phase: 'prepare' | 'commit' = 'prepare';
    const guardState = { lost: false };
    const released = () => slot?.release();
    /** Gives the target back when its lease is past half its length (the process was paused); answers whether it did. */
    const givenBackStale = async (): Promise<boolean> => {
      const lease = leases.get(target.id);
      if (!lease || lease.remainingMs() >= leaseMs / 2) return false;
      const back = await persist('giving a target back', target, () => targets.giveBack([target.id], workerId));
      log('warn', { targetId: target.id, leaseLeftMs: Math.round(lease.remainingMs()), givenBack: back.length === 1 },
        'a claimed target waited too long to start (the process was paused?): given back, not run');
      return true;
    };
    let holdsSlot = !slot;
    /** Waits for the worker's slot (once). */
    const takeSlot = async (): Promise<void> => {
      if (holdsSlot) return;
      await slot!.acquire();
      holdsSlot = true;
    };
    /**
     * Takes the slot before a platform request with no attempt row written: false when the target
     * waited for it past half its lease and was given back. (With an attempt row written, the commit's
     * call guard renews the lease or stops the run instead.)
     */
    const enter = async (): Promise<boolean> => {
      if (holdsSlot) return true;
      await takeSlot();
      return !(await givenBackStale());
    };
    try {
      if (await givenBackStale()) return;
      if (target.run_at) publishLag.observe({ platform: target.platform }, Math.max(0, clock().getTime() - new Date(target.run_at).getTime()) / 1000);
      const ctx = 'context' in target ? target.context : await targets.loadContext(target);
      if (!ctx) return; // post deleted: its target rows are gone too
      const { post, account } = ctx;
      targetCounts.set(target.id, ctx.targetCount);
      // Due at the target's own time (decision 0064), else the post's.
      const due = target.scheduled_for ?? post.scheduled_for;
      if (due) dueAt.set(target.id, new Date(due));
      if (!account) {
        await finish(target, null, { status: 'failed', attemptOutcome: 'failed', category: categoryOf('account_removed'), error: 'The account was disconnected; reconnect it and retry the post' });
        return;
      }
      if (!account.is_active) {
        await finish(target, null, { status: 'failed', attemptOutcome: 'failed', category: categoryOf('account_needs_reconnect'), error: `The ${account.platform} account needs to be reconnected (${account.inactive_reason ?? 'inactive'}); reconnect it and retry` });
        return;
      }
      const adapter = adapters.get(account.platform as PlatformId);
      if (!adapter) {
        await finish(target, null, { status: 'failed', attemptOutcome: 'failed', category: categoryOf('platform_not_configured'), error: `Publishing to ${account.platform} is not available on this server` });
        return;
      }
      // Sandbox mode (src/sandbox): simulator accounts never reach a real platform, real accounts never a simulator.
      if ((account.settings?.sandbox === true) !== (adapters.sandbox === true)) {
        await finish(target, null, { status: 'failed', attemptOutcome: 'failed', category: categoryOf('sandbox_mismatch'), error: account.settings?.sandbox === true
          ? `This ${account.platform} account is a sandbox (simulator) account and sandbox mode is off; connect the real account, or restart Herald with HERALD_SANDBOX=on`
          : `Sandbox mode is on: only sandbox (simulator) accounts publish, and this ${account.platform} account is a real one; restart Herald without HERALD_SANDBOX to publish it` });
        return;
      }
      // A post the platform publishes itself at its time (a YouTube video uploaded ahead): confirm
      // it then; it is never uploaded again.
      if (target.platform_post_id && target.result?.goesLiveAt) {
        if (!(await enter())) return;
        await confirmLive(target, adapter, account, released);
        return;
      }
      const errs = new FieldErrorCollector();
      const req: PublishRequest = buildPublishRequest({
        content: post.content, customContent: target.custom_content, mediaItems: post.media_items,
        platformSpecificData: target.platform_specific_data, threadItems: threadItemsOf(target.platform_specific_data, 'platformSpecificData', errs),
        tags: post.tags, visibility: post.visibility, scheduledFor: due ? new Date(due) : null, accountSettings: account.settings ?? {},
        platform: account.platform as PlatformId, hashtags: post.hashtags ?? [], mentions: post.mentions ?? [],
      });
      const violations = adapter.validate(req);
      if (violations.length) {
        await finish(target, null, { status: 'failed', attemptOutcome: 'failed', category: categoryOf('rule_violation'), error: violations.map((v) => `${v.message} [rule ${v.rule}]`).join('; ') });
        return;
      }
      const { account: accountCtx, ctx: actx } = adapterContext(account);

      // What did the previous attempt leave behind?
      const prev = ctx.prev;
      let prepared: Record<string, unknown> | null = null;
      // Past the retry budget, a target in doubt is only verified: published, or failed with the last error.
      const verifyOnly = target.attempts > MAX_ATTEMPTS;
      // An unresolved commit (crash, or no answer) or an interrupted verify: ask the platform first.
      if (prev && (prev.phase === 'commit' || prev.phase === 'verify') && (prev.outcome === null || prev.outcome === 'unknown') && prev.prepared) {
        if (!(await enter())) return;
        attemptId = await fencedAttempt(target, 'verify', prev.prepared, 'verify');
        let verdict: VerifyResult;
        // Look back to before the first commit of this target (anything it created is newer).
        const since = new Date((ctx.firstCommitAt ?? clock()).getTime() - VERIFY_CLOCK_SKEW_MS);
        try {
          verdict = await adapter.verify(actx, accountCtx, req, prev.prepared, { since });
        } catch (err) {
          verdict = lookupFailed(err);
        }
        // A look-up the platform rate-limits (Mastodon throttles paged reads: 300 per 15 minutes)
        // says nothing about the post: ask again when the platform allows, on the rate-limit
        // budget as a rate-limited commit is, instead of spending the verify budget on it.
        if (verdict.status === 'unknown' && verdict.rateLimited && target.attempts < MAX_ATTEMPTS + 3) {
          await finish(target, attemptId, {
            status: 'pending', attemptOutcome: 'unknown', category: categoryOf('verify_pending'),
            error: `Checking whether the interrupted publish went through: ${account.platform} limits the look-up (${verdict.reason}); Herald asks again when it allows`,
            runAt: new Date(clock().getTime() + (verdict.rateLimited.retryAfterMs ?? backoffMs(target.attempts))),
          });
          return;
        }
        if (verdict.status === 'published') {
          released();
          await finishPublished(target, attemptId, verdict.result);
          return;
        }
        if (verdict.status === 'unknown' && target.attempts < MAX_ATTEMPTS) {
          // The platform could not be asked (or could not tell) right now: ask again later.
          await finish(target, attemptId, {
            status: 'pending', attemptOutcome: 'unknown', category: categoryOf('verify_pending'),
            error: `Checking whether the interrupted publish went through: ${verdict.reason}`,
            runAt: new Date(clock().getTime() + backoffMs(target.attempts)),
          });
          return;
        }
        if (verdict.status === 'unknown') {
          // The attempt stays unanswered, so a user's retry verifies again before committing.
          await finish(target, attemptId, {
            status: 'failed', attemptOutcome: 'unknown', category: categoryOf('publish_unconfirmed'),
            error: `The publish call was interrupted and ${account.platform} could not confirm whether the post was created (${verdict.reason}). It may have been published: check the account before retrying.`,
          });
          return;
        }
        // Not there now. Right after an unanswered call that proves nothing: the request may still
        // land. Ask again once the platform's settle time has passed since the call was sent.
        const settleMs = settleMsOf(account.platform);
        const sinceCommit = ctx.sinceLastCommitMs;
        if (sinceCommit !== null && sinceCommit < settleMs) {
          const waitMs = Math.ceil(settleMs - sinceCommit);
          await finish(target, attemptId, {
            status: 'pending', attemptOutcome: 'unknown', category: categoryOf('verify_pending'),
            error: `The last publish call got no answer and ${account.platform} shows no post from it yet; a request can still land for ${Math.round(settleMs / 1000)} s after it was sent, so Herald checks again in ${Math.round(waitMs / 1000)} s before publishing again`,
            runAt: new Date(clock().getTime() + waitMs),
          });
          return;
        }
        await targets.markNotPublished(attemptId);
        if (verifyOnly) {
          // The retry budget is spent, and the platform's record proves the last tries created nothing.
          await finish(target, null, {
            status: 'failed', attemptOutcome: 'failed', category: target.error_category ?? categoryOf('platform_unavailable'),
            error: `Publishing failed after ${MAX_ATTEMPTS} attempts (last error: ${target.error_message ?? 'no answer'}); ${account.platform} has no post from them, so it is safe to retry`,
          });
          return;
        }
        // Safe: the platform has no post for these commit tokens (or, resuming, for the rest of them).
        prepared = verdict.prepared ?? prev.prepared;
      }

      phase = 'prepare';
      attemptId = null;
      let writingAttempt = false;
      try {
        // A prepare that makes no request runs before the slot is taken (decision 0076); one that may, inside it.
        if (!prepared && adapter.preparesOffline?.(req, accountCtx) !== true && !(await enter())) return;
        if (!prepared) prepared = (await adapter.prepare(actx, accountCtx, req)) as Record<string, unknown>;
        // Durable BEFORE the visible call, and only while this process holds the target (the lease
        // then covers the first request whole): a crash from here on is resolved by verify().
        writingAttempt = true;
        attemptId = await fencedAttempt(target, 'commit', prepared, target.attempts > 1 ? 'retry' : 'publish', PLATFORM_CALL_TIMEOUT_MS + 2 * LEASE_MARGIN_MS);
        writingAttempt = false;
        await takeSlot();
        phase = 'commit';
        const toCommit = prepared;
        const result = await withCallGuard(callGuard(target, guardState), () => adapter.commit(actx, accountCtx, req, toCommit));
        released();
        await finishPublished(target, attemptId, result);
      } catch (err) {
        if (err instanceof LeaseLostError || guardState.lost) throw err;
        // The database failed the attempt row: nothing was sent, and it is not the platform's
        // failure. The outer catch gives the target back (decision 0045 item 9).
        if (writingAttempt) throw err;
        if (attemptId === null) {
          // Failed before the visible call: record the prepare attempt for the history.
          // Prepare is where media is uploaded: the log names it so when the post has media.
          const action = req.mediaItems.length ? 'media_upload' : target.attempts > 1 ? 'retry' : 'publish';
          attemptId = await fencedAttempt(target, 'prepare', null, action).catch((e) => { if (e instanceof LeaseLostError) throw e; return null; });
        }
        await handleFailure(target, attemptId, phase, err, account);
      }
    } catch (err) {
      if (err instanceof LeaseLostError || guardState.lost) {
        // Another process may hold the target now: write nothing (an unanswered attempt row of ours
        // is verified by the new holder).
        log('warn', { targetId: target.id, postId: target.post_id, phase }, 'lease lost: the run stopped without calling the platform');
        return;
      }
      // Infrastructure failure (database down, bug). Before any visible call: give the target back
      // (a database outage is not the platform's failure). Else record it; the finish is retried
      // while the database is away, and if it never lands the lease runs out and the reconciler
      // hands the target on.
      try {
        if (phase === 'prepare' && attemptId === null) {
          await persist('giving a target back', target, () => targets.giveBack([target.id], workerId));
        } else {
          await handleFailure(target, attemptId, phase, err, null);
        }
      } catch { /* the lease expires and the reconciler re-queues it; the attempt row still says where it stopped */ }
    } finally {
      inFlight.delete(target.id);
      targetCounts.delete(target.id);
      dueAt.delete(target.id);
      leases.delete(target.id);
    }
  }

  /**
   * Records a publish the platform accepted. A post it publishes itself later (`goesLiveAt` ahead:
   * a YouTube video uploaded private with publishAt) keeps its target pending until then, with its
   * platform id and URL, so the post stays `scheduled`; {@link confirmLive} runs at that time.
   */
  async function finishPublished(target: TargetRow, attemptId: number | null, result: PublishResult): Promise<void> {
    if (result.goesLiveAt && Date.parse(result.goesLiveAt) > clock().getTime()) {
      await finish(target, attemptId, { status: 'pending', attemptOutcome: 'published', result, runAt: new Date(result.goesLiveAt) });
      return;
    }
    await finish(target, attemptId, { status: 'published', attemptOutcome: 'published', result });
  }

  /**
   * At its `goesLiveAt`, asks the platform whether the post it held went public (adapter.confirmLive;
   * an adapter without it is taken at its word). Live: published. Gone: failed. Not yet: asked
   * again when the platform says; still not public LIVE_GRACE_MS after its time: failed, saying so.
   * The check is a verify entry in the publishing log.
   */
  async function confirmLive(target: TargetRow, adapter: PlatformAdapter, account: AccountRow, released: () => void): Promise<void> {
    const goesLiveAt = target.result!.goesLiveAt!;
    const stored: PublishResult = {
      platformPostId: target.platform_post_id!, platformPostUrl: target.platform_post_url ?? '', goesLiveAt,
      ...(target.result?.thread ? { thread: target.result.thread } : {}),
      ...((target.result as { extra?: Record<string, unknown> }).extra ? { extra: (target.result as { extra?: Record<string, unknown> }).extra } : {}),
    };
    const attemptId = await fencedAttempt(target, 'verify', null, 'verify');
    const { account: accountCtx, ctx: actx } = adapterContext(account);
    let check: LiveCheck;
    try {
      check = adapter.confirmLive ? await adapter.confirmLive(actx, accountCtx, stored) : { status: 'live' };
    } catch (err) {
      const ae = err instanceof AdapterError ? err : null;
      check = { status: 'waiting', until: new Date(clock().getTime() + (ae?.opts.retryAfterMs ?? backoffMs(Math.min(target.attempts, 6)))), reason: (err as Error).message };
    }
    if (check.status === 'live') {
      released();
      const { goesLiveAt: _, ...live } = check.result ?? stored;
      await finish(target, attemptId, { status: 'published', attemptOutcome: 'published', result: live });
      return;
    }
    if (check.status === 'gone') {
      await finish(target, attemptId, { status: 'failed', attemptOutcome: 'failed', category: categoryOf('not_live'), error: `Not published: ${check.reason}` });
      return;
    }
    if (clock().getTime() - Date.parse(goesLiveAt) > LIVE_GRACE_MS) {
      await finish(target, attemptId, { status: 'failed', attemptOutcome: 'failed', category: categoryOf('not_live_in_time'),
        error: `${account.platform} had not made the post public ${Math.round(LIVE_GRACE_MS / 60_000)} minutes after its publish time (${goesLiveAt}): ${check.reason}. It is on the account (${stored.platformPostUrl}); check it there` });
      return;
    }
    await finish(target, attemptId, { status: 'pending', attemptOutcome: 'retry', runAt: check.until });
  }

  async function handleFailure(target: TargetRow, attemptId: number | null, phase: 'prepare' | 'commit', err: unknown, account: AccountRow | null): Promise<void> {
    const ae = err instanceof AdapterError ? err : new AdapterError('transient', (err as Error)?.message ?? String(err));
    const attempts = target.attempts;
    // The platform's answer, for the publishing log (decision 0039).
    const http = { status: ae.opts.status ?? null, endpoint: ae.opts.endpoint ?? null, excerpt: ae.opts.excerpt ?? null };
    const finish = (t: TargetRow, id: number | null, update: TargetFinish) => finishTarget(t, id, { ...update, http });
    switch (ae.kind) {
      case 'rejected':
        await finish(target, attemptId, { status: 'failed', attemptOutcome: 'failed', category: categoryOf(isMediaError(ae) ? 'media_unusable' : 'platform_rejected'), error: ae.message });
        return;
      case 'disconnected':
        if (account) await accounts.markNeedsReconnect(account.id, ae.message);
        await finish(target, attemptId, { status: 'failed', attemptOutcome: 'failed', category: categoryOf('token_revoked'), error: `${ae.message}. Reconnect the account, then retry the post.` });
        return;
      case 'rate_limited': {
        const wait = ae.opts.retryAfterMs ?? backoffMs(attempts);
        const category = categoryOf('platform_rate_limited');
        if (attempts >= MAX_ATTEMPTS + 3) {
          await finish(target, attemptId, { status: 'failed', attemptOutcome: 'failed', category, error: `Rate limited by the platform: ${ae.message}` });
          return;
        }
        await finish(target, attemptId, { status: 'pending', attemptOutcome: 'retry', category, error: ae.message, runAt: new Date(clock().getTime() + wait) });
        return;
      }
      case 'auth_expired':
      case 'transient': {
        // A transient failure during commit leaves the outcome unknown: the next run verifies first
        // (unless the adapter knows nothing reached the platform: `notSent`, e.g. a refused connection).
        // Past the budget too: the platform's record then settles it (published, or failed with
        // this error and "safe to retry"); only a platform that cannot tell leaves "may have been published".
        const outcome = phase === 'commit' && ae.kind === 'transient' && !ae.opts.notSent ? 'unknown' : 'retry';
        const category = categoryOf(transientReason(ae));
        if (attempts >= MAX_ATTEMPTS && outcome !== 'unknown') {
          await finish(target, attemptId, { status: 'failed', attemptOutcome: 'failed', category, error: `Publishing failed after ${attempts} attempts: ${ae.message}` });
          return;
        }
        await finish(target, attemptId, { status: 'pending', attemptOutcome: outcome, category, error: ae.message, runAt: new Date(clock().getTime() + backoffMs(attempts)) });
        return;
      }
    }
  }

  return {
    get workerId() { return workerId; },
    set workerId(id: string) { workerId = id; },
    inFlight,
    claimDue,
    claimByIds,
    runTarget,
    /** The targets repository (workers and the reconciler share it). */
    targets,

    /**
     * Publishes the given targets in this process (publishNow). Resolves true when all
     * of them reached a final state within `budgetMs`; false when some are still running
     * (they continue here or in a worker).
     */
    async publishNow(targetIds: string[], budgetMs: number): Promise<boolean> {
      const claimed = await claimByIds(targetIds);
      const runs = Promise.all(claimed.map((t) => runTarget(t)));
      const deadline = Date.now() + budgetMs;
      const timedOut = await Promise.race([runs.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), budgetMs).unref())]);
      if (timedOut) return false;
      // Targets that a worker claimed first (or is claiming right now): wait for them too, within the budget.
      while (Date.now() < deadline) {
        if ((await targets.countUnfinished(targetIds)) === 0) return true;
        await new Promise((r) => setTimeout(r, 100));
      }
      return false;
    },

    /**
     * Extends the leases of every target this process holds (running, or claimed and waiting for a
     * worker's slot) by the stale time from now; the heartbeat calls it. A lease that already ran
     * out is not revived (its target may be someone else's now).
     */
    async extendLocks(): Promise<void> {
      if (leases.size === 0) return;
      const sent = stamp();
      for (const id of await targets.extendLocks(workerId, [...leases.keys()], leaseMs / 1000)) leases.get(id)?.confirm(sent, leaseMs);
    },

    /**
     * Gives back the targets locked by this process that it neither runs nor holds waiting for a slot: a
     * claim statement the database committed but whose answer never arrived (the connection broke).
     * Answers how many. Without this they would wait for their lease to run out.
     */
    async giveBackUnknownClaims(): Promise<number> {
      return (await targets.giveBackAllExcept(workerId, [...leases.keys()])).length;
    },

    /** Milliseconds this process's lease on a target surely still holds, by its own clocks (null: not held here). */
    leaseRemainingMs(targetId: string): number | null {
      return leases.get(targetId)?.remainingMs() ?? null;
    },

    /** Tells in-process listeners (the worker loop) that something is due at `at`. */
    notifyDue(at: Date): void {
      for (const l of dueListeners) l(at);
      if (at.getTime() <= clock().getTime() + 2_000) {
        targets.wakeWorkers().catch(() => {});
      }
    },
    onDue(listener: (at: Date) => void): () => void {
      dueListeners.add(listener);
      return () => dueListeners.delete(listener);
    },
  };
}

export type Publisher = ReturnType<typeof createPublisher>;
