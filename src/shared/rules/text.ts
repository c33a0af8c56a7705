/**
 * Text measured the way each platform counts it: graphemes (Bluesky), X's weighted length,
 * Threads' emoji-as-bytes, UTF-16 code units (TikTok), code points, and UTF-8 bytes. Pure.
 */
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

const URL_RE = /https?:\/\/[^\s]+/g;
// Characters X counts as 1: Latin, general punctuation and a few other ranges (twitter-text's default config).
const WEIGHT_ONE = [[0x0000, 0x10ff], [0x2000, 0x200d], [0x2010, 0x201f], [0x2032, 0x2037]] as const;

/**
 * X's weighted length: URLs count 23, most Latin characters 1, CJK and emoji 2 (after NFC).
 * An approximation of twitter-text (which the server's X adapter uses) without its bundle.
 */
export function weightedLength(text: string): number {
  let n = 0;
  const withoutUrls = text.normalize('NFC').replace(URL_RE, () => { n += 23; return ''; });
  for (const { segment } of graphemes(withoutUrls)) {
    const cp = segment.codePointAt(0)!;
    const light = segment.length <= 2 && [...segment].length === 1 && WEIGHT_ONE.some(([a, b]) => cp >= a && cp <= b);
    n += light ? 1 : 2;
  }
  return n;
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
  if (caps.emojiCountsAsBytes) return threadsTextLength(text);
  return [...text].length;
}
