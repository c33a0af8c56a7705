/**
 * Id formats shared by the simulators: ascending numeric string ids with random gaps (Graph
 * media ids, Pinterest and TikTok ids), starting at a platform-like base offset by the clock
 * so that ids from different runs rarely meet.
 */

/** A generator of ascending numeric string ids from `base` (+ the clock when `clock`), with gaps of 1 to `gap`. */
export function numericIds(base: bigint, gap: number, clock = true): () => string {
  let seq = base + (clock ? BigInt(Date.now() % 1_000_000) * 1000n : 0n);
  return () => (seq += 1n + BigInt(Math.floor(Math.random() * gap))).toString();
}
