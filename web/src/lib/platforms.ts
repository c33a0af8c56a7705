/**
 * The platforms as every page shows them: ids, the rules in summary (src/shared/platform-summary.ts,
 * derived from src/shared/capabilities.ts) and what only the web app shows, the brand colours.
 * The composer's checks are in ./platform-rules.ts (they load the full rule table). Pure.
 */
import { PLATFORMS, type PlatformId } from '../../../src/shared/platforms.ts';
import { PLATFORM_RULES as RULES, type PlatformRule as SharedRule } from '../../../src/shared/platform-summary.ts';

export const PLATFORM_IDS = PLATFORMS;
export type PlatformName = PlatformId;

export interface PlatformRule extends SharedRule {
  brand: string;
}

const BRANDS: Record<PlatformName, string> = {
  facebook: '#1877f2', instagram: '#c13584', linkedin: '#0a66c2', twitter: '#0f1419', threads: '#101010',
  tiktok: '#010101', youtube: '#ff0000', pinterest: '#bd081c', reddit: '#ff4500', bluesky: '#0085ff',
  googlebusiness: '#4285f4', discord: '#5865f2', telegram: '#26a5e4', mastodon: '#6364ff',
};

export const PLATFORM_RULES: Record<PlatformName, PlatformRule> = Object.fromEntries(PLATFORMS.map((id) => [id, { ...RULES[id], brand: BRANDS[id] }])) as Record<PlatformName, PlatformRule>;

/** How many platforms Herald publishes to, in words ("twelve"), for the marketing pages. */
export const PLATFORM_COUNT_WORD: string = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen',
  'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'][PLATFORM_IDS.length] ?? String(PLATFORM_IDS.length);
