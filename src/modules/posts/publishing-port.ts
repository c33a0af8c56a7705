/**
 * What the posts module needs from publishing, as a port: posts never import the
 * publishing pipeline (src/publishing/ depends on posts, not the reverse). The publisher
 * implements it; `src/services.ts` wires the two.
 */
export interface PublishingPort {
  /**
   * Publishes these targets in this process (publishNow). Resolves true when all reached a
   * final state within `budgetMs` (milliseconds); false when some still run (a worker
   * finishes them).
   */
  publishNow(targetIds: string[], budgetMs: number): Promise<boolean>;
  /** Tells the workers that something is due at `at` (wakes them at once when it is near). */
  notifyDue(at: Date): void;
}
