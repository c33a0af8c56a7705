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
 * A pause can also fall after that check, while the request waits for its connection: the process
 * resumes and the connection's first write would send it long after the lease ended. So a guarded
 * request gets a connection of its own (an undici `Agent` whose socket checks, synchronously and
 * without I/O, by this process's clocks, that the lease still holds before every write); a write
 * past the lease destroys the socket instead, and the request fails without leaving the process.
 *
 * Outside a commit (prepare, verify, unpublish, analytics) there is no guard and the call goes on.
 * Adapters stay free of the database: the guard is a plain function the publisher provides.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Agent, buildConnector } from 'undici';

/** What the publisher gives a commit: a check that the lease covers the next `timeoutMs` of calling. */
export interface CallGuard {
  /**
   * Resolves when the worker still holds the target for at least `timeoutMs` (plus a margin) from
   * now, renewing the lease in the database when the remaining time is too short.
   * @throws LeaseLostError when the target is no longer held (another process may publish it).
   */
  beforeVisibleCall(timeoutMs: number): Promise<void>;
  /**
   * Synchronous and without I/O: whether the lease surely holds for `ms` more by this process's
   * clocks. False marks the lease lost for the run.
   */
  holdsFor(ms: number): boolean;
}

/**
 * Before every write on the socket, the lease must still hold this long: the time a platform may
 * take to act on the request once its last byte is out (a later landing is the settle time's case,
 * docs/decisions/0045-fencing-and-late-landings.md).
 */
export const WRITE_MARGIN_MS = 3_000;

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
 * Called by the platforms' HTTP helpers right before a request: for reads (GET, HEAD) and outside
 * a commit, answers `{}`; otherwise waits for the guard and answers the fetch options that give the
 * request its fenced connection (spread them into the `fetch` init).
 * @throws LeaseLostError (see {@link CallGuard.beforeVisibleCall}).
 */
export async function guardVisibleCall(method: string, timeoutMs: number): Promise<RequestInit> {
  if (method === 'GET' || method === 'HEAD') return {};
  const guard = store.getStore();
  if (!guard) return {};
  await guard.beforeVisibleCall(timeoutMs);
  return { dispatcher: fencedAgent(() => guard.holdsFor(WRITE_MARGIN_MS)) } as RequestInit;
}

/** One request's connection, whose every write first asks `holds()`; it closes when idle. */
function fencedAgent(holds: () => boolean): Agent {
  const connect = buildConnector({});
  return new Agent({
    connections: 1, keepAliveTimeout: 1, keepAliveMaxTimeout: 1,
    connect: (opts, callback) => connect(opts, (err, socket) => {
      if (err || !socket) return callback(err ?? new Error('no socket'), null);
      const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
      (socket as unknown as { write: (...args: unknown[]) => boolean }).write = (...args: unknown[]) => {
        if (!holds()) {
          socket.destroy(new LeaseLostError('the lease ran out before the request could be written (the process was paused); nothing was sent'));
          return false;
        }
        return write(...args);
      };
      callback(null, socket);
    }),
  });
}
