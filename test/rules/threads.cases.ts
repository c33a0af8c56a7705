/** Threads' rule cases (src/shared/rules/threads.ts); the platform's answers come from the Threads simulator (test/contract/threads.test.ts). */
import { image, pdf, times, video, type RuleCase } from './cases.ts';

const HERALD = 'Herald\'s own rule (docs/decisions/0026-one-rule-table.md)';
const png = () => image('png', 64, 64);
const links = (k: number) => times(k, (i) => `https://example${i}.com/page`).join(' ');
const MB8 = 8 * 1024 * 1024;

export const cases: RuleCase[] = [
  { rule: 'threads.text.max_length', inside: { text: 'a'.repeat(500) }, outside: { text: 'a'.repeat(501) }, platform: { refuses: /500 characters/ } },
  { rule: 'threads.text.max_length', name: 'emoji count as bytes', inside: { text: `${'a'.repeat(496)}👍` }, outside: { text: `${'a'.repeat(497)}👍` }, platform: { refuses: /500 characters/ } },
  { rule: 'threads.text.max_length', name: 'a thread reply', inside: { threadItems: [{ content: 'one' }, { content: 'b'.repeat(500) }] }, outside: { threadItems: [{ content: 'one' }, { content: 'b'.repeat(501) }] }, platform: { refuses: /500 characters/ } },
  { rule: 'threads.text.max_links', inside: { text: `five ${links(5)} ${'https://example0.com/page'}` }, outside: { text: `six ${links(6)}` }, platform: { refuses: /THREADS_API__LINK_LIMIT_EXCEEDED/ } },
  { rule: 'threads.text.max_links', name: 'a thread reply', inside: { threadItems: [{ content: 'one' }, { content: links(5) }] }, outside: { threadItems: [{ content: 'one' }, { content: links(6) }] }, platform: { refuses: /THREADS_API__LINK_LIMIT_EXCEEDED/ } },
  { rule: 'threads.text.required', inside: { text: 'a' }, outside: { text: '  ' }, platform: { refuses: /Param text is required for TEXT posts/ } },
  { rule: 'threads.text.required', name: 'an empty reply', inside: { threadItems: [{ content: 'one' }, { content: 'two' }] }, outside: { threadItems: [{ content: 'one' }, { content: '' }] }, platform: { refuses: /Param text is required for TEXT posts/ } },
  { rule: 'threads.thread.media_first_only', inside: { threadItems: [{ content: 'one' }, { content: 'two' }], mediaItems: [png()] }, outside: { threadItems: [{ content: 'one' }, { content: 'two', mediaItems: [png()] }] }, platform: { notSent: `${HERALD}: Herald's thread input gives media to the first post` } },
  { rule: 'threads.media.type', inside: { text: 'x', mediaItems: [png()] }, outside: { text: 'x', mediaItems: [pdf()] }, platform: { refuses: /images must be JPEG or PNG \(this file is unknown\)/ } },
  { rule: 'threads.media.format', inside: { text: 'x', mediaItems: [image('jpeg', 64, 64)] }, outside: { text: 'x', mediaItems: [image('webp', 64, 64)] }, platform: { refuses: /images must be JPEG or PNG \(this file is webp\)/ } },
  { rule: 'threads.media.image_max_bytes', inside: { text: 'x', mediaItems: [image('jpeg', 64, 64, { bytes: MB8 })] }, outside: { text: 'x', mediaItems: [image('jpeg', 64, 64, { bytes: MB8 + 1 })] }, platform: { refuses: /images can be at most 8 MB/ } },
  { rule: 'threads.media.video_max_bytes', inside: { text: 'x', mediaItems: [{ ...video(2, 320, 240), size: 1024 ** 3 }] }, outside: { text: 'x', mediaItems: [{ ...video(2, 320, 240), size: 1024 ** 3 + 1 }] }, platform: { notSent: 'a 1 GB file is too large to generate and serve in a test; the simulator applies the same bound (its videoMaxBytes option)' } },
  { rule: 'threads.media.video_max_duration', inside: { text: 'x', mediaItems: [video(300, 160, 120)] }, outside: { text: 'x', mediaItems: [video(301, 160, 120)] }, platform: { refuses: /videos can be at most 5 minutes/ } },
  { rule: 'threads.carousel.max_items', inside: { text: 'x', mediaItems: times(20, () => png()) }, outside: { text: 'x', mediaItems: times(21, () => png()) }, platform: { refuses: /A carousel needs 2 to 20 children/ } },
  { rule: 'threads.reply_to.id', inside: { text: 'x', platformSpecificData: {} }, outside: { text: 'x', platformSpecificData: { replyToId: 'abc' } }, platform: { notSent: `${HERALD}: the shape of Herald's input` } },
];
