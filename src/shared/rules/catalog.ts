/**
 * Every platform's rule table (ids, summaries, official sources) for the docs page, without the
 * checks that need heavy packages (X's counts load twitter-text): the tables are the ones the
 * checks in src/shared/rules/<platform>.ts name in their violations.
 */
import type { PlatformId } from '../platforms.ts';
import { BLUESKY_RULES } from './bluesky.ts';
import { DISCORD_RULES } from './discord.ts';
import { FACEBOOK_RULES } from './facebook.ts';
import { INSTAGRAM_RULES } from './instagram.ts';
import { LINKEDIN_RULES } from './linkedin.ts';
import { MASTODON_RULES } from './mastodon.ts';
import { PINTEREST_RULES } from './pinterest.ts';
import { REDDIT_RULES } from './reddit.ts';
import { TELEGRAM_RULES } from './telegram.ts';
import { THREADS_RULES } from './threads.ts';
import { TIKTOK_RULES } from './tiktok.ts';
import { TWITTER_RULES } from './twitter-table.ts';
import type { RuleDoc } from './types.ts';
import { YOUTUBE_RULES } from './youtube.ts';
import { GOOGLEBUSINESS_RULES } from './googlebusiness.ts';

/** Each platform's documented rules, in the order the docs list them. */
export const RULE_TABLES: Readonly<Record<PlatformId, readonly RuleDoc[]>> = {
  facebook: FACEBOOK_RULES,
  instagram: INSTAGRAM_RULES,
  linkedin: LINKEDIN_RULES,
  twitter: TWITTER_RULES,
  threads: THREADS_RULES,
  tiktok: TIKTOK_RULES,
  youtube: YOUTUBE_RULES,
  pinterest: PINTEREST_RULES,
  reddit: REDDIT_RULES,
  bluesky: BLUESKY_RULES,
  googlebusiness: GOOGLEBUSINESS_RULES,
  discord: DISCORD_RULES,
  telegram: TELEGRAM_RULES,
  mastodon: MASTODON_RULES,
};

/** The documented rules of `platform` (the docs page's list). */
export function ruleDocs(platform: PlatformId): readonly RuleDoc[] {
  return RULE_TABLES[platform];
}
