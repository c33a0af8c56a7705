/**
 * The composer's per-platform rules: the server's own (src/shared/post-rules.ts, derived from
 * src/shared/capabilities.ts) so that they cannot drift, plus what only the web app shows, the
 * brand colours. test/web/composer-rules.test.ts keeps the verdicts equal to the adapters'.
 * Pure: used by the dashboard, the landing page and the tests.
 */
import { PLATFORMS, type PlatformId } from '../../../src/shared/platforms.ts';
import { PLATFORM_RULES as RULES, type PlatformRule as SharedRule } from '../../../src/shared/post-rules.ts';

export {
  checkPost, countGraphemes, ruleMaxText, ruleTextLength as textLength, utf8Length, weightedLength, type MediaLike, type RuleProblem, type TextUnit,
} from '../../../src/shared/post-rules.ts';

export const PLATFORM_IDS = PLATFORMS;
export type PlatformName = PlatformId;

export interface PlatformRule extends SharedRule {
  brand: string;
}

const BRANDS: Record<PlatformName, string> = {
  facebook: '#1877f2', instagram: '#c13584', linkedin: '#0a66c2', twitter: '#0f1419', threads: '#101010',
  tiktok: '#010101', youtube: '#ff0000', pinterest: '#bd081c', reddit: '#ff4500', bluesky: '#0085ff',
};

export const PLATFORM_RULES: Record<PlatformName, PlatformRule> = Object.fromEntries(PLATFORMS.map((id) => [id, { ...RULES[id], brand: BRANDS[id] }])) as Record<PlatformName, PlatformRule>;
