/**
 * Leases of the passes that run one at a time across Herald's processes (the token refresh, the
 * analytics refresh): a `job_leases` row per pass, taken by one statement when free or expired,
 * renewed by the holder while it runs, deleted when it is done. Unlike a session advisory lock it
 * holds through a pooler in transaction mode, which gives each statement whichever server connection
 * is free (docs/decisions/0068-connection-pooler.md). A holder that dies (kill -9) leaves the lease
 * to expire after its time to live.
 *
 * A holder that stops renewing (a process paused longer than the time to live) may lose the lease to
 * another process: {@link JobLease.held} is false from the moment a renewal is overdue, and a pass
 * checks it before each piece of work it must not do twice at once (a token refresh).
 */
import { randomBytes } from 'node:crypto';
import type { Queryable } from './db.ts';

export interface JobLease {
  /**
   * True while the lease is surely this run's: its last renewal (or taking) was sent less than the
   * time to live ago by this process's monotonic clock, and no renewal found it taken.
   */
  held(): boolean;
  /** Stops renewing and deletes the lease (errors ignored: it then expires). */
  release(): Promise<void>;
}

/**
 * Takes the lease `name` when it is free (or expired) and renews it every third of `ttlMs` until
 * released; null at once when another run holds it.
 */
export async function takeJobLease(db: Queryable, name: string, ttlMs: number): Promise<JobLease | null> {
  const holder = randomBytes(12).toString('hex');
  const secs = ttlMs / 1000;
  let sentAt = performance.now();
  const { rowCount } = await db.query(
    `INSERT INTO job_leases (name, holder, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
      WHERE job_leases.expires_at <= now()`,
    [name, holder, secs]);
  if (!rowCount) return null;
  let lost = false;
  let renewing = false;
  const renew = async () => {
    if (renewing || lost) return;
    renewing = true;
    const sent = performance.now();
    try {
      const r = await db.query(
        'UPDATE job_leases SET expires_at = now() + make_interval(secs => $3) WHERE name = $1 AND holder = $2 AND expires_at > now()',
        [name, holder, secs]);
      if (r.rowCount) sentAt = sent;
      else lost = true;
    } catch {
      // The database did not answer: held() turns false once the time to live has passed since the last renewal.
    } finally {
      renewing = false;
    }
  };
  const timer = setInterval(() => { void renew(); }, Math.max(100, ttlMs / 3));
  timer.unref();
  return {
    // A margin of a tenth of the lease for the two clocks and the statement's way to the database.
    held: () => !lost && performance.now() - sentAt < ttlMs * 0.9,
    async release() {
      clearInterval(timer);
      lost = true;
      await db.query('DELETE FROM job_leases WHERE name = $1 AND holder = $2', [name, holder]).catch(() => {});
    },
  };
}

/** Runs `fn` under the lease `name` ({@link takeJobLease}), released afterwards; null without running `fn` when another run holds it. */
export async function withJobLease<T>(db: Queryable, name: string, ttlMs: number, fn: (lease: JobLease) => Promise<T>): Promise<T | null> {
  const lease = await takeJobLease(db, name, ttlMs);
  if (!lease) return null;
  try {
    return await fn(lease);
  } finally {
    await lease.release();
  }
}
