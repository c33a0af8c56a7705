/**
 * LinkedIn's rule cases (src/shared/rules/linkedin.ts); the platform's answers come from the
 * LinkedIn simulator (test/contract/linkedin.test.ts), which checks the commentary as sent and
 * the image bytes it receives. Every post's commentary is its own: LinkedIn refuses the same
 * commentary from the same author twice within its duplicate window.
 */
import { CASE_MEDIA_ORIGIN, image, pdf, times, video, type RuleCase } from './cases.ts';

const HERALD = 'Herald\'s own rule (docs/decisions/0026-one-rule-table.md)';
const MB = 1024 * 1024;
const NOT_REFUSED = 'not a refusal: the adapter publishes the post and the first comment afterwards; a refused comment is recorded on the target (test "posts the first comment ...")';
const small = (i = 0) => image('png', 64 + i, 64);

export const cases: RuleCase[] = [
  { rule: 'linkedin.text.max_length', inside: { text: 'a'.repeat(3000) }, outside: { text: 'a'.repeat(3001) }, platform: { refuses: /length of commentary exceeds 3000/ } },
  {
    rule: 'linkedin.text.max_length', name: 'counted as sent: a reserved character is escaped and counts 2',
    inside: { text: `${'b'.repeat(2996)}(ab` }, outside: { text: `${'b'.repeat(2997)}(ab` }, platform: { refuses: /length of commentary exceeds 3000/ },
  },
  {
    rule: 'linkedin.text.max_length', name: 'a hashtag is sent as {hashtag|\\#|word}',
    inside: { text: `${'c'.repeat(2984)} #go` }, outside: { text: `${'c'.repeat(2985)} #go` }, platform: { refuses: /length of commentary exceeds 3000/ },
  },
  {
    rule: 'linkedin.mention.organization_id', inside: { text: 'Thanks @[Herald Demo Co](urn:li:organization:2414183)' }, outside: { text: 'Thanks @[Acme](urn:li:organization:acme-corp)' },
    platform: { refuses: /Invalid organization URN in mention/ },
  },
  { rule: 'linkedin.thread.unsupported', inside: { text: 'li single', threadItems: [{ content: 'li single' }] }, outside: { text: 'li two', threadItems: [{ content: 'li two' }, { content: 'li three' }] }, platform: { notSent: `${HERALD}: LinkedIn has no threads; Herald would drop the other items` } },
  { rule: 'linkedin.media.max_images', inside: { text: 'li twenty', mediaItems: times(20, small) }, outside: { text: 'li twenty-one', mediaItems: times(21, small) }, platform: { refuses: /must contain 2 to 20 images/ } },
  { rule: 'linkedin.image.format', inside: { text: 'li jpeg', mediaItems: [image('jpeg', 64, 64)] }, outside: { text: 'li webp', mediaItems: [image('webp', 64, 64)] }, platform: { refuses: /Unsupported image format: webp/ } },
  { rule: 'linkedin.image.format', name: 'GIF', inside: { text: 'li gif', mediaItems: [image('gif', 48, 48, { frames: 2 })] }, outside: { text: 'li webp 2', mediaItems: [image('webp', 48, 48)] }, platform: { refuses: /Unsupported image format/ } },
  {
    rule: 'linkedin.image.max_pixels', name: '6140 x 5887 = 36,146,180 inside; 6140 x 5888 = 36,152,320 outside',
    inside: { text: 'li big', mediaItems: [image('jpeg', 6140, 5887)] }, outside: { text: 'li too big', mediaItems: [image('jpeg', 6140, 5888)] },
    platform: { refuses: /fewer than 36152320 pixels/ },
  },
  { rule: 'linkedin.image.gif_frames', inside: { text: 'li 250 frames', mediaItems: [image('gif', 32, 32, { frames: 250 })] }, outside: { text: 'li 251 frames', mediaItems: [image('gif', 32, 32, { frames: 251 })] }, platform: { refuses: /at most 250 frames/ } },
  // Several videos or documents go to the Images API as a multi-image post: LinkedIn refuses the file.
  { rule: 'linkedin.video.one', inside: { text: 'li one video', mediaItems: [video(3, 160, 120)] }, outside: { text: 'li two videos', mediaItems: [video(3, 160, 120), video(3, 160, 120)] }, platform: { refuses: /Unsupported image format: mp4/ } },
  { rule: 'linkedin.video.alone', inside: { text: 'li video alone', mediaItems: [video(3, 160, 120)] }, outside: { text: 'li video and image', mediaItems: [video(3, 160, 120), small()] }, platform: { refuses: /Unsupported image format: mp4/ } },
  {
    rule: 'linkedin.video.max_bytes', inside: { text: 'li 500 MB', mediaItems: [{ ...video(3, 160, 120), size: 500 * MB }] }, outside: { text: 'li 500 MB + 1', mediaItems: [{ ...video(3, 160, 120), size: 500 * MB + 1 }] },
    platform: { notSent: 'a 500 MB file is too large to generate in a test (the simulator refuses fileSizeBytes over 500 MB at initializeUpload); 500 MB is a third-party figure' },
  },
  {
    rule: 'linkedin.video.duration', name: 'at least 3 s', inside: { text: 'li 3 s', mediaItems: [video(3, 160, 120)] }, outside: { text: 'li 2.9 s', mediaItems: [video(2.9, 160, 120)] },
    platform: { notSent: '3 s to 30 min is a third-party figure (not found on LinkedIn\'s Videos API page); the simulator does not check durations' },
  },
  {
    rule: 'linkedin.video.duration', name: 'at most 30 min', inside: { text: 'li 30 min', mediaItems: [video(1800, 160, 120)] }, outside: { text: 'li 30 min + 1 s', mediaItems: [video(1801, 160, 120)] },
    platform: { notSent: 'third-party figure; a 30-minute video is too long to generate in a test' },
  },
  { rule: 'linkedin.document.one', inside: { text: 'li one deck', mediaItems: [pdf()] }, outside: { text: 'li two decks', mediaItems: [pdf(), pdf(2000)] }, platform: { refuses: /Unsupported image format/ } },
  { rule: 'linkedin.document.alone', inside: { text: 'li deck alone', mediaItems: [pdf()] }, outside: { text: 'li deck and image', mediaItems: [pdf(), small()] }, platform: { refuses: /Unsupported image format/ } },
  {
    rule: 'linkedin.document.max_bytes', inside: { text: 'li 100 MB deck', mediaItems: [{ ...pdf(), size: 100 * MB }] }, outside: { text: 'li 100 MB + 1 deck', mediaItems: [{ ...pdf(), size: 100 * MB + 1 }] },
    platform: { notSent: '100 MB is a third-party figure, and too large a file to generate in a test; the simulator does not check document sizes' },
  },
  {
    rule: 'linkedin.document.pdf', inside: { text: 'li pdf', mediaItems: [pdf()] },
    outside: { text: 'li docx', mediaItems: [{ type: 'document', url: `${CASE_MEDIA_ORIGIN}/deck.docx`, mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }] },
    platform: { notSent: `${HERALD}: LinkedIn also takes DOC, DOCX, PPT and PPTX` },
  },
  {
    rule: 'linkedin.document.title', inside: { text: 'li titled', mediaItems: [pdf()], platformSpecificData: { documentTitle: 't'.repeat(400) } }, outside: { text: 'li titled long', mediaItems: [pdf()], platformSpecificData: { documentTitle: 't'.repeat(401) } },
    platform: { notSent: HERALD },
  },
  { rule: 'linkedin.first_comment.type', inside: { text: 'li comment', platformSpecificData: { firstComment: 'hello' } }, outside: { text: 'li comment 2', platformSpecificData: { firstComment: 42 } }, platform: { notSent: HERALD } },
  {
    rule: 'linkedin.first_comment.max_length', inside: { text: 'li long comment', platformSpecificData: { firstComment: 'c'.repeat(1250) } }, outside: { text: 'li too long comment', platformSpecificData: { firstComment: 'c'.repeat(1251) } },
    platform: { notSent: NOT_REFUSED },
  },
  {
    rule: 'linkedin.visibility', inside: { text: 'li connections', platformSpecificData: { visibility: 'CONNECTIONS' } }, outside: { text: 'li logged in', platformSpecificData: { visibility: 'LOGGED_IN' } },
    platform: { notSent: 'Herald sends PUBLIC or CONNECTIONS only (another value would be sent as PUBLIC)' },
  },
];
