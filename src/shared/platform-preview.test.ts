import { describe, expect, it } from 'vitest';
import { PLATFORMS } from './platforms.ts';
import { allFields, choicesOf, PLATFORM_OPTIONS, type SelectField } from './platform-options.ts';
import { PLATFORM_PREVIEWS } from './platform-preview.ts';

/** The composer's labels of the select option `key` of `platform`, by value (the empty "none" choice left out). */
function composerLabels(platform: (typeof PLATFORMS)[number], key: string): Record<string, string> {
  const field = allFields(PLATFORM_OPTIONS[platform].fields).find((f): f is SelectField => f.kind === 'select' && f.key === key);
  expect(field, `${platform}: a select option ${key}`).toBeDefined();
  return Object.fromEntries(choicesOf(field!).filter((c) => c.value !== '').map((c) => [c.value, c.label]));
}

describe('the preview descriptions', () => {
  it('label an event\'s kind and a button as the composer\'s options do, and read options the composer has', () => {
    let checked = 0;
    for (const p of PLATFORMS) {
      const spec = PLATFORM_PREVIEWS[p];
      if (spec.event) { expect(spec.event.kinds, p).toEqual(composerLabels(p, spec.event.kind)); checked++; }
      if (spec.button) { expect(spec.button.labels, p).toEqual(composerLabels(p, spec.button.option)); checked++; }
      const keys = new Set(allFields(PLATFORM_OPTIONS[p].fields).flatMap((f) => ('key' in f ? [f.key] : [])));
      for (const key of [spec.contentWarning, spec.poll?.options, spec.poll?.multiple, spec.event?.title, spec.event?.start, spec.event?.end]) {
        if (key) expect(keys.has(key), `${p}: ${key}`).toBe(true);
      }
    }
    expect(checked).toBe(2);
  });
});
