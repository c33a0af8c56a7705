/**
 * YouTube's rule cases (src/shared/rules/youtube.ts); the platform's answers come from the
 * YouTube simulator (test/contract/youtube.test.ts). A thumbnail is described by URL
 * (mediaItems[].thumbnail); the contract test generates and serves it.
 */
import type { MediaRef } from '../../src/shared/rules/types.ts';
import { image, video, type RuleCase } from './cases.ts';

const HERALD = 'Herald\'s own check of its input (docs/decisions/0026-one-rule-table.md)';
/** A horizontal 2-second video: a regular video, never a Short. */
const clip = (): MediaRef => video(2, 320, 240);
const withThumb = (v: MediaRef, format: 'jpeg' | 'png' | 'gif' | 'webp' = 'jpeg'): MediaRef => ({ ...v, thumbnail: image(format, 128, 72).url });
const withPsd = (platformSpecificData: Record<string, unknown>) => ({ text: 'a video', mediaItems: [clip()], platformSpecificData });

export const cases: RuleCase[] = [
  { rule: 'youtube.media.one_video', inside: { text: 'one', mediaItems: [clip()] }, outside: { text: 'two', mediaItems: [clip(), clip()] }, platform: { notSent: 'videos.insert uploads exactly one file: a second video (or none) cannot be sent' } },
  { rule: 'youtube.video.max_bytes', inside: { text: 'big', mediaItems: [video(2, 320, 240, { bytes: 256 * 1024 ** 3 })] }, outside: { text: 'too big', mediaItems: [video(2, 320, 240, { bytes: 256 * 1024 ** 3 + 1 })] }, platform: { notSent: 'a 256 GB file is not generated in tests' } },
  { rule: 'youtube.short.no_custom_thumbnail', name: 'a vertical video over 3 minutes is a regular video', inside: { text: 'long', mediaItems: [withThumb(video(181, 180, 320))] }, outside: { text: 'short', mediaItems: [withThumb(video(180, 180, 320))] }, platform: { refuses: /invalidVideo|Shorts/ } },
  { rule: 'youtube.short.no_custom_thumbnail', name: 'a horizontal short video is a regular video; a square one is a Short', inside: { text: 'wide', mediaItems: [withThumb(video(10, 322, 320))] }, outside: { text: 'square', mediaItems: [withThumb(video(10, 320, 320))] }, platform: { refuses: /invalidVideo|Shorts/ } },
  { rule: 'youtube.thumbnail.type', inside: { text: 'png', mediaItems: [withThumb(clip(), 'png')] }, outside: { text: 'gif', mediaItems: [withThumb(clip(), 'gif')] }, platform: { refuses: /invalidImage/ } },
  { rule: 'youtube.thumbnail.type', name: 'WebP', inside: { text: 'jpeg', mediaItems: [withThumb(clip(), 'jpeg')] }, outside: { text: 'webp', mediaItems: [withThumb(clip(), 'webp')] }, platform: { refuses: /invalidImage/ } },
  { rule: 'youtube.title.max_length', inside: withPsd({ title: 't'.repeat(100) }), outside: withPsd({ title: 't'.repeat(101) }), platform: { refuses: /invalidTitle/ } },
  { rule: 'youtube.title.angle_brackets', inside: withPsd({ title: 'a title' }), outside: withPsd({ title: 'a <b> title' }), platform: { refuses: /invalidTitle/ } },
  { rule: 'youtube.title.type', inside: withPsd({ title: 'a title' }), outside: withPsd({ title: 5 }), platform: { notSent: `${HERALD}: a title that is not a string is not sent (Herald would take the first line)` } },
  { rule: 'youtube.description.max_bytes', inside: { text: 'é'.repeat(2500), mediaItems: [clip()] }, outside: { text: `a${'é'.repeat(2500)}`, mediaItems: [clip()] }, platform: { refuses: /invalidDescription/ } },
  { rule: 'youtube.tags.max_total', inside: withPsd({ tags: ['a', 'b', 'c', 'd', 'e'].map((c) => c.repeat(100)) }), outside: withPsd({ tags: ['a', 'b', 'c', 'd', 'e'].map((c) => c.repeat(100)).concat('f') }), platform: { notSent: 'Herald trims the tags to YouTube\'s own count (quotes and commas) before sending, so YouTube never sees too many' } },
  { rule: 'youtube.first_comment.type', inside: withPsd({ firstComment: 'first!' }), outside: withPsd({ firstComment: 42 }), platform: { notSent: `${HERALD}: a comment that is not a string is not sent` } },
  { rule: 'youtube.first_comment.max_length', inside: withPsd({ firstComment: 'c'.repeat(10_000) }), outside: withPsd({ firstComment: 'c'.repeat(10_001) }), platform: { refuses: /commentTextTooLong/ } },
  { rule: 'youtube.visibility', inside: withPsd({ visibility: 'unlisted' }), outside: withPsd({ visibility: 'friends' }), platform: { notSent: `${HERALD}: an unknown visibility is never sent (Herald would use the post's visibility)` } },
  { rule: 'youtube.containsSyntheticMedia.type', inside: withPsd({ containsSyntheticMedia: true }), outside: withPsd({ containsSyntheticMedia: 'yes' }), platform: { notSent: `${HERALD}: a value that is not a boolean is left out of the request` } },
  { rule: 'youtube.madeForKids.type', inside: withPsd({ madeForKids: false }), outside: withPsd({ madeForKids: 'no' }), platform: { notSent: `${HERALD}: Herald sends selfDeclaredMadeForKids as a boolean` } },
  { rule: 'youtube.notifySubscribers.type', inside: withPsd({ notifySubscribers: false }), outside: withPsd({ notifySubscribers: 'no' }), platform: { notSent: `${HERALD}: Herald sends notifySubscribers as true or false` } },
  {
    rule: 'youtube.schedule.public_only',
    inside: { ...withPsd({ visibility: 'public' }), scheduledFor: new Date(Date.now() + 86_400_000) },
    outside: { ...withPsd({ visibility: 'unlisted' }), scheduledFor: new Date(Date.now() + 86_400_000) },
    platform: { notSent: 'publishAt is only accepted with privacyStatus private (the video turns public at that time): an unlisted schedule has no request to send' },
  },
  { rule: 'youtube.category_id', inside: withPsd({ categoryId: '22' }), outside: withPsd({ categoryId: 'music' }), platform: { refuses: /invalidCategoryId/ } },
];
