/**
 * Google Business Profile's rule cases (src/shared/rules/googlebusiness.ts); the platform's
 * answers come from the Google Business Profile simulator (test/contract/googlebusiness.test.ts),
 * which fetches each media item's sourceUrl and checks it as Google's rules say, and refuses the
 * LocalPost fields Google refuses with 400 INVALID_ARGUMENT.
 */
import { image, pdf, video, type RuleCase } from './cases.ts';

const MB = 1024 * 1024;
const pic = () => image('jpeg', 300, 300);
/** A PNG padded past the 10 KB minimum (a plain 300 x 300 PNG is smaller). */
const png = () => image('png', 300, 300, { bytes: 12 * 1024 });
const day = (d: number) => ({ year: 2030, month: 5, day: d });
const event = (schedule: Record<string, unknown> = { startDate: day(1), endDate: day(2) }) => ({ title: 'Open day', schedule });

export const cases: RuleCase[] = [
  { rule: 'googlebusiness.threads.unsupported', inside: { text: 'news' }, outside: { text: 'news', threadItems: [{ content: 'one' }, { content: 'two' }] }, platform: { notSent: 'localPosts have no threads: there is nothing to send' } },
  { rule: 'googlebusiness.summary.max_length', inside: { text: 's'.repeat(1500) }, outside: { text: 's'.repeat(1501) }, platform: { refuses: /summary.*1500/ } },
  { rule: 'googlebusiness.media.max_items', inside: { text: 'p', mediaItems: [pic()] }, outside: { text: 'p', mediaItems: [pic(), pic()] }, platform: { refuses: /at most one media item/ } },
  { rule: 'googlebusiness.media.type', inside: { text: 'p', mediaItems: [pic()] }, outside: { text: 'p', mediaItems: [pdf()] }, platform: { notSent: 'a MediaItem is a PHOTO or a VIDEO: Herald has no mediaFormat to send for a document' } },
  { rule: 'googlebusiness.media.type', name: 'GIF', inside: { text: 'p', mediaItems: [png()] }, outside: { text: 'p', mediaItems: [image('gif', 300, 300, { frames: 2 })] }, platform: { notSent: 'a GIF would be sent as a PHOTO, which photo.format covers (the simulator refuses its bytes)' } },
  { rule: 'googlebusiness.photo.format', inside: { text: 'p', mediaItems: [png()] }, outside: { text: 'p', mediaItems: [image('webp', 300, 300, { bytes: 12 * 1024 })] }, platform: { refuses: /JPG or PNG/ } },
  { rule: 'googlebusiness.photo.min_bytes', inside: { text: 'p', mediaItems: [image('jpeg', 250, 250, { bytes: 10 * 1024 })] }, outside: { text: 'p', mediaItems: [image('jpeg', 250, 250, { bytes: 10 * 1024 - 1 })] }, platform: { refuses: /at least 10240 bytes/ } },
  { rule: 'googlebusiness.photo.max_bytes', inside: { text: 'p', mediaItems: [image('png', 300, 300, { bytes: 5 * MB })] }, outside: { text: 'p', mediaItems: [image('png', 300, 300, { bytes: 5 * MB + 1 })] }, platform: { refuses: /at most 5242880 bytes/ } },
  { rule: 'googlebusiness.photo.min_pixels', inside: { text: 'p', mediaItems: [image('jpeg', 250, 250, { bytes: 12 * 1024 })] }, outside: { text: 'p', mediaItems: [image('jpeg', 249, 250, { bytes: 12 * 1024 })] }, platform: { refuses: /at least 250 x 250/ } },
  { rule: 'googlebusiness.video.max_bytes', inside: { text: 'v', mediaItems: [video(2, 1280, 720)] }, outside: { text: 'v', mediaItems: [{ ...video(2, 1280, 720), size: 75 * MB + 1 }] }, platform: { notSent: 'a 75 MB file is too large to generate in a test; the simulator checks the fetched size (videoMaxBytes)' } },
  { rule: 'googlebusiness.video.max_duration', inside: { text: 'v', mediaItems: [video(2, 1280, 720)] }, outside: { text: 'v', mediaItems: [{ ...video(2, 1280, 720), durationSeconds: 31 }] }, platform: { notSent: 'a 31-second 720p video takes too long to generate on every run; the simulator reads the duration from the movie header (videoMaxSeconds)' } },
  { rule: 'googlebusiness.video.min_resolution', inside: { text: 'v', mediaItems: [video(1, 1280, 720)] }, outside: { text: 'v', mediaItems: [video(1, 1280, 718)] }, platform: { refuses: /720p/ } },
  { rule: 'googlebusiness.topic_type', inside: { text: 'p', platformSpecificData: { topicType: 'STANDARD' } }, outside: { text: 'p', platformSpecificData: { topicType: 'PRODUCT' } }, platform: { refuses: /topicType/ } },
  { rule: 'googlebusiness.event.required', inside: { text: 'p', platformSpecificData: { topicType: 'EVENT', event: event() } }, outside: { text: 'p', platformSpecificData: { topicType: 'EVENT' } }, platform: { refuses: /event is required/ } },
  { rule: 'googlebusiness.event.title', inside: { text: 'p', platformSpecificData: { topicType: 'EVENT', event: event() } }, outside: { text: 'p', platformSpecificData: { topicType: 'EVENT', event: { ...event(), title: ' ' } } }, platform: { refuses: /event.title/ } },
  { rule: 'googlebusiness.event.schedule', inside: { text: 'p', platformSpecificData: { topicType: 'EVENT', event: event({ startDate: '2030-02-28', endDate: day(2) }) } }, outside: { text: 'p', platformSpecificData: { topicType: 'EVENT', event: event({ startDate: { year: 2030, month: 2, day: 30 }, endDate: day(2) }) } }, platform: { refuses: /startDate/ } },
  { rule: 'googlebusiness.event.end_after_start', inside: { text: 'p', platformSpecificData: { topicType: 'EVENT', event: event({ startDate: day(1), startTime: { hours: 9 }, endDate: day(1), endTime: { hours: 9, minutes: 1 } }) } }, outside: { text: 'p', platformSpecificData: { topicType: 'EVENT', event: event({ startDate: day(1), startTime: { hours: 9 }, endDate: day(1), endTime: { hours: 9 } }) } }, platform: { refuses: /end.*after.*start/ } },
  { rule: 'googlebusiness.offer.topic', inside: { text: 'p', platformSpecificData: { topicType: 'OFFER', event: event(), offer: { couponCode: 'SAVE10' } } }, outside: { text: 'p', platformSpecificData: { topicType: 'STANDARD', offer: { couponCode: 'SAVE10' } } }, platform: { refuses: /offer/ } },
  { rule: 'googlebusiness.offer.url', inside: { text: 'p', platformSpecificData: { topicType: 'OFFER', event: event(), offer: { redeemOnlineUrl: 'https://shop.example/deal' } } }, outside: { text: 'p', platformSpecificData: { topicType: 'OFFER', event: event(), offer: { redeemOnlineUrl: 'shop.example/deal' } } }, platform: { refuses: /redeemOnlineUrl/ } },
  { rule: 'googlebusiness.cta.action_type', inside: { text: 'p', platformSpecificData: { callToAction: { type: 'SIGN_UP', url: 'https://example.com/s' } } }, outside: { text: 'p', platformSpecificData: { callToAction: { type: 'GET_OFFER', url: 'https://example.com/s' } } }, platform: { refuses: /actionType/ } },
  { rule: 'googlebusiness.cta.url', inside: { text: 'p', platformSpecificData: { callToAction: { type: 'CALL' } } }, outside: { text: 'p', platformSpecificData: { callToAction: { type: 'BOOK' } } }, platform: { refuses: /callToAction.url/ } },
  { rule: 'googlebusiness.cta.offer', inside: { text: 'p', platformSpecificData: { topicType: 'OFFER', event: event() } }, outside: { text: 'p', platformSpecificData: { topicType: 'OFFER', event: event(), callToAction: { type: 'SHOP', url: 'https://example.com' } } }, platform: { notSent: 'Google ignores a callToAction on an OFFER (it would publish without the button): Herald refuses it rather than drop it' } },
  { rule: 'googlebusiness.language_code', inside: { text: 'p', platformSpecificData: { languageCode: 'pt-BR' } }, outside: { text: 'p', platformSpecificData: { languageCode: 'Portuguese' } }, platform: { refuses: /languageCode/ } },
  { rule: 'googlebusiness.location.id', inside: { text: 'p', platformSpecificData: { locationId: 'locations/123' }, accountSettings: { locationId: 'locations/123' } }, outside: { text: 'p', platformSpecificData: { locationId: 'locations/456' }, accountSettings: { locationId: 'locations/123' } }, platform: { notSent: 'the account publishes to its own location; another location is another account (Herald never posts elsewhere)' } },
];
