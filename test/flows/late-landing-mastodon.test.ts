/**
 * A request that lands late, on a Mastodon account (the scenario: test/support/late-landing-scenario.ts):
 * the instance takes the same text twice, so a second create would show; Herald finds the late
 * status by verifying after the settle time.
 */
import { describe, it } from 'vitest';
import { runLateLandingScenario } from '../support/late-landing-scenario.ts';
import { isStatusPost, startMastodonFlow } from '../support/mastodon-flow.ts';

describe('a request that lands late is published once (Mastodon)', () => {
  it('30 posts, a fifth of them landing 60 s late: each exactly once on the instance', () => runLateLandingScenario({ name: 'mastodon', start: startMastodonFlow, isCreate: isStatusPost }), 420_000);
});
