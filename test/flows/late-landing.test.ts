/**
 * A request that lands late, on a Facebook Page (the scenario: test/support/late-landing-scenario.ts):
 * the Page, unlike X, does not refuse duplicate content, so a second create would show.
 */
import { describe, it } from 'vitest';
import { runLateLandingScenario } from '../support/late-landing-scenario.ts';
import { isFeedPost, startFacebookFlow } from '../support/facebook-flow.ts';

describe('a request that lands late is published once', () => {
  it('30 posts, a fifth of them landing 60 s late: each exactly once on the Page', () => runLateLandingScenario({ name: 'facebook', start: startFacebookFlow, isCreate: isFeedPost }), 420_000);
});
