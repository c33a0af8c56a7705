import { describe, expect, it } from 'vitest';
import { FieldErrorCollector } from '../../core/errors.ts';
import { buildPublishRequest, dropTagOverflow, normalizeHashtags, normalizeTags, withHashtagsAndMentions } from './validation.ts';

describe('tags over the limits are dropped with warnings', () => {
  it('post tags: over 100 characters and past the 500 total dropped, the order and first spelling kept', () => {
    const warnings: string[] = [];
    expect(normalizeTags(['A', 'a', 'x'.repeat(101), 'b'.repeat(100), 'c'.repeat(100), 'd'.repeat(100), 'e'.repeat(100), 'f'.repeat(100), 'g'], warnings))
      .toEqual(['A', 'b'.repeat(100), 'c'.repeat(100), 'd'.repeat(100), 'e'.repeat(100), 'g']);
    expect(warnings).toEqual([expect.stringMatching(/^tags: dropped 1 tag\(s\) over 100/), expect.stringMatching(/^tags: dropped 1 tag\(s\) past the 500-character total: "f{20}…"$/)]);
  });

  it('YouTube targets: platformSpecificData.tags trimmed in place; only YouTube targets are touched', () => {
    const warnings: string[] = [];
    const targets = [
      { platform: 'bluesky' as const, platformSpecificData: { tags: ['x'.repeat(200)] } },
      { platform: 'youtube' as const, platformSpecificData: { tags: ['ok', 'y'.repeat(101)], title: 'T' } },
      { platform: 'youtube' as const, platformSpecificData: {} },
    ];
    dropTagOverflow(targets, ['a b'.padEnd(100, 'c'), ...['d', 'e', 'f', 'g'].map((c) => c.repeat(100))], warnings);
    expect(targets[0].platformSpecificData.tags).toEqual(['x'.repeat(200)]);
    expect(targets[1].platformSpecificData).toEqual({ tags: ['ok'], title: 'T' });
    expect(warnings).toEqual([
      expect.stringMatching(/^platforms\.1\.platformSpecificData\.tags: dropped 1 tag\(s\) over 100/),
      expect.stringMatching(/^tags: YouTube counts .* the last 1 tag\(s\) are not sent to YouTube: "g{100}"$/),
    ]);
  });
});

describe('hashtags and mentions in the published text', () => {
  it('adds the missing ones per platform: hashtags and mentions on X, hashtags only on LinkedIn, neither on Reddit', () => {
    expect(withHashtagsAndMentions('Hello', 'twitter', ['a', '#B'], ['@x_y'])).toBe('Hello\n\n#a #B @x_y');
    expect(withHashtagsAndMentions('Hello', 'linkedin', ['a'], ['x'])).toBe('Hello\n\n#a');
    expect(withHashtagsAndMentions('Hello', 'reddit', ['a'], ['x'])).toBe('Hello');
    expect(withHashtagsAndMentions('', 'instagram', ['a'], ['x'])).toBe('#a @x');
  });

  it('the four platforms added last: both on Mastodon and Telegram, neither on Discord or Google Business Profile', () => {
    expect(withHashtagsAndMentions('Hello', 'mastodon', ['a'], ['x'])).toBe('Hello\n\n#a @x');
    expect(withHashtagsAndMentions('Hello', 'telegram', ['a'], ['x'])).toBe('Hello\n\n#a @x');
    expect(withHashtagsAndMentions('Hello', 'discord', ['a'], ['x'])).toBe('Hello');
    expect(withHashtagsAndMentions('Hello', 'googlebusiness', ['a'], ['x'])).toBe('Hello');
  });

  it('does not repeat ones the text already has, and tells #a from #ab and @bob from @bob.test', () => {
    expect(withHashtagsAndMentions('#A and @bob.test.', 'bluesky', ['a'], ['bob.test'])).toBe('#A and @bob.test.');
    expect(withHashtagsAndMentions('#ab @bob.test', 'bluesky', ['a'], ['bob'])).toBe('#ab @bob.test\n\n#a @bob');
    expect(withHashtagsAndMentions('mail me at x@bob.test', 'twitter', [], ['bob.test'])).toBe('mail me at x@bob.test\n\n@bob.test');
  });

  it('a thread gets them on its first item', () => {
    const req = buildPublishRequest({
      content: 'root', customContent: null, mediaItems: [], platformSpecificData: {}, tags: [], visibility: 'public', scheduledFor: null,
      threadItems: [{ content: 'one' }, { content: 'two' }], platform: 'threads', hashtags: ['t'], mentions: [],
    });
    expect(req.text).toBe('one\n\n#t');
    expect(req.threadItems.map((i) => i.content)).toEqual(['one\n\n#t', 'two']);
  });

  it('normalises: trimmed, case-insensitive duplicates removed, the spelling sent kept', () => {
    const errors = new FieldErrorCollector();
    expect(normalizeHashtags([' #Go ', 'go', 'rust', ''], errors)).toEqual(['#Go', 'rust']);
    expect(() => errors.throwIfAny()).not.toThrow();
  });
});
