/**
 * X's rule cases (src/shared/rules/twitter.ts); the platform's answers come from the X
 * simulator (test/contract/twitter.test.ts), which counts text with twitter-text and reads the
 * media it receives. Every post's text is its own: X refuses the same text from the same user
 * twice (duplicate content).
 */
import { image, pdf, times, video, type RuleCase } from './cases.ts';

const HERALD = 'Herald\'s own rule (docs/decisions/0026-one-rule-table.md)';
const MB = 1024 * 1024;
const png = (i = 0) => image('png', 64 + i, 64);

export const cases: RuleCase[] = [
  { rule: 'twitter.text.max_weighted_length', inside: { text: 'a'.repeat(280) }, outside: { text: `${'a'.repeat(279)}👍` }, platform: { refuses: /text of your Tweet is too long/ } },
  { rule: 'twitter.text.max_weighted_length', name: 'CJK counts 2', inside: { text: '日本'.repeat(70) }, outside: { text: `${'日本'.repeat(70)}x` }, platform: { refuses: /too long/ } },
  {
    rule: 'twitter.text.max_weighted_length', name: 'a link counts 23',
    inside: { text: `${'d'.repeat(256)} https://example.com/${'p'.repeat(80)}` }, outside: { text: `${'d'.repeat(257)} https://example.com/${'p'.repeat(80)}` }, platform: { refuses: /too long/ },
  },
  {
    rule: 'twitter.text.max_weighted_length', name: 'every post of a thread',
    inside: { threadItems: [{ content: 'tw long thread 1' }, { content: 'e'.repeat(280) }] }, outside: { threadItems: [{ content: 'tw long thread 2' }, { content: 'e'.repeat(281) }] },
    platform: { refuses: /too long/ },
  },
  { rule: 'twitter.text.empty', inside: { text: 'tw not empty' }, outside: { text: '' }, platform: { refuses: /parameters to your request was invalid/ } },
  {
    rule: 'twitter.text.empty', name: 'a reply of a thread',
    inside: { threadItems: [{ content: 'tw reply 1' }, { content: 'tw reply 2' }] }, outside: { threadItems: [{ content: 'tw reply 3' }, { content: '' }] },
    platform: { refuses: /parameters to your request was invalid/ },
  },
  {
    rule: 'twitter.thread.media_first_only', inside: { mediaItems: [png()], threadItems: [{ content: 'tw media 1' }, { content: 'tw media 2' }] },
    outside: { threadItems: [{ content: 'tw media 3' }, { content: 'tw media 4', mediaItems: [png()] }] }, platform: { notSent: `${HERALD}: X takes media on replies; Herald's thread input gives media to the first post` },
  },
  { rule: 'twitter.media.type', inside: { text: 'tw photo', mediaItems: [png()] }, outside: { text: 'tw document', mediaItems: [pdf()] }, platform: { refuses: /Unsupported media type/ } },
  { rule: 'twitter.media.type', name: 'WebP is a photo', inside: { text: 'tw webp', mediaItems: [image('webp', 64, 64)] }, outside: { text: 'tw document 2', mediaItems: [pdf(3000)] }, platform: { refuses: /Unsupported media type/ } },
  {
    rule: 'twitter.media.image_max_bytes', inside: { text: 'tw 5 MB', mediaItems: [image('png', 64, 64, { bytes: 5 * MB })] }, outside: { text: 'tw 5 MB + 1', mediaItems: [image('png', 64, 64, { bytes: 5 * MB + 1 })] },
    platform: { refuses: /File size exceeds 5242880 bytes/ },
  },
  {
    rule: 'twitter.media.gif_max_bytes', inside: { text: 'tw 15 MB gif', mediaItems: [image('gif', 64, 64, { frames: 2, bytes: 15 * MB })] }, outside: { text: 'tw 15 MB + 1 gif', mediaItems: [image('gif', 64, 64, { frames: 2, bytes: 15 * MB + 1 })] },
    platform: { refuses: /File size exceeds 15728640 bytes/ },
  },
  {
    rule: 'twitter.media.video_max_bytes', inside: { text: 'tw 8 GB', mediaItems: [{ ...video(2, 160, 120), size: 8 * 1024 * MB }] }, outside: { text: 'tw 8 GB + 1', mediaItems: [{ ...video(2, 160, 120), size: 8 * 1024 * MB + 1 }] },
    platform: { notSent: 'an 8 GB file is too large to generate in a test' },
  },
  {
    rule: 'twitter.media.video_duration', name: 'at least 0.5 s', inside: { text: 'tw half a second', mediaItems: [video(0.5, 160, 120)] }, outside: { text: 'tw 0.4 s', mediaItems: [video(0.4, 160, 120)] },
    platform: { refuses: /too short/ },
  },
  {
    rule: 'twitter.media.video_duration', name: 'at most 20 min', inside: { text: 'tw 20 min', mediaItems: [video(1200, 160, 120)] }, outside: { text: 'tw 20 min + 1 s', mediaItems: [video(1201, 160, 120)] },
    platform: { notSent: 'a 20-minute video is too long to generate in a test (the simulator refuses longer videos at POST /2/tweets with X\'s 403)' },
  },
  { rule: 'twitter.media.max_images', inside: { text: 'tw four photos', mediaItems: times(4, png) }, outside: { text: 'tw five photos', mediaItems: times(5, png) }, platform: { refuses: /maximum of 4 items/ } },
  {
    rule: 'twitter.media.one_gif_or_video', name: 'a video with a photo', inside: { text: 'tw one video', mediaItems: [video(1, 160, 120)] }, outside: { text: 'tw video and photo', mediaItems: [video(1, 160, 120), png()] },
    platform: { refuses: /up to 4 photos, 1 animated GIF or 1 video/ },
  },
  {
    rule: 'twitter.media.one_gif_or_video', name: 'two GIFs', inside: { text: 'tw one gif', mediaItems: [image('gif', 48, 48, { frames: 3 })] }, outside: { text: 'tw two gifs', mediaItems: [image('gif', 48, 48, { frames: 3 }), image('gif', 40, 40, { frames: 3 })] },
    platform: { refuses: /up to 4 photos, 1 animated GIF or 1 video/ },
  },
  {
    rule: 'twitter.media.one_gif_or_video', name: 'two videos', inside: { text: 'tw one more video', mediaItems: [video(1, 160, 120)] }, outside: { text: 'tw two videos', mediaItems: [video(1, 160, 120), video(1, 160, 120)] },
    platform: { refuses: /up to 4 photos, 1 animated GIF or 1 video/ },
  },
];
