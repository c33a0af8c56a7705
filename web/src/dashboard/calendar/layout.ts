/**
 * Where the week view draws its cards: posts whose cards overlap in time are laid side by side
 * (the column packing of calendar apps) instead of one hiding the other. Pure, so it is tested
 * on its own (test/web/calendar-layout.test.ts).
 */

/** An item of one day: its id and where its card starts and ends, in minutes from midnight. */
export interface TimedItem { id: string; start: number; end: number }

/** Where an item's card goes: column `col` of `cols` equal columns of its day. */
export interface Placement { col: number; cols: number }

/**
 * Packs a day's items into columns. Items are taken by start time (then end, then id, so the
 * layout is stable); each goes into the leftmost column whose last card has ended by its start,
 * else into a new column. Items that overlap, directly or through others (a cluster), share the
 * cluster's column count, so their cards have one width; an item alone keeps the full width.
 */
export function packColumns(items: readonly TimedItem[]): Map<string, Placement> {
  const sorted = [...items].sort((a, b) => a.start - b.start || a.end - b.end || a.id.localeCompare(b.id));
  const out = new Map<string, Placement>();
  let cluster: Array<{ id: string; col: number }> = [];
  let columnsEnd: number[] = [];
  let clusterEnd = -Infinity;
  const close = () => {
    for (const c of cluster) out.set(c.id, { col: c.col, cols: columnsEnd.length });
    cluster = [];
    columnsEnd = [];
  };
  for (const it of sorted) {
    // A card that starts after every card of the cluster has ended starts a new cluster.
    if (it.start >= clusterEnd) { close(); clusterEnd = -Infinity; }
    let col = columnsEnd.findIndex((end) => end <= it.start);
    if (col === -1) { col = columnsEnd.length; columnsEnd.push(it.end); } else columnsEnd[col] = it.end;
    cluster.push({ id: it.id, col });
    clusterEnd = Math.max(clusterEnd, it.end);
  }
  close();
  return out;
}
