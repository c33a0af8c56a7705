/** Bluesky's rule cases (src/shared/rules/bluesky.ts); the platform's answers come from the real local PDS (test/flows/bluesky.test.ts). */
import { image, pdf, times, video, type RuleCase } from './cases.ts';

const HERALD = 'Herald\'s own limit (docs/decisions/0026-one-rule-table.md): Bluesky accepts it';

export const cases: RuleCase[] = [
  { rule: 'bluesky.text.max_graphemes', inside: { text: 'a'.repeat(300) }, outside: { text: 'a'.repeat(301) }, platform: { refuses: /grapheme too big \(maximum 300, got 301\)/ } },
  { rule: 'bluesky.text.max_graphemes', name: 'an emoji counts one', inside: { text: '👍'.repeat(300) }, outside: { text: '👍'.repeat(301) }, platform: { refuses: /grapheme too big \(maximum 300, got 301\)/ } },
  // 166 family emoji (18 bytes, one grapheme each) and 12 letters: 3,000 bytes in 178 graphemes; one letter more is over.
  { rule: 'bluesky.text.max_bytes', inside: { text: `${'👩‍👩‍👧'.repeat(166)}abcdefghijkl` }, outside: { text: `${'👩‍👩‍👧'.repeat(166)}abcdefghijklm` }, platform: { refuses: /string too big \(maximum 3000, got 3001\)/ } },
  { rule: 'bluesky.text.empty', inside: { text: 'a' }, outside: { text: '  ' }, platform: { notSent: `${HERALD} (an empty post is valid by the lexicon)` } },
  { rule: 'bluesky.text.empty', name: 'a thread reply', inside: { threadItems: [{ content: 'one' }, { content: 'two' }] }, outside: { threadItems: [{ content: 'one' }, { content: '' }] }, platform: { notSent: HERALD } },
  { rule: 'bluesky.images.max_count', inside: { text: 'pics', mediaItems: times(4, () => image('png', 64, 64)) }, outside: { text: 'pics', mediaItems: times(5, () => image('png', 64, 64)) }, platform: { refuses: /array too long|maximum 4/ } },
  { rule: 'bluesky.image.max_bytes', inside: { text: 'big', mediaItems: [image('png', 64, 64, { bytes: 2_000_000 })] }, outside: { text: 'big', mediaItems: [image('png', 64, 64, { bytes: 2_000_001 })] }, platform: { refuses: /blob too big \(maximum 2000000/ } },
  { rule: 'bluesky.media.type', inside: { text: 'doc', mediaItems: [image('jpeg', 64, 64)] }, outside: { text: 'doc', mediaItems: [pdf()] }, platform: { refuses: /Expected "image\/\*" \(got "application\/pdf"\)/ } },
  { rule: 'bluesky.media.video_unsupported', inside: { text: 'clip', mediaItems: [image('gif', 64, 64, { frames: 3 })] }, outside: { text: 'clip', mediaItems: [video(2, 320, 240)] }, platform: { notSent: `${HERALD} (video goes through video.bsky.app, which Herald does not use yet)` } },
  { rule: 'bluesky.thread.media_on_reply', inside: { threadItems: [{ content: 'one', mediaItems: [image('png', 64, 64)] }, { content: 'two' }] }, outside: { threadItems: [{ content: 'one' }, { content: 'two', mediaItems: [image('png', 64, 64)] }] }, platform: { notSent: HERALD } },
  { rule: 'bluesky.langs.max_count', inside: { text: 'hi', platformSpecificData: { langs: ['en', 'de', 'fr'] } }, outside: { text: 'hi', platformSpecificData: { langs: ['en', 'de', 'fr', 'es'] } }, platform: { refuses: /langs.*(too long|maximum 3)|(too long|maximum 3).*langs/ } },
];
