/**
 * The guard of a commit's visible calls (docs/decisions/0045-fencing-and-late-landings.md).
 *
 * A worker may call a platform only while it provably holds the target it publishes: a paused
 * worker (a frozen VM, CPU throttling, a starved event loop) whose claim ran out must not create
 * a post that the target's new holder creates too. The publisher runs each `adapter.commit`
 * inside {@link withCallGuard}; the platforms' HTTP helpers call {@link guardVisibleCall} right
 * before every request that may change something on the platform (any method but GET and HEAD).
 * The guard answers only when the worker's lease outlasts the request's whole timeout (renewing it
 * first if needed), and throws {@link LeaseLostError} otherwise, so the request is never sent.
 *
 * Outside a commit (prepare, verify, unpublish, analytics) there is no guard and the call goes on.
 * Adapters stay free of the database: the guard is a plain function the publisher provides.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** What the publisher gives a commit: a check that the lease covers the next `timeoutMs` of calling. */
export interface CallGuard {
  /**
   * Resolves when the worker still holds the target for at least `timeoutMs` (plus a margin) from
   * now, renewing the lease in the database when the remaining time is too short.
   * @throws LeaseLostError when the target is no longer held (another process may publish it).
   */
  beforeVisibleCall(timeoutMs: number): Promise<void>;
}

/** The worker lost its claim on the target: the visible call was not made. */
export class LeaseLostError extends Error {
  constructor(message = 'the worker no longer holds this target (its lease ran out); the visible call was not made') {
    super(message);
    this.name = 'LeaseLostError';
  }
}

const store = new AsyncLocalStorage<CallGuard>();

/** Runs `fn` (an adapter's commit) with `guard` in force for every visible call it makes. */
export function withCallGuard<T>(guard: CallGuard, fn: () => Promise<T>): Promise<T> {
  return store.run(guard, fn);
}

/**
 * Called by the platforms' HTTP helpers right before a request: a no-op for reads (GET, HEAD) and
 * outside a commit; otherwise waits for the guard.
 * @throws LeaseLostError (see {@link CallGuard.beforeVisibleCall}).
 */
export async function guardVisibleCall(method: string, timeoutMs: number): Promise<void> {
  if (method === 'GET' || method === 'HEAD') return;
  const guard = store.getStore();
  if (guard) await guard.beforeVisibleCall(timeoutMs);
}
