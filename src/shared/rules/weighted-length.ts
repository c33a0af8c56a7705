/**
 * X's weighted length, and text length in any platform's unit (the composer's counters). Apart
 * from ./text.ts because it loads `twitter-text` (about 35 KB gzipped), which the docs page's
 * rule list does not need. Pure.
 */
import twitterText from 'twitter-text';
import type { PlatformLimits } from '../capabilities.ts';
import { countGraphemes, threadsTextLength } from './text.ts';

/**
 * X's weighted length, exactly as X counts it: twitter-text's default (v3) configuration, the
 * package X publishes for this (https://docs.x.com/fundamentals/counting-characters); URLs count
 * 23, emoji and CJK 2, after NFC normalisation. The X rules (src/shared/rules/twitter.ts) use it.
 */
export function weightedLength(text: string): number {
  return twitterText.parseTweet(text).weightedLength;
}

/** Text length in the platform's unit. */
export function textLength(caps: Pick<PlatformLimits, 'textUnit' | 'emojiCountsAsBytes'>, text: string): number {
  if (caps.textUnit === 'graphemes') return countGraphemes(text);
  if (caps.textUnit === 'weighted characters') return weightedLength(text);
  if (caps.textUnit === 'UTF-16 units') return text.length;
  if (caps.emojiCountsAsBytes) return threadsTextLength(text);
  return [...text].length;
}
