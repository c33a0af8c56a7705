/** Facebook's rule cases (src/shared/rules/facebook.ts); the platform's answers come from the Facebook simulator (test/contract/facebook.test.ts). */
import { image, pdf, times, video, type RuleCase } from './cases.ts';

const HERALD = 'Herald\'s own rule (docs/decisions/0026-one-rule-table.md)';
const jpg = () => image('jpeg', 64, 64);
const story = { contentType: 'story' };
const MB = 1024 * 1024;
/** A story video valid on every rule: 3 s, 540 x 960. */
const sv = (s = 3, w = 540, h = 960) => video(s, w, h);

export const cases: RuleCase[] = [
  { rule: 'facebook.thread.unsupported', inside: { text: 'one', threadItems: [{ content: 'one' }] }, outside: { text: 'one', threadItems: [{ content: 'one' }, { content: 'two' }] }, platform: { notSent: `${HERALD}: Pages have no threads; the adapter publishes one post` } },
  { rule: 'facebook.text.max_length', inside: { text: 'x'.repeat(63_206) }, outside: { text: 'x'.repeat(63_207) }, platform: { refuses: /The message is too long/ } },
  { rule: 'facebook.text.required', inside: { text: 'some text' }, outside: { text: ' ' }, platform: { refuses: /Posts where the message is empty need a link or attached_media/ } },
  { rule: 'facebook.first_comment.type', inside: { text: 'x', platformSpecificData: { firstComment: 'hi' } }, outside: { text: 'x', platformSpecificData: { firstComment: 3 } }, platform: { notSent: `${HERALD}: the shape of Herald's input` } },
  { rule: 'facebook.first_comment.max_length', inside: { text: 'x', platformSpecificData: { firstComment: 'c'.repeat(8000) } }, outside: { text: 'x', platformSpecificData: { firstComment: 'c'.repeat(8001) } }, platform: { notSent: 'the comment is posted after the post is live; a refusal there is recorded on the result and never fails the post' } },
  { rule: 'facebook.link.url', inside: { text: 'a link', platformSpecificData: { link: 'https://example.com/' } }, outside: { text: 'a link', platformSpecificData: { link: 'example.com' } }, platform: { refuses: /Param link must be a valid URL/ } },
  { rule: 'facebook.content_type', inside: { text: 'x', platformSpecificData: { contentType: 'post' } }, outside: { text: 'x', platformSpecificData: { contentType: 'reel' } }, platform: { notSent: `${HERALD}: an option of Herald's input` } },
  { rule: 'facebook.media.type', inside: { text: 'x', mediaItems: [jpg()] }, outside: { text: 'x', mediaItems: [pdf()] }, platform: { refuses: /photo is in an unsupported format \(unknown\)/ } },
  { rule: 'facebook.media.image_max_bytes', inside: { text: 'x', mediaItems: [image('jpeg', 64, 64, { bytes: 4 * MB })] }, outside: { text: 'x', mediaItems: [image('jpeg', 64, 64, { bytes: 4 * MB + 1 })] }, platform: { refuses: /too big for a feed post/ } },
  { rule: 'facebook.media.single_video', inside: { text: 'x', mediaItems: [video(2, 320, 240)] }, outside: { text: 'x', mediaItems: [video(2, 320, 240), video(2, 320, 240)] }, platform: { notSent: 'the adapter publishes a video post with the first video only (one /videos call)' } },
  { rule: 'facebook.media.mixed', inside: { text: 'x', mediaItems: [jpg(), jpg()] }, outside: { text: 'x', mediaItems: [video(2, 320, 240), jpg()] }, platform: { notSent: 'the adapter publishes a video post with the first video only (one /videos call)' } },
  { rule: 'facebook.media.max_photos', inside: { text: 'x', mediaItems: times(10, () => jpg()) }, outside: { text: 'x', mediaItems: times(11, () => jpg()) }, platform: { refuses: /attached_media: a post can have at most 10 photos/ } },
  { rule: 'facebook.story.single_media', inside: { mediaItems: [jpg()], platformSpecificData: story }, outside: { mediaItems: [jpg(), jpg()], platformSpecificData: story }, platform: { notSent: `${HERALD}: a story target is one story (the adapter would publish the first item only)` } },
  { rule: 'facebook.story.media_type', inside: { mediaItems: [jpg()], platformSpecificData: story }, outside: { mediaItems: [pdf()], platformSpecificData: story }, platform: { refuses: /video format is not supported \(unknown\)/ } },
  { rule: 'facebook.story.image_format', inside: { mediaItems: [image('png', 64, 64)], platformSpecificData: story }, outside: { mediaItems: [image('webp', 64, 64)], platformSpecificData: story }, platform: { refuses: /Unsupported story photo format \(webp\)/ } },
  { rule: 'facebook.story.image_format', name: 'GIF', inside: { mediaItems: [image('gif', 64, 64, { frames: 2 })], platformSpecificData: story }, outside: { mediaItems: [image('webp', 80, 80)], platformSpecificData: story }, platform: { refuses: /Unsupported story photo format \(webp\)/ } },
  { rule: 'facebook.story.video_format', inside: { mediaItems: [sv()], platformSpecificData: story }, outside: { mediaItems: [{ ...sv(), mimeType: 'video/webm', url: sv().url.replace('video.mp4', 'video.webm') }], platformSpecificData: story }, platform: { notSent: 'the rule-case helper generates MP4 videos only: test/contract/facebook.test.ts sends a WebM story video to the simulator itself' } },
  { rule: 'facebook.story.https_url', inside: { mediaItems: [jpg()], platformSpecificData: story }, outside: { mediaItems: [{ ...jpg(), url: 'http://media.rules.test/image.jpg' }], platformSpecificData: story }, platform: { notSent: 'Herald\'s own media-fetch policy (docs/decisions/0016-facebook-instagram-and-selection.md); Facebook downloads http URLs too' } },
  { rule: 'facebook.story.image_max_bytes', inside: { mediaItems: [image('jpeg', 64, 64, { bytes: 10 * MB })], platformSpecificData: story }, outside: { mediaItems: [image('jpeg', 64, 64, { bytes: 10 * MB + 1 })], platformSpecificData: story }, platform: { refuses: /photo is too big: 10485761 bytes/ } },
  { rule: 'facebook.story.video_max_bytes', inside: { mediaItems: [{ ...sv(), size: 4 * 1024 * MB }], platformSpecificData: story }, outside: { mediaItems: [{ ...sv(), size: 4 * 1024 * MB + 1 }], platformSpecificData: story }, platform: { notSent: 'a 4 GB file is too large to generate in a test' } },
  { rule: 'facebook.story.video_duration', name: 'too short', inside: { mediaItems: [sv(3)], platformSpecificData: story }, outside: { mediaItems: [sv(2)], platformSpecificData: story }, platform: { refuses: /Story videos must be 3 to 60 seconds long/ } },
  { rule: 'facebook.story.video_duration', name: 'too long', inside: { mediaItems: [sv(60)], platformSpecificData: story }, outside: { mediaItems: [sv(61)], platformSpecificData: story }, platform: { refuses: /Story videos must be 3 to 60 seconds long/ } },
  { rule: 'facebook.story.video_dimensions', name: 'too narrow', inside: { mediaItems: [sv(3, 540, 960)], platformSpecificData: story }, outside: { mediaItems: [sv(3, 538, 960)], platformSpecificData: story }, platform: { refuses: /resolution is too low: story videos must be at least 540x960/ } },
  { rule: 'facebook.story.video_dimensions', name: 'too short', inside: { mediaItems: [sv(3, 544, 960)], platformSpecificData: story }, outside: { mediaItems: [sv(3, 544, 958)], platformSpecificData: story }, platform: { refuses: /resolution is too low: story videos must be at least 540x960/ } },
  { rule: 'facebook.story.first_comment', inside: { mediaItems: [jpg()], platformSpecificData: story }, outside: { mediaItems: [jpg()], platformSpecificData: { ...story, firstComment: 'hi' } }, platform: { notSent: 'the adapter never comments on a story' } },
];
