import { describe, expect, it } from 'vitest';
import { FeedParseError, parseFeed, renderTemplate, unknownPlaceholders } from './parse.ts';

const BASE = 'https://site.example/blog/feed.xml';

describe('parseFeed', () => {
  it('reads Media RSS images (media:content, media:group, media:thumbnail) and resolves relative URLs against the feed', () => {
    const xml = `<?xml version="1.0"?><rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>T &amp; co</title>
<item><guid>1</guid><title>One</title><link>/blog/one</link><media:content url="/img/one.jpg" medium="image"/></item>
<item><guid>2</guid><title>Two</title><link>https://site.example/two</link><media:group><media:content url="https://cdn.example/two.png" type="image/png"/></media:group></item>
<item><guid>3</guid><title>Three</title><link>https://site.example/three</link><media:thumbnail url="https://cdn.example/three.jpg"/><enclosure url="https://cdn.example/three.mp3" type="audio/mpeg" length="1"/></item>
<item><title>No guid</title><link>https://site.example/four</link><enclosure url="javascript:alert(1)" type="image/png" length="1"/></item>
</channel></rss>`;
    const feed = parseFeed(xml, 'application/rss+xml', BASE);
    expect(feed.title).toBe('T & co');
    expect(feed.items.map((i) => [i.key, i.link, i.imageUrl])).toEqual([
      ['1', 'https://site.example/blog/one', 'https://site.example/img/one.jpg'],
      ['2', 'https://site.example/two', 'https://cdn.example/two.png'],
      ['3', 'https://site.example/three', 'https://cdn.example/three.jpg'],
      // No guid: the link is the key; a non-http image is ignored.
      ['https://site.example/four', 'https://site.example/four', null],
    ]);
  });

  it('refuses what is not a feed with FeedParseError', () => {
    for (const [body, type] of [['<rss><channel><item></rss>', 'text/xml'], ['<html><body>hi</body></html>', 'text/html'], ['{"version":"x"}', 'application/json'], ['{not json', 'application/feed+json'], ['plain text', 'text/plain']]) {
      expect(() => parseFeed(body, type, BASE), body).toThrow(FeedParseError);
    }
  });

  it('cuts the description to 500 characters of plain text', () => {
    const json = JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'J', items: [{ id: 'a', url: 'https://x.example/a', content_html: `<p>${'word '.repeat(300)}</p>` }] });
    const [item] = parseFeed(json, 'application/feed+json', BASE).items;
    expect(item.description.length).toBeLessThanOrEqual(503);
    expect(item.description).not.toContain('<');
  });
});

describe('templates', () => {
  it('replaces the placeholders and collapses blank lines left by empty fields', () => {
    expect(renderTemplate('{title}\n\n{description}\n\n{link}', { title: 'T', link: 'https://l.example', description: '' })).toBe('T\n\nhttps://l.example');
    expect(renderTemplate('{title} {title}', { title: 'A', link: '', description: '' })).toBe('A A');
  });

  it('names unknown placeholders', () => {
    expect(unknownPlaceholders('{title} {titel} {link} {summary}')).toEqual(['titel', 'summary']);
    expect(unknownPlaceholders('no placeholders, {not one}')).toEqual([]);
  });
});
