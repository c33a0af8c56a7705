import { describe, expect, it } from 'vitest';
import { FieldErrorCollector } from '../../core/errors.ts';
import { buildPublishRequest, normalizeHashtags, withHashtagsAndMentions } from './validation.ts';

describe('hashtags and mentions in the published text', () => {
  it('adds the missing ones per platform: hashtags and mentions on X, hashtags only on LinkedIn, neither on Reddit', () => {
    expect(withHashtagsAndMentions('Hello', 'twitter', ['a', '#B'], ['@x_y'])).toBe('Hello\n\n#a #B @x_y');
    expect(withHashtagsAndMentions('Hello', 'linkedin', ['a'], ['x'])).toBe('Hello\n\n#a');
    expect(withHashtagsAndMentions('Hello', 'reddit', ['a'], ['x'])).toBe('Hello');
    expect(withHashtagsAndMentions('', 'instagram', ['a'], ['x'])).toBe('#a @x');
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
