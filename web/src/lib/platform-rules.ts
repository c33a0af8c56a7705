/**
 * The composer's per-platform rules: the server's own checks (src/shared/post-rules.ts runs the
 * one rule table, src/shared/rules/), so that the composer can never call a post fine that the
 * API refuses, plus the platforms as every page shows them (./platforms.ts).
 * test/rules/rules.test.ts walks every rule through both. Pure: used by the composer and the tests.
 */
export {
  checkPost, countGraphemes, ruleMaxText, ruleTextLength as textLength, utf8Length, weightedLength, type MediaLike, type RuleProblem, type TextUnit,
} from '../../../src/shared/post-rules.ts';
export { PLATFORM_IDS, PLATFORM_RULES, type PlatformName, type PlatformRule } from './platforms.ts';
