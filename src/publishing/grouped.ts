/**
 * Group commit for the worker's per-target statements: calls that arrive while the previous
 * group's statement runs are written together by the next one. Fifty running publishes then
 * cost a few statements (and WAL flushes) instead of fifty, and a lone call waits for nothing
 * (it runs at once). Each call still resolves only after its group's statement committed, so a
 * caller that must have its row durable before a platform call (the attempt row, decision 0002)
 * has it.
 *
 * A group's statement is one statement, atomic on its own: when it fails, nothing of it was
 * written, and each call of the group is run again alone, so one bad row (a target deleted
 * meanwhile) fails only its own call.
 */
export interface Grouped<I, O> {
  (item: I): Promise<O>;
  /** Calls waiting or running. */
  readonly pending: number;
}

/**
 * Wraps `write` (items in, one result per item in the same order) so that concurrent calls
 * share statements. `maxGroup` bounds a statement's size; `maxInFlight` is how many groups'
 * statements may run at once (1: a call waits for the running statement, then goes in the next).
 */
export function grouped<I, O>(write: (items: I[]) => Promise<O[]>, maxGroup = 100, maxInFlight = 1): Grouped<I, O> {
  const queue: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  let running = 0;
  let pending = 0;

  async function drain(): Promise<void> {
    if (running >= maxInFlight) return;
    running++;
    try {
      while (queue.length > 0) {
        const group = queue.splice(0, maxGroup);
        try {
          const out = await write(group.map((g) => g.item));
          group.forEach((g, i) => g.resolve(out[i]));
        } catch (err) {
          if (group.length === 1) { group[0].reject(err); continue; }
          for (const g of group) {
            try { g.resolve((await write([g.item]))[0]); } catch (e) { g.reject(e); }
          }
        }
      }
    } finally {
      running--;
    }
  }

  const call = ((item: I) => {
    pending++;
    return new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      void drain();
    }).finally(() => { pending--; });
  }) as Grouped<I, O>;
  Object.defineProperty(call, 'pending', { get: () => pending });
  return call;
}
