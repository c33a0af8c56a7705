/** Ordering shared by the simulators' list endpoints. */

/** `items` newest first by `time`; items created at the same time keep the later-added first (a stable order for paging). */
export function newestFirst<T>(items: T[], time: (item: T) => number): T[] {
  return items.map((x, i) => ({ x, i })).sort((a, b) => time(b.x) - time(a.x) || b.i - a.i).map(({ x }) => x);
}
