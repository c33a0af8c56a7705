/**
 * The one platform rule table (docs/decisions/0026-one-rule-table.md): for each platform, the
 * rules it enforces with their official sources, and the check that applies them. The adapters'
 * `validate` (the API's 400s and the publisher's last check), the web composer's live feedback
 * and the docs page's rule list all read it, so they cannot disagree.
 */
import type { PlatformId } from '../platforms.ts';
import { blueskyRules } from './bluesky.ts';
import { discordRules } from './discord.ts';
import { facebookRules } from './facebook.ts';
import { instagramRules } from './instagram.ts';
import { linkedinRules } from './linkedin.ts';
import { mastodonRules } from './mastodon.ts';
import { pinterestRules } from './pinterest.ts';
import { redditRules } from './reddit.ts';
import { telegramRules } from './telegram.ts';
import { threadsRules } from './threads.ts';
import { tiktokRules } from './tiktok.ts';
import { twitterRules } from './twitter.ts';
import { youtubeRules } from './youtube.ts';
import { googlebusinessRules } from './googlebusiness.ts';
import type { PlatformRuleSet, RulePost, RuleViolation } from './types.ts';

export type { MediaRef, PlatformRuleSet, RuleDoc, RulePost, RuleViolation, ThreadItem } from './types.ts';

/** Each platform's rule set. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each set has its own limits type
export const RULE_SETS: Readonly<Record<PlatformId, PlatformRuleSet<any>>> = {
  facebook: facebookRules,
  instagram: instagramRules,
  linkedin: linkedinRules,
  twitter: twitterRules,
  threads: threadsRules,
  tiktok: tiktokRules,
  youtube: youtubeRules,
  pinterest: pinterestRules,
  reddit: redditRules,
  bluesky: blueskyRules,
  googlebusiness: googlebusinessRules,
  discord: discordRules,
  telegram: telegramRules,
  mastodon: mastodonRules,
};

/** Every rule of `platform` that `post` breaks, with the platform's documented limits. */
export function checkRules(platform: PlatformId, post: RulePost): RuleViolation[] {
  return RULE_SETS[platform].check(post);
}

export { ruleDocs } from './catalog.ts';
