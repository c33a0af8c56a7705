import { describe, expect, it } from 'vitest';
import { TwitterAdapter, weightedLength } from './adapter.ts';
import { xOAuth } from './oauth.ts';
import type { PublishRequest } from '../types.ts';

const adapter = new TwitterAdapter(xOAuth, () => { throw new Error('no app needed to validate'); });
const req = (over: Partial<PublishRequest>): PublishRequest => ({ text: 'hi', mediaItems: [], threadItems: [], platformSpecificData: {}, tags: [], visibility: 'public', ...over });
const rules = (r: PublishRequest) => adapter.validate(r).map((v) => v.rule);

describe('X rules (docs.x.com/fundamentals/counting-characters)', () => {
  it('counts weighted length: links 23, emoji 2', () => {
    expect(weightedLength('a https://example.com/a/very/long/path')).toBe(25);
    expect(weightedLength('👍')).toBe(2);
    expect(rules(req({ text: 'a'.repeat(280) }))).toEqual([]);
    expect(rules(req({ text: 'a'.repeat(279) + '👍' }))).toEqual(['twitter.text.max_weighted_length']);
  });

  it('checks media sizes and video duration when known', () => {
    const video = (over: object) => req({ mediaItems: [{ type: 'video', url: 'https://x.test/v.mp4', ...over }] });
    expect(rules(video({ size: 100 * 1024 ** 2, durationSeconds: 60 }))).toEqual([]);
    expect(rules(video({ durationSeconds: 0.2 }))).toEqual(['twitter.media.video_duration']);
    expect(rules(video({ durationSeconds: 21 * 60 }))).toEqual(['twitter.media.video_duration']);
    expect(rules(video({ size: 9 * 1024 ** 3 }))).toEqual(['twitter.media.video_max_bytes']);
    expect(rules(req({ mediaItems: [{ type: 'image', url: 'https://x.test/a.png', size: 6 * 1024 ** 2 }] }))).toEqual(['twitter.media.image_max_bytes']);
  });
});
