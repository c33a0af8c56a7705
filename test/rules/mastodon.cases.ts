/**
 * Mastodon's rule cases (src/shared/rules/mastodon.ts). The limits are the instance's: cases
 * without `accountSettings` use mastodon.social's (the simulator's default instance); cases with
 * another instance's limits in `accountSettings.mastodonInstance` show the rule following the
 * account's instance. The platform's answers come from the Mastodon simulator
 * (test/contract/mastodon.test.ts).
 */
import { image, pdf, times, video, type RuleCase } from './cases.ts';

const HERALD = 'Herald\'s own rule (docs/decisions/0026-one-rule-table.md)';
const png = () => image('png', 64, 64);
/** An instance with other limits than mastodon.social's (as GET /api/v2/instance would state them). */
const big = { mastodonInstance: { maxCharacters: 1000, maxMediaAttachments: 6, charactersReservedPerUrl: 30, pollMaxOptions: 8 } };
const OTHER_INSTANCE = 'another instance\'s limits: the simulator serves mastodon.social\'s here; test/contract/mastodon.test.ts sends it to a second simulated instance';
const poll = (options: string[], expiresIn = 3600) => ({ poll: { options, expiresIn } });

export const cases: RuleCase[] = [
  { rule: 'mastodon.text.max_characters', inside: { text: 'a'.repeat(500) }, outside: { text: 'a'.repeat(501) }, platform: { refuses: /character limit of 500 exceeded/ } },
  { rule: 'mastodon.text.max_characters', name: 'graphemes: an emoji counts one', inside: { text: `${'a'.repeat(499)}👍🏽` }, outside: { text: `${'a'.repeat(500)}👍🏽` }, platform: { refuses: /character limit of 500 exceeded/ } },
  { rule: 'mastodon.text.max_characters', name: 'a link counts 23', inside: { text: `${'a'.repeat(476)} https://example.com/${'p'.repeat(200)}` }, outside: { text: `${'a'.repeat(477)} https://example.com/x` }, platform: { refuses: /character limit of 500 exceeded/ } },
  { rule: 'mastodon.text.max_characters', name: 'a remote mention counts its username', inside: { text: `${'a'.repeat(493)} @alice@example.social` }, outside: { text: `${'a'.repeat(494)} @alice@example.social` }, platform: { refuses: /character limit of 500 exceeded/ } },
  { rule: 'mastodon.text.max_characters', name: 'the content warning counts', inside: { text: 'a'.repeat(490), platformSpecificData: { spoilerText: 'b'.repeat(10) } }, outside: { text: 'a'.repeat(490), platformSpecificData: { spoilerText: 'b'.repeat(11) } }, platform: { refuses: /character limit of 500 exceeded/ } },
  { rule: 'mastodon.text.max_characters', name: 'a thread reply', inside: { threadItems: [{ content: 'one' }, { content: 'b'.repeat(500) }] }, outside: { threadItems: [{ content: 'one' }, { content: 'b'.repeat(501) }] }, platform: { refuses: /character limit of 500 exceeded/ } },
  { rule: 'mastodon.text.max_characters', name: 'the instance\'s own limit (1,000)', inside: { text: 'a'.repeat(1000), accountSettings: big }, outside: { text: 'a'.repeat(1001), accountSettings: big }, platform: { notSent: OTHER_INSTANCE } },
  { rule: 'mastodon.text.max_characters', name: 'the instance\'s own link weight (30)', inside: { text: `${'a'.repeat(969)} https://e.com`, accountSettings: big }, outside: { text: `${'a'.repeat(970)} https://e.com`, accountSettings: big }, platform: { notSent: OTHER_INSTANCE } },
  { rule: 'mastodon.text.required', inside: { text: 'a' }, outside: { text: '  ' }, platform: { refuses: /Text can't be blank/ } },
  { rule: 'mastodon.text.required', name: 'an empty reply', inside: { threadItems: [{ content: 'one' }, { content: 'two' }] }, outside: { threadItems: [{ content: 'one' }, { content: '' }] }, platform: { refuses: /Text can't be blank/ } },
  { rule: 'mastodon.thread.media_first_only', inside: { threadItems: [{ content: 'one' }, { content: 'two' }], mediaItems: [png()] }, outside: { threadItems: [{ content: 'one' }, { content: 'two', mediaItems: [png()] }] }, platform: { notSent: `${HERALD}: Herald's thread input gives media to the first status` } },
  { rule: 'mastodon.media.max_attachments', inside: { text: 'x', mediaItems: times(4, () => png()) }, outside: { text: 'x', mediaItems: times(5, () => png()) }, platform: { refuses: /Cannot attach more than 4 files/ } },
  { rule: 'mastodon.media.max_attachments', name: 'the instance\'s own count (6)', inside: { text: 'x', mediaItems: times(6, () => png()), accountSettings: big }, outside: { text: 'x', mediaItems: times(7, () => png()), accountSettings: big }, platform: { notSent: OTHER_INSTANCE } },
  { rule: 'mastodon.media.images_and_video', inside: { text: 'x', mediaItems: [video(2, 160, 120)] }, outside: { text: 'x', mediaItems: [video(2, 160, 120), png()] }, platform: { refuses: /Cannot attach a video to a post that already contains images/ } },
  { rule: 'mastodon.media.type', inside: { text: 'x', mediaItems: [png()] }, outside: { text: 'x', mediaItems: [pdf()] }, platform: { refuses: /File content type is invalid/ } },
  { rule: 'mastodon.media.type', name: 'a type the instance does not list', inside: { text: 'x', mediaItems: [png()], accountSettings: { mastodonInstance: { supportedMimeTypes: ['image/png'] } } }, outside: { text: 'x', mediaItems: [image('jpeg', 64, 64)], accountSettings: { mastodonInstance: { supportedMimeTypes: ['image/png'] } } }, platform: { notSent: OTHER_INSTANCE } },
  { rule: 'mastodon.media.image_max_bytes', inside: { text: 'x', mediaItems: [image('png', 64, 64, { bytes: 16_777_216 })] }, outside: { text: 'x', mediaItems: [image('png', 64, 64, { bytes: 16_777_217 })] }, platform: { refuses: /file size must be less than 16777216 Bytes/ } },
  { rule: 'mastodon.media.image_max_pixels', inside: { text: 'x', mediaItems: [image('png', 64, 64)], accountSettings: { mastodonInstance: { imageMatrixLimit: 4096 } } }, outside: { text: 'x', mediaItems: [image('png', 65, 64)], accountSettings: { mastodonInstance: { imageMatrixLimit: 4096 } } }, platform: { notSent: `${OTHER_INSTANCE} (mastodon.social's 33,177,600 pixels is too large an image to generate in a test)` } },
  { rule: 'mastodon.media.video_max_bytes', inside: { text: 'x', mediaItems: [{ ...video(2, 160, 120), size: 103_809_024 }] }, outside: { text: 'x', mediaItems: [{ ...video(2, 160, 120), size: 103_809_025 }] }, platform: { notSent: 'a 99 MB file is too large to generate and serve in a test; the simulator applies the same bound (its limits.videoSizeLimit)' } },
  { rule: 'mastodon.media.description_max', inside: { text: 'x', mediaItems: [{ ...png(), altText: 'd'.repeat(1500) }] }, outside: { text: 'x', mediaItems: [{ ...png(), altText: 'd'.repeat(1501) }] }, platform: { refuses: /Description is too long \(maximum is 1500 characters\)/ } },
  { rule: 'mastodon.poll.media_exclusive', inside: { text: 'x', platformSpecificData: poll(['a', 'b']) }, outside: { text: 'x', mediaItems: [png()], platformSpecificData: poll(['a', 'b']) }, platform: { refuses: /Cannot attach more than 4 files/ } },
  { rule: 'mastodon.poll.options', inside: { text: 'x', platformSpecificData: poll(['a', 'b', 'c', 'd']) }, outside: { text: 'x', platformSpecificData: poll(['a', 'b', 'c', 'd', 'e']) }, platform: { refuses: /Poll options cannot contain more than 4 items/ } },
  { rule: 'mastodon.poll.options', name: 'one option', inside: { text: 'x', platformSpecificData: poll(['a', 'b']) }, outside: { text: 'x', platformSpecificData: poll(['a']) }, platform: { refuses: /Poll options must have more than one item/ } },
  { rule: 'mastodon.poll.options', name: 'an option too long', inside: { text: 'x', platformSpecificData: poll(['a'.repeat(50), 'b']) }, outside: { text: 'x', platformSpecificData: poll(['a'.repeat(51), 'b']) }, platform: { refuses: /cannot be longer than 50 characters each/ } },
  { rule: 'mastodon.poll.options', name: 'the instance\'s own count (8)', inside: { text: 'x', platformSpecificData: poll(times(8, (i) => `o${i}`)), accountSettings: big }, outside: { text: 'x', platformSpecificData: poll(times(9, (i) => `o${i}`)), accountSettings: big }, platform: { notSent: OTHER_INSTANCE } },
  { rule: 'mastodon.poll.expires_in', inside: { text: 'x', platformSpecificData: poll(['a', 'b'], 300) }, outside: { text: 'x', platformSpecificData: poll(['a', 'b'], 299) }, platform: { refuses: /Poll expires at is too soon/ } },
  { rule: 'mastodon.poll.expires_in', name: 'too far', inside: { text: 'x', platformSpecificData: poll(['a', 'b'], 2_629_746) }, outside: { text: 'x', platformSpecificData: poll(['a', 'b'], 2_629_747) }, platform: { refuses: /Poll expires at is too far into the future/ } },
  { rule: 'mastodon.visibility', inside: { text: 'x', platformSpecificData: { visibility: 'unlisted' } }, outside: { text: 'x', platformSpecificData: { visibility: 'followers' } }, platform: { notSent: `${HERALD}: an unknown value is left out of the request (the account's default visibility would apply), so Herald refuses it first` } },
  { rule: 'mastodon.language', inside: { text: 'x', platformSpecificData: { language: 'de' } }, outside: { text: 'x', platformSpecificData: { language: 'german' } }, platform: { notSent: `${HERALD}: Mastodon ignores a language it does not know (the strict reading: refuse it)` } },
  { rule: 'mastodon.options.types', inside: { text: 'x', platformSpecificData: { sensitive: true } }, outside: { text: 'x', platformSpecificData: { sensitive: 'yes' } }, platform: { notSent: `${HERALD}: the shape of Herald's input` } },
];
