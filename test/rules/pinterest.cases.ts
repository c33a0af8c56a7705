/**
 * Pinterest's rule cases (src/shared/rules/pinterest.ts); the platform's answers come from the
 * Pinterest simulator (test/contract/pinterest.test.ts), which fetches images and checks uploaded
 * videos as Pinterest does. Every post goes to a board: the contract test adds the account's
 * board, and replaces {@link CASE_BOARD} with it.
 */
import { CASE_MEDIA_ORIGIN, image, pdf, times, video, type RuleCase } from './cases.ts';
import type { MediaRef } from '../../src/shared/rules/types.ts';

/** A board id the simulator test swaps for a board of the connected account. */
export const CASE_BOARD = '1234';
const MB = 1024 * 1024;
const HERALD = 'Herald\'s own check (docs/decisions/0026-one-rule-table.md)';
const pic = () => image('jpeg', 64, 64);
const clip = (s = 5) => video(s, 320, 240);
/** An "image" whose file is a PDF: no format Pinterest takes. */
const notAnImage: MediaRef = { ...pdf(), type: 'image', url: `${CASE_MEDIA_ORIGIN}/doc.pdf?as=image` };
/** A "video" whose file is a PDF: no format Pinterest takes. */
const notAVideo: MediaRef = { ...pdf(), type: 'video', url: `${CASE_MEDIA_ORIGIN}/doc.pdf?as=video` };

export const cases: RuleCase[] = [
  { rule: 'pinterest.threads.unsupported', inside: { text: 'pin', mediaItems: [pic()] }, outside: { text: 'pin', mediaItems: [pic()], threadItems: [{ content: 'one' }, { content: 'two' }] }, platform: { notSent: 'Pinterest\'s API has no threads: there is nothing to send' } },
  { rule: 'pinterest.board.required', inside: { text: 'pin', mediaItems: [pic()], accountSettings: { defaultBoardId: CASE_BOARD } }, outside: { text: 'pin', mediaItems: [pic()], accountSettings: {} }, platform: { notSent: 'without a board Herald has no board_id to send (the API requires it)' } },
  { rule: 'pinterest.board.id', inside: { text: 'pin', mediaItems: [pic()], platformSpecificData: { boardId: CASE_BOARD } }, outside: { text: 'pin', mediaItems: [pic()], platformSpecificData: { boardId: 'my-board' } }, platform: { refuses: /board_id|Board not found/ } },
  { rule: 'pinterest.media.required', inside: { text: 'pin', mediaItems: [pic()] }, outside: { text: 'pin' }, platform: { refuses: /media_source|minItems/ } },
  { rule: 'pinterest.media.type', inside: { text: 'pin', mediaItems: [pic()] }, outside: { text: 'pin', mediaItems: [pdf()] }, platform: { notSent: 'the API has no media source for a document: Herald cannot send one' } },
  { rule: 'pinterest.image.format', inside: { text: 'pin', mediaItems: [image('webp', 64, 64)] }, outside: { text: 'pin', mediaItems: [notAnImage] }, platform: { refuses: /format not supported/ } },
  { rule: 'pinterest.image.format', name: 'GIF', inside: { text: 'pin', mediaItems: [image('gif', 64, 64, { frames: 3 })] }, outside: { text: 'pin', mediaItems: [notAnImage] }, platform: { refuses: /format not supported/ } },
  { rule: 'pinterest.media.image_max_bytes', inside: { text: 'pin', mediaItems: [image('png', 64, 64, { bytes: 20 * MB })] }, outside: { text: 'pin', mediaItems: [image('png', 64, 64, { bytes: 20 * MB + 1 })] }, platform: { refuses: /too large/ } },
  { rule: 'pinterest.media.carousel_max', inside: { text: 'pin', mediaItems: times(5, pic) }, outside: { text: 'pin', mediaItems: times(6, pic) }, platform: { refuses: /maxItems=5/ } },
  { rule: 'pinterest.media.one_video', inside: { text: 'pin', mediaItems: [clip()] }, outside: { text: 'pin', mediaItems: [clip(), clip(6)] }, platform: { notSent: 'a video pin\'s media_source names one media id: Herald cannot send two videos' } },
  { rule: 'pinterest.media.video_with_images', inside: { text: 'pin', mediaItems: [clip(), pic()] }, outside: { text: 'pin', mediaItems: [clip(), pic(), pic()] }, platform: { notSent: 'a video pin takes one cover image: Herald cannot send a second image' } },
  { rule: 'pinterest.video.format', inside: { text: 'pin', mediaItems: [clip()] }, outside: { text: 'pin', mediaItems: [notAVideo] }, platform: { refuses: /could not process the video/ } },
  { rule: 'pinterest.media.video_duration', name: 'too short', inside: { text: 'pin', mediaItems: [clip(4)] }, outside: { text: 'pin', mediaItems: [clip(3.9)] }, platform: { refuses: /could not process the video/ } },
  { rule: 'pinterest.media.video_duration', name: 'too long', inside: { text: 'pin', mediaItems: [video(900, 64, 64)] }, outside: { text: 'pin', mediaItems: [video(901, 64, 64)] }, platform: { notSent: 'a 15-minute video takes too long to generate on every run; the simulator\'s videoMaxSeconds check is the one the short case exercises' } },
  { rule: 'pinterest.media.video_max_bytes', inside: { text: 'pin', mediaItems: [video(5, 320, 240, { bytes: 2 * MB })] }, outside: { text: 'pin', mediaItems: [{ ...clip(), size: 2 * 1024 * MB + 1 }] }, platform: { notSent: 'a 2 GB file is too large to generate in a test' } },
  { rule: 'pinterest.title.max_length', inside: { text: 'pin', mediaItems: [pic()], platformSpecificData: { title: 't'.repeat(100) } }, outside: { text: 'pin', mediaItems: [pic()], platformSpecificData: { title: 't'.repeat(101) } }, platform: { refuses: /title exceeds maxLength=100/ } },
  { rule: 'pinterest.description.max_length', inside: { text: 'd'.repeat(800), mediaItems: [pic()] }, outside: { text: 'd'.repeat(801), mediaItems: [pic()] }, platform: { refuses: /description exceeds maxLength=800/ } },
  { rule: 'pinterest.link.url', inside: { text: 'pin', mediaItems: [pic()], platformSpecificData: { link: 'https://example.com/a' } }, outside: { text: 'pin', mediaItems: [pic()], platformSpecificData: { link: 'javascript:alert(1)' } }, platform: { refuses: /link is not a valid URL/ } },
  { rule: 'pinterest.link.max_length', inside: { text: 'pin', mediaItems: [pic()], platformSpecificData: { link: `https://example.com/${'a'.repeat(2048 - 20)}` } }, outside: { text: 'pin', mediaItems: [pic()], platformSpecificData: { link: `https://example.com/${'a'.repeat(2049 - 20)}` } }, platform: { refuses: /link exceeds maxLength=2048/ } },
  { rule: 'pinterest.media.alt_text_max_length', inside: { text: 'pin', mediaItems: [{ ...pic(), altText: 'a'.repeat(500) }] }, outside: { text: 'pin', mediaItems: [{ ...pic(), altText: 'a'.repeat(501) }] }, platform: { refuses: /alt_text exceeds maxLength=500/ } },
  { rule: 'pinterest.cover.url', inside: { text: 'pin', mediaItems: [clip()], platformSpecificData: { coverImageUrl: 'https://example.com/cover.jpg' } }, outside: { text: 'pin', mediaItems: [clip()], platformSpecificData: { coverImageUrl: 'ftp://example.com/cover.jpg' } }, platform: { refuses: /cover_image_url/ } },
  { rule: 'pinterest.cover.key_frame_time', inside: { text: 'pin', mediaItems: [clip()], platformSpecificData: { coverImageKeyFrameTime: 0 } }, outside: { text: 'pin', mediaItems: [clip()], platformSpecificData: { coverImageKeyFrameTime: -1 } }, platform: { notSent: HERALD } },
];
