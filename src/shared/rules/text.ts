/**
 * Text measured the way platforms count it: graphemes (Bluesky), Threads' emoji-as-bytes and
 * UTF-8 bytes. X's weighted length is in ./weighted-length.ts (it needs twitter-text, which
 * only the X rules and the composer's counters load). Pure.
 */

let segmenter: Intl.Segmenter | null = null;
const graphemes = (text: string) => (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(text);

// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/**
 * User-perceived characters (extended grapheme clusters, Unicode UAX #29), as Bluesky counts
 * them. ASCII text needs no segmenter: every ASCII character is a cluster of its own except
 * CR LF, which is one.
 */
export function countGraphemes(text: string): number {
  if (ASCII.test(text)) return text.length - (text.includes('\r\n') ? text.split('\r\n').length - 1 : 0);
  let n = 0;
  for (const _ of graphemes(text)) n++;
  return n;
}

const encoder = new TextEncoder();

export function utf8Length(text: string): number {
  return encoder.encode(text).length;
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
