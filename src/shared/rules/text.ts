/**
 * Text measured the way each platform counts it: graphemes (Bluesky), X's weighted length,
 * Threads' emoji-as-bytes, UTF-16 code units (TikTok), code points, and UTF-8 bytes. Pure.
 */
import twitterText from 'twitter-text';
import type { PlatformLimits } from '../capabilities.ts';

let segmenter: Intl.Segmenter | null = null;
const graphemes = (text: string) => (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(text);

/** User-perceived characters (extended grapheme clusters), as Bluesky counts them. */
export function countGraphemes(text: string): number {
  let n = 0;
  for (const _ of graphemes(text)) n++;
  return n;
}

export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * X's weighted length, exactly as X counts it: twitter-text's default (v3) configuration, the
 * package X publishes for this (https://docs.x.com/fundamentals/counting-characters); URLs count
 * 23, emoji and CJK 2, after NFC normalisation. The X rules (src/shared/rules/twitter.ts) use it.
 */
export function weightedLength(text: string): number {
  return twitterText.parseTweet(text).weightedLength;
}

const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

/**
 * Length as Threads counts it: one per character, except emoji, which count as their UTF-8
 * byte length (e.g. 👍 counts 4); https://developers.facebook.com/documentation/threads/posts.
 */
export function threadsTextLength(text: string): number {
  let n = 0;
  for (const { segment } of graphemes(text)) n += EMOJI.test(segment) ? utf8Length(segment) : [...segment].length;
  return n;
}

/** Text length in the platform's unit. */
export function textLength(caps: Pick<PlatformLimits, 'textUnit' | 'emojiCountsAsBytes'>, text: string): number {
  if (caps.textUnit === 'graphemes') return countGraphemes(text);
  if (caps.textUnit === 'weighted characters') return weightedLength(text);
  if (caps.textUnit === 'UTF-16 units') return text.length;
  if (caps.emojiCountsAsBytes) return threadsTextLength(text);
  return [...text].length;
}
