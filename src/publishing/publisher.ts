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
 * the same prepared state (or the resume state verify returned); unknown: ask again with
 * backoff, and after MAX_ATTEMPTS fail the target with "may have been published, check
 * before retrying". Verify looks back to before the first commit attempt of the target
 * (docs/decisions/0018-exact-verify.md); a target waiting for it is `in_doubt` and goes
 * before fresh targets of its account. A crash does not spend the retry budget
 * (reconciler.ts gives the claim back).
 */
import type { Config } from '../config.ts';
import type { SecretBox } from '../core/crypto.ts';
import type { Db } from '../storage/db.ts';
import type { MediaStorage } from '../storage/media-storage.ts';
import type { AdapterRegistry } from '../platforms/registry.ts';
import {
  AdapterError, VERIFY_CLOCK_SKEW_MS, type MediaRef, type PlatformId, type PublishRequest,
  type VerifyResult,
} from '../platforms/types.ts';
import type { TargetRow } from '../modules/posts/repository.ts';
import type { AccountRow } from '../modules/accounts/service.ts';
import { createAccountsRepository } from '../modules/accounts/repository.ts';
import { adapterContextFor } from '../modules/accounts/adapter-context.ts';
import { probeBytes } from '../infra/probe.ts';
import { buildPublishRequest, threadItemsOf } from '../modules/posts/validation.ts';
import { FieldErrorCollector } from '../core/errors.ts';
import { publishLag, publishOutcomes } from '../observability/metrics.ts';
import { fetchGuarded } from './fetch-media.ts';
import { createTargetsRepository, type ClaimedTarget, type TargetFinish } from './targets-repository.ts';

/** Lock a claimed target for this long; the owner's heartbeat extends it. */
export const LOCK_MS = 60_000;
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
  secrets: SecretBox;
  adapters: AdapterRegistry;
  mediaStorage: MediaStorage;
  config: Config;
  clock: () => Date;
  /** Identifies this process in locks and attempt rows. */
  workerId: string;
}

export function createPublisher(deps: PublisherDeps) {
  const { db, secrets, adapters, clock } = deps;
  let workerId = deps.workerId;
  const inFlight = new Set<string>();
  /** Targets per post of the running targets (1 lets finish() use its single-statement path). */
  const targetCounts = new Map<string, number>();
  const dueListeners = new Set<(at: Date) => void>();

  const targets = createTargetsRepository(db);
  const claim = (limit: number, ids: string[] | null) => targets.claim(workerId, limit, LOCK_MS / 1000, ids);
  const claimDue = (limit: number) => claim(limit, null);
  const claimByIds = (ids: string[]) => (ids.length ? claim(ids.length, ids) : Promise.resolve([]));

  /** Writes the target's final or retry state and the post's derived status, atomically. */
  async function finishTarget(target: TargetRow, attemptId: number | null, update: TargetFinish): Promise<void> {
    const single = (targetCounts.get(target.id) ?? 2) === 1;
    publishOutcomes.inc({ platform: target.platform, outcome: update.status === 'pending' ? 'retry' : update.status });
    await targets.finish(target, workerId, attemptId, { ...update, runAt: update.status === 'pending' ? (update.runAt ?? clock()) : null }, single);
  }

  const finish = finishTarget;
  const accounts = createAccountsRepository(db, secrets);

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
   * Runs one claimed target to a final or retry state. Never throws. `released` is called once
   * the platform has answered a publish (before the answer is written down), so that a worker
   * can hand the slot to its next target while the finish is written (grouped with others).
   */
  async function runTarget(target: TargetRow | ClaimedTarget, released?: () => void): Promise<void> {
    inFlight.add(target.id);
    if (target.run_at) publishLag.observe({ platform: target.platform }, Math.max(0, clock().getTime() - new Date(target.run_at).getTime()) / 1000);
    let attemptId: number | null = null;
    // Where a failure happened decides whether the next run must verify before committing.
    let phase: 'prepare' | 'commit' = 'prepare';
    try {
      const ctx = 'context' in target ? target.context : await targets.loadContext(target);
      if (!ctx) return; // post deleted: its target rows are gone too
      const { post, account } = ctx;
      targetCounts.set(target.id, ctx.targetCount);
      if (!account) {
        await finish(target, null, { status: 'failed', attemptOutcome: 'failed', category: 'account_issue', error: 'The account was disconnected; reconnect it and retry the post' });
        return;
      }
      if (!account.is_active) {
        await finish(target, null, { status: 'failed', attemptOutcome: 'failed', category: 'auth_expired', error: `The ${account.platform} account needs to be reconnected (${account.inactive_reason ?? 'inactive'}); reconnect it and retry` });
        return;
      }
      const adapter = adapters.get(account.platform as PlatformId);
      if (!adapter) {
        await finish(target, null, { status: 'failed', attemptOutcome: 'failed', category: 'system_error', error: `Publishing to ${account.platform} is not available on this server` });
        return;
      }
      // Sandbox mode (src/sandbox): simulator accounts never reach a real platform, real accounts never a simulator.
      if ((account.settings?.sandbox === true) !== (adapters.sandbox === true)) {
        await finish(target, null, { status: 'failed', attemptOutcome: 'failed', category: 'account_issue', error: account.settings?.sandbox === true
          ? `This ${account.platform} account is a sandbox (simulator) account and sandbox mode is off; connect the real account, or restart Herald with HERALD_SANDBOX=on`
          : `Sandbox mode is on: only sandbox (simulator) accounts publish, and this ${account.platform} account is a real one; restart Herald without HERALD_SANDBOX to publish it` });
        return;
      }
      const errs = new FieldErrorCollector();
      const req: PublishRequest = buildPublishRequest({
        content: post.content, customContent: target.custom_content, mediaItems: post.media_items,
        platformSpecificData: target.platform_specific_data, threadItems: threadItemsOf(target.platform_specific_data, 'platformSpecificData', errs),
        tags: post.tags, visibility: post.visibility, scheduledFor: post.scheduled_for, accountSettings: account.settings ?? {},
        platform: account.platform as PlatformId, hashtags: post.hashtags ?? [], mentions: post.mentions ?? [],
      });
      const violations = adapter.validate(req);
      if (violations.length) {
        await finish(target, null, { status: 'failed', attemptOutcome: 'failed', category: 'user_content', error: violations.map((v) => `${v.message} [rule ${v.rule}]`).join('; ') });
        return;
      }
      const { account: accountCtx, ctx: actx } = adapterContext(account);

      // What did the previous attempt leave behind?
      const prev = ctx.prev;
      let prepared: Record<string, unknown> | null = null;
      // An unresolved commit (crash, or no answer) or an interrupted verify: ask the platform first.
      if (prev && (prev.phase === 'commit' || prev.phase === 'verify') && (prev.outcome === null || prev.outcome === 'unknown') && prev.prepared) {
        attemptId = await targets.startAttempt(target, workerId, 'verify', prev.prepared, 'verify');
        let verdict: VerifyResult;
        // Look back to before the first commit of this target (anything it created is newer).
        const since = new Date((ctx.firstCommitAt ?? clock()).getTime() - VERIFY_CLOCK_SKEW_MS);
        try {
          verdict = await adapter.verify(actx, accountCtx, req, prev.prepared, { since });
        } catch (err) {
          verdict = { status: 'unknown' as const, reason: (err as Error).message };
        }
        if (verdict.status === 'published') {
          released?.();
          await finish(target, attemptId, { status: 'published', attemptOutcome: 'published', result: verdict.result });
          return;
        }
        if (verdict.status === 'unknown' && target.attempts < MAX_ATTEMPTS) {
          // The platform could not be asked (or could not tell) right now: ask again later.
          await finish(target, attemptId, {
            status: 'pending', attemptOutcome: 'unknown', category: 'platform_error',
            error: `Checking whether the interrupted publish went through: ${verdict.reason}`,
            runAt: new Date(clock().getTime() + backoffMs(target.attempts)),
          });
          return;
        }
        if (verdict.status === 'unknown') {
          await finish(target, attemptId, {
            status: 'failed', attemptOutcome: 'failed', category: 'unknown',
            error: `The publish call was interrupted and ${account.platform} could not confirm whether the post was created (${verdict.reason}). It may have been published: check the account before retrying.`,
          });
          return;
        }
        await targets.markNotPublished(attemptId);
        // Safe: the platform has no post for these commit tokens (or, resuming, for the rest of them).
        prepared = verdict.prepared ?? prev.prepared;
      }

      phase = 'prepare';
      try {
        if (!prepared) prepared = (await adapter.prepare(actx, accountCtx, req)) as Record<string, unknown>;
        // Durable BEFORE the visible call: a crash from here on is resolved by verify().
        attemptId = await targets.startAttempt(target, workerId, 'commit', prepared, target.attempts > 1 ? 'retry' : 'publish');
        phase = 'commit';
        const result = await adapter.commit(actx, accountCtx, req, prepared);
        released?.();
        await finish(target, attemptId, { status: 'published', attemptOutcome: 'published', result });
      } catch (err) {
        if (attemptId === null) {
          // Failed before the visible call: record the prepare attempt for the history.
          // Prepare is where media is uploaded: the log names it so when the post has media.
          const action = req.mediaItems.length ? 'media_upload' : target.attempts > 1 ? 'retry' : 'publish';
          attemptId = await targets.startAttempt(target, workerId, 'prepare', null, action).catch(() => null);
        }
        await handleFailure(target, attemptId, phase, err, account);
      }
    } catch (err) {
      // Infrastructure failure (database down, bug): leave it for the reconciler, but try to record it.
      try {
        await handleFailure(target, attemptId, phase, err, null);
      } catch { /* the lock expires and the reconciler re-queues it; the attempt row still says where it stopped */ }
    } finally {
      inFlight.delete(target.id);
      targetCounts.delete(target.id);
    }
  }

  async function handleFailure(target: TargetRow, attemptId: number | null, phase: 'prepare' | 'commit', err: unknown, account: AccountRow | null): Promise<void> {
    const ae = err instanceof AdapterError ? err : new AdapterError('transient', (err as Error)?.message ?? String(err));
    const attempts = target.attempts;
    // The platform's answer, for the publishing log (decision 0039).
    const http = { status: ae.opts.status ?? null, endpoint: ae.opts.endpoint ?? null, excerpt: ae.opts.excerpt ?? null };
    const finish = (t: TargetRow, id: number | null, update: TargetFinish) => finishTarget(t, id, { ...update, http });
    switch (ae.kind) {
      case 'rejected':
        await finish(target, attemptId, { status: 'failed', attemptOutcome: 'failed', category: 'platform_rejected', error: ae.message });
        return;
      case 'disconnected':
        if (account) await accounts.markNeedsReconnect(account.id, ae.message);
        await finish(target, attemptId, { status: 'failed', attemptOutcome: 'failed', category: 'auth_expired', error: `${ae.message}. Reconnect the account, then retry the post.` });
        return;
      case 'rate_limited': {
        const wait = ae.opts.retryAfterMs ?? backoffMs(attempts);
        if (attempts >= MAX_ATTEMPTS + 3) {
          await finish(target, attemptId, { status: 'failed', attemptOutcome: 'failed', category: 'platform_rate_limit', error: `Rate limited by the platform: ${ae.message}` });
          return;
        }
        await finish(target, attemptId, { status: 'pending', attemptOutcome: 'retry', category: 'platform_rate_limit', error: ae.message, runAt: new Date(clock().getTime() + wait) });
        return;
      }
      case 'auth_expired':
      case 'transient': {
        // A transient failure during commit leaves the outcome unknown: the next run verifies first.
        const outcome = phase === 'commit' && ae.kind === 'transient' ? 'unknown' : 'retry';
        if (attempts >= MAX_ATTEMPTS) {
          await finish(target, attemptId, {
            status: 'failed', attemptOutcome: outcome === 'unknown' ? 'unknown' : 'failed', category: ae.kind === 'auth_expired' ? 'auth_expired' : 'platform_error',
            error: outcome === 'unknown'
              ? `Publishing failed after ${attempts} attempts and the last publish call got no answer (${ae.message}); it may have been published: check before retrying`
              : `Publishing failed after ${attempts} attempts: ${ae.message}`,
          });
          return;
        }
        await finish(target, attemptId, { status: 'pending', attemptOutcome: outcome, category: 'platform_error', error: ae.message, runAt: new Date(clock().getTime() + backoffMs(attempts)) });
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

    /** Extends the locks of this process's running targets. */
    async extendLocks(): Promise<void> {
      if (inFlight.size === 0) return;
      await targets.extendLocks(workerId, [...inFlight], LOCK_MS / 1000);
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
