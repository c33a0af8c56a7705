/**
 * A worker stopped (SIGSTOP) for 120 s, four stale times, while it holds claimed and buffered
 * targets, then resumed: 0 duplicates on a Facebook Page (test/support/stall-scenario.ts).
 */
import { describe, it } from 'vitest';
import { runStallScenario } from '../support/stall-scenario.ts';

describe('a stalled worker never publishes after losing its lease', () => {
  it('stall of 120 s: 300 posts, each exactly once on the Page', () => runStallScenario(120_000), 400_000);
});
