/**
 * What the composer checks before saving, per platform: the platform's rule table
 * (src/shared/rules/, the very checks the adapters' `validate` runs on the server, see
 * docs/decisions/0026-one-rule-table.md), so the composer cannot call a post fine that the API
 * refuses. Also the per-platform summary the composer's counters, the docs' platform table and
 * the landing page show, from {@link PLATFORM_CAPABILITIES}.
 * Pure (no I/O, no Node APIs): used by the dashboard, the docs page and the tests.
 */
import type { TextUnit } from './capabilities.ts';
import { PLATFORM_LABELS, type PlatformId } from './platforms.ts';
import { RULE_SETS } from './rules/index.ts';
import type { MediaRef, RulePost, ThreadItem } from './rules/types.ts';

export type { TextUnit };

export { countGraphemes, threadsTextLength, utf8Length } from './rules/text.ts';
export { textLength, weightedLength } from './rules/weighted-length.ts';
import { textLength } from './rules/weighted-length.ts';
export { PLATFORM_RULES, ruleMaxText, type PlatformRule } from './platform-summary.ts';
import type { PlatformRule } from './platform-summary.ts';

/** A media item as the composer knows it: its kind, and whatever of size, format, pixels and duration is known. */
export type MediaLike = Pick<MediaRef, 'type'> & Partial<Omit<MediaRef, 'type'>>;

export interface RuleProblem {
  platform: PlatformId;
  field: 'content' | 'media' | 'settings';
  message: string;
  /** The rule's id in the platform's table (src/shared/rules/), when it comes from there. */
  rule?: string;
}

/** What the composer knows besides text and media. */
export interface PostContext {
  platformSpecificData?: Record<string, unknown>;
  /** Thread items (X, Threads, Bluesky), when the post is a thread. */
  threadItems?: ThreadItem[];
  /** The account's settings (default subreddit, default board); absent: required settings are not checked. */
  accountSettings?: Record<string, unknown>;
  /** When the post is scheduled for (absent: publish now or a draft). */
  scheduledFor?: Date;
  /** The post's tags and visibility (YouTube reads them when its own options leave them out). */
  tags?: string[];
  visibility?: RulePost['visibility'];
}


/** Where a violation's field belongs in the composer: the text, the media, or the platform's settings. */
function composerField(field: string): RuleProblem['field'] {
  if (field.startsWith('mediaItems') || /^threadItems\.\d+\.mediaItems/.test(field)) return 'media';
  if (field.startsWith('platformSpecificData') || field.startsWith('settings')) return 'settings';
  return 'content';
}

/**
 * Every rule a post breaks on one platform, before anything is sent: the platform's rule table
 * (src/shared/rules/, the same checks the server runs), and that a post needs text or media.
 */
export function checkPost(platform: PlatformId, text: string, media: MediaLike[], ctx: PostContext = {}): RuleProblem[] {
  const post: RulePost = {
    text, mediaItems: media.map((m) => ({ url: '', ...m })), threadItems: ctx.threadItems ?? [],
    platformSpecificData: ctx.platformSpecificData ?? {}, ...(ctx.accountSettings ? { accountSettings: ctx.accountSettings } : {}),
    ...(ctx.scheduledFor ? { scheduledFor: ctx.scheduledFor } : {}),
    ...(ctx.tags ? { tags: ctx.tags } : {}), ...(ctx.visibility ? { visibility: ctx.visibility } : {}),
  };
  const out: RuleProblem[] = RULE_SETS[platform].check(post).map((v) => ({ platform, field: composerField(v.field), message: v.message, rule: v.rule }));
  if (!text.trim() && media.length === 0 && !ctx.threadItems?.length && !out.some((p) => p.field === 'content')) {
    out.push({ platform, field: 'content', message: `${PLATFORM_LABELS[platform]} needs text or media`, rule: 'content.required' });
  }
  return out;
}

/** Text length in the platform's unit, for a rule (the composer's counters). */
export function ruleTextLength(rule: Pick<PlatformRule, 'unit' | 'emojiCountsAsBytes'>, text: string): number {
  return textLength({ textUnit: rule.unit, emojiCountsAsBytes: rule.emojiCountsAsBytes }, text);
}
