/**
 * The feed poller of a worker process: every `intervalMs` (and when woken: a feed added, resumed
 * or asked to be checked in this process) it runs one pass of due feeds (FeedsService.runDue).
 * Several workers may run it: each feed is leased to one of them at a time.
 */
import type { FeedsService } from './service.ts';

/** A running poller. */
export interface FeedPoller {
  /** Stops after the pass under way (if any) ends. */
  stop(): Promise<void>;
}

/** Starts the poller loop of this process over `feeds` (one pass of due feeds, then a sleep of `intervalMs` or until woken). */
export function startFeedPoller(opts: {
  feeds: FeedsService;
  /** Longest sleep between passes, ms (default 15 s). */
  intervalMs?: number;
  log?: { info(o: object, m?: string): void; error(o: object, m?: string): void };
}): FeedPoller {
  let stopping = false;
  let wake: (() => void) | null = null;
  const off = opts.feeds.onWake(() => { const w = wake; wake = null; w?.(); });
  const loop = (async () => {
    while (!stopping) {
      try {
        const results = await opts.feeds.runDue();
        const created = results.reduce((n, r) => n + r.created, 0);
        const failed = results.filter((r) => r.outcome === 'failed');
        if (created || failed.length) opts.log?.info({ checked: results.length, created, failed: failed.map((r) => ({ feedId: r.feedId, error: r.error })) }, 'feed poll pass');
        if (results.length > 0) continue; // more may be due
      } catch (err) {
        opts.log?.error({ err }, 'feed poll pass failed');
      }
      if (stopping) break;
      await new Promise<void>((resolve) => { wake = resolve; setTimeout(resolve, opts.intervalMs ?? 15_000).unref(); });
    }
  })();
  return {
    async stop() {
      stopping = true;
      const w = wake; wake = null; w?.();
      off();
      await loop;
    },
  };
}
