/**
 * The composer's rules are the server's rules: for every platform, the web composer's table
 * (web/src/lib/platform-rules.ts, derived from src/shared/capabilities.ts) has the adapters'
 * limits, and for a table of sample posts the composer's verdict (src/shared/post-rules.ts
 * checkPost) is the adapter's `validate` verdict: valid for both, or refused by both.
 */
import { describe, expect, it } from 'vitest';
import { capabilitiesOf, FIRST_COMMENT_PLATFORMS, PLATFORM_CAPABILITIES } from '../../src/shared/capabilities.ts';
import { PLATFORMS, type PlatformId } from '../../src/shared/platforms.ts';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import type { MediaRef, PublishRequest } from '../../src/platforms/types.ts';
import { checkPost, PLATFORM_IDS, PLATFORM_RULES } from '../../web/src/lib/platform-rules.ts';

const adapters = createAdapterRegistry({ blueskyServiceUrl: 'https://bsky.social' });
const adapter = (p: PlatformId) => adapters.get(p)!;

const image = (size?: number): MediaRef => ({ type: 'image', url: 'https://cdn.example.com/a.jpg', mimeType: 'image/jpeg', ...(size !== undefined ? { size } : {}) });
const video = (): MediaRef => ({ type: 'video', url: 'https://cdn.example.com/v.mp4', mimeType: 'video/mp4', durationSeconds: 30 });
const gif = (): MediaRef => ({ type: 'gif', url: 'https://cdn.example.com/g.gif', mimeType: 'image/gif' });
const pdf = (): MediaRef => ({ type: 'document', url: 'https://cdn.example.com/d.pdf', mimeType: 'application/pdf' });
const times = <T>(n: number, f: () => T) => Array.from({ length: n }, f);

interface Sample {
  name: string;
  text: string;
  media: MediaRef[];
  platformSpecificData?: Record<string, unknown>;
  accountSettings?: Record<string, unknown>;
}

/** Settings that make a post valid where one is required (a default subreddit, a default board). */
const DEFAULT_SETTINGS = { defaultSubreddit: 'test', defaultBoardId: '1234' };

function samples(p: PlatformId): Sample[] {
  const caps = PLATFORM_CAPABILITIES[p];
  // The media the platform cannot go without, else none.
  const base = caps.mediaRequired === 'video' || p === 'tiktok' ? [video()] : caps.mediaRequired ? [image()] : [];
  // Reddit's first line is the title; the limit applies to the body below it.
  const text = (n: number) => (caps.titleFromFirstLine ? `A title\n${'a'.repeat(n)}` : 'a'.repeat(n));
  const out: Sample[] = [
    { name: 'short text', text: 'hello', media: base },
    { name: 'text at the limit', text: text(caps.maxTextLength), media: base },
    { name: 'text one over the limit', text: text(caps.maxTextLength + 1), media: base },
    { name: 'text only', text: 'hello', media: [] },
    { name: 'nothing', text: '', media: [] },
    { name: 'one image', text: 'hello', media: [image()] },
    { name: 'images at the limit', text: 'hello', media: times(Math.max(caps.maxImages, 1), () => image()) },
    { name: 'one image over the limit', text: 'hello', media: times(caps.maxImages + 1, () => image()) },
    { name: 'one video', text: 'hello', media: [video()] },
    { name: 'one video over the limit', text: 'hello', media: times(caps.maxVideos + 1, video) },
    { name: 'an image and a video', text: 'hello', media: [video(), image()] },
    { name: 'a video and two images', text: 'hello', media: [video(), image(), image()] },
    { name: 'a GIF', text: 'hello', media: [gif()] },
    { name: 'two GIFs', text: 'hello', media: [gif(), gif()] },
    { name: 'a PDF', text: 'hello', media: [pdf()] },
    { name: 'a PDF and an image', text: 'hello', media: [pdf(), image()] },
  ];
  if (caps.imageMaxBytes) {
    out.push({ name: 'an image at the size limit', text: 'hello', media: [image(caps.imageMaxBytes)] });
    out.push({ name: 'an image one byte over the size limit', text: 'hello', media: [image(caps.imageMaxBytes + 1)] });
  }
  if (caps.maxTextBytes) out.push({ name: 'text over the byte limit', text: 'é'.repeat(Math.floor(caps.maxTextBytes / 2) + 1), media: base });
  if (caps.requiredSetting) {
    out.push({ name: `no ${caps.requiredSetting.label}`, text: 'hello', media: base, accountSettings: {} });
    out.push({ name: `a ${caps.requiredSetting.label} on the post`, text: 'hello', media: base, accountSettings: {}, platformSpecificData: { [caps.requiredSetting.field]: p === 'pinterest' ? '1234' : 'test' } });
  }
  return out;
}

/** What the API answers for one target: no text and no media is refused before the adapter (src/modules/posts/targets.ts), else the adapter's rules. */
function serverVerdict(p: PlatformId, s: Sample): string[] {
  if (!s.text.trim() && s.media.length === 0) return ['content.required'];
  const req: PublishRequest = {
    text: s.text, mediaItems: s.media, threadItems: [], platformSpecificData: s.platformSpecificData ?? {}, tags: [], visibility: 'public',
    accountSettings: s.accountSettings ?? DEFAULT_SETTINGS,
  };
  return adapter(p).validate(req).map((v) => v.rule);
}

function composerVerdict(p: PlatformId, s: Sample): string[] {
  return checkPost(p, s.text, s.media, { platformSpecificData: s.platformSpecificData, accountSettings: s.accountSettings ?? DEFAULT_SETTINGS }).map((x) => x.message);
}

describe('composer rules = server rules', () => {
  it('the composer lists every platform, in the server order', () => {
    expect([...PLATFORM_IDS]).toEqual([...PLATFORMS]);
  });

  it.each([...PLATFORMS])('%s: same limits as the adapter', (p) => {
    const caps = adapter(p).capabilities;
    expect(caps).toEqual(capabilitiesOf(p));
    const rule = PLATFORM_RULES[p];
    expect(rule.maxText).toBe(caps.maxTextLength);
    expect(rule.unit).toBe(caps.textUnit);
    expect(rule.maxImages).toBe(caps.maxImages);
    expect(rule.maxVideos).toBe(caps.maxVideos);
    expect(rule.threads).toBe(caps.threads);
    expect(rule.firstComment !== undefined).toBe(caps.firstComment);
    expect(FIRST_COMMENT_PLATFORMS.includes(p)).toBe(caps.firstComment);
  });

  it('Reddit takes no video, in the composer as on the server', () => {
    expect(PLATFORM_RULES.reddit.maxVideos).toBe(0);
    expect(checkPost('reddit', 'A title', [{ type: 'video' }]).map((x) => x.message)).toEqual(['Reddit does not take videos here (images only)']);
  });

  for (const p of PLATFORMS) {
    it.each(samples(p).map((s) => [s.name, s] as const))(`${p}: %s`, (_name, s) => {
      const server = serverVerdict(p, s);
      const composer = composerVerdict(p, s);
      expect({ valid: composer.length === 0, composer }).toEqual({ valid: server.length === 0, composer: server.length === 0 ? [] : expect.anything() });
      if (server.length > 0) expect(composer.length, `server refused (${server.join(', ')}); the composer should too`).toBeGreaterThan(0);
    });
  }
});
