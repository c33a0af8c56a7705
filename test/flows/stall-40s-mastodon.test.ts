/**
 * The stalled-worker scenario (test/support/stall-scenario.ts) on a Mastodon account: a worker
 * stopped (SIGSTOP) for 40 s while it holds targets in flight and claimed ones waiting for a slot, then resumed; the
 * Mastodon simulator in its own process counts the statuses: 0 duplicates.
 */
import { describe, it } from 'vitest';
import { runStallScenario } from '../support/stall-scenario.ts';
import { isStatusPost, startMastodonFlow } from '../support/mastodon-flow.ts';

describe('a stalled worker never publishes after losing its lease (Mastodon)', () => {
  it('stall of 40 s: 300 posts, each exactly once on the instance', () => runStallScenario(40_000, { start: startMastodonFlow, slow: isStatusPost, preparesOffline: false }), 300_000);
});
