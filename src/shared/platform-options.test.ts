import { describe, expect, it } from 'vitest';
import { PLATFORMS } from './platforms.ts';
import { RULE_TABLES } from './rules/catalog.ts';
import { allFields, composerChecksOf, PLATFORM_OPTIONS, settleOptions, thumbnailOf, wordingOf, type Limit, type OptionField } from './platform-options.ts';

const limitsOf = (f: OptionField): Limit[] => {
  if (f.kind === 'text' || f.kind === 'textarea') return f.maxLength ? [f.maxLength] : [];
  if (f.kind === 'repeat') return f.item.flatMap((i) => [i.min, i.max].filter((x): x is Limit => !!x));
  return [];
};

describe('the composer options of every platform', () => {
  it('name, for each limit, a rule of that platform\'s rule table; element ids are unique', () => {
    for (const p of PLATFORMS) {
      const ids = new Set(RULE_TABLES[p].map((r) => r.id));
      const fields = allFields(PLATFORM_OPTIONS[p].fields);
      for (const l of fields.flatMap(limitsOf)) expect(ids.has(l.rule), `${p}: ${l.rule}`).toBe(true);
      const elementIds = fields.flatMap((f) => ('id' in f ? [f.id] : []));
      expect(new Set(elementIds).size, p).toBe(elementIds.length);
    }
  });

  it('run TikTok\'s composer checks from the description, in the order the posting screen asks', () => {
    expect(composerChecksOf('tiktok', {})).toEqual([
      'Choose who can see this TikTok post (TikTok asks the poster to choose; there is no default)',
      'Agree to TikTok\'s Music Usage Confirmation (and the Branded Content Policy for branded content) before posting',
    ]);
    expect(composerChecksOf('tiktok', { _commercial: true, tiktokSettings: { privacy_level: 'SELF_ONLY', express_consent_given: true } })).toEqual([
      'Commercial content is on: choose "Your brand", "Branded content" or both',
    ]);
    expect(composerChecksOf('tiktok', { _commercial: true, tiktokSettings: { privacy_level: 'SELF_ONLY', express_consent_given: true, is_brand_organic_post: true } })).toEqual([]);
    expect(composerChecksOf('twitter', {})).toEqual([]);
  });

  it('settle TikTok\'s options: branded content clears a private audience; the commercial content type follows the toggles', () => {
    expect(settleOptions('tiktok', { tiktokSettings: { privacy_level: 'SELF_ONLY', brand_partner_promote: true } })).toEqual({
      tiktokSettings: { privacy_level: undefined, brand_partner_promote: true, commercial_content_type: 'brand_content' },
    });
    expect(settleOptions('tiktok', { tiktokSettings: { is_brand_organic_post: true } })).toEqual({ tiktokSettings: { is_brand_organic_post: true, commercial_content_type: 'brand_organic' } });
    expect(settleOptions('tiktok', { _commercial: false })).toEqual({ _commercial: false, tiktokSettings: { commercial_content_type: 'none' } });
    expect(settleOptions('reddit', { subreddit: 'x' })).toEqual({ subreddit: 'x' });
  });

  it('word hints from the account, and find the video thumbnail', () => {
    const sub = PLATFORM_OPTIONS.reddit.fields[0]!;
    expect(sub.kind === 'text' && wordingOf(sub.hint!, {}, { defaultSubreddit: 'bread' })).toBe('default r/bread');
    expect(sub.kind === 'text' && wordingOf(sub.hint!, {}, {})).toBe('no default set');
    const board = PLATFORM_OPTIONS.pinterest.fields[0]!;
    expect(board.kind === 'resource-select' && wordingOf(board.emptyLabel, {}, { defaultBoardId: 'b1' })).toBe('Default board (b1)');
    expect(board.kind === 'resource-select' && wordingOf(board.emptyLabel, {}, { defaultBoardId: 'b1', defaultBoardName: 'Bread' })).toBe('Default board (Bread)');
    expect(thumbnailOf('youtube', { _thumbnail: 'https://x/t.jpg' })).toBe('https://x/t.jpg');
    expect(thumbnailOf('facebook', { _thumbnail: 'https://x/t.jpg' })).toBeUndefined();
  });
});
