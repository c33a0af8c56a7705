/**
 * Telegram's rule cases (src/shared/rules/telegram.ts); the platform's answers come from the
 * Telegram simulator (test/contract/telegram.test.ts), which parses entities, checks lengths after
 * parsing, album sizes and kinds, and the uploaded files' sizes, dimensions and formats.
 */
import { CASE_MEDIA_ORIGIN, image, pdf, times, video, type RuleCase } from './cases.ts';
import type { MediaRef } from '../../src/shared/rules/types.ts';

const MB = 1024 * 1024;
const HERALD = 'Herald\'s own check (docs/decisions/0057-telegram.md)';
const pic = () => image('jpeg', 64, 64);
const clip = () => video(2, 320, 240);
/** A "video" whose file is a PDF: not MPEG4. */
const notAVideo: MediaRef = { ...pdf(), type: 'video', url: `${CASE_MEDIA_ORIGIN}/doc.pdf?as=video` };
const v2 = { parseMode: 'MarkdownV2' };

export const cases: RuleCase[] = [
  { rule: 'telegram.text.max_length', inside: { text: 'a'.repeat(4096) }, outside: { text: 'a'.repeat(4097) }, platform: { refuses: /message is too long/ } },
  { rule: 'telegram.text.max_length', name: 'counted after entities parsing', inside: { text: `<b>${'a'.repeat(4096)}</b>` }, outside: { text: `<b>${'a'.repeat(4097)}</b>` }, platform: { refuses: /message is too long/ } },
  { rule: 'telegram.text.required', inside: { text: '<b>hi</b>' }, outside: { text: '<b> </b>' }, platform: { refuses: /message text is empty/ } },
  { rule: 'telegram.caption.max_length', inside: { text: 'c'.repeat(1024), mediaItems: [pic()] }, outside: { text: 'c'.repeat(1025), mediaItems: [pic()] }, platform: { refuses: /caption is too long/ } },
  { rule: 'telegram.caption.max_length', name: 'an album\'s caption', inside: { text: 'c'.repeat(1024), mediaItems: [pic(), pic()] }, outside: { text: 'c'.repeat(1025), mediaItems: [pic(), pic()] }, platform: { refuses: /caption is too long/ } },
  { rule: 'telegram.entities.parse', inside: { text: 'a &lt; b' }, outside: { text: 'a < b' }, platform: { refuses: /can't parse entities/ } },
  { rule: 'telegram.entities.parse', name: 'an unclosed HTML tag', inside: { text: '<b>bold</b>' }, outside: { text: '<b>bold' }, platform: { refuses: /can't parse entities/ } },
  { rule: 'telegram.entities.parse', name: 'MarkdownV2 reserved character', inside: { text: 'Hello\\.', platformSpecificData: v2 }, outside: { text: 'Hello.', platformSpecificData: v2 }, platform: { refuses: /can't parse entities/ } },
  { rule: 'telegram.entities.parse', name: 'MarkdownV2 unclosed bold', inside: { text: '*bold*', platformSpecificData: v2 }, outside: { text: '*bold', platformSpecificData: v2 }, platform: { refuses: /can't parse entities/ } },
  { rule: 'telegram.parse_mode.value', inside: { text: 'hi', platformSpecificData: { parseMode: 'Markdown' } }, outside: { text: 'hi', platformSpecificData: { parseMode: 'markdown' } }, platform: { refuses: /unsupported parse_mode/ } },
  { rule: 'telegram.options.boolean', inside: { text: 'hi', platformSpecificData: { disableNotification: true } }, outside: { text: 'hi', platformSpecificData: { disableNotification: 'yes' } }, platform: { notSent: HERALD } },
  { rule: 'telegram.album.max_items', inside: { text: 'album', mediaItems: times(10, pic) }, outside: { text: 'album', mediaItems: times(11, pic) }, platform: { refuses: /2-10 items/ } },
  { rule: 'telegram.album.documents_alone', inside: { text: 'files', mediaItems: [pdf(), pdf()] }, outside: { text: 'files', mediaItems: [pdf(), pic()] }, platform: { refuses: /can't be mixed/ } },
  { rule: 'telegram.album.no_animation', inside: { text: 'gif', mediaItems: [image('gif', 64, 64, { frames: 3 })] }, outside: { text: 'gif', mediaItems: [image('gif', 64, 64, { frames: 3 }), pic()] }, platform: { refuses: /unsupported media type/ } },
  { rule: 'telegram.media.photo_max_bytes', inside: { text: 'big', mediaItems: [image('png', 64, 64, { bytes: 10 * MB })] }, outside: { text: 'big', mediaItems: [image('png', 64, 64, { bytes: 10 * MB + 1 })] }, platform: { refuses: /file is too big/ } },
  { rule: 'telegram.media.file_max_bytes', inside: { text: 'clip', mediaItems: [video(2, 320, 240, { bytes: 2 * MB })] }, outside: { text: 'clip', mediaItems: [{ ...clip(), size: 50 * MB + 1 }] }, platform: { notSent: 'a 50 MB file is too large to generate in a test (the simulator refuses it with 413)' } },
  { rule: 'telegram.photo.dimensions', inside: { text: 'tall', mediaItems: [image('jpeg', 64, 1280)] }, outside: { text: 'tall', mediaItems: [image('jpeg', 64, 1290)] }, platform: { refuses: /PHOTO_INVALID_DIMENSIONS/ } },
  { rule: 'telegram.video.format', inside: { text: 'clip', mediaItems: [clip()] }, outside: { text: 'clip', mediaItems: [notAVideo] }, platform: { refuses: /wrong file type/ } },
  { rule: 'telegram.thread.max_items', inside: { threadItems: times(25, (i) => ({ content: `item ${i}` })) }, outside: { threadItems: times(26, (i) => ({ content: `item ${i}` })) }, platform: { notSent: HERALD } },
];
