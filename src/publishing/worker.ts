/**
 * The worker role: claims due targets and publishes them with bounded concurrency,
 * keeps its heartbeat (which also extends its targets' locks), and runs the
 * reconciler. Wake-ups come from in-process notices, PostgreSQL NOTIFY `herald_due`,
 * the next due time, and a poll interval as the floor.
 */
import { hostname } from 'node:os';
import type { Db, SessionConnection } from '../storage/db.ts';
import type { Publisher } from './publisher.ts';
import { reconcile, releaseDeadLocalProcesses, type RepairSweep } from './reconciler.ts';
import { refreshExpiringTokens } from './token-refresh.ts';
import type { AdapterRegistry } from '../platforms/registry.ts';
import type { AccountsRepository } from '../modules/accounts/repository.ts';

export interface WorkerOptions {
  db: Db;
  publisher: Publisher;
  /** Targets published at once. */
  concurrency: number;
  /** Longest sleep between polls, ms. */
  pollMs?: number;
  heartbeatMs?: number;
  /** A process whose heartbeat is older than this has lost its targets to the reconciler. */
  staleMs?: number;
  reconcileMs?: number;
  log?: { info(o: object, m?: string): void; error(o: object, m?: string): void };
  /**
   * The installation this process belongs to on its host (its data directory): earlier
   * processes of it whose pid is gone are recognised as dead at start and on every
   * reconcile pass, and their unfinished publishes handed to verify at once.
   */
  instance?: string | null;
  /** With these, the worker also refreshes OAuth tokens before they expire (every `tokenRefreshMs`). */
  tokenRefresh?: { adapters: AdapterRegistry; accounts: AccountsRepository; intervalMs?: number };
  /**
   * With this, the worker also runs the analytics refresh pass (every `intervalMs`, 5 minutes by
   * default): src/modules/analytics/service.ts refreshDue, which schedules itself per post.
   */
  metricsRefresh?: { run(): Promise<{ refreshed: number; rateLimited: number; failed: number; needsReconnect: unknown[] }>; intervalMs?: number };
  /**
   * With this, the worker also runs the recycling pass (every `intervalMs`, 30 seconds by default):
   * src/modules/posts/recycle-job.ts, which creates the recycled copies that are due (decision 0061).
   */
  recycle?: { run(): Promise<{ created: number; finished: number }>; intervalMs?: number };
  /** With this, the worker also prunes what is past its retention (publishing logs, duplicate claims), every `intervalMs` (1 hour by default). */
  prune?: { run(): Promise<Record<string, number>>; intervalMs?: number };
}

export interface Worker {
  readonly id: string;
  /** Stops claiming; waits up to `graceMs` for running targets; then deregisters. */
  stop(graceMs?: number): Promise<void>;
}

export interface Heartbeat {
  readonly id: string;
  stop(): Promise<void>;
}

/**
 * Registers this process in `workers` under `publisher.workerId` and keeps its
 * heartbeat fresh (every `intervalMs`), extending the locks of its running targets.
 * With `instance`, first releases the targets of this installation's dead processes
 * on this host (a restart after kill -9 verifies its own unfinished commits at once).
 */
export async function startHeartbeat(db: Db, publisher: Publisher, intervalMs = 5_000, opts: { instance?: string | null; log?: WorkerOptions['log'] } = {}): Promise<Heartbeat> {
  const id = publisher.workerId;
  const host = hostname();
  const targets = publisher.targets;
  await targets.registerProcess({ id, hostname: host, pid: process.pid, instance: opts.instance ?? null });
  const released = await releaseDeadLocalProcesses(db, { id, hostname: host, instance: opts.instance ?? null });
  if (released > 0) opts.log?.info({ released }, 'released the unfinished publishes of a dead process of this installation');
  const beat = async () => {
    await targets.heartbeat(id);
    await publisher.extendLocks();
  };
  const timer = setInterval(() => { beat().catch(() => {}); }, intervalMs);
  timer.unref();
  return {
    id,
    async stop() {
      clearInterval(timer);
      if (publisher.inFlight.size === 0) await targets.deregisterProcess(id).catch(() => {});
    },
  };
}

export async function startWorker(opts: WorkerOptions): Promise<Worker> {
  const { db, publisher } = opts;
  const pollMs = opts.pollMs ?? 1_000;
  const staleMs = opts.staleMs ?? 30_000;
  const heartbeat = await startHeartbeat(db, publisher, opts.heartbeatMs ?? Math.min(5_000, Math.max(250, staleMs / 3)), { instance: opts.instance, log: opts.log });
  const self = { id: heartbeat.id, hostname: hostname(), instance: opts.instance ?? null };
  // The slots in use (one token per running target until the platform answered).
  const running = new Set<object>();
  let stopping = false;
  let wake: (() => void) | null = null;
  const poke = () => { const w = wake; wake = null; w?.(); };

  // PostgreSQL NOTIFY from other processes (API processes that create due posts). A listening
  // connection that breaks (the database restarted) is opened again, with backoff, until it
  // works; meanwhile the poll interval is the floor. Behind a pooler in transaction mode without
  // a direct URL there is no session to LISTEN on (db.session() is null): the poll interval is then
  // how late another process's post due now may start (docs/decisions/0068-connection-pooler.md).
  let listener: SessionConnection | null = null;
  let relisten: NodeJS.Timeout | null = null;
  const listen = async (attempt = 0): Promise<void> => {
    relisten = null;
    if (stopping) return;
    let conn: SessionConnection | null = null;
    try {
      const opening = db.session();
      if (!opening) return;
      conn = await opening;
      const c = conn;
      c.client.on('notification', poke);
      c.client.on('error', () => {
        if (listener !== c) return;
        listener = null;
        c.release(true);
        if (!stopping) relisten = setTimeout(() => { void listen(); }, 250);
      });
      await c.client.query('LISTEN herald_due');
      listener = c;
      poke(); // notices may have been missed while it was down
    } catch {
      conn?.release(true);
      if (!stopping) relisten = setTimeout(() => { void listen(attempt + 1); }, Math.min(5_000, 250 * 2 ** attempt));
    }
  };
  await listen();
  if (!listener && !relisten) opts.log?.info({ pollMs }, 'no LISTEN behind a pooler in transaction mode without HERALD_DATABASE_DIRECT_URL: polling for posts other processes make due');
  const offDue = publisher.onDue(poke);

  const sweep: RepairSweep = { from: null };
  const reconcileTimer = setInterval(() => {
    releaseDeadLocalProcesses(db, self).then((n) => {
      if (n > 0) { opts.log?.info({ released: n }, 'released the unfinished publishes of a dead process of this installation'); poke(); }
    }).catch((err) => opts.log?.error({ err }, 'dead process check failed'));
    reconcile(db, { staleMs, sweep }).then((r) => {
      if (r.released > 0) { opts.log?.info({ released: r.released }, 'reconciler released targets of a stopped process'); poke(); }
    }).catch((err) => opts.log?.error({ err }, 'reconciler failed'));
  }, opts.reconcileMs ?? Math.max(500, Math.min(5_000, staleMs / 2)));
  reconcileTimer.unref();

  const refreshTimer = opts.tokenRefresh ? setInterval(() => {
    refreshExpiringTokens({ db, adapters: opts.tokenRefresh!.adapters, accounts: opts.tokenRefresh!.accounts }).then((r) => {
      if (r.refreshed || r.deactivated || r.failed) opts.log?.info(r, 'token refresh pass');
    }).catch((err) => opts.log?.error({ err }, 'token refresh failed'));
  }, opts.tokenRefresh.intervalMs ?? 60_000) : null;
  refreshTimer?.unref();

  const metricsTimer = opts.metricsRefresh ? setInterval(() => {
    opts.metricsRefresh!.run().then((r) => {
      if (r.refreshed || r.rateLimited || r.failed || r.needsReconnect.length) opts.log?.info(r, 'analytics refresh pass');
    }).catch((err) => opts.log?.error({ err }, 'analytics refresh failed'));
  }, opts.metricsRefresh.intervalMs ?? 5 * 60_000) : null;
  metricsTimer?.unref();

  let recycling = false;
  const recycleTimer = opts.recycle ? setInterval(() => {
    if (recycling) return; // one pass at a time in this process (other processes are kept apart by the claim)
    recycling = true;
    opts.recycle!.run().then((r) => {
      if (r.created || r.finished) { opts.log?.info(r, 'recycling pass'); poke(); }
    }).catch((err) => opts.log?.error({ err }, 'recycling pass failed')).finally(() => { recycling = false; });
  }, opts.recycle.intervalMs ?? 30_000) : null;
  recycleTimer?.unref();

  const pruneTimer = opts.prune ? setInterval(() => {
    opts.prune!.run().then((r) => {
      if (Object.values(r).some((n) => n > 0)) opts.log?.info(r, 'pruned expired rows');
    }).catch((err) => opts.log?.error({ err }, 'prune failed'));
  }, opts.prune.intervalMs ?? 3_600_000) : null;
  pruneTimer?.unref();

  // A claimed target's run starts at once; it takes one of the `concurrency` slots before its first
  // platform request and gives it back once the platform answered (the finish is written after,
  // grouped with others: decision 0035). A run whose adapter prepares offline writes its attempt
  // row while it waits for a slot, so its call goes out the moment one frees (decision 0076). While
  // every slot is busy, the loop claims a batch ahead: as many targets as there are slots, because
  // calls started together end together and free every slot at once (decision 0077). A slot that
  // frees hands itself to a waiting run at once, from the releasing run's callback, instead of
  // waiting for the loop (which may be inside a claim statement).
  // Runs wait for a slot for milliseconds (their leases last the stale time and the heartbeat extends
  // them; a run that waited past half its lease with no attempt row written, the process paused, gives
  // its target back instead: decision 0045), and stop() lets them run (decision 0035).
  const batch = opts.concurrency;
  /** Runs waiting for a slot, oldest first: each entry hands it the slot. */
  const waiting: Array<() => void> = [];
  /** Runs started that hold no slot yet (waiting for one, or still getting ready for one). */
  let unslotted = 0;
  /** Every run until its finish is written down. */
  const finishing = new Set<Promise<void>>();
  const start = (t: Awaited<ReturnType<Publisher['claimDue']>>[number]) => {
    const token = {};
    let state: 'unslotted' | 'held' | 'done' = 'unslotted';
    unslotted++;
    const slot = {
      acquire: () => new Promise<void>((resolve) => {
        const take = () => { state = 'held'; unslotted--; running.add(token); resolve(); };
        if (running.size < opts.concurrency && waiting.length === 0) take();
        else waiting.push(take);
      }),
      release: () => {
        if (state !== 'held') return;
        state = 'done';
        running.delete(token);
        waiting.shift()?.();
        poke();
      },
    };
    const p: Promise<void> = publisher.runTarget(t, slot).finally(() => {
      if (state === 'unslotted') { state = 'done'; unslotted--; } else slot.release();
      finishing.delete(p);
      poke();
    });
    finishing.add(p);
  };
  const loop = (async () => {
    while (!stopping) {
      try {
        const free = opts.concurrency - running.size;
        // Runs that will wait for a slot once the free ones are taken.
        const beyond = Math.max(0, unslotted - free);
        // Claim for the free slots, plus a batch ahead while this worker has runs (every slot is, or is
        // about to be, busy); claim again once fewer than half a batch wait beyond the free slots.
        const want = free + (running.size + unslotted > 0 ? batch : 0) - unslotted;
        if (want > 0 && (free > unslotted || beyond < Math.ceil(batch / 2))) {
          const claimed = await publisher.claimDue(want);
          for (const t of claimed) start(t);
          if (claimed.length === want) continue;
        }
        let sleepMs = pollMs;
        // Fewer due than asked, or nothing to ask for: sleep until the next due time while a slot is
        // free, else until a slot frees (a release pokes).
        if (running.size + unslotted < opts.concurrency) {
          const ms = await publisher.targets.msUntilNextDue();
          if (ms !== null) sleepMs = Math.max(0, Math.min(pollMs, Math.ceil(ms) + 1));
        }
        if (sleepMs > 0) await new Promise<void>((resolve) => { wake = resolve; setTimeout(resolve, sleepMs); });
      } catch (err) {
        opts.log?.error({ err }, 'worker loop error');
        await new Promise((r) => setTimeout(r, pollMs));
        // A claim whose answer was lost (the database went away after committing it) holds targets
        // this process does not know of: give them back as soon as the database answers again.
        await publisher.giveBackUnknownClaims().then((n) => {
          if (n > 0) opts.log?.info({ givenBack: n }, 'gave back claims whose answer was lost');
        }).catch(() => {});
      }
    }
  })();

  return {
    id: heartbeat.id,
    async stop(graceMs = 25_000) {
      stopping = true;
      poke();
      await loop;
      clearInterval(reconcileTimer);
      if (refreshTimer) clearInterval(refreshTimer);
      if (metricsTimer) clearInterval(metricsTimer);
      if (pruneTimer) clearInterval(pruneTimer);
      if (recycleTimer) clearInterval(recycleTimer);
      offDue();
      await Promise.race([Promise.all(finishing), new Promise((r) => setTimeout(r, graceMs).unref())]);
      if (relisten) clearTimeout(relisten);
      if (listener) {
        const l = listener;
        listener = null;
        await l.client.query('UNLISTEN herald_due').catch(() => {});
        l.release();
      }
      // Targets still running after the grace period keep their locks; the reconciler
      // releases them once this process's heartbeat is stale.
      await heartbeat.stop();
    },
  };
}
