/**
 * YouTube adapter helpers without a network: title, tags (Herald's 500-character rule and YouTube's own
 * count), thumbnail types, Pacific-midnight quota reset, Google error mapping, and the rules.
 */
import { describe, expect, it } from 'vitest';
import { fitYouTubeTagCount, imageTypeOf, noAngles, titleOf, youtubeTags, YouTubeAdapter } from './adapter.ts';
import { mapGoogleError, msUntilPacificMidnight } from './google.ts';
import { youtubeOAuth } from './oauth.ts';
import type { PublishRequest } from '../types.ts';

const req = (over: Partial<PublishRequest> = {}): PublishRequest => ({
  text: 'Hello', mediaItems: [{ type: 'video', url: 'https://example.com/v.mp4' }], threadItems: [], platformSpecificData: {},
  tags: [], visibility: 'public', ...over,
});
const adapter = new YouTubeAdapter(youtubeOAuth, () => ({ clientId: 'c', clientSecret: 's', apiBaseUrl: 'http://127.0.0.1:9', authBaseUrl: 'http://127.0.0.1:9' }));
const rules = (r: PublishRequest) => adapter.validate(r).map((v) => v.rule);

describe('YouTube helpers', () => {
  it('title: platformSpecificData.title, else the first non-empty line cut to 100 characters without < >, else the file name', () => {
    expect(titleOf(req({ platformSpecificData: { title: ' Given ' } }))).toEqual({ title: 'Given', given: true });
    expect(titleOf(req({ text: '\n\n  First <line>  \nsecond' })).title).toBe('First \uFF1Cline\uFF1E');
    expect([...titleOf(req({ text: '\u{1F600}'.repeat(150) })).title]).toHaveLength(100);
    expect(titleOf(req({ text: '', mediaItems: [{ type: 'video', url: 'https://e.x/a.mp4', filename: 'holiday.mp4' }] })).title).toBe('holiday');
    expect(noAngles('a<b>c')).toBe('a\uFF1Cb\uFF1Ec');
  });

  it('tags: trimmed, duplicates removed case-insensitively, over 100 characters dropped; platformSpecificData.tags wins', () => {
    expect(youtubeTags(req({ tags: ['a', ' A ', 'b', 'x'.repeat(101), ''] }))).toEqual(['a', 'b']);
    expect(youtubeTags(req({ tags: ['post'], platformSpecificData: { tags: ['yt', 'YT', 3] } }))).toEqual(['yt']);
    // YouTube's own count: quotes around tags with spaces and commas between tags.
    const tags = ['a b'.padEnd(100, 'c'), 'd'.repeat(100), 'e'.repeat(100), 'f'.repeat(100), 'g'.repeat(100)];
    expect(fitYouTubeTagCount(tags)).toHaveLength(4);
    expect(fitYouTubeTagCount(['x', 'y'])).toEqual(['x', 'y']);
  });

  it('thumbnail types by magic bytes', () => {
    expect(imageTypeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(imageTypeOf(Buffer.from('89504e470d0a1a0a00', 'hex'))).toBe('image/png');
    expect(imageTypeOf(Buffer.from('GIF89a...'))).toBe('image/gif');
    expect(imageTypeOf(Buffer.from('RIFF....WEBP'))).toBeNull();
  });

  it('quota resets at midnight Pacific (PST and PDT)', () => {
    expect(msUntilPacificMidnight(Date.parse('2026-01-15T07:00:00Z'))).toBe(3600_000); // 23:00 PST
    expect(msUntilPacificMidnight(Date.parse('2026-07-15T06:30:00Z'))).toBe(30 * 60_000); // 23:30 PDT
    expect(msUntilPacificMidnight(Date.parse('2026-07-15T07:00:00Z'))).toBe(24 * 3600_000); // 00:00 PDT (Intl says "24")
  });

  it('maps Google reasons to adapter error kinds', () => {
    const env = (code: number, reason: string) => ({ error: { code, message: 'm', errors: [{ reason, domain: 'd', message: 'm' }] } });
    expect(mapGoogleError(403, env(403, 'quotaExceeded'), null)).toMatchObject({ kind: 'rate_limited', opts: { platformCode: 'quotaExceeded' } });
    expect(mapGoogleError(400, env(400, 'uploadLimitExceeded'), null).opts.retryAfterMs).toBe(24 * 3600_000);
    expect(mapGoogleError(403, env(403, 'rateLimitExceeded'), new Headers({ 'retry-after': '7' })).opts.retryAfterMs).toBe(7000);
    expect(mapGoogleError(401, env(401, 'youtubeSignupRequired'), null).kind).toBe('disconnected');
    expect(mapGoogleError(401, env(401, 'authError'), null).kind).toBe('auth_expired');
    expect(mapGoogleError(403, env(403, 'forbidden'), null).kind).toBe('rejected');
    expect(mapGoogleError(503, env(503, 'backendError'), null).kind).toBe('transient');
  });

  it('rules', () => {
    expect(rules(req())).toEqual([]);
    // A Short is square or vertical AND at most 3 minutes (docs/decisions/0027-youtube-shorts.md).
    const vid = (durationSeconds: number, width?: number, height?: number, thumbnail = 'https://e.x/t.png') => req({ mediaItems: [{ type: 'video', url: 'https://e.x/a.mp4', durationSeconds, width, height, thumbnail }] });
    expect(rules(vid(180, 1080, 1920))).toEqual(['youtube.short.no_custom_thumbnail']);
    expect(rules(vid(60, 1080, 1080))).toEqual(['youtube.short.no_custom_thumbnail']);
    expect(rules(vid(180.5, 1080, 1920))).toEqual([]);
    expect(rules(vid(120, 1920, 1080))).toEqual([]);
    expect(rules(vid(60))).toEqual([]); // shape unknown: decided at publish time from the bytes
    expect(rules(vid(600, 1920, 1080, 'https://e.x/t.gif'))).toEqual(['youtube.thumbnail.type']);
    expect(rules(req({ platformSpecificData: { visibility: 'friends' } }))).toEqual(['youtube.visibility']);
    expect(rules(req({ platformSpecificData: { containsSyntheticMedia: 'yes' } }))).toEqual(['youtube.containsSyntheticMedia.type']);
    const later = new Date(Date.now() + 3600_000);
    expect(rules(req({ scheduledFor: later, visibility: 'unlisted' }))).toEqual(['youtube.schedule.public_only']);
    expect(rules(req({ scheduledFor: later, visibility: 'private' }))).toEqual([]);
  });
});
