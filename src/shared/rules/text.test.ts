import { describe, expect, it } from 'vitest';
import { countGraphemes, threadsTextLength, utf8Length } from './text.ts';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const bySegmenter = (t: string) => [...segmenter.segment(t)].length;

describe('countGraphemes', () => {
  it('counts ASCII text (the fast path) exactly as the segmenter does, CR LF being one cluster', () => {
    const samples = ['', 'a', 'hello\r\nworld', '\r\n\r\n', '\r\r\n\n', 'tab\there\x00\x7f', 'a\r', '\n\r', 'x'.repeat(300)];
    // Random ASCII strings rich in CR and LF.
    let seed = 7;
    const next = () => { seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31; return seed; };
    for (let i = 0; i < 500; i++) {
      let s = '';
      for (let j = 0; j < 24; j++) { const r = next() % 160; s += r < 16 ? '\r' : r < 32 ? '\n' : String.fromCharCode(r % 128); }
      samples.push(s);
    }
    for (const s of samples) expect(countGraphemes(s), JSON.stringify(s)).toBe(bySegmenter(s));
    expect(countGraphemes('a\r\nb')).toBe(3);
  });

  it('counts combined characters and emoji sequences as one each', () => {
    expect(countGraphemes('e\u0301')).toBe(1);
    expect(countGraphemes('👍🏽 ok')).toBe(4);
    expect(countGraphemes('👨‍👩‍👧 family')).toBe(8);
  });

  it('measures UTF-8 bytes and Threads lengths', () => {
    expect(utf8Length('é👍')).toBe(6);
    expect(threadsTextLength('ok 👍')).toBe(7);
  });
});
