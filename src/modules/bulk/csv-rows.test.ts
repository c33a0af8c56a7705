import { describe, expect, it } from 'vitest';
import { parseRow } from './csv-rows.ts';

describe('bulk CSV rows: shared columns that are a platform option', () => {
  it('title, subreddit, board_id and link go to the platforms that take them (BULK_OPTION_COLUMNS); x is twitter', () => {
    const parsed = parseRow({
      platforms: 'reddit,pinterest,youtube,x,bluesky', profiles: 'Main', publish_now: 'true', post_content: 'Hello',
      title: 'A title', subreddit: 'r/herald', board_id: 'b1', link: 'https://example.com/a', first_comment: 'First!',
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.row.platforms).toEqual(['reddit', 'pinterest', 'youtube', 'twitter', 'bluesky']);
    expect(parsed.row.platformSpecificData).toEqual({
      reddit: { title: 'A title', subreddit: 'herald', url: 'https://example.com/a' },
      pinterest: { title: 'A title', boardId: 'b1', link: 'https://example.com/a' },
      youtube: { firstComment: 'First!', title: 'A title' },
    });
  });

  it('an empty cell sets nothing', () => {
    const parsed = parseRow({ platforms: 'reddit', profiles: 'Main', is_draft: 'true', post_content: 'Hello', subreddit: '', link: ' ' });
    expect(parsed.ok && parsed.row.platformSpecificData).toEqual({});
  });
});
